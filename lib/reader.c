/*
 * reader.c - one thread's view of the input's physical memory.
 *
 * Pages come from a window of the file: 4 MiB mapped with mmap (what
 * /proc/vmcore is fastest with), or 1 MiB read with pread when mmap is
 * off or fails.  Either way there is one system call per window, never
 * one per page.  A page the input covers only in part (a segment ending
 * at 0x9fc00, p_filesz < p_memsz) is assembled in a bounce page, with
 * zeros where the file has no data.
 */
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "util.h"

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

void vs_input_page_cover(const struct vs_input *in, uint64_t pfn,
			 uint64_t *mem_bytes, uint64_t *data_bytes)
{
	uint64_t start = pfn << in->page_shift, end = start + in->page_size;
	long i = vs_input_find(in, start);

	*mem_bytes = *data_bytes = 0;
	if (i < 0) {
		/* The page may still begin inside a hole and end in memory. */
		size_t lo = 0, hi = in->nr_phys;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (in->phys[mid].paddr < start)
				lo = mid + 1;
			else
				hi = mid;
		}
		i = (long)lo;
	}
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

int vs_reader_init(struct vs_reader *r, const struct vs_input *in,
		   struct vs_error *err)
{
	memset(r, 0, sizeof(*r));
	r->in = in;
	r->last_seg = -1;
	vs_view_init(&r->view, &in->file, in->no_mmap);
	r->bounce = aligned_alloc(64, in->page_size);
	if (!r->bounce)
		return vs_err(err, "out of memory");
	return 0;
}

void vs_reader_fini(struct vs_reader *r)
{
	vs_view_fini(&r->view);
	free(r->bounce);
	free(r->cbuf);
	memset(r, 0, sizeof(*r));
}

/* Copy [paddr, paddr + len) of segment S, zeros past its file data. */
static int copy_from_segment(struct vs_reader *r, const struct vs_segment *s,
			     uint64_t paddr, uint8_t *buf, size_t len,
			     struct vs_error *err)
{
	uint64_t rel = paddr - s->paddr;
	/* Small reads (page-table entries, kernel variables) get a window of
	 * their own, so that they do not move the one bulk reads stream
	 * through (an ELF input has no use for the kdump windows). */
	int wi = len < 512 ? VS_WIN_DESC : VS_WIN_DATA;

	while (len) {
		size_t n = len > VS_READ_WINDOW / 2 ? VS_READ_WINDOW / 2 : len;
		const uint8_t *src;

		if (rel >= s->filesz) {
			memset(buf, 0, len);
			return 0;
		}
		if (n > s->filesz - rel)
			n = (size_t)(s->filesz - rel);
		src = vs_view_get(&r->view, wi, s->offset + rel, n,
				    s->offset + s->filesz, err);
		if (!src)
			return -1;
		memcpy(buf, src, n);
		buf += n;
		rel += n;
		len -= n;
	}
	return 0;
}

/* A kdump input holds whole pages only: copy out of them. */
static int read_phys_pages(struct vs_reader *r, uint64_t paddr, uint8_t *p,
			   size_t len, struct vs_error *err)
{
	const struct vs_input *in = r->in;

	while (len) {
		uint64_t in_page = paddr & (in->page_size - 1);
		size_t n = in->page_size - in_page < len ?
			   (size_t)(in->page_size - in_page) : len;
		const uint8_t *page;

		if (vs_kdump_read_page(r, paddr >> in->page_shift, &page, err) < 0)
			return vs_err_ctx(err, "physical address 0x%llx (pfn "
					  "0x%llx)", (unsigned long long)paddr,
					  (unsigned long long)(paddr >> in->page_shift));
		memcpy(p, page + in_page, n);
		p += n;
		paddr += n;
		len -= n;
	}
	return 0;
}

int vs_read_phys(struct vs_reader *r, uint64_t paddr, void *buf, size_t len,
		 struct vs_error *err)
{
	uint8_t *p = buf;

	if (r->in->kind == VS_INPUT_KDUMP)
		return read_phys_pages(r, paddr, p, len, err);
	while (len) {
		long i = vs_input_find(r->in, paddr);
		const struct vs_segment *s;
		size_t n;

		if (i < 0)
			return vs_err(err, "physical address 0x%llx is not in "
				      "the dump", (unsigned long long)paddr);
		s = &r->in->phys[i];
		n = s->paddr + s->memsz - paddr < len ?
			(size_t)(s->paddr + s->memsz - paddr) : len;
		if (copy_from_segment(r, s, paddr, p, n, err) < 0)
			return -1;
		p += n;
		paddr += n;
		len -= n;
	}
	return 0;
}

