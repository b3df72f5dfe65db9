/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump.c - the command's two jobs: write a dump (VMCORE DUMPFILE, or -F
 * to stdout) and rebuild one from a flattened stream (-R).  Called by
 * main.c; uses the public API only.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

struct progress {
	FILE *out;
	int tty;
	double start;
	double last;
};

int cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("vmsift: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

int cli_parse_dump_level(struct cli *c, const char *arg)
{
	const char *p = arg;

	/* "-d 11,31": the levels to try, in order, when space runs out. */
	c->nr_levels = 0;
	do {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || end == p || (*end && *end != ',') || v < 0 || v > 31 ||
		    c->nr_levels == sizeof(c->levels) / sizeof(c->levels[0]))
			return cli_error("invalid dump level '%s' (0-31, or a "
					 "comma-separated list)", arg);
		c->levels[c->nr_levels++] = (unsigned)v;
		p = *end ? end + 1 : end;
	} while (*p);
	c->opts.dump_level = c->levels[0];
	return 0;
}

int cli_parse_size(const char *arg, uint64_t *size)
{
	static const char suffixes[] = "KMGTPE";
	const char *sfx;
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *arg == '-')
		return -1;
	if (*end) {
		sfx = strchr(suffixes, *end);
		if (!sfx || end[1])
			return -1;
		for (long i = 0; i <= sfx - suffixes; i++) {
			if (v > UINT64_MAX / 1024)
				return -1;
			v *= 1024;
		}
	}
	if (v == 0)
		return -1;
	*size = v;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A line with percentage, rate and ETA: rewritten in place on a
 * terminal, a plain line every 10 s otherwise. */
static void show_progress(void *arg, uint64_t done, uint64_t total)
{
	struct progress *p = arg;
	double t = now(), el = t - p->start, pct, eta;

	if (done < total && t - p->last < (p->tty ? 0.5 : 10.0))
		return;
	p->last = t;
	pct = total ? 100.0 * (double)done / (double)total : 100.0;
	eta = done && done < total ? el * (double)(total - done) / (double)done : 0;
	fprintf(p->out, "%sCopying data : [%5.1f %%] %.0f pfn/s, eta %.0fs%s",
		p->tty ? "\r" : "", pct, el > 0 ? (double)done / el : 0.0, eta,
		p->tty && done < total ? "" : "\n");
	fflush(p->out);
}

static FILE *report_stream(const struct cli *c)
{
	return c->opts.flattened ? stderr : stdout;
}

static double gbps(uint64_t bytes, double s)
{
	return s > 0 ? (double)bytes / s / 1e9 : 0;
}

/* vmsift's own lines (makedumpfile has none): each phase's bytes,
 * seconds and rate, for bench/run --scale (issue #17). */
static void print_rates(const struct cli *c, const struct vmsift *vs)
{
	struct vmsift_rates r = { .struct_size = sizeof(r) };
	FILE *f = report_stream(c);

	vmsift_get_rates(vs, &r);
	fprintf(f, "RATE [struct page scan] : %" PRIu64 " bytes, %f s, "
		"%.3f GB/s, CPU %f s, %.3f GB/s\n", r.struct_page_bytes,
		r.scan_seconds, gbps(r.struct_page_bytes, r.scan_seconds),
		r.scan_cpu_seconds, gbps(r.struct_page_bytes,
					 r.scan_cpu_seconds));
	fprintf(f, "RATE [read, zero test ] : %" PRIu64 " bytes, %f s, "
		"%.3f GB/s\n", r.zero_test_bytes, r.zero_test_seconds,
		gbps(r.zero_test_bytes, r.zero_test_seconds));
	fprintf(f, "RATE [codec           ] : %" PRIu64 " bytes in, %" PRIu64
		" out, %f s, %.3f GB/s\n", r.codec_in_bytes, r.codec_out_bytes,
		r.codec_seconds, gbps(r.codec_in_bytes, r.codec_seconds));
	fprintf(f, "RATE [copy jobs, CPU  ] : %f s\n", r.worker_cpu_seconds);
	fprintf(f, "RATE [write           ] : %" PRIu64 " bytes, %f s, "
		"%.3f GB/s\n", r.write_bytes, r.write_seconds,
		gbps(r.write_bytes, r.write_seconds));
	fprintf(f, "RATE [peak RSS        ] : %" PRIu64 " KiB\n",
		r.peak_rss_kib);
}

