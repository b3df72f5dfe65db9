/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_read.c - the read interface (vmsift_dumpfile, vmsift_reader)
 * against the input it was dumped from.  Run by tests/suites/api.sh:
 *
 *   test_read same REF DUMP [DUMP...]   every pfn of DUMP (several files:
 *       a split set) reads as REF does: same state where DUMP holds the
 *       page, the same bytes, and zeros in REF where DUMP excluded it
 *       (DUMP made at -d 1)
 *   test_read bitmap KDUMP              states are those of the file's
 *       own bitmaps, parsed here from the on-disk header
 *   test_read threads REF DUMP [DUMP...] 4 threads, a 256 KiB cache, each
 *       reading every pfn in its own order: the bytes of REF
 *       (the first TEST_READ_MAX_PFN pfns only, when that is set)
 *   test_read kvirt DUMP [DUMP...]      init_uts_ns, read through the
 *       page tables, holds VMCOREINFO's OSRELEASE
 *   test_read errors DUMP DIR           statuses of failed reads and opens
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* memmem */
#endif
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vmsift.h"

static void die(const char *what, const char *msg)
{
	fprintf(stderr, "FAIL %s: %s\n", what, msg);
	exit(1);
}

/* Open ARGV[0..N): one dump, or the files of a split set. */
static struct vmsift_dumpfile *open_dump(char **argv, int n, size_t cache)
{
	struct vmsift_dumpfile *df = vmsift_dumpfile_new();
	int fds[64], rc;

	if (!df || n < 1 || n > 64)
		die("open", "bad arguments or out of memory");
	if (vmsift_dumpfile_set_cache(df, cache) < 0)
		die("set cache", vmsift_dumpfile_error(df));
	if (n == 1)
		return vmsift_dumpfile_open(df, argv[0]) < 0 ?
		       (die(argv[0], vmsift_dumpfile_error(df)), NULL) : df;
	for (int i = 0; i < n; i++) {
		fds[i] = open(argv[i], O_RDONLY | O_CLOEXEC);
		if (fds[i] < 0)
			die(argv[i], "cannot open");
	}
	rc = vmsift_dumpfile_open_split(df, fds, (const char *const *)argv,
					(unsigned)n);
	for (int i = 0; i < n; i++)
		close(fds[i]);
	if (rc < 0)
		die("open split set", vmsift_dumpfile_error(df));
	return df;
}

static struct vmsift_reader *new_reader(struct vmsift_dumpfile *df)
{
	struct vmsift_reader *r = vmsift_reader_new(df);

	if (!r)
		die("vmsift_reader_new", "NULL");
	return r;
}

static int held(enum vmsift_page s)
{
	return s == VMSIFT_PAGE_ZERO || s == VMSIFT_PAGE_DATA;
}

static int all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

struct pair {
	struct vmsift_reader *ref, *dump;
	uint8_t *a, *b;
	size_t ps;
	uint64_t held;               /* pages DUMP holds */
};

/* Compare pfn PFN of the two; 0 when they agree. */
static int compare_pfn(struct pair *p, uint64_t pfn)
{
	enum vmsift_page sr, sd;

	if (vmsift_read_pfn(p->ref, pfn, p->a, &sr) < 0)
		die("read REF", vmsift_reader_error(p->ref));
	if (vmsift_read_pfn(p->dump, pfn, p->b, &sd) < 0)
		die("read DUMP", vmsift_reader_error(p->dump));
	if (held(sd)) {
		p->held++;
		if (!held(sr) || memcmp(p->a, p->b, p->ps)) {
			fprintf(stderr, "FAIL pfn 0x%llx: states %d/%d, bytes "
				"%s\n", (unsigned long long)pfn, sr, sd,
				memcmp(p->a, p->b, p->ps) ? "differ" : "equal");
			return -1;
		}
		return 0;
	}
	if (!all_zero(p->b, p->ps) ||
	    (sd == VMSIFT_PAGE_NOT_PRESENT) != (sr == VMSIFT_PAGE_NOT_PRESENT) ||
	    !all_zero(p->a, p->ps)) {
		fprintf(stderr, "FAIL pfn 0x%llx: states %d/%d, REF %s\n",
			(unsigned long long)pfn, sr, sd,
			all_zero(p->a, p->ps) ? "zeros" : "has data");
		return -1;
	}
	return 0;
}

