/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kallsyms.c - decode the dead kernel's kallsyms tables (kallsyms.h).
 *
 * The tables, as the kernel's build writes them:
 *   kallsyms_num_syms    a 32-bit count
 *   kallsyms_names       per symbol: its length in bytes, then that many
 *                        token numbers; the length is one byte below 0x80,
 *                        else two (ULEB128: low 7 bits, then the next 7;
 *                        Linux 6.1+, for long Rust names)
 *   kallsyms_token_table 256 NUL-terminated strings, each a token's text
 *   kallsyms_token_index 256 16-bit offsets of those strings
 *   kallsyms_offsets     per symbol a 32-bit value: with
 *                        kallsyms_relative_base, the address is the base
 *                        plus the value (unsigned), or, on kernels built
 *                        with absolute per-CPU symbols (x86_64 SMP before
 *                        6.15), the value itself when it is not negative
 *                        and base - 1 - value when it is
 *   kallsyms_addresses   per symbol an unsigned long (absolute kernels)
 * A decoded name's first character is its type letter, as nm prints it.
 * Absolute per-CPU placement is a build option that VMCOREINFO does not
 * export; it is read from the data: only that encoding stores negative
 * values (every symbol of a base-relative table lies above its base).
 * kallsyms_markers and (6.4+) kallsyms_seqs_of_names only speed up the
 * kernel's own lookups and are not needed to read every name in order.
 *
 * Every read is bounded by the limits of kallsyms.h; a token number whose
 * text is out of the token table, a length running past the names
 * table's bound, or an empty name fails naming the table and the symbol.
 */
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "input.h"
#include "kallsyms.h"
#include "vmcoreinfo.h"

#define TOKEN_TABLE_MAX 65536   /* the 16-bit offsets' reach */
#define TOKEN_MAX       256     /* the longest token text read */
#define NAME_MAX_LEN    1024    /* decoded, type letter included */
#define CHUNK           4096

struct ks_sym {
	uint64_t addr;
	uint32_t name;          /* offset in the name pool */
	char type;
};

struct vs_kallsyms {
	struct ks_sym *syms;
	size_t n;
	char *pool;
	size_t pool_len, pool_cap;
	uint32_t *by_name;      /* indices of syms sorted by name, then index */
};

/* A sequential reader of the names table, a page-sized piece at a time so
 * that no read crosses into memory the table does not use. */
struct stream {
	vs_ks_read_fn *read;
	void *arg;
	uint64_t base, pos;     /* pos: bytes of the table consumed */
	uint8_t buf[CHUNK];
	uint64_t buf_start;     /* table offset of buf[0] */
	size_t buf_len;
};

struct tokens {
	char text[256][TOKEN_MAX];
	uint8_t len[256];
};

static int stream_byte(struct stream *s, uint8_t *b, struct vs_error *err)
{
	uint64_t addr;
	size_t want;

	if (s->pos >= VS_KS_MAX_NAMES)
		return vs_err(err, "kallsyms_names at 0x%llx: longer than %u bytes",
			      (unsigned long long)s->base, VS_KS_MAX_NAMES);
	if (s->pos < s->buf_start || s->pos >= s->buf_start + s->buf_len) {
		addr = s->base + s->pos;
		want = CHUNK - (size_t)(addr & (CHUNK - 1));
		if (s->read(s->arg, addr, s->buf, want, err) < 0)
			return vs_err_ctx(err, "kallsyms_names at 0x%llx",
					  (unsigned long long)addr);
		s->buf_start = s->pos;
		s->buf_len = want;
	}
	*b = s->buf[s->pos - s->buf_start];
	s->pos++;
	return 0;
}

