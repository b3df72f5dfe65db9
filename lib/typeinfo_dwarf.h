/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * typeinfo_dwarf.h - the DWARF source of typeinfo.h: a debug vmlinux
 * (makedumpfile's -x VMLINUX) read with elfutils' libdw.
 *
 * vs_typeinfo_dwarf_open() reads the file's symbol table and indexes the
 * DWARF once (the names of every CU's top-level types, variables and
 * enumerators), so that each lookup after it is a hash probe.  Built
 * without libdw (VMSIFT_NO_DWARF, the static builds), it fails with
 * VMSIFT_E_UNSUPPORTED, "built without DWARF (libdw)".
 *
 * Beside the ops, what only a vmlinux file tells: its GNU build id and
 * the initialised bytes of its data (OSRELEASE from init_uts_ns), and the
 * source file that declares a type (SRCFILE(pud_t)).  TI must come from
 * vs_typeinfo_dwarf_open(); other sources fail with VMSIFT_E_INVALID.
 */
#ifndef VMSIFT_TYPEINFO_DWARF_H
#define VMSIFT_TYPEINFO_DWARF_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "typeinfo.h"

int vs_typeinfo_dwarf_open(struct vs_typeinfo *ti, const char *vmlinux,
			   struct vs_error *err);
/* The build id as lowercase hex ("" when the file has none). */
const char *vs_typeinfo_dwarf_build_id(const struct vs_typeinfo *ti);
/* The ELF machine (EM_X86_64, ...) and pointer size of the vmlinux. */
int vs_typeinfo_dwarf_machine(const struct vs_typeinfo *ti, unsigned *machine,
			      unsigned *ptr_size);
/* LEN bytes of the vmlinux's initialised data at kernel address ADDR. */
int vs_typeinfo_dwarf_read(const struct vs_typeinfo *ti, uint64_t addr,
			   void *buf, size_t len, struct vs_error *err);
/* The file (as the compiler named it) that declares the type NAME. */
int vs_typeinfo_dwarf_srcfile(const struct vs_typeinfo *ti, const char *name,
			      const char **file, struct vs_error *err);

/* A kernel module's debug file (NAME.ko with its DWARF, or NAME.ko.debug):
 * relocatable, so its DWARF is read with its relocations applied
 * (libdwfl).  Types and variables as for a vmlinux; its symbol table
 * holds section offsets, not addresses (the dump's module symbols give
 * those: modules.h). */
int vs_typeinfo_dwarf_open_module(struct vs_typeinfo *ti, const char *path,
				  struct vs_error *err);
/* The file TI was opened from, NULL for another source. */
const char *vs_typeinfo_dwarf_path(const struct vs_typeinfo *ti);

#endif
