/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * erase_test.c - the --config parser (lib/erase_config.c) and the
 * evaluator (lib/erase.c) on a small hand-made kernel: a typeinfo double
 * (ti_spec.h) and 16 KiB of "memory" mapped at a direct-map address.
 * Every expected range is computed here from the layout below, not read
 * back from the code under test.
 */
#include <stdlib.h>
#include <string.h>

#include "../../lib/erase.h"
#include "../../lib/typeinfo_complete.h"
#include "check.h"
#include "erase_world.h"
#include "module_decl.h"
#include "ti_spec.h"

static void put64(struct fake_mem *m, uint32_t off, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		m->b[off + i] = (uint8_t)(v >> (8 * i));
}

static uint64_t va(uint32_t off)
{
	return VBASE + off;
}

/* Key K of key type KT: its rbtree children (0: none) and payload. */
static void put_key(struct fake_mem *m, uint32_t k, uint32_t kt,
		    uint32_t left, uint32_t right, uint32_t payload)
{
	put64(m, k + M_KTYPE, va(kt));
	put64(m, k + M_SNODE, 0);
	put64(m, k + M_SNODE + M_LEFT, left ? va(left + M_SNODE) : 0);
	put64(m, k + M_SNODE + M_RIGHT, right ? va(right + M_SNODE) : 0);
	put64(m, k + M_PAYLD, va(payload));
}

static void put_payload(struct fake_mem *m, uint32_t p, uint8_t len)
{
	m->b[p + 0x10] = len;
	m->b[p + 0x11] = 0;
}

static void make_keys_and_cpus(struct fake_mem *m)
{
	put64(m, O_ROOT, va(O_K2 + M_SNODE));
	put_key(m, O_K1, O_KTU, 0, 0, O_P1);
	put_key(m, O_K2, O_KTL, O_K1, O_K3, O_P2);
	put_key(m, O_K3, O_KTK, 0, O_K4, O_KR);
	put_key(m, O_K4, O_KTU, 0, 0, O_P4);
	put_payload(m, O_P1, 10);
	put_payload(m, O_P2, 20);
	put_payload(m, O_P4, 5);
	put64(m, O_PCO, va(O_CPU0) - CRNGS);
	put64(m, O_PCO + 8, 0xdeadbeef00000000ULL);
	put64(m, O_PCO + 16, va(O_CPU2) - CRNGS);
	put64(m, O_PCO + 24, va(O_CPU3) - CRNGS);
	memset(m->b + O_NCPU, 0, 4);
	m->b[O_NCPU] = 3;
	put64(m, O_MASK, 0xd);
}

/* The socket table of erase_world.h. */
static void make_sockets(struct fake_mem *m)
{
	put64(m, O_HI, va(O_BKT));
	memset(m->b + O_HI + 8, 0, 4);
	m->b[O_HI + 8] = 2;
	put64(m, O_BKT, va(O_S1 + SK_NULLS));
	put64(m, O_BKT + 8, 3);
	put64(m, O_BKT + 16, va(O_S2 + SK_NULLS));
	put64(m, O_S1 + SK_NULLS, va(O_S3 + SK_NULLS));
	put64(m, O_S3 + SK_NULLS, 5);
	put64(m, O_S2 + SK_NULLS, 7);
	put64(m, O_S1 + SK_ULP, va(O_KTU));
	put64(m, O_S3 + SK_ULP, va(O_KTL));
	put64(m, O_S2 + SK_ULP, va(O_KTU));
	put64(m, O_S1 + SK_DATA, 0);
	put64(m, O_S3 + SK_DATA, va(O_TFM1));
	put64(m, O_S2 + SK_DATA, va(O_TFM1));
	put64(m, O_TFM1, 0);
	put64(m, O_TFM1 + 8, va(O_TFM2));
	put64(m, O_S1, 1);               /* common.state: S3 a "time-wait" */
	put64(m, O_S3, 6);
	put64(m, O_S2, 1);
	memset(m->b + O_TFM1 + 16, 0, 4);
	m->b[O_TFM1 + 16] = GCTX_N;
}

static void make_kernel(struct fake_mem *m)
{
	memset(m->b, 0xee, sizeof(m->b));
	/* the task list: task_list -> init -> A -> B -> task_list */
	put64(m, O_HEAD, va(O_INIT + M_TASKS));
	put64(m, O_INIT + M_TASKS, va(O_A + M_TASKS));
	put64(m, O_A + M_TASKS, va(O_B + M_TASKS));
	put64(m, O_B + M_TASKS, va(O_HEAD));
	/* the "next" chain: init -> A -> B -> NULL */
	put64(m, O_INIT + M_NEXT, va(O_A));
	put64(m, O_A + M_NEXT, va(O_B));
	put64(m, O_B + M_NEXT, 0);
	put64(m, O_INIT + M_CRED, va(O_CRED));
	put64(m, O_A + M_CRED, 0);
	put64(m, O_INIT + M_NAME, va(O_STR));
	put64(m, O_INIT + M_KEY, va(O_KEY));
	memset(m->b + O_INIT + M_KLEN, 0, 4);
	m->b[O_INIT + M_KLEN] = 24;
	strcpy((char *)m->b + O_STR, "root=/dev/sda1 secret");  /* 21 */
	put64(m, O_SCL, va(O_STR));
	put64(m, O_PTRS, va(O_A));
	put64(m, O_PTRS + 8, 0);
	put64(m, O_PTRS + 16, va(O_B));
	put64(m, O_PTRS + 24, va(O_INIT));
	make_keys_and_cpus(m);
	make_sockets(m);
}

struct world {
	struct tis spec;
	struct vs_typeinfo ti;
	struct fake_mem mem;
	struct vs_erase_mem em;
	struct vs_erase_opts opts;
	struct vs_error err;
};

static void world_init(struct world *w)
{
	memset(w, 0, sizeof(*w));
	if (tis_parse(&w->spec, erase_world_spec) < 0)
		abort();
	w->ti.ops = &tis_ops;
	w->ti.ctx = &w->spec;
	make_kernel(&w->mem);
	w->em.ctx = &w->mem;
	w->em.read = fm_read;
	w->em.vtop = fm_vtop;
	w->em.ptr_size = 8;
	w->em.page_size = PS;
	w->opts.nparts = 1;
}

/* Build TEXT's ranges with the types of TI; NULL on failure (w->err
 * says why). */
static struct vs_erase *build_ti(struct world *w, const struct vs_typeinfo *ti,
				 const char *text)
{
	struct vs_erase_config *c;
	struct vs_erase *e = NULL;

	vs_err_clear(&w->err);
	if (vs_erase_config_parse(text, strlen(text), "t.conf", &c,
				  &w->err) < 0)
		return NULL;
	if (vs_erase_build(&e, c, ti, &w->em, &w->opts, &w->err) < 0)
		e = NULL;
	vs_erase_config_free(c);
	return e;
}

static struct vs_erase *build(struct world *w, const char *text)
{
	return build_ti(w, &w->ti, text);
}

/* TEXT resolves to exactly the ranges (vaddr offset, size, nullify)
 * given, in order. */
static void expect(struct world *w, const char *text, size_t n,
		   const uint64_t (*want)[3])
{
	struct vs_erase *e = build(w, text);

	if (!CHECK(e != NULL)) {
		fprintf(stderr, "  %s\n  error: %s\n", text, w->err.msg);
		return;
	}
	CHECK_U64(vs_erase_nranges(e), n);
	for (size_t i = 0; i < n && i < vs_erase_nranges(e); i++) {
		uint64_t v, size;
		int nul;

		vs_erase_range(e, i, &v, &size, &nul);
		CHECK_U64(v, want[i][0] + VBASE);
		CHECK_U64(size, want[i][1]);
		CHECK_U64((uint64_t)nul, want[i][2]);
	}
	vs_erase_free(e);
}