static int load_tokens(struct tokens *t, const struct vs_ks_layout *l,
		       vs_ks_read_fn *read, void *arg, struct vs_error *err)
{
	uint8_t idx[512], text[TOKEN_MAX];
	unsigned i, off;
	size_t len;

	if (read(arg, l->token_index, idx, sizeof(idx), err) < 0)
		return vs_err_ctx(err, "kallsyms_token_index at 0x%llx",
				  (unsigned long long)l->token_index);
	for (i = 0; i < 256; i++) {
		off = vs_load16(&l->m, idx + 2 * i);
		if (read(arg, l->token_table + off, text, sizeof(text), err) < 0)
			return vs_err_ctx(err, "kallsyms_token_table at 0x%llx, "
					  "token %u", (unsigned long long)
					  (l->token_table + off), i);
		len = strnlen((const char *)text, sizeof(text));
		if (len == sizeof(text))
			return vs_err(err, "kallsyms_token_table at 0x%llx: token "
				      "%u is not terminated within %d bytes",
				      (unsigned long long)(l->token_table + off),
				      i, TOKEN_MAX);
		memcpy(t->text[i], text, len);
		t->len[i] = (uint8_t)len;
	}
	return 0;
}

static int pool_add(struct vs_kallsyms *ks, const char *s, size_t len,
		    uint32_t *off, struct vs_error *err)
{
	char *p;
	size_t cap;

	if (ks->pool_len + len + 1 > ks->pool_cap) {
		cap = ks->pool_cap ? ks->pool_cap * 2 : 1 << 20;
		if (cap > 4ull * VS_KS_MAX_NAMES)
			return vs_err(err, "kallsyms: names longer than %llu bytes",
				      4ull * VS_KS_MAX_NAMES);
		p = realloc(ks->pool, cap);
		if (!p)
			return vs_err_oom(err, "out of memory for kallsyms names");
		ks->pool = p;
		ks->pool_cap = cap;
	}
	memcpy(ks->pool + ks->pool_len, s, len);
	ks->pool[ks->pool_len + len] = '\0';
	*off = (uint32_t)ks->pool_len;
	ks->pool_len += len + 1;
	return 0;
}

/* The compressed length of symbol I: one byte, or two (ULEB128). */
static int name_length(struct stream *s, size_t i, unsigned *len,
		       struct vs_error *err)
{
	uint8_t b0, b1;

	if (stream_byte(s, &b0, err) < 0)
		return -1;
	*len = b0;
	if (b0 & 0x80) {
		if (stream_byte(s, &b1, err) < 0)
			return -1;
		if (b1 & 0x80)
			return vs_err(err, "kallsyms_names at 0x%llx: symbol %zu: "
				      "length longer than two bytes",
				      (unsigned long long)(s->base + s->pos - 2), i);
		*len = (b0 & 0x7fu) | ((unsigned)b1 << 7);
	}
	if (*len == 0)
		return vs_err(err, "kallsyms_names at 0x%llx: symbol %zu: empty "
			      "name", (unsigned long long)(s->base + s->pos - 1), i);
	return 0;
}

/* Expand symbol I's tokens into NAME (type letter first). */
static int decode_name(struct stream *s, const struct tokens *t, size_t i,
		       char *name, size_t *out_len, struct vs_error *err)
{
	unsigned len, k;
	size_t n = 0;
	uint8_t tok;

	if (name_length(s, i, &len, err) < 0)
		return -1;
	for (k = 0; k < len; k++) {
		if (stream_byte(s, &tok, err) < 0)
			return -1;
		if (n + t->len[tok] >= NAME_MAX_LEN)
			return vs_err(err, "kallsyms_names at 0x%llx: symbol %zu: "
				      "name longer than %d bytes",
				      (unsigned long long)(s->base + s->pos), i,
				      NAME_MAX_LEN);
		memcpy(name + n, t->text[tok], t->len[tok]);
		n += t->len[tok];
	}
	if (n < 2)
		return vs_err(err, "kallsyms_names at 0x%llx: symbol %zu: name "
			      "of %zu byte(s)", (unsigned long long)
			      (s->base + s->pos), i, n);
	name[n] = '\0';
	*out_len = n;
	return 0;
}

static int load_names(struct vs_kallsyms *ks, const struct vs_ks_layout *l,
		      const struct tokens *t, vs_ks_read_fn *read, void *arg,
		      struct vs_error *err)
{
	struct stream *s = calloc(1, sizeof(*s));
	char name[NAME_MAX_LEN];
	size_t i, len = 0;
	int ret = 0;

