/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * input.c - open an input dump, whatever its format: the table of formats
 * (format.h), each told by its signature, the way libkdumpfile's open.c
 * chooses.  Used by dump.c and the read API; calls the file layer and,
 * through the table, the formats.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format.h"
#include "vmcoreinfo.h"

/* ELF comes last and is the default: a file no format recognises is read
 * as ELF, whose open then says what is wrong with it. */
static const struct vs_format_ops *const formats[] = {
	&vs_format_kdump,
	&vs_format_elf,
};

#define NR_FORMATS (sizeof(formats) / sizeof(formats[0]))
#define PROBE_LEN 64

static const struct vs_format_ops *choose(const struct vs_file *f)
{
	uint8_t head[PROBE_LEN];
	size_t len = f->size < sizeof(head) ? (size_t)f->size : sizeof(head);

	if (vs_file_read(f, head, len, 0) < 0)
		len = 0;
	for (size_t i = 0; i < NR_FORMATS; i++)
		if (formats[i]->probe(head, len))
			return formats[i];
	return formats[NR_FORMATS - 1];
}

/* The file is open: read it with the format its signature names. */
static int open_format(struct vs_input *in, struct vs_error *err)
{
	in->page_size = 4096;        /* until the format reads the dump's */
	in->page_shift = 12;
	in->ops = choose(&in->file);
	return in->ops->open(in, err);
}

int vs_input_open(struct vs_input *in, const char *path, struct vs_error *err)
{
	if (vs_file_open(&in->file, path, in->ids, err) < 0)
		return -1;
	return open_format(in, err);
}

int vs_input_open_fd(struct vs_input *in, int fd, const char *name,
		     struct vs_error *err)
{
	if (vs_file_open_fd(&in->file, fd, name, in->ids, err) < 0)
		return -1;
	return open_format(in, err);
}

void vs_input_close(struct vs_input *in)
{
	if (in->ops && in->ops->close)
		in->ops->close(in);
	vs_file_close(&in->file);
	vs_vmcoreinfo_free(in->vi);
	free(in->notes);
	free(in->phys);
	free(in->loads);
	memset(in, 0, sizeof(*in));
	in->file.fd = -1;
}
