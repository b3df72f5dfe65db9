/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * erase.h - the erase rules of --config, resolved and applied.
 *
 * vs_erase_build() evaluates a parsed config (erase_config.h) against the
 * dead kernel's symbols and types (typeinfo.h) and its memory (struct
 * vs_erase_mem: reads and translations of kernel virtual addresses) into
 * a sorted table of physical pieces, none crossing a page, each with its
 * fill byte: 'X' (0x58) for erased data, 0 for a nullified pointer, as
 * makedumpfile writes them.  The writers then call vs_erase_page() on
 * every page they store, after reading it and before the zero-page test
 * and compression; it counts the bytes each rule changed, per output file
 * of a split set, for the eraseinfo text (vs_erase_text()).
 *
 * What makedumpfile's rules mean (doc/erase.md): a pointer member is
 * followed and the data it points to erased (sizeof the pointee, strlen
 * up to 1024 for char *); an array is erased whole; "nullify" zeroes the
 * pointer itself; a NULL pointer on the way erases nothing.
 *
 * Thread safety: after vs_erase_build() the table is read-only;
 * vs_erase_page() may run on many threads at once (the counters are
 * atomic).
 */
#ifndef VMSIFT_ERASE_H
#define VMSIFT_ERASE_H

#include <stddef.h>
#include <stdint.h>

#include "erase_config.h"
#include "error.h"
#include "typeinfo.h"

/* The dead kernel's virtual memory, as the evaluator reads it. */
struct vs_erase_mem {
	void *ctx;
	int (*read)(void *ctx, uint64_t vaddr, void *buf, size_t len,
		    struct vs_error *err);
	/* As vs_arch_ops.vtop: *SPAN = bytes mapped contiguously from
	 * VADDR. */
	int (*vtop)(void *ctx, uint64_t vaddr, uint64_t *paddr,
		    uint64_t *span, struct vs_error *err);
	unsigned ptr_size;           /* 4 or 8 */
	int big_endian;
	uint64_t page_size;
};

/* The symbols and types of a [module] section's rules. */
struct vs_erase_modules {
	void *ctx;
	/* Module NAME's source: 0 with *TI (valid until the build ends); 1
	 * when the dump has no module of that name loaded (the section is
	 * skipped, as makedumpfile skips it); -1 with a message. */
	int (*source)(void *ctx, const char *name,
		      const struct vs_typeinfo **ti, struct vs_error *err);
	/* The struct (KIND VS_TI_STRUCT) or union NAME that source FROM (a
	 * module's) only declares, defined in the vmlinux or another loaded
	 * module: 0 with *TI and *ID; 1 when none defines it; -1 with a
	 * message (two different definitions).  NULL: none completed. */
	int (*complete)(void *ctx, const struct vs_typeinfo *from,
			enum vs_ti_kind kind, const char *name,
			const struct vs_typeinfo **ti, uint64_t *id,
			struct vs_error *err);
};

struct vs_erase_opts {
	unsigned nparts;             /* output files (split set), >= 1 */
	int ignore_missing;          /* skip a rule that cannot resolve */
	uint64_t max_iter;           /* loop bound; 0: 1 << 22 */
	const struct vs_erase_modules *modules;  /* NULL: sections refused */
};

struct vs_erase;

/* Resolve CONFIG into *OUT.  A rule naming a symbol, member or type the
 * source does not have fails the whole build, naming the rule's line and
 * the name, unless OPTS->ignore_missing (then the rule is skipped and
 * counted: vs_erase_skipped()). */
int vs_erase_build(struct vs_erase **out, const struct vs_erase_config *c,
		   const struct vs_typeinfo *ti, const struct vs_erase_mem *mem,
		   const struct vs_erase_opts *opts, struct vs_error *err);
void vs_erase_free(struct vs_erase *e);

/* PAGE (page_size bytes of pfn PFN, going to output file PART) with the
 * erase applied: PAGE itself when no rule touches it, else SCRATCH
 * (page_size bytes, the caller's) holding the new content. */
const uint8_t *vs_erase_page(struct vs_erase *e, unsigned part, uint64_t pfn,
			     const uint8_t *page, uint8_t *scratch);

/* The same in place on LEN bytes at physical PADDR (any alignment). */
void vs_erase_buf(struct vs_erase *e, unsigned part, uint64_t paddr,
		  uint8_t *buf, size_t len);

/* The eraseinfo text of PART ("erase EXPR size N\n", "erase EXPR
 * nullify\n", one line per resolved range that was applied, grouped by
 * rule): its length; at most CAP bytes go to BUF (NULL: only the
 * length). */
size_t vs_erase_text(const struct vs_erase *e, unsigned part, char *buf,
		     size_t cap);
/* The text's size if every range were applied whole: the room
 * makedumpfile reserves for the ELF note. */
size_t vs_erase_text_bound(const struct vs_erase *e);

/* Resolved ranges, for tests and the report. */
size_t vs_erase_nranges(const struct vs_erase *e);
void vs_erase_range(const struct vs_erase *e, size_t i, uint64_t *vaddr,
		    uint64_t *size, int *nullify);
unsigned vs_erase_skipped(const struct vs_erase *e);
/* Each skipped rule's message, one line each ("rule at line N: ..."),
 * "" if none. */
const char *vs_erase_skip_msg(const struct vs_erase *e);

#endif
