/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kallsyms_test.c - lib/kallsyms.c on tables built here in the kernel's
 * layout: every encoding (base-relative, with absolute per-CPU values,
 * absolute addresses of 8 and 4 bytes; little- and big-endian; one- and
 * two-byte name lengths; multi-character tokens), the lookups, and
 * corrupt tables, each refused naming the table.  The expected names and
 * addresses are this file's input, not the decoder's output.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kallsyms.h"

#define BASE 0xffffffff81000000ull   /* where the image is mapped */
#define IMG  (1 << 16)

struct sym {
	const char *name;                   /* type letter first */
	uint64_t addr;
};

struct image {
	uint8_t b[IMG];
	size_t len;
	struct vs_ks_layout l;
};

/* The image read as memory is: whole 4 KiB pages. */
static int image_read(void *arg, uint64_t vaddr, void *buf, size_t len,
		      struct vs_error *err)
{
	const struct image *im = arg;
	size_t end = (im->len + 4095) & ~(size_t)4095;

	if (vaddr < BASE || vaddr - BASE > end || len > end - (vaddr - BASE))
		return vs_err(err, "0x%llx is not in the image",
			      (unsigned long long)vaddr);
	memcpy(buf, im->b + (vaddr - BASE), len);
	return 0;
}

static uint64_t put(struct image *im, const void *p, size_t n)
{
	uint64_t at = BASE + im->len;

	memcpy(im->b + im->len, p, n);
	im->len += (n + 7) & ~(size_t)7;
	return at;
}

