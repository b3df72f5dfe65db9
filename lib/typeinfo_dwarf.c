/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * typeinfo_dwarf.c - the DWARF source of typeinfo.h (-x VMLINUX), read
 * with elfutils' libdw and libelf.
 *
 * Opening indexes the file once: the ELF symbol table (name -> address)
 * and, from every CU, the names of its top-level structs, unions, enums,
 * typedefs, base types, variables and enumerators.  A debug vmlinux has
 * thousands of CUs that each repeat the types they use, so every lookup
 * afterwards is one hash probe; nothing walks the CUs again.  A name
 * keeps its first complete definition: a struct with a size, a variable
 * with a location (an array's bounds are on its definition, not on the
 * extern declarations other CUs see).
 *
 * Type ids are DIE offsets in .debug_info.  A pointer that the DWARF
 * need not hold ("task_struct*" asked by name) is the pointee's offset
 * with the pointer depth in bits 56-62 (DIE offsets stay far below).
 */
#include "typeinfo_dwarf.h"

#ifdef VMSIFT_NO_DWARF

int vs_typeinfo_dwarf_open(struct vs_typeinfo *ti, const char *vmlinux,
			   struct vs_error *err)
{
	ti->ops = NULL;
	return vs_err_st(err, VMSIFT_E_UNSUPPORTED, "cannot read '%s': built "
			 "without DWARF (libdw)", vmlinux);
}

const char *vs_typeinfo_dwarf_build_id(const struct vs_typeinfo *ti)
{
	(void)ti;
	return "";
}

int vs_typeinfo_dwarf_machine(const struct vs_typeinfo *ti, unsigned *machine,
			      unsigned *ptr_size)
{
	(void)ti;
	*machine = 0;
	*ptr_size = 0;
	return -1;
}

int vs_typeinfo_dwarf_read(const struct vs_typeinfo *ti, uint64_t addr,
			   void *buf, size_t len, struct vs_error *err)
{
	(void)ti, (void)addr, (void)buf, (void)len;
	return vs_err_st(err, VMSIFT_E_UNSUPPORTED, "built without DWARF (libdw)");
}

int vs_typeinfo_dwarf_srcfile(const struct vs_typeinfo *ti, const char *name,
			      const char **file, struct vs_error *err)
{
	(void)ti, (void)name, (void)file;
	return vs_err_st(err, VMSIFT_E_UNSUPPORTED, "built without DWARF (libdw)");
}

int vs_typeinfo_dwarf_open_module(struct vs_typeinfo *ti, const char *path,
				  struct vs_error *err)
{
	return vs_typeinfo_dwarf_open(ti, path, err);
}

const char *vs_typeinfo_dwarf_path(const struct vs_typeinfo *ti)
{
	(void)ti;
	return NULL;
}

#else

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PTR_SHIFT 56
#define OFF_MASK ((1ull << PTR_SHIFT) - 1)
#define MAX_ANON_DEPTH 8

/* Name spaces of the index. */
enum ns { NS_SYM = 1, NS_VAR, NS_STRUCT, NS_UNION, NS_ENUM, NS_TYPE, NS_ENUMR };

struct entry {
	const char *name;     /* in the mapped ELF or DWARF string data */
	uint64_t val;         /* address, DIE offset or enumerator value */
	uint32_t hash;
	uint8_t ns;
	uint8_t strong;       /* a definition (later ones do not replace it) */
};

struct index {
	struct entry *e;
	size_t cap, used;     /* cap: a power of two, at most half used */
};

struct dw_ctx {
	int fd;
	Elf *elf;
	Dwarf *dw;
	Dwfl *dwfl;           /* a module (ET_REL): owns fd, elf and dw */
	char *path;
	struct index ix;
	unsigned machine, ptr_size;
	int big_endian;       /* DW_AT_bit_offset counts from the other end */
	char build_id[2 * 64 + 1];
};

static const struct vs_typeinfo_ops dwarf_ops;

