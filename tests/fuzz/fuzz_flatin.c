/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_flatin.c - a flattened file read directly as the input
 * (lib/flat.c, lib/file.c): vs_input_open() indexes the stream's records when
 * the file starts with the "makedumpfile" signature, then the reader
 * behind it (ELF or kdump) parses the rebuilt file through that index;
 * small inputs are dumped at -d 0 and -d 1.  The harness is fuzz_elf.c's;
 * only the corpus differs: flattened streams written by vmsift -F, of
 * kdump (-c) and ELF (-E) dumps.
 */
#include "fuzz_elf.c"
