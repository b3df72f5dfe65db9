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

/* The first NWORDS words between the host's layout and the files': a
 * bitmap on disk (kdump bitmaps 1 and 2) is bytes, pfn 8 * i + b in bit
 * b of byte i, which is the words' layout on a little-endian host.  On a
 * big-endian one each word is swapped; either way, so one function turns
 * words into the file's bytes and back. */
static inline void vs_bits_le(uint64_t *bits, uint64_t nwords)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	for (uint64_t i = 0; i < nwords; i++)
		bits[i] = __builtin_bswap64(bits[i]);
#else
	(void)bits;
	(void)nwords;
#endif
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
