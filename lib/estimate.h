/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * estimate.h - --mem-usage: what a dump would hold and how big it would
 * be, without writing it.  Run by dump.c in place of a writer.
 *
 * Passes on the dump's workers.  The first selects each chunk as a
 * kdump dump selects it (bitmap2 before zero pages) at levels 1 and 31,
 * in one selection (level 1's bitmap2 is the data before the page-type
 * filter).  Its ordered consumer feeds two bounded systematic samples
 * (sample.h): the pages kept at 31, and the pages level 1 keeps that
 * level 31 leaves out.  The second pass reads each sampled page once,
 * tests it for zeros and compresses the non-zero pages kept at 31 with
 * the four codecs; the third reads again only the pages of the second
 * sample picked at random among its non-zero ones (at most the bound) and
 * compresses them.  Both spread batches of 128 pages over the workers.
 *
 * The table's ZERO row is then the sampled zero fraction of the pages
 * kept at 31.  With EXACT_ZERO (always on /proc/kcore) the first pass
 * also reads every page kept at 31 and counts the zero pages, as
 * makedumpfile's --mem-usage does; the first sample then holds only the
 * non-zero ones.  That read is most of a -d 31 dump's reading: on a
 * vmcore it is left out unless asked for.
 *
 * The size of the kdump-compressed file is then its exact layout
 * (header, bitmaps, one descriptor per kept page, the shared zero page)
 * plus, per level and codec: the non-zero pages kept at 31 (their number
 * exact) times their sample's mean stored size; at level 1 also the
 * pages only level 1 keeps times their sample's mean.  Zero pages cost
 * no data (both levels leave them out: 1 is the zero-page bit), a page a
 * codec cannot shrink costs a whole page.
 */
#ifndef VMSIFT_ESTIMATE_H
#define VMSIFT_ESTIMATE_H

#include <stdint.h>

#include "codec.h"
#include "sample.h"
#include "select.h"

/* The default bound on each sample: exactly that many pages are
 * sampled when there are more (sample.h).  doc/mem-usage.md has the
 * measured spread that sizes it: at 1024 the worst error over 8 phases
 * was 6.1% on the carried vmcores, 8.5% on the scale series (768: 12.3%
 * there). */
#define VS_EST_SAMPLE_CAP 1024
/* With larger pages the bound is the same bytes, but never under this
 * many pages: at 384, 6.5% on ppc64le's 64 KiB pages and 3.2% on arm64's
 * 16 KiB (256: 9.2%, 192: 19%; doc/mem-usage.md). */
#define VS_EST_SAMPLE_MIN 384

/* Each sample is gathered this many times larger than its bound, then
 * trimmed to it (vs_sample_trim()): the tripling stride leaves between
 * a third of what is gathered and all of it, at least the bound. */
#define VS_EST_GATHER 3

/* The pages only level 1 keeps are zero-tested on a sample this many
 * times larger (a pread and a scan, against four compressions). */
#define VS_EST_TEST_FACTOR 4

/* One part of the kept pages, sampled on its own. */
struct vs_est_part {
	struct vs_sample sample;
	uint64_t pages;              /* its pages */
	uint64_t tested;             /* sampled pages zero-tested */
	uint64_t zero;               /* of them filled with zero */
	uint64_t compressed;         /* non-zero sampled pages compressed */
	uint64_t stored[VS_NR_CODECS];  /* what those take, per codec:
					   VMSIFT_CODEC_ZLIB + i (each codec
					   on its share, estimate.c) */
	uint64_t ref[VS_NR_CODECS];  /* what the same pages take with the
					reference codec (lzo) */
};

/* A sampled page and its part. */
struct vs_est_item {
	uint64_t pfn;
	unsigned part;
	int zero;                    /* found filled with zero */
	int picked;                  /* compressed unless filled with zero */
};

/* One dump level's figures. */
struct vs_est_level {
	unsigned level;
	uint64_t kept;               /* bitmap2 pages */
	uint64_t bytes[VS_NR_CODECS];   /* the estimated file sizes */
};

/* Levels 1 and 31 in one pass: D is set up at level 31; level 1 keeps
 * every page with data but the hwpoison and offline ones, which every
 * level leaves out. */
struct vs_estimate {
	size_t sample_cap;           /* in: each sample's bound; 0: default */
	uint64_t seed;               /* in: the samples' phase (sample.h) */
	int exact_zero;              /* in: count the zero pages (read all) */
	uint64_t zero;               /* zero pages kept at level 31 */
	uint64_t sampled;            /* pages compressed */
	struct vs_est_part part[2];  /* kept at 31 (only the non-zero ones
					 with EXACT_ZERO); kept at 1 only */
	struct vs_est_level lv[2];   /* level 1, level 31 */
	struct vs_est_item *items;   /* both samples, for the second pass */
	uint64_t nitems;
	uint64_t *picked;            /* the second part's items compressed */
	uint64_t npicked;
};

/* Select D's pages (level 31) and sample them into E. */
int vs_estimate_run(struct vs_dump *d, struct vs_estimate *e,
		    struct vs_error *err);

#endif
