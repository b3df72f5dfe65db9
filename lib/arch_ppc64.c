/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arch_ppc64.c - 64-bit IBM Power (ppc64le; Book3S 64) address
 * translation for the dead kernel; one entry of the architecture table
 * (arch.c), used by the filter, the memory model and --dump-dmesg through
 * vs_vtop().  Big-endian ppc64 vmcores are refused before this runs (the
 * ELF reader takes little-endian vmcores only).
 *
 * What VMCOREINFO gives, and what stands in when a key is missing:
 *   page size      PAGESIZE (4K or 64K; Debian, RHEL and SUSE ship 64K)
 *   MMU            NUMBER(RADIX_MMU) (1: radix, POWER9+; 0: hash); else
 *                  the MMU_FTR_TYPE_RADIX bit (0x40) of
 *                  cur_cpu_spec->mmu_features (SYMBOL(cur_cpu_spec),
 *                  OFFSET(cpu_spec.mmu_features)); else (Linux 6.1
 *                  exports neither) swapper_pg_dir's first entry: radix
 *                  directory entries hold the next level's index size
 *                  in bits 4:0 (NLS), hash ones hold zero there; else
 *                  the hash MMU
 *   kernel version OSRELEASE: the hash MMU's index sizes changed in 4.12
 *                  and 4.17; kernels before 4.7 (native-endian entries,
 *                  other masks) are refused as not supported yet
 *   page tables    SYMBOL(swapper_pg_dir), in the linear map
 *   vmalloc start  NUMBER(VMALLOC_START) bounds the linear map; else the
 *                  layout's default (hash before 5.2: 0xd000000000000000,
 *                  the regions being the top nibble, vmemmap at
 *                  0xf000000000000000; else 0xc008000000000000; with 4K hash
 *                  pages 0xc0003d0000000000: a 46-bit space of a 61 TB
 *                  linear map, then 1 TB each of vmalloc, I/O, vmemmap)
 *
 * Translation: the kernel image and the linear map are one region,
 * paddr = vaddr - 0xc000000000000000.  Everything else (vmemmap at
 * 0xc00c000000000000, vmalloc, I/O) walks swapper_pg_dir's four levels,
 * whose index sizes (PTE, PMD, PUD, PGD bits) are
 *   radix 64K  5  9  9 13     radix 4K  9 9 9 13
 *   hash  64K  8 10 10  8 (4.17+), 8 10 7 8 (4.12+), 8 5 5 12 (4.7+)
 *   hash  4K   9  7  9  9
 * Since 4.7 every entry is stored big-endian, whatever the kernel's byte
 * order.  A zero entry is not mapped; bit 62 (_PAGE_PTE) marks a leaf at
 * any level (a huge page above the last); a last-level entry must have bit
 * 63 (_PAGE_PRESENT).  A table entry holds the next table's physical
 * address with bits 63:62 and 7:0 (the next level's size) masked off: PTE
 * and PMD tables may be fragments of a page.  A leaf's physical address is
 * bits 52:PAGE_SHIFT (4.11+; bits PAGE_SHIFT+40 or +44 before).  Each
 * entry is read through vs_read_phys, so a corrupt table fails one
 * translation (the filter keeps the page and counts it doubtful), never a
 * read outside the dump.
 *
 * The hash MMU's vmemmap is bolted into the hash page table, not
 * swapper_pg_dir; the kernel lists its blocks in vmemmap_list (struct
 * vmemmap_backing: list, phys, virt_addr; each block 1 <<
 * mmu_psize_defs[mmu_vmemmap_psize].shift bytes).  With the hash MMU and
 * those keys (SYMBOL(vmemmap_list), SYMBOL(mmu_vmemmap_psize),
 * SYMBOL(mmu_psize_defs), SIZE(mmu_psize_def), OFFSET(mmu_psize_def.shift),
 * OFFSET(vmemmap_backing.list|phys|virt_addr)) the list is read once, at
 * set-up, through the linear map, and vmemmap addresses translate through
 * it first, the walk second.  A list that leaves the dump, loops or runs
 * past 2^24 blocks is kept as far as it was read: the struct pages
 * behind the rest fail to translate, and the filter keeps their pages as
 * doubtful.
 *
 * Not yet: hugepd directories.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>

#include "arch.h"
#include "vmcoreinfo.h"

#ifndef EM_PPC64
#define EM_PPC64 21
#endif

#define KERNEL_BASE      0xc000000000000000ull
#define VMALLOC_DEFAULT  0xc008000000000000ull
#define VMALLOC_HASH_4K  0xc0003d0000000000ull
#define VMALLOC_HREGION  0xd000000000000000ull   /* hash before 5.2 */
#define PTE_PRESENT      (1ull << 63)
#define PTE_LEAF         (1ull << 62)       /* _PAGE_PTE */
#define TABLE_MASKED     0xc0000000000000ffull
#define MMU_FTR_RADIX    0x40u
#define RADIX_NLS        0x1full            /* next level size, radix */
#define PGD_MAX_ENTRIES  8192u               /* radix: 2^13 */
#define VMEMMAP_MAX      (1u << 24)          /* vmemmap_list blocks */

struct vmemmap_block {
	uint64_t virt, phys;
};

struct ppc64_ctx {
	unsigned page_shift;
	int radix;
	unsigned bits[4];            /* index bits: PTE, PMD, PUD, PGD */
	unsigned shift[4];           /* lowest address bit each indexes */
	uint64_t rpn_mask;           /* a leaf's physical address bits */
	uint64_t lin_end;            /* vmalloc start: the linear map's end */
	uint64_t pgd;                /* physical address of swapper_pg_dir */
	struct vmemmap_block *vmemmap;  /* hash: vmemmap_list, by virt */
	size_t nr_vmemmap;
	uint64_t vmemmap_size;       /* bytes in each block */
};

static const char *const level_names[] = { "pte", "pmd", "pud", "pgd" };

/* OSRELEASE as major * 65536 + minor * 256; 0 when absent or unreadable. */
static unsigned kernel_version(const struct vs_vmcoreinfo *vi)
{
	const char *s = vs_vi_raw(vi, "OSRELEASE");
	unsigned major, minor;

	if (!s || sscanf(s, "%u.%u", &major, &minor) != 2)
		return 0;
	return major * 65536 + minor * 256;
}

#define KV(a, b) ((a) * 65536u + (b) * 256u)

static uint64_t be64(const uint8_t *b);

/* Radix or hash from swapper_pg_dir (at physical PGD): its first nonzero
 * entry has the next level's size in bits 4:0 with radix, zero with hash
 * (the kernel's directory entries are never leaves).  An unreadable or
 * empty table says hash. */
static int pgd_says_radix(uint64_t pgd, struct vs_reader *r)
{
	struct vs_error e = { 0 };
	uint8_t b[8];

	for (unsigned i = 0; i < PGD_MAX_ENTRIES; i++) {
		uint64_t v;

		if (vs_read_phys(r, pgd + i * 8ull, b, sizeof(b), &e) < 0)
			return 0;
		v = be64(b);
		if (v)
			return (v & RADIX_NLS) != 0;
	}
	return 0;
}

/* Radix or hash: NUMBER(RADIX_MMU), else the cpu_spec's MMU features,
 * else swapper_pg_dir's entries (pgd_says_radix). */
static void find_mmu(struct ppc64_ctx *c, const struct vs_input *in,
		     struct vs_reader *r, uint64_t pgd)
{
	int64_t off;
	uint64_t v, sym, spec;
	uint8_t b[8];
	struct vs_error e = { 0 };

	if (vs_vi_unsigned(in->vi, "RADIX_MMU", &v)) {
		c->radix = v == 1;
		return;
	}
	c->radix = 0;
	if (!vs_vi_symbol(in->vi, "cur_cpu_spec", &sym) ||
	    !vs_vi_offset(in->vi, "cpu_spec.mmu_features", &off) ||
	    sym < KERNEL_BASE) {
		c->radix = pgd_says_radix(pgd, r);
		return;
	}
	/* cur_cpu_spec and the cpu_spec it points to lie in the image */
	if (vs_read_phys(r, sym - KERNEL_BASE, b, 8, &e) < 0)
		return;
	spec = (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 |
	       (uint64_t)b[3] << 24 | (uint64_t)b[4] << 32 |
	       (uint64_t)b[5] << 40 | (uint64_t)b[6] << 48 |
	       (uint64_t)b[7] << 56;
	if (spec < KERNEL_BASE ||
	    vs_read_phys(r, spec - KERNEL_BASE + (uint64_t)off, b, 4, &e) < 0)
		return;
	c->radix = (b[0] & MMU_FTR_RADIX) != 0;
}

static void set_bits(struct ppc64_ctx *c, unsigned pte, unsigned pmd,
		     unsigned pud, unsigned pgd)
{
	c->bits[0] = pte;
	c->bits[1] = pmd;
	c->bits[2] = pud;
	c->bits[3] = pgd;
}

static int set_layout(struct ppc64_ctx *c, unsigned kv, struct vs_error *err)
{
	int k64 = c->page_shift == 16;

	if (kv && kv < KV(4, 7))
		return vs_err(err, "kernel %u.%u: ppc64 page tables before "
			      "Linux 4.7 are not supported", kv >> 16,
			      (kv >> 8) & 0xff);
	if (c->radix)
		set_bits(c, k64 ? 5 : 9, 9, 9, 13);
	else if (!k64)
		set_bits(c, 9, 7, 9, 9);
	else if (kv && kv < KV(4, 12))
		set_bits(c, 8, 5, 5, 12);
	else if (kv && kv < KV(4, 17))
		set_bits(c, 8, 10, 7, 8);
	else
		set_bits(c, 8, 10, 10, 8);
	c->shift[0] = c->page_shift;
	for (unsigned i = 1; i < 4; i++)
		c->shift[i] = c->shift[i - 1] + c->bits[i - 1];
	if (kv && kv < KV(4, 11))
		c->rpn_mask = ((1ull << (k64 ? 41 : 45)) - 1) << c->page_shift;
	else
		c->rpn_mask = ((1ull << 53) - 1) & ~((1ull << c->page_shift) - 1);
	return 0;
}

static int is_linear(const struct ppc64_ctx *c, uint64_t va)
{
	return va >= KERNEL_BASE && va < c->lin_end;
}

/* Entries are big-endian on every Book3S 64 kernel since 4.7. */
static uint64_t be64(const uint8_t *b)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
}

static int walk(const struct ppc64_ctx *c, struct vs_reader *r, uint64_t va,
		uint64_t *pa, uint64_t *span, struct vs_error *err)
{
	uint64_t table = c->pgd;

	/* radix: the kernel's quadrant, within the tables' span; hash
	 * indexes the low bits of every region (before 5.2 the regions were
	 * the top nibble: 0xd vmalloc, 0xf vmemmap) */
	if (va < KERNEL_BASE || (c->radix && (va & ~KERNEL_BASE) >>
				 (c->shift[3] + c->bits[3])))
		return vs_err(err, "0x%llx is outside the kernel's page tables",
			      (unsigned long long)va);
	for (int lv = 3; lv >= 0; lv--) {
		uint64_t idx = (va >> c->shift[lv]) & ((1ull << c->bits[lv]) - 1);
		uint64_t slot = table + idx * 8, e;
		uint8_t b[8];

		if (vs_read_phys(r, slot, b, sizeof(b), err) < 0)
			return vs_err_ctx(err, "cannot read the %s entry for "
					  "0x%llx", level_names[lv],
					  (unsigned long long)va);
		e = be64(b);
		if (!e || (lv == 0 && !(e & PTE_PRESENT)))
			return vs_err(err, "0x%llx is not mapped: %s entry at "
				      "0x%llx is 0x%llx", (unsigned long long)va,
				      level_names[lv], (unsigned long long)slot,
				      (unsigned long long)e);
		if (lv == 0 || (e & PTE_LEAF)) {
			uint64_t size = 1ull << c->shift[lv];
			uint64_t off = va & (size - 1);

			*pa = (e & c->rpn_mask & ~(size - 1)) + off;
			*span = size - off;
			return 0;
		}
		table = e & ~TABLE_MASKED;
	}
	return vs_err(err, "internal: page-table walk fell through");
}

/* The vmemmap_list block that holds VA, or NULL. */
static const struct vmemmap_block *vmemmap_find(const struct ppc64_ctx *c,
						uint64_t va)
{
	size_t lo = 0, hi = c->nr_vmemmap;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->vmemmap[mid].virt <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && va - c->vmemmap[lo - 1].virt < c->vmemmap_size)
		return &c->vmemmap[lo - 1];
	return NULL;
}