static void expect_fail(struct world *w, const char *text, const char *frag)
{
	struct vs_erase *e = build(w, text);

	CHECK(e == NULL);
	vs_erase_free(e);
	if (!CHECK(strstr(w->err.msg, frag) != NULL))
		fprintf(stderr, "  %s\n  wanted \"%s\" in \"%s\"\n", text, frag,
			w->err.msg);
}

static void test_parse_errors(void)
{
	static const struct { const char *text, *frag; } bad[] = {
		{ "erase", "t.conf:1: at the end of the file: expected a symbol" },
		{ "\n  erase size 3", "t.conf:2:9: expected a symbol after 'erase', found 'size'" },
		{ "erase a.b size", "at the end of the file: expected a size" },
		{ "erase a size 12Q", "t.conf:1:14: bad size '12Q'" },
		{ "erase a.9b", "t.conf:1:7: '9b' in 'a.9b' is not a name" },
		{ "erase a[x]", "bad index '[x]'" },
		{ "for t in x\nerase t.comm\n", "at the end of the file: expected 'erase', 'for' or 'endfor'" },
		{ "for t in x\nerase u.comm\nendfor", "t.conf:2:7: 'u.comm' does not start with the loop's variable 't'" },
		{ "for t x", "t.conf:1:7: expected 'in' after 'for t'" },
		{ "for t in x within :y\nerase t\nendfor", "expected STRUCT:MEMBER after 'within'" },
		{ "[vmlinux\nerase a", "t.conf:1:1: a section is \"[module]\"" },
		{ "bogus a", "t.conf:1:1: expected 'erase' or 'for', found 'bogus'" },
		{ "erase a:", "expected a type after ':'" },
		{ "erase a nullify\nendfor", "t.conf:2:1: expected 'erase' or 'for', found 'endfor'" },
		{ "for t in x\nendfor", "erases nothing" },
		{ "erase a size 99999999999999999999", "too big" },
		{ "for k in x rbtree key\nerase k\nendfor", "t.conf:1:19: expected STRUCT:MEMBER after 'rbtree' (the struct rb_node member), found 'key'" },
		{ "for k in x rbtree :a\nerase k\nendfor", "expected STRUCT:MEMBER after 'rbtree', found ':a'" },
		{ "for c in crngs.key percpu\nerase c\nendfor", "t.conf:1:10: 'percpu' walks a per-CPU variable: 'crngs.key' is not a lone symbol" },
		{ "for c in a[1] percpu\nerase c\nendfor", "is not a lone symbol" },
		{ "for k in x where j.type == &a\nerase k\nendfor", "t.conf:1:18: 'j.type' does not start with the loop's variable 'k'" },
		{ "for k in x where k.type = &a\nerase k\nendfor", "t.conf:1:25: expected '==' or '!=' after 'where k.type', found '='" },
		{ "for k in x where k.type", "at the end of the file: expected '==' or '!='" },
		{ "for k in x where k.type == a\nerase k\nendfor", "t.conf:1:28: expected '&SYMBOL' or a number, found 'a'" },
		{ "for k in x where k.type == &1a\nerase k\nendfor", "'&1a' is not '&SYMBOL'" },
		{ "for k in x where k.type == 0x1g\nerase k\nendfor", "bad number '0x1g'" },
		{ "for k in x where k.type == endfor", "expected '&SYMBOL' or a number after the comparison, found 'endfor'" },
		{ "erase a.b:", "t.conf:1:7: expected a type after ':' in 'a.b:'" },
		{ "erase a.b:c-d.e", "'c-d' in 'a.b:c-d.e' is not a type name" },
		{ "erase a.b[1]:c*[2]", "'c*[2]' in 'a.b[1]:c*[2]' is not a type name" },
		{ "for t in x count\nerase t\nendfor", "t.conf:2:1: expected an expression after 'count', found 'erase'" },
		{ "for t in x count t.n\nerase t\nendfor", "t.conf:1:18: 'count t.n': the count cannot use the loop's own variable 't'" },
		{ "for t in x count 3x\nerase t\nendfor", "t.conf:1:18: 'count 3x': '3x' is not a number of at most 4194304" },
		{ "for t in x count a.n+\nerase t\nendfor", "t.conf:1:18: expected a number after '+' in 'count a.n+'" },
		{ "for t in x count a.n+1x\nerase t\nendfor", "'count a.n+1x': '1x' is not a number" },
		{ "for t in x count a.n+99999999\nerase t\nendfor", "'count a.n+99999999': '99999999' is not a number of at most 4194304" },
		{ "for t in x count +1\nerase t\nendfor", "t.conf:1:18: expected an expression before '+' in 'count +1'" },
		{ "for t in x count t.n+1\nerase t\nendfor", "'count t.n+1': the count cannot use the loop's own variable 't'" },
		{ "for s in x hlist_nulls sk\nerase s\nendfor", "t.conf:1:24: expected STRUCT:MEMBER after 'hlist_nulls' (the struct hlist_nulls_node member), found 'sk'" },
		{ "for s in x hlist_nulls sk:a..b\nerase s\nendfor", "t.conf:1:24: expected STRUCT:MEMBER after 'hlist_nulls', found 'sk:a..b'" },
		{ "for s in x hlist_nulls\nerase s\nendfor", "t.conf:2:1: expected STRUCT:MEMBER after 'hlist_nulls', found 'erase'" },
		{ "for s in x within sk:a.\nerase s\nendfor", "expected STRUCT:MEMBER after 'within', found 'sk:a.'" },
		{ "for k in x where k.a == 1 and\nerase k\nendfor", "t.conf:2:1: expected an expression after 'where', found 'erase'" },
		{ "for t in x\nfor u in t?.next\nerase u\nendfor\nendfor", "t.conf:2:10: 't?.next': a loop's variable cannot be optional ('?' follows a symbol)" },
		{ "for k in x where k.a == 1 and k.b != 2 and k.c == 3 and k.d == 4 and k.e == 5\nerase k\nendfor", "t.conf:1:66: more than 4 conditions after 'where'" },
		{ "for k in x where k.a == 1 and j.b != 2\nerase k\nendfor", "t.conf:1:31: 'j.b' does not start with the loop's variable 'k'" },
		{ "for k in x and k.a == 1\nerase k\nendfor", "t.conf:1:12: expected 'erase', 'for' or 'endfor' in the loop of line 1, found 'and'" },
		{ "erase hlist_nulls", "t.conf:1:7: expected a symbol after 'erase', found 'hlist_nulls'" },
		{ "for t in x\n for t in y\n  erase t\n endfor\nendfor", "t.conf:2:11: the loop of line 2 reuses the variable 't'" },
		{ "for a in x\nfor b in x\nfor c in x\nfor d in x\nfor e in x\nfor f in x\nfor g in x\nerase g\nendfor\nendfor\nendfor\nendfor\nendfor\nendfor\nendfor", "t.conf:7:1: loops nest more than 6 deep" },
		{ "for t in x\n for u in t.y\n  erase v\n endfor\nendfor", "t.conf:3:9: 'v' does not start with the loop's variable 'u'" },
		{ "for t in x\n for u in t.y\n  erase t\n", "at the end of the file: expected 'erase', 'for' or 'endfor' in the loop of line 2" },
		{ "erase a.b:c@\n", "t.conf:1:7: '@' in 'a.b:c@' is not '@MODULE'" },
		{ "erase a.b:c@d.e*\n", "t.conf:1:7: 'e*' in 'a.b:c@d.e*' is not a name" },
		{ "erase a.b:c@m/x*\n", "'@m/x*' in 'a.b:c@m/x*' is not '@MODULE'" },
		{ "erase a:c@\n", "t.conf:1:7: '@' in 'a:c@' is not '@MODULE'" },
		{ "erase a:c@m/x*.b\n", "'@m/x*' in 'a:c@m/x*.b' is not '@MODULE'" },
		{ "for k in x where k.t == &a@\nerase k\nendfor", "t.conf:1:25: '&a@' is not '&SYMBOL' or '&SYMBOL@MODULE'" },
		{ "for k in x where k.t == &a@b@c\nerase k\nendfor", "'&a@b@c' is not '&SYMBOL'" },
		{ "erase count", "t.conf:1:7: expected a symbol after 'erase', found 'count'" },
		{ "erase a size a.n/0", "t.conf:1:14: 'size a.n/0': '0' is not a divisor from 1 to 4096" },
		{ "erase a size a.n/", "'size a.n/': '' is not a divisor from 1 to 4096" },
		{ "erase a size a.n/8x", "'size a.n/8x': '8x' is not a divisor" },
		{ "erase a size a.n/4097", "'4097' is not a divisor from 1 to 4096" },
		{ "erase a size a.n/99999999999999999999999", "is not a divisor from 1 to 4096" },
		{ "erase a size a/b.c", "'size a/b.c': 'b.c' is not a divisor" },
		{ "erase a size a.n/8/8", "'size a.n/8/8': '8/8' is not a divisor" },
		{ "erase a size /8", "t.conf:1:14: expected an expression before '/' in 'size /8'" },
		{ "erase a size 64/8", "t.conf:1:14: bad size '64/8'" },
	};
	struct vs_erase_config *c;
	struct vs_error err;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		vs_err_clear(&err);
		CHECK(vs_erase_config_parse(bad[i].text, strlen(bad[i].text),
					    "t.conf", &c, &err) < 0);
		if (!CHECK(strstr(err.msg, bad[i].frag) != NULL))
			fprintf(stderr, "  %s\n  wanted \"%s\" in \"%s\"\n",
				bad[i].text, bad[i].frag, err.msg);
	}
}

