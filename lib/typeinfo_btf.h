/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * typeinfo_btf.h - the BTF source of typeinfo.h: symbols from the dead
 * kernel's kallsyms (kallsyms.h), types from its own BTF (the bytes
 * between __start_BTF and __stop_BTF), parsed with libbpf.
 *
 * Ownership: on success TI owns a context that vs_typeinfo_free()
 * releases; it borrows nothing from IN (the tables and the BTF are
 * copied), so IN may be closed first.  Read-only once open.
 */
#ifndef VMSIFT_TYPEINFO_BTF_H
#define VMSIFT_TYPEINFO_BTF_H

#include "error.h"
#include "typeinfo.h"

struct vs_input;

/* Largest BTF read from a dump (vmlinux BTF is 5 to 8 MiB). */
#define VS_BTF_MAX (64u << 20)

int vs_typeinfo_btf_open(struct vs_typeinfo *ti, const struct vs_input *in,
			 struct vs_error *err);

/* The same from raw BTF bytes and a loaded kallsyms (which TI then owns
 * and frees, also on failure; may be NULL: symbol() then fails): for the
 * fuzz target and tests. */
struct vs_kallsyms;
int vs_typeinfo_btf_new(struct vs_typeinfo *ti, const void *btf, size_t size,
			struct vs_kallsyms *ks, unsigned ptr_size,
			struct vs_error *err);

/* A module's BTF (struct module's btf_data, CONFIG_DEBUG_INFO_BTF_MODULES):
 * split BTF whose ids continue BASE's (the kernel's, from
 * vs_typeinfo_btf_open), which must outlive TI.  Its symbol() finds
 * nothing: a module's symbols come from the dump's module list
 * (modules.h). */
int vs_typeinfo_btf_new_split(struct vs_typeinfo *ti,
			      const struct vs_typeinfo *base, const void *btf,
			      size_t size, struct vs_error *err);

#endif
