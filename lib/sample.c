// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sample.c - a systematic sample of bounded size (see sample.h).
 */
#include <stdlib.h>

#include "sample.h"

int vs_sample_init(struct vs_sample *s, size_t cap, uint64_t seed,
		   struct vs_error *err)
{
	s->seed = seed & 0xffffffff;  /* no wrap-around in nth + seed */
	s->stride = 1;
	s->seen = 0;
	s->n = 0;
	s->cap = cap < 3 ? 3 : cap;
	s->items = malloc(s->cap * sizeof(*s->items));
	if (!s->items)
		return vs_err_oom(err, "out of memory for a sample of %zu pages",
				  s->cap);
	return 0;
}

void vs_sample_fini(struct vs_sample *s)
{
	free(s->items);
	s->items = NULL;
	s->n = 0;
}

static int taken(const struct vs_sample *s, uint64_t nth)
{
	return (nth + s->seed) % s->stride == s->stride - 1;
}

/* Triple the stride: a third of the sample stays, in order. */
static void thin(struct vs_sample *s)
{
	size_t k = 0;

	s->stride *= 3;
	for (size_t i = 0; i < s->n; i++)
		if (taken(s, s->items[i].nth))
			s->items[k++] = s->items[i];
	s->n = k;
}

static void take(struct vs_sample *s, uint64_t pfn, uint64_t nth)
{
	if (s->n == s->cap) {
		thin(s);
		if (!taken(s, nth))
			return;
	}
	s->items[s->n++] = (struct vs_sample_item){ .pfn = pfn, .nth = nth };
}

/* The first place at or after NTH that the stride takes. */
static uint64_t first_from(const struct vs_sample *s, uint64_t nth)
{
	return nth + (s->stride - 1 - (nth + s->seed) % s->stride);
}

void vs_sample_word(struct vs_sample *s, uint64_t start, uint64_t word)
{
	uint64_t end = s->seen + (uint64_t)__builtin_popcountll(word);
	uint64_t at = s->seen;

	for (uint64_t next = first_from(s, at); next < end;
	     next = first_from(s, next + 1)) {
		/* drop the set bits before the NEXT-th */
		for (; at < next; at++)
			word &= word - 1;
		take(s, start + (uint64_t)__builtin_ctzll(word), next);
	}
	s->seen = end;
}

void vs_sample_trim(struct vs_sample *s, size_t n)
{
	uint64_t m = s->n, off;

	if (n == 0 || m <= n)
		return;
	off = s->seed % n;
	for (uint64_t j = 0; j < n; j++)
		s->items[j] = s->items[(j * m + off) / n];
	s->n = n;
}

int vs_sample_take(uint64_t *state, uint64_t left, uint64_t want)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return z % left < want;
}
