/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arch_s390x.c - s390x (z/Architecture, big-endian, 4 KiB pages) address
 * translation for the dead kernel; one entry of the architecture table
 * (arch.c), used by the filter, the memory model and --dump-dmesg through
 * vs_vtop().
 *
 * Two kernel layouts, told apart as upstream makedumpfile does:
 *
 *   legacy   (before 6.10) the kernel runs identity mapped: virtual =
 *            physical below the end of the identity map (*high_memory, or
 *            the end of RAM without SYMBOL(high_memory)); above it
 *            (vmemmap, vmalloc, modules) the page tables are walked.
 *   vr       (6.10+, "virtual relocation") the identity map starts at
 *            IDENTITYBASE; the image is mapped apart, at KERNELOFFSET,
 *            from physical KERNELOFFPHYS.  Below 8 KiB (the lowcore) and
 *            in [SAMODE31, EAMODE31) virtual = physical; below the start
 *            of vmemmap, physical = virtual - IDENTITYBASE; at and above
 *            KERNELOFFSET, the image; the rest is walked.
 *
 * The vr values come from VMCOREINFO (IDENTITYBASE, KERNELOFFSET,
 * KERNELOFFPHYS, SAMODE31, EAMODE31: plain hex keys) or, when those are
 * missing, from the kernel's os_info block, which the absolute lowcore
 * points at (0xe18) and which also holds the start of vmemmap.  No
 * IDENTITYBASE / KERNELOFFPHYS and no os_info with a KASLR offset: legacy.
 *
 * The walk (DAT) starts at SYMBOL(swapper_pg_dir).  Its first entry's
 * table type (bits 0x0c) says what the top table is: 3 region-first,
 * 2 region-second, 1 region-third, 0 segment (as makedumpfile reads it);
 * the top table is whole (the kernel's ASCE has table length 3), where
 * makedumpfile takes the length from that entry's TL, which is the next
 * table's.  Region and segment tables have 2048 entries (11 address
 * bits each, above the 20 bits of a segment); page tables 256 (bits
 * 12-19).  A region or segment entry: bit 0x20 invalid, 0x0c its table's
 * type (must be the level it is read at), 0x03 the next table's length;
 * origin ~0xfff (region), ~0x7ff (segment: page tables are 2 KiB).  The
 * format-control bit 0x400 makes a region-third entry a 2 GiB leaf
 * (EDAT2) and a segment entry a 1 MiB leaf (EDAT1).  Bits 0xc0 (table
 * offset, never set by Linux) and, in a region entry, 0x800 make it
 * corrupt.  A page-table entry is invalid with 0x400 (I) or 0x800 (must
 * be zero) set.  Entries are big-endian, read through vs_read_phys, so a
 * corrupt table fails one translation (the filter keeps what it cannot
 * judge and counts it doubtful), never a read outside the dump.
 */
#include <stdlib.h>

#include "arch.h"
#include "vmcoreinfo.h"

#ifndef EM_S390
#define EM_S390 22
#endif

#define LOWCORE_SIZE 0x2000ull
#define LC_OS_INFO 0xe18ull          /* lowcore: physical address of os_info */
#define OS_INFO_MAGIC 0x4f53494e464f535aull     /* "OSINFOSZ" */
#define OS_INFO_ENTRIES 32           /* offset of entry[0] */
#define OS_INFO_ENTRY_SIZE 20        /* u64 val, u64 size, u32 csum, packed */
enum { OI_IDENTITY_BASE = 4, OI_KASLR_OFFSET, OI_KASLR_OFF_PHYS, OI_VMEMMAP,
       OI_AMODE31_START, OI_AMODE31_END, OI_NR };

#define E_INVALID 0x20ull            /* region / segment entry */
#define E_TYPE(e) (((e) >> 2) & 3)
#define E_LENGTH(e) ((e) & 3)
#define E_FC 0x400ull                /* large: region-third, segment */
#define E_TF 0xc0ull                 /* table offset */
#define R_ORIGIN (~0xfffull)
#define S_ORIGIN (~0x7ffull)
#define R3_FRAME (~((1ull << 31) - 1))
#define S_FRAME (~((1ull << 20) - 1))
#define PTE_INVALID 0x400ull
#define PTE_ZERO 0x800ull

struct s390_ctx {
	struct vs_machine m;         /* big-endian loads */
	int vr;                      /* the 6.10+ layout */
	uint64_t ident_base;         /* virtual address of physical 0 */
	uint64_t ident_end;          /* end of the identity map (virtual) */
	uint64_t kvbase;             /* vr: the image's virtual start */
	uint64_t kphys;              /* vr: its physical start */
	uint64_t amode31_start, amode31_end;
	uint64_t pgd;                /* physical address of swapper_pg_dir */
};

/* The end of the highest memory the dump holds. */
static uint64_t ram_end(const struct vs_input *in)
{
	uint64_t end = 0;

	for (size_t i = 0; i < in->nr_phys; i++)
		if (in->phys[i].paddr + in->phys[i].memsz > end)
			end = in->phys[i].paddr + in->phys[i].memsz;
	return end;
}