static void put_n(struct image *im, uint8_t *p, uint64_t v, unsigned size)
{
	for (unsigned i = 0; i < size; i++)
		p[im->l.m.big_endian ? size - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* Tokens: 0x80 is "init_", 0x81 "_task", every other byte itself. */
static const char *token(unsigned t, char *one)
{
	if (t == 0x80)
		return "init_";
	if (t == 0x81)
		return "_task";
	one[0] = (char)(t ? t : '?');
	one[1] = '\0';
	return one;
}

static size_t encode(const char *name, uint8_t *out)
{
	size_t n = 0;

	while (*name) {
		if (!strncmp(name, "init_", 5)) {
			out[n++] = 0x80;
			name += 5;
		} else if (!strncmp(name, "_task", 5)) {
			out[n++] = 0x81;
			name += 5;
		} else {
			out[n++] = (uint8_t)*name++;
		}
	}
	return n;
}

/* PLACE: 7.x, no kallsyms_relative_base, each offset from its own slot */
enum mode { REL, REL_PERCPU, ABS, PLACE };

static void build(struct image *im, const struct sym *s, size_t n,
		  enum mode mode, int big, unsigned ptr)
{
	uint8_t *tab = calloc(1, IMG), enc[2048], one[2];
	size_t len = 0, k, i;
	uint64_t base = BASE + 0x100000;

	memset(im, 0, sizeof(*im));
	vs_machine_set(&im->l.m, 4096, big, ptr);
	for (i = 0; i < 256; i++) {             /* token table and index */
		const char *t = token((unsigned)i, (char *)one);

		put_n(im, enc + 2 * i, len, 2);
		memcpy(tab + len, t, strlen(t) + 1);
		len += strlen(t) + 1;
	}
	im->l.token_index = put(im, enc, 512);
	im->l.token_table = put(im, tab, len);
	for (len = 0, i = 0; i < n; i++) {      /* names */
		k = encode(s[i].name, enc);
		if (k < 0x80) {
			tab[len++] = (uint8_t)k;
		} else {
			tab[len++] = (uint8_t)((k & 0x7f) | 0x80);
			tab[len++] = (uint8_t)(k >> 7);
		}
		memcpy(tab + len, enc, k);
		len += k;
	}
	im->l.names = put(im, tab, len);
	put_n(im, enc, n, 4);
	im->l.num_syms = put(im, enc, 4);
	for (i = 0; i < n; i++) {               /* addresses */
		if (mode == ABS)
			put_n(im, tab + i * ptr, s[i].addr, ptr);
		else if (mode == PLACE)
			put_n(im, tab + i * 4, s[i].addr - (BASE + im->len + 4 * i), 4);
		else if (mode == REL || s[i].name[0] == 'A')
			put_n(im, tab + i * 4, mode == REL ? s[i].addr - base
							   : s[i].addr, 4);
		else
			put_n(im, tab + i * 4, (uint32_t)-(int64_t)(s[i].addr - base + 1), 4);
	}
	if (mode == ABS) {
		im->l.addresses = put(im, tab, n * ptr);
	} else if (mode == PLACE) {
		im->l.offsets = put(im, tab, n * 4);
	} else {
		im->l.offsets = put(im, tab, n * 4);
		put_n(im, enc, base, ptr);
		im->l.relative_base = put(im, enc, ptr);
	}
	free(tab);
}

static char long_name[400];

static void check_decode(enum mode mode, int big, unsigned ptr)
{
	const struct sym s[] = {
		{ "T_stext", 0xffffffff81100000ull },
		{ "Dinit_task", 0xffffffff81200040ull },
		{ "dstatic_thing", 0xffffffff81200100ull },
		{ "Dstatic_thing", 0xffffffff81200200ull },
		{ "bstatic_thing", 0xffffffff81200300ull },
		{ long_name, 0xffffffff81300000ull },
		{ mode == REL_PERCPU ? "Arunqueues" : "Bjiffies",
		  mode == REL_PERCPU ? 0x31c40 : 0xffffffff81400000ull },
	};
	size_t n = sizeof(s) / sizeof(s[0]), i;
	struct image *im = malloc(sizeof(*im));
	struct vs_error err = { 0 };
	struct vs_kallsyms *ks;
	uint64_t a, mask = ptr == 4 ? 0xffffffffull : ~0ull;
	const char *name;
	char type;

	build(im, s, n, mode, big, ptr);
	if (!CHECK(vs_kallsyms_load(&ks, &im->l, image_read, im, &err) == 0)) {
		fprintf(stderr, "  mode %d big %d ptr %u: %s\n", mode, big, ptr,
			err.msg);
		free(im);
		return;
	}
	CHECK_U64(vs_kallsyms_count(ks), n);
	for (i = 0; i < n; i++) {
		name = vs_kallsyms_at(ks, i, &a, &type);
		CHECK(name && !strcmp(name, s[i].name + 1));
		CHECK(type == s[i].name[0]);
		CHECK_U64(a, s[i].addr & (s[i].name[0] == 'A' ? ~0ull : mask));
	}
	/* A repeated name: its global (upper-case) entry. */
	CHECK(vs_kallsyms_lookup(ks, "static_thing", &a, &type, &err) == 0);
	CHECK_U64(a, 0xffffffff81200200ull & mask);
	CHECK(type == 'D');
	CHECK(vs_kallsyms_lookup(ks, "init_task", &a, NULL, &err) == 0);
	CHECK_U64(a, 0xffffffff81200040ull & mask);
	CHECK(vs_kallsyms_lookup(ks, "no_such", &a, NULL, &err) < 0);
	CHECK_STR(err.msg, "'no_such'");
	vs_kallsyms_free(ks);
	free(im);
}

/* A corrupt table: refused, the message naming WHAT. */
static void check_bad(const char *what, void (*spoil)(struct image *im))
{
	const struct sym s[] = {
		{ "T_stext", 0xffffffff81100000ull },
		{ "Dinit_task", 0xffffffff81200040ull },
	};
	struct image *im = malloc(sizeof(*im));
	struct vs_error err = { 0 };
	struct vs_kallsyms *ks = (struct vs_kallsyms *)1;

	build(im, s, 2, REL, 0, 8);
	spoil(im);
	CHECK(vs_kallsyms_load(&ks, &im->l, image_read, im, &err) < 0);
	CHECK(ks == NULL);
	if (!strstr(err.msg, what))
		fprintf(stderr, "  expected '%s' in: %s\n", what, err.msg);
	CHECK(strstr(err.msg, what) != NULL);
	free(im);
}

static void zero_count(struct image *im)
{
	memset(im->b + (im->l.num_syms - BASE), 0, 4);
}

static void huge_count(struct image *im)
{
	memset(im->b + (im->l.num_syms - BASE), 0xff, 4);
}

static void three_byte_length(struct image *im)
{
	im->b[im->l.names - BASE] = 0x85;
	im->b[im->l.names - BASE + 1] = 0x81;
}

static void names_off_image(struct image *im)
{
	size_t end = (im->len + 4095) & ~(size_t)4095;

	im->l.names = BASE + end - 1;       /* runs off the image's end */
	im->b[end - 1] = 0x7f;
}

static void empty_name(struct image *im)
{
	im->b[im->l.names - BASE] = 0;
}

static void token_unterminated(struct image *im)
{
	uint8_t *t = im->b + (im->l.token_table - BASE);

	memset(t, 'x', 300);                /* token 0 runs on past 256 */
}

static void no_offsets(struct image *im)
{
	im->l.offsets = 0;
}

static void offsets_off_image(struct image *im)
{
	im->l.offsets = BASE + IMG * 2;
}

int main(void)
{
	struct vs_error err = { 0 };
	struct vs_ks_layout l = { 0 };
	struct vs_kallsyms *ks;

	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[0] = 't';                     /* 398 bytes: a two-byte length */
	for (int big = 0; big <= 1; big++) {
		check_decode(REL, big, 8);
		check_decode(REL_PERCPU, big, 8);
		check_decode(ABS, big, 8);
		check_decode(PLACE, big, 8);
		check_decode(ABS, big, 4);
	}
	check_bad("kallsyms_num_syms", zero_count);
	check_bad("kallsyms_num_syms", huge_count);
	check_bad("longer than two bytes", three_byte_length);
	check_bad("kallsyms_names", names_off_image);
	check_bad("empty name", empty_name);
	check_bad("kallsyms_token_table", token_unterminated);
	check_bad("kallsyms_offsets", no_offsets);
	check_bad("kallsyms_offsets", offsets_off_image);
	vs_machine_set(&l.m, 4096, 0, 8);
	CHECK(vs_kallsyms_load(&ks, &l, image_read, NULL, &err) < 0);
	CHECK(err.status == VMSIFT_E_UNSUPPORTED);
	CHECK_STR(err.msg, "SYMBOL(kallsyms_names)");
	return check_exit("kallsyms_test");
}
