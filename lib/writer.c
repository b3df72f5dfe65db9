/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * writer.c - the table of output formats (writer.h), used by dump.c.
 */
#include <stddef.h>

#include "writer.h"

static const struct vs_writer_ops *const writers[] = {
	&vs_kdump_writer,
	&vs_elf_writer,
};

const struct vs_writer_ops *vs_writer_get(enum vmsift_format format)
{
	for (size_t i = 0; i < sizeof(writers) / sizeof(writers[0]); i++)
		if (writers[i]->format == format)
			return writers[i];
	return NULL;
}
