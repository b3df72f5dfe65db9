/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * format.h - what an input format implements, and the services formats
 * share.  Internal to the input side: used by the formats (elf_input.c,
 * kdump_input.c), by the services they share (phys.c, notes.c), by
 * input.c (the table of formats, chosen by signature) and by reader.c
 * (which calls the ops); nothing above the input side includes it.
 *
 * A format file exports only its ops table; all else in it is static.
 * The layers, lowest first: util/error; flat.c; file.c; phys.c and
 * notes.c (services on struct vs_input); the formats; input.c and
 * reader.c.  No file calls one above it.
 */
#ifndef VMSIFT_FORMAT_H
#define VMSIFT_FORMAT_H

#include "input.h"

struct vs_format_ops {
	const char *name;
	/* Whether the file, whose first LEN bytes are HEAD, is this format. */
	int (*probe)(const uint8_t *head, size_t len);
	/* Read the headers and notes into IN; in->file is open. */
	int (*open)(struct vs_input *in, struct vs_error *err);
	/* Free in->priv. */
	void (*close)(struct vs_input *in);

	/* The whole page PFN, valid until the next call on R; fails if the
	 * input holds no data for it. */
	int (*read_page)(struct vs_reader *r, uint64_t pfn,
			 const uint8_t **page, struct vs_error *err);
	/* Copy physical memory; NULL: page by page through read_page. */
	int (*read_phys)(struct vs_reader *r, uint64_t paddr, void *buf,
			 size_t len, struct vs_error *err);
	/* Physical memory in place, or NULL; NULL op: never in place. */
	const uint8_t *(*peek_phys)(struct vs_reader *r, uint64_t paddr,
				    size_t len, struct vs_error *err);
	/* The pfns of [start, start + n) (64-aligned) whose data the input
	 * holds, as chunk-relative bits. */
	int (*data_bits)(struct vs_reader *r, uint64_t start, uint64_t n,
			 uint64_t *bits, struct vs_error *err);
};

extern const struct vs_format_ops vs_format_elf;
extern const struct vs_format_ops vs_format_kdump;

/* phys.c: the physical memory map. */
void vs_input_set_max_mapnr(struct vs_input *in);
/* The start of the first segment above PADDR (UINT64_MAX if none). */
uint64_t vs_phys_next(const struct vs_input *in, uint64_t paddr);
/* Bits of [start, start + n) for the pages the segments cover: with
 * memory (DATA = 0) or with data in the file (DATA = 1). */
void vs_phys_bits(const struct vs_input *in, uint64_t start, uint64_t n,
		  uint64_t *bits, int data);

/* notes.c: the notes (CPUs, VMCOREINFO). */
int vs_input_scan_notes(struct vs_input *in, struct vs_error *err);
int vs_input_load_vmcoreinfo_note(struct vs_input *in, struct vs_error *err);

#endif
