// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmemmap.c - -e: the pages that hold only struct pages of excluded
 * pages (see vmemmap.h).  Implemented from makedumpfile's documented
 * behaviour (its -e on x86_64), not from its code.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "bitops.h"
#include "memmap.h"
#include "util.h"
#include "vmemmap.h"

#define WORDS_PER_BLOCK 512u         /* makedumpfile's 4 KiB bitmap block */
#define HUGE_PAGE       (2ull << 20)

/* Physically contiguous 2 MiB pages of struct pages: the struct pages of
 * pfns [rep_start, rep_last] (makedumpfile's inclusive bounds) begin at
 * physical pfn PFN. */
struct vm_group {
	uint64_t rep_start, rep_last;
	uint64_t pfn;
};

struct vs_vmemmap {
	const struct vs_memmap *mm;
	const struct vs_arch *arch;
	uint64_t ps, pss;            /* page size, SIZE(page) */
	uint64_t *runs;              /* bit w: 64-pfn word w is in a run */
	uint64_t nwords;             /* words of RUNS */
	struct vm_group *groups;     /* NULL: translate page by page */
	size_t nr_groups;
};

static uint64_t max_phys_pfn(const struct vs_input *in)
{
	uint64_t end = 0;

	for (size_t i = 0; i < in->nr_phys; i++)
		if (in->phys[i].paddr + in->phys[i].memsz > end)
			end = in->phys[i].paddr + in->phys[i].memsz;
	return end >> 12;
}

static int add_group(struct vs_vmemmap *v, uint64_t first, uint64_t last,
		     uint64_t pa, struct vs_error *err)
{
	struct vm_group *g = realloc(v->groups,
				     (v->nr_groups + 1) * sizeof(*g));

	if (!g)
		return vs_err_oom(err, "out of memory for the vmemmap groups");
	v->groups = g;
	g[v->nr_groups++] = (struct vm_group){
		.rep_start = first * HUGE_PAGE / v->pss,
		.rep_last = last * HUGE_PAGE / v->pss,
		.pfn = pa / v->ps,
	};
	return 0;
}

/* The groups makedumpfile builds on x86_64: walk the map in 2 MiB steps
 * from the struct page of pfn 0 while the step's first struct page is
 * below the highest physical address; a hole or a jump in the physical
 * address ends a group.  A group ended by a hole or a jump reaches, in
 * makedumpfile's inclusive bound, the first pfn of the next step; the
 * last group only the first pfn of its own last step, which is never
 * left out.  Returns 1 (and no groups) when a step is not one 2 MiB
 * page: makedumpfile refuses those maps, vmsift translates them. */
static int x86_groups(struct vs_vmemmap *v, uint64_t base, uint64_t high_pfn,
		      struct vs_reader *r, struct vs_error *err)
{
	uint64_t i, first = 0, gpa = 0, last_pa = 0;
	int in_group = 0;

	for (i = 0; i * HUGE_PAGE / v->pss < high_pfn; i++) {
		struct vs_error ignored;
		uint64_t pa, span;

		if (vs_vtop(v->arch, r, base + i * HUGE_PAGE, &pa, &span,
			    &ignored) < 0) {
			if (in_group && add_group(v, first, i, gpa, err) < 0)
				return -1;
			in_group = 0;
			continue;
		}
		if (span < HUGE_PAGE || pa % HUGE_PAGE)
			return 1;
		if (in_group && pa != last_pa + HUGE_PAGE) {
			if (add_group(v, first, i, gpa, err) < 0)
				return -1;
			in_group = 0;
		}
		if (!in_group) {
			first = i;
			gpa = pa;
			in_group = 1;
		}
		last_pa = pa;
	}
	if (in_group && i > 0 && add_group(v, first, i - 1, gpa, err) < 0)
		return -1;
	return 0;
}

/* The vmemmap base: the virtual address of pfn 0's struct page. */
static int vmemmap_base(const struct vs_memmap *mm, uint64_t *base)
{
	for (size_t i = 0; i < mm->nr; i++)
		if (!mm->ranges[i].bad) {
			*base = mm->ranges[i].vaddr -
				mm->ranges[i].start * mm->page_struct_size;
			return 0;
		}
	return -1;
}

/* makedumpfile walks up to the highest physical address, past the last
 * memory section (a QEMU guest's BIOS ROM); a damaged segment table
 * could put that anywhere, so the walk stops 128 GiB past MAX_MAPNR. */
static int setup_groups(struct vs_vmemmap *v, const struct vs_input *in,
			uint64_t max_mapnr, struct vs_reader *r,
			struct vs_error *err)
{
	uint64_t base, high = max_phys_pfn(in);
	int rc;

	if (in->elf_machine != EM_X86_64 || v->ps != 4096 ||
	    vmemmap_base(v->mm, &base) < 0)
		return 0;
	if (high > max_mapnr + (1ull << 25))
		high = max_mapnr + (1ull << 25);
	rc = x86_groups(v, base, high, r, err);
	if (rc != 0) {
		free(v->groups);
		v->groups = NULL;
		v->nr_groups = 0;
	}
	return rc < 0 ? -1 : 0;
}

int vs_vmemmap_new(struct vs_vmemmap **out, const struct vs_filter *f,
		   const struct vs_input *in, uint64_t max_mapnr,
		   struct vs_reader *r, struct vs_error *err)
{
	struct vs_vmemmap *v;