static void test_parse_tree(void)
{
	static const char text[] =
		"# comment\n[vmlinux]\nerase init_uts_ns:uts_namespace.name.nodename\n"
		"erase x.y size 2K # trailing\n"
		"for\tt in\ninit_task.tasks within task_struct:tasks\n"
		"  erase t.comm\n  erase t.key size t.keylen\nendfor\n"
		"[mymod]\nerase arr[2].comm nullify\n";
	struct vs_erase_config *c;
	struct vs_error err;

	if (!CHECK(vs_erase_config_parse(text, strlen(text), "t.conf", &c,
					 &err) == 0)) {
		fprintf(stderr, "  %s\n", err.msg);
		return;
	}
	CHECK_U64(c->nrules, 4);
	CHECK(strcmp(c->rules[0].erases[0].target.text,
		     "init_uts_ns.name.nodename") == 0);
	CHECK(strcmp(c->rules[0].erases[0].target.type, "uts_namespace") == 0);
	CHECK_U64(c->rules[0].erases[0].target.nparts, 3);
	CHECK_U64(c->rules[1].erases[0].size_kind, VS_EC_SIZE_NUM);
	CHECK_U64(c->rules[1].erases[0].size, 2048);
	CHECK_U64(c->rules[2].loop, VS_EC_WITHIN);
	CHECK(strcmp(c->rules[2].within_member, "tasks") == 0);
	CHECK_U64(c->rules[2].nerases, 2);
	CHECK_U64(c->rules[2].erases[1].size_kind, VS_EC_SIZE_EXPR);
	CHECK(c->rules[2].module == NULL);
	CHECK(c->rules[3].module && strcmp(c->rules[3].module, "mymod") == 0);
	CHECK_U64(c->rules[3].erases[0].target.parts[0].index, 2);
	CHECK_U64(c->rules[3].erases[0].size_kind, VS_EC_NULLIFY);
	vs_erase_config_free(c);
}

static void test_parse_additions(void)
{
	static const char text[] =
		"for k in key_serial_tree:rb_root rbtree key:serial_node\n"
		"  where k.type != &key_type_user\n"
		"  erase k.payload.data[0]:user_key_payload*.data size "
		"k.payload.data[0]:user_key_payload*.datalen\nendfor\n"
		"for c in crngs:crng percpu where c.generation == 0x10\n"
		"  erase c.key\nendfor\n"
		"erase alg:simd_alg@crypto_simd*.name\n";
	struct vs_erase_config *c;
	const struct vs_ec_expr *x;
	struct vs_error err;

	if (!CHECK(vs_erase_config_parse(text, strlen(text), "t.conf", &c,
					 &err) == 0)) {
		fprintf(stderr, "  %s\n", err.msg);
		return;
	}
	CHECK_U64(c->nrules, 3);
	CHECK_U64(c->rules[0].loop, VS_EC_RBTREE);
	CHECK_STR(c->rules[0].within_struct, "key");
	CHECK_STR(c->rules[0].within_member, "serial_node");
	CHECK_STR(c->rules[0].list.type, "rb_root");
	CHECK_U64(c->rules[0].nwhere, 1);
	CHECK_U64(c->rules[0].where[0].negate, 1);
	CHECK_STR(c->rules[0].where[0].sym, "key_type_user");
	CHECK_STR(c->rules[0].where[0].expr.text, "k.type");
	x = &c->rules[0].erases[0].target;
	CHECK_U64(x->nparts, 4);
	CHECK_STR(x->parts[2].name, "data");
	CHECK_U64(x->parts[2].index, 0);
	CHECK_STR(x->parts[2].cast, "user_key_payload*");
	CHECK(x->parts[3].cast == NULL);
	CHECK_STR(x->text, "k.payload.data[0]:user_key_payload*.data");
	CHECK_STR(c->rules[0].erases[0].size_expr.parts[2].cast,
		  "user_key_payload*");
	CHECK_U64(c->rules[1].loop, VS_EC_PERCPU);
	CHECK_U64(c->rules[1].where[0].negate, 0);
	CHECK(c->rules[1].where[0].sym == NULL);
	CHECK_U64(c->rules[1].where[0].value, 16);
	/* SYMBOL:TYPE@MODULE: the module kept apart, the text without both */
	x = &c->rules[2].erases[0].target;
	CHECK_STR(x->type, "simd_alg*");
	CHECK_STR(x->type_module, "crypto_simd");
	CHECK_STR(x->text, "alg.name");
	CHECK(c->rules[1].list.type_module == NULL);
	vs_erase_config_free(c);
}