static uint32_t hash_name(const char *s, enum ns ns)
{
	uint32_t h = 2166136261u ^ (uint32_t)ns;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

static struct entry *ix_find(const struct index *ix, const char *name,
			     enum ns ns, uint32_t h)
{
	size_t i = h & (ix->cap - 1);

	for (; ix->e[i].name; i = (i + 1) & (ix->cap - 1))
		if (ix->e[i].hash == h && ix->e[i].ns == ns &&
		    !strcmp(ix->e[i].name, name))
			return &ix->e[i];
	return &ix->e[i];
}

static int ix_grow(struct index *ix)
{
	struct index n = { calloc(ix->cap ? ix->cap * 2 : 1 << 16,
				  sizeof(struct entry)), 0, 0 };

	if (!n.e)
		return -1;
	n.cap = ix->cap ? ix->cap * 2 : 1 << 16;
	for (size_t i = 0; i < ix->cap; i++) {
		if (ix->e[i].name)
			*ix_find(&n, ix->e[i].name, ix->e[i].ns,
				 ix->e[i].hash) = ix->e[i];
	}
	n.used = ix->used;
	free(ix->e);
	*ix = n;
	return 0;
}

/* Add NAME in NS; an existing weak entry gives way to a strong one. */
static int ix_add(struct index *ix, const char *name, enum ns ns,
		  uint64_t val, int strong)
{
	uint32_t h = hash_name(name, ns);
	struct entry *e;

	if (2 * (ix->used + 1) > ix->cap && ix_grow(ix) < 0)
		return -1;
	e = ix_find(ix, name, ns, h);
	if (e->name && (e->strong || !strong))
		return 0;
	if (!e->name)
		ix->used++;
	*e = (struct entry){ name, val, h, (uint8_t)ns, (uint8_t)strong };
	return 0;
}

static const struct entry *ix_get(const struct index *ix, const char *name,
				  enum ns ns)
{
	const struct entry *e;

	if (!ix->cap)           /* a file without a single name */
		return NULL;
	e = ix_find(ix, name, ns, hash_name(name, ns));
	return e->name ? e : NULL;
}

/* ---- opening: the symbol table, the build id, the DWARF index ---- */

static int index_symtab(struct dw_ctx *c, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	for (size_t i = 1; d && i < n; i++) {
		GElf_Sym sym;
		const char *name;
		int t;

		if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
			continue;
		t = GELF_ST_TYPE(sym.st_info);
		if (t != STT_OBJECT && t != STT_FUNC && t != STT_NOTYPE)
			continue;
		name = elf_strptr(c->elf, sh->sh_link, sym.st_name);
		if (name && *name &&
		    ix_add(&c->ix, name, NS_SYM, sym.st_value,
			   GELF_ST_BIND(sym.st_info) == STB_GLOBAL) < 0)
			return -1;
	}
	return 0;
}

static void read_build_id(struct dw_ctx *c, Elf_Scn *scn)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while (d && (off = gelf_getnote(d, off, &nh, &name_off, &desc_off))) {
		const uint8_t *desc = (const uint8_t *)d->d_buf + desc_off;

		if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
		    memcmp((const char *)d->d_buf + name_off, "GNU", 4) ||
		    nh.n_descsz > 64)
			continue;
		for (size_t i = 0; i < nh.n_descsz; i++)
			snprintf(c->build_id + 2 * i, 3, "%02x", desc[i]);
		return;
	}
}

static int scan_sections(struct dw_ctx *c)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(c->elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB && index_symtab(c, scn, &sh) < 0)
			return -1;
		if (sh.sh_type == SHT_NOTE && !c->build_id[0])
			read_build_id(c, scn);
	}
	return 0;
}

static int has_attr(Dwarf_Die *die, unsigned name)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, name, &a) != NULL;
}

static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;

	return dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
}

/* Whether the enumeration's underlying type is unsigned: libdw reads a
 * DW_FORM_data1 value sign-extended, and 6.12's enum pagetype
 * (PGTY_buddy = 0xf0, unsigned int) is written so. */
static int enum_unsigned(Dwarf_Die *en)
{
	Dwarf_Attribute a;
	Dwarf_Die t;
	Dwarf_Word enc;

	if (!dwarf_formref_die(dwarf_attr_integrate(en, DW_AT_type, &a), &t) ||
	    dwarf_formudata(dwarf_attr_integrate(&t, DW_AT_encoding, &a), &enc))
		return 0;
	return enc == DW_ATE_unsigned || enc == DW_ATE_unsigned_char ||
	       enc == DW_ATE_boolean;
}

