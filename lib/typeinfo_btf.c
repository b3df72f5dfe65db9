/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * typeinfo_btf.c - the BTF source of typeinfo.h: addresses from the dead
 * kernel's kallsyms (kallsyms.c), types from its own BTF, found between
 * __start_BTF and __stop_BTF through kallsyms and parsed with libbpf
 * (btf__new, which takes raw BTF of either byte order).
 *
 * Ids: a BTF type id plus one (BTF's id 0, void, becomes 1; 0 stays
 * invalid).  A pointer the BTF does not hold ("T*" where no PTR to T was
 * emitted) is synthesized: PTR_FLAG | the target's id; its size is the
 * dumped machine's pointer size.
 *
 * BTF describes types and per-CPU variables (VARs of the .data..percpu
 * DATASEC), not the type of every global: symbol_type() answers for
 * those and otherwise fails with a message telling the user to name the
 * type in the rule, SYMBOL:TYPE (doc/erase.md).  Bitfield members are
 * refused: an erase works on whole bytes.
 *
 * BTF from a dump is data: every id is checked (btf__type_by_id returns
 * NULL past the table), typedef chains and anonymous-member nesting are
 * bounded, names may be NULL.
 */
#if defined(VMSIFT_NO_BTF) || !__has_include(<bpf/btf.h>)
/* A build without libbpf: the static programs (-DVMSIFT_NO_BTF: the
 * cross sysroots carry no libbpf) and any compiler that cannot see its
 * headers (behost.sh's s390x build of lib/): the BTF source is there and
 * says it is not. */
#include "typeinfo_btf.h"
#include "kallsyms.h"

int vs_typeinfo_btf_open(struct vs_typeinfo *ti, const struct vs_input *in,
			 struct vs_error *err)
{
	(void)in;
	ti->ops = NULL;
	ti->ctx = NULL;
	return vs_err_st(err, VMSIFT_E_UNSUPPORTED, "this vmsift was built "
			 "without libbpf: no types from the kernel's BTF");
}

int vs_typeinfo_btf_new(struct vs_typeinfo *ti, const void *btf, size_t size,
			struct vs_kallsyms *ks, unsigned ptr_size,
			struct vs_error *err)
{
	(void)btf;
	(void)size;
	(void)ptr_size;
	vs_kallsyms_free(ks);
	return vs_typeinfo_btf_open(ti, NULL, err);
}

int vs_typeinfo_btf_new_split(struct vs_typeinfo *ti,
			      const struct vs_typeinfo *base, const void *btf,
			      size_t size, struct vs_error *err)
{
	(void)base;
	(void)btf;
	(void)size;
	return vs_typeinfo_btf_open(ti, NULL, err);
}
#else
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "arch.h"
#include "input.h"
#include "kallsyms.h"
#include "typeinfo_btf.h"

#define PTR_FLAG   (1ull << 63)
#define MAX_CHAIN  64          /* typedef / qualifier links followed */
#define MAX_NEST   32          /* anonymous members inside anonymous ones */
#define NAME_LEN   256

struct ti_btf {
	struct btf *btf;
	struct vs_kallsyms *ks;
	unsigned ptr_size;
};

static const struct btf_type *type_at(const struct ti_btf *b, uint32_t id,
				      struct vs_error *err)
{
	const struct btf_type *t = btf__type_by_id(b->btf, id);

	if (!t)
		vs_err(err, "BTF type id %u is out of the table (%u types)", id,
		       btf__type_cnt(b->btf));
	return t;
}

static const char *name_of(const struct ti_btf *b, const struct btf_type *t)
{
	const char *n = btf__name_by_offset(b->btf, t->name_off);

	return n && *n ? n : NULL;
}

/* Follow typedefs and qualifiers from ID to the type they name. */
static int resolve(const struct ti_btf *b, uint32_t id, uint32_t *out,
		   const struct btf_type **tp, struct vs_error *err)
{
	const struct btf_type *t;
	int i;

	for (i = 0; i < MAX_CHAIN; i++) {
		t = type_at(b, id, err);
		if (!t)
			return -1;
		if (!btf_is_typedef(t) && !btf_is_mod(t) && !btf_is_type_tag(t)) {
			*out = id;
			*tp = t;
			return 0;
		}
		id = t->type;
	}
	return vs_err(err, "BTF type id %u: more than %d typedefs and "
		      "qualifiers in a row", id, MAX_CHAIN);
}

