/* SPDX-License-Identifier: GPL-2.0-or-later */
/* codec_lzo.c - LZO1X-1 pages (kdump flag 0x2). */
#include <stdlib.h>
#include <lzo/lzo1x.h>

#include "codec.h"

static void *lzo_new(int level)
{
	(void)level;
	if (lzo_init() != LZO_E_OK)
		return NULL;
	return malloc(LZO1X_1_MEM_COMPRESS);
}

static void lzo_free(void *ctx)
{
	free(ctx);
}

static size_t lzo_compress(void *ctx, const void *src, size_t len,
			   void *dst, size_t cap)
{
	lzo_uint out = cap;

	/* lzo1x_1_compress needs len + len/16 + 64 + 3 of room. */
	if (cap < len + len / 16 + 67)
		return 0;
	if (lzo1x_1_compress(src, len, dst, &out, ctx) != LZO_E_OK)
		return 0;
	return out < len ? out : 0;
}

static int lzo_decompress(void *dctx, const void *src, size_t len, void *dst,
			  size_t out_len)
{
	lzo_uint out = out_len;

	(void)dctx;
	if (lzo_init() != LZO_E_OK)
		return -1;
	if (lzo1x_decompress_safe(src, len, dst, &out, NULL) != LZO_E_OK)
		return -1;
	return out == out_len ? 0 : -1;
}

const struct vs_codec_ops vs_codec_lzo = {
	.name = "lzo",
	.id = VMSIFT_CODEC_LZO,
	.flag = 0x2,
	.ctx_new = lzo_new,
	.ctx_free = lzo_free,
	.compress = lzo_compress,
	.decompress = lzo_decompress,
};