const uint8_t *vs_peek_phys(struct vs_reader *r, uint64_t paddr, size_t len,
			    struct vs_error *err)
{
	const struct vs_input *in = r->in;
	const struct vs_segment *s;
	long i;

	if (in->kind != VS_INPUT_ELF || len > VS_MAP_WINDOW / 2)
		return NULL;
	i = vs_input_find(in, paddr);
	if (i < 0)
		return NULL;
	s = &in->phys[i];
	if (paddr - s->paddr + len > s->filesz)
		return NULL;
	return vs_view_get(&r->view, VS_WIN_DATA, s->offset + (paddr - s->paddr), len,
			     s->offset + s->filesz, err);
}

/* The start of the first segment above PADDR (UINT64_MAX if none). */
static uint64_t next_segment(const struct vs_input *in, uint64_t paddr)
{
	size_t lo = 0, hi = in->nr_phys;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (in->phys[mid].paddr <= paddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < in->nr_phys ? in->phys[lo].paddr : UINT64_MAX;
}

/* A page not wholly inside one segment's file data: assemble it. */
static int assemble_page(struct vs_reader *r, uint64_t pfn,
			 const uint8_t **page, struct vs_error *err)
{
	const struct vs_input *in = r->in;
	uint64_t start = pfn << in->page_shift, mem, data;

	vs_input_page_cover(in, pfn, &mem, &data);
	if (mem == 0)
		return vs_err(err, "pfn 0x%llx is not in the dump",
			      (unsigned long long)pfn);
	memset(r->bounce, 0, in->page_size);
	for (uint64_t off = 0; off < in->page_size;) {
		long i = vs_input_find(in, start + off);
		uint64_t n;

		if (i < 0) {
			/* A hole inside the page: skip to the next segment. */
			uint64_t next = next_segment(in, start + off);

			if (next >= start + in->page_size)
				break;
			off = next - start;
			continue;
		}
		n = in->phys[i].paddr + in->phys[i].memsz - (start + off);
		if (n > in->page_size - off)
			n = in->page_size - off;
		if (copy_from_segment(r, &in->phys[i], start + off,
				      r->bounce + off, (size_t)n, err) < 0)
			return -1;
		off += n;
	}
	*page = r->bounce;
	return 0;
}

int vs_read_page(struct vs_reader *r, uint64_t pfn, const uint8_t **page,
		 struct vs_error *err)
{
	const struct vs_input *in = r->in;
	uint64_t paddr = pfn << in->page_shift;
	const struct vs_segment *s;
	long i = r->last_seg;

	if (in->kind == VS_INPUT_KDUMP)
		return vs_kdump_read_page(r, pfn, page, err);
	if (i < 0 || paddr < in->phys[i].paddr ||
	    paddr - in->phys[i].paddr >= in->phys[i].memsz) {
		i = vs_input_find(in, paddr);
		r->last_seg = i;
	}
	if (i < 0)
		return assemble_page(r, pfn, page, err);
	s = &in->phys[i];
	if (paddr - s->paddr + in->page_size > s->filesz)
		return assemble_page(r, pfn, page, err);
	*page = vs_view_get(&r->view, VS_WIN_DATA, s->offset + (paddr - s->paddr),
			      in->page_size, s->offset + s->filesz, err);
	return *page ? 0 : -1;
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

/* Bits of [start, start + n) for the pages each segment covers: with
 * memory (DATA = 0) or with data in the file (DATA = 1). */
static void segment_bits(const struct vs_input *in, uint64_t start,
			 uint64_t n, uint64_t *bits, int data)
{
	uint64_t end = start + n;

	memset(bits, 0, n / 8);
	for (size_t i = 0; i < in->nr_phys; i++) {
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

int vs_input_data_bits(struct vs_reader *r, uint64_t start, uint64_t n,
		       uint64_t *bits, struct vs_error *err)
{
	if (r->in->kind == VS_INPUT_KDUMP)
		return vs_kdump_data_bits(r, start, n, bits, err);
	segment_bits(r->in, start, n, bits, 1);
	return 0;
}

int vs_input_present_bits(const struct vs_input *in, uint64_t start,
			  uint64_t n, uint64_t *bits)
{
	segment_bits(in, start, n, bits, 0);
	return 0;
}
