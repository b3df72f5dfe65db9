/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * reader.c - one thread's view of the input's physical memory (input.h):
 * pages, ranges and bits, each asked of the input's format through its
 * ops (format.h).  Used by the filter, the architectures, the writers and
 * the read API; it never asks which format it reads.
 */
#include <stdlib.h>
#include <string.h>

#include "bitops.h"
#include "format.h"
#include "vmsift.h"

int vs_reader_init(struct vs_reader *r, const struct vs_input *in,
		   struct vs_error *err)
{
	memset(r, 0, sizeof(*r));
	r->in = in;
	r->last_seg = -1;
	vs_view_init(&r->view, &in->file, in->no_mmap || in->kcore);
	r->bounce = aligned_alloc(64, in->page_size);
	if (!r->bounce)
		return vs_err_oom(err, "out of memory");
	return 0;
}

void vs_reader_chunk(struct vs_reader *r)
{
	const struct vs_input *in = r->in;

	r->view.run = 0;
	/* AUTO: runs on a file, where one pread a run took 40 % less CPU
	 * than windows, in dense chunks and sparse (a window costs its
	 * mapping, a page fault every few pages and a TLB-flushing munmap:
	 * doc/performance.md, "The terabyte series").  Windows on
	 * /proc/vmcore, whose read() costs 8 times its mmap() a byte: runs
	 * did not reliably win there in the capture kernel ("Inside the
	 * capture kernel"), and on /proc/kcore. */
	if (in->read_path == VMSIFT_READ_AUTO)
		r->runs = !in->file.procfs && !in->kcore;
	else
		r->runs = in->read_path == VMSIFT_READ_RUNS;
}

void vs_reader_kept(struct vs_reader *r, const uint64_t *bits, uint64_t i,
		    uint64_t n)
{
	uint64_t end = i + 1;

	if (!r->runs || (i && vs_bit_test(bits, i - 1)))
		return;
	while (end < n && vs_bit_test(bits, end))
		end++;
	vs_view_run(&r->view, (end - i) << r->in->page_shift);
}

void vs_reader_fini(struct vs_reader *r)
{
	if (r->in && r->in->hooks && r->in->hooks->reader_fini)
		r->in->hooks->reader_fini(r);
	vs_view_fini(&r->view);
	vs_dctx_set_fini(&r->dctx);
	free(r->bounce);
	memset(r, 0, sizeof(*r));
}

int vs_read_page(struct vs_reader *r, uint64_t pfn, const uint8_t **page,
		 struct vs_error *err)
{
	if (r->in->hooks)
		return r->in->hooks->read_page(r, pfn, page, err);
	return r->in->ops->read_page(r, pfn, page, err);
}

int vs_reader_page(struct vs_reader *r, uint64_t pfn, void *buf,
		   enum vs_page_state *state, struct vs_error *err)
{
	const struct vs_input *in = r->in;
	uint64_t mem, data, bits, start = pfn & ~(uint64_t)63;
	const uint8_t *page;

	memset(buf, 0, in->page_size);
	*state = VS_PAGE_ABSENT;
	if (pfn >= in->max_mapnr)
		return 0;
	vs_input_page_cover(in, pfn, &mem, &data);
	if (!mem)
		return 0;
	*state = VS_PAGE_EXCLUDED;
	if (in->ops->data_bits(r, start, 64, &bits, err) < 0)
		return vs_err_ctx(err, "pfn 0x%llx", (unsigned long long)pfn);
	if (!((bits >> (pfn - start)) & 1))
		return 0;
	if (vs_read_page(r, pfn, &page, err) < 0)
		return vs_err_ctx(err, "pfn 0x%llx", (unsigned long long)pfn);
	memcpy(buf, page, in->page_size);
	*state = VS_PAGE_DATA;
	return 0;
}

/* Copy out of whole pages, for a format that holds nothing smaller. */
static int read_phys_pages(struct vs_reader *r, uint64_t paddr, uint8_t *p,
			   size_t len, struct vs_error *err)
{
	const struct vs_input *in = r->in;

	while (len) {
		uint64_t in_page = paddr & (in->page_size - 1);
		size_t n = in->page_size - in_page < len ?
			   (size_t)(in->page_size - in_page) : len;
		const uint8_t *page;

		if (vs_read_page(r, paddr >> in->page_shift, &page, err) < 0)
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
	if (r->in->ops->read_phys)
		return r->in->ops->read_phys(r, paddr, buf, len, err);
	return read_phys_pages(r, paddr, buf, len, err);
}

const uint8_t *vs_peek_phys(struct vs_reader *r, uint64_t paddr, size_t len,
			    struct vs_error *err)
{
	if (!r->in->ops->peek_phys)
		return NULL;
	return r->in->ops->peek_phys(r, paddr, len, err);
}

int vs_input_page_bits(struct vs_reader *r, uint64_t start, uint64_t n,
		       uint64_t *present, uint64_t *data, struct vs_error *err)
{
	vs_phys_bits(r->in, start, n, present, 0);
	/* A hole in the address space: nothing to ask the format. */
	if (vs_bits_count(present, n / 64) == 0) {
		memset(data, 0, n / 8);
		return 0;
	}
	return r->in->ops->data_bits(r, start, n, data, err);
}