static void test_lone_erases(struct world *w)
{
	static const uint64_t comm[][3] = { { O_INIT + M_COMM, 16, 0 } };
	static const uint64_t cred[][3] = { { O_CRED, 0x18, 0 } };
	static const uint64_t str[][3] = { { O_STR, 21, 0 } };
	static const uint64_t nul[][3] = { { O_INIT + M_CRED, 8, 1 } };
	static const uint64_t key[][3] = { { O_KEY, 24, 0 } };
	static const uint64_t key3[][3] = { { O_KEY, 3, 0 } };
	static const uint64_t key4[][3] = { { O_KEY, 4, 0 } };
	static const uint64_t key1[][3] = { { O_KEY, 1, 0 } };
	static const uint64_t k1[][3] = { { O_KEY, 1024, 0 } };
	static const uint64_t idx[][3] = { { O_ARR + TSZ + M_COMM, 16, 0 } };
	static const uint64_t ptr1[][3] = { { O_B + M_COMM, 5, 0 } };
	static const uint64_t arr[][3] = { { O_ARR, 3 * TSZ, 0 } };
	static const uint64_t ptrs[][3] = { { O_PTRS, 32, 0 } };

	expect(w, "erase init_task.comm", 1, comm);
	expect(w, "erase init_task.cred", 1, cred);       /* the pointee */
	expect(w, "erase init_task.name", 1, str);        /* strlen */
	expect(w, "erase saved_command_line", 1, str);
	expect(w, "erase init_task.cred nullify", 1, nul);
	expect(w, "erase init_task.key size init_task.keylen", 1, key);
	/* "/N": keylen (24) divided, rounded up (a length in bits) */
	expect(w, "erase init_task.key size init_task.keylen/8", 1, key3);
	expect(w, "erase init_task.key size init_task.keylen/7", 1, key4);
	expect(w, "erase init_task.key size init_task.keylen/1", 1, key);
	expect(w, "erase init_task.key size init_task.keylen/4096", 1, key1);
	expect(w, "erase init_task.key size 1k", 1, k1);
	expect(w, "erase init_task.key", 0, NULL);        /* void *: no size */
	expect(w, "erase init_task.comm nullify", 0, NULL); /* not a pointer */
	expect(w, "erase init_task.next.cred", 0, NULL);  /* A's cred is NULL */
	expect(w, "erase arr[1].comm", 1, idx);
	expect(w, "erase ptrs[2].comm size 5", 1, ptr1);
	expect(w, "erase arr", 1, arr);
	expect(w, "erase ptrs", 1, ptrs);
	/* the same start twice: one range, the longest */
	expect(w, "erase init_task.comm size 4\nerase init_task.comm", 1, comm);
}

static void test_loops(struct world *w)
{
	static const uint64_t arr[][3] = {
		{ O_ARR + M_COMM, 16, 0 }, { O_ARR + TSZ + M_COMM, 16, 0 },
		{ O_ARR + 2 * TSZ + M_COMM, 16, 0 } };
	static const uint64_t ptrs[][3] = {
		{ O_A + M_COMM, 16, 0 }, { O_PTRS, 8, 1 },
		{ O_B + M_COMM, 16, 0 }, { O_PTRS + 16, 8, 1 },
		{ O_INIT + M_COMM, 16, 0 }, { O_PTRS + 24, 8, 1 } };
	static const uint64_t tasks[][3] = {
		{ O_INIT + M_COMM, 16, 0 }, { O_A + M_COMM, 16, 0 },
		{ O_B + M_COMM, 16, 0 } };
	static const uint64_t whole[][3] = {
		{ O_INIT, TSZ, 0 }, { O_A, TSZ, 0 }, { O_B, TSZ, 0 } };

	expect(w, "for t in arr\n erase t.comm\nendfor", 3, arr);
	expect(w, "for t in ptrs\n erase t.comm\n erase t nullify\nendfor",
	       6, ptrs);
	expect(w, "for t in init_task via next\n erase t.comm\nendfor", 3,
	       tasks);
	/* "via" defaults to "next" */
	expect(w, "for t in init_task\n erase t.comm\nendfor", 3, tasks);
	expect(w, "for t in task_list within task_struct:tasks\n"
	       " erase t.comm\nendfor", 3, tasks);
	expect(w, "for t in task_list.next within task_struct:tasks\n"
	       " erase t.comm\nendfor", 3, tasks);
	expect(w, "for t in task_list within task_struct:tasks\n"
	       " erase t\nendfor", 3, whole);
	/* "SYM?": with the symbol, the same walk; without it, no walk,
	 * the body never resolved (its type may be missing too) */
	expect(w, "for t in task_list? within task_struct:tasks\n"
	       " erase t.comm\nendfor", 3, tasks);
	expect(w, "for t in init_task?\n erase t.comm\nendfor", 3, tasks);
	expect(w, "for t in no_list? within no_struct:tasks\n"
	       " erase t.nope\nendfor\nerase init_task.comm", 1, tasks);
	expect_fail(w, "for t in no_list within task_struct:tasks\n"
		    " erase t.comm\nendfor", "no symbol 'no_list'");
}

#define USER_RULE(op, kt) \
	"for k in key_serial_tree rbtree key:serial_node where k.type " op \
	" &" kt "\n erase k.payload.data[0]:user_key_payload*.data size " \
	"k.payload.data[0]:user_key_payload*.datalen\nendfor\n"

/* vmsift's additions: rbtree and percpu loops, "where", a member's cast. */
static void test_additions(struct world *w)
{
	static const uint64_t nodes[][3] = {
		{ O_K1 + M_SNODE, 0x18, 0 }, { O_K2 + M_SNODE, 0x18, 0 },
		{ O_K3 + M_SNODE, 0x18, 0 }, { O_K4 + M_SNODE, 0x18, 0 } };
	static const uint64_t user[][3] = {
		{ O_P1 + UP_DATA, 10, 0 }, { O_P4 + UP_DATA, 5, 0 } };
	static const uint64_t logon[][3] = { { O_P2 + UP_DATA, 20, 0 } };
	static const uint64_t notkr[][3] = {
		{ O_K1, KSZ, 0 }, { O_K2, KSZ, 0 }, { O_K4, KSZ, 0 } };
	static const uint64_t cpus[][3] = {
		{ O_CPU0, 32, 0 }, { O_CPU2, 32, 0 } };
	static const uint64_t cast[][3] = { { O_KEY, 0x18, 0 } };

	/* in order: K1 K2 K3 K4 */
	expect(w, "for k in key_serial_tree rbtree key:serial_node\n"
	       " erase k.serial_node\nendfor", 4, nodes);
	expect(w, USER_RULE("==", "key_type_user"), 2, user);
	expect(w, USER_RULE("==", "key_type_logon"), 1, logon);
	expect(w, "for k in key_serial_tree rbtree key:serial_node where "
	       "k.type != &key_type_keyring\n erase k\nendfor", 3, notkr);
	expect(w, "for k in key_serial_tree rbtree key:serial_node where "
	       "k.payload.data[0]:user_key_payload*.datalen == 20\n"
	       " erase k.payload.data[0]:user_key_payload*.data size 20\n"
	       "endfor", 1, logon);
	expect(w, "for c in crngs percpu\n erase c.key\nendfor", 2, cpus);
	expect(w, "erase init_task.key:cred*", 1, cast);
	w->spec.no_symbol_types = 1;
	expect(w, "for c in crngs:crng percpu\n erase c.key\nendfor", 2, cpus);
	expect(w, "for k in key_serial_tree:rb_root rbtree key:serial_node\n"
	       " erase k.serial_node\nendfor", 4, nodes);
	expect_fail(w, "for c in crngs percpu\n erase c.key\nendfor",
		    "name it: crngs:TYPE");
	w->spec.no_symbol_types = 0;
	expect_fail(w, "for k in init_task rbtree key:serial_node\n erase k\n"
		    "endfor", "'init_task' is not a struct rb_root");
	expect_fail(w, "for k in key_serial_tree rbtree key:payload\n erase k\n"
		    "endfor", "'rbtree key:payload': the member is not a struct "
		    "rb_node");
	expect_fail(w, "for k in key_serial_tree rbtree nokey:x\n erase k\n"
		    "endfor", "'rbtree nokey': no type 'nokey'");
	expect_fail(w, "erase init_task.comm:cred*", "'comm:cred*': 'comm' is "
		    "not a pointer");
	expect_fail(w, "erase init_task.key:cred", "'key:cred': only an array "
		    "member (a flexible array) is seen as a cred; a pointer "
		    "member is cast with 'cred*'");
	expect_fail(w, "for k in key_serial_tree rbtree key:serial_node where "
		    "k.serial_node == 0\n erase k\nendfor",
		    "'where k.serial_node': not a pointer or an integer");
	expect_fail(w, USER_RULE("==", "key_type_nope"), "'where ... "
		    "&key_type_nope': no symbol 'key_type_nope'");
	/* "&SYMBOL?": absent, the where never holds, its body (a cast to a
	 * type the kernel lacks) is never resolved; present, as without */
	expect(w, USER_RULE("==", "key_type_nope?"), 0, NULL);
	expect(w, "for k in key_serial_tree rbtree key:serial_node where "
	       "k.type == &key_type_user and k.type != &key_type_nope?\n"
	       " erase k.payload.data[0]:no_such_type*.data\nendfor", 0, NULL);
	expect(w, USER_RULE("==", "key_type_user?"), 2, user);
	expect(w, USER_RULE("==", "key_type_user@vmlinux?"), 2, user);
	expect_fail(w, USER_RULE("==", "key_type_user@?"), "is not "
		    "'&SYMBOL' or '&SYMBOL@MODULE' (with an optional '?')");
	expect_fail(w, USER_RULE("==", "?"), "is not '&SYMBOL'");
}

