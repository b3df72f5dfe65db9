/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * erase_world.h - a small hand-made kernel for the erase evaluator's
 * tests (erase_test.c) and fuzz target (tests/fuzz/fuzz_erase.c): a
 * ti_spec.h spec of its types and symbols, and 16 KiB of memory at a
 * direct-map address (VBASE -> PBASE) read through fake_mem.
 */
#ifndef VMSIFT_TEST_ERASE_WORLD_H
#define VMSIFT_TEST_ERASE_WORLD_H

#include <stdint.h>
#include <string.h>

#include "../../lib/error.h"

#define VBASE 0xffff888000100000ULL
#define PBASE 0x100000ULL
#define MSIZE 0x4000ULL
#define PS    0x1000ULL

/* The layout: offsets from VBASE. */
#define O_INIT 0x0000u   /* struct task_struct init_task */
#define O_A    0x0100u
#define O_B    0x0200u
#define O_HEAD 0x1000u   /* struct list_head task_list */
#define O_CRED 0x1100u
#define O_STR  0x1200u
#define O_SCL  0x1300u   /* char *saved_command_line */
#define O_KEY  0x1400u
#define O_ARR  0x2000u   /* struct task_struct arr[3] */
#define O_PTRS 0x2400u   /* struct task_struct *ptrs[4] */
#define O_BIG  0x2f80u   /* char big[256]: crosses a page */
#define TSZ    0x60u
/* The keyring: an rbtree of struct key by serial_node, in order K1 (a
 * user key), K2 (logon), K3 (keyring), K4 (user); root -> K2, K2's left
 * K1, right K3, K3's right K4. */
#define O_ROOT 0x3100u   /* struct rb_root key_serial_tree */
#define O_KTU  0x3110u   /* struct key_type key_type_user */
#define O_KTL  0x3120u   /* key_type_logon */
#define O_KTK  0x3130u   /* key_type_keyring */
#define O_K1   0x3200u   /* struct key, KSZ bytes each */
#define O_K2   0x3240u
#define O_K3   0x3280u
#define O_K4   0x32c0u
#define KSZ    0x40u
#define O_P1   0x3400u   /* struct user_key_payload: K1's, 10 bytes */
#define O_P2   0x3440u   /* K2's, 20 bytes */
#define O_P4   0x3480u   /* K4's, 5 bytes */
#define O_KR   0x3500u   /* K3's payload: not a user_key_payload */
#define UP_DATA 0x18u    /* user_key_payload.data */
/* struct key's members; struct rb_node's */
#define M_KTYPE 0x00u
#define M_SNODE 0x08u
#define M_PAYLD 0x20u
#define M_RIGHT 0x08u
#define M_LEFT  0x10u
/* per-CPU: crngs at per-CPU offset CRNGS; __per_cpu_offset[4],
 * nr_cpu_ids = 3, __cpu_possible_mask = 0b1101: CPUs 0 and 2 are walked
 * (1 is not possible, 3 is past nr_cpu_ids) */
#define CRNGS  0x40u
#define O_PCO  0x3600u   /* unsigned long __per_cpu_offset[4] */
#define O_NCPU 0x3620u   /* unsigned int nr_cpu_ids */
#define O_MASK 0x3628u   /* unsigned long __cpu_possible_mask */
#define O_CPU0 0x3700u   /* CPU 0's struct crng (key[32], generation) */
#define O_CPU2 0x3780u
#define O_CPU3 0x3800u
/* A socket table (kTLS's shape): hinfo.ehash[0 .. hinfo.mask] (mask 2),
 * each bucket an hlist_nulls chain of struct sk by common.nulls (at
 * SK_NULLS): bucket 0: S1, S3; bucket 1 empty (nulls value 3); bucket 2:
 * S2.  A struct tfm's flexible array __crt_ctx (at 8) holds a struct
 * gctx, whose ctr points to another tfm with N secret bytes there. */
#define O_HI   0x2500u   /* struct hinfo hinfo: ehash, mask */
#define O_BKT  0x2520u   /* struct bucket [3] */
#define O_S1   0x2600u   /* struct sk, 0x40 bytes each */
#define O_S3   0x2640u
#define O_S2   0x2680u
#define O_TFM1 0x2700u   /* struct tfm; its context: a struct gctx */
#define O_TFM2 0x2740u   /* the ctr's tfm: GCTX_N bytes of context */
#define SK_NULLS 0x10u
#define SK_ULP  0x20u
#define SK_DATA 0x28u
#define GCTX_N  0x30u
/* struct task_struct's members */
#define M_COMM 0x08u
#define M_TASKS 0x20u
#define M_NEXT 0x30u
#define M_CRED 0x38u
#define M_NAME 0x40u
#define M_KLEN 0x48u
#define M_KEY  0x50u

