// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * estimate.c - --mem-usage's counts and dump sizes (see estimate.h).
 */
#include <stdlib.h>
#include <string.h>

#include "bitops.h"
#include "estimate.h"
#include "kdump_format.h"
#include "util.h"
#include "writer.h"

#define WORDS (VS_SELECT_PFNS / 64)

/* Sampled pages per job of the passes over the sample. */
#define EST_BATCH 128

/* The codec every sampled page is compressed with, the reference of the
 * ratio estimate below. */
#define EST_REF (VMSIFT_CODEC_LZO - VMSIFT_CODEC_ZLIB)

/* Of the pages compressed, one in EST_EVERY[c] is compressed with codec
 * c too.  zlib and zstd take 5 to 10 times lzo's time on a page (perf on
 * qemu-256M: 43% of --mem-usage's CPU at 1 in 1, lzo and snappy 6%;
 * at 1 in 4 and snappy 1 in 1 the codecs were still 63% of it on
 * kdump-384M): their mean is lzo's over every page times the ratio of
 * their sizes to lzo's over their own pages, which follows a page's
 * compressibility as lzo's size does.  At 1 in 8, snappy 1 in 4, the
 * worst error over 8 phases of every carried vmcore is 5.0%, 4.1% at 1
 * in 4 and 1 (doc/mem-usage.md). */
static const unsigned est_every[VS_NR_CODECS] = {
	[VMSIFT_CODEC_ZLIB - VMSIFT_CODEC_ZLIB] = 8,
	[VMSIFT_CODEC_LZO - VMSIFT_CODEC_ZLIB] = 1,
	[VMSIFT_CODEC_SNAPPY - VMSIFT_CODEC_ZLIB] = 4,
	[VMSIFT_CODEC_ZSTD - VMSIFT_CODEC_ZLIB] = 8,
};

/* One worker's codec contexts and output buffer. */
struct est_worker {
	const struct vs_codec_ops *codec[VS_NR_CODECS];
	void *ctx[VS_NR_CODECS];
	uint8_t *buf;
};

/* The first pass: one chunk's bitmaps and counts. */
struct est_slot {
	uint64_t bits1[WORDS];
	uint64_t bits2[2][WORDS];    /* level 1, level 31 */
	uint64_t zbits[WORDS];       /* kept at 31 and filled with zero */
	uint64_t zero;
};

/* The second pass: what one batch of sampled pages takes. */
struct est_sums {
	uint64_t read[2], zero[2], compressed[2];
	uint64_t stored[2][VS_NR_CODECS];
	uint64_t ref[2][VS_NR_CODECS];  /* the reference's size of the same
					   pages */
};

struct est_run {
	struct vs_dump *d;
	struct vs_estimate *e;
};

static void free_est_worker(struct est_worker *w)
{
	if (!w)
		return;
	for (unsigned c = 0; c < VS_NR_CODECS; c++)
		if (w->ctx[c])
			w->codec[c]->ctx_free(w->ctx[c]);
	free(w->buf);
	free(w);
}

static struct est_worker *new_est_worker(const struct vs_dump *d)
{
	struct est_worker *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->buf = malloc(2 * d->in->page_size);
	if (!w->buf)
		goto fail;
	for (unsigned c = 0; c < VS_NR_CODECS; c++) {
		w->codec[c] = vs_codec_get((enum vmsift_codec)(VMSIFT_CODEC_ZLIB + c));
		if (!w->codec[c])
			goto fail;
		w->ctx[c] = w->codec[c]->ctx_new(d->opts->codec_level);
		if (!w->ctx[c])
			goto fail;
	}
	return w;
fail:
	free_est_worker(w);
	return NULL;
}

/* What PAGE takes in the file with codec C: a page a codec cannot
 * shrink is stored whole. */
static uint64_t stored_size(const struct vs_dump *d, struct est_worker *w,
			    unsigned c, const uint8_t *page)
{
	uint64_t ps = d->in->page_size;
	size_t n = w->codec[c]->compress(w->ctx[c], page, ps, w->buf, 2 * ps);

	return n ? n : ps;
}

