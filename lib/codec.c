/* codec.c - the codec registry (codec.h). */
#include <stddef.h>

#include "codec.h"

static const struct vs_codec_ops *const codecs[] = {
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
