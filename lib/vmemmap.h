/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmemmap.h - -e: leave out the pages that hold only the struct pages of
 * excluded pages (makedumpfile's "unused vmemmap pages").
 *
 * Done in the one pass over mem_map the writer already makes: as each
 * selection chunk's bitmaps are done, vs_vmemmap_note() records which of
 * its 64-pfn words start or continue a run of present, wholly excluded
 * words, as makedumpfile looks for them (runs of two words or more, not
 * crossing a 32768-pfn bitmap block).  That record is one bit per 64
 * pfns (512 bytes per GiB of 4 KiB pages).  Once every chunk is
 * selected, vs_vmemmap_each() turns the runs into the physical pages of
 * the struct pages they cover, for the writer to clear from bitmap2.
 *
 * Where a struct page lives: on x86_64 with a vmemmap mapped wholly by
 * 2 MiB pages (the case makedumpfile handles), the same groups of
 * physically contiguous huge pages makedumpfile builds, so the decisions
 * are its own, last huge page of the map included (it never leaves that
 * one out); everywhere else each page-sized piece of the struct page
 * array is translated through the architecture's page tables, and a
 * page whose translation fails is kept.
 *
 * Ownership: vs_vmemmap_new() allocates, vs_vmemmap_free() releases (NULL
 * is a no-op).  The context borrows the filter.  Chunks may be noted by
 * several threads at once: each touches only its own words.
 */
#ifndef VMSIFT_VMEMMAP_H
#define VMSIFT_VMEMMAP_H

#include <stdint.h>

#include "error.h"
#include "filter.h"
#include "input.h"

struct vs_vmemmap;

/* The vmemmap of F's kernel, for a dump of MAX_MAPNR pfns; R reads the
 * page tables.  Fails when F is NULL (no VMCOREINFO) or memory runs out. */
int vs_vmemmap_new(struct vs_vmemmap **out, const struct vs_filter *f,
		   const struct vs_input *in, uint64_t max_mapnr,
		   struct vs_reader *r, struct vs_error *err);
void vs_vmemmap_free(struct vs_vmemmap *v);

/* Record the runs of the chunk of N pfns at START (a multiple of 32768;
 * N a multiple of 64, at most 32768) from its bitmaps in the host's
 * words: BITS1 present, BITS2 kept. */
void vs_vmemmap_note(struct vs_vmemmap *v, uint64_t start, uint64_t n,
		     const uint64_t *bits1, const uint64_t *bits2);

/* Call FN(ARG, PFN, N) for each range of pfns [PFN, PFN + N) of pages that
 * hold only struct pages of excluded pages; stops at FN's first failure.
 * *NR_OUT counts the pages.  R translates. */
typedef int vs_vmemmap_fn(void *arg, uint64_t pfn, uint64_t n,
			  struct vs_error *err);
int vs_vmemmap_each(const struct vs_vmemmap *v, struct vs_reader *r,
		    vs_vmemmap_fn *fn, void *arg, uint64_t *nr_out,
		    struct vs_error *err);

/* "x86_64 2 MiB groups" or "page tables": how pages were found. */
const char *vs_vmemmap_mode(const struct vs_vmemmap *v);

#endif