/* The Ith page compressed: with the reference codec, and with each
 * other codec C whose turn it is (est_every), adding its size to
 * STORED[C] and the reference's to REF[C]. */
static void compress_page(const struct vs_dump *d, struct est_worker *w,
			  const uint8_t *page, uint64_t i, uint64_t *stored,
			  uint64_t *ref)
{
	uint64_t r = stored_size(d, w, EST_REF, page);

	for (unsigned c = 0; c < VS_NR_CODECS; c++) {
		if (i % est_every[c])
			continue;
		stored[c] += c == EST_REF ? r : stored_size(d, w, c, page);
		ref[c] += r;
	}
}

/* Bitmaps of the chunk at START: [0] level 1 (the data, no page-type
 * filter), [1] level 31 (the same, filtered): one selection for both. */
static int select_both(const struct vs_dump *d, struct vs_worker *wk,
		       uint64_t start, struct est_slot *s,
		       struct vs_error *err)
{
	struct vs_dump d1 = *d;
	uint64_t n = VS_SELECT_PFNS;

	d1.filter = NULL;
	if (vs_select_chunk(&d1, wk, start, n, s->bits1, s->bits2[0], err) < 0)
		return -1;
	memcpy(s->bits2[1], s->bits2[0], sizeof(s->bits2[1]));
	if (start + n > d->max_mapnr)
		n = vs_round_up(d->max_mapnr - start, 64);
	if (d->filter &&
	    vs_filter_chunk(d->filter, &wk->reader, start, n, s->bits2[1],
			    &wk->counts, err) < 0)
		return vs_err_ctx(err, "cannot filter pfns 0x%llx-0x%llx",
				  (unsigned long long)start,
				  (unsigned long long)(start + n - 1));
	return 0;
}

/* With an exact ZERO row, every page kept at 31: read once, its zero
 * test in zbits.  Otherwise nothing: the zero pages are estimated from
 * the sample (zbits stays empty). */
static int find_zeros(struct vs_worker *wk, uint64_t start,
		      struct est_slot *s, struct vs_error *err)
{
	uint64_t ps = wk->d->in->page_size;

	memset(s->zbits, 0, sizeof(s->zbits));
	s->zero = 0;
	if (!wk->d->estimate->exact_zero)
		return 0;
	for (unsigned i = 0; i < WORDS; i++) {
		for (uint64_t w = s->bits2[1][i]; w; w &= w - 1) {
			uint64_t pfn = start + i * 64 +
				       (uint64_t)__builtin_ctzll(w);
			const uint8_t *page;

			if (vs_read_page(&wk->reader, pfn, &page, err) < 0)
				return vs_err_ctx(err, "pfn 0x%llx",
						  (unsigned long long)pfn);
			if (vs_is_zero(page, ps)) {
				vs_bit_set(s->zbits, pfn - start);
				s->zero++;
			}
		}
	}
	return 0;
}

static int select_work(void *worker, uint64_t index, void *slot,
		       struct vs_error *err)
{
	struct vs_worker *wk = worker;
	uint64_t start = index * VS_SELECT_PFNS;

	if (select_both(wk->d, wk, start, slot, err) < 0)
		return -1;
	return find_zeros(wk, start, slot, err);
}

/* In pfn order: the counts, and each part's pages offered to its
 * sample. */
static int select_consume(void *arg, uint64_t index, void *slot,
			  struct vs_error *err)
{
	struct est_run *r = arg;
	struct vs_estimate *e = r->e;
	const struct est_slot *s = slot;
	uint64_t start = index * VS_SELECT_PFNS;

