/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kdump_writer.c - write the kdump-compressed format (kdump_format.h,
 * doc/format.md) in two pipelined phases over the pfn space.  Exports
 * only vs_kdump_writer (writer.h), run by dump.c; uses select.h's
 * services.
 *
 * Select: workers compute bitmap1 and bitmap2 per VS_SELECT_PFNS-pfn
 * chunk (the struct page scan); the ordered writer puts each chunk's
 * bitmaps at their place in the file and counts the dumpable pages, which
 * fixes where the page data starts.  Copy: workers read, zero-check and
 * compress chunks of 1 MiB of pages (at least 64 pages, whatever the page
 * size), taking the chunk's bitmap2 back from
 * the output file (or from memory when the output cannot be read back);
 * the writer gives each page its descriptor and appends its data.
 *
 * So mem_map is scanned once, nothing in memory grows with the dump but
 * the bitmap kept for unreadable outputs (1 bit a page), and the file is
 * the same whatever the thread count.  The header is written first with
 * the incomplete flag set and rewritten without it at the very end: a
 * dump cut short at any point says so.
 */
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "bitops.h"
#include "chunkmap.h"
#include "kdump_format.h"
#include "pipeline.h"
#include "util.h"
#include "vmcoreinfo.h"
#include "vmemmap.h"
#include "writer.h"

#define DESC_BUF   2048u             /* descriptors buffered: 48 KiB */
#define DATA_BUF   (1u << 20)        /* page data buffered */

struct kd_layout {
	uint64_t bs;                 /* block size = page size */
	uint64_t sub_hdr_blocks;
	uint64_t notes_off;
	uint64_t bitmap_len;         /* each bitmap, block aligned */
	uint64_t bitmap1_off;
	uint64_t bitmap2_off;
	uint64_t desc_off;
	uint64_t data_off;           /* set once the count is known */
};

struct page_rec {
	uint64_t pfn;
	uint32_t size;
	uint32_t flags;
	uint32_t zero;
};

struct copy_slot {
	uint64_t bits[VS_SELECT_PFNS / 64];
	uint32_t npages;
	struct page_rec *recs;
	uint8_t *data;
	size_t data_len;
};

struct select_slot {
	uint64_t bits1[VS_SELECT_PFNS / 64];
	uint64_t bits2[VS_SELECT_PFNS / 64];
};

/* One output file: the whole dump, or one file of a split set, which
 * holds the pages of pfns [start, end) and everything else in full. */
struct kd_out {
	struct vs_sink *sink;
	uint64_t start, end;
	uint64_t zero_off;
	uint64_t data_next;          /* offset of the next page's data */
	uint64_t data_written;       /* file data is complete below this */
	struct kdump_page_desc *desc;
	size_t ndesc;
	uint64_t desc_done;          /* descriptors already in the file */
	uint8_t *data;
	size_t data_len;
	uint64_t erase_off, erase_size;   /* the eraseinfo text (--config) */
};

struct kd_writer {
	struct vs_dump *d;
	struct kd_layout lay;
	struct kdump_header hdr;
	uint8_t *bitmap2_mem;        /* when the output cannot be read back:
					the listed chunks' bitmap 2, in order */
	uint64_t bitmap2_cap;        /* chunks it has room for */
	struct vs_chunkmap chunks;   /* chunks with a dumpable page */
	uint64_t ndumpable;
	uint64_t copy_pfns;          /* pfns per copy chunk */
	int copying;                 /* header and bitmaps are in the file */
	uint64_t *split_hist;        /* dumpable pages per splitblock */
	uint64_t nr_splitblocks;
	struct kd_out *outs;
	unsigned nouts;
	unsigned cur;                /* the output now being written */
	struct vs_vmemmap *vm;       /* -e: runs of unused struct pages */
};

static uint64_t chunk_pfns(const struct kd_writer *w, uint64_t start,
			   uint64_t size)
{
	uint64_t left = w->d->max_mapnr - start;

	if (start >= w->d->max_mapnr)
		return 0;
	return vs_round_up(left < size ? left : size, 64);
}

static void layout_of(const struct vs_dump *d, struct kd_layout *l)
{
	const struct vs_input *in = d->in;

	l->bs = in->page_size;
	l->notes_off = l->bs + sizeof(struct kdump_sub_header);
	l->sub_hdr_blocks = vs_div_round_up(sizeof(struct kdump_sub_header) +
					    in->notes_size, l->bs);
	l->bitmap_len = vs_round_up(vs_div_round_up(d->max_mapnr, 8), l->bs);
	l->bitmap1_off = (1 + l->sub_hdr_blocks) * l->bs;
	l->bitmap2_off = l->bitmap1_off + l->bitmap_len;
	l->desc_off = l->bitmap2_off + l->bitmap_len;
}