static void print_report(const struct cli *c, const struct vmsift_stats *st)
{
	FILE *f = report_stream(c);
	uint64_t excluded = st->zero + st->cache + st->cache_private +
			    st->user + st->free + st->hwpoison + st->offline;
	uint64_t remaining = st->present - excluded;

	fprintf(f, "\nOriginal pages  : 0x%016llx\n", (unsigned long long)st->present);
	fprintf(f, "  Excluded pages   : 0x%016llx\n", (unsigned long long)excluded);
	fprintf(f, "    Pages filled with zero  : 0x%016llx\n", (unsigned long long)st->zero);
	fprintf(f, "    Non-private cache pages : 0x%016llx\n", (unsigned long long)st->cache);
	fprintf(f, "    Private cache pages     : 0x%016llx\n", (unsigned long long)st->cache_private);
	fprintf(f, "    User process data pages : 0x%016llx\n", (unsigned long long)st->user);
	fprintf(f, "    Free pages              : 0x%016llx\n", (unsigned long long)st->free);
	fprintf(f, "    Hwpoison pages          : 0x%016llx\n", (unsigned long long)st->hwpoison);
	fprintf(f, "    Offline pages           : 0x%016llx\n", (unsigned long long)st->offline);
	fprintf(f, "  Remaining pages  : 0x%016llx\n", (unsigned long long)remaining);
	if (st->present)
		fprintf(f, "  (The number of pages is reduced to %llu%%.)\n",
			(unsigned long long)(remaining * 100 / st->present));
	fprintf(f, "Memory Hole     : 0x%016llx\n",
		(unsigned long long)(st->max_mapnr - st->present));
	fprintf(f, "--------------------------------------------------\n");
	fprintf(f, "Total pages     : 0x%016llx\n", (unsigned long long)st->max_mapnr);
	fprintf(f, "Write bytes     : %llu\n", (unsigned long long)st->bytes_written);
	if (st->doubtful)
		fprintf(f, "Doubtful pages  : 0x%016llx (kept: their struct "
			"page could not be trusted)\n",
			(unsigned long long)st->doubtful);
	fprintf(f, "\n");
}

int open_output(const struct cli *c, const char *path, int *created)
{
	int flags = O_RDWR | O_CREAT | O_CLOEXEC;
	int fd;

	/* Never clobber an existing dump, nor follow a planted symlink,
	 * unless -f asks to overwrite. */
	flags |= c->force ? O_TRUNC : O_EXCL | O_NOFOLLOW;
	fd = open(path, flags, 0600);
	if (fd < 0) {
		if (errno == EEXIST)
			cli_error("'%s' exists already; use -f to overwrite it",
				  path);
		else
			cli_error("cannot create '%s': %s", path,
				  strerror(errno));
		return -1;
	}
	*created = 1;
	return fd;
}

int cli_session_output(const struct cli *c, const char *path,
		       struct vmsift **vs)
{
	int fd, created = 0;

	*vs = vmsift_new();
	if (!*vs)
		return cli_error("out of memory");
	if (cli_set_identity(*vs, c) < 0) {
		cli_error("%s", vmsift_error(*vs));
		fd = -1;
	} else {
		fd = open_output(c, path, &created);
	}
	if (fd < 0) {
		vmsift_free(*vs);
		*vs = NULL;
	}
	return fd;
}

static int check_dump_args(const struct cli *c)
{
	int want = c->opts.flattened ? 1 : 2;

	if (c->nargs != want)
		return cli_error("expected %s, got %d argument%s",
				 c->opts.flattened ? "VMCORE (with -F the dump "
				 "goes to stdout)" : "VMCORE DUMPFILE",
				 c->nargs, c->nargs == 1 ? "" : "s");
	if (c->opts.flattened && isatty(STDOUT_FILENO))
		return cli_error("-F writes a binary stream: redirect stdout "
				 "to a file or a pipe");
	if (c->opts.format == VMSIFT_FORMAT_ELF &&
	    c->opts.codec != VMSIFT_CODEC_NONE)
		return cli_error("-E cannot be combined with -c, -l, -p or -z");
	return 0;
}

static int open_input(struct vmsift *vs, struct cli *c)
{
	return cli_open_input(vs, c);
}

/* Start over at the next -d level after running out of space, as
 * makedumpfile does; a stream already sent cannot be taken back. */
static int retry_next(const struct cli *c, const struct vmsift_stats *st,
		      unsigned i, int fd, const char *name)
{
	if (!st->out_of_space || st->cancelled || i + 1 >= c->nr_levels ||
	    c->opts.flattened || c->opts.dry_run)
		return 0;
	if (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0) {
		cli_error("cannot truncate '%s' to retry: %s", name,
			  strerror(errno));
		return 0;
	}
	if (c->message_level & ML_COMMON)
		fprintf(stderr, "vmsift: retrying at dump level %u\n",
			c->levels[i + 1]);
	return 1;
}

