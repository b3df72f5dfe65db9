/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * modules.c - the dead kernel's loaded modules (modules.h).
 *
 * makedumpfile's way (erase_info.c): walk the list_head 'modules', take
 * each struct module's name and its core symbol table (struct module's
 * core_kallsyms: symtab, num_symtab, strtab, the symbols that stay after
 * the module's init, data ones too with CONFIG_KALLSYMS_ALL), whose
 * st_value are the addresses the module was loaded at.  Kernels before
 * 4.5 kept symtab, num_symtab and strtab in struct module itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modules.h"

#define SYM_NAME_MAX 512             /* KSYM_NAME_LEN */

/* Where the members are, in bytes from the start of struct module. */
struct mod_layout {
	uint64_t list, name, name_len;
	uint64_t symtab, num_symtab, strtab;
	unsigned num_symtab_size;
	int has_btf;
	uint64_t btf_data, btf_size;
	unsigned btf_size_size;
};

int vs_module_name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;

		if (x != y)
			return 0;
	}
	return *a == *b;
}

static int read_uint(const struct vs_erase_mem *mem, uint64_t vaddr,
		     unsigned n, uint64_t *out, struct vs_error *err)
{
	uint8_t b[8];

	if (n == 0 || n > 8)
		return vs_err(err, "an integer of %u bytes at 0x%llx", n,
			      (unsigned long long)vaddr);
	if (mem->read(mem->ctx, vaddr, b, n, err) < 0)
		return -1;
	*out = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned k = mem->big_endian ? i : n - 1 - i;

		*out = (*out << 8) | b[k];
	}
	return 0;
}

static int member(const struct vs_typeinfo *ti, uint64_t type,
		  const char *name, uint64_t *off, struct vs_ti_type *mt,
		  struct vs_error *err)
{
	uint64_t mtype;

	if (ti->ops->member(ti->ctx, type, name, off, &mtype, err) < 0)
		return -1;
	return mt ? ti->ops->type(ti->ctx, mtype, mt, err) : 0;
}

/* symtab, num_symtab, strtab: in core_kallsyms (4.5+) or struct module. */
static int kallsyms_layout(const struct vs_typeinfo *ti, uint64_t mod,
			   struct mod_layout *l, struct vs_error *err)
{
	struct vs_error ignored;
	struct vs_ti_type kt, nt;
	uint64_t base = 0, kid, mtype;

	if (ti->ops->member(ti->ctx, mod, "core_kallsyms", &base, &mtype,
			    &ignored) == 0) {
		if (ti->ops->type(ti->ctx, mtype, &kt, err) < 0)
			return -1;
		kid = mtype;
	} else {
		kid = mod;
	}
	if (member(ti, kid, "symtab", &l->symtab, NULL, err) < 0 ||
	    member(ti, kid, "num_symtab", &l->num_symtab, &nt, err) < 0 ||
	    member(ti, kid, "strtab", &l->strtab, NULL, err) < 0)
		return vs_err_ctx(err, "the module's symbol table");
	l->symtab += base;
	l->num_symtab += base;
	l->strtab += base;
	l->num_symtab_size = (unsigned)nt.size;
	return 0;
}

static int btf_layout(const struct vs_typeinfo *ti, uint64_t mod,
		      struct mod_layout *l, struct vs_error *err)
{
	struct vs_error ignored;
	struct vs_ti_type st;

	/* CONFIG_DEBUG_INFO_BTF_MODULES only */
	if (member(ti, mod, "btf_data", &l->btf_data, NULL, &ignored) < 0)
		return 0;
	if (member(ti, mod, "btf_data_size", &l->btf_size, &st, err) < 0)
		return -1;
	l->btf_size_size = (unsigned)st.size;
	l->has_btf = 1;
	return 0;
}

static int layout(const struct vs_typeinfo *ti, struct mod_layout *l,
		  struct vs_error *err)
{
	struct vs_ti_type nt;
	uint64_t mod;

