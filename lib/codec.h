/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * codec.h - page compressors behind one small ops table.
 *
 * One file per codec (codec_zlib.c, ...), each exporting only its ops.
 * A context holds what one thread reuses from page to page (zstd's CCtx,
 * lzo's work memory); make one per worker.  Decompression has contexts
 * of its own (libdeflate's decompressor, zstd's DCtx): a reader keeps
 * one per codec in a struct vs_dctx_set, made on first use.  compress() returns the size
 * written, or 0 when the result would not be smaller than the input, so
 * that the caller stores the page raw, as makedumpfile does.
 */
#ifndef VMSIFT_CODEC_H
#define VMSIFT_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "vmsift.h"

struct vs_codec_ops {
	const char *name;
	enum vmsift_codec id;
	uint32_t flag;               /* kdump header and page flag bit */
	void *(*ctx_new)(int level); /* NULL when out of memory */
	void (*ctx_free)(void *ctx);
	size_t (*compress)(void *ctx, const void *src, size_t len,
			   void *dst, size_t cap);
	/* A decompression context, or NULL when out of memory; NULL op:
	 * the codec needs none (decompress gets NULL). */
	void *(*dctx_new)(void);
	void (*dctx_free)(void *dctx);
	/* 0 if SRC decompressed to exactly OUT_LEN bytes, else -1. */
	int (*decompress)(void *dctx, const void *src, size_t len, void *dst,
			  size_t out_len);
};

#define VS_NR_CODECS 4

/* One thread's decompression contexts, one per codec; zero it to start. */
struct vs_dctx_set {
	void *ctx[VS_NR_CODECS];
};

/* Decompress with CODEC's context in SET (made on first use): 0, -1 if
 * SRC does not decompress to exactly OUT_LEN bytes, -2 out of memory. */
int vs_codec_decompress(struct vs_dctx_set *set, const struct vs_codec_ops *c,
			const void *src, size_t len, void *dst, size_t out_len);
void vs_dctx_set_fini(struct vs_dctx_set *set);

extern const struct vs_codec_ops vs_codec_zlib;
extern const struct vs_codec_ops vs_codec_lzo;
extern const struct vs_codec_ops vs_codec_snappy;
extern const struct vs_codec_ops vs_codec_zstd;

/* The ops for ID, or NULL for VMSIFT_CODEC_NONE. */
const struct vs_codec_ops *vs_codec_get(enum vmsift_codec id);
/* The ops whose page flag is FLAG, or NULL. */
const struct vs_codec_ops *vs_codec_by_flag(uint32_t flag);

#endif
