/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memmap.h - where the dead kernel keeps the struct page of each pfn.
 *
 * vs_memmap_build() reads the memory model's tables once (SPARSEMEM and
 * SPARSEMEM_EXTREME mem_section, FLATMEM mem_map, DISCONTIGMEM
 * node_mem_map) into a sorted list of pfn ranges, each with the virtual
 * address of its first struct page; consecutive sections whose arrays are
 * contiguous (vmemmap) merge into one range.  The result is read-only.
 * Struct pages are then read with vs_memmap_read(), which translates once
 * per mapping (one 2 MiB vmemmap page of x86_64 holds 32768 struct
 * pages) through a small per-caller cache.  Used by the filter's files
 * only.
 *
 * A section the kernel marked present whose table could not be read is
 * kept as a "bad" range: its pages are kept and counted as doubtful.
 */
#ifndef VMSIFT_MEMMAP_H
#define VMSIFT_MEMMAP_H

#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "doubt.h"
#include "error.h"
#include "input.h"

struct vs_memmap_range {
	uint64_t start, end;         /* pfns [start, end) */
	uint64_t vaddr;              /* struct page of START */
	int bad;                     /* metadata unreadable: keep, doubtful */
};

struct vs_memmap {
	const char *model;           /* "SPARSEMEM_EXTREME", ... */
	uint64_t page_struct_size;   /* SIZE(page) */
	struct vs_memmap_range *ranges;  /* sorted by start, disjoint */
	size_t nr;
	size_t *by_vaddr;            /* indexes of good ranges, by vaddr */
	size_t nr_by_vaddr;
};

/* A cached translation: [va, va + len) maps to [pa, pa + len). */
struct vs_xlat {
	uint64_t va, pa, len;
};

/* Build M for IN.  Unreadable parts become bad ranges noted in DOUBTS;
 * fails only when VMCOREINFO lacks the model's keys (named in the
 * message) or memory runs out. */
int vs_memmap_build(struct vs_memmap *m, const struct vs_input *in,
		    const struct vs_arch *a, struct vs_reader *r,
		    struct vs_doubt_log *doubts, struct vs_error *err);
void vs_memmap_fini(struct vs_memmap *m);

/* Index of the first range whose end is above PFN (m->nr if none). */
size_t vs_memmap_first(const struct vs_memmap *m, uint64_t pfn);

/* The pfn whose struct page is at VADDR; 0 if VADDR is in no good range
 * or not at the start of a struct page. */
int vs_memmap_pfn_of(const struct vs_memmap *m, uint64_t vaddr, uint64_t *pfn);

/* Read LEN bytes of kernel virtual memory (struct pages) at VADDR,
 * reusing and updating the translation in X. */
int vs_memmap_read(const struct vs_arch *a, struct vs_reader *r,
		   struct vs_xlat *x, uint64_t vaddr, void *buf, size_t len,
		   struct vs_error *err);

/* The LEN bytes at VADDR read in place (see vs_peek_phys), or NULL when
 * they are not contiguous in the input: then use vs_memmap_read. */
const uint8_t *vs_memmap_peek(const struct vs_arch *a, struct vs_reader *r,
			      struct vs_xlat *x, uint64_t vaddr, size_t len,
			      struct vs_error *err);

/* The pglist_data addresses of the online nodes (at most MAX). */
int vs_memmap_nodes(const struct vs_input *in, const struct vs_arch *a,
		    struct vs_reader *r, uint64_t *pgdat, size_t max,
		    size_t *nr, struct vs_error *err);

#endif