	*out = NULL;
	if (!f)
		return vs_err(err, "leaving out unused struct pages (-e) "
			      "needs VMCOREINFO, which the dump lacks");
	v = calloc(1, sizeof(*v));
	if (!v)
		return vs_err_oom(err, "out of memory");
	v->mm = vs_filter_memmap(f);
	v->arch = vs_filter_arch(f);
	v->ps = in->page_size;
	v->pss = v->mm->page_struct_size;
	if (!v->pss) {
		free(v);
		return vs_err(err, "VMCOREINFO lacks 'SIZE(page)'");
	}
	v->nwords = vs_div_round_up(vs_div_round_up(max_mapnr, 64), 64) +
		    WORDS_PER_BLOCK / 64;
	v->runs = calloc(v->nwords, sizeof(*v->runs));
	if (!v->runs) {
		vs_vmemmap_free(v);
		return vs_err_oom(err, "out of memory for the vmemmap runs");
	}
	if (setup_groups(v, in, max_mapnr, r, err) < 0) {
		vs_vmemmap_free(v);
		return -1;
	}
	*out = v;
	return 0;
}

void vs_vmemmap_free(struct vs_vmemmap *v)
{
	if (!v)
		return;
	free(v->runs);
	free(v->groups);
	free(v);
}

const char *vs_vmemmap_mode(const struct vs_vmemmap *v)
{
	return v->groups ? "x86_64 2 MiB groups" : "page tables";
}

static int word_unused(const uint64_t *bits1, const uint64_t *bits2,
		       uint64_t i)
{
	return bits1[i] == ~0ull && bits2[i] == 0;
}

void vs_vmemmap_note(struct vs_vmemmap *v, uint64_t start, uint64_t n,
		     const uint64_t *bits1, const uint64_t *bits2)
{
	uint64_t w0 = start / 64, nw = n / 64, i = 0;

	while (i < nw) {
		uint64_t j = i;

		while (j < nw && word_unused(bits1, bits2, j))
			j++;
		/* One word's 64 struct pages never fill a page alone in
		 * makedumpfile's eyes: runs of two words or more. */
		if (j - i >= 2)
			for (uint64_t k = i; k < j; k++)
				vs_bit_set(v->runs, w0 + k);
		i = j + 1;
	}
}

/* Pages of struct pages of pfns [S, E) inside one group. */
static int each_in_groups(const struct vs_vmemmap *v, uint64_t s, uint64_t e,
			  vs_vmemmap_fn *fn, void *arg, uint64_t *nr,
			  struct vs_error *err)
{
	/* The last group starting at or below S (groups are in order). */
	size_t i = VS_UPPER_BOUND(v->groups, v->nr_groups, rep_start, s);
	const struct vm_group *g;
	uint64_t first, end;

	if (!i)
		return 0;
	g = &v->groups[i - 1];
	if (e - 1 > g->rep_last)
		return 0;
	first = vs_div_round_up((s - g->rep_start) * v->pss, v->ps);
	end = (e - g->rep_start) * v->pss / v->ps;
	if (end <= first)
		return 0;
	*nr += end - first;
	return fn(arg, g->pfn + first, end - first, err);
}

/* Pages of struct pages of pfns [S, E), translated through the page
 * tables: only pages wholly inside the run's struct pages. */
static int each_translated(const struct vs_vmemmap *v, struct vs_reader *r,
			   uint64_t s, uint64_t e, vs_vmemmap_fn *fn,
			   void *arg, uint64_t *nr, struct vs_error *err)
{
	for (size_t i = vs_memmap_first(v->mm, s);
	     i < v->mm->nr && v->mm->ranges[i].start < e; i++) {
		const struct vs_memmap_range *rg = &v->mm->ranges[i];
		uint64_t lo = s > rg->start ? s : rg->start;
		uint64_t hi = e < rg->end ? e : rg->end;
		uint64_t va, va_end;

		if (rg->bad || lo >= hi)
			continue;
		va = vs_round_up(rg->vaddr + (lo - rg->start) * v->pss, v->ps);
		va_end = (rg->vaddr + (hi - rg->start) * v->pss) / v->ps * v->ps;
		while (va < va_end) {
			struct vs_error ignored;
			uint64_t pa, span, len;

			if (vs_vtop(v->arch, r, va, &pa, &span, &ignored) < 0 ||
			    pa % v->ps) {
				va += v->ps;
				continue;
			}
			len = span / v->ps * v->ps;
			if (len == 0 || len > va_end - va)
				len = va_end - va;
			*nr += len / v->ps;
			if (fn(arg, pa / v->ps, len / v->ps, err) < 0)
				return -1;
			va += len;
		}
	}
	return 0;
}

static int each_run(const struct vs_vmemmap *v, struct vs_reader *r,
		    uint64_t s, uint64_t e, vs_vmemmap_fn *fn, void *arg,
		    uint64_t *nr, struct vs_error *err)
{
	if (v->groups)
		return each_in_groups(v, s, e, fn, arg, nr, err);
	return each_translated(v, r, s, e, fn, arg, nr, err);
}

int vs_vmemmap_each(const struct vs_vmemmap *v, struct vs_reader *r,
		    vs_vmemmap_fn *fn, void *arg, uint64_t *nr_out,
		    struct vs_error *err)
{
	uint64_t nbits = v->nwords * 64, w = 0;

	*nr_out = 0;
	while (w < nbits) {
		uint64_t end;

		if (!v->runs[w / 64]) {
			w = (w / 64 + 1) * 64;
			continue;
		}
		if (!vs_bit_test(v->runs, w)) {
			w++;
			continue;
		}
		/* A run ends at a clear bit or at its block's end. */
		end = w + 1;
		while (end < nbits && end % WORDS_PER_BLOCK &&
		       vs_bit_test(v->runs, end))
			end++;
		if (each_run(v, r, w * 64, end * 64, fn, arg, nr_out, err) < 0)
			return -1;
		w = end;
	}
	return 0;
}