static void plan_layout(struct kd_writer *w)
{
	layout_of(w->d, &w->lay);
}

uint64_t vs_kdump_desc_off(const struct vs_dump *d)
{
	struct kd_layout l;

	layout_of(d, &l);
	return l.desc_off;
}

/* Where the utsname lies, as makedumpfile finds it: system_utsname
 * (kernels before 2.6.19), else init_uts_ns.name: at
 * OFFSET(uts_namespace.name) where VMCOREINFO exports it (5.11+), else
 * after the struct kref that leads struct uts_namespace up to 5.10 (one
 * int).  0 when VMCOREINFO names neither symbol. */
static uint64_t utsname_addr(const struct vs_vmcoreinfo *vi)
{
	uint64_t sym;
	int64_t off = (int64_t)sizeof(int32_t);

	if (vs_vi_symbol(vi, "system_utsname", &sym))
		return sym;
	if (!vs_vi_symbol(vi, "init_uts_ns", &sym))
		return 0;
	vs_vi_offset(vi, "uts_namespace.name", &off);
	return sym + (uint64_t)off;
}

/* The utsname, read through the dead kernel's own address translation
 * when VMCOREINFO says where it is; zeros otherwise, as makedumpfile
 * leaves it without debug information. */
static void read_utsname(struct vs_dump *d, struct kdump_utsname *uts)
{
	const struct vs_input *in = d->in;
	struct vs_arch *arch = NULL;
	struct vs_error e;
	uint64_t addr = utsname_addr(in->vi);

	memset(uts, 0, sizeof(*uts));
	if (!addr || vs_arch_new(&arch, in, &e) < 0)
		return;
	if (vs_read_kvirt(arch, &d->workers[0]->reader, addr, uts,
			  sizeof(*uts), &e) < 0)
		memset(uts, 0, sizeof(*uts));
	for (char *p = (char *)uts; p < (char *)(uts + 1); p += KDUMP_UTS_LEN)
		p[KDUMP_UTS_LEN - 1] = '\0';
	vs_arch_free(arch);
}

static void fill_header(struct kd_writer *w)
{
	const struct vs_dump *d = w->d;
	const struct vs_input *in = d->in;
	struct kdump_header *h = &w->hdr;
	int64_t crashtime = 0;

	memset(h, 0, sizeof(*h));
	memcpy(h->signature, KDUMP_SIGNATURE, KDUMP_SIG_LEN);
	h->header_version = KDUMP_HEADER_VERSION;
	if (in->prev.known) {
		memcpy(&h->utsname, in->prev.utsname, sizeof(h->utsname));
		h->tv_sec = in->prev.tv_sec;
	} else {
		read_utsname(w->d, &h->utsname);
		if (vs_vi_decimal(in->vi, "CRASHTIME", &crashtime))
			h->tv_sec = crashtime;
	}
	h->status = (d->codec ? d->codec->flag : 0) | KDUMP_INCOMPLETE;
	if (w->vm)
		h->status |= KDUMP_EXCLUDED_VMEMMAP;
	h->block_size = (int32_t)w->lay.bs;
	h->sub_hdr_size = (int32_t)w->lay.sub_hdr_blocks;
	h->bitmap_blocks = (uint32_t)(2 * w->lay.bitmap_len / w->lay.bs);
	h->max_mapnr = d->max_mapnr > UINT32_MAX ? UINT32_MAX :
		       (uint32_t)d->max_mapnr;
	h->nr_cpus = (int32_t)in->nr_cpus;
}

static int write_header(struct kd_writer *w, struct kd_out *o,
			struct vs_error *err)
{
	uint8_t *block = calloc(1, w->lay.bs);
	int ret;

	if (!block)
		return vs_err_oom(err, "out of memory");
	memcpy(block, &w->hdr, sizeof(w->hdr));
	kdump_header_order(&w->d->in->order, (struct kdump_header *)(void *)block);
	ret = vs_sink_write(o->sink, block, w->lay.bs, 0, err);
	free(block);
	return ret;
}

static int write_headers(struct kd_writer *w, struct vs_error *err)
{
	for (unsigned i = 0; i < w->nouts; i++)
		if (write_header(w, &w->outs[i], err) < 0)
			return -1;
	return 0;
}

/* The sub-header's phys_base as makedumpfile fills it: x86_64's
 * NUMBER(phys_base), arm64's NUMBER(PHYS_OFFSET), riscv64's
 * NUMBER(phys_ram_base) (both 0x hex). */