/* A [module] source for "@MODULE": "kmod" is the world's own types and
 * symbols, "absent" is not loaded, anything else fails. */
static int world_module(void *ctx, const char *name,
			const struct vs_typeinfo **ti, struct vs_error *err)
{
	const struct world *w = ctx;

	if (strcmp(name, "kmod") == 0) {
		*ti = &w->ti;
		return 0;
	}
	if (strcmp(name, "absent") == 0)
		return 1;
	return vs_err(err, "no debug information for module '%s'", name);
}

/* "count" loops, nested loops, "@MODULE" (the dm-crypt rules' forms). */
static void test_count_nest_module(struct world *w)
{
	static const uint64_t arr[][3] = {
		{ O_ARR + M_COMM, 16, 0 }, { O_ARR + TSZ + M_COMM, 16, 0 },
		{ O_ARR + 2 * TSZ + M_COMM, 16, 0 } };
	static const uint64_t fromb[][3] = {
		{ O_B + M_COMM, 16, 0 }, { O_B + TSZ + M_COMM, 16, 0 },
		{ O_B + 2 * TSZ + M_COMM, 16, 0 } };
	static const uint64_t ptrs[][3] = {
		{ O_A + M_COMM, 16, 0 }, { O_B + M_COMM, 16, 0 } };
	static const uint64_t nest[][3] = {
		{ O_K1 + M_SNODE, 0x18, 0 }, { O_CPU0, 32, 0 },
		{ O_CPU2, 32, 0 }, { O_K4 + M_SNODE, 0x18, 0 } };
	static const uint64_t bytes[][3] = {
		{ O_P4 + UP_DATA, 1, 0 }, { O_P4 + UP_DATA + 1, 1, 0 },
		{ O_P4 + UP_DATA + 2, 1, 0 }, { O_P4 + UP_DATA + 3, 1, 0 },
		{ O_P4 + UP_DATA + 4, 1, 0 } };
	static const uint64_t user[][3] = {
		{ O_P1 + UP_DATA, 10, 0 }, { O_P4 + UP_DATA, 5, 0 } };
	static const uint64_t user5[][3] = {
		{ O_P1 + UP_DATA, 5, 0 }, { O_P4 + UP_DATA, 5, 0 } };
	struct vs_erase_modules mods = { w, world_module };

	/* an array, its first nr_cpu_ids (3) elements */
	expect(w, "for t in arr count nr_cpu_ids\n erase t.comm\nendfor", 3,
	       arr);
	/* a pointer to the first of 3 */
	expect(w, "for t in ptrs[2] count nr_cpu_ids\n erase t.comm\nendfor",
	       3, fromb);
	/* an array of pointers: NULL skipped */
	expect(w, "for t in ptrs count nr_cpu_ids\n erase t.comm\nendfor", 2,
	       ptrs);
	/* a count of 0, a NULL list */
	w->mem.b[O_NCPU] = 0;
	expect(w, "for t in arr count nr_cpu_ids\n erase t.comm\nendfor", 0,
	       NULL);
	make_kernel(&w->mem);
	expect(w, "for t in init_task.next.cred count nr_cpu_ids\n"
	       " erase t\nendfor", 0, NULL);
	/* nested: the inner body sees both variables; the outer "where"
	 * holds across the inner loop */
	expect(w, "for k in key_serial_tree rbtree key:serial_node where "
	       "k.type == &key_type_user\n for c in crngs percpu\n"
	       "  erase k.serial_node\n  erase c.key\n endfor\nendfor", 4,
	       nest);
	/* the count from the outer loop's variable: K4's 5 bytes, one by
	 * one (the outer "where" keeps K4 only) */
	expect(w, "for k in key_serial_tree rbtree key:serial_node where "
	       "k.payload.data[0]:user_key_payload*.datalen == 5\n"
	       " for b in k.payload.data[0]:user_key_payload*.data count "
	       "k.payload.data[0]:user_key_payload*.datalen\n  erase b\n"
	       " endfor\nendfor", 5, bytes);
	expect_fail(w, "for t in arr count init_task.keylen\n erase t.comm\n"
		    "endfor", "'arr' has 3 elements, not 24 ('count "
		    "init_task.keylen')");
	expect_fail(w, "for t in arr count init_task.comm\n erase t\nendfor",
		    "'count init_task.comm' is not an integer");
	expect_fail(w, "for t in init_task.key count nr_cpu_ids\n erase t\n"
		    "endfor", "'init_task.key': elements of no size");
	expect_fail(w, "for t in init_task count nr_cpu_ids\n erase t\n"
		    "endfor", "'init_task' is not an array or a pointer");
	w->opts.max_iter = 2;
	expect_fail(w, "for t in arr count nr_cpu_ids\n erase t.comm\nendfor",
		    "'count nr_cpu_ids' is 3: over 2 elements");
	w->opts.max_iter = 0;
	/* a wild pointer met in the inner loop: the error names its line */
	make_kernel(&w->mem);
	put64(&w->mem, O_K4 + M_PAYLD, 0x1234);
	expect_fail(w, "for k in key_serial_tree rbtree key:serial_node\n"
		    " for b in k.payload.data[0]:user_key_payload*.data count "
		    "k.payload.data[0]:user_key_payload*.datalen\n  erase b\n"
		    " endfor\nendfor", "the loop at line 2");
	make_kernel(&w->mem);
	/* @MODULE: without module sources, with them */
	expect_fail(w, USER_RULE("==", "key_type_user@kmod"),
		    "'@kmod': no source of module symbols");
	expect(w, USER_RULE("==", "key_type_user@vmlinux"), 2, user);
	w->opts.modules = &mods;
	expect(w, USER_RULE("==", "key_type_user@kmod"), 2, user);
	expect(w, USER_RULE("==", "key_type_user@absent"), 0, NULL);
	expect(w, "for k in key_serial_tree rbtree key:serial_node where "
	       "k.type == &key_type_user\n erase k.payload.data[0]:"
	       "user_key_payload@kmod*.data size 5\nendfor", 2, user5);
	expect_fail(w, "erase init_task.key:cred@absent*", "'key:cred*@absent': "
		    "no module 'absent' loaded in the dump");
	expect_fail(w, "erase init_task.key:cred@other*", "module 'other': no "
		    "debug information for module 'other'");
	expect_fail(w, USER_RULE("==", "key_type_nope@kmod"), "'where ... "
		    "&key_type_nope@kmod'");
	w->opts.modules = NULL;
}

/* TEXT gives the one range (OFF, SIZE) or, with FRAG, fails with it. */
static void xm_expect(struct world *w, struct xm *x, const char *text,
		      uint32_t off, uint64_t size, const char *frag)
{
	struct vs_erase *e = build_ti(w, &x->ti[0], text);
	uint64_t v = 0, n = 0;
	int nul;

	if (frag) {
		CHECK(e == NULL);
		if (!CHECK(strstr(w->err.msg, frag) != NULL))
			fprintf(stderr, "  %s\n  wanted \"%s\" in \"%s\"\n",
				text, frag, w->err.msg);
		vs_erase_free(e);
		return;
	}
	if (!CHECK(e != NULL)) {
		fprintf(stderr, "  %s\n  error: %s\n", text, w->err.msg);
		return;
	}
	CHECK_U64(vs_erase_nranges(e), 1);
	if (vs_erase_nranges(e) == 1)
		vs_erase_range(e, 0, &v, &n, &nul);
	CHECK_U64(v, VBASE + off);
	CHECK_U64(n, size);
	vs_erase_free(e);
}

