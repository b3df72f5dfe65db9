/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arch_riscv64.c - riscv64 (RV64, little-endian, 4 KiB pages) address
 * translation for the dead kernel; one entry of the architecture table
 * (arch.c), used by the filter, the memory model and --dump-dmesg through
 * vs_vtop().
 *
 * What VMCOREINFO gives (arch/riscv/kernel/vmcore_info.c; VA_BITS
 * in decimal, the rest in 0x hex), and what stands in when a key is
 * missing:
 *   paging mode        NUMBER(VA_BITS): 39 Sv39, 48 Sv48, 57 Sv57, the
 *                      mode the kernel chose at boot; required
 *   linear map         NUMBER(PAGE_OFFSET) maps NUMBER(phys_ram_base) (the
 *                      lowest RAM); PAGE_OFFSET required, phys_ram_base
 *                      else from a PT_LOAD inside the linear map
 *   kernel image       at and above NUMBER(KERNEL_LINK_ADDR), physical =
 *                      virtual - NUMBER(va_kernel_pa_offset); both required
 *   other regions      NUMBER(VMALLOC_START/END), NUMBER(VMEMMAP_START/END),
 *                      NUMBER(MODULES_VADDR/END) end the linear map where
 *                      one begins above PAGE_OFFSET; each missing one is
 *                      left out, and MODULES_VADDR then stands at
 *                      KERNEL_LINK_ADDR - 2 GiB, the lowest it can be
 *   page-table root    SYMBOL(swapper_pg_dir), in the image; required
 *
 * Translation: the image and the linear map by arithmetic; everything
 * else (vmemmap, vmalloc, modules) walks swapper_pg_dir, 3, 4 or 5 levels
 * of 512 eight-byte entries, 9 bits of the address each above the 12-bit
 * page offset.  An entry: bit 0 V (valid); R, W, X in bits 1-3, any of
 * them set makes it a leaf (at every level: 4 KiB, 2 MiB, 1 GiB, 512 GiB,
 * 256 TiB), none a pointer to the next table; W without R is reserved;
 * the PPN in bits 10-53 gives the physical page; bits 54-62 (reserved,
 * PBMT) are ignored; bit 63 (N, Svnapot) on a last-level leaf with PPN
 * bits 3:0 = 1000 maps 64 KiB.  A leaf above the last level maps a whole
 * aligned block: the PPN's low bits are ignored, as the hardware's check
 * would fault and upstream makedumpfile masks them.  Each entry is read
 * through vs_read_phys, so a corrupt table fails one translation (the
 * filter keeps what it cannot judge), never a read outside the dump.
 */
#include <stdlib.h>

#include "arch.h"
#include "vmcoreinfo.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

#define PTE_V (1ull << 0)
#define PTE_R (1ull << 1)
#define PTE_W (1ull << 2)
#define PTE_X (1ull << 3)
#define PTE_N (1ull << 63)
#define PPN_SHIFT 10
#define PPN_MASK ((1ull << 44) - 1)

struct rv_ctx {
	unsigned va_bits;            /* 39, 48 or 57 */
	unsigned levels;             /* 3, 4 or 5 */
	uint64_t page_offset;        /* start of the linear map */
	uint64_t lin_end;            /* its end: the next region above */
	uint64_t phys_ram_base;      /* what PAGE_OFFSET maps */
	uint64_t kernel_link;        /* KERNEL_LINK_ADDR */
	uint64_t kpa_offset;         /* va_kernel_pa_offset */
	uint64_t pgd;                /* physical address of swapper_pg_dir */
};

static int need(const struct vs_vmcoreinfo *vi, const char *name,
		uint64_t *v, struct vs_error *err)
{
	if (vs_vi_unsigned(vi, name, v))
		return 0;
	return vs_err(err, "VMCOREINFO lacks 'NUMBER(%s)'", name);
}

static int set_mode(struct rv_ctx *c, const struct vs_vmcoreinfo *vi,
		    struct vs_error *err)
{
	uint64_t v;

