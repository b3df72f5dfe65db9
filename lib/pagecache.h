/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pagecache.h - a bounded cache of whole pages, keyed by pfn, shared by
 * the readers of one opened dump (read.c): a page decompressed once is
 * not decompressed again while it stays in the cache.
 *
 * Replacement is CLOCK (second chance): each page has a referenced bit
 * set on a hit; the hand clears bits until it finds an unreferenced page
 * to replace.  One mutex guards the whole cache; pages are copied in and
 * out under it, so a caller never holds a pointer into the cache.
 *
 * Ownership: vs_pagecache_new() allocates; vs_pagecache_free() releases
 * (NULL is a no-op).  A cache of 0 pages is valid and caches nothing.
 */
#ifndef VMSIFT_PAGECACHE_H
#define VMSIFT_PAGECACHE_H

#include <stddef.h>
#include <stdint.h>

struct vs_pagecache;

/* A cache of NPAGES pages of PAGE_SIZE bytes, or NULL out of memory. */
struct vs_pagecache *vs_pagecache_new(size_t page_size, size_t npages);
void vs_pagecache_free(struct vs_pagecache *c);

/* Copy page PFN into BUF if cached: 1 when it was, else 0. */
int vs_pagecache_get(struct vs_pagecache *c, uint64_t pfn, void *buf);
/* Keep a copy of PAGE as page PFN, replacing another if full. */
void vs_pagecache_put(struct vs_pagecache *c, uint64_t pfn, const void *page);

/* Hits and misses since the cache was made (for tests and tuning). */
void vs_pagecache_counts(struct vs_pagecache *c, uint64_t *hits,
			 uint64_t *misses);

#endif
