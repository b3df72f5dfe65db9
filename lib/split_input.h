/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * split_input.h - the files of a split set read as one input: the
 * composite the read interface (read.c) opens for vmsift_dumpfile_open_split.
 *
 * Every file of a set carries the whole of both bitmaps and the notes;
 * file i holds the page descriptors and data of pfns [start_pfn, end_pfn)
 * only, the ranges following each other from 0 to max_mapnr.  The
 * composite is parts[0] (the file whose range starts at 0) with hooks
 * that send each page read to the file whose range holds it, through a
 * per-thread reader of that file kept in the caller's vs_reader.
 *
 * Ownership: vs_split_open() fills a caller's struct vs_split (which must
 * not move while open), taking duplicates of FDS; vs_split_close()
 * releases it all.
 */
#ifndef VMSIFT_SPLIT_INPUT_H
#define VMSIFT_SPLIT_INPUT_H

#include "error.h"
#include "input.h"

struct vs_split {
	struct vs_input *parts;      /* sorted by start_pfn */
	unsigned n;
};

int vs_split_open(struct vs_split *s, const int *fds,
		  const char *const *names, unsigned n,
		  const struct vs_age_ids *ids, struct vs_error *err);
void vs_split_close(struct vs_split *s);

#endif
