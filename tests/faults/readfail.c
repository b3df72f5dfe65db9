/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * readfail.so - an LD_PRELOAD shim that makes a program's pread() of one
 * file fail at one offset, as a bad sector or a file cut short does, for
 * the fault tests (tests/suites/faults.sh).
 *
 *   READFAIL_PATH=P     the file whose reads fail (its real path)
 *   READFAIL_AT=OFF     a pread of P whose range holds byte OFF fails
 *   READFAIL_MODE=eio   ... with EIO (the default)
 *   READFAIL_MODE=short ... short: it returns the bytes before OFF, and a
 *                       pread starting at or past OFF returns 0 (the
 *                       file ends there)
 *   READFAIL_HITS=F     at exit, write to F how many preads failed
 *
 * Only pread: what is mapped (mmap) reads the file untouched.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

typedef ssize_t pread_fn(int, void *, size_t, off_t);

static atomic_long hits;

/* FD is READFAIL_PATH. */
static int is_target(int fd)
{
	const char *path = getenv("READFAIL_PATH");
	char link[64], real[PATH_MAX];
	ssize_t n;

	if (!path)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, real, sizeof(real) - 1);
	if (n < 0)
		return 0;
	real[n] = '\0';
	return strcmp(real, path) == 0;
}

/* What the shim makes of a pread of LEN at OFF: -1 (errno set), a
 * shorter count, or -2 when the real pread is to run. */
static ssize_t injected(int fd, size_t len, off_t off)
{
	const char *at = getenv("READFAIL_AT");
	const char *mode = getenv("READFAIL_MODE");
	off_t bad;

	if (!at || !is_target(fd))
		return -2;
	bad = (off_t)strtoll(at, NULL, 0);
	if (mode && !strcmp(mode, "short")) {
		if (off + (off_t)len <= bad)
			return -2;
		atomic_fetch_add(&hits, 1);
		return off >= bad ? 0 : (ssize_t)(bad - off);
	}
	if (bad < off || bad >= off + (off_t)len)
		return -2;
	atomic_fetch_add(&hits, 1);
	errno = EIO;
	return -1;
}

static ssize_t do_pread(const char *name, int fd, void *buf, size_t len,
			off_t off)
{
	pread_fn *real = (pread_fn *)dlsym(RTLD_NEXT, name);
	ssize_t r = injected(fd, len, off);

	if (r == -2)
		return real(fd, buf, len, off);
	if (r > 0)
		return real(fd, buf, (size_t)r, off);
	return r;
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	return do_pread("pread", fd, buf, len, off);
}

ssize_t pread64(int fd, void *buf, size_t len, off_t off)
{
	return do_pread("pread64", fd, buf, len, off);
}

__attribute__((destructor)) static void report(void)
{
	const char *f = getenv("READFAIL_HITS");
	FILE *fp;

	if (!f)
		return;
	fp = fopen(f, "w");
	if (!fp)
		return;
	fprintf(fp, "%ld\n", atomic_load(&hits));
	fclose(fp);
}