	memset(l, 0, sizeof(*l));
	if (ti->ops->type_by_name(ti->ctx, "struct module", &mod, err) < 0 ||
	    member(ti, mod, "list", &l->list, NULL, err) < 0 ||
	    member(ti, mod, "name", &l->name, &nt, err) < 0 ||
	    kallsyms_layout(ti, mod, l, err) < 0 || btf_layout(ti, mod, l, err) < 0)
		return vs_err_ctx(err, "the layout of struct module");
	if (nt.kind != VS_TI_ARRAY || nt.size < 2 || nt.size > 64)
		return vs_err(err, "struct module's name is not a char array "
			      "of 2 to 64 bytes");
	l->name_len = nt.size;
	return 0;
}

static int read_ptr(const struct vs_erase_mem *mem, uint64_t vaddr,
		    uint64_t *out, struct vs_error *err)
{
	return read_uint(mem, vaddr, mem->ptr_size, out, err);
}

static int fill(struct vs_module *m, const struct mod_layout *l,
		const struct vs_erase_mem *mem, struct vs_error *err)
{
	uint64_t a = m->addr;

	if (read_ptr(mem, a + l->symtab, &m->symtab, err) < 0 ||
	    read_uint(mem, a + l->num_symtab, l->num_symtab_size, &m->nsyms,
		      err) < 0 ||
	    read_ptr(mem, a + l->strtab, &m->strtab, err) < 0)
		return vs_err_ctx(err, "module '%s' (struct module at 0x%llx): "
				  "its symbol table", m->name,
				  (unsigned long long)a);
	if (m->nsyms > VS_MOD_MAX_SYMS)
		return vs_err(err, "module '%s' (struct module at 0x%llx): %llu "
			      "symbols, more than %u", m->name,
			      (unsigned long long)a,
			      (unsigned long long)m->nsyms, VS_MOD_MAX_SYMS);
	if (l->has_btf &&
	    (read_ptr(mem, a + l->btf_data, &m->btf_data, err) < 0 ||
	     read_uint(mem, a + l->btf_size, l->btf_size_size, &m->btf_size,
		       err) < 0))
		return vs_err_ctx(err, "module '%s' (struct module at 0x%llx): "
				  "its BTF", m->name, (unsigned long long)a);
	m->mem = mem;
	return 0;
}

/* The module at list entry NODE: its address and name into M. */
static int visit(struct vs_module *m, const struct mod_layout *l,
		 const struct vs_erase_mem *mem, uint64_t node,
		 struct vs_error *err)
{
	memset(m, 0, sizeof(*m));
	m->addr = node - l->list;
	if (mem->read(mem->ctx, m->addr + l->name, m->name, l->name_len,
		      err) < 0)
		return vs_err_ctx(err, "the name of the module at 0x%llx",
				  (unsigned long long)m->addr);
	m->name[sizeof(m->name) - 1] = '\0';
	return 0;
}

/* What walk() calls for each module M (its address and name read): 0
 * goes on, 1 stops the walk (walk() returns 1), -1 fails. */
typedef int (*walk_fn)(void *ctx, struct vs_module *m,
		       const struct mod_layout *l, struct vs_error *err);

static int walk(struct vs_module *m, const struct vs_typeinfo *kti,
		const struct vs_erase_mem *mem, walk_fn fn, void *ctx,
		struct vs_error *err)
{
	struct mod_layout l;
	uint64_t head, node;
	unsigned n = 0;
	int ret;