static int ppc64_vtop(const void *ctx, struct vs_reader *r, uint64_t va,
		      uint64_t *pa, uint64_t *span, struct vs_error *err)
{
	const struct ppc64_ctx *c = ctx;
	const struct vmemmap_block *b;

	if (is_linear(c, va)) {
		*pa = va - KERNEL_BASE;
		*span = c->lin_end - va;
		return 0;
	}
	if (c->nr_vmemmap && (b = vmemmap_find(c, va))) {
		*pa = b->phys + (va - b->virt);
		*span = c->vmemmap_size - (va - b->virt);
		return 0;
	}
	return walk(c, r, va, pa, span, err);
}

/* A value of the machine at linear address VA; 0 when not in the dump. */
static int read_linear(const struct ppc64_ctx *c, const struct vs_machine *m,
		       struct vs_reader *r, uint64_t va, unsigned width,
		       uint64_t *v)
{
	uint8_t b[8];
	struct vs_error e;

	if (!is_linear(c, va) || !is_linear(c, va + width - 1) ||
	    vs_read_phys(r, va - KERNEL_BASE, b, width, &e) < 0)
		return 0;
	*v = vs_load_width(m, b, width);
	return 1;
}

static int block_cmp(const void *a, const void *b)
{
	const struct vmemmap_block *x = a, *y = b;

	return x->virt < y->virt ? -1 : x->virt > y->virt;
}

