/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bitops.h - bit helpers over arrays of 64-bit words, the layout of the
 * selection bitmaps.  Used by the chunk selection (select.c) and the
 * writers.
 */
#ifndef VMSIFT_BITOPS_H
#define VMSIFT_BITOPS_H

#include <stdint.h>

static inline void vs_bit_set(uint64_t *bits, uint64_t i)
{
	bits[i / 64] |= 1ULL << (i % 64);
}

static inline int vs_bit_test(const uint64_t *bits, uint64_t i)
{
	return (bits[i / 64] >> (i % 64)) & 1;
}

static inline void vs_bit_clear(uint64_t *bits, uint64_t i)
{
	bits[i / 64] &= ~(1ULL << (i % 64));
}

/* Bits set in the first NWORDS words. */
static inline uint64_t vs_bits_count(const uint64_t *bits, uint64_t nwords)
{
	uint64_t n = 0;

	for (uint64_t i = 0; i < nwords; i++)
		n += (uint64_t)__builtin_popcountll(bits[i]);
	return n;
}

#endif
