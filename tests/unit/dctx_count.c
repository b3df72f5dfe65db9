/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dctx_count.c - decompression contexts belong to the reader: reading
 * every page of a compressed kdump file through one reader makes at most
 * one context per codec, not one per page.  Linked with --wrap on the
 * codecs' context constructors (tests/unit/Makefile), which it counts.
 *
 *   dctx_count DUMP      (zlib or zstd kdump-compressed)
 *
 * Used by tests/suites/refilter.sh.
 */
#include <stdio.h>
#include <stdlib.h>

#include "input.h"

void *__real_libdeflate_alloc_decompressor(void);
void *__wrap_libdeflate_alloc_decompressor(void);
void *__real_ZSTD_createDCtx(void);
void *__wrap_ZSTD_createDCtx(void);

static unsigned long made;

void *__wrap_libdeflate_alloc_decompressor(void)
{
	made++;
	return __real_libdeflate_alloc_decompressor();
}

void *__wrap_ZSTD_createDCtx(void)
{
	made++;
	return __real_ZSTD_createDCtx();
}

int main(int argc, char **argv)
{
	struct vs_error err = { 0 };
	struct vs_input in = { 0 };
	struct vs_reader r;
	enum vs_page_state st;
	unsigned long data = 0;
	uint8_t *buf;

	if (argc != 2)
		return fprintf(stderr, "usage: dctx_count DUMP\n"), 2;
	if (vs_input_open(&in, argv[1], &err) < 0 ||
	    vs_reader_init(&r, &in, &err) < 0)
		return fprintf(stderr, "%s\n", err.msg), 1;
	buf = malloc(in.page_size);
	if (!buf)
		return 1;
	for (uint64_t pfn = 0; pfn < in.max_mapnr; pfn++) {
		if (vs_reader_page(&r, pfn, buf, &st, &err) < 0)
			return fprintf(stderr, "%s\n", err.msg), 1;
		data += st == VS_PAGE_DATA;
	}
	vs_reader_fini(&r);
	vs_input_close(&in);
	free(buf);
	printf("%lu pages read, %lu decompression contexts made\n", data, made);
	if (data < 1000)
		return fprintf(stderr, "too few pages to tell\n"), 1;
	return made <= 1 ? 0 : 1;
}
