/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util.c - small helpers shared by the library's files (util.h): full
 * reads and writes, the zero-page test, the clock.  Used by every layer;
 * calls nothing else of the library.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

int vs_pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	char *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = 0;
			return -1;
		}
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

/* Write all LEN bytes of BUF: with pwrite at OFF when AT, else with
 * write at the descriptor's position (a pipe's stream). */
static int write_all(int fd, const char *p, size_t len, int at, uint64_t off)
{
	while (len) {
		ssize_t n = at ? pwrite(fd, p, len, (off_t)off) : write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			return -1;
		}
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

int vs_pwrite_full(int fd, const void *buf, size_t len, uint64_t off)
{
	return write_all(fd, buf, len, 1, off);
}

int vs_write_full(int fd, const void *buf, size_t len)
{
	return write_all(fd, buf, len, 0, 0);
}

ssize_t vs_read_upto(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/* A 64-bit load from any address: pages of an ELF file whose segments
 * start at unaligned file offsets are not 8-byte aligned in the map. */
static inline uint64_t load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int vs_is_zero(const void *buf, size_t len)
{
	const uint8_t *b = buf;
	uint64_t acc = 0;

	/* OR whole cache lines before testing: branch-free inner loop. */
	for (size_t i = 0; i + 64 <= len; i += 64) {
		for (size_t j = 0; j < 64; j += 8)
			acc |= load64(b + i + j);
		if (acc)
			return 0;
	}
	for (size_t i = len & ~(size_t)63; i < len; i++)
		acc |= b[i];
	return acc == 0;
}

/* The clock ID in seconds; 0 when the clock cannot be read. */
static double clock_seconds(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts) < 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double vs_thread_cpu(void)
{
	return clock_seconds(CLOCK_THREAD_CPUTIME_ID);
}

double vs_process_cpu(void)
{
	return clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
}

double vs_now(void)
{
	return clock_seconds(CLOCK_MONOTONIC);
}
