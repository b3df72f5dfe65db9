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
	"member 6 next 0 7\n"
	"member 6 prev 8 7\n"
	"member 4 comm 0x8 3\n"
	"member 4 tasks 0x20 6\n"
	"member 4 next 0x30 5\n"
	"member 4 cred 0x38 9\n"
	"member 4 name 0x40 10\n"
	"member 4 keylen 0x48 2\n"
	"member 4 key 0x50 11\n"
	"sym init_task 0xffff888000100000 4\n"
	"sym task_list 0xffff888000101000 6\n"
	"sym saved_command_line 0xffff888000101300 10\n"
	"sym arr 0xffff888000102000 12\n"
	"sym ptrs 0xffff888000102400 13\n"
	"sym big 0xffff888000102f80 14\n";

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
