/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * api_test.c - the public API's contract (include/vmsift.h), tested
 * through that header alone and linked against lib/libvmsift.so (so it
 * also shows that the shared library's exports suffice for a client).
 * Run by tests/suites/unit.sh:
 *
 *     api_test SMALL.vmcore BIG.vmcore
 *
 * One session dumps more than once, each time the same bytes; a dry run
 * writes nothing but counts what a dump would; vmsift_cancel() from the
 * progress callback ends the dump as a cancelled, incomplete one, and the
 * session dumps again afterwards; vmsift_mem_usage() counts as a -d 31
 * dump does and honours a caller's shorter struct.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vmsift.h>

#include "check.h"

/* A new seekable, anonymous output file, or -1. */
static int new_output(const char *name)
{
	int fd = memfd_create(name, 0);

	CHECK(fd >= 0);
	return fd;
}

static off_t size_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? st.st_size : -1;
}

/* The whole content of FD (malloc'd, *LEN bytes), or NULL. */
static unsigned char *content(int fd, size_t *len)
{
	off_t n = size_of(fd);
	unsigned char *buf;

	if (n <= 0)
		return NULL;
	buf = malloc((size_t)n);
	if (buf && pread(fd, buf, (size_t)n, 0) != n) {
		free(buf);
		return NULL;
	}
	*len = (size_t)n;
	return buf;
}

static struct vmsift *open_session(const char *path)
{
	struct vmsift *vs = vmsift_new();

	if (!CHECK(vs != NULL))
		exit(1);
	if (!CHECK(vmsift_open(vs, path) == 0)) {
		fprintf(stderr, "  %s\n", vmsift_error(vs));
		exit(1);
	}
	return vs;
}

static int dump(struct vmsift *vs, const struct vmsift_options *o, int fd)
{
	int ret = vmsift_dump(vs, o, fd, "memfd");

	if (ret < 0)
		fprintf(stderr, "  vmsift_dump: %s\n", vmsift_error(vs));
	return ret;
}

/* One session, two dumps with the same options: both succeed, with the
 * same bytes and the same counts; then an ELF dump on it succeeds too. */
static void test_dump_twice(const char *path)
{
	struct vmsift_options o = { .struct_size = sizeof(o), .dump_level = 1,
				    .codec = VMSIFT_CODEC_ZSTD, .threads = 2 };
	struct vmsift *vs = open_session(path);
	struct vmsift_stats s1, s2;
	int fd1 = new_output("one"), fd2 = new_output("two");
	int fd3 = new_output("elf");
	unsigned char *b1 = NULL, *b2 = NULL;
	size_t n1 = 0, n2 = 0;

	CHECK(dump(vs, &o, fd1) == 0);
	vmsift_get_stats(vs, &s1);
	CHECK(dump(vs, &o, fd2) == 0);
	vmsift_get_stats(vs, &s2);
	b1 = content(fd1, &n1);
	b2 = content(fd2, &n2);
	CHECK(b1 && b2 && n1 == n2 && memcmp(b1, b2, n1) == 0);
	CHECK(s1.dumped > 0);
	CHECK_U64(s1.dumped, s2.dumped);
	CHECK_U64(s1.bytes_written, s2.bytes_written);
	/* The file's size, not the sum of writes (headers are rewritten). */
	CHECK_U64(s1.bytes_written, n1);
	CHECK(!s1.incomplete && !s2.incomplete);
	o.format = VMSIFT_FORMAT_ELF;
	o.codec = VMSIFT_CODEC_NONE;
	CHECK(dump(vs, &o, fd3) == 0);
	CHECK(size_of(fd3) > 0);
	CHECK_STR(vmsift_error(vs), "");
	free(b1);
	free(b2);
	close(fd1);
	close(fd2);
	close(fd3);
	vmsift_free(vs);
}

/* A dry run succeeds, writes nothing, and counts the pages a real dump
 * with the same options writes. */
static void test_dry_run(const char *path)
{
	struct vmsift_options o = { .struct_size = sizeof(o), .dump_level = 1,
				    .codec = VMSIFT_CODEC_ZLIB, .threads = 2 };
	struct vmsift *vs = open_session(path);
	struct vmsift_stats real, dry;
	int fd = new_output("real"), dfd = new_output("dry");

	CHECK(dump(vs, &o, fd) == 0);
	vmsift_get_stats(vs, &real);
	o.dry_run = 1;
	CHECK(dump(vs, &o, dfd) == 0);
	vmsift_get_stats(vs, &dry);
	CHECK(size_of(dfd) == 0);
	CHECK(real.dumped > 0);
	CHECK_U64(dry.dumped, real.dumped);
	CHECK_U64(dry.zero, real.zero);
	CHECK(!dry.incomplete);
	close(fd);
	close(dfd);
	vmsift_free(vs);
}

struct cancel_arg {
	struct vmsift *vs;
	unsigned calls;
};

static void cancel_on_first(void *arg, uint64_t done, uint64_t total)
{
	struct cancel_arg *c = arg;

	(void)done;
	(void)total;
	if (c->calls++ == 0)
		vmsift_cancel(c->vs);
}

/* vmsift_cancel() during a dump: the dump fails, says it was cancelled
 * and is incomplete; the next dump on the session runs to the end. */
