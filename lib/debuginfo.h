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

#include "error.h"
#include "input.h"
#include "typeinfo.h"

/* The text into *TEXT (malloc'ed, NUL-terminated, *LEN bytes). */
int vs_debuginfo_text(const struct vs_typeinfo *ti, uint64_t page_size,
		      char **text, size_t *len, struct vs_error *err);

int vs_debuginfo_apply(struct vs_input *in, const struct vs_typeinfo *ti,
		       const char *vmlinux, struct vs_error *err);

#endif