/* Read vmemmap_list (the hash MMU's vmemmap) where the keys allow. */
static int read_vmemmap_list(struct ppc64_ctx *c, const struct vs_input *in,
			     struct vs_reader *r, struct vs_error *err)
{
	const struct vs_vmcoreinfo *vi = in->vi;
	struct vs_machine m;
	uint64_t head, psize_sym, defs, psize, shift, node;
	int64_t def_size, o_shift, o_list, o_phys, o_virt;
	size_t cap = 0;

	if (!vs_vi_symbol(vi, "vmemmap_list", &head) ||
	    !vs_vi_symbol(vi, "mmu_vmemmap_psize", &psize_sym) ||
	    !vs_vi_symbol(vi, "mmu_psize_defs", &defs) ||
	    !vs_vi_size(vi, "mmu_psize_def", &def_size) ||
	    !vs_vi_offset(vi, "mmu_psize_def.shift", &o_shift) ||
	    !vs_vi_offset(vi, "vmemmap_backing.list", &o_list) ||
	    !vs_vi_offset(vi, "vmemmap_backing.phys", &o_phys) ||
	    !vs_vi_offset(vi, "vmemmap_backing.virt_addr", &o_virt))
		return 0;
	vs_machine_set(&m, in->page_size, 0, 8);
	if (!read_linear(c, &m, r, psize_sym, 4, &psize) || psize > 64 ||
	    def_size <= 0 || o_shift < 0 ||
	    !read_linear(c, &m, r, defs + psize * (uint64_t)def_size +
			 (uint64_t)o_shift, 4, &shift) ||
	    shift < 12 || shift > 40)
		return 0;
	c->vmemmap_size = 1ull << shift;
	if (!read_linear(c, &m, r, head, 8, &node))
		return 0;
	while (node && c->nr_vmemmap < VMEMMAP_MAX) {
		uint64_t next, phys, virt;

		if (!read_linear(c, &m, r, node + (uint64_t)o_list, 8, &next) ||
		    !read_linear(c, &m, r, node + (uint64_t)o_phys, 8, &phys) ||
		    !read_linear(c, &m, r, node + (uint64_t)o_virt, 8, &virt))
			break;
		if (c->nr_vmemmap == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			struct vmemmap_block *nb = realloc(c->vmemmap,
							   ncap * sizeof(*nb));

			if (!nb)
				return vs_err_oom(err, "out of memory");
			c->vmemmap = nb;
			cap = ncap;
		}
		c->vmemmap[c->nr_vmemmap].virt = virt & ~(c->vmemmap_size - 1);
		c->vmemmap[c->nr_vmemmap].phys = phys & ~(c->vmemmap_size - 1);
		c->nr_vmemmap++;
		node = next;
	}
	qsort(c->vmemmap, c->nr_vmemmap, sizeof(*c->vmemmap), block_cmp);
	return 0;
}