static int index_enumerators(struct dw_ctx *c, Dwarf_Die *en)
{
	Dwarf_Die ch;
	const int uns = enum_unsigned(en);

	if (dwarf_child(en, &ch) != 0)
		return 0;
	do {
		Dwarf_Attribute a, *v;
		Dwarf_Sword sv;
		Dwarf_Word uv;
		const char *name = dwarf_diename(&ch);

		if (dwarf_tag(&ch) != DW_TAG_enumerator || !name)
			continue;
		v = dwarf_attr(&ch, DW_AT_const_value, &a);
		if (uns && dwarf_formudata(v, &uv) == 0)
			sv = (Dwarf_Sword)uv;
		else if (dwarf_formsdata(v, &sv))
			continue;
		if (ix_add(&c->ix, name, NS_ENUMR, (uint64_t)sv, 1) < 0)
			return -1;
	} while (dwarf_siblingof(&ch, &ch) == 0);
	return 0;
}

/* One top-level DIE of a CU into the index. */
static int index_die(struct dw_ctx *c, Dwarf_Die *die)
{
	static const struct { int tag; enum ns ns; } kinds[] = {
		{ DW_TAG_structure_type, NS_STRUCT },
		{ DW_TAG_union_type, NS_UNION },
		{ DW_TAG_enumeration_type, NS_ENUM },
		{ DW_TAG_typedef, NS_TYPE },
		{ DW_TAG_base_type, NS_TYPE },
		{ DW_TAG_variable, NS_VAR },
	};
	int tag = dwarf_tag(die), strong;
	const char *name;

	if (tag == DW_TAG_enumeration_type && index_enumerators(c, die) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (kinds[i].tag != tag)
			continue;
		name = die_name(die);
		if (!name)
			return 0;
		strong = tag == DW_TAG_variable ?
			 has_attr(die, DW_AT_location) :
			 !has_attr(die, DW_AT_declaration);
		return ix_add(&c->ix, name, kinds[i].ns, dwarf_dieoffset(die),
			      strong);
	}
	return 0;
}

static int index_dwarf(struct dw_ctx *c, const char *path,
		       struct vs_error *err)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(c->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, die;

		if (dwarf_offdie(c->dw, off + hsize, &cu) &&
		    dwarf_child(&cu, &die) == 0) {
			do {
				if (index_die(c, &die) < 0)
					return vs_err_oom(err, "out of memory "
						"indexing '%s'", path);
			} while (dwarf_siblingof(&die, &die) == 0);
		}
		off = next;
	}
	return 0;
}

static void dw_free(void *ctx)
{
	struct dw_ctx *c = ctx;

	if (!c)
		return;
	if (c->dwfl) {
		dwfl_end(c->dwfl);
	} else {
		if (c->dw)
			dwarf_end(c->dw);
		if (c->elf)
			elf_end(c->elf);
		if (c->fd >= 0)
			close(c->fd);
	}
	free(c->ix.e);
	free(c->path);
	free(c);
}

/* The machine, the pointer size and the sections' facts of C's ELF
 * (header EH). */
static int read_elf_facts(struct dw_ctx *c, const GElf_Ehdr *eh,
			  const char *path, struct vs_error *err)
{
	c->machine = eh->e_machine;
	c->ptr_size = gelf_getclass(c->elf) == ELFCLASS64 ? 8 : 4;
	c->big_endian = eh->e_ident[EI_DATA] == ELFDATA2MSB;
	if (scan_sections(c) < 0)
		return vs_err_oom(err, "out of memory reading '%s'", path);
	return 0;
}

static int open_elf(struct dw_ctx *c, const char *path, struct vs_error *err)
{
	GElf_Ehdr eh;

	c->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (c->fd < 0)
		return vs_err_sys(err, "cannot open '%s'", path);
	elf_version(EV_CURRENT);
	c->elf = elf_begin(c->fd, ELF_C_READ_MMAP, NULL);
	if (!c->elf || elf_kind(c->elf) != ELF_K_ELF || !gelf_getehdr(c->elf, &eh))
		return vs_err(err, "'%s' is not an ELF file", path);
	if (read_elf_facts(c, &eh, path, err) < 0)
		return -1;
	c->dw = dwarf_begin_elf(c->elf, DWARF_C_READ, NULL);
	if (!c->dw)
		return vs_err(err, "'%s' has no DWARF debug information (%s): "
			      "a debug vmlinux is needed", path,
			      dwarf_errmsg(-1));
	return 0;
}

/* A context for the debug file at PATH, nothing opened yet; NULL (and
 * ERR) when out of memory. */
static struct dw_ctx *dw_ctx_new(const char *path, struct vs_error *err)
{
	struct dw_ctx *c = calloc(1, sizeof(*c));

	if (!c) {
		vs_err_oom(err, "out of memory");
		return NULL;
	}
	c->fd = -1;
	c->path = strdup(path);
	if (!c->path) {
		free(c);
		vs_err_oom(err, "out of memory");
		return NULL;
	}
	return c;
}

