/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phys.c - an input's physical memory map (in->phys: segments sorted by
 * address, disjoint): find the segment holding an address, how much of
 * a page the input covers, the pages segments cover as bits.
 *
 * Every format fills in->phys at open (ELF from its PT_LOADs, kdump from
 * bitmap 1), so these serve them all: the formats, the reader, and the
 * filter and dump code above.  Calls nothing else of the library.
 */
#include <string.h>

#include "format.h"
#include "util.h"

void vs_input_set_max_mapnr(struct vs_input *in)
{
	const struct vs_segment *last = &in->phys[in->nr_phys - 1];
	uint64_t end = last->paddr + last->memsz;

	in->max_mapnr = (end + in->page_size - 1) >> in->page_shift;
}

long vs_input_find(const struct vs_input *in, uint64_t paddr)
{
	size_t lo = 0, hi = in->nr_phys;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct vs_segment *s = &in->phys[mid];

		if (paddr < s->paddr)
			hi = mid;
		else if (paddr - s->paddr >= s->memsz)
			lo = mid + 1;
		else
			return (long)mid;
	}
	return -1;
}

/* The index of the first segment starting at or above PADDR. */
static size_t first_from(const struct vs_input *in, uint64_t paddr)
{
	return VS_LOWER_BOUND(in->phys, in->nr_phys, paddr, paddr);
}

uint64_t vs_phys_next(const struct vs_input *in, uint64_t paddr)
{
	size_t i = VS_UPPER_BOUND(in->phys, in->nr_phys, paddr, paddr);

	return i < in->nr_phys ? in->phys[i].paddr : UINT64_MAX;
}

void vs_input_page_cover(const struct vs_input *in, uint64_t pfn,
			 uint64_t *mem_bytes, uint64_t *data_bytes)
{
	uint64_t start = pfn << in->page_shift, end = start + in->page_size;
	long i = vs_input_find(in, start);

	*mem_bytes = *data_bytes = 0;
	/* Not inside a segment: the page may still begin in a hole and end
	 * in memory. */
	if (i < 0)
		i = (long)first_from(in, start);
	for (size_t k = (size_t)i; k < in->nr_phys && in->phys[k].paddr < end; k++) {
		const struct vs_segment *s = &in->phys[k];
		uint64_t a = s->paddr > start ? s->paddr : start;
		uint64_t m = s->paddr + s->memsz < end ? s->paddr + s->memsz : end;
		uint64_t d = s->paddr + s->filesz < end ? s->paddr + s->filesz : end;

		if (m > a)
			*mem_bytes += m - a;
		if (d > a)
			*data_bytes += d - a;
	}
}

/* Set bits [from, to) of a chunk-relative bitmap. */
static void set_range(uint64_t *bits, uint64_t from, uint64_t to)
{
	for (uint64_t i = from; i < to;) {
		if (i % 64 == 0 && to - i >= 64) {
			bits[i / 64] = ~0ULL;
			i += 64;
		} else {
			bits[i / 64] |= 1ULL << (i % 64);
			i++;
		}
	}
}

void vs_phys_bits(const struct vs_input *in, uint64_t start, uint64_t n,
		  uint64_t *bits, int data)
{
	uint64_t end = start + n;

	size_t i = first_from(in, start << in->page_shift);

	memset(bits, 0, n / 8);
	/* The segment before the first one at or above START may reach
	 * into the chunk; those from the chunk's end on cannot. */
	for (i = i ? i - 1 : 0; i < in->nr_phys &&
	     in->phys[i].paddr >> in->page_shift < end; i++) {
		const struct vs_segment *s = &in->phys[i];
		uint64_t size = data ? s->filesz : s->memsz;
		uint64_t first = s->paddr >> in->page_shift;
		uint64_t last = vs_div_round_up(s->paddr + size, in->page_size);

		if (!size || first >= end || last <= start)
			continue;
		first = first > start ? first : start;
		set_range(bits, first - start, (last < end ? last : end) - start);
	}
}
