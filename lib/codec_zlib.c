/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * codec_zlib.c - zlib-format pages (kdump flag 0x1), encoded by libdeflate
 * (a whole-buffer encoder: no stream state to reset between pages) and
 * decoded by it too, with one decompressor a reader.
 */
#include <libdeflate.h>

#include "codec.h"

static void *zlib_new(int level)
{
	return libdeflate_alloc_compressor(level > 0 ? level : 1);
}

static void zlib_free(void *ctx)
{
	if (ctx)
		libdeflate_free_compressor(ctx);
}

static size_t zlib_compress(void *ctx, const void *src, size_t len,
			    void *dst, size_t cap)
{
	size_t n = libdeflate_zlib_compress(ctx, src, len, dst, cap);

	return n < len ? n : 0;
}

static void *zlib_dctx_new(void)
{
	return libdeflate_alloc_decompressor();
}

static void zlib_dctx_free(void *dctx)
{
	libdeflate_free_decompressor(dctx);
}

static int zlib_decompress(void *dctx, const void *src, size_t len, void *dst,
			   size_t out_len)
{
	return libdeflate_zlib_decompress(dctx, src, len, dst, out_len, NULL) ==
	       LIBDEFLATE_SUCCESS ? 0 : -1;
}

const struct vs_codec_ops vs_codec_zlib = {
	.name = "zlib",
	.id = VMSIFT_CODEC_ZLIB,
	.flag = 0x1,
	.ctx_new = zlib_new,
	.ctx_free = zlib_free,
	.compress = zlib_compress,
	.dctx_new = zlib_dctx_new,
	.dctx_free = zlib_dctx_free,
	.decompress = zlib_decompress,
};
