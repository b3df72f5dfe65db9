/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_common.h - helpers shared by the fuzz targets: put bytes in an
 * anonymous file (memfd) that the library can open by path, and an empty
 * output file.  Each target defines LLVMFuzzerTestOneInput(); libFuzzer
 * (make -C tests/fuzz) or replay.c (make -C tests/fuzz replay) calls it.
 */
#ifndef VMSIFT_FUZZ_COMMON_H
#define VMSIFT_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* The age targets' test identity (a throwaway key, no secret) and its
 * recipient, which the seeds are encrypted to. */
#define FZ_AGE_IDENTITY \
	"AGE-SECRET-KEY-1RF9MXSZ6NLQNNJEZ02UJTSDTKNJ7WMYKCVK4A8UDAWCQDHK8J0HS8FVATH\n"
#define FZ_AGE_RECIPIENT \
	"age1hsmtte2v3kvfp6hyy692utl04nddadw8lyc03fgj4h0lhvrm996sfkcl7h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static inline void fz_die(const char *what)
{
	perror(what);
	abort();
}

/* A new memfd holding DATA; its path ("/proc/self/fd/N") into PATH. */
static inline int fz_memfd(const char *name, const uint8_t *data, size_t size,
			   char *path, size_t path_size)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		fz_die("memfd_create");
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0)
			fz_die("write memfd");
		done += (size_t)n;
	}
	if (lseek(fd, 0, SEEK_SET) < 0)
		fz_die("lseek memfd");
	if (path)
		snprintf(path, path_size, "/proc/self/fd/%d", fd);
	return fd;
}

/* Empty FD again (an output reused between runs). */
static inline void fz_truncate(int fd)
{
	if (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0)
		fz_die("ftruncate");
}

/* Little-endian integers from the input, 0 past its end. */
static inline uint64_t fz_le(const uint8_t *p, size_t avail, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n && i < avail; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

#endif