static void test_declared(struct world *w)
{
	static struct xm x;
	struct vs_erase_modules mods = { &x, xm_source, xm_complete };

	xm_init(&x);
	for (uint32_t i = 0; i < 4; i++)
		put64(&w->mem, XM_OBJ + 8 * i, va(XM_OBJ + 0x100 * (i + 1)));
	w->opts.modules = &mods;
	/* the kernel's, and no module looked at */
	xm_expect(w, &x, "[mod]\nerase sharer.key", XM_OBJ + 0x200 + 8, 8,
		  NULL);
	CHECK_U64(x.opened, 0);
	/* a module's (a's and b's alike), its size for the whole */
	xm_expect(w, &x, "[mod]\nerase holder.key", XM_OBJ + 0x100 + 16, 16,
		  NULL);
	xm_expect(w, &x, "[mod]\nerase holder", XM_OBJ + 0x100, 32, NULL);
	CHECK(x.opened > 0);
	/* SYMBOL:TYPE@MODULE: b's own */
	xm_expect(w, &x, "[mod]\nerase holder:secret@b*.key",
		  XM_OBJ + 0x100 + 16, 16, NULL);
	xm_expect(w, &x, "[mod]\nerase holder:secret@c*.key", 0, 0,
		  "'holder:secret*@c': no module 'c' loaded in the dump");
	xm_expect(w, &x, "[mod]\nerase twicer.x", 0, 0,
		  "struct 'twice' is only declared here and defined "
		  "differently in a.ko and in b.ko");
	xm_expect(w, &x, "[mod]\nerase lost.key", 0, 0,
		  "no member 'key': struct 'lost' is only declared, and "
		  "defined in neither the vmlinux nor another loaded module");
	xm_expect(w, &x, "[mod]\nerase lost", 0, 0,
		  "'lost': no size (give 'size N'): struct 'lost' is only "
		  "declared");
	xm_expect(w, &x, "[mod]\nerase lost size 4", XM_OBJ + 0x400, 4,
		  NULL);
	xm_expect(w, &x, "[mod]\nerase lost nullify", XM_OBJ + 0x18, 8,
		  NULL);
	/* without completion (no callback): the declaration stays one */
	mods.complete = NULL;
	xm_expect(w, &x, "[mod]\nerase holder.key", 0, 0,
		  "struct 'secret' is only declared");
	w->opts.modules = NULL;
	for (int i = 0; i < 4; i++)
		tis_free(&x.spec[i]);
	make_kernel(&w->mem);
}

/* --- a declaration's name longer than any buffer (typeinfo_complete.c) -- */

/* One source that defines "struct NAME" for NAME exactly as given. */
struct ln {
	char full[512];              /* "struct aaa...a" */
};

static int ln_type_by_name(void *ctx, const char *name, uint64_t *type,
			   struct vs_error *err)
{
	const struct ln *l = ctx;

	if (strcmp(name, l->full) != 0)
		return vs_err(err, "no type '%s'", name);
	*type = 1;
	return 0;
}

static int ln_type(void *ctx, uint64_t type, struct vs_ti_type *out,
		   struct vs_error *err)
{
	const struct ln *l = ctx;

	(void)err;
	memset(out, 0, sizeof(*out));
	out->kind = VS_TI_STRUCT;
	out->size = type * 8;
	out->name = l->full + 7;
	return 0;
}

static int ln_place(void *ctx, size_t i, struct vs_ti_place *p,
		    struct vs_error *err)
{
	(void)err;
	if (i > 0)
		return 1;
	p->ti = ctx;
	p->file = "vmlinux";
	return 0;
}

/* A declared name of 400 bytes is not the vmlinux's struct whose name is
 * its first 312: the name is looked up whole, never cut. */
static void test_long_name(void)
{
	static struct ln l;
	struct vs_typeinfo_ops ops = tis_ops;
	struct vs_typeinfo ti = { &ops, &l };
	const struct vs_typeinfo *got;
	char name[401];
	struct vs_error err;
	uint64_t id;

	ops.type_by_name = ln_type_by_name;
	ops.type = ln_type;
	memset(name, 'a', 400);
	name[400] = '\0';
	snprintf(l.full, sizeof(l.full), "struct %.312s", name);
	vs_err_clear(&err);
	/* its own name is found (the double works) */
	CHECK(vs_ti_complete(VS_TI_STRUCT, l.full + 7, ln_place, &ti, &got,
			     &id, &err) == 0);
	/* the longer one is not */
	CHECK(vs_ti_complete(VS_TI_STRUCT, name, ln_place, &ti, &got, &id,
			     &err) == 1);
}

#define SOCKS "for b in hinfo:hinfo.ehash count hinfo:hinfo.mask+1\n" \
	" for s in b.chain hlist_nulls sk:common.nulls"
#define GCTX "s.data:tfm*.__crt_ctx:gctx"

/* hlist_nulls, "count EXPR+N", "count N", nested member paths, and a
 * flexible array seen as a struct, on erase_world.h's socket table. */