	if (vs_check_cancel(r->d, err) < 0)
		return -1;
	r->d->present += vs_bits_count(s->bits1, WORDS);
	e->zero += s->zero;
	e->lv[0].kept += vs_bits_count(s->bits2[0], WORDS);
	e->lv[1].kept += vs_bits_count(s->bits2[1], WORDS);
	for (unsigned i = 0; i < WORDS; i++) {
		uint64_t nz31 = s->bits2[1][i] & ~s->zbits[i];
		uint64_t only1 = s->bits2[0][i] & ~s->bits2[1][i];

		if (nz31)
			vs_sample_word(&e->part[0].sample, start + i * 64, nz31);
		if (only1)
			vs_sample_word(&e->part[1].sample, start + i * 64, only1);
	}
	return 0;
}

/* The items of a pass: every sampled page (AGAIN 0), or the pages of
 * the second part picked after their zero test (AGAIN 1). */
static uint64_t pass_len(const struct vs_estimate *e, int again)
{
	return again ? e->npicked : e->nitems;
}

/* One batch of a pass.  The first reads every sampled page once, tests
 * it for zeros and compresses the first part's non-zero pages (all of
 * them are compressed); the second reads again only the second part's
 * pages that pick() chose among its non-zero ones, and compresses them. */
static int batch_work(struct vs_worker *wk, uint64_t index,
		      struct est_sums *s, int again, struct vs_error *err)
{
	const struct vs_dump *d = wk->d;
	const struct vs_estimate *e = d->estimate;
	uint64_t end = (index + 1) * EST_BATCH, n = pass_len(e, again);

	memset(s, 0, sizeof(*s));
	for (uint64_t i = index * EST_BATCH; i < end && i < n; i++) {
		struct vs_est_item *it = &e->items[again ? e->picked[i] : i];
		const uint8_t *page;

		if (vs_read_page(&wk->reader, it->pfn, &page, err) < 0)
			return vs_err_ctx(err, "pfn 0x%llx",
					  (unsigned long long)it->pfn);
		if (!again) {
			s->read[it->part]++;
			it->zero = vs_is_zero(page, d->in->page_size);
			s->zero[it->part] += it->zero;
		}
		if (it->picked && !it->zero) {
			s->compressed[it->part]++;
			compress_page(d, wk->writer, page, i, s->stored[it->part],
				      s->ref[it->part]);
		}
	}
	return 0;
}

static int first_work(void *worker, uint64_t index, void *slot,
		      struct vs_error *err)
{
	return batch_work(worker, index, slot, 0, err);
}

static int again_work(void *worker, uint64_t index, void *slot,
		      struct vs_error *err)
{
	return batch_work(worker, index, slot, 1, err);
}

static int batch_consume(void *arg, uint64_t index, void *slot,
			 struct vs_error *err)
{
	struct est_run *r = arg;
	const struct est_sums *s = slot;

	(void)index;
	if (vs_check_cancel(r->d, err) < 0)
		return -1;
	for (unsigned p = 0; p < 2; p++) {
		struct vs_est_part *part = &r->e->part[p];

		part->tested += s->read[p];
		part->zero += s->zero[p];
		part->compressed += s->compressed[p];
		r->e->sampled += s->compressed[p];
		for (unsigned c = 0; c < VS_NR_CODECS; c++) {
			part->stored[c] += s->stored[p][c];
			part->ref[c] += s->ref[p][c];
		}
	}
	return 0;
}

/* Both samples, trimmed to CAP and VS_EST_TEST_FACTOR * CAP pages, as
 * one list: the pages kept at 31 (each compressed unless filled with
 * zero), then the pages only level 1 keeps (picked later, pick()). */
static int gather(struct vs_estimate *e, size_t cap, struct vs_error *err)
{
	uint64_t n;

	vs_sample_trim(&e->part[0].sample, cap);
	vs_sample_trim(&e->part[1].sample, VS_EST_TEST_FACTOR * cap);
	n = e->part[0].sample.n + e->part[1].sample.n;
	e->items = calloc(n ? n : 1, sizeof(*e->items));
	e->picked = calloc(n ? n : 1, sizeof(*e->picked));
	if (!e->items || !e->picked)
		return vs_err_oom(err, "out of memory");
	for (unsigned p = 0; p < 2; p++)
		for (size_t i = 0; i < e->part[p].sample.n; i++)
			e->items[e->nitems++] = (struct vs_est_item){
				.pfn = e->part[p].sample.items[i].pfn,
				.part = p,
				.picked = !p,
			};
	return 0;
}