	if (!s)
		return vs_err_oom(err, "out of memory");
	s->read = read;
	s->arg = arg;
	s->base = l->names;
	for (i = 0; i < ks->n && ret == 0; i++) {
		ret = decode_name(s, t, i, name, &len, err);
		if (ret == 0)
			ret = pool_add(ks, name + 1, len - 1, &ks->syms[i].name, err);
		ks->syms[i].type = name[0];
	}
	free(s);
	return ret;
}

/* Read COUNT values of SIZE bytes at VADDR, a chunk at a time, and hand
 * each to PUT. */
static int read_array(uint64_t vaddr, size_t count, unsigned size,
		      vs_ks_read_fn *read, void *arg,
		      void (*put)(struct vs_kallsyms *ks, const struct vs_ks_layout *l,
				  size_t i, const uint8_t *p),
		      struct vs_kallsyms *ks, const struct vs_ks_layout *l,
		      struct vs_error *err)
{
	uint8_t buf[CHUNK];
	size_t i = 0, k, per = CHUNK / size, m;

	while (i < count) {
		m = count - i < per ? count - i : per;
		if (read(arg, vaddr + i * size, buf, m * size, err) < 0)
			return vs_err_ctx(err, "symbol %zu at 0x%llx", i,
					  (unsigned long long)(vaddr + i * size));
		for (k = 0; k < m; k++)
			put(ks, l, i + k, buf + k * size);
		i += m;
	}
	return 0;
}

static void put_offset(struct vs_kallsyms *ks, const struct vs_ks_layout *l,
		       size_t i, const uint8_t *p)
{
	ks->syms[i].addr = vs_load32(&l->m, p);   /* the raw value for now */
}

static void put_address(struct vs_kallsyms *ks, const struct vs_ks_layout *l,
			size_t i, const uint8_t *p)
{
	ks->syms[i].addr = l->m.ptr_size == 4 ? vs_load32(&l->m, p)
					      : vs_load64(&l->m, p);
}

/* Kernels without kallsyms_relative_base (Debian's 7.3; upstream
 * makedumpfile's "place relative" case): each offset is relative to its
 * own slot in kallsyms_offsets. */
static int load_place_relative(struct vs_kallsyms *ks,
			       const struct vs_ks_layout *l,
			       vs_ks_read_fn *read, void *arg,
			       struct vs_error *err)
{
	if (read_array(l->offsets, ks->n, 4, read, arg, put_offset, ks, l,
		       err) < 0)
		return vs_err_ctx(err, "kallsyms_offsets");
	for (size_t i = 0; i < ks->n; i++)
		ks->syms[i].addr = l->offsets + 4 * (uint64_t)i +
			(uint64_t)(int64_t)(int32_t)(uint32_t)ks->syms[i].addr;
	return 0;
}

static int load_addresses(struct vs_kallsyms *ks, const struct vs_ks_layout *l,
			  vs_ks_read_fn *read, void *arg, struct vs_error *err)
{
	uint8_t b[8];
	uint64_t base;
	int32_t v;
	int abs_percpu = 0;
	size_t i;

	if (!l->offsets)
		return read_array(l->addresses, ks->n, l->m.ptr_size, read, arg,
				  put_address, ks, l, err) < 0 ?
			vs_err_ctx(err, "kallsyms_addresses") : 0;
	if (!l->relative_base)
		return load_place_relative(ks, l, read, arg, err);
	if (read(arg, l->relative_base, b, l->m.ptr_size, err) < 0)
		return vs_err_ctx(err, "kallsyms_relative_base at 0x%llx",
				  (unsigned long long)l->relative_base);
	base = l->m.ptr_size == 4 ? vs_load32(&l->m, b) : vs_load64(&l->m, b);
	if (read_array(l->offsets, ks->n, 4, read, arg, put_offset, ks, l,
		       err) < 0)
		return vs_err_ctx(err, "kallsyms_offsets");
	for (i = 0; i < ks->n && !abs_percpu; i++)
		abs_percpu = (int32_t)(uint32_t)ks->syms[i].addr < 0;
	for (i = 0; i < ks->n; i++) {
		v = (int32_t)(uint32_t)ks->syms[i].addr;
		if (!abs_percpu)
			ks->syms[i].addr = base + (uint32_t)v;
		else if (v >= 0)
			ks->syms[i].addr = (uint64_t)v;
		else
			ks->syms[i].addr = base - 1 - (uint64_t)(int64_t)v;
	}
	return 0;
}

