/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_kdump.c - the kdump-compressed reader used for re-filtering
 * (lib/kdump_input.c): header, sub header, notes, bitmaps, page
 * descriptors and compressed pages, then a dump of it at -d 0 and -d 1.
 * The harness is fuzz_elf.c's (vs_input_open() picks the reader by the
 * file's signature); only the corpus differs: kdump files written by
 * vmsift with each codec.
 */
#include "fuzz_elf.c"