static int ti_symbol(void *ctx, const char *name, uint64_t *addr,
		     struct vs_error *err)
{
	const struct ti_btf *b = ctx;

	if (!b->ks)
		return vs_err(err, "no kallsyms to look up symbol '%s' in", name);
	return vs_kallsyms_lookup(b->ks, name, addr, NULL, err);
}

/* The VAR named NAME in a DATASEC (the per-CPU section): its type. */
static int find_var(const struct ti_btf *b, const char *name, uint32_t *type)
{
	uint32_t id, n = btf__type_cnt(b->btf), k;
	const struct btf_type *t, *v;
	const struct btf_var_secinfo *si;
	const char *vn;

	for (id = 1; id < n; id++) {
		t = btf__type_by_id(b->btf, id);
		if (!t || !btf_is_datasec(t))
			continue;
		si = btf_var_secinfos(t);
		for (k = 0; k < btf_vlen(t); k++) {
			v = btf__type_by_id(b->btf, si[k].type);
			vn = v && btf_is_var(v) ? name_of(b, v) : NULL;
			if (vn && !strcmp(vn, name)) {
				*type = v->type;
				return 0;
			}
		}
	}
	return -1;
}

static int ti_symbol_type(void *ctx, const char *name, uint64_t *type,
			  struct vs_error *err)
{
	const struct ti_btf *b = ctx;
	uint32_t t;

	if (find_var(b, name, &t) == 0) {
		*type = (uint64_t)t + 1;
		return 0;
	}
	return vs_err(err, "the kernel's BTF records the types of per-CPU "
		      "variables only, not of '%s' (write it %s:TYPE)", name,
		      name);
}

/* A PTR type whose target is TARGET (a BTF id), or 0. */
static uint32_t find_ptr(const struct ti_btf *b, uint32_t target)
{
	uint32_t id, n = btf__type_cnt(b->btf);
	const struct btf_type *t;

	for (id = 1; id < n; id++) {
		t = btf__type_by_id(b->btf, id);
		if (t && btf_is_ptr(t) && t->type == target)
			return id;
	}
	return 0;
}

/* KIND's type named NAME, or -1. */
static int64_t find_kind(const struct ti_btf *b, const char *name,
			 const int *kinds, size_t nkinds)
{
	int32_t id;
	size_t i;

	for (i = 0; i < nkinds; i++) {
		id = btf__find_by_name_kind(b->btf, name, kinds[i]);
		if (id > 0)
			return id;
	}
	return -1;
}

static int64_t find_named(const struct ti_btf *b, const char *name)
{
	/* a declaration last ("struct x;": BTF_KIND_FWD), which a
	 * [module] section completes from elsewhere (typeinfo_complete.h) */
	static const int any[] = { BTF_KIND_STRUCT, BTF_KIND_UNION,
				   BTF_KIND_TYPEDEF, BTF_KIND_INT,
				   BTF_KIND_ENUM, BTF_KIND_ENUM64,
				   BTF_KIND_FLOAT, BTF_KIND_FWD };
	static const int st[] = { BTF_KIND_STRUCT, BTF_KIND_FWD };
	static const int un[] = { BTF_KIND_UNION, BTF_KIND_FWD };
	static const int en[] = { BTF_KIND_ENUM, BTF_KIND_ENUM64 };

	if (!strncmp(name, "struct ", 7))
		return find_kind(b, name + 7, st, 2);
	if (!strncmp(name, "union ", 6))
		return find_kind(b, name + 6, un, 2);
	if (!strncmp(name, "enum ", 5))
		return find_kind(b, name + 5, en, 2);
	if (!strcmp(name, "void"))
		return 0;
	return find_kind(b, name, any, sizeof(any) / sizeof(any[0]));
}

/* NAME without surrounding blanks and its trailing '*'s, counted. */
static int split_name(const char *name, char *base, unsigned *stars)
{
	size_t len;

	while (*name == ' ')
		name++;
	len = strlen(name);
	*stars = 0;
	while (len && (name[len - 1] == ' ' || name[len - 1] == '*'))
		*stars += name[--len] == '*';
	if (len == 0 || len >= NAME_LEN)
		return -1;
	memcpy(base, name, len);
	base[len] = '\0';
	return 0;
}

