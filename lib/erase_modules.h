/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * erase_modules.h - the symbols and types of --config's [module]
 * sections (erase.h's struct vs_erase_modules), found in the dump and on
 * disk as makedumpfile finds them (doc/erase.md):
 *
 *   symbols  the module's own symbol table in the dump (modules.h);
 *   types    with -x VMLINUX: the module's DWARF, NAME.ko or NAME.ko.debug
 *            ('-' and '_' alike) beside VMLINUX, under
 *            /usr/lib/debug/lib/modules/RELEASE or /lib/modules/RELEASE;
 *            without: the module's BTF in the dump (struct module's
 *            btf_data), split over the kernel's.
 *
 * Ownership: vs_erase_mods_new() borrows KTI, BASE and MEM, which must
 * outlive the result; vs_erase_mods_free() (NULL: a no-op) closes what
 * it opened.
 */
#ifndef VMSIFT_ERASE_MODULES_H
#define VMSIFT_ERASE_MODULES_H

#include "erase.h"

struct vs_erase_mods;

/* KTI: the kernel's symbols at their run-time addresses (relocated);
 * BASE: the source as opened (the -x file's DWARF, or the dump's BTF);
 * RELEASE: the dump's OSRELEASE, or NULL. */
int vs_erase_mods_new(struct vs_erase_mods **out, const struct vs_typeinfo *kti,
		      const struct vs_typeinfo *base,
		      const struct vs_erase_mem *mem, const char *release,
		      struct vs_error *err);
void vs_erase_mods_free(struct vs_erase_mods *m);
/* The callbacks for vs_erase_opts.modules, valid while M lives. */
void vs_erase_mods_ops(struct vs_erase_mods *m, struct vs_erase_modules *out);
/* The I-th (0 on) of the dump's loaded modules in the order its module
 * list holds them, the places a declaration is completed from after the
 * vmlinux; NULL past the last or before the list was read whole (valid
 * while M lives). */
const char *vs_erase_mods_loaded(const struct vs_erase_mods *m, size_t i);

#endif
