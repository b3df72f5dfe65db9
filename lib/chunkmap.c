/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chunkmap.c - runs of selection chunks that hold dumpable pages
 * (chunkmap.h).  Used by the writers; calls nothing else of the library
 * but error.c (and util.h's inline binary search).
 */
#include <stdlib.h>

#include "chunkmap.h"
#include "util.h"

int vs_chunkmap_add(struct vs_chunkmap *cm, uint64_t chunk,
		    struct vs_error *err)
{
	struct vs_chunk_run *r = cm->nr ? &cm->runs[cm->nr - 1] : NULL;

	if (r && r->first + r->n == chunk) {
		r->n++;
		cm->total++;
		return 0;
	}
	if (cm->nr == cm->cap) {
		size_t cap = cm->cap ? 2 * cm->cap : 64;
		struct vs_chunk_run *p = realloc(cm->runs, cap * sizeof(*p));

		if (!p)
			return vs_err_oom(err, "out of memory for the list of "
					  "chunks with dumpable pages");
		cm->runs = p;
		cm->cap = cap;
	}
	cm->runs[cm->nr++] = (struct vs_chunk_run){
		.first = chunk, .n = 1, .base = cm->total,
	};
	cm->total++;
	return 0;
}

uint64_t vs_chunkmap_nth(const struct vs_chunkmap *cm, uint64_t i)
{
	/* The last run whose base is at or below I (the first run's base
	 * is 0). */
	size_t r = VS_UPPER_BOUND(cm->runs, cm->nr, base, i) - 1;

	return cm->runs[r].first + (i - cm->runs[r].base);
}

int64_t vs_chunkmap_find(const struct vs_chunkmap *cm, uint64_t chunk)
{
	size_t lo = 0, hi = cm->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct vs_chunk_run *r = &cm->runs[mid];

		if (chunk < r->first)
			hi = mid;
		else if (chunk - r->first >= r->n)
			lo = mid + 1;
		else
			return (int64_t)(r->base + (chunk - r->first));
	}
	return -1;
}

void vs_chunkmap_free(struct vs_chunkmap *cm)
{
	free(cm->runs);
	cm->runs = NULL;
	cm->nr = cm->cap = 0;
	cm->total = 0;
}