/* TI reads the debug file at PATH, opened by OPENER (a vmlinux or a
 * module) and indexed. */
static int dwarf_open_with(struct vs_typeinfo *ti, const char *path,
			   int (*opener)(struct dw_ctx *, const char *,
					 struct vs_error *),
			   struct vs_error *err)
{
	struct dw_ctx *c = dw_ctx_new(path, err);

	ti->ops = NULL;
	if (!c)
		return -1;
	if (opener(c, path, err) < 0 || index_dwarf(c, path, err) < 0) {
		dw_free(c);
		return -1;
	}
	ti->ops = &dwarf_ops;
	ti->ctx = c;
	return 0;
}

int vs_typeinfo_dwarf_open(struct vs_typeinfo *ti, const char *vmlinux,
			   struct vs_error *err)
{
	return dwarf_open_with(ti, vmlinux, open_elf, err);
}

/* A module's debug file is relocatable (ET_REL): its DWARF holds
 * relocations (names in .debug_str, among others) that libdwfl applies
 * when it reports the file offline, as makedumpfile reads it. */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *name,
			Dwarf_Addr base, const char *file, const char *link,
			GElf_Word crc, char **debuginfo)
{
	(void)mod, (void)userdata, (void)name, (void)base, (void)file;
	(void)link, (void)crc, (void)debuginfo;
	return -1;
}

static const Dwfl_Callbacks module_callbacks = {
	.section_address = dwfl_offline_section_address,
	.find_debuginfo = no_debuginfo,
};

static int open_module(struct dw_ctx *c, const char *path,
		       struct vs_error *err)
{
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	GElf_Ehdr eh;
	int fd;

	c->dwfl = dwfl_begin(&module_callbacks);
	if (!c->dwfl)
		return vs_err_oom(err, "cannot start libdwfl: %s",
				  dwfl_errmsg(-1));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return vs_err_sys(err, "cannot open '%s'", path);
	mod = dwfl_report_offline(c->dwfl, "module", path, fd);
	if (!mod) {
		close(fd);
		return vs_err(err, "cannot read '%s': %s", path,
			      dwfl_errmsg(-1));
	}
	dwfl_report_end(c->dwfl, NULL, NULL);
	c->dw = dwfl_module_getdwarf(mod, &bias);
	if (!c->dw)
		return vs_err(err, "'%s' has no DWARF debug information (%s)",
			      path, dwfl_errmsg(-1));
	c->elf = dwarf_getelf(c->dw);
	if (!c->elf || !gelf_getehdr(c->elf, &eh))
		return vs_err(err, "'%s' is not an ELF file", path);
	return read_elf_facts(c, &eh, path, err);
}

int vs_typeinfo_dwarf_open_module(struct vs_typeinfo *ti, const char *path,
				  struct vs_error *err)
{
	return dwarf_open_with(ti, path, open_module, err);
}

/* ---- the ops ---- */

static int not_found(struct vs_error *err, const char *what, const char *name)
{
	return vs_err(err, "no %s '%s' in the debug information", what, name);
}

static int dw_symbol(void *ctx, const char *name, uint64_t *addr,
		     struct vs_error *err)
{
	const struct dw_ctx *c = ctx;
	const struct entry *e = ix_get(&c->ix, name, NS_SYM);

	if (!e)
		return not_found(err, "symbol", name);
	*addr = e->val;
	return 0;
}

static int type_attr(const struct dw_ctx *c, Dwarf_Die *die, uint64_t *type)
{
	Dwarf_Attribute a;
	Dwarf_Die t;

	(void)c;
	if (!dwarf_formref_die(dwarf_attr_integrate(die, DW_AT_type, &a), &t))
		return -1;
	*type = dwarf_dieoffset(&t);
	return 0;
}

static int dw_symbol_type(void *ctx, const char *name, uint64_t *type,
			  struct vs_error *err)
{
	struct dw_ctx *c = ctx;
	const struct entry *e = ix_get(&c->ix, name, NS_VAR);
	Dwarf_Die die;

	if (!e)
		return not_found(err, "variable", name);
	if (!dwarf_offdie(c->dw, e->val, &die) || type_attr(c, &die, type) < 0)
		return vs_err(err, "variable '%s' has no type in the debug "
			      "information", name);
	return 0;
}

