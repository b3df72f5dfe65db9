/* SPDX-License-Identifier: GPL-2.0-or-later */
/* codec.c - the codec registry (codec.h). */
#include <stddef.h>
#include <string.h>

#include "codec.h"

static const struct vs_codec_ops *const codecs[VS_NR_CODECS] = {
	&vs_codec_zlib, &vs_codec_lzo, &vs_codec_snappy, &vs_codec_zstd,
};

const struct vs_codec_ops *vs_codec_get(enum vmsift_codec id)
{
	for (size_t i = 0; i < sizeof(codecs) / sizeof(codecs[0]); i++)
		if (codecs[i]->id == id)
			return codecs[i];
	return NULL;
}

const struct vs_codec_ops *vs_codec_by_flag(uint32_t flag)
{
	for (size_t i = 0; i < sizeof(codecs) / sizeof(codecs[0]); i++)
		if (codecs[i]->flag == flag)
			return codecs[i];
	return NULL;
}

const char *vmsift_codec_name(enum vmsift_codec codec)
{
	const struct vs_codec_ops *ops = vs_codec_get(codec);

	return ops ? ops->name : "none";
}

int vs_codec_decompress(struct vs_dctx_set *set, const struct vs_codec_ops *c,
			const void *src, size_t len, void *dst, size_t out_len)
{
	size_t i = 0;

	while (i < VS_NR_CODECS && codecs[i] != c)
		i++;
	if (i == VS_NR_CODECS)
		return -1;
	if (c->dctx_new && !set->ctx[i]) {
		set->ctx[i] = c->dctx_new();
		if (!set->ctx[i])
			return -2;
	}
	return c->decompress(set->ctx[i], src, len, dst, out_len);
}

void vs_dctx_set_fini(struct vs_dctx_set *set)
{
	for (size_t i = 0; i < VS_NR_CODECS; i++)
		if (set->ctx[i])
			codecs[i]->dctx_free(set->ctx[i]);
	memset(set, 0, sizeof(*set));
}