static int t_same(char **argv, int n)
{
	struct vmsift_dumpfile *ref = open_dump(argv, 1, 1 << 20);
	struct vmsift_dumpfile *dump = open_dump(argv + 1, n - 1, 4 << 20);
	uint64_t max = vmsift_dumpfile_max_pfn(ref);
	struct pair p = { new_reader(ref), new_reader(dump), NULL, NULL,
			  vmsift_dumpfile_page_size(ref), 0 };
	int bad = 0;

	if (vmsift_dumpfile_max_pfn(dump) != max ||
	    vmsift_dumpfile_page_size(dump) != p.ps)
		die("geometry", "max_pfn or page size differ");
	p.a = malloc(p.ps);
	p.b = malloc(p.ps);
	for (uint64_t pfn = 0; pfn < max && bad < 10; pfn++)
		bad += compare_pfn(&p, pfn) < 0;
	printf("%llu pfns, %llu held by the dump, %d differ\n",
	       (unsigned long long)max, (unsigned long long)p.held, bad);
	if (p.held < max / 4)
		die("same", "the dump holds too few pages to say anything");
	vmsift_reader_free(p.ref);
	vmsift_reader_free(p.dump);
	vmsift_dumpfile_free(ref);
	vmsift_dumpfile_free(dump);
	free(p.a);
	free(p.b);
	return bad ? 1 : 0;
}

static uint8_t *read_file_range(int fd, uint64_t off, size_t len)
{
	uint8_t *buf = malloc(len);

	if (!buf || pread(fd, buf, len, (off_t)off) != (ssize_t)len)
		die("read bitmap", "short read");
	return buf;
}

static int bit(const uint8_t *map, uint64_t pfn)
{
	return map[pfn / 8] >> (pfn % 8) & 1;
}

/* The header fields at their offsets (kdump format, 64-bit). */
static int t_bitmap(char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int32_t bs, sub;
	uint32_t blocks;
	uint8_t *b1, *b2, *buf;
	struct vmsift_dumpfile *df = open_dump(&path, 1, 1 << 20);
	struct vmsift_reader *r = new_reader(df);
	uint64_t max = vmsift_dumpfile_max_pfn(df), excluded = 0, bad = 0;

	if (fd < 0 || pread(fd, &bs, 4, 428) != 4 || pread(fd, &sub, 4, 432) != 4 ||
	    pread(fd, &blocks, 4, 436) != 4)
		die(path, "cannot read the header");
	b1 = read_file_range(fd, (uint64_t)(1 + sub) * (uint64_t)bs,
			     (size_t)blocks * (size_t)bs / 2);
	b2 = read_file_range(fd, (uint64_t)(1 + sub) * (uint64_t)bs +
			     (size_t)blocks * (size_t)bs / 2,
			     (size_t)blocks * (size_t)bs / 2);
	buf = malloc((size_t)bs);
	for (uint64_t pfn = 0; pfn < max; pfn++) {
		enum vmsift_page s, want;

		if (vmsift_read_pfn(r, pfn, buf, &s) < 0)
			die("read", vmsift_reader_error(r));
		want = !bit(b1, pfn) ? VMSIFT_PAGE_NOT_PRESENT :
		       !bit(b2, pfn) ? VMSIFT_PAGE_EXCLUDED : s;
		excluded += want == VMSIFT_PAGE_EXCLUDED;
		if (s != want || (bit(b2, pfn) && !held(s))) {
			if (bad++ < 10)
				fprintf(stderr, "FAIL pfn 0x%llx: state %d, "
					"bitmaps %d %d\n",
					(unsigned long long)pfn, s,
					bit(b1, pfn), bit(b2, pfn));
		}
	}
	printf("%llu pfns, %llu excluded, %llu wrong\n",
	       (unsigned long long)max, (unsigned long long)excluded,
	       (unsigned long long)bad);
	if (excluded == 0)
		die("bitmap", "nothing excluded: not a test of EXCLUDED");
	vmsift_reader_free(r);
	vmsift_dumpfile_free(df);
	free(b1);
	free(b2);
	free(buf);
	close(fd);
	return bad ? 1 : 0;
}

