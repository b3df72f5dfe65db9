/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump.c - vmsift_dump() and vmsift_dump_split(), the orchestration of
 * one dump: check the options, set up the filter, the workers and the
 * outputs, run the format's writer (writer.h), then keep the stats and
 * the doubts in the session (session.h) for the public calls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "erase_setup.h"
#include "estimate.h"
#include "util.h"
#include "session.h"
#include "typeinfo_btf.h"
#include "writer.h"

static void free_workers(struct vs_dump *d)
{
	for (unsigned i = 0; d->workers && i < d->nworkers; i++) {
		struct vs_worker *w = d->workers[i];

		if (!w)
			continue;
		if (w->codec_ctx)
			d->codec->ctx_free(w->codec_ctx);
		vs_reader_fini(&w->reader);
		free(w->erase_page);
		free(w);
	}
	free(d->workers);
	d->workers = NULL;
}

static int new_workers(struct vs_dump *d, struct vs_error *err)
{
	d->workers = calloc(d->nworkers, sizeof(*d->workers));
	if (!d->workers)
		return vs_err_oom(err, "out of memory");
	for (unsigned i = 0; i < d->nworkers; i++) {
		struct vs_worker *w = calloc(1, sizeof(*w));

		if (!w)
			return vs_err_oom(err, "out of memory");
		d->workers[i] = w;
		w->d = d;
		if (vs_reader_init(&w->reader, d->in, err) < 0)
			return -1;
		if (d->erase && !(w->erase_page = malloc(d->in->page_size)))
			return vs_err_oom(err, "out of memory");
		if (d->codec) {
			w->codec_ctx = d->codec->ctx_new(d->opts->codec_level);
			if (!w->codec_ctx)
				return vs_err(err, "cannot set up %s at level %d",
					      d->codec->name,
					      d->opts->codec_level);
		}
	}
	return 0;
}

/* Encryption (age) wraps the flattened kdump stream, written once: an
 * ELF file is refused, and every recipient is checked before anything
 * is written. */
static int check_encryption(const struct vmsift_options *o,
			    struct vs_error *err)
{
	uint8_t (*pks)[32];

	if (!o->nr_encrypt_to)
		return 0;
	if (o->format == VMSIFT_FORMAT_ELF)
		return vs_err_st(err, VMSIFT_E_INVALID, "an encrypted dump is "
				 "a kdump-compressed flattened stream: ELF "
				 "output (-E) cannot be encrypted");
	if (vs_sink_recipients(o->encrypt_to, o->nr_encrypt_to, &pks, err) < 0)
		return -1;
	free(pks);
	return 0;
}

static int check_options(const struct vmsift *vs,
			 const struct vmsift_options *o, struct vs_error *err)
{
	const struct vs_writer_ops *w = vs_writer_get(o->format);

	const enum vmsift_status inval = VMSIFT_E_INVALID;

	if (!vs->opened)
		return vs_err_st(err, inval, "no input is open");
	if (o->dump_level > VMSIFT_DL_MAX)
		return vs_err_st(err, inval, "dump level %u is out of range "
				 "0-31", o->dump_level);
	if (!w)
		return vs_err_st(err, inval, "unknown output format %d",
				 (int)o->format);
	if (w->check && w->check(&vs->in, o, err) < 0)
		return -1;
	if (o->exclude_vmemmap && o->format != VMSIFT_FORMAT_KDUMP)
		return vs_err_st(err, VMSIFT_E_UNSUPPORTED, "leaving out unused "
				 "struct pages (-e) needs kdump-compressed "
				 "output");
	if (o->read_path < VMSIFT_READ_AUTO || o->read_path > VMSIFT_READ_RUNS)
		return vs_err_st(err, inval, "unknown read path %d",
				 (int)o->read_path);
	if (o->codec != VMSIFT_CODEC_NONE && !vs_codec_get(o->codec))
		return vs_err_st(err, VMSIFT_E_UNSUPPORTED, "unknown codec %d",
				 (int)o->codec);
	return check_encryption(o, err);
}

static void fill_rates(struct vmsift_rates *r, const struct vs_dump *d)
{
	struct rusage ru;

	memset(r, 0, sizeof(*r));
	r->struct_size = sizeof(*r);
	r->struct_page_bytes = d->counts.struct_bytes;
	r->scan_seconds = d->select_seconds;
	r->scan_cpu_seconds = d->select_cpu;
	r->zero_test_bytes = d->rates.zero_bytes;
	r->zero_test_seconds = d->rates.zero_seconds;
	r->codec_in_bytes = d->rates.codec_in;
	r->codec_out_bytes = d->rates.codec_out;
	r->codec_seconds = d->rates.codec_seconds;
	r->worker_cpu_seconds = d->rates.cpu_seconds;
	for (unsigned i = 0; d->sinks && i < d->nsinks; i++) {
		r->write_bytes += d->sinks[i].written;
		r->write_seconds += d->sinks[i].write_seconds;
	}
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		r->peak_rss_kib = (uint64_t)ru.ru_maxrss;
}

