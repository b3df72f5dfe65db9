/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * typeinfo_complete.h - a struct or union that one source of typeinfo.h
 * only declares ("struct crypto_aes_ctx;", vs_ti_type.incomplete),
 * completed from the other sources of the same dump: the vmlinux's
 * first, then the loaded modules', as makedumpfile looks a type up in
 * the module and then in the kernel (doc/erase.md, "[module] sections").
 *
 * Two definitions are the same when their layouts are: the size, and
 * each member's name, offset, bits (a bit-field's first bit and width)
 * and type (kind, size, length, name; a pointer's target by name), and
 * an anonymous struct or union member's own members likewise (32 levels
 * deep at most), which vs_ti_layout_digest() folds into 64 bits through
 * the sources' member_next op, in time linear in the members (at most
 * 65536, anonymous members' included; more is refused).
 *
 * Nothing here opens a file: the places to look come from a callback,
 * one at a time, so that a caller opens a module's debug information
 * only when a declaration asks for it.
 */
#ifndef VMSIFT_TYPEINFO_COMPLETE_H
#define VMSIFT_TYPEINFO_COMPLETE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "typeinfo.h"

/* One place a definition may be: a source, and what to call it in a
 * message (its debug file, "the BTF of module 'x' in the dump"). */
struct vs_ti_place {
	const struct vs_typeinfo *ti;   /* NULL: none there (skipped) */
	const char *file;
};

/* Place I (0: the vmlinux, then the modules): 0 with *P (valid until
 * the next call); 1 past the last; -1 with a message. */
typedef int (*vs_ti_place_fn)(void *ctx, size_t i, struct vs_ti_place *p,
			      struct vs_error *err);

/* The layout of struct or union TYPE of TI as 64 bits (see above). */
int vs_ti_layout_digest(const struct vs_typeinfo *ti, uint64_t type,
			uint64_t *digest, struct vs_error *err);

/* The definition of the struct (KIND VS_TI_STRUCT) or union NAME: place
 * 0's when it has one; else the one of the other places, all of them
 * looked at, several with the same layout being one, two different ones
 * refused naming both files.  0 with *TI and *ID; 1 when no place
 * defines it; -1 with a message. */
int vs_ti_complete(enum vs_ti_kind kind, const char *name,
		   vs_ti_place_fn places, void *ctx,
		   const struct vs_typeinfo **ti, uint64_t *id,
		   struct vs_error *err);

#endif
