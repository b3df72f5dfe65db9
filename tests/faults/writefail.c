/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * writefail.so - an LD_PRELOAD shim that makes a program's writes to its
 * output fail as a full disk does, for the fault tests.
 *
 *   WRITEFAIL_AT=K      the K-th write (1-based) to a regular file or pipe
 *                       other than stderr fails with ENOSPC, and every
 *                       later one too
 *   WRITEFAIL_COUNT=F   at exit, write the number of writes seen to F
 *   WRITEFAIL_DELAY_US  sleep this long in each such write (to make a
 *                       dump slow enough to interrupt)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static atomic_long writes;

static int counted(int fd)
{
	struct stat st;

	return fd > 2 || (fd == 1 && fstat(fd, &st) == 0 && !S_ISCHR(st.st_mode));
}

static int should_fail(int fd)
{
	const char *at = getenv("WRITEFAIL_AT");
	const char *delay = getenv("WRITEFAIL_DELAY_US");
	long n;

	if (!counted(fd))
		return 0;
	n = atomic_fetch_add(&writes, 1) + 1;
	if (delay)
		usleep((useconds_t)atol(delay));
	return at && n >= atol(at);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	static ssize_t (*real)(int, const void *, size_t);

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (should_fail(fd)) {
		errno = ENOSPC;
		return -1;
	}
	return real(fd, buf, len);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite64");
	if (should_fail(fd)) {
		errno = ENOSPC;
		return -1;
	}
	return real(fd, buf, len, off);
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	return pwrite64(fd, buf, len, off);
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("WRITEFAIL_COUNT");
	FILE *f;

	if (path && (f = fopen(path, "w"))) {
		fprintf(f, "%ld\n", atomic_load(&writes));
		fclose(f);
	}
}
