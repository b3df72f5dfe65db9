/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pagecache.c - the bounded CLOCK cache of decompressed pages that the
 * read interface (read.c) shares between its readers (see pagecache.h).
 *
 * Entries live in one array; a chained hash (heads[] of entry indexes,
 * next[] per entry, -1 ending a chain) finds a pfn's entry.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pagecache.h"

struct entry {
	uint64_t pfn;
	long next;                   /* the next entry of its hash chain */
	int used;
	int referenced;              /* CLOCK's second-chance bit */
};

struct vs_pagecache {
	pthread_mutex_t lock;
	size_t page_size, n;
	struct entry *e;
	uint8_t *pages;              /* n pages, entry i's at i * page_size */
	long *heads;
	size_t nheads;               /* a power of two */
	size_t hand;
	uint64_t hits, misses;
};

struct vs_pagecache *vs_pagecache_new(size_t page_size, size_t npages)
{
	struct vs_pagecache *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->page_size = page_size;
	c->n = npages;
	c->nheads = 1;
	while (c->nheads < 2 * npages)
		c->nheads *= 2;
	c->e = calloc(npages ? npages : 1, sizeof(*c->e));
	c->pages = malloc(npages ? npages * page_size : 1);
	c->heads = malloc(c->nheads * sizeof(*c->heads));
	if (!c->e || !c->pages || !c->heads ||
	    pthread_mutex_init(&c->lock, NULL)) {
		free(c->e);
		free(c->pages);
		free(c->heads);
		free(c);
		return NULL;
	}
	for (size_t i = 0; i < c->nheads; i++)
		c->heads[i] = -1;
	return c;
}

void vs_pagecache_free(struct vs_pagecache *c)
{
	if (!c)
		return;
	pthread_mutex_destroy(&c->lock);
	free(c->e);
	free(c->pages);
	free(c->heads);
	free(c);
}

static size_t bucket(const struct vs_pagecache *c, uint64_t pfn)
{
	return (size_t)((pfn * 0x9e3779b97f4a7c15ULL) >> 32) & (c->nheads - 1);
}

static long find(const struct vs_pagecache *c, uint64_t pfn)
{
	long i = c->heads[bucket(c, pfn)];

	while (i >= 0 && c->e[i].pfn != pfn)
		i = c->e[i].next;
	return i;
}

int vs_pagecache_get(struct vs_pagecache *c, uint64_t pfn, void *buf)
{
	long i;

	pthread_mutex_lock(&c->lock);
	i = c->n ? find(c, pfn) : -1;
	if (i >= 0) {
		c->e[i].referenced = 1;
		memcpy(buf, c->pages + (size_t)i * c->page_size, c->page_size);
		c->hits++;
	} else {
		c->misses++;
	}
	pthread_mutex_unlock(&c->lock);
	return i >= 0;
}

static void unlink_entry(struct vs_pagecache *c, long i)
{
	long *p = &c->heads[bucket(c, c->e[i].pfn)];

	while (*p != i)
		p = &c->e[*p].next;
	*p = c->e[i].next;
	c->e[i].used = 0;
}

/* The entry CLOCK's hand gives up: a free one, or the first found
 * unreferenced, clearing referenced bits on the way. */
static long victim(struct vs_pagecache *c)
{
	for (;;) {
		long i = (long)c->hand;

		c->hand = (c->hand + 1) % c->n;
		if (!c->e[i].used)
			return i;
		if (!c->e[i].referenced) {
			unlink_entry(c, i);
			return i;
		}
		c->e[i].referenced = 0;
	}
}

void vs_pagecache_put(struct vs_pagecache *c, uint64_t pfn, const void *page)
{
	size_t b;
	long i;

	if (!c->n)
		return;
	pthread_mutex_lock(&c->lock);
	if (find(c, pfn) < 0) {
		i = victim(c);
		b = bucket(c, pfn);
		c->e[i] = (struct entry){ .pfn = pfn, .next = c->heads[b],
					  .used = 1 };
		c->heads[b] = i;
		memcpy(c->pages + (size_t)i * c->page_size, page,
		       c->page_size);
	}
	pthread_mutex_unlock(&c->lock);
}

void vs_pagecache_counts(struct vs_pagecache *c, uint64_t *hits,
			 uint64_t *misses)
{
	pthread_mutex_lock(&c->lock);
	*hits = c->hits;
	*misses = c->misses;
	pthread_mutex_unlock(&c->lock);
}