static uint64_t header_phys_base(const struct vs_input *in)
{
	int64_t phys_base = 0;
	uint64_t v;

	if (in->prev.known)
		return in->prev.phys_base;
	if (vs_vi_number(in->vi, "phys_base", &phys_base))
		return (uint64_t)phys_base;
	if (vs_vi_unsigned(in->vi, "PHYS_OFFSET", &v) ||
	    vs_vi_unsigned(in->vi, "phys_ram_base", &v))
		return v;
	return 0;
}

static int write_sub_header(struct kd_writer *w, const struct kd_out *o,
			    struct vs_error *err)
{
	const struct vs_dump *d = w->d;
	const struct vs_input *in = d->in;
	struct kdump_sub_header sh = { 0 };

	sh.phys_base = header_phys_base(in);
	sh.dump_level = (int32_t)d->level;
	if (in->has_vmcoreinfo_note) {
		sh.offset_vmcoreinfo = w->lay.notes_off + in->vmcoreinfo_off;
		sh.size_vmcoreinfo = in->vmcoreinfo_size;
	}
	sh.offset_note = w->lay.notes_off;
	sh.size_note = in->notes_size;
	sh.offset_eraseinfo = o->erase_off;
	sh.size_eraseinfo = o->erase_size;
	sh.max_mapnr_64 = d->max_mapnr;
	if (w->nouts > 1) {
		sh.split = 1;
		sh.start_pfn_64 = o->start;
		sh.end_pfn_64 = o->end;
		sh.start_pfn = o->start > UINT32_MAX ? UINT32_MAX : o->start;
		sh.end_pfn = o->end > UINT32_MAX ? UINT32_MAX : o->end;
	}
	kdump_sub_header_order(&in->order, &sh);
	if (vs_sink_write(o->sink, &sh, sizeof(sh), w->lay.bs, err) < 0)
		return -1;
	return vs_sink_write(o->sink, in->notes, in->notes_size,
			     w->lay.notes_off, err);
}

/* --- select phase ------------------------------------------------------ */

static int select_work(void *worker, uint64_t index, void *slot,
		       struct vs_error *err)
{
	struct vs_worker *wk = worker;
	struct select_slot *s = slot;

	return vs_select_chunk(wk->d, wk, index * VS_SELECT_PFNS,
			       VS_SELECT_PFNS, s->bits1, s->bits2, err);
}

/* Add the chunk's dumpable pages to the splitblock histogram. */
static void count_splitblocks(struct kd_writer *w, uint64_t start,
			      const uint64_t *bits)
{
	uint64_t sb = w->d->split_pfns;

	for (uint64_t i = 0; i < VS_SELECT_PFNS / 64; i++) {
		if (!bits[i])
			continue;
		if (sb % 64 == 0) {
			w->split_hist[(start + 64 * i) / sb] +=
				(uint64_t)__builtin_popcountll(bits[i]);
			continue;
		}
		for (unsigned b = 0; b < 64; b++)
			if ((bits[i] >> b) & 1)
				w->split_hist[(start + 64 * i + b) / sb]++;
	}
}

/* The copy phase visits only the chunks listed here; an output that
 * cannot be read back keeps their bitmap 2 (file order) in memory. */
static int list_chunk(struct kd_writer *w, uint64_t index,
		      const uint64_t *bits2, struct vs_error *err)
{
	const uint64_t bytes = VS_SELECT_PFNS / 8;
	uint64_t nth = w->chunks.total;

	if (vs_chunkmap_add(&w->chunks, index, err) < 0)
		return -1;
	if (w->d->sinks[0].readable)
		return 0;
	if (nth == w->bitmap2_cap) {
		uint64_t cap = w->bitmap2_cap ? 2 * w->bitmap2_cap : 64;
		uint8_t *p = realloc(w->bitmap2_mem, cap * bytes);

		if (!p)
			return vs_err_oom(err, "out of memory for the bitmap");
		w->bitmap2_mem = p;
		w->bitmap2_cap = cap;
	}
	memcpy(w->bitmap2_mem + nth * bytes, bits2, bytes);
	return 0;
}

static int select_consume(void *arg, uint64_t index, void *slot,
			  struct vs_error *err)
{
	struct kd_writer *w = arg;
	struct select_slot *s = slot;
	uint64_t off = index * (VS_SELECT_PFNS / 8);
	uint64_t len = w->lay.bitmap_len - off, dumpable;