/* Of the second sample's non-zero pages (VS_EST_TEST_FACTOR times CAP
 * were tested), exactly CAP (all when fewer) to be compressed, a simple
 * random sample of them drawn from the phase (vs_sample_take()): a
 * level 1 of mostly zero free pages still gets its CAP.  Not evenly
 * spread: the non-zero pages of a systematic sample can alternate
 * (qemu-256M: the 1024 taken every 2.17th of 2217 had an lzo mean 10%
 * under that of all 2217, which was within 1% of every page's;
 * doc/mem-usage.md). */
static void pick(struct vs_estimate *e, size_t cap)
{
	uint64_t n0 = e->part[0].sample.n, nz = 0, want, state = e->seed;

	for (uint64_t i = n0; i < e->nitems; i++)
		nz += !e->items[i].zero;
	want = nz < cap ? nz : cap;
	for (uint64_t i = n0; i < e->nitems && want; i++) {
		if (e->items[i].zero)
			continue;
		if (!vs_sample_take(&state, nz--, want))
			continue;
		e->items[i].picked = 1;
		e->picked[e->npicked++] = i;
		want--;
	}
}

/* The mean stored size of a part's non-zero pages with codec C: the
 * reference's mean over them all, times C's size over the reference's
 * on the pages C compressed (1 for the reference itself). */
static double part_mean(const struct vs_est_part *p, unsigned c)
{
	double ref;

	if (!p->compressed || !p->ref[c])
		return 0;
	ref = (double)p->stored[EST_REF] / (double)p->compressed;
	return ref * (double)p->stored[c] / (double)p->ref[c];
}

/* The zero pages kept at 31, when not counted: their sampled fraction
 * of the pages kept at 31. */
static uint64_t zero_estimate(const struct vs_estimate *e)
{
	const struct vs_est_part *p = &e->part[0];

	if (!p->tested)
		return 0;
	return (uint64_t)((double)e->lv[1].kept * (double)p->zero /
			  (double)p->tested + 0.5);
}

static void finish(const struct vs_dump *d, struct vs_estimate *e)
{
	uint64_t always = 0, nz31;
	struct vs_est_part *only1 = &e->part[1];
	double nz1;

	if (!e->exact_zero)
		e->zero = zero_estimate(e);
	nz31 = e->lv[1].kept - e->zero;

	for (unsigned i = 0; i < d->nworkers; i++)
		always += d->workers[i]->counts.hwpoison +
			  d->workers[i]->counts.offline;
	only1->pages = e->lv[0].kept - e->lv[1].kept;
	only1->pages -= always < only1->pages ? always : only1->pages;
	e->part[0].pages = nz31;
	/* of the pages only level 1 keeps, the non-zero ones, as sampled */
	nz1 = only1->tested ? (double)only1->pages *
			      (double)(only1->tested - only1->zero) /
			      (double)only1->tested : 0;
	e->lv[0].level = 1;
	e->lv[1].level = d->level;
	e->lv[0].kept = e->lv[1].kept + only1->pages;
	for (unsigned c = 0; c < VS_NR_CODECS; c++) {
		double kept31 = (double)nz31 * part_mean(&e->part[0], c);
		double kept1 = kept31 + nz1 * part_mean(only1, c);

		e->lv[0].bytes[c] = (uint64_t)(kept1 + 0.5);
		e->lv[1].bytes[c] = (uint64_t)(kept31 + 0.5);
	}
	for (unsigned l = 0; l < 2; l++)
		for (unsigned c = 0; c < VS_NR_CODECS; c++)
			e->lv[l].bytes[c] += vs_kdump_desc_off(d) +
				e->lv[l].kept * sizeof(struct kdump_page_desc) +
				d->in->page_size;
}