static void test_sockets(struct world *w)
{
	static const uint64_t all[][3] = {
		{ O_S1, 0x20, 0 }, { O_S3, 0x20, 0 }, { O_S2, 0x20, 0 } };
	static const uint64_t two[][3] = { { O_S1, 0x20, 0 }, { O_S3, 0x20, 0 } };
	static const uint64_t s12[][3] = { { O_S1, 0x20, 0 }, { O_S2, 0x20, 0 } };
	static const uint64_t comm0[][3] = { { O_ARR + M_COMM, 16, 0 } };
	static const uint64_t user[][3] = { { O_S1 + 0x20, 8, 1 },
					    { O_S2 + 0x20, 8, 1 } };
	static const uint64_t ctx[][3] = { { O_TFM1 + 8, 0x10, 0 },
					   { O_TFM2 + 8, GCTX_N, 0 } };

	expect(w, SOCKS "\n  erase s.common\n endfor\nendfor", 3, all);
	/* six loops deep, the parser's and the evaluator's bound */
	expect(w, "for a in arr count 1\nfor b in arr count 1\nfor c in arr "
	       "count 1\nfor d in arr count 1\nfor e in arr count 1\nfor f in "
	       "arr count 1\nerase f.comm\nendfor\nendfor\nendfor\nendfor\n"
	       "endfor\nendfor", 1, comm0);
	/* "count N": buckets 0 and 1 only */
	expect(w, "for b in hinfo:hinfo.ehash count 2\n for s in b.chain "
	       "hlist_nulls sk:common.nulls\n  erase s.common\n endfor\n"
	       "endfor", 2, two);
	expect(w, SOCKS " where s.ulp == &key_type_user\n  erase s.ulp nullify"
	       "\n endfor\nendfor", 2, user);
	/* the context at the flexible array's address (TFM1 + 8), its ctr
	 * followed to TFM2's context, N bytes (S2 and S3 share TFM1) */
	expect(w, SOCKS "\n  erase " GCTX "\n  erase " GCTX ".ctr.__crt_ctx "
	       "size " GCTX ".n\n endfor\nendfor", 2, ctx);
	expect_fail(w, "erase hinfo:hinfo.ehash:tfm", "'ehash:tfm': only an "
		    "array member (a flexible array) is seen as a tfm; a "
		    "pointer member is cast with 'tfm*'");
	expect_fail(w, "erase hinfo:hinfo.ehash:bucket", "only an array");
	expect_fail(w, "for s in hinfo:hinfo hlist_nulls sk:common.nulls\n"
		    " erase s\nendfor", "'hinfo' is not a struct "
		    "hlist_nulls_head (for ... hlist_nulls)");
	expect_fail(w, "for b in hinfo:hinfo.ehash count 1\n for s in b.chain "
		    "hlist_nulls sk:common.state\n  erase s\n endfor\nendfor",
		    "'hlist_nulls sk:common.state': the member is not a struct "
		    "hlist_nulls_node");
	expect_fail(w, "for b in hinfo:hinfo.ehash count 1\n for s in b.chain "
		    "hlist_nulls sk:ulp.next\n  erase s\n endfor\nendfor",
		    "'ulp' in a member path is not a struct or union");
	/* "and": S3 (state 6) fails the first condition, its wild data
	 * pointer is never read; S1's NULL data fails the second */
	put64(&w->mem, O_S3 + SK_DATA, 0x1234);
	expect(w, SOCKS " where s.common.state != 6 and s.data:tfm*.alg == 0"
	       "\n  erase s.common\n endfor\nendfor", 1, &all[2]);
	expect_fail(w, SOCKS " where s.data:tfm*.alg == 0 and s.common.state "
		    "!= 6\n  erase s.common\n endfor\nendfor", "cannot read "
		    "0x1234");
	expect(w, SOCKS " where s.common.state != 6 and s.ulp != "
	       "&key_type_logon\n  erase s.common\n endfor\nendfor", 2, s12);
	make_kernel(&w->mem);
	w->opts.max_iter = 2;
	expect_fail(w, SOCKS "\n  erase s\n endfor\nendfor",
		    "'count hinfo.mask+1' is 3: over 2 elements");
	w->opts.max_iter = 0;
	/* S3 -> S1: a cycle; S3's next NULL: a broken chain */
	put64(&w->mem, O_S3 + SK_NULLS, va(O_S1 + SK_NULLS));
	expect_fail(w, SOCKS "\n  erase s\n endfor\nendfor", "the list of "
		    "'b.chain' loops back to 0xffff888000102650");
	put64(&w->mem, O_S3 + SK_NULLS, 0);
	expect_fail(w, SOCKS "\n  erase s\n endfor\nendfor", "the hlist_nulls "
		    "chain of 'b.chain' breaks: a NULL pointer, not an odd end "
		    "marker");
	make_kernel(&w->mem);
}

static void test_bad_trees_and_cpus(struct world *w)
{
	/* K4's right child is K2: a cycle, ever deeper */
	put64(&w->mem, O_K4 + M_SNODE + M_RIGHT, va(O_K2 + M_SNODE));
	expect_fail(w, "for k in key_serial_tree rbtree key:serial_node\n"
		    " erase k.serial_node\nendfor", "the rbtree of "
		    "'key_serial_tree' is deeper than 96 levels");
	make_kernel(&w->mem);
	w->opts.max_iter = 3;
	expect_fail(w, "for k in key_serial_tree rbtree key:serial_node\n"
		    " erase k.serial_node\nendfor", "has over 3 nodes");
	w->opts.max_iter = 0;
	put64(&w->mem, O_K3 + M_SNODE + M_RIGHT, 0x1234);
	expect_fail(w, "for k in key_serial_tree rbtree key:serial_node\n"
		    " erase k.serial_node\nendfor", "pointer at 0x1244: cannot read 0x1244");
	make_kernel(&w->mem);
	w->mem.b[O_NCPU] = 0;
	expect_fail(w, "for c in crngs percpu\n erase c.key\nendfor",
		    "nr_cpu_ids is 0: implausible");
	make_kernel(&w->mem);
	put64(&w->mem, O_PCO + 16, 0x1234);
	expect_fail(w, "for c in crngs percpu\n erase c.key\nendfor",
		    "cannot translate 0x1274");
	make_kernel(&w->mem);
}

static void test_bad_lists(struct world *w)
{
	/* B.next -> A: a cycle that never returns to init_task */
	put64(&w->mem, O_B + M_NEXT, va(O_A));
	expect_fail(w, "for t in init_task via next\n erase t.comm\nendfor",
		    "loops back to 0xffff888000100100");
	make_kernel(&w->mem);
	put64(&w->mem, O_B + M_TASKS, va(O_A + M_TASKS));
	expect_fail(w, "for t in task_list within task_struct:tasks\n"
		    " erase t.comm\nendfor", "loops back");
	make_kernel(&w->mem);
	put64(&w->mem, O_A + M_TASKS, 0);
	expect_fail(w, "for t in task_list within task_struct:tasks\n"
		    " erase t.comm\nendfor", "a NULL next pointer");
	make_kernel(&w->mem);
	put64(&w->mem, O_A + M_TASKS, 0x1234);
	expect_fail(w, "for t in task_list within task_struct:tasks\n"
		    " erase t.comm\nendfor", "cannot translate 0x121c");
	make_kernel(&w->mem);
	w->opts.max_iter = 1;
	expect_fail(w, "for t in init_task via next\n erase t.comm\nendfor",
		    "does not end after 1 entries");
	w->opts.max_iter = 0;
	expect_fail(w, "for t in task_list within task_struct:comm\n"
		    " erase t.comm\nendfor", "is not a struct list_head");
	expect_fail(w, "for t in task_list\n erase t.comm\nendfor",
		    "use 'within STRUCT:MEMBER'");
}

static void test_missing(struct world *w)
{
	static const uint64_t comm[][3] = { { O_INIT + M_COMM, 16, 0 } };
	const char *text = "erase no_such_sym.x\nerase init_task.comm\n"
			   "erase init_task.nope\n";
	struct vs_erase *e;

	expect_fail(w, text, "rule at line 1: 'no_such_sym.x': no symbol "
		    "'no_such_sym'");
	expect_fail(w, "erase init_task.nope", "rule at line 1: "
		    "'init_task.nope': struct 'task_struct' has no member 'nope'");
	expect_fail(w, "erase arr[3]", "index 3 is past the end of 'arr'");
	expect_fail(w, "erase init_task.comm.x", "is not a struct or union");
	expect_fail(w, "erase init_task.key size init_task.comm",
		    "size 'init_task.comm' is not an integer");
	w->opts.ignore_missing = 1;
	expect(w, text, 1, comm);
	e = build(w, text);
	if (CHECK(e != NULL)) {
		CHECK_U64(vs_erase_skipped(e), 2);
		/* every skipped rule, a line each, in order */
		CHECK_STR(vs_erase_skip_msg(e), "rule at line 1: 'no_such_sym.x': "
			  "no symbol 'no_such_sym'\nrule at line 3: "
			  "'init_task.nope': struct 'task_struct' has no member "
			  "'nope'\n");
	}
	vs_erase_free(e);
	w->opts.ignore_missing = 0;
}

/* As from BTF: no global's type; SYMBOL:TYPE names it. */
static void test_btf_mode(struct world *w)
{
	static const uint64_t comm[][3] = { { O_INIT + M_COMM, 16, 0 } };
	static const uint64_t str[][3] = { { O_STR, 21, 0 } };

	w->spec.no_symbol_types = 1;
	expect_fail(w, "erase init_task.comm", "name it: init_task:TYPE");
	expect(w, "erase init_task:task_struct.comm", 1, comm);
	expect(w, "erase saved_command_line:char*", 1, str);
	w->spec.no_symbol_types = 0;
	/* with the declared type known, :TYPE is checked against it */
	expect(w, "erase init_task:task_struct.comm", 1, comm);
	expect_fail(w, "erase init_task:cred", "'init_task:cred' does not "
		    "match the declared type of 'init_task' (task_struct)");
	expect_fail(w, "erase saved_command_line:char", "does not match");
}

