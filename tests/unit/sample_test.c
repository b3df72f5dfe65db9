// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sample_test.c - lib/sample.c, --mem-usage's bounded systematic sample:
 * against a brute-force model of sample.h's rule (the N-th pfn offered is
 * in the sample when (N + SEED) % STRIDE == STRIDE - 1, STRIDE the
 * smallest power of 3 that keeps it within CAP), over bitmaps dense,
 * sparse and patterned, streams shorter and far longer than CAP, and
 * several seeds; vs_sample_trim() against its rule of places;
 * vs_sample_take() as a simple random sample (exact size, every item and
 * every pair of near neighbours taken as often as chance says).
 */
#include <stdlib.h>

#include "check.h"
#include "sample.h"

/* A deterministic bitmap word: KIND 0 all set, 1 every 7th bit, 2 a
 * pseudo-random third, 3 none. */
static uint64_t word_of(unsigned kind, uint64_t i)
{
	uint64_t x = i * 0x9e3779b97f4a7c15ULL;

	switch (kind) {
	case 0:
		return ~0ULL;
	case 1:
		return 0x8102040810204081ULL << (i % 7);
	case 2:
		x ^= x >> 29;
		x *= 0xbf58476d1ce4e5b9ULL;
		return x & (x >> 1) & (x >> 2) ? x & (x >> 3) : x;
	default:
		return 0;
	}
}

/* The stride the rule ends with for a stream of N pfns and bound CAP:
 * the smallest power of 3 whose taken places number at most CAP. */
static uint64_t model_stride(uint64_t n, size_t cap, uint64_t seed)
{
	cap = cap < 3 ? 3 : cap;
	for (uint64_t s = 1;; s *= 3) {
		uint64_t taken = 0;

		for (uint64_t k = 0; k < n; k++)
			taken += (k + seed) % s == s - 1;
		if (taken <= cap)
			return s;
	}
}

static void test_stream(unsigned kind, uint64_t words, size_t cap,
			uint64_t seed)
{
	struct vs_sample s;
	struct vs_error err;
	uint64_t *pfns = malloc(words * 64 * sizeof(*pfns));
	uint64_t n = 0, stride, want = 0;

	CHECK(pfns != NULL);
	if (!pfns || vs_sample_init(&s, cap, seed, &err) < 0) {
		CHECK(0);
		free(pfns);
		return;
	}
	/* pfns from 1000 up, a word every 64 */
	for (uint64_t i = 0; i < words; i++) {
		uint64_t w = word_of(kind, i);

		vs_sample_word(&s, 1000 + i * 64, w);
		for (unsigned b = 0; b < 64; b++)
			if (w >> b & 1)
				pfns[n++] = 1000 + i * 64 + b;
	}
	CHECK_U64(s.seen, n);
	stride = model_stride(n, cap, seed & 0xffffffff);
	CHECK_U64(s.stride, stride);
	CHECK(s.n <= s.cap);
	if (n > s.cap)
		CHECK(s.n * 3 >= s.cap - 2);
	for (uint64_t k = 0; k < n; k++) {
		if ((k + (seed & 0xffffffff)) % stride != stride - 1)
			continue;
		if (!CHECK(want < s.n))
			break;
		CHECK_U64(s.items[want].nth, k);
		CHECK_U64(s.items[want].pfn, pfns[k]);
		want++;
	}
	CHECK_U64(s.n, want);
	vs_sample_fini(&s);
	free(pfns);
}

/* vs_sample_trim(): of a stream of N pfns all taken (a bound above N),
 * exactly WANT kept, the places floor((j * N + SEED % WANT) / WANT) in
 * order (all N when WANT >= N); and a second trim to more keeps them. */
static void test_trim(uint64_t n, size_t want, uint64_t seed)
{
	struct vs_sample s;
	struct vs_error err;
	uint64_t keep = want < n ? want : n;

	if (!CHECK(vs_sample_init(&s, n + 3, seed, &err) == 0))
		return;
	for (uint64_t i = 0; i < n; i += 64)
		vs_sample_word(&s, 5000 + i, n - i >= 64 ? ~0ULL :
			       (1ULL << (n - i)) - 1);
	CHECK_U64(s.n, n);
	vs_sample_trim(&s, want);
	CHECK_U64(s.n, keep);
	for (uint64_t j = 0; j < keep; j++) {
		uint64_t at = want < n ?
			(j * n + (seed & 0xffffffff) % want) / want : j;

		CHECK_U64(s.items[j].nth, at);
		CHECK_U64(s.items[j].pfn, 5000 + at);
	}
	vs_sample_trim(&s, want + 1);
	CHECK_U64(s.n, keep);
	vs_sample_fini(&s);
}

/* |COUNT / RUNS - P| within 6 standard deviations of a frequency. */
static int near(unsigned count, unsigned runs, double p)
{
	double d = (double)count / runs - p;

	return d * d <= 36 * p * (1 - p) / runs;
}

/* vs_sample_take() over N items wanting K (K <= N <= 64), RUNS seeds:
 * exactly K taken every time; each item about K / N of the runs, and
 * each pair at distance 1 and 2 about K (K - 1) / (N (N - 1)).  An even
 * pick (a step between 2 and 3 here) never takes neighbours. */
static void test_take(uint64_t n, uint64_t k, unsigned runs)
{
	unsigned one[64] = { 0 }, pair[3][64] = { { 0 } };
	double p1 = (double)k / n, p2 = p1 * (k - 1) / (n - 1);

	for (unsigned r = 0; r < runs; r++) {
		uint64_t state = r * 7919ull, want = k, got = 0, mask = 0;

		for (uint64_t i = 0; i < n; i++)
			if (want && vs_sample_take(&state, n - i, want)) {
				mask |= 1ull << i;
				want--;
				got++;
			}
		if (!CHECK(got == k))
			return;
		for (uint64_t i = 0; i < n; i++) {
			one[i] += (unsigned)(mask >> i & 1);
			for (unsigned d = 1; d <= 2 && i + d < n; d++)
				pair[d][i] += (unsigned)(mask >> i & mask >> (i + d) & 1);
		}
	}
	for (uint64_t i = 0; i < n; i++) {
		CHECK(near(one[i], runs, p1));
		for (unsigned d = 1; d <= 2 && i + d < n; d++)
			CHECK(near(pair[d][i], runs, p2));
	}
}

int main(void)
{
	static const uint64_t seeds[] = { 0, 1, 2, 7919, 0x1234567890ULL };

	for (unsigned kind = 0; kind < 4; kind++)
		for (unsigned i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
			test_stream(kind, 3, 3072, seeds[i]);     /* all */
			test_stream(kind, 200, 96, seeds[i]);     /* many triplings */
			test_stream(kind, 2000, 384, seeds[i]);
			test_stream(kind, 40, 3, seeds[i]);       /* the least bound */
		}
	for (unsigned i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		test_trim(1000, 333, seeds[i]);  /* a fractional step */
		test_trim(1000, 999, seeds[i]);  /* steps of 1 and 2 */
		test_trim(200, 1, seeds[i]);
		test_trim(100, 100, seeds[i]);   /* nothing to trim */
		test_trim(50, 3072, seeds[i]);
	}
	test_take(60, 26, 20000);  /* as 1024 of 2217 non-zero pages */
	test_take(40, 1, 20000);
	test_take(10, 10, 100);    /* all */
	/* a bound below 3 is raised to 3 */
	test_stream(0, 10, 1, 0);
	return check_exit("sample_test");
}