static int run_pass(struct vs_dump *d, struct est_run *r,
		    const struct vs_pipeline_ops *ops, size_t slot_size,
		    uint64_t njobs, struct vs_error *err)
{
	unsigned nslots = 2 * d->nworkers;
	void *slots = calloc(nslots, slot_size);
	int ret;

	if (!slots)
		return vs_err_oom(err, "out of memory");
	ret = vs_dump_run(d, ops, r, slots, slot_size, nslots, njobs, err);
	free(slots);
	return ret;
}

static int run_passes(struct vs_dump *d, struct est_run *r, size_t cap,
		      struct vs_error *err)
{
	static const struct vs_pipeline_ops select_ops = {
		.work = select_work, .consume = select_consume,
	};
	static const struct vs_pipeline_ops first_ops = {
		.work = first_work, .consume = batch_consume,
	};
	static const struct vs_pipeline_ops again_ops = {
		.work = again_work, .consume = batch_consume,
	};
	struct vs_estimate *e = r->e;

	if (run_pass(d, r, &select_ops, sizeof(struct est_slot),
		     vs_div_round_up(d->max_mapnr, VS_SELECT_PFNS), err) < 0 ||
	    gather(e, cap, err) < 0)
		return -1;
	/* The samples are scattered: a pread per page, not a 2 MiB mapping. */
	for (unsigned i = 0; i < d->nworkers; i++)
		d->workers[i]->reader.view.sparse = 1;
	if (run_pass(d, r, &first_ops, sizeof(struct est_sums),
		     vs_div_round_up(pass_len(e, 0), EST_BATCH), err) < 0)
		return -1;
	pick(e, cap);
	if (run_pass(d, r, &again_ops, sizeof(struct est_sums),
		     vs_div_round_up(pass_len(e, 1), EST_BATCH), err) < 0)
		return -1;
	finish(d, e);
	return 0;
}

/* The default bound: VS_EST_SAMPLE_CAP pages of 4 KiB, the same bytes
 * of larger pages but at least VS_EST_SAMPLE_MIN of them (a 64 KiB page
 * is 16 times the work to test and compress). */
static size_t default_cap(const struct vs_dump *d)
{
	uint64_t cap = VS_EST_SAMPLE_CAP * 4096ull / d->in->page_size;

	return cap > VS_EST_SAMPLE_MIN ? (size_t)cap : VS_EST_SAMPLE_MIN;
}

int vs_estimate_run(struct vs_dump *d, struct vs_estimate *e,
		    struct vs_error *err)
{
	struct est_run r = { .d = d, .e = e };
	size_t cap = e->sample_cap ? e->sample_cap : default_cap(d);
	int ret = -1;

	/* /proc/kcore's ZERO row is makedumpfile's, exact. */
	e->exact_zero |= d->in->kcore;
	/* Zero tests are cheap (a pread): the second part, often mostly
	 * zero pages at level 1, is tested on a larger sample. */
	if (vs_sample_init(&e->part[0].sample, VS_EST_GATHER * cap, e->seed,
			   err) < 0 ||
	    vs_sample_init(&e->part[1].sample,
			   VS_EST_GATHER * VS_EST_TEST_FACTOR * cap, e->seed,
			   err) < 0)
		goto out;
	for (unsigned i = 0; i < d->nworkers; i++) {
		d->workers[i]->writer = new_est_worker(d);
		if (!d->workers[i]->writer) {
			vs_err_oom(err, "out of memory for the codecs");
			goto out;
		}
	}
	ret = run_passes(d, &r, cap, err);
out:
	for (unsigned i = 0; i < d->nworkers; i++) {
		free_est_worker(d->workers[i]->writer);
		d->workers[i]->writer = NULL;
	}
	for (unsigned p = 0; p < 2; p++)
		vs_sample_fini(&e->part[p].sample);
	free(e->items);
	free(e->picked);
	e->items = NULL;
	e->picked = NULL;
	return ret;
}