	if (vs_check_cancel(w->d, err) < 0)
		return -1;
	if (len > VS_SELECT_PFNS / 8)
		len = VS_SELECT_PFNS / 8;
	if (w->split_hist)
		count_splitblocks(w, index * VS_SELECT_PFNS, s->bits2);
	if (w->vm)
		vs_vmemmap_note(w->vm, index * VS_SELECT_PFNS, VS_SELECT_PFNS,
				s->bits1, s->bits2);
	w->d->present += vs_bits_count(s->bits1, VS_SELECT_PFNS / 64);
	dumpable = vs_bits_count(s->bits2, VS_SELECT_PFNS / 64);
	w->ndumpable += dumpable;
	/* From here on the words hold the file's bytes. */
	vs_bits_le(s->bits1, VS_SELECT_PFNS / 64);
	vs_bits_le(s->bits2, VS_SELECT_PFNS / 64);
	if (dumpable && list_chunk(w, index, s->bits2, err) < 0)
		return -1;
	/* Every file of a split set carries both bitmaps whole; a chunk
	 * of zeros is a hole of a sparse file. */
	for (unsigned i = 0; i < w->nouts; i++)
		if (vs_sink_write_sparse(w->outs[i].sink, s->bits1, len,
					 w->lay.bitmap1_off + off, err) < 0 ||
		    vs_sink_write_sparse(w->outs[i].sink, s->bits2, len,
					 w->lay.bitmap2_off + off, err) < 0)
			return -1;
	return 0;
}

/* Zero-fill any bitmap bytes past the last chunk: a block bigger than a
 * chunk's VS_SELECT_PFNS / 8 bytes of bitmap (pages over 4 KiB). */
static int pad_bitmaps(struct kd_writer *w, uint64_t nchunks,
		       struct vs_error *err)
{
	uint64_t covered = nchunks * (VS_SELECT_PFNS / 8);
	uint8_t *zeros;
	int ret = 0;

	if (covered >= w->lay.bitmap_len)
		return 0;
	zeros = calloc(1, w->lay.bitmap_len - covered);
	if (!zeros)
		return vs_err_oom(err, "out of memory");
	for (unsigned i = 0; i < w->nouts && ret == 0; i++)
		if (vs_sink_write_sparse(w->outs[i].sink, zeros,
					 w->lay.bitmap_len - covered,
					 w->lay.bitmap1_off + covered, err) < 0 ||
		    vs_sink_write_sparse(w->outs[i].sink, zeros,
					 w->lay.bitmap_len - covered,
					 w->lay.bitmap2_off + covered, err) < 0)
			ret = -1;
	free(zeros);
	return ret;
}

static int run_select(struct kd_writer *w, struct vs_error *err)
{
	struct vs_dump *d = w->d;
	uint64_t njobs = vs_div_round_up(d->max_mapnr, VS_SELECT_PFNS);
	unsigned nslots = 2 * d->nworkers;
	struct select_slot *slots = calloc(nslots, sizeof(*slots));
	static const struct vs_pipeline_ops ops = {
		.work = select_work, .consume = select_consume,
	};
	int ret = -1;

	if (!slots)
		return vs_err_oom(err, "out of memory");
	if (vs_dump_run(d, &ops, w, slots, sizeof(*slots), nslots, njobs,
			err) == 0)
		ret = pad_bitmaps(w, njobs, err);
	free(slots);
	return ret;
}

/* --- -e: unused struct pages ------------------------------------------ */

/* Clear pfns [PFN, END) of one selection chunk from bitmap2 in every
 * file (and in memory), taking them off the dumpable count and the split
 * histogram.  A chunk the select phase did not list has none set. */
static int clear_in_chunk(struct kd_writer *w, uint64_t pfn, uint64_t end,
			  struct vs_error *err)
{
	int64_t nth = vs_chunkmap_find(&w->chunks, pfn / VS_SELECT_PFNS);
	uint64_t off = pfn / 8, len = (end - 1) / 8 + 1 - off;
	uint8_t buf[VS_SELECT_PFNS / 8], *mem = NULL;

	if (nth < 0)
		return 0;
	if (w->bitmap2_mem) {
		mem = w->bitmap2_mem + (uint64_t)nth * (VS_SELECT_PFNS / 8) +
		      off % (VS_SELECT_PFNS / 8);
		memcpy(buf, mem, len);
	} else if (vs_sink_read(w->outs[0].sink, buf, len,
				w->lay.bitmap2_off + off, err) < 0) {
		return -1;
	}
	for (uint64_t p = pfn; p < end; p++) {
		uint8_t bit = (uint8_t)(1u << (p % 8));

		if (!(buf[p / 8 - off] & bit))
			continue;
		buf[p / 8 - off] &= (uint8_t)~bit;
		w->ndumpable--;
		if (w->split_hist)
			w->split_hist[p / w->d->split_pfns]--;
	}
	if (mem)
		memcpy(mem, buf, len);
	for (unsigned i = 0; i < w->nouts; i++)
		if (vs_sink_write(w->outs[i].sink, buf, len,
				  w->lay.bitmap2_off + off, err) < 0)
			return -1;
	return 0;
}

