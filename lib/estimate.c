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

/* One worker's codec contexts and output buffer. */
struct est_worker {
	const struct vs_codec_ops *codec[VS_NR_CODECS];
	void *ctx[VS_NR_CODECS];
	uint8_t *buf;
};

struct est_slot {
	uint64_t bits1[VS_SELECT_PFNS / 64];
	uint64_t bits2[2][VS_SELECT_PFNS / 64];  /* level 1, level 31 */
	uint64_t zero;
	struct vs_est_level lv[2];
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

/* What PAGE would take in the file with each codec, added to the levels
 * that keep it. */
static void sample_page(const struct vs_dump *d, struct est_worker *w,
			const uint8_t *page, int kept31, struct est_slot *s)
{
	uint64_t ps = d->in->page_size;
	unsigned nlv = kept31 ? 2 : 1;

	for (unsigned l = 0; l < nlv; l++)
		s->lv[l].sampled++;
	if (vs_is_zero(page, ps)) {
		for (unsigned l = 0; l < nlv; l++)
			s->lv[l].sampled_zero++;
		return;
	}
	for (unsigned c = 0; c < VS_NR_CODECS; c++) {
		size_t n = w->codec[c]->compress(w->ctx[c], page, ps, w->buf,
						 2 * ps);

		for (unsigned l = 0; l < nlv; l++)
			s->lv[l].stored[c] += n ? n : ps;
	}
}

/* Bitmaps of the chunk at START: [0] level 1 (no page-type filter),
 * [1] level 31. */
static int select_both(const struct vs_dump *d, struct vs_worker *wk,
		       uint64_t start, struct est_slot *s,
		       struct vs_error *err)
{
	struct vs_dump d1 = *d;

	d1.filter = NULL;
	if (vs_select_chunk(&d1, wk, start, VS_SELECT_PFNS, s->bits1,
			    s->bits2[0], err) < 0)
		return -1;
	return vs_select_chunk(d, wk, start, VS_SELECT_PFNS, s->bits1,
			       s->bits2[1], err);
}

static int est_work(void *worker, uint64_t index, void *slot,
		    struct vs_error *err)
{
	struct vs_worker *wk = worker;
	const struct vs_dump *d = wk->d;
	const struct vs_estimate *e = d->estimate;
	struct est_slot *s = slot;
	uint64_t start = index * VS_SELECT_PFNS;

	memset(s, 0, sizeof(*s));
	if (select_both(d, wk, start, s, err) < 0)
		return -1;
	for (uint64_t i = 0; i < VS_SELECT_PFNS; i++) {
		uint64_t pfn = start + i;
		int in_sample = pfn % e->stride == e->stride / 2;
		int kept31 = vs_bit_test(s->bits2[1], i);
		const uint8_t *page;

		if (!vs_bit_test(s->bits2[0], i))
			continue;
		s->lv[0].kept++;
		s->lv[1].kept += (uint64_t)kept31;
		if (!in_sample && !kept31)
			continue;
		if (vs_read_page(&wk->reader, pfn, &page, err) < 0)
			return vs_err_ctx(err, "pfn 0x%llx",
					  (unsigned long long)pfn);
		if (kept31 && vs_is_zero(page, d->in->page_size))
			s->zero++;
		if (in_sample)
			sample_page(d, wk->writer, page, kept31, s);
	}
	return 0;
}

static int est_consume(void *arg, uint64_t index, void *slot,
		       struct vs_error *err)
{
	struct est_run *r = arg;
	struct vs_estimate *e = r->e;
	const struct est_slot *s = slot;

	(void)index;
	if (vs_check_cancel(r->d, err) < 0)
		return -1;
	r->d->present += vs_bits_count(s->bits1, VS_SELECT_PFNS / 64);
	e->zero += s->zero;
	for (unsigned l = 0; l < 2; l++) {
		e->lv[l].kept += s->lv[l].kept;
		e->lv[l].sampled += s->lv[l].sampled;
		e->lv[l].sampled_zero += s->lv[l].sampled_zero;
		for (unsigned c = 0; c < VS_NR_CODECS; c++)
			e->lv[l].stored[c] += s->lv[l].stored[c];
	}
	return 0;
}

/* The file: its layout up to the data, the shared zero page, and the
 * kept pages at the sample's mean stored size. */
static void finish_level(const struct vs_dump *d, struct vs_est_level *lv)
{
	uint64_t head = vs_kdump_desc_off(d) +
			lv->kept * sizeof(struct kdump_page_desc) +
			d->in->page_size;

	for (unsigned c = 0; c < VS_NR_CODECS; c++) {
		double mean = lv->sampled ? (double)lv->stored[c] /
					    (double)lv->sampled : 0;

		lv->bytes[c] = head + (uint64_t)(mean * (double)lv->kept + 0.5);
	}
}

static void finish(const struct vs_dump *d, struct vs_estimate *e)
{
	uint64_t always = 0;

	for (unsigned i = 0; i < d->nworkers; i++)
		always += d->workers[i]->counts.hwpoison +
			  d->workers[i]->counts.offline;
	e->lv[0].level = 1;
	e->lv[1].level = d->level;
	e->lv[0].kept -= always < e->lv[0].kept ? always : e->lv[0].kept;
	finish_level(d, &e->lv[0]);
	finish_level(d, &e->lv[1]);
}

static int run_chunks(struct vs_dump *d, struct est_run *r,
		      struct vs_error *err)
{
	uint64_t njobs = vs_div_round_up(d->max_mapnr, VS_SELECT_PFNS);
	unsigned nslots = 2 * d->nworkers;
	struct est_slot *slots = calloc(nslots, sizeof(*slots));
	static const struct vs_pipeline_ops ops = {
		.work = est_work, .consume = est_consume,
	};
	int ret;

	if (!slots)
		return vs_err_oom(err, "out of memory");
	ret = vs_dump_run(d, &ops, r, slots, sizeof(*slots), nslots, njobs,
			  err);
	free(slots);
	return ret;
}

int vs_estimate_run(struct vs_dump *d, struct vs_estimate *e,
		    struct vs_error *err)
{
	struct est_run r = { .d = d, .e = e };
	int ret = -1;

	for (unsigned i = 0; i < d->nworkers; i++) {
		d->workers[i]->writer = new_est_worker(d);
		if (!d->workers[i]->writer) {
			vs_err_oom(err, "out of memory for the codecs");
			goto out;
		}
	}
	ret = run_chunks(d, &r, err);
	if (ret == 0)
		finish(d, e);
out:
	for (unsigned i = 0; i < d->nworkers; i++) {
		free_est_worker(d->workers[i]->writer);
		d->workers[i]->writer = NULL;
	}
	return ret;
}