static int setup(void *ctx, const struct vs_input *in, struct vs_reader *r,
		 struct vs_error *err)
{
	struct ppc64_ctx *c = ctx;
	uint64_t va, vs;
	unsigned kv;

	c->page_shift = in->page_shift;
	if (c->page_shift != 12 && c->page_shift != 16)
		return vs_err(err, "page size %llu is not 4K or 64K",
			      (unsigned long long)in->page_size);
	kv = kernel_version(in->vi);
	if (!vs_vi_symbol(in->vi, "swapper_pg_dir", &va))
		return vs_err(err, "VMCOREINFO lacks 'SYMBOL(swapper_pg_dir)'");
	/* the image lies in the linear map, below any vmalloc start */
	if (va < KERNEL_BASE || va >= VMALLOC_HASH_4K)
		return vs_err(err, "SYMBOL(swapper_pg_dir)=0x%llx is not in the "
			      "linear map", (unsigned long long)va);
	c->pgd = va - KERNEL_BASE;
	find_mmu(c, in, r, c->pgd);
	if (set_layout(c, kv, err) < 0)
		return -1;
	if (vs_vi_unsigned(in->vi, "VMALLOC_START", &vs) && vs > KERNEL_BASE)
		c->lin_end = vs;
	else if (!c->radix && kv && kv < KV(5, 2))
		c->lin_end = VMALLOC_HREGION;
	else
		c->lin_end = !c->radix && c->page_shift == 12 ?
			VMALLOC_HASH_4K : VMALLOC_DEFAULT;
	if (!is_linear(c, va))
		return vs_err(err, "SYMBOL(swapper_pg_dir)=0x%llx is not in the "
			      "linear map", (unsigned long long)va);
	return c->radix ? 0 : read_vmemmap_list(c, in, r, err);
}

static void ppc64_fini(void *ctx)
{
	struct ppc64_ctx *c = ctx;

	if (c)
		free(c->vmemmap);
	free(c);
}

static int ppc64_init(void **out, const struct vs_input *in,
		      struct vs_reader *r, struct vs_error *err)
{
	return vs_arch_ctx_new(out, sizeof(struct ppc64_ctx), setup,
			       ppc64_fini, in, r, err);
}

/* The linear map, kernel image included, at 0xc000000000000000 +
 * physical, as ppc64's /proc/vmcore lists its memory (its kernel text has
 * no load of its own: kernel_image stays unset). */
static int ppc64_linear_base(const void *ctx, uint64_t *vaddr)
{
	(void)ctx;
	*vaddr = KERNEL_BASE;
	return 1;
}

const struct vs_arch_ops vs_arch_ppc64 = {
	.name = "ppc64",
	.elf_machine = EM_PPC64,
	.section_size_bits = 24,
	.max_physmem_bits = 51,
	.init = ppc64_init,
	.vtop = ppc64_vtop,
	.fini = ppc64_fini,
	.linear_base = ppc64_linear_base,
};