/* Clear pfns [PFN, PFN + N) from bitmap2, a selection chunk at a time. */
static int clear_vmemmap_pages(void *arg, uint64_t pfn, uint64_t n,
			       struct vs_error *err)
{
	struct kd_writer *w = arg;
	uint64_t end = pfn + n < w->d->max_mapnr ? pfn + n : w->d->max_mapnr;

	while (pfn < end) {
		uint64_t stop = (pfn / VS_SELECT_PFNS + 1) * VS_SELECT_PFNS;

		if (stop > end)
			stop = end;
		if (clear_in_chunk(w, pfn, stop, err) < 0)
			return -1;
		pfn = stop;
	}
	return 0;
}

/* After selection, with every run known: leave the pages out. */
static int exclude_vmemmap(struct kd_writer *w, struct vs_error *err)
{
	uint64_t before = w->ndumpable, nr;

	if (vs_vmemmap_each(w->vm, &w->d->workers[0]->reader,
			    clear_vmemmap_pages, w, &nr, err) < 0)
		return vs_err_ctx(err, "cannot leave out unused struct pages");
	w->d->vmemmap = before - w->ndumpable;
	return 0;
}

/* --- copy phase -------------------------------------------------------- */

/* Copy job INDEX: the first pfn of its piece of a listed chunk (a
 * chunk is a whole number of copy chunks); *NTH = the chunk's place in
 * the list. */
static uint64_t copy_start(const struct kd_writer *w, uint64_t index,
			   uint64_t *nth)
{
	uint64_t per = VS_SELECT_PFNS / w->copy_pfns;

	*nth = index / per;
	return vs_chunkmap_nth(&w->chunks, *nth) * VS_SELECT_PFNS +
	       (index % per) * w->copy_pfns;
}

static int load_bits(struct kd_writer *w, uint64_t start, uint64_t nth,
		     uint64_t n, uint64_t *bits, struct vs_error *err)
{
	if (w->bitmap2_mem)
		memcpy(bits, w->bitmap2_mem + nth * (VS_SELECT_PFNS / 8) +
		       start % VS_SELECT_PFNS / 8, n / 8);
	else if (vs_sink_read(w->outs[0].sink, bits, n / 8,
			      w->lay.bitmap2_off + start / 8, err) < 0)
		return -1;
	vs_bits_le(bits, n / 64);
	return 0;
}

/* Compress the page, timed (vmsift_rates' codec phase): two clock
 * reads (vDSO) against the microseconds a page's compression takes. */
static void store_page(const struct vs_dump *d, struct vs_worker *wk,
		       const uint8_t *page, struct copy_slot *s,
		       struct page_rec *rec)
{
	uint64_t ps = d->in->page_size;
	uint8_t *dst = s->data + s->data_len;
	size_t n = 0;

	rec->zero = 0;
	rec->flags = 0;
	if (d->codec) {
		double t = vs_now();

		n = d->codec->compress(wk->codec_ctx, page, ps, dst, 2 * ps);
		wk->rates.codec_wall += vs_now() - t;
		wk->rates.codec_in += ps;
		wk->rates.codec_out += n ? n : ps;
	}
	if (n) {
		rec->flags = d->codec->flag;
	} else {
		memcpy(dst, page, ps);
		n = ps;
	}
	rec->size = (uint32_t)n;
	s->data_len += n;
}

/* The split file that stores PFN (the outputs cover [0, max_mapnr) in
 * order). */
