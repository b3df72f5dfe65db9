/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * module_decl.h - a test double of erase.h's vs_erase_modules whose
 * module declares structs the kernel or two other modules define, and
 * completes them with lib/typeinfo_complete.c: erase_test.c's
 * test_declared() and the fuzz target tests/fuzz/fuzz_erase.c.
 * Header-only, after ti_spec.h.
 */
#ifndef VMSIFT_TEST_MODULE_DECL_H
#define VMSIFT_TEST_MODULE_DECL_H

#include <stdlib.h>
#include <string.h>

#include "../../lib/erase.h"
#include "../../lib/typeinfo_complete.h"
#include "ti_spec.h"

/* Structs a module only declares (issue 13), completed as
 * lib/typeinfo_complete.c does: the kernel's definition first (struct
 * shared: 16 bytes, key at 8, not module a's 64 with key at 32), else
 * the other modules' (secret: a's and b's the same layout, key at 16),
 * two different ones refused naming both files (twice), none: still
 * only declared (lost).  Rules run in [mod]; its globals point into
 * 0x3b00.. of the world's memory. */
#define XM_OBJ 0x3a00u
static const char xm_kernel[] =
	"type 1 int 1 0 0 char\n"
	"type 2 array 8 8 1 -\n"
	"type 3 struct 16 0 0 shared\n"
	"member 3 key 8 2\n";
static const char xm_mod[] =
	"type 1 fwd 0 0 0 secret\n"
	"type 2 ptr 8 0 1 -\n"
	"type 3 fwd 0 0 0 shared\n"
	"type 4 ptr 8 0 3 -\n"
	"type 5 fwd 0 0 0 twice\n"
	"type 6 ptr 8 0 5 -\n"
	"type 7 fwd 0 0 0 lost\n"
	"type 8 ptr 8 0 7 -\n"
	"sym holder 0xffff888000103a00 2\n"
	"sym sharer 0xffff888000103a08 4\n"
	"sym twicer 0xffff888000103a10 6\n"
	"sym lost 0xffff888000103a18 8\n";
static const char xm_a[] =
	"type 1 int 1 0 0 char\n"
	"type 2 array 16 16 1 -\n"
	"type 3 struct 32 0 0 secret\n"
	"member 3 key 16 2\n"
	"type 4 struct 64 0 0 shared\n"
	"member 4 key 32 2\n"
	"type 5 struct 8 0 0 twice\n"
	"member 5 x 0 1\n";
static const char xm_b[] =
	"type 9 int 1 0 0 char\n"
	"type 8 array 16 16 9 -\n"
	"type 7 struct 32 0 0 secret\n"
	"member 7 key 16 8\n"
	"type 5 struct 16 0 0 twice\n"
	"member 5 x 8 9\n";

struct xm {
	struct tis spec[4];          /* the kernel, mod, a, b */
	struct vs_typeinfo ti[4];
	const struct vs_typeinfo *from;
	unsigned opened;             /* modules looked at past the kernel */
};

static int xm_source(void *ctx, const char *name,
		     const struct vs_typeinfo **ti, struct vs_error *err)
{
	static const char *const names[] = { "mod", "a", "b" };
	struct xm *x = ctx;

	(void)err;
	for (int i = 0; i < 3; i++)
		if (strcmp(name, names[i]) == 0) {
			*ti = &x->ti[i + 1];
			return 0;
		}
	return 1;
}

static int xm_place(void *ctx, size_t i, struct vs_ti_place *p,
		    struct vs_error *err)
{
	static const char *const files[] = { "vmlinux", "mod.ko", "a.ko",
					     "b.ko" };
	struct xm *x = ctx;

	(void)err;
	if (i >= 4)
		return 1;
	x->opened += i > 0;
	p->ti = &x->ti[i] == x->from ? NULL : &x->ti[i];
	p->file = files[i];
	return 0;
}

static int xm_complete(void *ctx, const struct vs_typeinfo *from,
		       enum vs_ti_kind kind, const char *name,
		       const struct vs_typeinfo **ti, uint64_t *id,
		       struct vs_error *err)
{
	struct xm *x = ctx;

	x->from = from;
	return vs_ti_complete(kind, name, xm_place, x, ti, id, err);
}

/* X's four sources parsed (its specs freed by the caller, tis_free). */
static void xm_init(struct xm *x)
{
	const char *const text[] = { xm_kernel, xm_mod, xm_a, xm_b };

	memset(x, 0, sizeof(*x));
	for (int i = 0; i < 4; i++) {
		if (tis_parse(&x->spec[i], text[i]) < 0)
			abort();
		x->ti[i].ops = &tis_ops;
		x->ti[i].ctx = &x->spec[i];
	}
}

#endif
