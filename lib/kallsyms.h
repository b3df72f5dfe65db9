/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kallsyms.h - the dead kernel's own symbol table (kallsyms), decoded from
 * the dump: the source of symbol addresses when no debug vmlinux is given
 * (typeinfo_btf.c).
 *
 * VMCOREINFO exports the tables' addresses since Linux 6.0:
 * SYMBOL(kallsyms_names, kallsyms_num_syms, kallsyms_token_table,
 * kallsyms_token_index) and either kallsyms_offsets with
 * kallsyms_relative_base (CONFIG_KALLSYMS_BASE_RELATIVE, every 6.x
 * kernel Debian builds) or kallsyms_addresses.  The tables are read
 * through a callback, so the decoder sees only bytes (the fuzz target
 * feeds it a flat image); vs_kallsyms_load_input() reads them from a
 * dump through the architecture's translation (arch.h).
 *
 * Ownership: vs_kallsyms_load*() allocate; vs_kallsyms_free() releases
 * (NULL is a no-op).  The result is read-only: any number of threads may
 * look names up at once.
 */
#ifndef VMSIFT_KALLSYMS_H
#define VMSIFT_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "machine.h"

struct vs_input;
struct vs_kallsyms;

/* Read LEN bytes of the dead kernel's virtual memory at VADDR. */
typedef int vs_ks_read_fn(void *arg, uint64_t vaddr, void *buf, size_t len,
			  struct vs_error *err);

/* Where the tables are (0: absent) and the machine they were built for. */
struct vs_ks_layout {
	uint64_t names, num_syms, token_table, token_index;
	uint64_t offsets, relative_base;   /* base-relative kernels */
	uint64_t addresses;                /* absolute ones */
	struct vs_machine m;               /* byte order and pointer size */
};

/* Decode the tables of L, read through READ.  Bounded: at most
 * VS_KS_MAX_SYMS symbols and VS_KS_MAX_NAMES bytes of compressed names;
 * a table that does not decode fails with its address and the symbol's
 * index. */
#define VS_KS_MAX_SYMS   (1u << 22)
#define VS_KS_MAX_NAMES  (64u << 20)
int vs_kallsyms_load(struct vs_kallsyms **out, const struct vs_ks_layout *l,
		     vs_ks_read_fn *read, void *arg, struct vs_error *err);

/* The same from IN's VMCOREINFO and memory; fails naming the missing
 * SYMBOL() when the kernel does not export the tables (before 6.0). */
int vs_kallsyms_load_input(struct vs_kallsyms **out, const struct vs_input *in,
			   struct vs_error *err);

void vs_kallsyms_free(struct vs_kallsyms *ks);

/* The address and type letter ('T', 'd', ...) of NAME; the first of
 * several symbols of that name (static ones may repeat) whose letter is
 * a global's when there is one.  Not found: -1, a message naming NAME. */
int vs_kallsyms_lookup(const struct vs_kallsyms *ks, const char *name,
		       uint64_t *addr, char *type, struct vs_error *err);

/* Symbols decoded; the I-th's name, letter and address (for tests). */
size_t vs_kallsyms_count(const struct vs_kallsyms *ks);
const char *vs_kallsyms_at(const struct vs_kallsyms *ks, size_t i,
			   uint64_t *addr, char *type);

#endif