static int ti_type_by_name(void *ctx, const char *name, uint64_t *type,
			   struct vs_error *err)
{
	const struct ti_btf *b = ctx;
	char base[NAME_LEN];
	unsigned stars, i;
	int64_t id;
	uint32_t p;

	if (split_name(name, base, &stars) < 0)
		return vs_err(err, "bad type name '%s'", name);
	id = find_named(b, base);
	if (id < 0)
		return vs_err(err, "type '%s' is not in the kernel's BTF", base);
	for (i = 0; i < stars; i++) {
		if (i + 1 == stars && ((p = find_ptr(b, (uint32_t)id)) == 0)) {
			*type = PTR_FLAG | ((uint64_t)id + 1);
			return 0;
		}
		if (i + 1 < stars && (p = find_ptr(b, (uint32_t)id)) == 0)
			return vs_err(err, "type '%s': the kernel's BTF has no "
				      "pointer to '%s'", name, base);
		id = p;
	}
	*type = (uint64_t)id + 1;
	return 0;
}

static void describe(const struct ti_btf *b, uint32_t id,
		     const struct btf_type *t, struct vs_ti_type *out)
{
	int64_t size;

	memset(out, 0, sizeof(*out));
	out->name = name_of(b, t);
	if (id == 0) {
		out->kind = VS_TI_OTHER;
		out->name = "void";
	} else if (btf_is_int(t) || btf_is_any_enum(t)) {
		out->kind = VS_TI_INT;
		out->size = t->size;
	} else if (btf_is_ptr(t)) {
		out->kind = VS_TI_PTR;
		out->size = b->ptr_size;
		out->target = (uint64_t)t->type + 1;
	} else if (btf_is_array(t)) {
		out->kind = VS_TI_ARRAY;
		out->nelem = btf_array(t)->nelems;
		out->target = (uint64_t)btf_array(t)->type + 1;
		size = btf__resolve_size(b->btf, id);
		out->size = size > 0 ? (uint64_t)size : 0;
	} else if (btf_is_struct(t) || btf_is_union(t)) {
		out->kind = btf_is_struct(t) ? VS_TI_STRUCT : VS_TI_UNION;
		out->size = t->size;
	} else if (btf_is_fwd(t)) {
		/* "struct x;": no size, no members here */
		out->kind = btf_kflag(t) ? VS_TI_UNION : VS_TI_STRUCT;
		out->incomplete = 1;
	} else if (btf_is_func(t) || btf_is_func_proto(t)) {
		out->kind = VS_TI_FUNC;
		/* a prototype's return type (a function's prototype) */
		out->target = (uint64_t)t->type + 1;
	} else {
		out->kind = VS_TI_OTHER;
		out->size = btf_is_float(t) ? t->size : 0;
	}
}

static int ti_type(void *ctx, uint64_t type, struct vs_ti_type *out,
		   struct vs_error *err)
{
	const struct ti_btf *b = ctx;
	const struct btf_type *t;
	uint32_t id;

	if (type == 0 || (type & ~PTR_FLAG) == 0 ||
	    (type & ~PTR_FLAG) - 1 > UINT32_MAX)
		return vs_err(err, "type id 0x%llx is not a BTF type",
			      (unsigned long long)type);
	if (type & PTR_FLAG) {
		memset(out, 0, sizeof(*out));
		out->kind = VS_TI_PTR;
		out->size = b->ptr_size;
		out->target = type & ~PTR_FLAG;
		return type_at(b, (uint32_t)(out->target - 1), err) ? 0 : -1;
	}
	if (resolve(b, (uint32_t)(type - 1), &id, &t, err) < 0)
		return -1;
	describe(b, id, t, out);
	return 0;
}

/* What one member lookup looks for, and how many more members it may
 * look at (VS_TI_MAX_VISITS in all). */
struct find {
	const char *name;
	const char *in;              /* the struct's name, for messages */
	unsigned left;
};

static int find_member(const struct ti_btf *b, uint32_t id, struct find *f,
		       int depth, uint64_t *offset, uint64_t *mtype,
		       struct vs_error *err);

/* Member I of composite T (id ID): F->name itself, or inside it when it
 * is anonymous.  1: found; 0: not here; -1: failed. */