static void fill_stats(struct vmsift *vs, const struct vs_dump *d)
{
	struct vmsift_stats *st = &vs->stats;
	struct vs_counts c = d->counts;

	memset(st, 0, sizeof(*st));
	st->max_mapnr = d->max_mapnr;
	st->present = d->present;
	st->zero = d->zero;
	st->cache = c.cache;
	st->cache_private = c.cache_private;
	st->user = c.user;
	st->free = c.free;
	st->hwpoison = c.hwpoison;
	st->offline = c.offline;
	st->doubtful = c.doubtful;
	st->no_data = d->no_data;
	st->dumped = d->dumped;
	for (unsigned i = 0; d->sinks && i < d->nsinks; i++) {
		st->bytes_written += d->sinks[i].bytes;
		st->out_of_space |= d->sinks[i].out_of_space;
	}
	st->incomplete = d->incomplete;
	st->select_seconds = d->select_seconds;
	st->copy_seconds = d->copy_seconds;
	st->cancelled = d->cancel && atomic_load(d->cancel);
	fill_rates(&vs->rates, d);
}

/* What filtering found doubtful, for vmsift_doubts(): the set-up's lines
 * (unreadable mem_section roots, broken free lists), then the scan's. */
static void keep_doubts(struct vmsift *vs, const struct vs_filter *f,
			const struct vs_counts *c)
{
	char scan[VS_DOUBT_LINES * (VS_DOUBT_LEN + 1) + 64];
	const char *setup = vs_filter_doubts(f);
	size_t n;

	free(vs->doubts);
	vs_doubt_format(&c->doubts, scan, sizeof(scan));
	n = strlen(setup) + strlen(scan) + 1;
	vs->doubts = malloc(n);
	if (vs->doubts)
		snprintf(vs->doubts, n, "%s%s", setup, scan);
}

static int open_sinks(struct vs_dump *d, const int *fds,
		      const char *const *names, struct vs_error *err)
{
	const struct vmsift_options *o = d->opts;

	for (unsigned i = 0; i < d->nsinks; i++) {
		int ret = o->nr_encrypt_to ?
			  vs_sink_open_age(&d->sinks[i], fds[i], names[i],
					   o->dry_run, o->size_limit,
					   o->encrypt_to, o->nr_encrypt_to, err) :
			  vs_sink_open(&d->sinks[i], fds[i], names[i],
				       o->flattened, o->dry_run, o->size_limit,
				       err);

		if (ret < 0)
			return -1;
	}
	return 0;
}

static int close_sinks(struct vs_dump *d, struct vs_error *err)
{
	int ret = 0;

	for (unsigned i = 0; i < d->nsinks; i++)
		if (vs_sink_close(&d->sinks[i], err) < 0)
			ret = -1;
	return ret;
}

/* No -x: the dump's own kallsyms and BTF (typeinfo_btf.c) become the
 * session's source of symbols and types, kept for later dumps. */
static int use_btf(struct vmsift *vs, struct vs_error *err)
{
	struct vs_typeinfo ti;

	if (vs_typeinfo_btf_open(&ti, &vs->in, err) < 0)
		return -1;
	vs_session_set_typeinfo(vs, ti);
	return 0;
}

/* --config: the rules resolved before any page is read. */
static int setup_erase(struct vmsift *vs, struct vs_dump *d,
		       struct vs_error *err)
{
	const struct vmsift_options *o = d->opts;
	struct vs_erase_opts eo = { .nparts = d->nsinks,
				    .ignore_missing = o->erase_ignore_missing };

	if (!o->erase_config)
		return 0;
	if (!vs->ti.ops && use_btf(vs, err) < 0)
		return vs_err_ctx(err, "cannot apply '%s' without -x VMLINUX",
				  o->erase_config);
	return vs_erase_setup(&d->erase, &vs->in, &vs->ti, o->erase_config,
			      &eo, err);
}