	if (need(vi, "VA_BITS", &v, err) < 0)
		return -1;
	switch (v) {
	case 39: c->levels = 3; break;
	case 48: c->levels = 4; break;
	case 57: c->levels = 5; break;
	default:
		return vs_err(err, "NUMBER(VA_BITS)=%llu is not Sv39, Sv48 or "
			      "Sv57 (39, 48, 57)", (unsigned long long)v);
	}
	c->va_bits = (unsigned)v;
	return 0;
}

/* The linear map ends where the first region above PAGE_OFFSET begins. */
static void set_lin_end(struct rv_ctx *c, const struct vs_vmcoreinfo *vi)
{
	static const char *const starts[] = { "VMALLOC_START", "VMEMMAP_START",
					      "MODULES_VADDR" };
	uint64_t v;

	c->lin_end = c->kernel_link;
	if (!vs_vi_unsigned(vi, "MODULES_VADDR", &v) &&
	    c->kernel_link > (2ull << 30))
		c->lin_end = c->kernel_link - (2ull << 30);
	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		if (vs_vi_unsigned(vi, starts[i], &v) && v > c->page_offset &&
		    v < c->lin_end)
			c->lin_end = v;
}

static int is_linear(const struct rv_ctx *c, uint64_t va)
{
	return va >= c->page_offset && va < c->lin_end;
}

static int find_phys_ram_base(struct rv_ctx *c, const struct vs_input *in,
			      struct vs_error *err)
{
	if (vs_vi_unsigned(in->vi, "phys_ram_base", &c->phys_ram_base))
		return 0;
	for (size_t i = 0; i < in->nr_loads; i++) {
		const struct vs_segment *s = &in->loads[i];

		if (is_linear(c, s->vaddr)) {
			c->phys_ram_base = s->paddr - (s->vaddr - c->page_offset);
			return 0;
		}
	}
	return vs_err(err, "VMCOREINFO lacks 'NUMBER(phys_ram_base)' and no "
		      "PT_LOAD maps the linear region");
}

static int setup(void *ctx, const struct vs_input *in, struct vs_reader *r,
		 struct vs_error *err)
{
	struct rv_ctx *c = ctx;
	const struct vs_vmcoreinfo *vi = in->vi;
	uint64_t va;

	(void)r;
	if (in->page_size != 4096)
		return vs_err(err, "page size %llu is not 4K",
			      (unsigned long long)in->page_size);
	if (set_mode(c, vi, err) < 0 ||
	    need(vi, "PAGE_OFFSET", &c->page_offset, err) < 0 ||
	    need(vi, "KERNEL_LINK_ADDR", &c->kernel_link, err) < 0 ||
	    need(vi, "va_kernel_pa_offset", &c->kpa_offset, err) < 0)
		return -1;
	if (c->kernel_link <= c->page_offset)
		return vs_err(err, "NUMBER(KERNEL_LINK_ADDR)=0x%llx is not above "
			      "NUMBER(PAGE_OFFSET)=0x%llx",
			      (unsigned long long)c->kernel_link,
			      (unsigned long long)c->page_offset);
	set_lin_end(c, vi);
	if (find_phys_ram_base(c, in, err) < 0)
		return -1;
	if (!vs_vi_symbol(vi, "swapper_pg_dir", &va))
		return vs_err(err, "VMCOREINFO lacks 'SYMBOL(swapper_pg_dir)'");
	if (va >= c->kernel_link)
		c->pgd = va - c->kpa_offset;
	else if (is_linear(c, va))
		c->pgd = va - c->page_offset + c->phys_ram_base;
	else
		return vs_err(err, "SYMBOL(swapper_pg_dir)=0x%llx is neither in "
			      "the kernel image nor in the linear map",
			      (unsigned long long)va);
	return 0;
}

static uint64_t le64(const uint8_t *b)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