static void test_cancel(const char *path)
{
	struct vmsift_options o = { .struct_size = sizeof(o), .dump_level = 1,
				    .codec = VMSIFT_CODEC_LZO, .threads = 2 };
	struct vmsift *vs = open_session(path);
	struct cancel_arg c = { vs, 0 };
	struct vmsift_stats st;
	int fd = new_output("cancelled"), fd2 = new_output("after");

	o.progress = cancel_on_first;
	o.progress_arg = &c;
	CHECK(vmsift_dump(vs, &o, fd, "memfd") < 0);
	vmsift_get_stats(vs, &st);
	CHECK(c.calls >= 1);
	CHECK(st.cancelled);
	CHECK(st.incomplete);
	CHECK(*vmsift_error(vs) != '\0');
	o.progress = NULL;
	CHECK(dump(vs, &o, fd2) == 0);
	vmsift_get_stats(vs, &st);
	CHECK(!st.cancelled && !st.incomplete);
	CHECK(st.dumped > 0);
	close(fd);
	close(fd2);
	vmsift_free(vs);
}

/* A file that is not there: the open fails with a message naming it. */
/* --mem-usage: the table's counts are a -d 31 dump's, a size estimate
 * is near that dump's size, and a caller's shorter struct is honoured. */
static void test_mem_usage(const char *path)
{
	struct vmsift_options o = { .struct_size = sizeof(o), .dump_level = 31,
				    .codec = VMSIFT_CODEC_ZLIB, .threads = 2,
				    .dry_run = 1 };
	/* exact_zero: the zero pages counted, as the dump counts them */
	struct vmsift_mem_usage mu = { .struct_size = sizeof(mu),
				       .exact_zero = 1 };
	struct vmsift_mem_usage short_mu, small_mu, est_mu;
	struct vmsift *vs = open_session(path);
	struct vmsift_stats st;
	int fd = new_output("mu");
	uint64_t est = 0;

	CHECK(dump(vs, &o, fd) == 0);
	vmsift_get_stats(vs, &st);
	CHECK(vmsift_mem_usage(vs, NULL, &mu) == 0);
	CHECK_U64(mu.present, st.present);
	CHECK_U64(mu.zero, st.zero);
	CHECK(mu.zero_estimated == 0);
	CHECK_U64(mu.cache, st.cache);
	CHECK_U64(mu.cache_private, st.cache_private);
	CHECK_U64(mu.user, st.user);
	CHECK_U64(mu.free, st.free);
	CHECK(mu.nr_sizes == 8);
	for (unsigned i = 0; i < mu.nr_sizes; i++)
		if (mu.sizes[i].level == 31 && mu.sizes[i].codec == VMSIFT_CODEC_ZLIB)
			est = mu.sizes[i].bytes;
	CHECK(est * 10 >= st.bytes_written * 9 && est * 10 <= st.bytes_written * 11);
	/* The caller's sample bound: each of the two samples exactly that
	 * (with exact_zero the first holds only non-zero pages, and the
	 * second has more than 30 non-zero pages on these vmcores). */
	small_mu = (struct vmsift_mem_usage){ .struct_size = sizeof(small_mu),
					      .sample_pages = 30,
					      .exact_zero = 1 };
	CHECK(vmsift_mem_usage(vs, NULL, &small_mu) == 0);
	CHECK_U64(small_mu.sampled, 60);
	CHECK(mu.sampled > small_mu.sampled);
	CHECK_U64(small_mu.zero, mu.zero);
	/* Without exact_zero, ZERO is estimated, and says so. */
	est_mu = (struct vmsift_mem_usage){ .struct_size = sizeof(est_mu) };
	CHECK(vmsift_mem_usage(vs, NULL, &est_mu) == 0);
	CHECK(est_mu.zero_estimated == 1);
	CHECK_U64(est_mu.cache, mu.cache);
	/* An older caller's struct ends before the sizes: they stay its own. */
	memset(&short_mu, 0xab, sizeof(short_mu));
	short_mu.struct_size = offsetof(struct vmsift_mem_usage, sizes);
	CHECK(vmsift_mem_usage(vs, NULL, &short_mu) == 0);
	CHECK_U64(short_mu.struct_size, offsetof(struct vmsift_mem_usage, sizes));
	CHECK_U64(short_mu.free, mu.free);
	CHECK(short_mu.nr_sizes == 0xabababab);
	short_mu.struct_size = 0;
	CHECK(vmsift_mem_usage(vs, NULL, &short_mu) < 0);
	CHECK(vmsift_status(vs) == VMSIFT_E_INVALID);
	close(fd);
	vmsift_free(vs);
}

static void test_open_missing(void)
{
	struct vmsift *vs = vmsift_new();

	if (!CHECK(vs != NULL))
		return;
	CHECK(vmsift_open(vs, "/nonexistent/vmcore") < 0);
	CHECK_STR(vmsift_error(vs), "/nonexistent/vmcore");
	vmsift_free(vs);
	vmsift_free(NULL);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: api_test SMALL.vmcore BIG.vmcore\n");
		return 2;
	}
	test_open_missing();
	test_dump_twice(argv[1]);
	test_dry_run(argv[1]);
	test_mem_usage(argv[2]);
	test_cancel(argv[2]);
	return check_exit("api");
}
