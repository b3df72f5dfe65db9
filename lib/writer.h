/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * writer.h - the output formats behind one ops table.
 *
 * Each format writer (kdump_writer.c, elf_writer.c) exports only its ops;
 * the orchestration (dump.c) finds them with vs_writer_get() and never
 * branches on the format.  Writers call down into select.h's services,
 * never back up into dump.c.
 */
#ifndef VMSIFT_WRITER_H
#define VMSIFT_WRITER_H

#include "select.h"

struct vs_writer_ops {
	const char *name;
	enum vmsift_format format;
	int splits;                  /* can write a split set */
	/* Can this writer make its format from IN with OPTS?  Optional. */
	int (*check)(const struct vs_input *in,
		     const struct vmsift_options *opts, struct vs_error *err);
	/* Write the whole dump to d->sinks; on failure set d->incomplete
	 * when what was written is a readable dump of what it holds. */
	int (*write)(struct vs_dump *d, struct vs_error *err);
};

extern const struct vs_writer_ops vs_kdump_writer;
extern const struct vs_writer_ops vs_elf_writer;

/* Where a kdump-compressed dump of D puts its page descriptors: the
 * header, sub header, notes and both bitmaps come before (estimate.c). */
uint64_t vs_kdump_desc_off(const struct vs_dump *d);

/* The writer of FORMAT, or NULL. */
const struct vs_writer_ops *vs_writer_get(enum vmsift_format format);

#endif
