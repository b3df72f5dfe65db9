/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * select.c - the services the format writers use (select.h): chunk
 * selection, running the worker pipeline, progress and cancel.  Called by
 * kdump_writer.c and elf_writer.c; calls down into the input, the filter
 * and the pipeline only.
 */
#include <stdlib.h>
#include <string.h>

#include "bitops.h"
#include "select.h"
#include "util.h"

void vs_work_rates_add(struct vs_work_rates *sum,
		       const struct vs_work_rates *r)
{
	sum->zero_bytes += r->zero_bytes;
	sum->codec_in += r->codec_in;
	sum->codec_out += r->codec_out;
	sum->zero_seconds += r->zero_seconds;
	sum->codec_seconds += r->codec_seconds;
	sum->cpu_seconds += r->cpu_seconds;
	sum->codec_wall += r->codec_wall;
}

void vs_work_rates_job(struct vs_work_rates *r, double wall, double cpu,
		       double codec_wall)
{
	double codec = wall > 0 ? cpu * codec_wall / wall : 0;

	if (codec > cpu)
		codec = cpu;
	r->codec_seconds += codec;
	r->zero_seconds += cpu - codec;
	r->cpu_seconds += cpu;
}

int vs_check_cancel(const struct vs_dump *d, struct vs_error *err)
{
	if (d->cancel && atomic_load(d->cancel))
		return vs_err_st(err, VMSIFT_E_CANCELLED, "interrupted");
	return 0;
}

void vs_report_progress(const struct vs_dump *d, uint64_t done, uint64_t total)
{
	if (d->opts->progress)
		d->opts->progress(d->opts->progress_arg,
				  done < total ? done : total, total);
}

int vs_select_chunk(const struct vs_dump *d, struct vs_worker *w,
		    uint64_t start, uint64_t n, uint64_t *bits1,
		    uint64_t *bits2, struct vs_error *err)
{
	uint64_t end = start + n < d->max_mapnr ? start + n : d->max_mapnr;

	/* Pages past max_mapnr stay out of both bitmaps. */
	memset(bits1, 0, n / 8);
	memset(bits2, 0, n / 8);
	if (end < start + n)
		n = vs_round_up(end - start, 64);
	if (vs_input_page_bits(&w->reader, start, n, bits1, bits2, err) < 0)
		return -1;
	for (uint64_t i = end - start; i < n; i++) {
		vs_bit_clear(bits1, i);
		vs_bit_clear(bits2, i);
	}
	if (d->filter &&
	    vs_filter_chunk(d->filter, &w->reader, start, n, bits2, &w->counts,
			    err) < 0)
		return vs_err_ctx(err, "cannot filter pfns 0x%llx-0x%llx",
				  (unsigned long long)start,
				  (unsigned long long)(end - 1));
	return 0;
}

int vs_dump_run(struct vs_dump *d, const struct vs_pipeline_ops *ops,
		void *arg, void *slots, size_t slot_size, unsigned nslots,
		uint64_t njobs, struct vs_error *err)
{
	void **sp = calloc(nslots, sizeof(*sp));
	int ret;

	if (!sp)
		return vs_err_oom(err, "out of memory");
	for (unsigned i = 0; i < nslots; i++)
		sp[i] = (char *)slots + i * slot_size;
	ret = vs_pipeline_run(ops, arg, (void **)d->workers, d->nthreads, sp,
			      nslots, njobs, err);
	free(sp);
	return ret;
}
