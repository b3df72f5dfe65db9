/* SPDX-License-Identifier: GPL-2.0-or-later */
/* codec_snappy.c - snappy pages (kdump flag 0x4). */
#include <stdlib.h>
#include <snappy-c.h>

#include "codec.h"

/* snappy keeps no state between calls; a byte stands in for a context. */
static void *snappy_new(int level)
{
	(void)level;
	return malloc(1);
}

static void snappy_free(void *ctx)
{
	free(ctx);
}

static size_t snappy_compress_page(void *ctx, const void *src, size_t len,
				   void *dst, size_t cap)
{
	size_t out = cap;

	(void)ctx;
	if (cap < snappy_max_compressed_length(len))
		return 0;
	if (snappy_compress(src, len, dst, &out) != SNAPPY_OK)
		return 0;
	return out < len ? out : 0;
}

static int snappy_decompress_page(void *dctx, const void *src, size_t len,
				  void *dst, size_t out_len)
{
	size_t out = 0;

	(void)dctx;
	if (snappy_uncompressed_length(src, len, &out) != SNAPPY_OK ||
	    out != out_len)
		return -1;
	return snappy_uncompress(src, len, dst, &out) == SNAPPY_OK &&
	       out == out_len ? 0 : -1;
}

const struct vs_codec_ops vs_codec_snappy = {
	.name = "snappy",
	.id = VMSIFT_CODEC_SNAPPY,
	.flag = 0x4,
	.ctx_new = snappy_new,
	.ctx_free = snappy_free,
	.compress = snappy_compress_page,
	.decompress = snappy_decompress_page,
};
