/* SPDX-License-Identifier: GPL-2.0-or-later */
/* codec_zstd.c - zstd pages (kdump flag 0x20), one reused CCtx a writer
 * thread and one DCtx a reader. */
#include <zstd.h>

#include "codec.h"

static void *zstd_new(int level)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();

	if (!c)
		return NULL;
	/* Level 0 means zstd's default (3); ours is 1, as makedumpfile's. */
	if (ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel,
						level ? level : 1)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 0)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1))) {
		ZSTD_freeCCtx(c);
		return NULL;
	}
	return c;
}

static void zstd_free(void *ctx)
{
	ZSTD_freeCCtx(ctx);
}

static size_t zstd_compress(void *ctx, const void *src, size_t len,
			    void *dst, size_t cap)
{
	size_t n = ZSTD_compress2(ctx, dst, cap, src, len);

	if (ZSTD_isError(n))
		return 0;
	return n < len ? n : 0;
}

static void *zstd_dctx_new(void)
{
	return ZSTD_createDCtx();
}

static void zstd_dctx_free(void *dctx)
{
	ZSTD_freeDCtx(dctx);
}

static int zstd_decompress(void *dctx, const void *src, size_t len, void *dst,
			   size_t out_len)
{
	size_t n = ZSTD_decompressDCtx(dctx, dst, out_len, src, len);

	return !ZSTD_isError(n) && n == out_len ? 0 : -1;
}

const struct vs_codec_ops vs_codec_zstd = {
	.name = "zstd",
	.id = VMSIFT_CODEC_ZSTD,
	.flag = 0x20,
	.ctx_new = zstd_new,
	.ctx_free = zstd_free,
	.compress = zstd_compress,
	.dctx_new = zstd_dctx_new,
	.dctx_free = zstd_dctx_free,
	.decompress = zstd_decompress,
};
