/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arch_arm64.c - arm64 (AArch64, little-endian) address translation for
 * the dead kernel; one entry of the architecture table (arch.c), used by
 * the filter, the memory model and --dump-dmesg through vs_vtop().
 *
 * What VMCOREINFO gives, and what stands in when a key is missing:
 *   page size          PAGESIZE (4K, 16K or 64K)
 *   VA_BITS            NUMBER(VA_BITS); else guessed from the top bits of a
 *                      kernel-image symbol (SYMBOL(_stext), swapper_pg_dir)
 *   vabits_actual      64 - NUMBER(TCR_EL1_T1SZ) (5.9+); else for VA_BITS
 *                      52 whether SYMBOL(mem_section) lies in the 48- or
 *                      52-bit linear map (5.4 to 5.10); else VA_BITS
 *   layout             "flipped" (5.4+: linear map in the lower half of the
 *                      kernel's space, image and vmalloc above) when a
 *                      kernel-image symbol lies above the middle; else the
 *                      old one (linear map in the upper half)
 *   PHYS_OFFSET        NUMBER(PHYS_OFFSET); else from a linear-map PT_LOAD
 *   kimage_voffset     NUMBER(kimage_voffset), to find swapper_pg_dir in
 *                      the image (4.6+); before, the image is linear
 *   physical bits      NUMBER(MAX_PHYSMEM_BITS); else 52 with VA_BITS 52,
 *                      else 48
 * Levels follow from page size and vabits_actual: 4K 39/48/52 -> 3/4/5,
 * 16K 36/47/48/52 -> 2/3/4/4, 64K 42/48/52 -> 2/3/3.
 *
 * Translation: a linear-map address is PHYS_OFFSET + its offset in the
 * map; everything else (image, vmemmap, vmalloc) walks swapper_pg_dir.
 * Descriptors: bit 0 valid; at the last level type 3 (page); above it
 * type 3 (table) or 1 (block, where the architecture allows one: 2 MiB /
 * 1 GiB with 4K, plus 512 GiB with LPA2; 32 MiB with 16K, plus 64 GiB with
 * LPA2; 512 MiB with 64K, plus 4 TiB with 52-bit PA).  Output addresses
 * above 48 bits sit in bits 15:12 (LPA, 64K pages) or bits 9:8 (LPA2,
 * 4K/16K pages with 52-bit VA).  Each entry is read through vs_read_phys,
 * so a corrupt table fails one translation, never a read outside the dump.
 */
#include <elf.h>
#include <stdlib.h>

#include "arch.h"
#include "vmcoreinfo.h"

#ifndef EM_AARCH64
#define EM_AARCH64 183
#endif

enum oa_layout { OA_48, OA_LPA, OA_LPA2 };

struct arm64_ctx {
	unsigned page_shift;
	unsigned va_bits;            /* the kernel's configured VA_BITS */
	unsigned vabits;             /* vabits_actual: what TCR_EL1 uses */
	unsigned levels;             /* 2 to 5 */
	int flipped;                 /* 5.4+ layout */
	uint64_t lin_start, lin_end; /* the linear map, [start, end) */
	uint64_t phys_offset;
	uint64_t pgd;                /* physical address of swapper_pg_dir */
	uint64_t stext, voff;        /* SYMBOL(_stext), kimage_voffset; 0: unknown */
	enum oa_layout oa;
	struct vs_machine m;         /* page-table entries' byte order */
};

/* A symbol known to be in the kernel image, for layout guesses. */
static int image_symbol(const struct vs_vmcoreinfo *vi, uint64_t *va)
{
	return vs_vi_symbol(vi, "_stext", va) ||
	       vs_vi_symbol(vi, "swapper_pg_dir", va);
}

static int find_va_bits(struct arm64_ctx *c, const struct vs_vmcoreinfo *vi,
			struct vs_error *err)
{
	static const unsigned guesses[] = { 48, 47, 42, 39, 36 };
	uint64_t v, sym;

	if (vs_vi_unsigned(vi, "VA_BITS", &v)) {
		if (v < 36 || v > 52)
			return vs_err(err, "NUMBER(VA_BITS)=%llu is not between "
				      "36 and 52", (unsigned long long)v);
		c->va_bits = (unsigned)v;
		return 0;
	}
	if (!image_symbol(vi, &sym))
		return vs_err(err, "VMCOREINFO lacks 'NUMBER(VA_BITS)' and "
			      "'SYMBOL(_stext)' to guess it from");
	for (size_t i = 0; i < sizeof(guesses) / sizeof(guesses[0]); i++) {
		uint64_t top = ~0ull << guesses[i];

		if ((sym & top) == top) {
			c->va_bits = guesses[i];
			return 0;
		}
	}
	return vs_err(err, "VMCOREINFO lacks 'NUMBER(VA_BITS)' and kernel "
		      "symbol 0x%llx does not tell it", (unsigned long long)sym);
}

static int find_vabits_actual(struct arm64_ctx *c,
			      const struct vs_vmcoreinfo *vi,
			      struct vs_error *err)
{
	uint64_t t1sz, ms;

	if (vs_vi_unsigned(vi, "TCR_EL1_T1SZ", &t1sz)) {
		if (t1sz < 12 || t1sz > 28)
			return vs_err(err, "NUMBER(TCR_EL1_T1SZ)=%llu gives no "
				      "usable address size",
				      (unsigned long long)t1sz);
		c->vabits = 64 - (unsigned)t1sz;
	} else if (c->va_bits == 52 && vs_vi_symbol(vi, "mem_section", &ms)) {
		c->vabits = (ms >> 51) & 1 ? 48 : 52;
	} else {
		c->vabits = c->va_bits;
	}
	return 0;
}

/* The flipped layout puts the image above the middle of the space the
 * smaller of VA_BITS and 48 bits spans. */
static void set_layout(struct arm64_ctx *c, const struct vs_vmcoreinfo *vi)
{
	unsigned vmin = c->va_bits > 48 ? 48 : c->va_bits;
	uint64_t page_end = -(1ull << (vmin - 1)), sym = 0;

	c->flipped = image_symbol(vi, &sym) && sym > page_end;
	if (c->flipped) {
		c->lin_start = -(1ull << c->vabits);
		c->lin_end = -(1ull << (c->vabits - 1));
	} else {
		c->lin_start = -(1ull << (c->vabits - 1));
		c->lin_end = 0;  /* wraps: up to the top of the space */
	}
}

static int is_linear(const struct arm64_ctx *c, uint64_t va)
{
	return va >= c->lin_start && (c->lin_end == 0 || va < c->lin_end);
}

static int set_levels(struct arm64_ctx *c, struct vs_error *err)
{
	static const struct { unsigned shift, vabits, levels; } table[] = {
		{ 12, 39, 3 }, { 12, 48, 4 }, { 12, 52, 5 },
		{ 14, 36, 2 }, { 14, 47, 3 }, { 14, 48, 4 }, { 14, 52, 4 },
		{ 16, 42, 2 }, { 16, 48, 3 }, { 16, 52, 3 },
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].shift == c->page_shift &&
		    table[i].vabits == c->vabits) {
			c->levels = table[i].levels;
			return 0;
		}
	return vs_err(err, "page size %u KiB with %u-bit virtual addresses "
		      "is not an arm64 configuration",
		      (1u << c->page_shift) >> 10, c->vabits);
}

