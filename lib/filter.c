/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * filter.c - the per-page exclusion cascade (filter.h), run by the chunk
 * selection (select.c) on each chunk of pfns.  The filter it reads was
 * built by filter_setup.c.
 *
 * The scan of a chunk follows makedumpfile's sequential loop: every pfn
 * whose page starts inside the dump's memory is a decision point; a
 * decision that excludes 2^order pages skips the scan over them.
 *
 * Chunks are independent.  A chunk may begin inside a range decided at an
 * earlier pfn (a gigantic page's head, or any range when a caller uses
 * small chunks).  Every such range is aligned to its size (compound
 * orders are discarded when the head is not aligned; buddy and
 * unaccepted blocks are aligned by the kernel), so its start is one of the
 * chunk start's "aligned ancestors": START with its lowest set bits
 * cleared one by one.  lookback() decides those few candidates, lowest
 * pfn first as the sequential scan would, and resumes the chunk where the
 * first range covering START ends.  That needs no compound_head pointer
 * (whose encoding changed in 7.1) and also covers buddy blocks.
 *
 * Without buddy identification in struct page, free pages come from the
 * zones' free lists (freelist.c), applied here per chunk.
 */
#include <stdlib.h>
#include <string.h>

#include "filter_int.h"

#define BATCH         512u

enum reason { R_KEEP, R_FREE, R_CACHE, R_CACHE_PRI, R_USER, R_HWPOISON,
	      R_OFFLINE, R_DOUBT };

void vs_counts_add(struct vs_counts *sum, const struct vs_counts *c)
{
	sum->cache += c->cache;
	sum->cache_private += c->cache_private;
	sum->user += c->user;
	sum->free += c->free;
	sum->hwpoison += c->hwpoison;
	sum->offline += c->offline;
	sum->doubtful += c->doubtful;
	sum->struct_bytes += c->struct_bytes;
	vs_doubt_merge(&sum->doubts, &c->doubts);
}

/* ---- the decision, one struct page -------------------------------- */

/* Fields of a struct page, in the dumped machine's byte order.  ld64
 * also loads unsigned longs and pointers: vs_filter_new() accepts only
 * 64-bit kernels. */
static inline uint64_t ld64(const struct vs_filter *f, const uint8_t *p,
			    uint32_t off)
{
	return vs_load64(&f->m, p + off);
}

static inline uint32_t ld32(const struct vs_filter *f, const uint8_t *p,
			    uint32_t off)
{
	return vs_load32(&f->m, p + off);
}

static inline uint16_t ld16(const struct vs_filter *f, const uint8_t *p,
			    uint32_t off)
{
	return vs_load16(&f->m, p + off);
}

static inline int is_type(const struct ptype *t, uint32_t mapcount)
{
	return t->known && mapcount == t->value;
}

static inline int is_cache(const struct vs_filter *f, uint64_t flags)
{
	if (flags & f->m_lru)
		return 1;
	return (flags & f->m_swapcache) &&
	       (!f->swapbacked_known || (flags & f->m_swapbacked));
}

/* Order of the compound page headed by PG (its first tail follows it),
 * and whether it is a hugetlbfs page. */
static inline uint64_t compound(const struct vs_filter *f, const uint8_t *pg,
				uint32_t mapcount, int *huge)
{
	uint64_t order = 0;

	switch (f->ord) {
	case ORD_U8: order = pg[f->ord_off]; break;
	case ORD_FLAGS_BYTE: order = ld64(f, pg, f->ord_off) & 0xff; break;
	case ORD_U16: order = ld16(f, pg, f->ord_off); break;
	case ORD_ULONG: order = ld64(f, pg, f->ord_off); break;
	case ORD_NONE: break;
	}
	switch (f->huge) {
	case HUGE_TYPE: *huge = is_type(&f->t_hugetlb, mapcount); break;
	case HUGE_FLAG_TAIL: *huge = (ld64(f, pg + f->sps, f->off_flags) & f->m_hugetlb) != 0; break;
	case HUGE_DTOR_U8: *huge = pg[f->dtor_off] == f->dtor_value; break;
	case HUGE_DTOR_U16: *huge = ld16(f, pg, f->dtor_off) == f->dtor_value; break;
	case HUGE_DTOR_PTR: *huge = ld64(f, pg, f->dtor_off) == f->dtor_value; break;
	case HUGE_NONE: *huge = 0; break;
	}
	return order;
}

