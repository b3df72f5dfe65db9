/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sample.h - a systematic sample of bounded size from a stream of pfns
 * of unknown length (--mem-usage's, estimate.c).
 *
 * The pfns come in order, a 64-pfn bitmap word at a time.  Of the N-th
 * pfn seen (N from 0), the sample holds those with (N + SEED) % STRIDE ==
 * STRIDE - 1 (SEED: its low 32 bits).  STRIDE starts at 1 (every pfn)
 * and is tripled whenever the sample would grow past CAP, which keeps a
 * third of it: the sample ends with between CAP / 3 and CAP pfns (all of
 * them when the stream has at most CAP), spread evenly over the stream
 * whatever its length.  STRIDE
 * stays odd (a power of 3), so that no power-of-two alignment of the
 * kernel's allocations lines up with it.  Cost: a popcount per word, a
 * few instructions per pfn taken; memory: CAP pfns.
 *
 * vs_sample_trim() then keeps exactly N of them, evenly spread (a step of
 * n / N places, fractional): what is read and compressed is N pages, not
 * anything between a third of the bound and all of it.
 */
#ifndef VMSIFT_SAMPLE_H
#define VMSIFT_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct vs_sample_item {
	uint64_t pfn;
	uint64_t nth;                /* its place in the stream */
};

struct vs_sample {
	uint64_t seed;
	uint64_t stride;
	uint64_t seen;               /* pfns offered so far */
	struct vs_sample_item *items;
	size_t n, cap;
};

/* An empty sample of at most CAP (>= 3) pfns. */
int vs_sample_init(struct vs_sample *s, size_t cap, uint64_t seed,
		   struct vs_error *err);
void vs_sample_fini(struct vs_sample *s);

/* Offer the pfns START + i whose bit i is set in WORD. */
void vs_sample_word(struct vs_sample *s, uint64_t start, uint64_t word);

/* Keep N of the sample's n items when it holds more: those at the places
 * floor((j * n + SEED % N) / N), j from 0 to N - 1, in order (N places
 * spread evenly over the n, each at least one past the one before). */
void vs_sample_trim(struct vs_sample *s, size_t n);

/* Selection sampling, for a simple random sample of WANT of LEFT items
 * seen in order: whether the next item is taken, WANT and LEFT counting
 * what is still wanted and still to see (WANT <= LEFT, LEFT > 0); each
 * call draws the next number of *STATE (splitmix64), so that one seed
 * gives one sample on every machine.  Called for each item in turn,
 * WANT decremented when it answers 1 and LEFT every time, it takes
 * exactly WANT items, every item with the same chance and every pair
 * too: no spacing to alias with a period of the items (as an evenly
 * spread pick can, estimate.c). */
int vs_sample_take(uint64_t *state, uint64_t left, uint64_t want);

#endif