static int lookup_type(const struct dw_ctx *c, const char *name, uint64_t *type)
{
	static const struct { const char *prefix; enum ns ns; } tagged[] = {
		{ "struct ", NS_STRUCT }, { "union ", NS_UNION },
		{ "enum ", NS_ENUM },
	};
	static const enum ns order[] = { NS_TYPE, NS_STRUCT, NS_UNION, NS_ENUM };
	const struct entry *e = NULL;

	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(tagged[i].prefix);

		if (!strncmp(name, tagged[i].prefix, n)) {
			e = ix_get(&c->ix, name + n, tagged[i].ns);
			break;
		}
	}
	for (size_t i = 0; !e && i < sizeof(order) / sizeof(order[0]); i++)
		e = ix_get(&c->ix, name, order[i]);
	if (!e)
		return -1;
	*type = e->val;
	return 0;
}

static int dw_type_by_name(void *ctx, const char *name, uint64_t *type,
			   struct vs_error *err)
{
	const struct dw_ctx *c = ctx;
	char base[256];
	size_t n = strlen(name);
	uint64_t depth = 0;

	while (n && (name[n - 1] == '*' || name[n - 1] == ' ')) {
		depth += name[n - 1] == '*';
		n--;
	}
	if (n == 0 || n >= sizeof(base) || depth > 127)
		return vs_err(err, "bad type name '%s'", name);
	memcpy(base, name, n);
	base[n] = '\0';
	if (lookup_type(c, base, type) < 0)
		return not_found(err, "type", base);
	*type |= depth << PTR_SHIFT;
	return 0;
}

/* A declaration of a struct, union or enum (a CU that sees the type
 * incomplete, "struct kmem_cache;") stands for its definition: the one
 * the index holds under that name, as makedumpfile finds types by name. */
static void complete(const struct dw_ctx *c, Dwarf_Die *die)
{
	static const struct { int tag; enum ns ns; } kinds[] = {
		{ DW_TAG_structure_type, NS_STRUCT },
		{ DW_TAG_union_type, NS_UNION },
		{ DW_TAG_enumeration_type, NS_ENUM },
	};
	const char *name = dwarf_diename(die);
	const struct entry *e = NULL;
	Dwarf_Die def;

	if (!name || !has_attr(die, DW_AT_declaration))
		return;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].tag == dwarf_tag(die))
			e = ix_get(&c->ix, name, kinds[i].ns);
	if (e && e->strong && dwarf_offdie(c->dw, e->val, &def))
		*die = def;
}

/* DIE of TYPE with typedefs and qualifiers followed (and a declaration
 * completed); 0 with VOID set when they end in void (no DW_AT_type). */
static int resolve(const struct dw_ctx *c, uint64_t type, Dwarf_Die *die,
		   int *is_void)
{
	*is_void = 0;
	if (!dwarf_offdie(c->dw, type & OFF_MASK, die))
		return -1;
	for (int i = 0; i < 64; i++) {
		int tag = dwarf_tag(die);
		Dwarf_Attribute a;

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_restrict_type &&
		    tag != DW_TAG_atomic_type) {
			complete(c, die);
			return 0;
		}
		if (!dwarf_formref_die(dwarf_attr(die, DW_AT_type, &a), die)) {
			*is_void = 1;
			return 0;
		}
	}
	return -1;
}

/* Elements of an array DIE: the product of its dimensions (0 when one is
 * flexible or unknown). */
static uint64_t array_nelem(Dwarf_Die *die)
{
	Dwarf_Die ch;
	uint64_t n = 1;

	if (dwarf_child(die, &ch) != 0)
		return 0;
	do {
		Dwarf_Attribute a;
		Dwarf_Word v;

		if (dwarf_tag(&ch) != DW_TAG_subrange_type)
			continue;
		if (!dwarf_formudata(dwarf_attr(&ch, DW_AT_count, &a), &v))
			n *= v;
		else if (!dwarf_formudata(dwarf_attr(&ch, DW_AT_upper_bound, &a),
					  &v) && v != (Dwarf_Word)-1)
			n *= v + 1;
		else
			return 0;
	} while (dwarf_siblingof(&ch, &ch) == 0);
	return n;
}