/* makedumpfile's cascade (notes §3.3), first match wins.  HAS_TAIL: the
 * next struct page follows PG in memory.  Sets *NR to the pages the
 * decision covers. */
static inline enum reason decide(const struct vs_filter *f, const uint8_t *pg,
				 int has_tail, uint64_t pfn, uint64_t *nr)
{
	uint64_t flags = ld64(f, pg, f->off_flags);
	uint64_t mapping = ld64(f, pg, f->off_mapping);
	uint32_t mc = f->has_mapcount ? ld32(f, pg, f->off_mapcount) : 0;
	uint64_t order = 0, priv;
	int slab, anon, cache, huge = 0;

	*nr = 1;
	if (f->has_head && (ld64(f, pg, f->off_head) & 1))
		return R_KEEP;                             /* tail: skip */
	slab = f->slab_typed ? is_type(&f->t_slab, mc) : (flags & f->m_slab) != 0;
	if (f->level & DL_FREE) {
		int buddy = f->buddy == BUDDY_TYPE ? !slab && is_type(&f->t_buddy, mc) :
			    f->buddy == BUDDY_FLAG ? (flags & f->m_buddy) != 0 : 0;

		if (buddy) {
			priv = ld64(f, pg, f->off_private);
			if (priv >= (f->nr_orders ? f->nr_orders : 64))
				return R_DOUBT;
			*nr = 1ull << priv;
			return R_FREE;
		}
		if (is_type(&f->t_unaccepted, mc)) {
			*nr = 1ull << (f->nr_orders ? f->nr_orders - 1 : 10);
			return R_FREE;
		}
	}
	if (has_tail && (flags & f->m_head)) {
		order = compound(f, pg, mc, &huge);
		if (order >= 64 || (pfn & ((1ull << order) - 1)))
			order = 0;
	}
	anon = (mapping & 1) && !slab;
	cache = is_cache(f, flags);
	*nr = 1ull << order;
	if ((f->level & DL_CACHE) && cache && !(flags & f->m_private) && !anon)
		return R_CACHE;
	if ((f->level & DL_CACHE_PRI) && cache && !anon)
		return flags & f->m_private ? R_CACHE_PRI : R_CACHE;
	if ((f->level & DL_USER) && (anon || huge))
		return R_USER;
	if (flags & f->m_hwpoison)
		return R_HWPOISON;
	if (!slab && is_type(&f->t_offline, mc))
		return R_OFFLINE;
	*nr = 1;
	return R_KEEP;
}

/* ---- scanning a chunk -------------------------------------------- */

struct scan {
	const struct vs_filter *f;
	struct vs_reader *r;
	uint64_t start, end;         /* the chunk */
	uint64_t *bits;
	struct vs_counts *cnt;
	uint64_t next;               /* first pfn not yet covered */
	struct vs_xlat x;
	uint8_t *buf;                /* (BATCH + 1) struct pages */
};

/* Clear bits [from, to) of the chunk; return how many were set. */
static uint64_t clear_bits(struct scan *s, uint64_t from, uint64_t to)
{
	uint64_t n = 0;

	for (uint64_t i = from - s->start, e = to - s->start; i < e;) {
		uint64_t *w = &s->bits[i / 64], m;
		unsigned lo = (unsigned)(i % 64);
		uint64_t take = 64 - lo < e - i ? 64 - lo : e - i;

		m = (take == 64 ? ~0ull : ((1ull << take) - 1)) << lo;
		n += (uint64_t)__builtin_popcountll(*w & m);
		*w &= ~m;
		i += take;
	}
	return n;
}

static int bit_set(const struct scan *s, uint64_t pfn)
{
	uint64_t i = pfn - s->start;

	return (s->bits[i / 64] >> (i % 64)) & 1;
}

