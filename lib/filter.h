/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * filter.h - deciding, page by page, which pages a debugger does not need.
 * Built and freed by dump.c, run per chunk by select.c; implemented by
 * filter_setup.c, filter.c and freelist.c.
 *
 * The decision reads the dead kernel's own struct page array, found
 * through VMCOREINFO (mem_section / mem_map, translated through the
 * kernel's page tables by the architecture ops), and follows
 * makedumpfile's cascade: free, unaccepted, non-private cache, private
 * cache, user data, hwpoison, offline.  Zero pages are not decided here:
 * they are found while copying (kdump) or while selecting (ELF).
 *
 * A filter is built once per dump (vs_filter_new) and is then read-only:
 * any number of threads may call vs_filter_chunk() at once on distinct
 * chunks, each with its own reader.  Each chunk is decided on its own
 * (a compound page whose head lies in an earlier chunk is looked up
 * through its tail's compound_head), so chunks may be done in any order
 * and the result does not depend on the thread count.
 *
 * Damaged metadata never fails a dump: pages whose struct page cannot be
 * read, or whose fields make no sense, are kept and counted as doubtful.
 */
#ifndef VMSIFT_FILTER_H
#define VMSIFT_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "doubt.h"
#include "error.h"
#include "input.h"

/* Pages excluded, per reason; summed over chunks by the caller with
 * vs_counts_add() (which also merges the doubt lines). */
struct vs_counts {
	uint64_t cache;
	uint64_t cache_private;
	uint64_t user;
	uint64_t free;
	uint64_t hwpoison;
	uint64_t offline;
	uint64_t doubtful;           /* kept: metadata unreadable or absurd */
	uint64_t struct_bytes;       /* struct pages read by the scan */
	struct vs_doubt_log doubts;  /* what was doubtful, by pfn */
};

/* SUM += C, counters and doubt lines. */
void vs_counts_add(struct vs_counts *sum, const struct vs_counts *c);

struct vs_filter;

/* Prepare filtering at DUMP_LEVEL.  Returns 0 with *OUT == NULL when
 * nothing needs the struct page scan (no VMCOREINFO and level <= 1).
 * Fails when the level asks for page types and VMCOREINFO lacks what the
 * decision needs. */
int vs_filter_new(struct vs_filter **out, const struct vs_input *in,
		  unsigned dump_level, struct vs_error *err);
void vs_filter_free(struct vs_filter *f);

/* The end of the last pfn range that has struct pages, 0 if unknown.
 * makedumpfile ends max_mapnr there: memory above the last memory
 * section (a QEMU guest's VGA memory and BIOS ROM) is not dumped. */
uint64_t vs_filter_max_pfn(const struct vs_filter *f);

/* Clear in BITS (bit i = pfn START + i, LSB first in 64-bit words) the
 * pages of [START, START + N) that the filter excludes; N and START are
 * multiples of 64.  Adds to CNT.  Pages whose bit is already clear are
 * left alone and not counted.  Fails only on internal errors. */
int vs_filter_chunk(const struct vs_filter *f, struct vs_reader *r,
		    uint64_t start, uint64_t n, uint64_t *bits,
		    struct vs_counts *cnt, struct vs_error *err);

/* The filter's memory model and address translation, for -e
 * (vmemmap.c); borrowed, valid while F lives. */
struct vs_memmap;
struct vs_arch;
const struct vs_memmap *vs_filter_memmap(const struct vs_filter *f);
const struct vs_arch *vs_filter_arch(const struct vs_filter *f);

/* What vs_filter_new() itself found doubtful (unreadable mem_section
 * roots, damaged free lists), as text; "" if nothing.  Per-chunk doubts
 * are in struct vs_counts.  NULL F gives "". */
const char *vs_filter_doubts(const struct vs_filter *f);

#endif