static int try_member(const struct ti_btf *b, const struct btf_type *t,
		      uint32_t i, struct find *f, int depth,
		      uint64_t *offset, uint64_t *mtype, struct vs_error *err)
{
	const char *name = f->name;
	const struct btf_member *m = btf_members(t) + i;
	const char *mn = btf__name_by_offset(b->btf, m->name_off);
	uint32_t bits = btf_member_bit_offset(t, i);
	uint64_t inner;
	int ret;

	if (mn && *mn) {
		if (strcmp(mn, name))
			return 0;
		if (btf_member_bitfield_size(t, i) || bits % 8)
			return vs_err(err, "member '%s' is a bitfield: it cannot "
				      "be erased by bytes", name);
		*offset = bits / 8;
		*mtype = (uint64_t)m->type + 1;
		return 1;
	}
	ret = find_member(b, m->type, f, depth + 1, &inner, mtype, err);
	if (ret == 1)
		*offset = bits / 8 + inner;
	return ret;
}

static int find_member(const struct ti_btf *b, uint32_t id, struct find *f,
		       int depth, uint64_t *offset, uint64_t *mtype,
		       struct vs_error *err)
{
	const struct btf_type *t;
	uint32_t i;
	int ret;

	if (depth > MAX_NEST)
		return vs_err(err, "anonymous members nested deeper than %d",
			      MAX_NEST);
	if (resolve(b, id, &id, &t, err) < 0)
		return -1;
	if (!btf_is_composite(t))
		return 0;
	for (i = 0; i < btf_vlen(t); i++) {
		if (f->left == 0)
			return vs_err(err, "member '%s' of '%s': more than %u "
				      "members looked at, anonymous ones' "
				      "included", f->name, f->in,
				      VS_TI_MAX_VISITS);
		f->left--;
		ret = try_member(b, t, i, f, depth, offset, mtype, err);
		if (ret != 0)
			return ret;
	}
	return 0;
}

static int ti_member(void *ctx, uint64_t type, const char *member,
		     uint64_t *offset, uint64_t *mtype, struct vs_error *err)
{
	const struct ti_btf *b = ctx;
	struct vs_ti_type st;
	struct find f = { member, NULL, VS_TI_MAX_VISITS };
	int ret;

	if (ti_type(ctx, type, &st, err) < 0)
		return -1;
	if (st.kind != VS_TI_STRUCT && st.kind != VS_TI_UNION)
		return vs_err(err, "cannot take member '%s' of '%s': not a "
			      "struct or union", member, st.name ? st.name :
			      "(anonymous type)");
	f.in = st.name ? st.name : "(anonymous type)";
	ret = find_member(b, (uint32_t)(type - 1), &f, 0, offset, mtype, err);
	if (ret == 0)
		return vs_err(err, "'%s' has no member '%s'",
			      st.name ? st.name : "(anonymous type)", member);
	return ret < 0 ? -1 : 0;
}

/* Member *POS (an index) of the struct or union TYPE; *POS moves on. */
static int ti_member_next(void *ctx, uint64_t type, uint64_t *pos,
			  struct vs_ti_member *out, struct vs_error *err)
{
	const struct ti_btf *b = ctx;
	const struct btf_type *t;
	uint32_t id, i;

	if (type == 0 || (type & PTR_FLAG) || type - 1 > UINT32_MAX ||
	    resolve(b, (uint32_t)(type - 1), &id, &t, err) < 0 ||
	    !btf_is_composite(t))
		return vs_err(err, "type id 0x%llx is not a struct or union",
			      (unsigned long long)type);
	if (*pos >= btf_vlen(t))
		return 1;
	i = (uint32_t)(*pos)++;
	out->name = btf__name_by_offset(b->btf, btf_members(t)[i].name_off);
	if (out->name && !*out->name)
		out->name = NULL;
	out->bit_offset = btf_member_bit_offset(t, i);
	out->bit_size = btf_member_bitfield_size(t, i);
	out->offset = out->bit_offset / 8;
	out->type = (uint64_t)btf_members(t)[i].type + 1;
	return 0;
}

static int enum_value(const struct ti_btf *b, const struct btf_type *t,
		      const char *name, int64_t *value)
{
	uint32_t i;

	for (i = 0; i < btf_vlen(t); i++) {
		const char *n = btf__name_by_offset(b->btf, btf_is_enum(t) ?
			btf_enum(t)[i].name_off : btf_enum64(t)[i].name_off);

		if (!n || strcmp(n, name))
			continue;
		*value = btf_is_enum(t) ? btf_enum(t)[i].val :
			 (int64_t)btf_enum64_value(btf_enum64(t) + i);
		return 1;
	}
	return 0;
}

