/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util.h - small helpers shared by the library's files: full reads and
 * writes, rounding, the zero-page test, the clock (util.c).  The lowest
 * layer with error.h: it includes nothing of the library.
 */
#ifndef VMSIFT_UTIL_H
#define VMSIFT_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* pread/pwrite that retry on EINTR and short transfers.  Return 0, or -1
 * with errno set (0 for a read that hit the end of the file). */
int vs_pread_full(int fd, void *buf, size_t len, uint64_t off);
int vs_pwrite_full(int fd, const void *buf, size_t len, uint64_t off);
int vs_write_full(int fd, const void *buf, size_t len);
/* Read up to LEN bytes; returns bytes read (< LEN only at end of input). */
ssize_t vs_read_upto(int fd, void *buf, size_t len);

static inline uint64_t vs_div_round_up(uint64_t x, uint64_t y)
{
	return (x + y - 1) / y;
}

static inline uint64_t vs_round_up(uint64_t x, uint64_t y)
{
	return vs_div_round_up(x, y) * y;
}

/* Is the buffer all zero bytes?  Any length, any alignment. */
int vs_is_zero(const void *buf, size_t len);

/* A monotonic clock, in seconds, for the phase timings. */
double vs_now(void);
/* CPU seconds of the calling thread (a system call: per chunk, not per
 * page). */
double vs_thread_cpu(void);
/* CPU seconds of the whole process, every thread. */
double vs_process_cpu(void);

#endif