static void count(struct vs_counts *c, enum reason why, uint64_t n)
{
	switch (why) {
	case R_FREE: c->free += n; break;
	case R_CACHE: c->cache += n; break;
	case R_CACHE_PRI: c->cache_private += n; break;
	case R_USER: c->user += n; break;
	case R_HWPOISON: c->hwpoison += n; break;
	case R_OFFLINE: c->offline += n; break;
	case R_DOUBT: c->doubtful += n; break;
	case R_KEEP: break;
	}
}

/* Apply a decision taken at PFN covering NR pages (clipped to the chunk,
 * and starting no earlier than FROM). */
static void apply(struct scan *s, enum reason why, uint64_t pfn, uint64_t nr,
		  uint64_t from)
{
	uint64_t to = nr > s->end - pfn ? s->end : pfn + nr;

	if (from < to)
		count(s->cnt, why, clear_bits(s, from, to));
	s->next = nr > UINT64_MAX - pfn ? UINT64_MAX : pfn + nr;
}

static void doubt_order(struct scan *s, uint64_t pfn, const uint8_t *pg)
{
	if (!bit_set(s, pfn))
		return;
	s->cnt->doubtful++;
	vs_doubt_add(&s->cnt->doubts, pfn, "pfn 0x%llx kept: free page of "
		     "order %llu (at most %llu)", (unsigned long long)pfn,
		     (unsigned long long)ld64(s->f, pg, s->f->off_private),
		     (unsigned long long)(s->f->nr_orders ? s->f->nr_orders - 1 : 63));
}

static int in_dump(const struct vs_filter *f, uint64_t pfn)
{
	return vs_input_find(f->in, pfn << f->m.page_shift) >= 0;
}

/* The struct pages of [pfn, pfn + n), plus the next one when the range
 * has it (the first tail of a head at the end): in place in the input's
 * mapping when they are contiguous there (the common case: the scan is
 * bandwidth-bound and a copy would double its traffic), else copied into
 * s->buf.  Returns how many are there, 0 if unreadable. */
static uint64_t read_pages(struct scan *s, const struct vs_memmap_range *g,
			   uint64_t pfn, uint64_t n, const uint8_t **pages)
{
	uint64_t sps = s->f->sps, va = g->vaddr + (pfn - g->start) * sps;
	uint64_t want = pfn + n < g->end ? n + 1 : n;
	uint8_t *buf = s->buf;
	struct vs_error why;

	*pages = vs_memmap_peek(s->f->arch, s->r, &s->x, va, want * sps, &why);
	if (*pages)
		return want;
	*pages = buf;
	if (vs_memmap_read(s->f->arch, s->r, &s->x, va, buf, n * sps, &why) < 0) {
		s->x.len = 0;
		return 0;
	}
	if (pfn + n < g->end &&
	    vs_memmap_read(s->f->arch, s->r, &s->x, va + n * sps, buf + n * sps,
			   sps, &why) == 0)
		return n + 1;
	return n;
}

/* If the page at PFN is a compound tail, its head's pfn, else PFN.
 * compound_head holds the head's address + 1; Linux 7.1's compound_info
 * may instead hold a mask that gives the head when and-ed with the
 * tail's address.  A head that cannot be found gives 0 (search). */
static uint64_t head_of(struct scan *s, uint64_t pfn)
{
	const struct vs_filter *f = s->f;
	size_t i = vs_memmap_first(&f->mm, pfn);
	const struct vs_memmap_range *g = i < f->mm.nr ? &f->mm.ranges[i] : NULL;
	const uint8_t *pg;
	uint64_t word, va, head;

	if (!f->has_head || i == f->mm.nr || g->start > pfn || g->bad ||
	    !read_pages(s, g, pfn, 1, &pg))
		return pfn;
	word = ld64(f, pg, f->off_head);
	if (!(word & 1))
		return pfn;
	va = g->vaddr + (pfn - g->start) * f->sps;
	if (vs_memmap_pfn_of(&f->mm, word - 1, &head) && head < pfn)
		return head;
	if (vs_memmap_pfn_of(&f->mm, va & word, &head) && head < pfn)
		return head;
	return 0;
}

