/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf_plan.h - the layout of an ELF64 core file of a dump: which program
 * headers it has, where each one's data lies in the file, and the bytes
 * of its headers.  One function for both users, so they cannot disagree:
 * the ELF writer (elf_writer.c, vmsift -E) and the ELF view of an opened
 * dump (elf_view.c, vmsift mount).
 *
 * Layout: ELF header, program headers (PT_NOTE, then PT_LOADs), section
 * header 0 when the PT_LOADs need PN_XNUM, the notes verbatim, then each
 * PT_LOAD's data back to back.  Every load of the input is cut where
 * kept pages resume after an excluded run of 256 pages or more (as
 * makedumpfile -E does); shorter excluded runs stay in the data.
 *
 * Ownership: vs_elf_plan_make() fills a zeroed plan; vs_elf_plan_free()
 * releases what it holds.  The plan borrows nothing.
 */
#ifndef VMSIFT_ELF_PLAN_H
#define VMSIFT_ELF_PLAN_H

#include <elf.h>
#include <stdint.h>

#include "error.h"
#include "input.h"

struct vs_chunkmap;

#define VS_ELF_GAP_PAGES 256u

struct vs_elf_piece {
	uint64_t paddr, vaddr, filesz, memsz, offset;
};

struct vs_elf_plan {
	struct vs_elf_piece *pieces;  /* PT_LOADs, in file order (by offset) */
	size_t npieces, cap;
	uint64_t phnum;               /* PT_NOTE + PT_LOADs */
	uint64_t notes_off;           /* the notes' offset in the file */
	uint64_t extra_notes_off;     /* notes vmsift adds (ERASEINFO), or 0 */
	uint64_t headers_size;        /* headers and notes: data starts here */
	uint64_t file_size;           /* the whole file */
};

/* Plan the file of IN's LOADS[0..NLOADS) (in->loads, or a copy with
 * other vaddrs) keeping the pages whose bit is set in KEPT: one bit a
 * pfn, MAX_PFN of them; or, with CHUNKS, the bits of the selection
 * chunks CHUNKS lists, one after the other (chunkmap.h), with room for EXTRA_NOTES bytes of notes after
 * the input's (at extra_notes_off, 4-aligned; 0 for none). */
int vs_elf_plan_make(struct vs_elf_plan *p, const struct vs_input *in,
		     const struct vs_segment *loads, size_t nloads,
		     const uint64_t *kept, const struct vs_chunkmap *chunks,
		     uint64_t max_pfn, uint64_t extra_notes,
		     struct vs_error *err);
void vs_elf_plan_free(struct vs_elf_plan *p);

/* The ELF header with e_flags FLAGS, in the file's byte order. */
void vs_elf_plan_ehdr(const struct vs_elf_plan *p, const struct vs_input *in,
		      uint32_t flags, Elf64_Ehdr *eh);

/* The program headers (p->phnum of them, malloc'ed into *PH) and, when
 * the file needs one, section header 0 into *SH (*HAS_SH set), all in
 * the file's byte order. */
int vs_elf_plan_phdrs(const struct vs_elf_plan *p, const struct vs_input *in,
		      Elf64_Phdr **ph, Elf64_Shdr *sh, int *has_sh,
		      struct vs_error *err);

#endif