static unsigned part_of(const struct kd_writer *w, uint64_t pfn)
{
	unsigned lo = 0, hi = w->nouts - 1;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (pfn >= w->outs[mid].end)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int copy_pages(const struct vs_dump *d, struct vs_worker *wk,
		      struct kd_writer *w, struct copy_slot *s, uint64_t start,
		      uint64_t n, int zero_level, struct vs_error *err);

/* The hot loop: every dumpable page passes here once. */
static int copy_work(void *worker, uint64_t index, void *slot,
		     struct vs_error *err)
{
	struct vs_worker *wk = worker;
	const struct vs_dump *d = wk->d;
	struct kd_writer *w = wk->writer;
	struct copy_slot *s = slot;
	uint64_t nth, start = copy_start(w, index, &nth);
	uint64_t n = chunk_pfns(w, start, w->copy_pfns);
	int zero_level = d->level & VMSIFT_DL_ZERO;
	double t0 = vs_now(), c0 = wk->rates.codec_wall;
	double cpu0 = vs_thread_cpu();
	int ret;

	s->npages = 0;
	s->data_len = 0;
	if (n && load_bits(w, start, nth, n, s->bits, err) < 0)
		return -1;
	ret = copy_pages(d, wk, w, s, start, n, zero_level, err);
	/* outside the codec: reading the pages and the zero test */
	vs_work_rates_job(&wk->rates, vs_now() - t0, vs_thread_cpu() - cpu0,
			  wk->rates.codec_wall - c0);
	return ret;
}

static int copy_pages(const struct vs_dump *d, struct vs_worker *wk,
		      struct kd_writer *w, struct copy_slot *s, uint64_t start,
		      uint64_t n, int zero_level, struct vs_error *err)
{
	vs_reader_chunk(&wk->reader);
	for (uint64_t i = 0; i < n; i++) {
		struct page_rec *rec = &s->recs[s->npages];
		const uint8_t *page;

		if (!vs_bit_test(s->bits, i))
			continue;
		vs_reader_kept(&wk->reader, s->bits, i, n);
		if (vs_read_page(&wk->reader, start + i, &page, err) < 0)
			return vs_err_ctx(err, "pfn 0x%llx",
					  (unsigned long long)(start + i));
		s->npages++;
		rec->pfn = start + i;
		/* Erased before the zero test, as makedumpfile does. */
		if (d->erase)
			page = vs_erase_page(d->erase, part_of(w, start + i),
					     start + i, page, wk->erase_page);
		wk->rates.zero_bytes += zero_level ? d->in->page_size : 0;
		if (zero_level && vs_is_zero(page, d->in->page_size)) {
			rec->zero = 1;
			rec->size = (uint32_t)d->in->page_size;
			rec->flags = 0;
			continue;
		}
		store_page(d, wk, page, s, rec);
	}
	return 0;
}

static int flush_data(struct kd_out *o, struct vs_error *err)
{
	uint64_t off = o->data_next - o->data_len;

	if (vs_sink_write(o->sink, o->data, o->data_len, off, err) < 0)
		return -1;
	o->data_written = o->data_next;
	o->data_len = 0;
	return 0;
}

/* Descriptors go out only after the data they point to.  A split file's
 * descriptors start at the table's start: readers count from its
 * start_pfn. */
static int flush_desc(struct kd_writer *w, struct kd_out *o,
		      struct vs_error *err)
{
	if (flush_data(o, err) < 0)
		return -1;
	if (vs_sink_write(o->sink, o->desc, o->ndesc * sizeof(*o->desc),
			  w->lay.desc_off + o->desc_done * sizeof(*o->desc),
			  err) < 0)
		return -1;
	o->desc_done += o->ndesc;
	o->ndesc = 0;
	return 0;
}

static int add_page(struct kd_writer *w, struct kd_out *o,
		    const struct page_rec *rec, const uint8_t *data,
		    struct vs_error *err)
{
	struct kdump_page_desc *pd = &o->desc[o->ndesc++];

	if (rec->zero) {
		pd->offset = (int64_t)o->zero_off;
		pd->size = rec->size;
		pd->flags = 0;
	} else {
		if (o->data_len + rec->size > DATA_BUF && flush_data(o, err) < 0)
			return -1;
		memcpy(o->data + o->data_len, data, rec->size);
		o->data_len += rec->size;
		pd->offset = (int64_t)o->data_next;
		pd->size = rec->size;
		pd->flags = rec->flags;
		o->data_next += rec->size;
	}
	pd->page_flags = 0;
	/* Descriptors are kept in the file's order: only written. */
	kdump_page_desc_order(&w->d->in->order, pd);
	if (o->ndesc == DESC_BUF)
		return flush_desc(w, o, err);
	return 0;
}

/* The output that holds PFN: outputs cover [0, max_mapnr) in order. */
static struct kd_out *out_of(struct kd_writer *w, uint64_t pfn)
{
	while (w->cur + 1 < w->nouts && pfn >= w->outs[w->cur].end)
		w->cur++;
	return &w->outs[w->cur];
}

static int copy_consume(void *arg, uint64_t index, void *slot,
			struct vs_error *err)
{
	struct kd_writer *w = arg;
	struct vs_dump *d = w->d;
	const struct copy_slot *s = slot;
	const uint8_t *data = s->data;

	if (vs_check_cancel(d, err) < 0)
		return -1;
	for (uint32_t i = 0; i < s->npages; i++) {
		const struct page_rec *rec = &s->recs[i];

		if (add_page(w, out_of(w, rec->pfn), rec, data, err) < 0)
			return -1;
		if (rec->zero) {
			d->zero++;
		} else {
			data += rec->size;
			d->dumped++;
		}
	}
	/* Progress through the listed chunks: holes take no time. */
	d->done = (index + 1) * w->copy_pfns;
	vs_report_progress(d, d->done, w->chunks.total * VS_SELECT_PFNS);
	return 0;
}

static void free_copy_slots(struct copy_slot *slots, unsigned n)
{
	for (unsigned i = 0; slots && i < n; i++) {
		free(slots[i].recs);
		free(slots[i].data);
	}
	free(slots);
}

static struct copy_slot *alloc_copy_slots(const struct kd_writer *w,
					  unsigned n)
{
	uint64_t ps = w->d->in->page_size;
	struct copy_slot *slots = calloc(n, sizeof(*slots));

	for (unsigned i = 0; slots && i < n; i++) {
		slots[i].recs = calloc(w->copy_pfns, sizeof(*slots[i].recs));
		/* Room for every page raw, plus one compressor's overshoot. */
		slots[i].data = malloc(w->copy_pfns * ps + 2 * ps);
		if (!slots[i].recs || !slots[i].data) {
			free_copy_slots(slots, n);
			return NULL;
		}
	}
	return slots;
}

/* Each file's data starts after the whole dump's descriptor table; with
 * -d 1 the shared zero page comes first. */
static int write_zero_pages(struct kd_writer *w, struct vs_error *err)
{
	uint8_t *zero = calloc(1, w->lay.bs);
	int ret = 0;

	if (!zero)
		return vs_err_oom(err, "out of memory");
	for (unsigned i = 0; i < w->nouts && ret == 0; i++) {
		struct kd_out *o = &w->outs[i];

		o->zero_off = w->lay.data_off;
		o->data_next = w->lay.data_off;
		if (w->d->level & VMSIFT_DL_ZERO) {
			ret = vs_sink_write(o->sink, zero, w->lay.bs,
					    o->zero_off, err);
			o->data_next += w->lay.bs;
		}
		o->data_written = o->data_next;
	}
	free(zero);
	return ret;
}

/* Copy chunks in flight beyond two a worker.  Results are consumed in
 * job order, so a worker that finishes ahead of a slow chunk (random
 * pages among zero ones) waits for a free slot: with two slots a worker,
 * 2 threads at zlib or zstd -d 1 waited on 12-17% of the chunks, with four
 * more slots 2-5% (doc/performance.md, "Two threads").  A fixed number,
 * so that memory stays 1 MiB a slot more, not more a thread. */
#define COPY_SLACK 4

static int run_copy(struct kd_writer *w, struct vs_error *err)
{
	struct vs_dump *d = w->d;
	uint64_t njobs = w->chunks.total * (VS_SELECT_PFNS / w->copy_pfns);
	unsigned nslots = 2 * d->nworkers + COPY_SLACK;
	struct copy_slot *slots = alloc_copy_slots(w, nslots);
	static const struct vs_pipeline_ops ops = {
		.work = copy_work, .consume = copy_consume,
	};
	int ret = -1;

	if (!slots)
		return vs_err_oom(err, "out of memory");
	if (write_zero_pages(w, err) < 0 ||
	    vs_dump_run(d, &ops, w, slots, sizeof(*slots), nslots, njobs,
			err) < 0)
		goto out;
	ret = 0;
	for (unsigned i = 0; i < w->nouts && ret == 0; i++)
		ret = flush_desc(w, &w->outs[i], err);
out:
	free_copy_slots(slots, nslots);
	return ret;
}

/* After a failure: keep every descriptor whose data reached its file,
 * and leave the headers' incomplete flag set. */
static void salvage(struct kd_writer *w)
{
	struct vs_error ignored;

	for (unsigned i = 0; i < w->nouts; i++) {
		struct kd_out *o = &w->outs[i];
		size_t keep = 0;

		while (keep < o->ndesc) {
			struct kdump_page_desc pd = o->desc[keep];

			kdump_page_desc_order(&w->d->in->order, &pd);
			if ((uint64_t)pd.offset + pd.size > o->data_written)
				break;
			keep++;
		}
		o->ndesc = keep;
		o->data_len = 0;
		vs_sink_write(o->sink, o->desc, keep * sizeof(*o->desc),
			      w->lay.desc_off + o->desc_done * sizeof(*o->desc),
			      &ignored);
	}
}

/* Split ranges as makedumpfile draws them: each file takes whole
 * splitblocks until it holds num_dumpable / N pages; the last the rest. */
static void plan_split(struct kd_writer *w)
{
	uint64_t sb = w->d->split_pfns, need = w->ndumpable / w->nouts;
	uint64_t pfn = 0, block = 0;

	for (unsigned i = 0; i < w->nouts; i++) {
		uint64_t got = 0;

		w->outs[i].start = pfn;
		if (i + 1 == w->nouts) {
			pfn = w->d->max_mapnr;
		} else {
			while (got < need && pfn < w->d->max_mapnr) {
				got += w->split_hist[block++];
				pfn += sb;
			}
			if (pfn > w->d->max_mapnr)
				pfn = w->d->max_mapnr;
		}
		w->outs[i].end = pfn;
	}
}

static int write_sub_headers(struct kd_writer *w, struct vs_error *err)
{
	for (unsigned i = 0; i < w->nouts; i++)
		if (write_sub_header(w, &w->outs[i], err) < 0)
			return -1;
	return 0;
}

/* --config: each file's eraseinfo text after its page data, and its sub
 * header rewritten to point to it (makedumpfile's order). */
static int write_eraseinfo(struct kd_writer *w, struct vs_error *err)
{
	for (unsigned i = 0; w->d->erase && i < w->nouts; i++) {
		struct kd_out *o = &w->outs[i];
		size_t n = vs_erase_text(w->d->erase, i, NULL, 0);
		char *text;
		int ret;

		if (!n)
			continue;
		text = malloc(n);
		if (!text)
			return vs_err_oom(err, "out of memory");
		vs_erase_text(w->d->erase, i, text, n);
		ret = vs_sink_write(o->sink, text, n, o->data_next, err);
		free(text);
		if (ret < 0)
			return -1;
		o->erase_off = o->data_next;
		o->erase_size = n;
		o->data_next += n;
		if (write_sub_header(w, o, err) < 0)
			return -1;
	}
	return 0;
}

static int write_all(struct kd_writer *w, struct vs_error *err)
{
	double t, cpu;

	plan_layout(w);
	fill_header(w);
	if (write_headers(w, err) < 0)
		return -1;
	t = vs_now();
	cpu = vs_process_cpu();
	if (run_select(w, err) < 0)
		return -1;
	if (w->vm && exclude_vmemmap(w, err) < 0)
		return -1;
	w->d->select_seconds = vs_now() - t;
	w->d->select_cpu = vs_process_cpu() - cpu;
	if (w->nouts > 1)
		plan_split(w);
	else
		w->outs[0].end = w->d->max_mapnr;
	/* Split files learn their range only now: sub headers come last. */
	if (write_sub_headers(w, err) < 0)
		return -1;
	w->lay.data_off = w->lay.desc_off +
			  w->ndumpable * sizeof(struct kdump_page_desc);
	w->copying = 1;
	t = vs_now();
	if (run_copy(w, err) < 0) {
		salvage(w);
		return -1;
	}
	w->d->copy_seconds = vs_now() - t;
	if (write_eraseinfo(w, err) < 0)
		return -1;
	w->hdr.status &= ~KDUMP_INCOMPLETE;
	return write_headers(w, err);
}

static void free_outs(struct kd_writer *w)
{
	for (unsigned i = 0; w->outs && i < w->nouts; i++) {
		free(w->outs[i].desc);
		free(w->outs[i].data);
	}
	free(w->outs);
}

static int new_outs(struct kd_writer *w, struct vs_error *err)
{
	struct vs_dump *d = w->d;

	w->nouts = d->nsinks;
	w->outs = calloc(w->nouts, sizeof(*w->outs));
	if (!w->outs)
		return vs_err_oom(err, "out of memory");
	for (unsigned i = 0; i < w->nouts; i++) {
		w->outs[i].sink = &d->sinks[i];
		w->outs[i].desc = calloc(DESC_BUF, sizeof(*w->outs[i].desc));
		w->outs[i].data = malloc(DATA_BUF);
		if (!w->outs[i].desc || !w->outs[i].data)
			return vs_err_oom(err, "out of memory");
	}
	if (w->nouts > 1) {
		w->nr_splitblocks = vs_div_round_up(d->max_mapnr, d->split_pfns) + 1;
		w->split_hist = calloc(w->nr_splitblocks, sizeof(*w->split_hist));
		if (!w->split_hist)
			return vs_err_oom(err, "out of memory for the "
					  "splitblock table");
	}
	return 0;
}

static int kdump_write(struct vs_dump *d, struct vs_error *err)
{
	struct kd_writer w = { .d = d };
	int ret = -1;

	w.copy_pfns = vs_round_up((1u << 20) / d->in->page_size, 64);
	if (new_outs(&w, err) < 0)
		goto out;
	if (d->opts->exclude_vmemmap &&
	    vs_vmemmap_new(&w.vm, d->filter, d->in, d->max_mapnr,
			   &d->workers[0]->reader, err) < 0)
		goto out;
	for (unsigned i = 0; i < d->nworkers; i++)
		d->workers[i]->writer = &w;
	ret = write_all(&w, err);
	/* Cut short after the bitmaps: a readable dump of what it holds.
	 * Before them there is no dump to speak of. */
	if (ret < 0)
		d->incomplete = w.copying;
out:
	vs_vmemmap_free(w.vm);
	free(w.split_hist);
	free(w.bitmap2_mem);
	vs_chunkmap_free(&w.chunks);
	free_outs(&w);
	return ret;
}

const struct vs_writer_ops vs_kdump_writer = {
	.name = "kdump",
	.format = VMSIFT_FORMAT_KDUMP,
	.splits = 1,
	.write = kdump_write,
};
