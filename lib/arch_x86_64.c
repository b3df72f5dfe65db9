/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arch_x86_64.c - x86_64 (little-endian, 4 KiB pages) address
 * translation for the dead kernel; one entry of the architecture table
 * (arch.c), used through vs_vtop()/vs_read_kvirt() by the filter, the
 * memory model, dmesg.c and the kdump writer.
 *
 * Three kinds of kernel address, tried in this order:
 *   kernel text/data  [__START_KERNEL_map, + KERNEL_IMAGE_SIZE):
 *                     paddr = vaddr - __START_KERNEL_map + phys_base
 *                     (phys_base is NUMBER(phys_base), often negative with
 *                     KASLR, else taken from the kernel-text PT_LOAD)
 *   direct map        [PAGE_OFFSET, + highest physical address):
 *                     paddr = vaddr - PAGE_OFFSET; PAGE_OFFSET comes from
 *                     the direct-map PT_LOADs (p_vaddr - p_paddr) or, when
 *                     the dump has none (QEMU's layout), from one walk of a
 *                     known direct-map pointer
 *   anything else     (vmemmap, vmalloc): a 4- or 5-level page-table walk
 *                     from init_top_pgt, with 1 GiB and 2 MiB pages, the
 *                     SME encryption bit stripped from every entry.
 * Every page-table entry is read through vs_read_phys, so a corrupt entry
 * can fail a translation but never a read outside the input.
 */
#include <elf.h>
#include <stdlib.h>

#include "arch.h"
#include "vmcoreinfo.h"

#define START_KERNEL_MAP   0xffffffff80000000ull
#define KERNEL_HALF        0xffff800000000000ull
#define DEFAULT_IMAGE_SIZE (512ull << 20)
#define PTE_PRESENT        0x1ull
#define PTE_PSE            0x80ull
#define PTE_ADDR_MASK      0x000ffffffffff000ull
#define PUD_SIZE           (1ull << 30)
#define X86_PAGE_SHIFT     12        /* page tables map 4 KiB pages */
#define X86_LEVEL_BITS     9         /* 512 entries a table */

struct x86_ctx {
	struct vs_machine m;         /* page-table entries' byte order */
	uint64_t phys_base;          /* two's complement when negative */
	uint64_t image_size;
	uint64_t pgd;                /* physical address of the top table */
	unsigned levels;             /* 4 or 5 */
	uint64_t addr_mask;          /* entry address bits, sme_mask cleared */
	int have_page_offset;
	uint64_t page_offset;
	uint64_t direct_end;         /* PAGE_OFFSET + highest paddr */
	uint64_t stext;              /* SYMBOL(_stext), 0 without it */
};

static const char *level_name(const struct x86_ctx *c, unsigned level)
{
	static const char *const names[] = { "", "pte", "pmd", "pud", "p4d", "pgd" };

	if (level == 4 && c->levels == 4)
		return "pgd";
	return names[level];
}

static int is_canonical(const struct x86_ctx *c, uint64_t va)
{
	unsigned bits = c->levels == 5 ? 57 : 48;
	uint64_t top = (uint64_t)((int64_t)(va << (64 - bits)) >> (64 - bits));

	return top == va;
}

static int walk(const struct x86_ctx *c, struct vs_reader *r, uint64_t va,
		uint64_t *pa, uint64_t *span, struct vs_error *err)
{
	uint64_t table = c->pgd;

	if (!is_canonical(c, va))
		return vs_err(err, "non-canonical address 0x%llx",
			      (unsigned long long)va);
	for (unsigned level = c->levels; level >= 1; level--) {
		unsigned shift = X86_PAGE_SHIFT + X86_LEVEL_BITS * (level - 1);
		uint64_t idx = (va >> shift) & ((1u << X86_LEVEL_BITS) - 1);
		uint64_t slot = table + idx * 8, e;
		uint8_t raw[8];

		if (vs_read_phys(r, slot, raw, sizeof(raw), err) < 0)
			return vs_err_ctx(err, "cannot read the %s entry for "
					  "0x%llx", level_name(c, level),
					  (unsigned long long)va);
		e = vs_load64(&c->m, raw);
		if (!(e & PTE_PRESENT))
			return vs_err(err, "0x%llx is not mapped: %s entry at "
				      "0x%llx is 0x%llx", (unsigned long long)va,
				      level_name(c, level),
				      (unsigned long long)slot,
				      (unsigned long long)e);
		if (level == 1 || ((level == 2 || level == 3) && (e & PTE_PSE))) {
			uint64_t size = 1ull << shift, off = va & (size - 1);

			*pa = (e & c->addr_mask & ~(size - 1)) + off;
			*span = size - off;
			return 0;
		}
		table = e & c->addr_mask;
	}
	return vs_err(err, "internal: page-table walk fell through");
}

static int x86_vtop(const void *ctx, struct vs_reader *r, uint64_t va,
		    uint64_t *pa, uint64_t *span, struct vs_error *err)
{
	const struct x86_ctx *c = ctx;

	if (va >= START_KERNEL_MAP && va - START_KERNEL_MAP < c->image_size) {
		*pa = va - START_KERNEL_MAP + c->phys_base;
		*span = c->image_size - (va - START_KERNEL_MAP);
		return 0;
	}
	if (c->have_page_offset && va >= c->page_offset && va < c->direct_end) {
		*pa = va - c->page_offset;
		*span = c->direct_end - va;
		return 0;
	}
	return walk(c, r, va, pa, span, err);
}

/* phys_base: VMCOREINFO, else the kernel-text PT_LOAD, else 0. */
static uint64_t find_phys_base(const struct vs_input *in)
{
	int64_t v;

	if (in->vi && vs_vi_number(in->vi, "phys_base", &v))
		return (uint64_t)v;
	for (size_t i = 0; i < in->nr_loads; i++) {
		const struct vs_segment *s = &in->loads[i];

		if (s->vaddr >= START_KERNEL_MAP)
			return s->paddr - (s->vaddr - START_KERNEL_MAP);
	}
	return 0;
}

static int find_root(const struct vs_input *in, uint64_t *va,
		     struct vs_error *err)
{
	static const char *const names[] = {
		"init_top_pgt", "init_level4_pgt", "swapper_pg_dir",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (vs_vi_symbol(in->vi, names[i], va))
			return 0;
	return vs_err(err, "VMCOREINFO lacks 'SYMBOL(init_top_pgt)'");
}

/* PAGE_OFFSET from the direct-map PT_LOADs; 0 when they disagree or the
 * dump has none. */
static int page_offset_from_loads(const struct vs_input *in, uint64_t *po)
{
	int found = 0;

	for (size_t i = 0; i < in->nr_loads; i++) {
		const struct vs_segment *s = &in->loads[i];
		uint64_t d = s->vaddr - s->paddr;

		if (s->vaddr < KERNEL_HALF || s->vaddr >= START_KERNEL_MAP)
			continue;
		if (found && d != *po)
			return 0;
		*po = d;
		found = 1;
	}
	return found;
}

/* PAGE_OFFSET by walking a pointer known to be in the direct map; the
 * direct map is placed at a 1 GiB boundary, which checks the result. */
static int page_offset_from_walk(const struct x86_ctx *c,
				 const struct vs_input *in, struct vs_reader *r,
				 uint64_t *po)
{
	struct vs_error scratch;
	uint64_t va, pa, span;

	if (!vs_vi_symbol(in->vi, "mem_section", &va) || va < KERNEL_HALF ||
	    va >= START_KERNEL_MAP)
		return 0;
	if (walk(c, r, va, &pa, &span, &scratch) < 0)
		return 0;
	if ((va - pa) % PUD_SIZE || va - pa < KERNEL_HALF)
		return 0;
	*po = va - pa;
	return 1;
}

static void set_page_offset(struct x86_ctx *c, const struct vs_input *in,
			    struct vs_reader *r)
{
	uint64_t po = 0;

	c->have_page_offset = page_offset_from_loads(in, &po) ||
			      page_offset_from_walk(c, in, r, &po);
	c->page_offset = po;
	c->direct_end = po + (in->max_mapnr << c->m.page_shift);
}

static int setup(void *ctx, const struct vs_input *in, struct vs_reader *r,
		 struct vs_error *err)
{
	struct x86_ctx *c = ctx;
	uint64_t root;
	int64_t v;

	if (in->page_size != 1ull << X86_PAGE_SHIFT)
		return vs_err(err, "the dump's page size is %llu, not x86_64's "
			      "4096", (unsigned long long)in->page_size);
	if (find_root(in, &root, err) < 0)
		return -1;
	vs_machine_set(&c->m, in->page_size, 0, 8);
	c->phys_base = find_phys_base(in);
	c->image_size = vs_vi_number(in->vi, "KERNEL_IMAGE_SIZE", &v) && v > 0 ?
			(uint64_t)v : DEFAULT_IMAGE_SIZE;
	c->levels = vs_vi_number(in->vi, "pgtable_l5_enabled", &v) && v ? 5 : 4;
	c->addr_mask = PTE_ADDR_MASK;
	if (vs_vi_number(in->vi, "sme_mask", &v))
		c->addr_mask &= ~(uint64_t)v;
	if (root < START_KERNEL_MAP || root - START_KERNEL_MAP >= c->image_size)
		return vs_err(err, "page-table root 0x%llx is outside the "
			      "kernel image", (unsigned long long)root);
	c->pgd = root - START_KERNEL_MAP + c->phys_base;
	if (!vs_vi_symbol(in->vi, "_stext", &c->stext) ||
	    c->stext < START_KERNEL_MAP ||
	    c->stext - START_KERNEL_MAP >= c->image_size)
		c->stext = 0;
	set_page_offset(c, in, r);
	return 0;
}

static int x86_linear_base(const void *ctx, uint64_t *vaddr)
{
	const struct x86_ctx *c = ctx;

	*vaddr = c->page_offset;
	return c->have_page_offset;
}

/* The kernel image's mapping from _stext to the end of the kernel map. */
static int x86_kernel_image(const void *ctx, uint64_t *vaddr, uint64_t *paddr,
			    uint64_t *max_len)
{
	const struct x86_ctx *c = ctx;

	if (!c->stext)
		return 0;
	*vaddr = c->stext;
	*paddr = c->stext - START_KERNEL_MAP + c->phys_base;
	*max_len = START_KERNEL_MAP + c->image_size - c->stext;
	return 1;
}

static void x86_fini(void *ctx)
{
	free(ctx);
}

static int x86_init(void **out, const struct vs_input *in, struct vs_reader *r,
		    struct vs_error *err)
{
	return vs_arch_ctx_new(out, sizeof(struct x86_ctx), setup, x86_fini, in,
			       r, err);
}

const struct vs_arch_ops vs_arch_x86_64 = {
	.name = "x86_64",
	.elf_machine = EM_X86_64,
	.section_size_bits = 27,
	.max_physmem_bits = 46,
	.big_endian = 0,
	.ptr_size = 8,
	.init = x86_init,
	.vtop = x86_vtop,
	.fini = x86_fini,
	.linear_base = x86_linear_base,
	.kernel_image = x86_kernel_image,
};
