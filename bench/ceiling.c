/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ceiling.c - the codecs' own speed on a vmcore's pages, one thread: the
 * ceiling for vmsift's copy phase.  Compresses every non-zero page of the
 * input's PT_LOADs (pages read once into memory first, so no I/O is
 * timed) with each codec through the library's codec ops, as the copy
 * phase does, and prints MB/s of input pages and the stored size.
 *
 *   bench/ceiling VMCORE [MAX_MB]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codec.h"
#include "input.h"
#include "util.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Up to MAX bytes of the input's non-zero pages, in pfn order. */
static uint8_t *load_pages(struct vs_input *in, size_t max, size_t *n)
{
	struct vs_reader r;
	struct vs_error err;
	uint8_t *buf = malloc(max);
	size_t ps = in->page_size;

	*n = 0;
	if (!buf || vs_reader_init(&r, in, &err) < 0)
		return NULL;
	for (uint64_t pfn = 0; pfn < in->max_mapnr && (*n + 1) * ps <= max; pfn++) {
		const uint8_t *page;
		uint64_t mem, data;

		vs_input_page_cover(in, pfn, &mem, &data);
		if (!data || vs_read_page(&r, pfn, &page, &err) < 0 ||
		    vs_is_zero(page, ps))
			continue;
		memcpy(buf + *n * ps, page, ps);
		(*n)++;
	}
	vs_reader_fini(&r);
	return buf;
}

static void run(const struct vs_codec_ops *c, const uint8_t *pages, size_t n,
		size_t ps)
{
	void *ctx = c->ctx_new(0);
	uint8_t *dst = malloc(2 * ps);
	size_t stored = 0;
	double t;

	if (!ctx || !dst)
		return;
	t = now();
	for (size_t i = 0; i < n; i++) {
		size_t k = c->compress(ctx, pages + i * ps, ps, dst, 2 * ps);

		stored += k ? k : ps;
	}
	t = now() - t;
	printf("%-7s %8.1f MB/s  %6.1f%% of the pages' size\n", c->name,
	       (double)(n * ps) / t / 1e6, 100.0 * (double)stored / (double)(n * ps));
	c->ctx_free(ctx);
	free(dst);
}

int main(int argc, char **argv)
{
	static const enum vmsift_codec ids[] = {
		VMSIFT_CODEC_ZLIB, VMSIFT_CODEC_LZO, VMSIFT_CODEC_SNAPPY,
		VMSIFT_CODEC_ZSTD,
	};
	struct vs_input in = { 0 };
	struct vs_error err;
	size_t n, max = (argc > 2 ? (size_t)atol(argv[2]) : 256) << 20;
	uint8_t *pages;

	if (argc < 2)
		return fprintf(stderr, "usage: ceiling VMCORE [MAX_MB]\n"), 2;
	if (vs_input_open(&in, argv[1], &err) < 0)
		return fprintf(stderr, "ceiling: %s\n", err.msg), 1;
	pages = load_pages(&in, max, &n);
	if (!pages || n == 0)
		return fprintf(stderr, "ceiling: no pages\n"), 1;
	printf("%zu non-zero pages (%.1f MB) of %s, one thread:\n", n,
	       (double)(n * in.page_size) / 1e6, argv[1]);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		run(vs_codec_get(ids[i]), pages, n, in.page_size);
	free(pages);
	vs_input_close(&in);
	return 0;
}