static int ti_enumerator(void *ctx, const char *name, int64_t *value,
			 struct vs_error *err)
{
	const struct ti_btf *b = ctx;
	uint32_t id, n = btf__type_cnt(b->btf);
	const struct btf_type *t;

	for (id = 1; id < n; id++) {
		t = btf__type_by_id(b->btf, id);
		if (t && btf_is_any_enum(t) && enum_value(b, t, name, value))
			return 0;
	}
	return vs_err(err, "enumerator '%s' is not in the kernel's BTF", name);
}

static void ti_free(void *ctx)
{
	struct ti_btf *b = ctx;

	if (!b)
		return;
	btf__free(b->btf);
	vs_kallsyms_free(b->ks);
	free(b);
}

static const struct vs_typeinfo_ops btf_ops = {
	.name = "BTF",
	.symbol = ti_symbol,
	.symbol_type = ti_symbol_type,
	.type_by_name = ti_type_by_name,
	.type = ti_type,
	.member = ti_member,
	.member_next = ti_member_next,
	.enumerator = ti_enumerator,
	.free = ti_free,
};

/* The types of BTF from id FIRST on (its own: 1, or a split BTF's first
 * past its base) start on a 4-byte boundary, as the kernel writes them.
 * libbpf takes a header longer than its 24 bytes of any length, and
 * with one of 25 every struct btf_type read here would be misaligned
 * (UBSan's report on the fuzz target, crash-btf-misaligned-types). */
static int check_aligned(const struct btf *btf, uint32_t first,
			 struct vs_error *err)
{
	const struct btf_type *t;

	if (first >= btf__type_cnt(btf))
		return 0;
	t = btf__type_by_id(btf, first);
	if (!t || (uintptr_t)t % 4 == 0)
		return 0;
	return vs_err(err, "the BTF's types do not start on a 4-byte boundary "
		      "(a header length that is not a multiple of 4)");
}

int vs_typeinfo_btf_new(struct vs_typeinfo *ti, const void *data, size_t size,
			struct vs_kallsyms *ks, unsigned ptr_size,
			struct vs_error *err)
{
	struct ti_btf *b = calloc(1, sizeof(*b));
	libbpf_print_fn_t prev;
	int saved;

	ti->ops = NULL;
	ti->ctx = NULL;
	if (!b) {
		vs_kallsyms_free(ks);
		return vs_err_oom(err, "out of memory");
	}
	b->ks = ks;
	b->ptr_size = ptr_size;
	if (size > VS_BTF_MAX) {
		ti_free(b);
		return vs_err(err, "BTF of %zu bytes: more than %u", size,
			      VS_BTF_MAX);
	}
	/* libbpf prints its complaints to stderr unless told otherwise; the
	 * library never prints: silence it for the parse, then put back the
	 * host program's printer (libbpf keeps one per process). */
	prev = libbpf_set_print(NULL);
	b->btf = btf__new(data, (uint32_t)size);
	saved = errno;
	libbpf_set_print(prev);
	errno = saved;
	if (!b->btf) {
		ti_free(b);
		return vs_err(err, "libbpf cannot parse the BTF (%zu bytes): %s",
			      size, strerror(errno));
	}
	if (check_aligned(b->btf, 1, err) < 0) {
		ti_free(b);
		return -1;
	}
	btf__set_pointer_size(b->btf, ptr_size);
	ti->ops = &btf_ops;
	ti->ctx = b;
	return 0;
}

/* Split BTF from memory.  btf__new_split() is declared but not exported
 * by libbpf 1.1 (Debian 12), so the bytes go through a memfd that
 * btf__parse_raw_split() reads by its /proc/self/fd path. */
static struct btf *parse_split(const void *data, size_t size,
			       struct btf *base)
{
	char path[64];
	struct btf *btf = NULL;
	int fd = memfd_create("vmsift-btf", MFD_CLOEXEC), saved;

	if (fd < 0)
		return NULL;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		btf = btf__parse_raw_split(path, base);
	} else {
		errno = EIO;
	}
	saved = errno;
	close(fd);
	errno = saved;
	return btf;
}

