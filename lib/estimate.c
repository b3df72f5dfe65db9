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
	uint64_t bits2[VS_SELECT_PFNS / 64];
	uint64_t kept, zero, sampled, sampled_zero;
	uint64_t stored[VS_NR_CODECS];
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

/* What PAGE would take in the file with each codec. */
static void sample_page(const struct vs_dump *d, struct est_worker *w,
			const uint8_t *page, struct est_slot *s)
{
	uint64_t ps = d->in->page_size;

	s->sampled++;
	if ((d->level & VMSIFT_DL_ZERO) && vs_is_zero(page, ps)) {
		s->sampled_zero++;
		return;
	}
	for (unsigned c = 0; c < VS_NR_CODECS; c++) {
		size_t n = w->codec[c]->compress(w->ctx[c], page, ps, w->buf,
						 2 * ps);

		s->stored[c] += n ? n : ps;
	}
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
	if (vs_select_chunk(d, wk, start, VS_SELECT_PFNS, s->bits1, s->bits2,
			    err) < 0)
		return -1;
	for (uint64_t i = 0; i < VS_SELECT_PFNS; i++) {
		uint64_t pfn = start + i;
		int in_sample = pfn % e->stride == e->stride / 2;
		const uint8_t *page;

		if (!vs_bit_test(s->bits2, i))
			continue;
		s->kept++;
		if (!in_sample && !e->read_all)
			continue;
		if (vs_read_page(&wk->reader, pfn, &page, err) < 0)
			return vs_err_ctx(err, "pfn 0x%llx",
					  (unsigned long long)pfn);
		if (e->read_all && vs_is_zero(page, d->in->page_size))
			s->zero++;
		if (in_sample)
			sample_page(d, wk->writer, page, s);
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
	e->kept += s->kept;
	e->zero += s->zero;
	e->sampled += s->sampled;
	e->sampled_zero += s->sampled_zero;
	for (unsigned c = 0; c < VS_NR_CODECS; c++)
		e->stored[c] += s->stored[c];
	return 0;
}

/* The file: its layout up to the data, the shared zero page, and the
 * kept pages at the sample's mean stored size. */
static void finish(const struct vs_dump *d, struct vs_estimate *e)
{
	uint64_t head = vs_kdump_desc_off(d) +
			e->kept * sizeof(struct kdump_page_desc);

	if (d->level & VMSIFT_DL_ZERO)
		head += d->in->page_size;
	for (unsigned c = 0; c < VS_NR_CODECS; c++) {
		double mean = e->sampled ? (double)e->stored[c] /
					   (double)e->sampled : 0;

		e->bytes[c] = head + (uint64_t)(mean * (double)e->kept + 0.5);
	}
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
