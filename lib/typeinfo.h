/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * typeinfo.h - the dead kernel's symbols and types, whichever source
 * describes them.
 *
 * Two sources answer the same questions:
 *   DWARF  a debug vmlinux (-x), read with elfutils' libdw (typeinfo_dwarf.c)
 *   BTF    the dump itself: kallsyms for addresses, the kernel's own BTF
 *          (between __start_BTF and __stop_BTF) for types (typeinfo_btf.c)
 * The users (the erase rules of --config, -g's VMCOREINFO text, -x's
 * values) see only struct vs_typeinfo and its ops table, so that a rule
 * resolves to the same bytes from either source.
 *
 * Types are named by an opaque 64-bit id, the source's own (a DWARF DIE
 * offset, a BTF type id); 0 is never a valid id.  vs_ti_type() describes
 * one with typedefs and qualifiers (const, volatile) already followed.
 *
 * Every op returns 0 on success and -1 with a message in ERR on failure;
 * "not found" is a failure with status VMSIFT_ERR_BAD_INPUT and a message
 * that names what was looked for.
 */
#ifndef VMSIFT_TYPEINFO_H
#define VMSIFT_TYPEINFO_H

#include <stdint.h>

#include "error.h"

enum vs_ti_kind {
	VS_TI_INT,      /* integers, enums, bool, char */
	VS_TI_PTR,
	VS_TI_ARRAY,
	VS_TI_STRUCT,
	VS_TI_UNION,
	VS_TI_FUNC,
	VS_TI_OTHER,    /* void, floats, anything a rule cannot walk */
};

struct vs_ti_type {
	enum vs_ti_kind kind;
	uint64_t size;        /* bytes; pointers: the target's pointer size */
	uint64_t nelem;       /* arrays: elements (0: flexible or unknown) */
	uint64_t target;      /* pointers, arrays: the pointee / element;
				 functions: the return type (0 or void) */
	const char *name;     /* "task_struct", "char", NULL when anonymous;
				 valid while the typeinfo lives */
	int incomplete;       /* a struct or union this source only declares
				 ("struct crypto_aes_ctx;"): no size, no
				 members; its definition is elsewhere */
};

/* One member of a struct or union, as member_next() lists them. */
struct vs_ti_member {
	const char *name;     /* NULL: anonymous; valid while the typeinfo
				 lives */
	uint64_t offset;      /* bytes from the start of the struct (a
				 bit-field: the byte of its first bit) */
	uint64_t type;
	uint64_t bit_offset;  /* a bit-field: its first bit, in bits from
				 the start of the struct; else offset * 8 */
	uint32_t bit_size;    /* a bit-field's width; 0: not a bit-field */
};

/* The most children one member lookup (the member op) looks at, those
 * of anonymous members included: the kernel's biggest structs take a
 * few hundred, while a hostile file whose anonymous members repeat a
 * type K times a level, D levels deep, would take K^D (2^32 for a BTF of
 * 32 small types).  More is refused with a message that says so. */
#define VS_TI_MAX_VISITS 65536u

struct vs_typeinfo_ops {
	const char *name;                    /* "DWARF", "BTF" */
	/* The address of a global (data or function) symbol. */
	int (*symbol)(void *ctx, const char *name, uint64_t *addr,
		      struct vs_error *err);
	/* The declared type of a global variable; sources that do not know
	 * it (BTF: only per-CPU variables) fail with a message that says so. */
	int (*symbol_type)(void *ctx, const char *name, uint64_t *type,
			   struct vs_error *err);
	/* A type by name: "task_struct" or "struct task_struct", "union x",
	 * "char", a typedef name; a trailing "*" asks for a pointer to it. */
	int (*type_by_name)(void *ctx, const char *name, uint64_t *type,
			    struct vs_error *err);
	int (*type)(void *ctx, uint64_t type, struct vs_ti_type *out,
		    struct vs_error *err);
	/* A member of a struct or union type, found in anonymous members
	 * too (VS_TI_MAX_VISITS children looked at, at most): its byte
	 * offset and type. */
	int (*member)(void *ctx, uint64_t type, const char *member,
		      uint64_t *offset, uint64_t *mtype, struct vs_error *err);
	/* The members of a struct or union type one by one, as declared
	 * (an anonymous member is one, name NULL): *POS 0 asks for the
	 * first, and each call moves *POS (the source's own cursor, opaque
	 * to the caller) past the member it gives; 1 past the last.  Each
	 * call costs the same however far the walk is, so listing N members
	 * is linear in N.  What a layout digest walks
	 * (vs_ti_layout_digest()). */
	int (*member_next)(void *ctx, uint64_t type, uint64_t *pos,
			   struct vs_ti_member *out, struct vs_error *err);
	/* The value of an enumerator (NUMBER() values such as PG_lru). */
	int (*enumerator)(void *ctx, const char *name, int64_t *value,
			  struct vs_error *err);
	void (*free)(void *ctx);
};

struct vs_typeinfo {
	const struct vs_typeinfo_ops *ops;
	void *ctx;
};

static inline void vs_typeinfo_free(struct vs_typeinfo *ti)
{
	if (ti && ti->ops)
		ti->ops->free(ti->ctx);
}

#endif