static int by_name_cmp(const void *a, const void *b, void *arg)
{
	const struct vs_kallsyms *ks = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(ks->pool + ks->syms[x].name, ks->pool + ks->syms[y].name);

	return c ? c : (x > y) - (x < y);
}

static int index_names(struct vs_kallsyms *ks, struct vs_error *err)
{
	size_t i;

	ks->by_name = malloc(ks->n * sizeof(*ks->by_name) + 1);
	if (!ks->by_name)
		return vs_err_oom(err, "out of memory for kallsyms");
	for (i = 0; i < ks->n; i++)
		ks->by_name[i] = (uint32_t)i;
	qsort_r(ks->by_name, ks->n, sizeof(*ks->by_name), by_name_cmp, ks);
	return 0;
}

static int check_layout(const struct vs_ks_layout *l, struct vs_error *err)
{
	if (!l->names || !l->num_syms || !l->token_table || !l->token_index)
		return vs_err_st(err, VMSIFT_E_UNSUPPORTED, "VMCOREINFO lacks "
				 "SYMBOL(kallsyms_%s) (exported since Linux 6.0)",
				 !l->names ? "names" : !l->num_syms ? "num_syms" :
				 !l->token_table ? "token_table" : "token_index");
	if (!l->offsets && !l->addresses)
		return vs_err_st(err, VMSIFT_E_UNSUPPORTED, "VMCOREINFO lacks "
				 "SYMBOL(kallsyms_offsets) and "
				 "SYMBOL(kallsyms_addresses)");
	if (l->m.ptr_size != 4 && l->m.ptr_size != 8)
		return vs_err(err, "kallsyms: pointer size %u", l->m.ptr_size);
	return 0;
}

static int load(struct vs_kallsyms *ks, const struct vs_ks_layout *l,
		vs_ks_read_fn *read, void *arg, struct vs_error *err)
{
	struct tokens *t;
	uint8_t b[4];
	uint32_t n;
	int ret;

	if (check_layout(l, err) < 0)
		return -1;
	if (read(arg, l->num_syms, b, 4, err) < 0)
		return vs_err_ctx(err, "kallsyms_num_syms at 0x%llx",
				  (unsigned long long)l->num_syms);
	n = vs_load32(&l->m, b);
	if (n == 0 || n > VS_KS_MAX_SYMS)
		return vs_err(err, "kallsyms_num_syms at 0x%llx: %u symbols "
			      "(expected 1 to %u)", (unsigned long long)l->num_syms,
			      n, VS_KS_MAX_SYMS);
	ks->n = n;
	ks->syms = calloc(n, sizeof(*ks->syms));
	t = malloc(sizeof(*t));
	if (!ks->syms || !t) {
		free(t);
		return vs_err_oom(err, "out of memory for %u kallsyms", n);
	}
	ret = load_tokens(t, l, read, arg, err);
	if (ret == 0)
		ret = load_names(ks, l, t, read, arg, err);
	free(t);
	if (ret == 0)
		ret = load_addresses(ks, l, read, arg, err);
	if (ret == 0)
		ret = index_names(ks, err);
	return ret;
}

int vs_kallsyms_load(struct vs_kallsyms **out, const struct vs_ks_layout *l,
		     vs_ks_read_fn *read, void *arg, struct vs_error *err)
{
	struct vs_kallsyms *ks = calloc(1, sizeof(*ks));

	*out = NULL;
	if (!ks)
		return vs_err_oom(err, "out of memory");
	if (load(ks, l, read, arg, err) < 0) {
		vs_kallsyms_free(ks);
		return vs_err_ctx(err, "cannot decode the kernel's kallsyms");
	}
	*out = ks;
	return 0;
}

