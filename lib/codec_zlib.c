/*
 * codec_zlib.c - zlib-format pages (kdump flag 0x1), encoded by libdeflate
 * (a whole-buffer encoder: no stream state to reset between pages) and
 * decoded by it too.  Readers decode with zlib's uncompress().
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

static int zlib_decompress(const void *src, size_t len, void *dst,
			   size_t out_len)
{
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	enum libdeflate_result r;

	if (!d)
		return -1;
	r = libdeflate_zlib_decompress(d, src, len, dst, out_len, NULL);
	libdeflate_free_decompressor(d);
	return r == LIBDEFLATE_SUCCESS ? 0 : -1;
}

const struct vs_codec_ops vs_codec_zlib = {
	.name = "zlib",
	.id = VMSIFT_CODEC_ZLIB,
	.flag = 0x1,
	.ctx_new = zlib_new,
	.ctx_free = zlib_free,
	.compress = zlib_compress,
	.decompress = zlib_decompress,
};