static const char erase_world_spec[] =
	"type 1 int 1 0 0 char\n"
	"type 2 int 4 0 0 int\n"
	"type 3 array 16 16 1 -\n"
	"type 4 struct 0x60 0 0 task_struct\n"
	"type 5 ptr 8 0 4 -\n"
	"type 6 struct 16 0 0 list_head\n"
	"type 7 ptr 8 0 6 -\n"
	"type 8 struct 0x18 0 0 cred\n"
	"type 9 ptr 8 0 8 -\n"
	"type 10 ptr 8 0 1 -\n"
	"type 11 ptr 8 0 0 -\n"
	"type 12 array 0x120 3 4 -\n"
	"type 13 array 32 4 5 -\n"
	"type 14 array 256 256 1 -\n"
	"type 15 struct 0x18 0 0 rb_node\n"
	"type 16 ptr 8 0 15 -\n"
	"type 17 struct 8 0 0 rb_root\n"
	"type 18 struct 0x10 0 0 key_type\n"
	"type 19 ptr 8 0 18 -\n"
	"type 20 struct 0x40 0 0 key\n"
	"type 21 array 32 4 11 -\n"
	"type 22 union 0x20 0 0 key_payload\n"
	"type 23 struct 0x18 0 0 user_key_payload\n"
	"type 24 int 2 0 0 unsigned short\n"
	"type 25 array 0 0 1 -\n"
	"type 26 struct 0x28 0 0 crng\n"
	"type 27 array 32 32 1 -\n"
	"type 28 int 8 0 0 unsigned long\n"
	"type 29 array 32 4 28 -\n"
	"type 30 int 4 0 0 unsigned int\n"
	"type 31 struct 0x10 0 0 hinfo\n"
	"type 32 struct 8 0 0 bucket\n"
	"type 33 ptr 8 0 32 -\n"
	"type 34 struct 8 0 0 hlist_nulls_head\n"
	"type 35 struct 0x10 0 0 hlist_nulls_node\n"
	"type 36 ptr 8 0 35 -\n"
	"type 37 struct 0x20 0 0 skc\n"
	"type 38 struct 0x40 0 0 sk\n"
	"type 39 struct 8 0 0 tfm\n"
	"type 40 array 0 0 11 -\n"
	"type 41 struct 0x10 0 0 gctx\n"
	"type 42 ptr 8 0 39 -\n"
	"member 6 next 0 7\n"
	"member 6 prev 8 7\n"
	"member 4 comm 0x8 3\n"
	"member 4 tasks 0x20 6\n"
	"member 4 next 0x30 5\n"
	"member 4 cred 0x38 9\n"
	"member 4 name 0x40 10\n"
	"member 4 keylen 0x48 2\n"
	"member 4 key 0x50 11\n"
	"member 15 __rb_parent_color 0 28\n"
	"member 15 rb_right 8 16\n"
	"member 15 rb_left 0x10 16\n"
	"member 17 rb_node 0 16\n"
	"member 20 type 0 19\n"
	"member 20 serial_node 8 15\n"
	"member 20 payload 0x20 22\n"
	"member 22 data 0 21\n"
	"member 23 datalen 0x10 24\n"
	"member 23 data 0x18 25\n"
	"member 26 key 0 27\n"
	"member 26 generation 0x20 28\n"
	"member 31 ehash 0 33\n"
	"member 31 mask 8 30\n"
	"member 32 chain 0 34\n"
	"member 34 first 0 36\n"
	"member 35 next 0 36\n"
	"member 35 pprev 8 11\n"
	"member 37 state 0 2\n"
	"member 37 nulls 0x10 35\n"
	"member 38 common 0 37\n"
	"member 38 ulp 0x20 19\n"
	"member 38 data 0x28 11\n"
	"member 39 alg 0 11\n"
	"member 39 __crt_ctx 8 40\n"
	"member 41 ctr 0 42\n"
	"member 41 n 8 30\n"
	"sym init_task 0xffff888000100000 4\n"
	"sym task_list 0xffff888000101000 6\n"
	"sym saved_command_line 0xffff888000101300 10\n"
	"sym arr 0xffff888000102000 12\n"
	"sym ptrs 0xffff888000102400 13\n"
	"sym big 0xffff888000102f80 14\n"
	"sym key_serial_tree 0xffff888000103100 17\n"
	"sym key_type_user 0xffff888000103110 18\n"
	"sym key_type_logon 0xffff888000103120 18\n"
	"sym key_type_keyring 0xffff888000103130 18\n"
	"sym crngs 0x40 26\n"
	"sym __per_cpu_offset 0xffff888000103600 29\n"
	"sym nr_cpu_ids 0xffff888000103620 30\n"
	"sym __cpu_possible_mask 0xffff888000103628 28\n"
	"sym hinfo 0xffff888000102500 31\n";

struct fake_mem {
	uint8_t b[MSIZE];
};

static int fm_read(void *ctx, uint64_t v, void *buf, size_t len,
		   struct vs_error *err)
{
	struct fake_mem *m = ctx;

	if (v < VBASE || v - VBASE > MSIZE || len > MSIZE - (v - VBASE))
		return vs_err(err, "cannot read 0x%llx", (unsigned long long)v);
	memcpy(buf, m->b + (v - VBASE), len);
	return 0;
}

static int fm_vtop(void *ctx, uint64_t v, uint64_t *p, uint64_t *span,
		   struct vs_error *err)
{
	(void)ctx;
	if (v < VBASE || v - VBASE >= MSIZE)
		return vs_err(err, "0x%llx is not mapped", (unsigned long long)v);
	*p = v - VBASE + PBASE;
	*span = MSIZE - (v - VBASE);
	return 0;
}

#endif