static enum vs_ti_kind kind_of(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word enc = 0;

	switch (dwarf_tag(die)) {
	case DW_TAG_base_type:
		dwarf_formudata(dwarf_attr(die, DW_AT_encoding, &a), &enc);
		return enc == DW_ATE_float || enc == DW_ATE_complex_float ?
		       VS_TI_OTHER : VS_TI_INT;
	case DW_TAG_enumeration_type: return VS_TI_INT;
	case DW_TAG_pointer_type: return VS_TI_PTR;
	case DW_TAG_array_type: return VS_TI_ARRAY;
	case DW_TAG_structure_type: return VS_TI_STRUCT;
	case DW_TAG_union_type: return VS_TI_UNION;
	case DW_TAG_subroutine_type: return VS_TI_FUNC;
	default: return VS_TI_OTHER;
	}
}

static int dw_type(void *ctx, uint64_t type, struct vs_ti_type *out,
		   struct vs_error *err)
{
	const struct dw_ctx *c = ctx;
	uint64_t depth = type >> PTR_SHIFT;
	Dwarf_Die die;
	Dwarf_Word size = 0;
	int is_void;

	memset(out, 0, sizeof(*out));
	if (depth) {
		out->kind = VS_TI_PTR;
		out->size = c->ptr_size;
		out->target = ((depth - 1) << PTR_SHIFT) | (type & OFF_MASK);
		return 0;
	}
	if (type == 0 || resolve(c, type, &die, &is_void) < 0)
		return vs_err(err, "no type 0x%llx in the debug information",
			      (unsigned long long)type);
	if (is_void) {
		out->kind = VS_TI_OTHER;
		out->name = "void";
		return 0;
	}
	out->kind = kind_of(&die);
	out->name = dwarf_diename(&die);
	/* a declaration no definition in this file completed */
	out->incomplete = (out->kind == VS_TI_STRUCT ||
			   out->kind == VS_TI_UNION) &&
			  has_attr(&die, DW_AT_declaration);
	/* a function's target: its return type (0: void) */
	if (out->kind == VS_TI_PTR || out->kind == VS_TI_ARRAY ||
	    out->kind == VS_TI_FUNC)
		type_attr(c, &die, &out->target);
	if (out->kind == VS_TI_ARRAY)
		out->nelem = array_nelem(&die);
	if (out->kind == VS_TI_PTR)
		size = c->ptr_size;
	if (dwarf_aggregate_size(&die, &size) == 0 || out->kind == VS_TI_PTR)
		out->size = size;
	return 0;
}

static int member_offset(Dwarf_Die *m, uint64_t *off)
{
	Dwarf_Attribute a;
	Dwarf_Word v;
	Dwarf_Op *ops;
	size_t n;

	*off = 0;
	if (dwarf_attr(m, DW_AT_data_member_location, &a)) {
		if (dwarf_formudata(&a, &v) == 0) {
			*off = v;
			return 0;
		}
		if (dwarf_getlocation(&a, &ops, &n) == 0 && n == 1 &&
		    ops[0].atom == DW_OP_plus_uconst) {
			*off = ops[0].number;
			return 0;
		}
		return -1;
	}
	if (dwarf_formudata(dwarf_attr(m, DW_AT_data_bit_offset, &a), &v) == 0)
		*off = v / 8;
	return 0;
}

#define FOUND_BITFIELD (-2)
#define FOUND_TOO_MANY (-3)

/* MEMBER of the struct or union DIE, in its anonymous members too: 0,
 * -1 when not found, FOUND_BITFIELD for a bit-field (not a range of
 * bytes: the BTF source refuses it too; makedumpfile 1.7.2 erases at the
 * struct's address minus one, doc/erase.md), FOUND_TOO_MANY when *LEFT
 * children have been looked at (VS_TI_MAX_VISITS in all). */
static int find_member(const struct dw_ctx *c, Dwarf_Die *sd,
		       const char *member, uint64_t *off, uint64_t *mtype,
		       int depth, unsigned *left)
{
	Dwarf_Die m;

	if (dwarf_child(sd, &m) != 0)
		return -1;
	do {
		const char *name = dwarf_diename(&m);
		Dwarf_Die t;
		int is_void, tag, ret;

		if (*left == 0)
			return FOUND_TOO_MANY;
		--*left;
		if (dwarf_tag(&m) != DW_TAG_member)
			continue;
		if (name && !strcmp(name, member)) {
			if (has_attr(&m, DW_AT_bit_size))
				return FOUND_BITFIELD;
			return member_offset(&m, off) < 0 ||
			       type_attr(c, &m, mtype) < 0 ? -1 : 0;
		}
		if (name || depth >= MAX_ANON_DEPTH ||
		    type_attr(c, &m, mtype) < 0 ||
		    resolve(c, *mtype, &t, &is_void) < 0 || is_void)
			continue;
		tag = dwarf_tag(&t);
		if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type)
			continue;
		ret = find_member(c, &t, member, off, mtype, depth + 1, left);
		if (ret == 0) {
			uint64_t base;

			if (member_offset(&m, &base) < 0)
				return -1;
			*off += base;
		}
		if (ret != -1)
			return ret;
	} while (dwarf_siblingof(&m, &m) == 0);
	return -1;
}