	if (layout(kti, &l, err) < 0 ||
	    kti->ops->symbol(kti->ctx, "modules", &head, err) < 0)
		return -1;
	if (read_ptr(mem, head, &node, err) < 0)
		return vs_err_ctx(err, "the module list at 0x%llx",
				  (unsigned long long)head);
	while (node != head) {
		if (!node)
			return vs_err(err, "the module list at 0x%llx breaks "
				      "after %u modules: a NULL next pointer",
				      (unsigned long long)head, n);
		if (++n > VS_MOD_MAX_LOADED)
			return vs_err(err, "the module list at 0x%llx does not "
				      "end after %u modules",
				      (unsigned long long)head,
				      VS_MOD_MAX_LOADED);
		if (visit(m, &l, mem, node, err) < 0)
			return -1;
		ret = fn(ctx, m, &l, err);
		if (ret != 0)
			return ret;
		if (read_ptr(mem, node, &node, err) < 0)
			return vs_err_ctx(err, "the module list after module "
					  "'%s'", m->name);
	}
	return 0;
}

struct find_arg {
	const char *name;
	const struct vs_erase_mem *mem;
};

static int find_one(void *ctx, struct vs_module *m,
		    const struct mod_layout *l, struct vs_error *err)
{
	const struct find_arg *a = ctx;

	if (!vs_module_name_eq(m->name, a->name))
		return 0;
	return fill(m, l, a->mem, err) < 0 ? -1 : 1;
}

int vs_module_find(struct vs_module **out, const struct vs_typeinfo *kti,
		   const struct vs_erase_mem *mem, const char *name,
		   struct vs_error *err)
{
	struct vs_module *m = calloc(1, sizeof(*m));
	struct find_arg a = { name, mem };
	int ret;

	*out = NULL;
	if (!m)
		return vs_err_oom(err, "out of memory");
	ret = walk(m, kti, mem, find_one, &a, err);
	if (ret == 1) {
		*out = m;
		return 0;
	}
	free(m);
	if (ret < 0)
		return vs_err_ctx(err, "cannot find module '%s' in the dump",
				  name);
	return 0;
}

struct each_arg {
	vs_module_each_fn fn;
	void *ctx;
};

static int each_one(void *ctx, struct vs_module *m,
		    const struct mod_layout *l, struct vs_error *err)
{
	const struct each_arg *a = ctx;

	(void)l;
	return a->fn(a->ctx, m->name, err);
}

int vs_module_each(const struct vs_typeinfo *kti,
		   const struct vs_erase_mem *mem, vs_module_each_fn fn,
		   void *ctx, struct vs_error *err)
{
	struct each_arg a = { fn, ctx };
	struct vs_module m;

	return walk(&m, kti, mem, each_one, &a, err);
}

void vs_module_free(struct vs_module *m)
{
	free(m);
}

/* Symbol I's name offset and value (Elf64_Sym or Elf32_Sym). */
static int sym_at(const struct vs_module *m, uint64_t i, uint64_t *name,
		  uint64_t *value, struct vs_error *err)
{
	const struct vs_erase_mem *mem = m->mem;
	unsigned p = mem->ptr_size;
	uint64_t at = m->symtab + i * (p == 8 ? 24 : 16);

	if (read_uint(mem, at, 4, name, err) < 0 ||
	    read_uint(mem, at + (p == 8 ? 8 : 4), p, value, err) < 0)
		return vs_err_ctx(err, "module '%s': symbol %llu at 0x%llx",
				  m->name, (unsigned long long)i,
				  (unsigned long long)at);
	return 0;
}

/* 1 when the string at strtab + OFF is NAME (LEN bytes and a NUL). */
static int name_is(const struct vs_module *m, uint64_t off, const char *name,
		   size_t len, struct vs_error *err)
{
	char buf[SYM_NAME_MAX + 1];

	if (m->mem->read(m->mem->ctx, m->strtab + off, buf, len + 1, err) < 0)
		return vs_err_ctx(err, "module '%s': a symbol's name at 0x%llx",
				  m->name, (unsigned long long)(m->strtab + off));
	return memcmp(buf, name, len) == 0 && buf[len] == '\0';
}

