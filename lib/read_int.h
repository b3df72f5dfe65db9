/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * read_int.h - what the read interface (read.c) lends to the views built
 * on it (elf_view.c): the opened input, the translation, and a reader's
 * page reads through the shared cache, with its error.
 */
#ifndef VMSIFT_READ_INT_H
#define VMSIFT_READ_INT_H

#include "arch.h"
#include "input.h"

const struct vs_input *vs_df_input(const struct vmsift_dumpfile *df);
/* The translation, or NULL when the dump has none. */
const struct vs_arch *vs_df_arch(const struct vmsift_dumpfile *df);
struct vs_error *vs_df_err(struct vmsift_dumpfile *df);
/* The number of files of a split set; 0 for a plain input. */
unsigned vs_df_nparts(const struct vmsift_dumpfile *df);

/* Set in DATA (one bit a pfn, max_pfn bits, zeroed by the caller) the
 * pages whose data the dump holds. */
int vs_df_data_bits(struct vmsift_dumpfile *df, uint64_t *data);

struct vmsift_dumpfile *vs_reader_df(struct vmsift_reader *rd);
struct vs_error *vs_reader_err(struct vmsift_reader *rd);
/* The reader's own page buffer (page size bytes), for partial reads. */
uint8_t *vs_reader_bounce(struct vmsift_reader *rd);
/* Page PFN (zeros where the dump holds none) into BUF, through the
 * cache; the message names nothing (the caller adds the pfn). */
int vs_reader_read_page(struct vmsift_reader *rd, uint64_t pfn, uint8_t *buf,
			enum vmsift_page *state);

#endif
