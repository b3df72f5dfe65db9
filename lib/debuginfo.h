/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * debuginfo.h - VMCOREINFO text from a debug vmlinux (-g, -x).
 *
 * vs_debuginfo_text() writes what makedumpfile -g writes: OSRELEASE,
 * PAGESIZE and the SYMBOL/SIZE/OFFSET/LENGTH/NUMBER/SRCFILE lines its
 * rules take from DWARF, in its order, each only when the vmlinux has
 * it.  Addresses are the vmlinux's own (not relocated); SYMBOL(mem_section)
 * is the variable's address, as makedumpfile writes it.
 *
 * vs_debuginfo_apply() gives an opened input VMCOREINFO from the vmlinux
 * the way makedumpfile -x does: the dump's own VMCOREINFO (note or -i
 * file) wins key by key, the vmlinux fills in the rest, its addresses
 * moved by the dump's KASLR offset.  A vmlinux whose build id or release
 * differs from the dump's is refused with VMSIFT_E_MISMATCH, naming both.
 */
#ifndef VMSIFT_DEBUGINFO_H
#define VMSIFT_DEBUGINFO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "input.h"
#include "typeinfo.h"

/* The text into *TEXT (malloc'ed, NUL-terminated, *LEN bytes). */
int vs_debuginfo_text(const struct vs_typeinfo *ti, uint64_t page_size,
		      char **text, size_t *len, struct vs_error *err);

int vs_debuginfo_apply(struct vs_input *in, const struct vs_typeinfo *ti,
		       const char *vmlinux, struct vs_error *err);

/* -x without VMCOREINFO: the dead kernel's image as debuginfo.c found it
 * (the segment whose utsname matched the vmlinux's), for the
 * architecture keys the kernel's note would have given. */
struct vs_di_image {
	const struct vs_input *in;
	const struct vs_segment *load;  /* the kernel image's PT_LOAD */
	const struct vs_typeinfo *ti;
	uint64_t kaslr;                 /* added to every vmlinux address */
	uint64_t uts;                   /* init_uts_ns.name, unrelocated */
};

/* debuginfo_image.c.  LEN bytes of the dump's physical memory at PADDR. */
int vs_di_phys_read(const struct vs_di_image *im, uint64_t paddr, void *buf,
		    size_t len, struct vs_error *err);

/* LEN bytes at the vmlinux's (unrelocated) address ADDR, relocated by the
 * image's KASLR offset, read at the physical address the image segment's
 * p_vaddr - p_paddr gives. */
int vs_di_image_read(const struct vs_di_image *im, uint64_t addr, void *buf,
		     size_t len, struct vs_error *err);

/* The SIZE-byte (1, 4 or 8) number at the vmlinux's variable NAME plus
 * OFF, in the dump's byte order: 1 when read, 0 when the vmlinux has no
 * NAME, -1 on a read error. */
int vs_di_image_var(const struct vs_di_image *im, const char *name,
		    uint64_t off, size_t size, uint64_t *v,
		    struct vs_error *err);

/* arm64 (debuginfo_arm64.c): NUMBER(kimage_voffset), PHYS_OFFSET,
 * VA_BITS, TCR_EL1_T1SZ, SECTION_SIZE_BITS and MAX_PHYSMEM_BITS lines
 * into F, each from the dump and the DWARF or refused, naming it. */
int vs_debuginfo_arm64(const struct vs_di_image *im, FILE *f,
		       struct vs_error *err);

/* riscv64 (debuginfo_riscv64.c): the NUMBER() lines of its
 * arch_crash_save_vmcoreinfo() (phys_ram_base, PAGE_OFFSET, VMALLOC_END,
 * VA_BITS, VMEMMAP_*, MODULES_*, KERNEL_LINK_ADDR, va_kernel_pa_offset)
 * and the generic code's VMALLOC_START into F, each from the dump and the
 * DWARF and cross-checked, or refused, naming it. */
int vs_debuginfo_riscv64(const struct vs_di_image *im, FILE *f,
			 struct vs_error *err);

#endif
