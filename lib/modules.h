/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * modules.h - the dead kernel's loaded modules, read from the dump: the
 * list at 'modules', each struct module's name, its own symbol table
 * (core_kallsyms, as makedumpfile reads it) and its BTF (btf_data).
 *
 * The layout of struct module comes from the kernel's symbols and types
 * (typeinfo.h: the -x vmlinux's DWARF or the dump's BTF), the memory
 * through a read callback (erase.h's struct vs_erase_mem), so that the
 * walk sees only data: a list that does not end, a name table that
 * does not fit, a symbol table of implausible size are errors naming
 * the module and the address, never a hang.
 *
 * Module names are compared with '-' and '_' as the same character, as
 * the kernel names the module of dm-crypt.ko "dm_crypt".
 *
 * Ownership: vs_module_find() allocates; vs_module_free() releases (NULL
 * is a no-op).  Nothing is borrowed from the callers after it returns.
 */
#ifndef VMSIFT_MODULES_H
#define VMSIFT_MODULES_H

#include <stddef.h>
#include <stdint.h>

#include "erase.h"
#include "error.h"
#include "typeinfo.h"

#define VS_MOD_MAX_LOADED (1u << 16)   /* modules walked at most */
#define VS_MOD_MAX_SYMS   (1u << 20)   /* entries of one symbol table */
#define VS_MOD_MAX_BTF    (16u << 20)  /* bytes of one module's BTF */

struct vs_module {
	char name[64];               /* as the kernel names it */
	uint64_t addr;               /* its struct module */
	uint64_t symtab, strtab;     /* core_kallsyms */
	uint64_t nsyms;
	uint64_t btf_data;           /* 0: no BTF */
	uint64_t btf_size;
	const struct vs_erase_mem *mem;   /* borrowed: for lookups */
};

/* Find the module NAME in the dump through KTI (the kernel's symbols and
 * types) and MEM.  0 with *OUT; 0 with *OUT NULL when no loaded module
 * has that name; -1 with a message.  *OUT borrows MEM for
 * vs_module_symbol(). */
int vs_module_find(struct vs_module **out, const struct vs_typeinfo *kti,
		   const struct vs_erase_mem *mem, const char *name,
		   struct vs_error *err);
void vs_module_free(struct vs_module *m);

/* Each loaded module of the dump in the list's order: FN(CTX, NAME)
 * (NAME valid during the call) returns 0 to go on, 1 to stop, -1 with a
 * message.  vs_module_each() returns what stopped it (1), 0 at the
 * list's end, -1 (FN's or the walk's error). */
typedef int (*vs_module_each_fn)(void *ctx, const char *name,
				 struct vs_error *err);
int vs_module_each(const struct vs_typeinfo *kti,
		   const struct vs_erase_mem *mem, vs_module_each_fn fn,
		   void *ctx, struct vs_error *err);

/* The address of symbol NAME in M's own symbol table: the first entry of
 * that name, as makedumpfile takes it.  Not found: -1, a message. */
int vs_module_symbol(const struct vs_module *m, const char *name,
		     uint64_t *addr, struct vs_error *err);

/* Where M's BTF is: struct module's btf_data while the module loads,
 * then (the kernel clears btf_data after init) the copy in its struct btf
 * on the list at btf_modules.  0 with *ADDR 0 when it has none. */
int vs_module_btf(const struct vs_module *m, const struct vs_typeinfo *kti,
		  uint64_t *addr, uint64_t *size, struct vs_error *err);

/* Two module names the kernel would take for the same: '-' is '_'. */
int vs_module_name_eq(const char *a, const char *b);

#endif