/* Decide candidate P of the lookback; 1 when its range covers the
 * chunk start (applied), else 0 with *SKIP past its range. */
static int try_candidate(struct scan *s, uint64_t p, uint64_t *skip)
{
	const struct vs_filter *f = s->f;
	size_t i = vs_memmap_first(&f->mm, p);
	const struct vs_memmap_range *g = i < f->mm.nr ? &f->mm.ranges[i] : NULL;
	const uint8_t *pg;
	enum reason why;
	uint64_t got, nr;

	if (i == f->mm.nr || g->start > p || g->bad || !in_dump(f, p))
		return 0;
	got = read_pages(s, g, p, 1, &pg);
	if (!got)
		return 0;
	why = decide(f, pg, got > 1, p, &nr);
	if (why == R_KEEP || why == R_DOUBT)
		return 0;
	if (nr > s->start - p) {
		apply(s, why, p, nr, s->start);
		return 1;
	}
	*skip = p + nr;
	return 0;
}

/* Decide the ranges that may cover the chunk start but begin before it;
 * returns the first pfn the main scan must decide.  Every such range is
 * aligned to its size, so it starts at an "aligned ancestor" of START
 * (START with low bits cleared), decided lowest first as the sequential
 * scan would.  Buddy and unaccepted blocks are at most 2^(orders-1)
 * pages: a chunk aligned to that needs no search for them.  Larger
 * ranges are compound pages, so the wide search runs only when START is
 * a tail, and then goes straight to its head when the head is known. */
static uint64_t lookback(struct scan *s)
{
	const struct vs_filter *f = s->f;
	uint64_t skip = 0, prev = s->start, head = head_of(s, s->start);
	unsigned low = (unsigned)__builtin_ctzll(s->start | (1ull << 63));
	unsigned top = f->nr_orders ? (unsigned)f->nr_orders - 1 : 10;

	if (head && head < s->start && try_candidate(s, head, &skip))
		return s->next;
	if (head == 0)
		top = 63;
	for (unsigned o = top; o > low; o--) {
		uint64_t p = s->start & ~((1ull << o) - 1);

		if (p == prev || p < skip)
			continue;
		prev = p;
		if (try_candidate(s, p, &skip))
			return s->next;
	}
	return s->start;
}

/* Pages [p, p + n) whose struct pages cannot be read: kept, doubtful. */
static void doubt_run(struct scan *s, const struct vs_memmap_range *g,
		      uint64_t p, uint64_t n)
{
	uint64_t first = UINT64_MAX, k = 0;

	for (uint64_t q = p > s->next ? p : s->next; q < p + n; q++)
		if (bit_set(s, q)) {
			k++;
			first = first < q ? first : q;
		}
	if (s->next < p + n)
		s->next = p + n;
	if (!k)
		return;
	s->cnt->doubtful += k;
	vs_doubt_add(&s->cnt->doubts, first, "pfns 0x%llx-0x%llx kept: struct "
		     "pages at 0x%llx unreadable (%llu pages)",
		     (unsigned long long)p, (unsigned long long)(p + n - 1),
		     (unsigned long long)(g->vaddr + (p - g->start) * s->f->sps),
		     (unsigned long long)k);
}

/* The hot loop: decide N (at most BATCH) pages from one read.  When the
 * read fails, retry in pieces of one page of mem_map, so that only the
 * struct pages really unreadable make their pages doubtful. */
static void scan_batch(struct scan *s, const struct vs_memmap_range *g,
		       uint64_t p, uint64_t n)
{
	const struct vs_filter *f = s->f;
	const uint8_t *pages;
	uint64_t sps = f->sps, nr, got = read_pages(s, g, p, n, &pages);
	uint64_t piece = f->m.page_size / sps ? f->m.page_size / sps : 1;

	if (!got && n > piece) {
		for (uint64_t q = p; q < p + n; q += piece)
			scan_batch(s, g, q, piece < p + n - q ? piece : p + n - q);
		return;
	}
	if (!got) {
		doubt_run(s, g, p, n);
		return;
	}
	s->cnt->struct_bytes += got * sps;
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *pg = pages + i * sps;
		enum reason why;

		if (p + i < s->next)
			continue;
		why = decide(f, pg, i + 1 < got, p + i, &nr);
		if (why == R_DOUBT)
			doubt_order(s, p + i, pg);
		else if (why != R_KEEP)
			apply(s, why, p + i, nr, p + i);
	}
}

