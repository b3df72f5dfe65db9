/*
 * codec.h - page compressors behind one small ops table.
 *
 * One file per codec (codec_zlib.c, ...), each exporting only its ops.
 * A context holds what one thread reuses from page to page (zstd's CCtx,
 * lzo's work memory); make one per worker.  compress() returns the size
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
	/* 0 if SRC decompressed to exactly OUT_LEN bytes, else -1. */
	int (*decompress)(const void *src, size_t len, void *dst, size_t out_len);
};

extern const struct vs_codec_ops vs_codec_zlib;
extern const struct vs_codec_ops vs_codec_lzo;
extern const struct vs_codec_ops vs_codec_snappy;
extern const struct vs_codec_ops vs_codec_zstd;

/* The ops for ID, or NULL for VMSIFT_CODEC_NONE. */
const struct vs_codec_ops *vs_codec_get(enum vmsift_codec id);
/* The ops whose page flag is FLAG, or NULL. */
const struct vs_codec_ops *vs_codec_by_flag(uint32_t flag);

#endif