static int read_u64(const struct s390_ctx *c, struct vs_reader *r,
		    uint64_t pa, uint64_t *v, struct vs_error *err)
{
	uint8_t b[8];

	if (vs_read_phys(r, pa, b, sizeof(b), err) < 0)
		return -1;
	*v = vs_load64(&c->m, b);
	return 0;
}

/* os_info's entries, or 0 when the lowcore points at none (or at
 * something without the magic). */
static int read_os_info(const struct s390_ctx *c, struct vs_reader *r,
			uint64_t val[OI_NR])
{
	uint8_t b[OS_INFO_ENTRIES + OI_NR * OS_INFO_ENTRY_SIZE];
	struct vs_error ignore;
	uint64_t at;

	vs_err_clear(&ignore);
	if (read_u64(c, r, LC_OS_INFO, &at, &ignore) < 0 || !at ||
	    vs_read_phys(r, at, b, sizeof(b), &ignore) < 0 ||
	    vs_load64(&c->m, b) != OS_INFO_MAGIC)
		return 0;
	for (unsigned i = 0; i < OI_NR; i++)
		val[i] = vs_load64(&c->m, b + OS_INFO_ENTRIES +
				   i * OS_INFO_ENTRY_SIZE);
	return 1;
}

/* One vr value: the VMCOREINFO key, else os_info's entry. */
static int vr_value(const struct vs_vmcoreinfo *vi, const char *key,
		    const uint64_t *oi, unsigned entry, uint64_t *v)
{
	if (vs_vi_hex(vi, key, v))
		return 1;
	if (oi) {
		*v = oi[entry];
		return 1;
	}
	return 0;
}

/* The 6.10+ layout, from VMCOREINFO and os_info; 0 for legacy. */
static int find_vr(struct s390_ctx *c, const struct vs_input *in,
		   struct vs_reader *r)
{
	const struct vs_vmcoreinfo *vi = in->vi;
	uint64_t val[OI_NR] = { 0 };
	const uint64_t *oi = NULL;

	if (read_os_info(c, r, val) && val[OI_KASLR_OFFSET])
		oi = val;
	if (!vr_value(vi, "IDENTITYBASE", oi, OI_IDENTITY_BASE,
		      &c->ident_base) ||
	    !vr_value(vi, "KERNELOFFPHYS", oi, OI_KASLR_OFF_PHYS, &c->kphys) ||
	    !vr_value(vi, "KERNELOFFSET", oi, OI_KASLR_OFFSET, &c->kvbase))
		return 0;
	if (!vr_value(vi, "SAMODE31", oi, OI_AMODE31_START,
		      &c->amode31_start) ||
	    !vr_value(vi, "EAMODE31", oi, OI_AMODE31_END, &c->amode31_end))
		c->amode31_start = c->amode31_end = 0;
	c->ident_end = oi && oi[OI_VMEMMAP] > c->ident_base ? oi[OI_VMEMMAP] :
		       c->ident_base + ram_end(in);
	return 1;
}

/* Translation without the walk: the lowcore, amode31, the identity map
 * and (vr) the image.  Returns 0 when VA needs the walk. */
static int direct(const struct s390_ctx *c, uint64_t va, uint64_t *pa,
		  uint64_t *span)
{
	if (c->vr && va < LOWCORE_SIZE) {
		*pa = va;
		*span = LOWCORE_SIZE - va;
	} else if (c->vr && va >= c->amode31_start && va < c->amode31_end) {
		*pa = va;
		*span = c->amode31_end - va;
	} else if (va >= c->ident_base && va < c->ident_end) {
		*pa = va - c->ident_base;
		*span = c->ident_end - va;
	} else if (c->vr && va >= c->kvbase) {
		*pa = va - c->kvbase + c->kphys;
		*span = -va;
	} else {
		return 0;
	}
	return 1;
}

/* Legacy: the identity map ends at *high_memory (an identity-mapped
 * variable), else at the end of RAM. */
static void find_legacy_end(struct s390_ctx *c, const struct vs_input *in,
			    struct vs_reader *r)
{
	struct vs_error ignore;
	uint64_t sym, v;

	vs_err_clear(&ignore);
	c->ident_end = ram_end(in);
	if (vs_vi_symbol(in->vi, "high_memory", &sym) &&
	    read_u64(c, r, sym, &v, &ignore) == 0 && v)
		c->ident_end = v;
}

static int setup(void *ctx, const struct vs_input *in, struct vs_reader *r,
		 struct vs_error *err)
{
	struct s390_ctx *c = ctx;
	uint64_t va, span;

	if (in->page_size != 4096)
		return vs_err(err, "page size %llu is not 4K",
			      (unsigned long long)in->page_size);
	vs_machine_set(&c->m, in->page_size, 1, 8);
	c->vr = find_vr(c, in, r);
	if (!c->vr)
		find_legacy_end(c, in, r);
	if (!vs_vi_symbol(in->vi, "swapper_pg_dir", &va))
		return vs_err(err, "VMCOREINFO lacks 'SYMBOL(swapper_pg_dir)'");
	if (!direct(c, va, &c->pgd, &span))
		return vs_err(err, "SYMBOL(swapper_pg_dir)=0x%llx is neither in "
			      "the identity map nor in the kernel image",
			      (unsigned long long)va);
	return 0;
}

