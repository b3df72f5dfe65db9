/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bound_test.c - lib/util.h's binary search (VS_LOWER_BOUND,
 * VS_UPPER_BOUND), the one the library's sorted arrays share (erase
 * pieces, input segments, chunk runs, ELF view pieces, vmemmap groups).
 * Checked against a linear scan: an empty (NULL) array, keys all below,
 * all above, runs of equal keys, the extremes 0 and UINT64_MAX, the key at
 * an offset inside a larger struct, and every array of up to 9 elements
 * over a small key range with every key of that range.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "util.h"

/* The key in the middle of a struct, as in the library's arrays. */
struct item {
	uint32_t before;
	uint64_t key;
	uint64_t after;
};

/* The first index of A[0..N) whose key is above KEY (UPPER) or at or
 * above it: the plain scan the search must agree with. */
static size_t linear(const struct item *a, size_t n, uint64_t key, int upper)
{
	size_t i = 0;

	while (i < n && (upper ? a[i].key <= key : a[i].key < key))
		i++;
	return i;
}

static void check_both(const struct item *a, size_t n, uint64_t key)
{
	CHECK_U64(VS_LOWER_BOUND(a, n, key, key), linear(a, n, key, 0));
	CHECK_U64(VS_UPPER_BOUND(a, n, key, key), linear(a, n, key, 1));
}

static void test_empty(void)
{
	const struct item *none = NULL;

	CHECK_U64(VS_LOWER_BOUND(none, 0, key, 0), 0);
	CHECK_U64(VS_UPPER_BOUND(none, 0, key, UINT64_MAX), 0);
}

static void test_edges(void)
{
	struct item a[] = {
		{ 1, 10, 0 }, { 2, 20, 0 }, { 3, 20, 0 }, { 4, 20, 0 },
		{ 5, 30, 0 },
	};
	size_t n = sizeof(a) / sizeof(a[0]);

	/* all keys above KEY */
	CHECK_U64(VS_LOWER_BOUND(a, n, key, 0), 0);
	CHECK_U64(VS_UPPER_BOUND(a, n, key, 9), 0);
	/* all keys below KEY */
	CHECK_U64(VS_LOWER_BOUND(a, n, key, 31), n);
	CHECK_U64(VS_UPPER_BOUND(a, n, key, UINT64_MAX), n);
	/* equal keys: lower is the first of them, upper one past the last */
	CHECK_U64(VS_LOWER_BOUND(a, n, key, 20), 1);
	CHECK_U64(VS_UPPER_BOUND(a, n, key, 20), 4);
	CHECK_U64(VS_LOWER_BOUND(a, n, key, 21), 4);
	CHECK_U64(VS_UPPER_BOUND(a, n, key, 10), 1);
	CHECK_U64(VS_LOWER_BOUND(a, n, key, 10), 0);
	CHECK_U64(VS_LOWER_BOUND(a, n, key, 30), 4);
	CHECK_U64(VS_UPPER_BOUND(a, n, key, 30), 5);
	/* one element */
	CHECK_U64(VS_LOWER_BOUND(a, 1, key, 10), 0);
	CHECK_U64(VS_UPPER_BOUND(a, 1, key, 10), 1);
	/* all equal */
	for (size_t i = 0; i < n; i++)
		a[i].key = UINT64_MAX;
	CHECK_U64(VS_LOWER_BOUND(a, n, key, UINT64_MAX), 0);
	CHECK_U64(VS_UPPER_BOUND(a, n, key, UINT64_MAX), n);
	CHECK_U64(VS_UPPER_BOUND(a, n, key, UINT64_MAX - 1), 0);
}

/* Every non-decreasing array of up to 9 keys in [0, 4), every key in
 * [0, 5): each length's arrays are counted out as digits in base 4,
 * sorted ones only. */
static void test_exhaustive(void)
{
	struct item a[9];

	for (size_t n = 0; n <= 9; n++) {
		uint64_t total = 1;

		for (size_t i = 0; i < n; i++)
			total *= 4;
		for (uint64_t code = 0; code < total; code++) {
			uint64_t c = code;
			int sorted = 1;

			for (size_t i = 0; i < n; i++, c /= 4) {
				a[i] = (struct item){ (uint32_t)i, c % 4, ~0ULL };
				if (i && a[i].key < a[i - 1].key)
					sorted = 0;
			}
			if (!sorted)
				continue;
			for (uint64_t key = 0; key < 5; key++)
				check_both(a, n, key);
		}
	}
}

/* Large arrays of random sorted keys with many repeats. */
static void test_random(void)
{
	enum { N = 1000 };
	static struct item a[N];
	unsigned seed = 1;

	for (int round = 0; round < 20; round++) {
		uint64_t k = 0;
		size_t n = (size_t)(rand_r(&seed) % N) + 1;

		for (size_t i = 0; i < n; i++) {
			k += (uint64_t)(rand_r(&seed) % 3);
			a[i].key = k;
		}
		for (uint64_t key = 0; key <= k + 1; key++)
			check_both(a, n, key);
	}
}

int main(void)
{
	test_empty();
	test_edges();
	test_exhaustive();
	test_random();
	return check_exit("bound_test");
}