static void set_oa_layout(struct arm64_ctx *c, const struct vs_vmcoreinfo *vi)
{
	uint64_t pa_bits;

	if (!vs_vi_unsigned(vi, "MAX_PHYSMEM_BITS", &pa_bits))
		pa_bits = c->va_bits == 52 ? 52 : 48;
	if (pa_bits != 52)
		c->oa = OA_48;
	else if (c->page_shift == 16)
		c->oa = OA_LPA;
	else
		c->oa = c->vabits == 52 ? OA_LPA2 : OA_48;
}

static int find_phys_offset(struct arm64_ctx *c, const struct vs_input *in,
			    struct vs_error *err)
{
	if (vs_vi_unsigned(in->vi, "PHYS_OFFSET", &c->phys_offset)) {
		/* A kernel built for 52-bit VA running with fewer bits moves
		 * memstart_addr down by PAGE_OFFSET(vabits_actual) -
		 * PAGE_OFFSET(VA_BITS), so that its __pa() can subtract the
		 * 52-bit PAGE_OFFSET; the value then lies above any physical
		 * address (Debian's 6.12 arm64-16k: 0xfff0800040000000 for
		 * RAM at 0x40000000).  Undo it for our linear-map base. */
		if (c->flipped && c->va_bits > c->vabits &&
		    c->phys_offset >> 52)
			c->phys_offset += (1ULL << c->va_bits) -
					  (1ULL << c->vabits);
		return 0;
	}
	for (size_t i = 0; i < in->nr_loads; i++) {
		const struct vs_segment *s = &in->loads[i];

		if (is_linear(c, s->vaddr)) {
			c->phys_offset = s->paddr - (s->vaddr - c->lin_start);
			return 0;
		}
	}
	return vs_err(err, "VMCOREINFO lacks 'NUMBER(PHYS_OFFSET)' and no "
		      "PT_LOAD maps the linear region");
}