void vs_kallsyms_free(struct vs_kallsyms *ks)
{
	if (!ks)
		return;
	free(ks->syms);
	free(ks->pool);
	free(ks->by_name);
	free(ks);
}

/* Type letters of global symbols are upper case ('T', 'D', 'B', 'R'). */
static int is_global(char type)
{
	return type >= 'A' && type <= 'Z';
}

int vs_kallsyms_lookup(const struct vs_kallsyms *ks, const char *name,
		       uint64_t *addr, char *type, struct vs_error *err)
{
	size_t lo = 0, hi = ks->n, mid, pick;
	const struct ks_sym *s;

	while (lo < hi) {               /* the first of NAME's entries */
		mid = lo + (hi - lo) / 2;
		if (strcmp(ks->pool + ks->syms[ks->by_name[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == ks->n || strcmp(ks->pool + ks->syms[ks->by_name[lo]].name,
				  name))
		return vs_err(err, "symbol '%s' is not in the kernel's kallsyms",
			      name);
	pick = lo;
	for (mid = lo; mid < ks->n && !strcmp(ks->pool +
			ks->syms[ks->by_name[mid]].name, name); mid++)
		if (is_global(ks->syms[ks->by_name[mid]].type)) {
			pick = mid;
			break;
		}
	s = &ks->syms[ks->by_name[pick]];
	*addr = s->addr;
	if (type)
		*type = s->type;
	return 0;
}

size_t vs_kallsyms_count(const struct vs_kallsyms *ks)
{
	return ks->n;
}

const char *vs_kallsyms_at(const struct vs_kallsyms *ks, size_t i,
			   uint64_t *addr, char *type)
{
	if (i >= ks->n)
		return NULL;
	*addr = ks->syms[i].addr;
	*type = ks->syms[i].type;
	return ks->pool + ks->syms[i].name;
}

/* Reading through the dump's own translation. */
struct kv_reader {
	struct vs_arch *arch;
	struct vs_reader r;
};

static int kv_read(void *arg, uint64_t vaddr, void *buf, size_t len,
		   struct vs_error *err)
{
	struct kv_reader *kv = arg;

	return vs_read_kvirt(kv->arch, &kv->r, vaddr, buf, len, err);
}

static void layout_of(struct vs_ks_layout *l, const struct vs_input *in,
		      const struct vs_arch *a)
{
	static const struct {
		const char *name;
		size_t off;
	} keys[] = {
		{ "kallsyms_names", offsetof(struct vs_ks_layout, names) },
		{ "kallsyms_num_syms", offsetof(struct vs_ks_layout, num_syms) },
		{ "kallsyms_token_table", offsetof(struct vs_ks_layout, token_table) },
		{ "kallsyms_token_index", offsetof(struct vs_ks_layout, token_index) },
		{ "kallsyms_offsets", offsetof(struct vs_ks_layout, offsets) },
		{ "kallsyms_relative_base",
		  offsetof(struct vs_ks_layout, relative_base) },
		{ "kallsyms_addresses", offsetof(struct vs_ks_layout, addresses) },
	};
	uint64_t v;
	size_t i;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (vs_vi_symbol(in->vi, keys[i].name, &v))
			memcpy((char *)l + keys[i].off, &v, sizeof(v));
	l->m = *vs_arch_machine(a);
}

int vs_kallsyms_load_input(struct vs_kallsyms **out, const struct vs_input *in,
			   struct vs_error *err)
{
	struct kv_reader kv = { 0 };
	struct vs_ks_layout l;
	int ret;

	*out = NULL;
	if (!in->vi)
		return vs_err_st(err, VMSIFT_E_UNSUPPORTED, "the dump has no "
				 "VMCOREINFO, so no kallsyms addresses");
	if (vs_arch_new(&kv.arch, in, err) < 0)
		return -1;
	ret = vs_reader_init(&kv.r, in, err);
	if (ret == 0) {
		layout_of(&l, in, kv.arch);
		ret = vs_kallsyms_load(out, &l, kv_read, &kv, err);
		vs_reader_fini(&kv.r);
	}
	vs_arch_free(kv.arch);
	return ret;
}