struct thread_arg {
	struct vmsift_dumpfile *ref, *dump;
	unsigned seed;
	int bad;
	pthread_t tid;
};

#define BLOCK 256

/* Every pfn once, in an order of its own: blocks of BLOCK pfns (a file's
 * locality), the blocks taken with a stride prime to their number, and
 * each pfn again 4 pfns later (then from the cache, if it kept it). */
static void *reader_thread(void *argp)
{
	struct thread_arg *t = argp;
	uint64_t max = vmsift_dumpfile_max_pfn(t->dump);
	const char *limit = getenv("TEST_READ_MAX_PFN");
	uint64_t nblocks = (max + BLOCK - 1) / BLOCK, block = t->seed;
	uint64_t stride = 7 + 6 * (uint64_t)t->seed;
	struct pair p = { new_reader(t->ref), new_reader(t->dump), NULL, NULL,
			  vmsift_dumpfile_page_size(t->dump), 0 };

	if (limit && strtoull(limit, NULL, 0) < max) {
		max = strtoull(limit, NULL, 0);
		nblocks = (max + BLOCK - 1) / BLOCK;
	}
	while (nblocks % stride == 0)
		stride++;
	p.a = malloc(p.ps);
	p.b = malloc(p.ps);
	for (uint64_t i = 0; i < nblocks && t->bad < 10; i++) {
		block = (block + stride) % nblocks;
		for (uint64_t k = 0; k < BLOCK; k++) {
			uint64_t pfn = block * BLOCK + k;

			if (pfn < max)
				t->bad += compare_pfn(&p, pfn) < 0;
			if (pfn < max && k >= 4)
				t->bad += compare_pfn(&p, pfn - 4) < 0;
		}
	}
	vmsift_reader_free(p.ref);
	vmsift_reader_free(p.dump);
	free(p.a);
	free(p.b);
	return NULL;
}

static int t_threads(char **argv, int n)
{
	struct vmsift_dumpfile *ref = open_dump(argv, 1, 0);
	struct vmsift_dumpfile *dump = open_dump(argv + 1, n - 1, 256 << 10);
	struct thread_arg t[4];
	uint64_t hits, misses;
	int bad = 0;

	for (unsigned i = 0; i < 4; i++) {
		t[i] = (struct thread_arg){ ref, dump, i, 0, 0 };
		if (pthread_create(&t[i].tid, NULL, reader_thread, &t[i]))
			die("threads", "pthread_create");
	}
	for (unsigned i = 0; i < 4; i++) {
		pthread_join(t[i].tid, NULL);
		bad += t[i].bad;
	}
	vmsift_dumpfile_cache_counts(dump, &hits, &misses);
	printf("4 threads: %d pages differ; cache: %llu hits, %llu misses\n",
	       bad, (unsigned long long)hits, (unsigned long long)misses);
	if (hits == 0 || misses == 0)
		die("threads", "the cache was not exercised");
	vmsift_dumpfile_free(ref);
	vmsift_dumpfile_free(dump);
	return bad ? 1 : 0;
}