static int dw_member(void *ctx, uint64_t type, const char *member,
		     uint64_t *offset, uint64_t *mtype, struct vs_error *err)
{
	const struct dw_ctx *c = ctx;
	Dwarf_Die die;
	int is_void, tag, ret;
	const char *tname;
	unsigned left = VS_TI_MAX_VISITS;

	if (type >> PTR_SHIFT || resolve(c, type, &die, &is_void) < 0 ||
	    is_void)
		return vs_err(err, "type 0x%llx is not a struct or union "
			      "(looking for member '%s')",
			      (unsigned long long)type, member);
	tag = dwarf_tag(&die);
	tname = dwarf_diename(&die);
	if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type)
		return vs_err(err, "'%s' is not a struct or union (looking for "
			      "member '%s')", tname ? tname : "?", member);
	ret = find_member(c, &die, member, offset, mtype, 0, &left);
	if (ret == FOUND_BITFIELD)
		return vs_err(err, "member '%s' is a bitfield: it cannot be "
			      "erased by bytes", member);
	if (ret == FOUND_TOO_MANY)
		return vs_err(err, "member '%s' of '%s': more than %u members "
			      "looked at, anonymous ones' included", member,
			      tname ? tname : "(anonymous)", VS_TI_MAX_VISITS);
	if (ret < 0)
		return vs_err(err, "no member '%s' in '%s %s'", member,
			      tag == DW_TAG_union_type ? "union" : "struct",
			      tname ? tname : "(anonymous)");
	return 0;
}

/* A bit-field's first bit from the start of the struct (OFF: the byte
 * offset member_offset() found) and its width into OUT; nothing for a
 * member that is not one.  DWARF 4+ gives DW_AT_data_bit_offset; DWARF
 * 2/3 (gcc -gdwarf-4 too) DW_AT_bit_offset, counted from the most
 * significant bit of a DW_AT_byte_size unit at OFF (a unit that does not
 * hold the field, which no compiler writes: OFF's bit plus the count as
 * given, still the same for the same layout). */
static int member_bits(const struct dw_ctx *c, Dwarf_Die *m, uint64_t off,
		       struct vs_ti_member *out)
{
	Dwarf_Attribute a;
	Dwarf_Word size, v, unit;

	out->bit_offset = off * 8;
	out->bit_size = 0;
	if (dwarf_formudata(dwarf_attr(m, DW_AT_bit_size, &a), &size) != 0)
		return 0;
	if (size == 0 || size > UINT32_MAX)
		return -1;
	out->bit_size = (uint32_t)size;
	if (dwarf_formudata(dwarf_attr(m, DW_AT_data_bit_offset, &a), &v) == 0) {
		out->bit_offset = v;
	} else if (dwarf_formudata(dwarf_attr(m, DW_AT_bit_offset, &a),
				   &v) == 0) {
		if (dwarf_formudata(dwarf_attr(m, DW_AT_byte_size, &a),
				    &unit) != 0 || unit > 64 ||
		    v > unit * 8 || size > unit * 8 - v || c->big_endian)
			out->bit_offset = off * 8 + v;
		else
			out->bit_offset = off * 8 + unit * 8 - v - size;
	}
	out->offset = out->bit_offset / 8;
	return 0;
}

/* The DW_TAG_member child of the struct or union TYPE after the one at
 * DIE offset *POS (0: the first), its offset into *POS: one step from
 * where the last call stopped, not a walk from the first child. */
static int dw_member_next(void *ctx, uint64_t type, uint64_t *pos,
			  struct vs_ti_member *out, struct vs_error *err)
{
	const struct dw_ctx *c = ctx;
	Dwarf_Die die, m;
	int is_void, ret;

