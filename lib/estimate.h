/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * estimate.h - --mem-usage: what a dump would hold and how big it would
 * be, without writing it.  Run by dump.c in place of a writer, once per
 * dump level.
 *
 * One pass over the chunks, on the dump's workers: each chunk is selected
 * as a kdump dump selects it (bitmap2 before zero pages) at levels 1 and
 * 31, every page kept at 31 is tested for zeros (makedumpfile's count),
 * and one pfn in STRIDE (those
 * with pfn % STRIDE == STRIDE / 2; STRIDE odd, so no alignment of the
 * kernel's allocations lines up with it) is, when kept, compressed with
 * each of the four codecs.  The size of the kdump-compressed file is
 * then its exact layout (header, bitmaps, one descriptor per kept page,
 * the shared zero page) plus the kept pages times the mean stored size
 * of the sampled ones (a zero page costs no data at a level that leaves
 * zeros out, a page a codec cannot shrink costs a whole page).
 */
#ifndef VMSIFT_ESTIMATE_H
#define VMSIFT_ESTIMATE_H

#include <stdint.h>

#include "codec.h"
#include "select.h"

/* One dump level's figures. */
struct vs_est_level {
	unsigned level;
	uint64_t kept;               /* bitmap2 pages */
	uint64_t sampled;            /* kept pages of the sample */
	uint64_t sampled_zero;       /* zero pages of the sample */
	uint64_t stored[VS_NR_CODECS];  /* bytes the sample would take, per
					   codec: VMSIFT_CODEC_ZLIB + i */
	uint64_t bytes[VS_NR_CODECS];   /* the estimated file sizes */
};

/* Levels 1 and 31 in one pass: D is set up at level 31; level 1 keeps
 * every page with data but the hwpoison and offline ones, which every
 * level leaves out. */
struct vs_estimate {
	uint64_t stride;             /* in: sample one pfn in STRIDE (odd) */
	uint64_t zero;               /* zero pages kept at level 31 (all read) */
	struct vs_est_level lv[2];   /* level 1, level 31 */
};

/* Select D's pages (level 31) and sample them into E. */
int vs_estimate_run(struct vs_dump *d, struct vs_estimate *e,
		    struct vs_error *err);

#endif
