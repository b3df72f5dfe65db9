/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arch.h - the dead kernel's address translation and the dumped
 * machine's properties (machine.h), one ops table per architecture,
 * chosen at run time from the dump.  Used by the filter and the memory
 * model, dmesg.c and the kdump writer (utsname).
 *
 * vs_arch_new() picks the table from in->elf_machine, fills the machine
 * (page size from the dump, byte order and pointer width from the ops;
 * an init() that needs them sets its own with vs_machine_set()),
 * lets its init() read what it needs (VMCOREINFO: page-table root,
 * phys_base, paging levels, ...) and returns a read-only context: any
 * number of threads may translate through it at once, each with its own
 * reader.  Adding an architecture is one more file that defines a struct
 * vs_arch_ops and one line in the registry (arch.c).
 *
 * Ownership: vs_arch_new() allocates; vs_arch_free() releases (NULL is a
 * no-op).  The context borrows IN, which must outlive it.
 */
#ifndef VMSIFT_ARCH_H
#define VMSIFT_ARCH_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "input.h"
#include "machine.h"

struct vs_arch;

struct vs_arch_ops {
	const char *name;
	uint16_t elf_machine;
	/* SPARSEMEM defaults for kernels that do not export them. */
	unsigned section_size_bits;
	unsigned max_physmem_bits;
	/* The dumped machine: 1 for a big-endian one; bytes in a pointer
	 * (0: 8).  A bi-endian architecture will take the byte order from
	 * the ELF header instead. */
	int big_endian;
	unsigned ptr_size;
	/* Read the translation setup; store a private context in *CTX. */
	int (*init)(void **ctx, const struct vs_input *in, struct vs_reader *r,
		    struct vs_error *err);
	/* Translate VADDR; *SPAN = bytes from VADDR to the end of the
	 * mapping that holds it (the rest of a page of any size, a huge
	 * page, or a linear region), so the caller may reuse the result. */
	int (*vtop)(const void *ctx, struct vs_reader *r, uint64_t vaddr,
		    uint64_t *paddr, uint64_t *span, struct vs_error *err);
	void (*fini)(void *ctx);
	/* Optional: the kernel virtual address of physical 0 in the direct
	 * (linear) map, 1 when known (for the vaddrs of an ELF view of a
	 * dump that kept none: elf_view.c). */
	int (*linear_base)(const void *ctx, uint64_t *vaddr);
	/* Optional: where the kernel image is mapped (its first virtual
	 * and physical address, and how far the mapping may reach), 1 when
	 * known: the kernel-text PT_LOAD of that ELF view. */
	int (*kernel_image)(const void *ctx, uint64_t *vaddr, uint64_t *paddr,
			    uint64_t *max_len);
};

extern const struct vs_arch_ops vs_arch_x86_64;
extern const struct vs_arch_ops vs_arch_arm64;
extern const struct vs_arch_ops vs_arch_ppc64;
extern const struct vs_arch_ops vs_arch_riscv64;
extern const struct vs_arch_ops vs_arch_s390x;

/* An architecture's setup of its private state CTX (zeroed) from IN. */
typedef int (*vs_arch_setup_fn)(void *ctx, const struct vs_input *in,
				struct vs_reader *r, struct vs_error *err);

/* The common part of an init(): fails unless IN has VMCOREINFO; allocates
 * SIZE zeroed bytes, lets SETUP fill them and stores them in *OUT; when
 * SETUP fails, FINI (which takes a part-filled state) releases them. */
int vs_arch_ctx_new(void **out, size_t size, vs_arch_setup_fn setup,
		    void (*fini)(void *ctx), const struct vs_input *in,
		    struct vs_reader *r, struct vs_error *err);

/* The translation of IN's kernel.  Fails, naming the missing key, when the
 * architecture is unknown or VMCOREINFO lacks what translation needs. */
int vs_arch_new(struct vs_arch **out, const struct vs_input *in,
		struct vs_error *err);
void vs_arch_free(struct vs_arch *a);

const struct vs_arch_ops *vs_arch_ops_of(const struct vs_arch *a);

/* The dumped machine's page size, byte order and pointer width. */
const struct vs_machine *vs_arch_machine(const struct vs_arch *a);

/* The direct map's base (vs_arch_ops.linear_base): 1 when known. */
int vs_arch_linear_base(const struct vs_arch *a, uint64_t *vaddr);

/* The kernel image's mapping (vs_arch_ops.kernel_image): 1 when known. */
int vs_arch_kernel_image(const struct vs_arch *a, uint64_t *vaddr,
			 uint64_t *paddr, uint64_t *max_len);

/* Kernel virtual VADDR to physical; *SPAN as in vs_arch_ops.vtop (may be
 * NULL).  Fails, naming the address and the level, on a non-present or
 * out-of-dump page-table entry. */
int vs_vtop(const struct vs_arch *a, struct vs_reader *r, uint64_t vaddr,
	    uint64_t *paddr, uint64_t *span, struct vs_error *err);

/* Copy LEN bytes of the dead kernel's virtual memory at VADDR into BUF,
 * translating page by page; every byte is read through vs_read_phys, so a
 * read never leaves the input.  For the writer: init_uts_ns.name is
 *   vs_read_kvirt(a, r, SYMBOL(init_uts_ns) + OFFSET(uts_namespace.name),
 *                 buf, 6 * 65, err). */
int vs_read_kvirt(const struct vs_arch *a, struct vs_reader *r, uint64_t vaddr,
		  void *buf, size_t len, struct vs_error *err);

/* One value of the dead kernel at VADDR in its byte order: a u32, a u64,
 * or a pointer / unsigned long of the machine's width. */
int vs_read_kvirt_u32(const struct vs_arch *a, struct vs_reader *r,
		      uint64_t vaddr, uint32_t *v, struct vs_error *err);
int vs_read_kvirt_u64(const struct vs_arch *a, struct vs_reader *r,
		      uint64_t vaddr, uint64_t *v, struct vs_error *err);
int vs_read_kvirt_ptr(const struct vs_arch *a, struct vs_reader *r,
		      uint64_t vaddr, uint64_t *v, struct vs_error *err);

#endif
