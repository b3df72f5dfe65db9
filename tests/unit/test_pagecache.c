/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pagecache.c - lib/pagecache.c on its own: bounded, second chance
 * (CLOCK), bytes kept intact, a cache of no page.  Run by
 * tests/suites/api.sh.
 */
#include <stdio.h>
#include <string.h>

#include "pagecache.h"

#define PS 64

static int failures;

static void check(int ok, const char *what)
{
	printf("%s %s\n", ok ? "ok" : "FAIL", what);
	failures += !ok;
}

static void page_of(uint64_t pfn, uint8_t *p)
{
	memset(p, (int)(pfn * 7 + 1), PS);
}

/* Is PFN cached, with its bytes? */
static int has(struct vs_pagecache *c, uint64_t pfn)
{
	uint8_t got[PS], want[PS];

	if (!vs_pagecache_get(c, pfn, got))
		return 0;
	page_of(pfn, want);
	return memcmp(got, want, PS) == 0 ? 1 : -1;
}

static void put(struct vs_pagecache *c, uint64_t pfn)
{
	uint8_t p[PS];

	page_of(pfn, p);
	vs_pagecache_put(c, pfn, p);
}

int main(void)
{
	struct vs_pagecache *c = vs_pagecache_new(PS, 4);
	int n = 0;

	for (uint64_t pfn = 1; pfn <= 4; pfn++)
		put(c, pfn);
	for (uint64_t pfn = 1; pfn <= 4; pfn++)
		n += has(c, pfn) == 1;
	check(n == 4, "4 pages in a cache of 4, bytes intact");
	/* All four referenced now: 5 takes the slot the hand reaches
	 * after clearing every bit, pfn 1's. */
	put(c, 5);
	check(has(c, 1) == 0 && has(c, 5) == 1, "full, all referenced: the "
	      "first is replaced");
	/* 2, 3, 4 had their bits cleared; 5 and 2 referenced again. */
	has(c, 2);
	put(c, 6);
	check(has(c, 2) == 1 && has(c, 3) == 0, "a referenced page gets a "
	      "second chance, an unreferenced one goes");
	n = 0;
	for (uint64_t pfn = 1; pfn <= 6; pfn++)
		n += has(c, pfn) == 1;
	check(n == 4, "never more than 4 pages");
	for (uint64_t pfn = 100; pfn < 1100; pfn++)
		put(c, pfn);
	n = 0;
	for (uint64_t pfn = 100; pfn < 1100; pfn++)
		n += has(c, pfn) == 1;
	check(n == 4, "1000 more pages: still 4");
	vs_pagecache_free(c);
	c = vs_pagecache_new(PS, 0);
	put(c, 1);
	check(c && has(c, 1) == 0, "a cache of no page keeps nothing");
	vs_pagecache_free(c);
	vs_pagecache_free(NULL);
	return failures ? 1 : 0;
}
