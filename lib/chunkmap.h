/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chunkmap.h - which selection chunks (VS_SELECT_PFNS pfns each) hold a
 * dumpable page, as runs of chunk numbers.  The select phase adds the
 * chunks in order; the copy phase then visits only those, so a hole in
 * the physical address space costs its bitmaps and nothing per pfn, and
 * a bitmap kept in memory (a flattened stream's) needs room only for
 * the chunks listed.  The runs grow with the number of holes, not with
 * the memory or the address span.
 */
#ifndef VMSIFT_CHUNKMAP_H
#define VMSIFT_CHUNKMAP_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct vs_chunk_run {
	uint64_t first;              /* chunk number */
	uint64_t n;                  /* chunks in the run */
	uint64_t base;               /* listed chunks before this run */
};

struct vs_chunkmap {
	struct vs_chunk_run *runs;
	size_t nr, cap;
	uint64_t total;              /* chunks listed */
};

/* List CHUNK, which is above every chunk listed so far. */
int vs_chunkmap_add(struct vs_chunkmap *cm, uint64_t chunk,
		    struct vs_error *err);
/* The chunk number of the I-th listed chunk (I < cm->total). */
uint64_t vs_chunkmap_nth(const struct vs_chunkmap *cm, uint64_t i);
/* The place in the list of chunk CHUNK, or -1 if it is not listed. */
int64_t vs_chunkmap_find(const struct vs_chunkmap *cm, uint64_t chunk);
void vs_chunkmap_free(struct vs_chunkmap *cm);

#endif