	if (type >> PTR_SHIFT || resolve(c, type, &die, &is_void) < 0 ||
	    is_void || (kind_of(&die) != VS_TI_STRUCT &&
			kind_of(&die) != VS_TI_UNION))
		return vs_err(err, "type 0x%llx is not a struct or union",
			      (unsigned long long)type);
	if (*pos == 0)
		ret = dwarf_child(&die, &m);
	else if (!dwarf_offdie(c->dw, *pos, &m))
		return vs_err(err, "no member at 0x%llx in type 0x%llx",
			      (unsigned long long)*pos,
			      (unsigned long long)type);
	else
		ret = dwarf_siblingof(&m, &m);
	for (; ret == 0; ret = dwarf_siblingof(&m, &m)) {
		if (dwarf_tag(&m) != DW_TAG_member)
			continue;
		*pos = dwarf_dieoffset(&m);
		out->name = dwarf_diename(&m);
		if (member_offset(&m, &out->offset) < 0 ||
		    type_attr(c, &m, &out->type) < 0 ||
		    member_bits(c, &m, out->offset, out) < 0)
			return vs_err(err, "member '%s' (DIE 0x%llx) of type "
				      "0x%llx has no offset, type or bits",
				      out->name ? out->name : "(anonymous)",
				      (unsigned long long)*pos,
				      (unsigned long long)type);
		return 0;
	}
	return ret < 0 ? vs_err(err, "the members of type 0x%llx: %s",
				(unsigned long long)type, dwarf_errmsg(-1)) : 1;
}

static int dw_enumerator(void *ctx, const char *name, int64_t *value,
			 struct vs_error *err)
{
	const struct dw_ctx *c = ctx;
	const struct entry *e = ix_get(&c->ix, name, NS_ENUMR);

	if (!e)
		return not_found(err, "enumerator", name);
	*value = (int64_t)e->val;
	return 0;
}

static const struct vs_typeinfo_ops dwarf_ops = {
	.name = "DWARF",
	.symbol = dw_symbol,
	.symbol_type = dw_symbol_type,
	.type_by_name = dw_type_by_name,
	.type = dw_type,
	.member = dw_member,
	.member_next = dw_member_next,
	.enumerator = dw_enumerator,
	.free = dw_free,
};

/* ---- what only the file tells ---- */

static const struct dw_ctx *ctx_of(const struct vs_typeinfo *ti)
{
	return ti && ti->ops == &dwarf_ops ? ti->ctx : NULL;
}

const char *vs_typeinfo_dwarf_build_id(const struct vs_typeinfo *ti)
{
	const struct dw_ctx *c = ctx_of(ti);

	return c ? c->build_id : "";
}

const char *vs_typeinfo_dwarf_path(const struct vs_typeinfo *ti)
{
	const struct dw_ctx *c = ctx_of(ti);

	return c ? c->path : NULL;
}

int vs_typeinfo_dwarf_machine(const struct vs_typeinfo *ti, unsigned *machine,
			      unsigned *ptr_size)
{
	const struct dw_ctx *c = ctx_of(ti);

	if (!c)
		return -1;
	*machine = c->machine;
	*ptr_size = c->ptr_size;
	return 0;
}

int vs_typeinfo_dwarf_read(const struct vs_typeinfo *ti, uint64_t addr,
			   void *buf, size_t len, struct vs_error *err)
{
	const struct dw_ctx *c = ctx_of(ti);
	Elf_Scn *scn = NULL;

	if (!c)
		return vs_err_st(err, VMSIFT_E_INVALID, "not a DWARF typeinfo");
	while ((scn = elf_nextscn(c->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_ALLOC) || addr < sh.sh_addr ||
		    addr - sh.sh_addr > sh.sh_size ||
		    len > sh.sh_size - (addr - sh.sh_addr))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || d->d_size < sh.sh_size)
			break;
		memcpy(buf, (const char *)d->d_buf + (addr - sh.sh_addr), len);
		return 0;
	}
	return vs_err(err, "the vmlinux holds no initialised data at 0x%llx "
		      "(%zu bytes)", (unsigned long long)addr, len);
}

int vs_typeinfo_dwarf_srcfile(const struct vs_typeinfo *ti, const char *name,
			      const char **file, struct vs_error *err)
{
	const struct dw_ctx *c = ctx_of(ti);
	uint64_t type;
	Dwarf_Die die;

	if (!c)
		return vs_err_st(err, VMSIFT_E_INVALID, "not a DWARF typeinfo");
	if (lookup_type(c, name, &type) < 0 || !dwarf_offdie(c->dw, type, &die))
		return not_found(err, "type", name);
	*file = dwarf_decl_file(&die);
	if (!*file)
		return vs_err(err, "type '%s' has no source file", name);
	return 0;
}

#endif