static const char *const level_name[] = {
	"segment", "region-third", "region-second", "region-first",
};

/* A region or segment entry that the walk may follow or use. */
static int check_entry(uint64_t e, unsigned level, uint64_t va,
		       uint64_t slot, struct vs_error *err)
{
	if (e & E_INVALID)
		return vs_err(err, "0x%llx is not mapped: %s entry at 0x%llx "
			      "is invalid (0x%llx)", (unsigned long long)va,
			      level_name[level], (unsigned long long)slot,
			      (unsigned long long)e);
	if (E_TYPE(e) != level || (e & E_TF) || (level && (e & 0x800)))
		return vs_err(err, "corrupt %s entry at 0x%llx for 0x%llx: "
			      "0x%llx", level_name[level],
			      (unsigned long long)slot, (unsigned long long)va,
			      (unsigned long long)e);
	return 0;
}

/* The last step: a page-table entry. */
static int walk_pte(const struct s390_ctx *c, struct vs_reader *r,
		    uint64_t va, uint64_t table, uint64_t *pa, uint64_t *span,
		    struct vs_error *err)
{
	uint64_t slot = table + ((va >> 12) & 0xff) * 8, e;

	if (read_u64(c, r, slot, &e, err) < 0)
		return vs_err_ctx(err, "cannot read the page-table entry for "
				  "0x%llx", (unsigned long long)va);
	if (e & (PTE_INVALID | PTE_ZERO))
		return vs_err(err, "0x%llx is not mapped: page-table entry at "
			      "0x%llx is 0x%llx", (unsigned long long)va,
			      (unsigned long long)slot, (unsigned long long)e);
	*pa = (e & R_ORIGIN) | (va & 0xfff);
	*span = 0x1000 - (va & 0xfff);
	return 0;
}

static int leaf(uint64_t e, uint64_t frame, uint64_t va, uint64_t *pa,
		uint64_t *span)
{
	*pa = (e & frame) | (va & ~frame);
	*span = (~frame + 1) - (va & ~frame);
	return 0;
}

static int walk(const struct s390_ctx *c, struct vs_reader *r, uint64_t va,
		uint64_t *pa, uint64_t *span, struct vs_error *err)
{
	uint64_t table = c->pgd, e;
	unsigned level, len;

	if (read_u64(c, r, table, &e, err) < 0)
		return vs_err_ctx(err, "cannot read swapper_pg_dir");
	level = E_TYPE(e);
	len = 3;                     /* the kernel's ASCE: a whole table */
	if (level < 3 && va >> (31 + 11 * level))
		return vs_err(err, "0x%llx is beyond the %s table's reach",
			      (unsigned long long)va, level_name[level]);
	for (;;) {
		uint64_t idx = (va >> (20 + 11 * level)) & 0x7ff;
		uint64_t slot = table + idx * 8;

		if (idx >= (len + 1) * 512ull)
			return vs_err(err, "0x%llx is not mapped: index %llu "
				      "beyond the %s table's length",
				      (unsigned long long)va,
				      (unsigned long long)idx, level_name[level]);
		if (read_u64(c, r, slot, &e, err) < 0)
			return vs_err_ctx(err, "cannot read the %s entry for "
					  "0x%llx", level_name[level],
					  (unsigned long long)va);
		if (check_entry(e, level, va, slot, err) < 0)
			return -1;
		if (level == 1 && (e & E_FC))
			return leaf(e, R3_FRAME, va, pa, span);
		if (level == 0 && (e & E_FC))
			return leaf(e, S_FRAME, va, pa, span);
		if (level == 0)
			return walk_pte(c, r, va, e & S_ORIGIN, pa, span, err);
		table = e & R_ORIGIN;
		len = E_LENGTH(e);
		level--;
	}
}

static int s390_vtop(const void *ctx, struct vs_reader *r, uint64_t va,
		     uint64_t *pa, uint64_t *span, struct vs_error *err)
{
	const struct s390_ctx *c = ctx;

	if (direct(c, va, pa, span))
		return 0;
	return walk(c, r, va, pa, span, err);
}

static void s390_fini(void *ctx)
{
	free(ctx);
}

static int s390_init(void **out, const struct vs_input *in,
		     struct vs_reader *r, struct vs_error *err)
{
	return vs_arch_ctx_new(out, sizeof(struct s390_ctx), setup, s390_fini,
			       in, r, err);
}

const struct vs_arch_ops vs_arch_s390x = {
	.name = "s390x",
	.elf_machine = EM_S390,
	.section_size_bits = 28,
	.max_physmem_bits = 46,
	.big_endian = 1,
	.ptr_size = 8,
	.init = s390_init,
	.vtop = s390_vtop,
	.fini = s390_fini,
};
