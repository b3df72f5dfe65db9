/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layout_test.c - typeinfo.h's member_next op and the layout digest of
 * lib/typeinfo_complete.c, on DWARF gcc wrote and on BTF libbpf builds:
 *
 *   - bit-fields: each member's first bit and width as gcc laid them out,
 *     from DWARF 5 (DW_AT_data_bit_offset) and DWARF 4 (DW_AT_bit_offset
 *     from the storage unit's top) alike;
 *   - a DWARF 4 DW_AT_bit_offset that does not fit its unit (gcc's
 *     assembly edited: 30 for 5 bits of 32) taken as the bit from the
 *     unit's start; two such layouts with 30 and 31 refused as
 *     different, two with 30 accepted;
 *   - two definitions of struct bf that differ only in a bit-field's
 *     first bit (b) or width (c) are refused as different by
 *     vs_ti_complete(), an identical one (d) is taken as the same, in
 *     DWARF and in BTF;
 *   - struct anon, whose b.o definition differs from a.o's only inside
 *     an anonymous struct in an anonymous union, refused; d.o's, the
 *     same, accepted (DWARF, and BTF built alike); the digest of
 *     anonymous members repeating a type (nest9, nest20 below) refused
 *     after 65536 members, steps counted, and of 40 nested anonymous
 *     structs (BTF) after 32 levels;
 *   - the digest of a struct of many members costs a number of DIE steps
 *     linear in the members: dwarf_child() and dwarf_siblingof() are
 *     wrapped (tests/unit/Makefile) and counted;
 *   - a member lookup in anonymous members that repeat a type over and
 *     over (struct nest9 of 5 anonymous struct nest8, each of 5 nest7...:
 *     5^9 members for a name that is not there) stops after
 *     VS_TI_MAX_VISITS with a message, in DWARF (DIE steps counted) and
 *     in BTF (21 levels of 2; btf__type_by_id() wrapped and counted),
 *     while a member that is there is still found.
 *
 *   layout_test DIR N    DIR/{a,b,c,d}.o (gcc -g), DIR/a4.o (-gdwarf-4),
 *                        DIR/nest.o (-fms-extensions) and
 *                        DIR/odd{1,2,3}.o (edited assembly) from the
 *                        sources tests/suites/unit.sh writes; struct
 *                        many in a.o has N int members
 */
#include <elfutils/libdw.h>
#include <bpf/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "typeinfo_btf.h"
#include "typeinfo_complete.h"
#include "typeinfo_dwarf.h"

int __real_dwarf_child(Dwarf_Die *die, Dwarf_Die *result);
int __wrap_dwarf_child(Dwarf_Die *die, Dwarf_Die *result);
int __real_dwarf_siblingof(Dwarf_Die *die, Dwarf_Die *result);
int __wrap_dwarf_siblingof(Dwarf_Die *die, Dwarf_Die *result);

const struct btf_type *__real_btf__type_by_id(const struct btf *btf,
					      __u32 id);
const struct btf_type *__wrap_btf__type_by_id(const struct btf *btf,
					      __u32 id);

static unsigned long steps;          /* the library's DIE steps */
static unsigned long btf_looks;      /* its BTF type look-ups */

int __wrap_dwarf_child(Dwarf_Die *die, Dwarf_Die *result)
{
	steps++;
	return __real_dwarf_child(die, result);
}

int __wrap_dwarf_siblingof(Dwarf_Die *die, Dwarf_Die *result)
{
	steps++;
	return __real_dwarf_siblingof(die, result);
}

const struct btf_type *__wrap_btf__type_by_id(const struct btf *btf,
					      __u32 id)
{
	btf_looks++;
	return __real_btf__type_by_id(btf, id);
}

/* --- places for vs_ti_complete(): none at 0 (the vmlinux), then 2 --- */

struct two {
	const struct vs_typeinfo *ti[2];
	const char *file[2];
};

static int two_place(void *ctx, size_t i, struct vs_ti_place *p,
		     struct vs_error *err)
{
	const struct two *t = ctx;

	(void)err;
	if (i > 2)
		return 1;
	p->ti = i ? t->ti[i - 1] : NULL;
	p->file = i ? t->file[i - 1] : "vmlinux";
	return 0;
}

/* 0 when X and Y define struct NAME alike, -1 (a message naming both
 * files) when not. */
static int complete(const char *name, const struct vs_typeinfo *x,
		    const char *xf, const struct vs_typeinfo *y,
		    const char *yf, struct vs_error *err)
{
	struct two t = { { x, y }, { xf, yf } };
	const struct vs_typeinfo *got;
	uint64_t id;

	vs_err_clear(err);
	return vs_ti_complete(VS_TI_STRUCT, name, two_place, &t, &got, &id,
			      err);
}

/* B and C differ from A in a bit-field alone, D is A again. */
static void check_same_and_different(const struct vs_typeinfo *ti,
				     const char *what)
{
	struct vs_error err;

	printf("%s: struct bf in a, b, c, d\n", what);
	CHECK(complete("bf", &ti[0], "a", &ti[1], "b", &err) < 0);
	CHECK_STR(err.msg, "struct 'bf' is only declared here and defined "
		  "differently in a and in b");
	CHECK(complete("bf", &ti[0], "a", &ti[2], "c", &err) < 0);
	CHECK_STR(err.msg, "defined differently in a and in c");
	CHECK(complete("bf", &ti[0], "a", &ti[3], "d", &err) == 0);
}

/* B's struct anon differs from A's inside its anonymous members alone,
 * D's is A's again. */
static void check_anon(const struct vs_typeinfo *a,
		       const struct vs_typeinfo *b,
		       const struct vs_typeinfo *d, const char *what)
{
	struct vs_error err;

	printf("%s: struct anon in a, b, d\n", what);
	CHECK(complete("anon", a, "a", b, "b", &err) < 0);
	CHECK_STR(err.msg, "struct 'anon' is only declared here and defined "
		  "differently in a and in b");
	CHECK(complete("anon", a, "a", d, "d", &err) == 0);
}

/* The digest of TI's struct NAME, whose anonymous members repeat a type
 * over and over, refused after 65536 members; *COUNT (the source's
 * steps) at most PER times that. */
static void check_nest_digest(const struct vs_typeinfo *ti, const char *name,
			      unsigned long *count, unsigned per)
{
	struct vs_error err;
	uint64_t t, digest;

	vs_err_clear(&err);
	if (!CHECK(ti->ops->type_by_name(ti->ctx, name, &t, &err) == 0))
		return;
	*count = 0;
	CHECK(vs_ti_layout_digest(ti, t, &digest, &err) < 0);
	printf("%s: the digest of %s: %lu steps\n", ti->ops->name, name,
	       *count);
	CHECK_STR(err.msg, "has more than 65536 members, those of anonymous "
		  "members included");
	CHECK(*count <= (unsigned long)per * VS_TI_MAX_VISITS);
}

/* --- bit-fields as gcc laid them out -------------------------------- */

struct want { const char *name; uint64_t offset, bit; uint32_t bits; };

/* a.c's struct bf: lo:3, hi:5, then int after. */
static const struct want bf_a[] = {
	{ "lo", 0, 0, 3 }, { "hi", 0, 3, 5 }, { "after", 4, 32, 0 },
};

static void check_members(const struct vs_typeinfo *ti, const char *what,
			  const struct want *want)
{
	struct vs_error err;
	struct vs_ti_member m;
	uint64_t bf, pos = 0;

	vs_err_clear(&err);
	printf("%s: the members of struct bf\n", what);
	if (!CHECK(ti->ops->type_by_name(ti->ctx, "struct bf", &bf, &err) == 0))
		return;
	for (size_t i = 0; i < 3; i++) {
		if (!CHECK(ti->ops->member_next(ti->ctx, bf, &pos, &m,
						&err) == 0))
			return;
		CHECK(m.name && strcmp(m.name, want[i].name) == 0);
		CHECK_U64(m.offset, want[i].offset);
		CHECK_U64(m.bit_offset, want[i].bit);
		CHECK_U64(m.bit_size, want[i].bits);
	}
	CHECK(ti->ops->member_next(ti->ctx, bf, &pos, &m, &err) == 1);
}

/* --- DWARF ----------------------------------------------------------- */

/* odd1.o's struct bf: hi's DW_AT_bit_offset 30 does not fit its 32-bit
 * unit with 5 bits, taken as given: bit 30 of the struct, in byte 3. */
static const struct want bf_odd[] = {
	{ "lo", 0, 0, 3 }, { "hi", 3, 30, 5 }, { "after", 4, 32, 0 },
};

/* An odd DW_AT_bit_offset digested as given: 30 and 31 differ, 30 and 30
 * are the same (ODD: odd1.o, odd2.o, odd3.o). */
static void check_odd(const struct vs_typeinfo *odd)
{
	struct vs_error err;

	check_members(&odd[0], "DWARF 4, odd DW_AT_bit_offset", bf_odd);
	printf("DWARF 4: struct bf in odd1, odd2, odd3\n");
	CHECK(complete("bf", &odd[0], "odd1", &odd[1], "odd2", &err) < 0);
	CHECK_STR(err.msg, "defined differently in odd1 and in odd2");
	CHECK(complete("bf", &odd[0], "odd1", &odd[2], "odd3", &err) == 0);
}

static int open_o(struct vs_typeinfo *ti, const char *dir, const char *name)
{
	struct vs_error err;
	char path[4096];

	vs_err_clear(&err);
	snprintf(path, sizeof(path), "%s/%s.o", dir, name);
	if (vs_typeinfo_dwarf_open_module(ti, path, &err) == 0)
		return 0;
	fprintf(stderr, "%s\n", err.msg);
	return -1;
}

/* The digest of struct many (N members) in DIE steps linear in N. */
static void check_linear(const struct vs_typeinfo *ti, unsigned long n)
{
	struct vs_error err;
	uint64_t many, digest;

	vs_err_clear(&err);
	if (!CHECK(ti->ops->type_by_name(ti->ctx, "struct many", &many,
					 &err) == 0))
		return;
	steps = 0;
	CHECK(vs_ti_layout_digest(ti, many, &digest, &err) == 0);
	printf("DWARF: the digest of %lu members took %lu DIE steps\n", n,
	       steps);
	CHECK(n >= 1000);
	CHECK(steps <= 2 * n + 2);
}

/* In TI's struct NAME: member "top" found at TOP, "nosuch" refused
 * after VS_TI_MAX_VISITS members; *COUNT (the source's steps) at most
 * PER times that for the refusal. */
static void check_nest(const struct vs_typeinfo *ti, const char *name,
		       uint64_t top, unsigned long *count, unsigned per)
{
	struct vs_error err;
	uint64_t t, off = 0, mt;

	vs_err_clear(&err);
	if (!CHECK(ti->ops->type_by_name(ti->ctx, name, &t, &err) == 0))
		return;
	CHECK(ti->ops->member(ti->ctx, t, "top", &off, &mt, &err) == 0);
	CHECK_U64(off, top);
	*count = 0;
	CHECK(ti->ops->member(ti->ctx, t, "nosuch", &off, &mt, &err) < 0);
	printf("%s: a member not there: %lu steps\n", ti->ops->name, *count);
	CHECK_STR(err.msg, "member 'nosuch' of 'nest");
	CHECK_STR(err.msg, "more than 65536 members looked at");
	CHECK(*count <= (unsigned long)per * VS_TI_MAX_VISITS);
}

static void test_dwarf(const char *dir, unsigned long n)
{
	static const char *const names[] = { "a", "b", "c", "d", "a4", "nest",
					     "odd1", "odd2", "odd3" };
	struct vs_typeinfo ti[9];

	for (int i = 0; i < 9; i++)
		if (!CHECK(open_o(&ti[i], dir, names[i]) == 0))
			return;
	check_members(&ti[0], "DWARF 5", bf_a);
	check_members(&ti[4], "DWARF 4", bf_a);
	check_odd(&ti[6]);
	check_same_and_different(ti, "DWARF");
	check_anon(&ti[0], &ti[1], &ti[3], "DWARF");
	check_linear(&ti[0], n);
	check_nest(&ti[5], "struct nest9", 0, &steps, 2);
	check_nest_digest(&ti[5], "struct nest9", &steps, 2);
	for (int i = 0; i < 9; i++)
		vs_typeinfo_free(&ti[i]);
}

/* --- BTF ------------------------------------------------------------- */

/* struct bf with hi at bit HI_BIT, HI_BITS wide, as a.c's otherwise. */
static struct btf *btf_bf(uint32_t hi_bit, uint32_t hi_bits)
{
	struct btf *b = btf__new_empty();
	int u, s;

	if (!b)
		return NULL;
	u = btf__add_int(b, "unsigned int", 4, 0);
	s = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	if (u < 0 || s < 0 || btf__add_struct(b, "bf", 8) < 0 ||
	    btf__add_field(b, "lo", u, 0, 3) < 0 ||
	    btf__add_field(b, "hi", u, hi_bit, hi_bits) < 0 ||
	    btf__add_field(b, "after", s, 32, 0) < 0) {
		btf__free(b);
		return NULL;
	}
	return b;
}

/* nest0 { int top; int x; }, then nestK of two anonymous nestK-1, up
 * to nest20: 2^21 members for a name that is not there. */
static struct btf *btf_nest(void)
{
	struct btf *b = btf__new_empty();
	int id = -1, prev;
	char name[16];

	if (!b)
		return NULL;
	prev = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	if (prev < 0 || (id = btf__add_struct(b, "nest0", 8)) < 0 ||
	    btf__add_field(b, "top", prev, 0, 0) < 0 ||
	    btf__add_field(b, "x", prev, 32, 0) < 0)
		id = -1;
	for (uint32_t k = 1, size = 16; k <= 20 && id > 0; k++, size *= 2) {
		prev = id;
		snprintf(name, sizeof(name), "nest%u", k);
		if ((id = btf__add_struct(b, name, size)) < 0 ||
		    btf__add_field(b, NULL, prev, 0, 0) < 0 ||
		    btf__add_field(b, NULL, prev, size * 4, 0) < 0)
			id = -1;
	}
	if (id < 0) {
		btf__free(b);
		return NULL;
	}
	return b;
}

static void test_btf_nest(void)
{
	struct vs_typeinfo ti = { 0 };
	struct vs_error err;
	struct btf *b = btf_nest();
	const void *raw = NULL;
	uint32_t size;

	vs_err_clear(&err);
	if (b)
		raw = btf__raw_data(b, &size);
	if (CHECK(raw && vs_typeinfo_btf_new(&ti, raw, size, NULL, 8,
					     &err) == 0)) {
		check_nest(&ti, "struct nest20", 0, &btf_looks, 4);
		check_nest_digest(&ti, "struct nest20", &btf_looks, 4);
	}
	vs_typeinfo_free(&ti);
	btf__free(b);
}

/* struct anon { int x; union { int i; struct { short lo, hi; }; }; },
 * lo and hi's names swapped when SWAP. */
static struct btf *btf_anon(int swap)
{
	struct btf *b = btf__new_empty();
	int i, h, in, un;

	if (!b)
		return NULL;
	i = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	h = btf__add_int(b, "short", 2, BTF_INT_SIGNED);
	if (i < 0 || h < 0 || (in = btf__add_struct(b, NULL, 4)) < 0 ||
	    btf__add_field(b, swap ? "hi" : "lo", h, 0, 0) < 0 ||
	    btf__add_field(b, swap ? "lo" : "hi", h, 16, 0) < 0 ||
	    (un = btf__add_union(b, NULL, 4)) < 0 ||
	    btf__add_field(b, "i", i, 0, 0) < 0 ||
	    btf__add_field(b, NULL, in, 0, 0) < 0 ||
	    btf__add_struct(b, "anon", 8) < 0 ||
	    btf__add_field(b, "x", i, 0, 0) < 0 ||
	    btf__add_field(b, NULL, un, 32, 0) < 0) {
		btf__free(b);
		return NULL;
	}
	return b;
}

/* struct deep: 40 anonymous structs, one in the other, then int top. */
static struct btf *btf_deep(void)
{
	struct btf *b = btf__new_empty();
	int id = -1, prev;

	if (!b)
		return NULL;
	prev = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	for (int k = 0; k <= 40 && prev > 0; k++) {
		id = btf__add_struct(b, k == 40 ? "deep" : NULL, 4);
		if (id < 0 || btf__add_field(b, k ? NULL : "top", prev, 0,
					     0) < 0)
			id = -1;
		prev = id;
	}
	if (id < 0) {
		btf__free(b);
		return NULL;
	}
	return b;
}

/* TI from B (freed) into *TI: 0, or -1 with a failed check. */
static int btf_open(struct vs_typeinfo *ti, struct btf *b)
{
	struct vs_error err;
	const void *raw = NULL;
	uint32_t size;

	vs_err_clear(&err);
	if (b)
		raw = btf__raw_data(b, &size);
	return CHECK(raw && vs_typeinfo_btf_new(ti, raw, size, NULL, 8,
						&err) == 0) ? 0 : -1;
}

/* struct anon in BTF as check_anon() wants it; struct deep's digest
 * refused past 32 anonymous levels. */
static void test_btf_anon(void)
{
	struct vs_typeinfo ti[4] = { 0 };
	struct btf *b[4] = { btf_anon(0), btf_anon(1), btf_anon(0),
			     btf_deep() };
	struct vs_error err;
	uint64_t t, digest;
	int ok = 1;

	for (int i = 0; i < 4 && ok; i++)
		ok = btf_open(&ti[i], b[i]) == 0;
	if (ok) {
		check_anon(&ti[0], &ti[1], &ti[2], "BTF");
		vs_err_clear(&err);
		CHECK(ti[3].ops->type_by_name(ti[3].ctx, "struct deep", &t,
					      &err) == 0);
		CHECK(vs_ti_layout_digest(&ti[3], t, &digest, &err) < 0);
		CHECK_STR(err.msg, "'deep' has anonymous members more than "
			  "32 deep");
	}
	for (int i = 0; i < 4; i++) {
		vs_typeinfo_free(&ti[i]);
		btf__free(b[i]);
	}
}

static void test_btf(void)
{
	static const uint32_t hi[4][2] = { { 3, 5 }, { 5, 5 }, { 3, 4 },
					   { 3, 5 } };
	struct vs_typeinfo ti[4] = { 0 };
	struct btf *b[4] = { 0 };
	int ok = 1;

	for (int i = 0; i < 4 && ok; i++) {
		struct vs_error err;
		const void *raw;
		uint32_t size;

		vs_err_clear(&err);
		b[i] = btf_bf(hi[i][0], hi[i][1]);
		raw = b[i] ? btf__raw_data(b[i], &size) : NULL;
		ok = CHECK(raw && vs_typeinfo_btf_new(&ti[i], raw, size, NULL, 8,
						      &err) == 0);
	}
	if (ok) {
		check_members(&ti[0], "BTF", bf_a);
		check_same_and_different(ti, "BTF");
	}
	for (int i = 0; i < 4; i++) {
		vs_typeinfo_free(&ti[i]);
		btf__free(b[i]);
	}
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: layout_test DIR N\n");
		return 2;
	}
	test_dwarf(argv[1], strtoul(argv[2], NULL, 0));
	test_btf();
	test_btf_nest();
	test_btf_anon();
	return check_exit("layout_test");
}
