/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session.h - struct vmsift, the opaque session of the public API: the
 * open input, the last error, and the last dump's stats and doubts.
 * Created and read back by session.c, filled by dump.c (vmsift_dump),
 * used by dmesg.c, reassemble.c and flat_reader.c for their public calls.
 */
#ifndef VMSIFT_SESSION_H
#define VMSIFT_SESSION_H

#include <stdatomic.h>

#include "age.h"
#include "error.h"
#include "input.h"
#include "typeinfo.h"
#include "vmsift.h"

struct vmsift {
	struct vs_error err;
	struct vs_input in;
	int opened;
	struct vmsift_stats stats;
	struct vmsift_rates rates;   /* the last dump's phases */
	char *doubts;                /* what filtering found doubtful */
	char *erase_skips;           /* --config rules skipped (ignore_missing) */
	atomic_int cancel;           /* set by vmsift_cancel() */
	struct vs_age_ids ids;       /* vmsift_set_identity(): for age inputs */
	struct vs_typeinfo ti;       /* symbols and types (-x, BTF); owned */
};

/* Give the session its source of symbols and types (typeinfo.h), which
 * it frees; the one before is freed. */
void vs_session_set_typeinfo(struct vmsift *vs, struct vs_typeinfo ti);

#endif