int vs_typeinfo_btf_new_split(struct vs_typeinfo *ti,
			      const struct vs_typeinfo *base, const void *data,
			      size_t size, struct vs_error *err)
{
	const struct ti_btf *kb = base && base->ops == &btf_ops ? base->ctx :
				  NULL;
	struct ti_btf *b;
	libbpf_print_fn_t prev;
	int saved;

	ti->ops = NULL;
	ti->ctx = NULL;
	if (!kb)
		return vs_err_st(err, VMSIFT_E_INVALID, "a module's BTF needs "
				 "the kernel's BTF as its base");
	if (size > VS_BTF_MAX)
		return vs_err(err, "BTF of %zu bytes: more than %u", size,
			      VS_BTF_MAX);
	b = calloc(1, sizeof(*b));
	if (!b)
		return vs_err_oom(err, "out of memory");
	b->ptr_size = kb->ptr_size;
	prev = libbpf_set_print(NULL);
	b->btf = parse_split(data, size, kb->btf);
	saved = errno;
	libbpf_set_print(prev);
	if (!b->btf) {
		ti_free(b);
		return vs_err(err, "libbpf cannot parse the split BTF (%zu "
			      "bytes): %s", size, strerror(saved));
	}
	if (check_aligned(b->btf, btf__type_cnt(kb->btf), err) < 0) {
		ti_free(b);
		return -1;
	}
	btf__set_pointer_size(b->btf, b->ptr_size);
	ti->ops = &btf_ops;
	ti->ctx = b;
	return 0;
}

/* The BTF bytes of IN's kernel: [__start_BTF, __stop_BTF) read through
 * its page tables into *DATA (malloc'd). */
static int read_btf(const struct vs_input *in, const struct vs_kallsyms *ks,
		    void **data, size_t *size, unsigned *ptr_size,
		    struct vs_error *err)
{
	struct vs_arch *a;
	struct vs_reader r;
	uint64_t start, stop;
	int ret;

	if (vs_kallsyms_lookup(ks, "__start_BTF", &start, NULL, err) < 0 ||
	    vs_kallsyms_lookup(ks, "__stop_BTF", &stop, NULL, err) < 0)
		return vs_err_ctx(err, "cannot find the kernel's BTF (built "
				  "without CONFIG_DEBUG_INFO_BTF, or kallsyms "
				  "without data symbols, CONFIG_KALLSYMS_ALL)");
	if (stop <= start || stop - start > VS_BTF_MAX)
		return vs_err(err, "__start_BTF 0x%llx and __stop_BTF 0x%llx: "
			      "not a BTF section of 1 to %u bytes",
			      (unsigned long long)start, (unsigned long long)stop,
			      VS_BTF_MAX);
	*size = stop - start;
	*data = malloc(*size);
	if (!*data)
		return vs_err_oom(err, "out of memory for %zu bytes of BTF", *size);
	if (vs_arch_new(&a, in, err) < 0)
		return -1;
	*ptr_size = vs_arch_machine(a)->ptr_size;
	ret = vs_reader_init(&r, in, err);
	if (ret == 0) {
		ret = vs_read_kvirt(a, &r, start, *data, *size, err);
		if (ret < 0)
			vs_err_ctx(err, "BTF at 0x%llx (%zu bytes)",
				   (unsigned long long)start, *size);
		vs_reader_fini(&r);
	}
	vs_arch_free(a);
	return ret;
}

int vs_typeinfo_btf_open(struct vs_typeinfo *ti, const struct vs_input *in,
			 struct vs_error *err)
{
	struct vs_kallsyms *ks;
	void *data = NULL;
	size_t size = 0;
	unsigned ptr_size = 8;
	int ret;

	ti->ops = NULL;
	ti->ctx = NULL;
	if (vs_kallsyms_load_input(&ks, in, err) < 0)
		return vs_err_ctx(err, "cannot read the types of '%s' from its "
				  "BTF", in->file.name);
	ret = read_btf(in, ks, &data, &size, &ptr_size, err);
	if (ret == 0)
		ret = vs_typeinfo_btf_new(ti, data, size, ks, ptr_size, err);
	else
		vs_kallsyms_free(ks);
	free(data);
	if (ret < 0)
		return vs_err_ctx(err, "cannot read the types of '%s' from its "
				  "BTF", in->file.name);
	return 0;
}
#endif