static void test_apply(struct world *w)
{
	const char *text = "erase init_task.comm\nerase init_task.cred nullify\n"
			   "erase big\nfor t in arr\n erase t.comm size 2\nendfor\n";
	struct vs_erase *e;
	uint8_t page[PS], scratch[PS], want[PS];
	const uint8_t *out;
	char txt[512];
	size_t n;

	w->opts.nparts = 2;
	e = build(w, text);
	w->opts.nparts = 1;
	if (!CHECK(e != NULL)) {
		fprintf(stderr, "  %s\n", w->err.msg);
		return;
	}
	memset(page, 0x11, sizeof(page));
	memcpy(want, page, sizeof(want));
	memset(want + O_INIT + M_COMM, 'X', 16);
	memset(want + O_INIT + M_CRED, 0, 8);
	out = vs_erase_page(e, 0, PBASE / PS, page, scratch);
	CHECK(out == scratch);
	CHECK(memcmp(out, want, PS) == 0);
	CHECK(page[O_INIT + M_COMM] == 0x11);          /* input untouched */
	/* a page no rule touches comes back as it was */
	CHECK(vs_erase_page(e, 0, PBASE / PS + 1, page, scratch) == page);
	/* "big" crosses from page 2 into page 3: 0x80 bytes in each */
	out = vs_erase_page(e, 1, PBASE / PS + 2, page, scratch);
	memcpy(want, page, sizeof(want));
	memset(want + (O_ARR + M_COMM) % PS, 'X', 2);
	memset(want + (O_ARR + TSZ + M_COMM) % PS, 'X', 2);
	memset(want + (O_ARR + 2 * TSZ + M_COMM) % PS, 'X', 2);
	memset(want + O_BIG % PS, 'X', PS - O_BIG % PS);
	CHECK(memcmp(out, want, PS) == 0);
	n = vs_erase_text(e, 0, txt, sizeof(txt) - 1);
	txt[n < sizeof(txt) - 1 ? n : sizeof(txt) - 1] = '\0';
	CHECK(strcmp(txt, "erase init_task.comm size 16\n"
		     "erase init_task.cred nullify\n") == 0);
	n = vs_erase_text(e, 1, txt, sizeof(txt) - 1);
	txt[n < sizeof(txt) - 1 ? n : sizeof(txt) - 1] = '\0';
	if (!CHECK(strcmp(txt, "erase big size 128\nerase t.comm size 2\n"
			  "erase t.comm size 2\nerase t.comm size 2\n") == 0))
		fprintf(stderr, "  got \"%s\"\n", txt);
	CHECK_U64(vs_erase_text(e, 1, NULL, 0), strlen(txt));
	CHECK_U64(vs_erase_text_bound(e),
		  strlen("erase init_task.comm size 16\n"
			 "erase init_task.cred nullify\nerase big size 256\n"
			 "erase t.comm size 2\nerase t.comm size 2\n"
			 "erase t.comm size 2\n"));
	vs_erase_free(e);
}

/* The fuzz target's seeds (tests/fuzz/fuzz_erase.c): each config of
 * SEEDS, a NUL, this kernel's memory. */
static int write_seeds(const char *dir)
{
	static const char *const seeds[] = {
		"erase init_task.comm\nerase init_task.cred nullify\n"
		"erase saved_command_line size 4\nerase arr[1].comm\n",
		"erase init_task.key size init_task.keylen\nerase big\n"
		"[mod]\nerase x\n",
		"for t in arr\n erase t.comm size 2\nendfor\n"
		"for t in ptrs\n erase t.comm\n erase t nullify\nendfor\n",
		"for t in init_task via next\n erase t.comm\n erase t.name\n"
		"endfor\n",
		"for t in task_list within task_struct:tasks\n erase t.comm\n"
		"endfor\nfor t in task_list.next within task_struct:tasks\n"
		" erase t\nendfor\n",
		"erase init_task:task_struct.comm\nerase saved_command_line:char*\n",
		USER_RULE("==", "key_type_user") USER_RULE("!=", "key_type_logon"),
		"for c in crngs:crng percpu where c.generation != 0\n"
		" erase c.key\nendfor\nerase init_task.key:cred*\n",
		"for k in key_serial_tree rbtree key:serial_node where k.type "
		"== &key_type_user@vmlinux\n for b in k.payload.data[0]:"
		"user_key_payload@vmlinux*.data count k.payload.data[0]:"
		"user_key_payload*.datalen\n  erase b\n endfor\n"
		" for c in crngs percpu\n  erase c.key\n endfor\nendfor\n"
		"for t in ptrs count nr_cpu_ids where t.next == 0\n"
		" erase t.comm\nendfor\nfor t in ptrs[2] count nr_cpu_ids\n"
		" erase t.cred nullify\nendfor\n",
		SOCKS " where s.ulp == &key_type_user and s.common.state != 6\n"
		"  erase s.common\n"
		"  for t in " GCTX ".ctr count 1 where t.alg == 0\n"
		"   erase t.__crt_ctx size " GCTX ".n\n  endfor\n"
		" endfor\nendfor\nfor b in hinfo:hinfo.ehash count 3\n"
		" erase b.chain\nendfor\n",
		USER_RULE("==", "key_type_nope?") USER_RULE("==",
		"key_type_user@vmlinux?") USER_RULE("!=", "key_type_logon?"),
		"erase init_task:task_struct@vmlinux.comm\n"
		"erase saved_command_line:char@vmlinux*\n"
		"[mod]\nerase x:t@m*.y\n",
		/* module_decl.h's declarations completed (test_declared) */
		"[mod]\nerase sharer.key\nerase holder.key\nerase holder\n"
		"erase holder:secret@b*.key\nerase lost size 4\n"
		"erase lost nullify\nerase twicer.x\n[a]\nerase x\n",
		/* "size EXPR/N" (test_lone_erases), in a loop too */
		"erase init_task.key size init_task.keylen/8\n"
		"erase init_task.comm size init_task.keylen/4096\n"
		"for k in key_serial_tree rbtree key:serial_node where k.type "
		"== &key_type_user\n erase k.payload.data[0]:user_key_payload*"
		".data size k.payload.data[0]:user_key_payload*.datalen/3\n"
		"endfor\n",
	};
	struct world *w = calloc(1, sizeof(*w));

	if (!w)
		return 1;
	make_kernel(&w->mem);
	for (uint32_t i = 0; i < 4; i++)     /* [mod]'s globals */
		put64(&w->mem, XM_OBJ + 8 * i, va(XM_OBJ + 0x100 * (i + 1)));
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		char path[4096];
		FILE *f;

		snprintf(path, sizeof(path), "%s/seed-%zu", dir, i);
		f = fopen(path, "wb");
		if (!f || fwrite(seeds[i], 1, strlen(seeds[i]) + 1, f) !=
		    strlen(seeds[i]) + 1 ||
		    fwrite(w->mem.b, 1, sizeof(w->mem.b), f) != sizeof(w->mem.b))
			return 1;
		fclose(f);
	}
	free(w);
	return 0;
}

int main(int argc, char **argv)
{
	static struct world w;

	if (argc == 3 && strcmp(argv[1], "--seeds") == 0)
		return write_seeds(argv[2]);

	test_parse_errors();
	test_parse_tree();
	test_parse_additions();
	world_init(&w);
	test_additions(&w);
	test_count_nest_module(&w);
	test_declared(&w);
	test_long_name();
	test_sockets(&w);
	test_bad_trees_and_cpus(&w);
	test_lone_erases(&w);
	test_loops(&w);
	test_bad_lists(&w);
	test_missing(&w);
	test_btf_mode(&w);
	test_apply(&w);
	tis_free(&w.spec);
	return check_exit("erase_test");
}
