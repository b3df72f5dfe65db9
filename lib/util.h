/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util.h - small helpers shared by the library's files: full reads and
 * writes, rounding, the zero-page test, the clock (util.c), the binary
 * search over sorted arrays of structs (inline).  The lowest
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

/*
 * Binary search over an array of N structs sorted by a uint64_t member
 * (STRIDE bytes apart, the key KEY_OFF bytes into each): the index of the
 * first element whose key is above KEY (UPPER) or at or above it (not
 * UPPER); N when there is none.  Inline, so that the compiler folds the
 * stride, offset and comparison at each call.  Use the macros below.
 */
static inline size_t vs_bound_u64(const void *base, size_t n, size_t stride,
				  size_t key_off, uint64_t key, int upper)
{
	const char *p = base;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k = *(const uint64_t *)(p + mid * stride + key_off);

		if (upper ? k <= key : k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * VS_LOWER_BOUND(ARR, N, FIELD, KEY): the index of the first of ARR[0..N)
 * whose FIELD (a uint64_t member, ARR sorted by it) is at or above KEY;
 * VS_UPPER_BOUND: above KEY.  N when there is none.  The last element at
 * or below KEY is VS_UPPER_BOUND(...) - 1, none when that is 0.  Neither
 * evaluates ARR[0]: an empty array may be NULL.  A FIELD of another type
 * does not compile.
 */
#define VS_BOUND_(arr, n, field, key, upper)				\
	vs_bound_u64(_Generic((arr)->field, uint64_t: (arr)), (n),	\
		     sizeof(*(arr)), offsetof(__typeof__(*(arr)), field),	\
		     (key), (upper))
#define VS_LOWER_BOUND(arr, n, field, key) VS_BOUND_(arr, n, field, key, 0)
#define VS_UPPER_BOUND(arr, n, field, key) VS_BOUND_(arr, n, field, key, 1)

#endif