static int run(struct vmsift *vs, struct cli *c, int fd, const char *name,
	       struct vmsift_stats *st)
{
	struct progress pr = { .out = stderr, .tty = isatty(STDERR_FILENO) };
	int ret;

	if (c->message_level & ML_PROGRESS) {
		pr.start = pr.last = now();
		c->opts.progress = show_progress;
		c->opts.progress_arg = &pr;
	}
	if (c->nr_levels == 0)
		c->levels[c->nr_levels++] = c->opts.dump_level;
	for (unsigned i = 0;; i++) {
		c->opts.dump_level = c->levels[i];
		ret = vmsift_dump(vs, &c->opts, fd, name);
		vmsift_get_stats(vs, st);
		if (ret < 0)
			cli_error("%s", vmsift_error(vs));
		if (ret == 0 || !retry_next(c, st, i, fd, name))
			break;
	}
	/* makedumpfile prints its STEP timings with the report bit. */
	if (c->message_level & (ML_DEBUG | ML_REPORT))
		fprintf(report_stream(c), "STEP [Excluding unnecessary pages] : "
			"%f seconds\nSTEP [Copying data               ] : "
			"%f seconds\n", st->select_seconds, st->copy_seconds);
	if (c->message_level & ML_REPORT) {
		print_rates(c, vs);
		print_report(c, st);
	}
	/* Doubts are worth a line even without the report: the pages they
	 * name were kept because the kernel's metadata was damaged. */
	if (*vmsift_doubts(vs) && (c->message_level & (ML_COMMON | ML_REPORT)))
		fprintf(stderr, "vmsift: damaged page metadata, pages kept:\n%s",
			vmsift_doubts(vs));
	/* Rules skipped (a [module] section whose module is not loaded;
	 * with --erase-ignore-missing, what the kernel lacks): each line
	 * says why, since with the switch their bytes stay in the dump. */
	if (*vmsift_erase_skipped(vs) && (c->message_level & (ML_COMMON | ML_REPORT)))
		fprintf(stderr, "vmsift: --config: rules skipped:\n%s",
			vmsift_erase_skipped(vs));
	return ret;
}

int cli_dump(struct cli *c)
{
	struct vmsift_stats st = { 0 };
	struct vmsift *vs;
	const char *name;
	int fd = STDOUT_FILENO, created = 0, ret = -1;

	if (check_dump_args(c) < 0)
		return 1;
	if (c->check_params)
		return 0;
	vs = vmsift_new();
	if (!vs)
		return cli_error("out of memory"), 1;
	cli_catch_signals(vs);
	if (open_input(vs, c) < 0)
		goto out;
	name = c->opts.flattened ? "<stdout>" : c->args[1];
	if (c->opts.dry_run)
		fd = -1;
	else if (!c->opts.flattened && (fd = open_output(c, name, &created)) < 0)
		goto out;
	ret = run(vs, c, fd, name, &st);
	if (fd >= 0 && !c->opts.flattened && close(fd) < 0 && ret == 0)
		ret = cli_error("cannot close '%s': %s", name, strerror(errno));
	/* A dump that failed before it held anything goes; one cut short
	 * stays, marked incomplete, for what it holds. */
	if (ret < 0 && created && !st.incomplete)
		unlink(name);
	if (ret == 0 && !c->opts.dry_run && (c->message_level & ML_COMMON))
		fprintf(report_stream(c), "The dumpfile is saved to %s.\n\n"
			"vmsift Completed.\n", name);
	else if (ret < 0 && st.incomplete && (c->message_level & ML_COMMON))
		fprintf(stderr, "vmsift: the incomplete dump is kept in %s\n",
			name);
out:
	cli_release_signals();
	if (ret < 0 && (c->message_level & ML_COMMON))
		fprintf(stderr, "\nvmsift Failed.\n");
	vmsift_free(vs);
	return ret < 0 ? 1 : 0;
}

int cli_rebuild(struct cli *c)
{
	struct vmsift *vs;
	int fd, ret;

	if (c->nargs != 1)
		return cli_error("-R takes one argument, the DUMPFILE to "
				 "write; the stream comes on stdin"), 1;
	fd = cli_session_output(c, c->args[0], &vs);
	if (fd < 0)
		return 1;
	ret = vmsift_rebuild_flattened(vs, STDIN_FILENO, "<stdin>", fd,
				       c->args[0]);
	if (ret < 0)
		cli_error("%s", vmsift_error(vs));
	if (close(fd) < 0 && ret == 0)
		ret = cli_error("cannot close '%s': %s", c->args[0],
				strerror(errno));
	vmsift_free(vs);
	return ret < 0 ? 1 : 0;
}