static int find_pgd(struct arm64_ctx *c, const struct vs_vmcoreinfo *vi,
		    struct vs_error *err)
{
	uint64_t va, voff;

	if (!vs_vi_symbol(vi, "swapper_pg_dir", &va))
		return vs_err(err, "VMCOREINFO lacks 'SYMBOL(swapper_pg_dir)'");
	if (is_linear(c, va)) {
		c->pgd = va - c->lin_start + c->phys_offset;
		return 0;
	}
	if (!vs_vi_unsigned(vi, "kimage_voffset", &voff))
		return vs_err(err, "VMCOREINFO lacks 'NUMBER(kimage_voffset)' "
			      "to find swapper_pg_dir (0x%llx) in the kernel "
			      "image", (unsigned long long)va);
	c->pgd = va - voff;
	return 0;
}

/* Where the kernel image is, for an ELF view (vs_arch_ops.kernel_image). */
static void find_image(struct arm64_ctx *c, const struct vs_vmcoreinfo *vi)
{
	if (!vs_vi_symbol(vi, "_stext", &c->stext) ||
	    !vs_vi_unsigned(vi, "kimage_voffset", &c->voff) || is_linear(c, c->stext))
		c->stext = c->voff = 0;
}

static int arm64_linear_base(const void *ctx, uint64_t *vaddr)
{
	const struct arm64_ctx *c = ctx;

	*vaddr = c->lin_start - c->phys_offset;  /* wraps: vaddr = base + paddr */
	return 1;
}

/* The image from _stext on, at most 512 MiB (the caller also stops at the
 * end of the RAM range that holds it). */
static int arm64_kernel_image(const void *ctx, uint64_t *vaddr,
			      uint64_t *paddr, uint64_t *max_len)
{
	const struct arm64_ctx *c = ctx;

	if (!c->stext)
		return 0;
	*vaddr = c->stext;
	*paddr = c->stext - c->voff;
	*max_len = 512u << 20;
	return 1;
}

/* The output address in descriptor D. */
static uint64_t desc_addr(const struct arm64_ctx *c, uint64_t d)
{
	switch (c->oa) {
	case OA_LPA:
		return (d & 0x0000ffffffff0000ull) | ((d & 0xf000ull) << 36);
	case OA_LPA2:
		return (d & ((1ull << 50) - 1) & ~((1ull << c->page_shift) - 1)) |
		       ((d & 0x300ull) << 42);
	default:
		return d & ((1ull << 48) - 1) & ~((1ull << c->page_shift) - 1);
	}
}

/* Architecture level of the walk's step I (0 = top); the leaf is 3. */
static int arm_level(const struct arm64_ctx *c, unsigned i)
{
	return 4 - (int)c->levels + (int)i;
}

static unsigned level_shift(const struct arm64_ctx *c, int level)
{
	return (c->page_shift - 3) * (unsigned)(3 - level) + c->page_shift;
}

static int block_allowed(const struct arm64_ctx *c, int level)
{
	if (level == 2)
		return 1;
	if (c->page_shift == 12)
		return level == 1 || (level == 0 && c->oa == OA_LPA2);
	if (c->page_shift == 14)
		return level == 1 && c->oa == OA_LPA2;
	return level == 1 && c->oa == OA_LPA;
}