static int run_dump(struct vmsift *vs, struct vs_dump *d, const int *fds,
		    const char *const *names, struct vs_error *err)
{
	const struct vmsift_options *o = d->opts;
	struct vs_filter *filter = NULL;
	int ret;

	vs->in.no_mmap = o->no_mmap;
	vs->in.read_path = o->read_path;
	d->level = o->dump_level;
	if (vs->in.prev.known)
		d->level |= (unsigned)vs->in.prev.dump_level & VMSIFT_DL_MAX;
	if (vs_filter_new(&filter, &vs->in, d->level, err) < 0)
		return -1;
	if (setup_erase(vs, d, err) < 0) {
		vs_filter_free(filter);
		return -1;
	}
	d->filter = filter;
	d->max_mapnr = vs->in.max_mapnr;
	if (vs_filter_max_pfn(filter) && vs_filter_max_pfn(filter) < d->max_mapnr)
		d->max_mapnr = vs_filter_max_pfn(filter);
	d->nthreads = o->threads ? o->threads : vmsift_cpus_online();
	if (d->nthreads == 1)
		d->nthreads = 0;  /* one thread: no pipeline threads at all */
	d->nworkers = d->nthreads ? d->nthreads : 1;
	ret = new_workers(d, err);
	if (ret == 0)
		ret = open_sinks(d, fds, names, err);
	if (ret == 0)
		ret = d->estimate ? vs_estimate_run(d, d->estimate, err)
				  : vs_writer_get(o->format)->write(d, err);
	if (ret == 0) {
		ret = close_sinks(d, err);
	} else if (d->incomplete) {
		struct vs_error later;  /* the first failure is the message */

		close_sinks(d, &later);
	}
	for (unsigned i = 0; d->workers && i < d->nworkers; i++)
		if (d->workers[i]) {
			vs_counts_add(&d->counts, &d->workers[i]->counts);
			vs_work_rates_add(&d->rates, &d->workers[i]->rates);
		}
	keep_doubts(vs, filter, &d->counts);
	if (d->erase && *vs_erase_skip_msg(d->erase)) {
		free(vs->erase_skips);
		vs->erase_skips = strdup(vs_erase_skip_msg(d->erase));
	}
	free_workers(d);
	vs_filter_free(filter);
	vs_erase_free(d->erase);
	d->erase = NULL;
	return ret;
}

/* A new dump starts: until it fills them, the stats and doubts describe
 * no dump, whatever refuses or fails it, never the dump before. */
static void forget_last_dump(struct vmsift *vs)
{
	vs_err_clear(&vs->err);
	memset(&vs->stats, 0, sizeof(vs->stats));
	memset(&vs->rates, 0, sizeof(vs->rates));
	free(vs->doubts);
	vs->doubts = NULL;
	free(vs->erase_skips);
	vs->erase_skips = NULL;
}

/* One dump to N outputs: N = 1, or a split set. */
static int dump_to(struct vmsift *vs, const struct vmsift_options *opts,
		   const int *fds, const char *const *names, unsigned n)
{
	struct vs_sink *sinks = calloc(n, sizeof(*sinks));
	struct vs_dump d = { .in = &vs->in, .opts = opts, .cancel = &vs->cancel,
			     .sinks = sinks, .nsinks = n };
	int ret;

	forget_last_dump(vs);
	atomic_store(&vs->cancel, 0);
	if (!sinks)
		return vs_err_oom(&vs->err, "out of memory");
	if (check_options(vs, opts, &vs->err) < 0) {
		free(sinks);
		return -1;
	}
	d.split_pfns = opts->splitblock_size ? opts->splitblock_size /
			vs->in.page_size : (1ULL << 30) / vs->in.page_size;
	if (d.split_pfns == 0)
		d.split_pfns = 1;
	d.codec = vs_codec_get(opts->codec);
	ret = run_dump(vs, &d, fds, names, &vs->err);
	fill_stats(vs, &d);
	for (unsigned i = 0; i < n; i++)
		vs_sink_release(&sinks[i]);
	free(sinks);
	if (ret < 0 && vs->stats.cancelled)
		vs_err_set_status(&vs->err, VMSIFT_E_CANCELLED);
	else if (ret < 0 && vs->stats.out_of_space)
		vs_err_set_status(&vs->err, VMSIFT_E_NO_SPACE);
	if (ret < 0)
		return vs_err_ctx(&vs->err, "cannot dump '%s' to '%s'%s%s",
				  vs->in.file.name, names[0], n > 1 ? " and others" : "",
				  d.incomplete ? " (the dump is incomplete)" : "");
	return 0;
}

void vmsift_options_init(struct vmsift_options *o)
{
	memset(o, 0, sizeof(*o));
	o->struct_size = sizeof(*o);
}

/* The caller's options in this library's struct: a smaller one from an
 * older caller with defaults for the rest, a bigger one refused. */
static int take_options(struct vmsift_options *o,
			const struct vmsift_options *from, struct vs_error *err)
{
	vmsift_options_init(o);
	if (from->struct_size < sizeof(from->struct_size) ||
	    from->struct_size > sizeof(*o))
		return vs_err_st(err, VMSIFT_E_INVALID, "vmsift_options of %zu "
				 "bytes: this library knows %zu (set "
				 "struct_size with vmsift_options_init)",
				 from->struct_size, sizeof(*o));
	memcpy(o, from, from->struct_size);
	return 0;
}