static void scan_good(struct scan *s, const struct vs_memmap_range *g,
		      uint64_t lo, uint64_t hi)
{
	for (uint64_t p = lo; p < hi; ) {
		uint64_t n = ((p | (BATCH - 1)) + 1 < hi ? (p | (BATCH - 1)) + 1 : hi) - p;

		scan_batch(s, g, p, n);
		p += n;
	}
}

static void scan_bad(struct scan *s, uint64_t lo, uint64_t hi)
{
	uint64_t first = UINT64_MAX, n = 0;

	for (uint64_t p = lo > s->next ? lo : s->next; p < hi; p++)
		if (bit_set(s, p)) {
			n++;
			first = first < p ? first : p;
		}
	if (!n)
		return;
	s->cnt->doubtful += n;
	vs_doubt_add(&s->cnt->doubts, first, "pfns 0x%llx-0x%llx kept: their "
		     "mem_section could not be read (%llu pages)",
		     (unsigned long long)lo, (unsigned long long)(hi - 1),
		     (unsigned long long)n);
}

/* Decide the pfns [lo, hi) that start inside the dump's memory. */
static void scan_present(struct scan *s, uint64_t lo, uint64_t hi)
{
	const struct vs_memmap *mm = &s->f->mm;

	for (size_t i = vs_memmap_first(mm, lo); i < mm->nr; i++) {
		const struct vs_memmap_range *g = &mm->ranges[i];
		uint64_t a = g->start > lo ? g->start : lo;
		uint64_t b = g->end < hi ? g->end : hi;

		if (g->start >= hi)
			break;
		if (a < s->next)
			a = s->next < b ? s->next : b;
		if (a >= b)
			continue;
		if (g->bad)
			scan_bad(s, a, b);
		else
			scan_good(s, g, a, b);
	}
}

static void scan_segments(struct scan *s)
{
	const struct vs_input *in = s->f->in;
	uint64_t ps = s->f->m.page_size;
	unsigned sh = s->f->m.page_shift;

	for (size_t i = 0; i < in->nr_phys; i++) {
		const struct vs_segment *g = &in->phys[i];
		uint64_t lo = (g->paddr + ps - 1) >> sh;
		uint64_t hi = (g->paddr + g->memsz + ps - 1) >> sh;

		if (lo < s->next)
			lo = s->next;
		if (hi > s->end)
			hi = s->end;
		if (lo < hi)
			scan_present(s, lo, hi);
	}
}

static void apply_free_lists(struct scan *s)
{
	const struct vs_filter *f = s->f;
	size_t lo = 0, hi = f->nr_freel;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->freel[mid].end <= s->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < f->nr_freel && f->freel[i].start < s->end; i++) {
		uint64_t a = f->freel[i].start > s->start ? f->freel[i].start : s->start;
		uint64_t b = f->freel[i].end < s->end ? f->freel[i].end : s->end;

		s->cnt->free += clear_bits(s, a, b);
	}
}

int vs_filter_chunk(const struct vs_filter *f, struct vs_reader *r,
		    uint64_t start, uint64_t n, uint64_t *bits,
		    struct vs_counts *cnt, struct vs_error *err)
{
	struct scan s = { f, r, start, start + n, bits, cnt, start, { 0, 0, 0 }, NULL };

	if (start % 64 || n % 64)
		return vs_err(err, "internal: chunk 0x%llx+0x%llx is not "
			      "64-aligned", (unsigned long long)start,
			      (unsigned long long)n);
	if (!n || !f->scan)
		return 0;
	s.buf = malloc((BATCH + 1) * f->sps);
	if (!s.buf)
		return vs_err_oom(err, "out of memory");
	s.next = lookback(&s);
	if (s.next < s.end)
		scan_segments(&s);
	if (f->nr_freel)
		apply_free_lists(&s);
	free(s.buf);
	return 0;
}