/* The value of KEY= in VMCOREINFO TEXT, into OUT. */
static int vmcoreinfo_value(const char *text, size_t len, const char *key,
			    char *out, size_t out_size)
{
	size_t klen = strlen(key);

	for (const char *p = text; p < text + len;) {
		const char *nl = memchr(p, '\n', (size_t)(text + len - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(text + len - p);

		if (l > klen && !memcmp(p, key, klen) && p[klen] == '=' &&
		    l - klen - 1 < out_size) {
			memcpy(out, p + klen + 1, l - klen - 1);
			out[l - klen - 1] = '\0';
			return 0;
		}
		p += l + 1;
	}
	return -1;
}

static int t_kvirt(char **argv, int n)
{
	struct vmsift_dumpfile *df = open_dump(argv, n, 1 << 20);
	struct vmsift_reader *r = new_reader(df);
	char release[128], sym[64], uts[1024];
	const char *vi;
	size_t len;
	uint64_t addr;

	vi = vmsift_dumpfile_vmcoreinfo(df, &len);
	if (!vi || vmcoreinfo_value(vi, len, "OSRELEASE", release,
				    sizeof(release)) < 0 ||
	    vmcoreinfo_value(vi, len, "SYMBOL(init_uts_ns)", sym,
			     sizeof(sym)) < 0)
		die("kvirt", "no OSRELEASE or SYMBOL(init_uts_ns) in VMCOREINFO");
	addr = strtoull(sym, NULL, 16);
	if (vmsift_read_kvirt(r, addr, uts, sizeof(uts)) < 0)
		die("read_kvirt", vmsift_reader_error(r));
	if (!memmem(uts, sizeof(uts), release, strlen(release) + 1))
		die("kvirt", "init_uts_ns does not hold OSRELEASE");
	printf("init_uts_ns at 0x%llx holds '%s'\n", (unsigned long long)addr,
	       release);
	vmsift_reader_free(r);
	vmsift_dumpfile_free(df);
	return 0;
}

static int failures;

static void expect(enum vmsift_status got, int rc, enum vmsift_status want,
		   const char *what, const char *msg)
{
	if (rc == 0 || got != want) {
		fprintf(stderr, "FAIL %s: rc %d, status %s (want %s): %s\n",
			what, rc, vmsift_status_name(got),
			vmsift_status_name(want), msg);
		failures++;
	} else {
		printf("ok %s: %s\n", what, msg);
	}
}

/* A pfn the dump does not hold after one it holds, or UINT64_MAX. */
static uint64_t find_missing(struct vmsift_reader *r, uint64_t max,
			     uint8_t *buf)
{
	int prev_held = 0;

	for (uint64_t pfn = 0; pfn < max; pfn++) {
		enum vmsift_page s;

		if (vmsift_read_pfn(r, pfn, buf, &s) < 0)
			die("read", vmsift_reader_error(r));
		if (prev_held && !held(s))
			return pfn;
		prev_held = held(s);
	}
	return UINT64_MAX;
}

static void t_errors_read(struct vmsift_dumpfile *df)
{
	struct vmsift_reader *r = new_reader(df);
	uint64_t max = vmsift_dumpfile_max_pfn(df), ps, missing;
	enum vmsift_page s;
	uint8_t *buf;
	int rc;

	ps = vmsift_dumpfile_page_size(df);
	buf = malloc(2 * ps);
	rc = vmsift_read_pfn(r, max, buf, &s);
	expect(vmsift_reader_status(r), rc, VMSIFT_E_INVALID, "pfn max_pfn",
	       vmsift_reader_error(r));
	missing = find_missing(r, max, buf);
	if (missing == UINT64_MAX)
		die("errors", "the dump holds every page");
	/* A range that starts in a held page and runs into a missing one. */
	rc = vmsift_read_phys(r, missing * ps - 8, buf, 16);
	expect(vmsift_reader_status(r), rc, VMSIFT_E_NO_DATA,
	       "read_phys into a missing page", vmsift_reader_error(r));
	vmsift_reader_free(r);
	free(buf);
}

/* Copy the first LEN bytes of IN to OUT. */
static void copy_head(const char *in, const char *out, size_t len)
{
	char *buf = malloc(len);
	int fi = open(in, O_RDONLY | O_CLOEXEC);
	int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (!buf || fi < 0 || fo < 0 || pread(fi, buf, len, 0) != (ssize_t)len ||
	    write(fo, buf, len) != (ssize_t)len)
		die(out, "cannot copy");
	free(buf);
	close(fi);
	close(fo);
}

/* A kdump file cut inside its page data: pages past the cut fail. */
static void t_errors_cut(const char *path, const char *dir)
{
	char cut[4096];
	struct vmsift_dumpfile *df = vmsift_dumpfile_new();
	struct vmsift_reader *r;
	uint8_t buf[1 << 16];
	enum vmsift_page s;
	int rc = 0;

	snprintf(cut, sizeof(cut), "%s/cut.kdump", dir);
	copy_head(path, cut, 3 << 20);
	if (vmsift_dumpfile_open(df, cut) < 0)
		die("open a cut kdump", vmsift_dumpfile_error(df));
	r = new_reader(df);
	for (uint64_t pfn = 0; rc == 0 && pfn < vmsift_dumpfile_max_pfn(df); pfn++)
		rc = vmsift_read_pfn(r, pfn, buf, &s);
	expect(vmsift_reader_status(r), rc, VMSIFT_E_BAD_INPUT,
	       "a page past the cut", vmsift_reader_error(r));
	vmsift_reader_free(r);
	vmsift_dumpfile_free(df);
}

static int t_errors(char **argv)
{
	struct vmsift_dumpfile *df = open_dump(argv, 1, 1 << 20);
	struct vmsift_dumpfile *bad = vmsift_dumpfile_new();
	int rc;

	t_errors_read(df);
	rc = vmsift_dumpfile_open(df, argv[0]);
	expect(vmsift_dumpfile_status(df), rc, VMSIFT_E_INVALID, "open twice",
	       vmsift_dumpfile_error(df));
	rc = vmsift_dumpfile_open(bad, "/proc/self/status");
	expect(vmsift_dumpfile_status(bad), rc, VMSIFT_E_BAD_INPUT,
	       "open a text file", vmsift_dumpfile_error(bad));
	vmsift_dumpfile_free(bad);
	bad = vmsift_dumpfile_new();
	rc = vmsift_dumpfile_open_split(bad, (int[]){ 0 }, (const char *[]){ "x" }, 0);
	expect(vmsift_dumpfile_status(bad), rc, VMSIFT_E_INVALID,
	       "a split set of no file", vmsift_dumpfile_error(bad));
	vmsift_dumpfile_free(bad);
	/* A cache no machine has room for. */
	bad = vmsift_dumpfile_new();
	vmsift_dumpfile_set_cache(bad, SIZE_MAX / 2);
	rc = vmsift_dumpfile_open(bad, argv[0]);
	expect(vmsift_dumpfile_status(bad), rc, VMSIFT_E_NO_MEMORY,
	       "a cache of SIZE_MAX / 2 bytes", vmsift_dumpfile_error(bad));
	vmsift_dumpfile_free(bad);
	vmsift_dumpfile_free(df);
	t_errors_cut(argv[0], argv[1]);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "same") && argc >= 4)
		return t_same(argv + 2, argc - 2);
	if (!strcmp(mode, "bitmap") && argc == 3)
		return t_bitmap(argv[2]);
	if (!strcmp(mode, "threads") && argc >= 4)
		return t_threads(argv + 2, argc - 2);
	if (!strcmp(mode, "kvirt") && argc >= 3)
		return t_kvirt(argv + 2, argc - 2);
	if (!strcmp(mode, "errors") && argc == 4)
		return t_errors(argv + 2);
	fprintf(stderr, "usage: test_read same|threads REF DUMP...; "
		"bitmap KDUMP; kvirt DUMP; errors KDUMP DIR\n");
	return 2;
}