int vmsift_dump(struct vmsift *vs, const struct vmsift_options *opts,
		int out_fd, const char *out_name)
{
	struct vmsift_options o;

	forget_last_dump(vs);
	if (take_options(&o, opts, &vs->err) < 0)
		return -1;
	return dump_to(vs, &o, &out_fd, &out_name, 1);
}

int vmsift_dump_split(struct vmsift *vs, const struct vmsift_options *opts,
		      const int *out_fds, const char *const *out_names,
		      unsigned n)
{
	const struct vs_writer_ops *w;
	struct vmsift_options o;

	forget_last_dump(vs);
	if (take_options(&o, opts, &vs->err) < 0)
		return -1;
	if (n < 1 || n > 4096)
		return vs_err_st(&vs->err, VMSIFT_E_INVALID, "a split set has "
				 "1 to 4096 files, not %u", n);
	w = vs_writer_get(o.format);
	if (!w || !w->splits || (o.flattened && !o.nr_encrypt_to))
		return vs_err_st(&vs->err, VMSIFT_E_INVALID, "split files are "
				 "kdump-compressed, written to files (not -E, "
				 "not -F)");
	return dump_to(vs, &o, out_fds, out_names, n);
}

/* --mem-usage's one pass, at level 31: the table's counts, and the
 * sizes at levels 1 and 31. */
static int usage_run(struct vmsift *vs, struct vmsift_options *o,
		     struct vmsift_mem_usage *mu)
{
	struct vs_estimate e = { .sample_cap = mu->sample_pages,
				 .seed = mu->sample_seed,
				 .exact_zero = mu->exact_zero != 0 };
	struct vs_dump d = { .in = &vs->in, .opts = o, .cancel = &vs->cancel,
			     .estimate = &e };

	o->dump_level = VMSIFT_DL_MAX;
	o->format = VMSIFT_FORMAT_KDUMP;
	if (check_options(vs, o, &vs->err) < 0 ||
	    run_dump(vs, &d, NULL, NULL, &vs->err) < 0)
		return -1;
	mu->present = d.present;
	mu->sampled = e.sampled;
	mu->zero = e.zero;
	mu->zero_estimated = !e.exact_zero;
	mu->cache = d.counts.cache;
	mu->cache_private = d.counts.cache_private;
	mu->user = d.counts.user;
	mu->free = d.counts.free;
	mu->hwpoison = d.counts.hwpoison;
	mu->offline = d.counts.offline;
	for (unsigned l = 0; l < 2; l++)
		for (unsigned c = 0; c < VS_NR_CODECS; c++)
			mu->sizes[mu->nr_sizes++] = (struct vmsift_dump_size){
				.level = e.lv[l].level,
				.codec = (enum vmsift_codec)(VMSIFT_CODEC_ZLIB + c),
				.bytes = e.lv[l].bytes[c],
			};
	return 0;
}

int vmsift_mem_usage(struct vmsift *vs, const struct vmsift_options *opts,
		     struct vmsift_mem_usage *mu)
{
	struct vmsift_mem_usage r = { .struct_size = sizeof(r) };
	struct vmsift_options o;
	double t = vs_now();
	size_t n;

	forget_last_dump(vs);
	if (!mu || mu->struct_size < sizeof(mu->struct_size))
		return vs_err_st(&vs->err, VMSIFT_E_INVALID, "vmsift_mem_usage "
				 "needs a struct vmsift_mem_usage with its "
				 "struct_size set");
	if (opts) {
		if (take_options(&o, opts, &vs->err) < 0)
			return -1;
	} else {
		vmsift_options_init(&o);
	}
	/* The caller's sample, when its struct has the fields. */
	if (mu->struct_size >= offsetof(struct vmsift_mem_usage, sample_seed) +
			       sizeof(mu->sample_seed)) {
		r.sample_pages = mu->sample_pages;
		r.sample_seed = mu->sample_seed;
	}
	if (mu->struct_size >= offsetof(struct vmsift_mem_usage, exact_zero) +
			       sizeof(mu->exact_zero))
		r.exact_zero = mu->exact_zero;
	if (usage_run(vs, &o, &r) < 0)
		return vs_err_ctx(&vs->err, "cannot size '%s'", vs->in.file.name);
	r.page_size = vs->in.page_size;
	r.seconds = vs_now() - t;
	n = mu->struct_size < sizeof(r) ? mu->struct_size : sizeof(r);
	memcpy(mu, &r, n);
	mu->struct_size = n;
	return 0;
}