static int walk(const struct rv_ctx *c, struct vs_reader *r, uint64_t va,
		uint64_t *pa, uint64_t *span, struct vs_error *err)
{
	uint64_t table = c->pgd, top = ~0ull << (c->va_bits - 1);

	if ((va & top) != top)
		return vs_err(err, "0x%llx is outside the kernel's half of the "
			      "Sv%u address space", (unsigned long long)va,
			      c->va_bits);
	for (unsigned i = 0; i < c->levels; i++) {
		unsigned level = c->levels - 1 - i;  /* 0 = last */
		unsigned shift = 12 + 9 * level;
		uint64_t slot = table + ((va >> shift) & 511) * 8;
		uint64_t e, base, size, off;
		uint8_t b[8];

		if (vs_read_phys(r, slot, b, sizeof(b), err) < 0)
			return vs_err_ctx(err, "cannot read the level-%u entry "
					  "for 0x%llx", level,
					  (unsigned long long)va);
		e = le64(b);
		base = ((e >> PPN_SHIFT) & PPN_MASK) << 12;
		if (!(e & PTE_V) || (e & (PTE_R | PTE_W)) == PTE_W ||
		    (level == 0 && !(e & (PTE_R | PTE_W | PTE_X))))
			return vs_err(err, "0x%llx is not mapped: level-%u "
				      "entry at 0x%llx is 0x%llx",
				      (unsigned long long)va, level,
				      (unsigned long long)slot,
				      (unsigned long long)e);
		if (!(e & (PTE_R | PTE_W | PTE_X))) {
			table = base;
			continue;
		}
		size = 1ull << shift;
		if (level == 0 && (e & PTE_N)) {
			if ((base >> 12 & 0xf) != 0x8)
				return vs_err(err, "0x%llx: NAPOT entry at "
					      "0x%llx is 0x%llx, not 64 KiB",
					      (unsigned long long)va,
					      (unsigned long long)slot,
					      (unsigned long long)e);
			size = 64 << 10;
		}
		off = va & (size - 1);
		*pa = (base & ~(size - 1)) + off;
		*span = size - off;
		return 0;
	}
	return vs_err(err, "0x%llx is not mapped: no leaf after %u levels",
		      (unsigned long long)va, c->levels);
}

static int rv_vtop(const void *ctx, struct vs_reader *r, uint64_t va,
		   uint64_t *pa, uint64_t *span, struct vs_error *err)
{
	const struct rv_ctx *c = ctx;

	if (va >= c->kernel_link) {
		*pa = va - c->kpa_offset;
		*span = -va;
		return 0;
	}
	if (is_linear(c, va)) {
		*pa = va - c->page_offset + c->phys_ram_base;
		*span = c->lin_end - va;
		return 0;
	}
	return walk(c, r, va, pa, span, err);
}

static void rv_fini(void *ctx)
{
	free(ctx);
}

static int rv_init(void **out, const struct vs_input *in, struct vs_reader *r,
		   struct vs_error *err)
{
	return vs_arch_ctx_new(out, sizeof(struct rv_ctx), setup, rv_fini, in,
			       r, err);
}

/* The linear map: PAGE_OFFSET maps phys_ram_base (vs_arch_ops.linear_base;
 * wraps: vaddr = base + paddr). */
static int rv_linear_base(const void *ctx, uint64_t *vaddr)
{
	const struct rv_ctx *c = ctx;

	*vaddr = c->page_offset - c->phys_ram_base;
	return 1;
}

/* The kernel image from KERNEL_LINK_ADDR, to the top of the address space
 * at most (the caller also stops at the end of the RAM range that holds
 * it). */
static int rv_kernel_image(const void *ctx, uint64_t *vaddr, uint64_t *paddr,
			   uint64_t *max_len)
{
	const struct rv_ctx *c = ctx;

	*vaddr = c->kernel_link;
	*paddr = c->kernel_link - c->kpa_offset;
	*max_len = 0 - c->kernel_link;
	return 1;
}

const struct vs_arch_ops vs_arch_riscv64 = {
	.name = "riscv64",
	.elf_machine = EM_RISCV,
	.section_size_bits = 27,
	.max_physmem_bits = 56,
	.init = rv_init,
	.vtop = rv_vtop,
	.fini = rv_fini,
	.linear_base = rv_linear_base,
	.kernel_image = rv_kernel_image,
};