int vs_module_symbol(const struct vs_module *m, const char *name,
		     uint64_t *addr, struct vs_error *err)
{
	size_t len = strlen(name);

	if (len == 0 || len > SYM_NAME_MAX)
		return vs_err(err, "no symbol '%s' in module '%s'", name,
			      m->name);
	/* entry 0 is the null symbol */
	for (uint64_t i = 1; i < m->nsyms; i++) {
		uint64_t off = 0, value = 0;
		int ret;

		if (sym_at(m, i, &off, &value, err) < 0)
			return -1;
		if (!off)
			continue;
		ret = name_is(m, off, name, len, err);
		if (ret < 0)
			return -1;
		if (ret) {
			*addr = value;
			return 0;
		}
	}
	return vs_err(err, "no symbol '%s' in module '%s' (%llu symbols)",
		      name, m->name, (unsigned long long)m->nsyms);
}

/* struct btf_module's and struct btf's members (kernel/bpf/btf.c). */
struct btf_layout {
	uint64_t list, module, btf;
	uint64_t data, data_size;
	unsigned data_size_size;
};

static int btf_list_layout(const struct vs_typeinfo *ti, struct btf_layout *l,
			   struct vs_error *err)
{
	struct vs_ti_type st;
	uint64_t bm, b;

	if (ti->ops->type_by_name(ti->ctx, "struct btf_module", &bm, err) < 0 ||
	    member(ti, bm, "list", &l->list, NULL, err) < 0 ||
	    member(ti, bm, "module", &l->module, NULL, err) < 0 ||
	    member(ti, bm, "btf", &l->btf, NULL, err) < 0 ||
	    ti->ops->type_by_name(ti->ctx, "struct btf", &b, err) < 0 ||
	    member(ti, b, "data", &l->data, NULL, err) < 0 ||
	    member(ti, b, "data_size", &l->data_size, &st, err) < 0)
		return vs_err_ctx(err, "the kernel's list of module BTF");
	l->data_size_size = (unsigned)st.size;
	return 0;
}

/* The struct btf of M in the list at btf_modules; 0 when M has none. */
static int btf_of(const struct vs_module *m, const struct vs_typeinfo *ti,
		  const struct btf_layout *l, uint64_t *btf,
		  struct vs_error *err)
{
	const struct vs_erase_mem *mem = m->mem;
	uint64_t head, node, mod;
	unsigned n = 0;

	*btf = 0;
	if (ti->ops->symbol(ti->ctx, "btf_modules", &head, err) < 0 ||
	    read_ptr(mem, head, &node, err) < 0)
		return vs_err_ctx(err, "the kernel's list of module BTF");
	while (node != head) {
		if (!node || ++n > VS_MOD_MAX_LOADED)
			return vs_err(err, "the list at btf_modules (0x%llx) "
				      "breaks or does not end after %u "
				      "entries", (unsigned long long)head, n);
		if (read_ptr(mem, node - l->list + l->module, &mod, err) < 0)
			return -1;
		if (mod == m->addr)
			return read_ptr(mem, node - l->list + l->btf, btf, err);
		if (read_ptr(mem, node, &node, err) < 0)
			return -1;
	}
	return 0;
}

int vs_module_btf(const struct vs_module *m, const struct vs_typeinfo *kti,
		  uint64_t *addr, uint64_t *size, struct vs_error *err)
{
	struct btf_layout l;
	uint64_t btf;

	*addr = m->btf_data;
	*size = m->btf_size;
	if (*addr)
		return 0;
	if (btf_list_layout(kti, &l, err) < 0 || btf_of(m, kti, &l, &btf,
							  err) < 0)
		return vs_err_ctx(err, "module '%s': its BTF", m->name);
	if (!btf)
		return 0;
	if (read_ptr(m->mem, btf + l.data, addr, err) < 0 ||
	    read_uint(m->mem, btf + l.data_size, l.data_size_size, size,
		      err) < 0)
		return vs_err_ctx(err, "module '%s': its struct btf at 0x%llx",
				  m->name, (unsigned long long)btf);
	return 0;
}