static const char *level_name(int level)
{
	static const char *const names[] = { "level -1", "level 0", "level 1",
					     "level 2", "level 3" };

	return names[level + 1];
}

static int walk(const struct arm64_ctx *c, struct vs_reader *r, uint64_t va,
		uint64_t *pa, uint64_t *span, struct vs_error *err)
{
	uint64_t table = c->pgd;

	if (va < -(1ull << c->vabits))
		return vs_err(err, "0x%llx is outside the kernel's %u-bit "
			      "address space", (unsigned long long)va, c->vabits);
	for (unsigned i = 0; i < c->levels; i++) {
		int level = arm_level(c, i);
		unsigned shift = level_shift(c, level);
		unsigned bits = i == 0 ? c->vabits - shift : c->page_shift - 3;
		uint64_t slot = table + ((va >> shift) & ((1ull << bits) - 1)) * 8;
		uint8_t b[8];
		uint64_t d;

		if (vs_read_phys(r, slot, b, sizeof(b), err) < 0)
			return vs_err_ctx(err, "cannot read the %s entry for "
					  "0x%llx", level_name(level),
					  (unsigned long long)va);
		d = vs_load64(&c->m, b);
		if (!(d & 1) || (level == 3 && !(d & 2)) ||
		    (level < 3 && !(d & 2) && !block_allowed(c, level)))
			return vs_err(err, "0x%llx is not mapped: %s entry at "
				      "0x%llx is 0x%llx", (unsigned long long)va,
				      level_name(level), (unsigned long long)slot,
				      (unsigned long long)d);
		if (level == 3 || !(d & 2)) {
			uint64_t size = 1ull << shift, off = va & (size - 1);

			*pa = (desc_addr(c, d) & ~(size - 1)) + off;
			*span = size - off;
			return 0;
		}
		table = desc_addr(c, d);
	}
	return vs_err(err, "internal: page-table walk fell through");
}

static int arm64_vtop(const void *ctx, struct vs_reader *r, uint64_t va,
		      uint64_t *pa, uint64_t *span, struct vs_error *err)
{
	const struct arm64_ctx *c = ctx;

	if (is_linear(c, va)) {
		*pa = va - c->lin_start + c->phys_offset;
		*span = c->lin_end - va;  /* wraps right for the old layout */
		return 0;
	}
	return walk(c, r, va, pa, span, err);
}

static int setup(void *ctx, const struct vs_input *in, struct vs_reader *r,
		 struct vs_error *err)
{
	struct arm64_ctx *c = ctx;

	(void)r;
	vs_machine_set(&c->m, in->page_size, 0, 8);
	c->page_shift = in->page_shift;
	if (c->page_shift != 12 && c->page_shift != 14 && c->page_shift != 16)
		return vs_err(err, "page size %llu is not 4K, 16K or 64K",
			      (unsigned long long)in->page_size);
	if (find_va_bits(c, in->vi, err) < 0 ||
	    find_vabits_actual(c, in->vi, err) < 0)
		return -1;
	set_layout(c, in->vi);
	if (set_levels(c, err) < 0)
		return -1;
	set_oa_layout(c, in->vi);
	if (find_phys_offset(c, in, err) < 0)
		return -1;
	find_image(c, in->vi);
	return find_pgd(c, in->vi, err);
}

static void arm64_fini(void *ctx)
{
	free(ctx);
}

static int arm64_init(void **out, const struct vs_input *in,
		      struct vs_reader *r, struct vs_error *err)
{
	return vs_arch_ctx_new(out, sizeof(struct arm64_ctx), setup, arm64_fini, in,
			       r, err);
}

const struct vs_arch_ops vs_arch_arm64 = {
	.name = "arm64",
	.elf_machine = EM_AARCH64,
	.section_size_bits = 30,
	.max_physmem_bits = 48,
	.init = arm64_init,
	.vtop = arm64_vtop,
	.fini = arm64_fini,
	.linear_base = arm64_linear_base,
	.kernel_image = arm64_kernel_image,
};
