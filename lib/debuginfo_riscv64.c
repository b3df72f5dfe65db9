/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * debuginfo_riscv64.c - -x without VMCOREINFO on riscv64: the keys the
 * kernel's arch_crash_save_vmcoreinfo() (arch/riscv/kernel/vmcore_info.c,
 * earlier crash_core.c) would have given, in its order and its formats,
 * from the dump's program headers and memory and the vmlinux's DWARF
 * (doc/debuginfo.md, "arm64 and riscv64").  Each is derived from one
 * source and checked against another:
 *
 *   phys_ram_base        the kernel's variable phys_ram_base; checked:
 *                        kernel_map.page_offset - kernel_map.va_pa_offset
 *                        (the linear map's own offset), and no PT_LOAD
 *                        below it
 *   PAGE_OFFSET          kernel_map.page_offset; checked: the start of a
 *                        PGDIR-aligned region in the kernel half of a
 *                        VA_BITS address space, and the vmemmap check
 *                        below reads mem_section through it
 *   VMALLOC_START, _END  PAGE_OFFSET - 2^(VA_BITS - 3) (a quarter of the
 *                        kernel half's PGD entries) and PAGE_OFFSET
 *   VA_BITS              satp_mode (8, 9, 10: Sv39, Sv48, Sv57); checked
 *                        against pgtable_l4_enabled and pgtable_l5_enabled
 *   VMEMMAP_START, _END  VMALLOC_START - 2^(VA_BITS - 13 +
 *                        order_base_2(sizeof(struct page))) and
 *                        VMALLOC_START; checked: the mem_map of the first
 *                        RAM section (mem_section, SPARSEMEM_EXTREME's
 *                        pointer, read through the linear map) is
 *                        vmemmap = VMEMMAP_START less vmemmap_start_pfn
 *                        (else phys_ram_base's pfn) struct pages
 *   MODULES_VADDR, _END  PFN_ALIGN(_end) - 2 GiB and PFN_ALIGN(_start),
 *                        relocated; checked: kernel_map.virt_addr is the
 *                        relocated _start
 *   KERNEL_LINK_ADDR     the vmlinux's _start; checked: 2 GiB below the
 *                        top (the 64-bit kernels' link address) and
 *                        kernel_map.virt_addr less kernel_map.virt_offset
 *                        (its KASLR offset, 6.6+)
 *   va_kernel_pa_offset  the kernel-image segment's p_vaddr - p_paddr;
 *                        checked: kernel_map.va_kernel_pa_offset
 *
 * A kernel without these variables (before 5.13's kernel_map) or whose
 * values disagree is refused, naming the key.
 */
#include "debuginfo.h"

#include "machine.h"

#define SZ_2G (2ull << 30)
#define RV_PAGE_SHIFT 12
#define RV_SECTION_SIZE_BITS 27        /* arch/riscv/include/asm/sparsemem.h */
#define SATP_MODE_SHIFT 60

struct rv {
	const struct vs_di_image *im;
	uint64_t km;                       /* struct kernel_mapping's type */
	unsigned va_bits;
	uint64_t page_offset, phys_ram_base, page_size;
};

static int refuse(struct vs_error *err, const char *key, const char *why)
{
	return vs_err(err, "riscv64: cannot give %s: %s", key, why);
}

/* A variable that must be there: 0 when read, else refused for KEY. */
static int need_var(const struct rv *rv, const char *name, uint64_t off,
		    size_t size, uint64_t *v, const char *key,
		    struct vs_error *err)
{
	int found = vs_di_image_var(rv->im, name, off, size, v, err);

	if (found < 0)
		return vs_err_ctx(err, "riscv64: %s", key);
	if (!found)
		return vs_err(err, "riscv64: cannot give %s: no variable '%s' "
			      "in the vmlinux", key, name);
	return 0;
}

/* kernel_map.MEMBER; KEY names what needs it. */
static int km_member(const struct rv *rv, const char *member, uint64_t *v,
		     const char *key, struct vs_error *err)
{
	const struct vs_typeinfo *ti = rv->im->ti;
	struct vs_error scratch = { 0 };
	uint64_t off, type;

	if (ti->ops->member(ti->ctx, rv->km, member, &off, &type,
			    &scratch) < 0)
		return vs_err(err, "riscv64: cannot give %s: no member "
			      "'kernel_map.%s' in the vmlinux", key, member);
	return need_var(rv, "kernel_map", off, 8, v, key, err);
}

static int va_bits(struct rv *rv, struct vs_error *err)
{
	uint64_t satp, l4, l5;
	unsigned mode;

	if (need_var(rv, "satp_mode", 0, 8, &satp, "VA_BITS", err) < 0 ||
	    need_var(rv, "pgtable_l4_enabled", 0, 1, &l4, "VA_BITS", err) < 0 ||
	    need_var(rv, "pgtable_l5_enabled", 0, 1, &l5, "VA_BITS", err) < 0)
		return -1;
	mode = (unsigned)(satp >> SATP_MODE_SHIFT);
	if (mode < 8 || mode > 10 || (satp << 4))
		return vs_err(err, "riscv64: cannot give VA_BITS: satp_mode "
			      "0x%llx is no Sv39, Sv48 or Sv57",
			      (unsigned long long)satp);
	rv->va_bits = 39 + 9 * (mode - 8);
	if ((l5 != 0) != (mode == 10) || (l4 != 0) != (mode >= 9))
		return vs_err(err, "riscv64: cannot give VA_BITS: satp_mode "
			      "says Sv%u but pgtable_l4_enabled is %llu and "
			      "pgtable_l5_enabled %llu", rv->va_bits,
			      (unsigned long long)l4, (unsigned long long)l5);
	return 0;
}

/* The lowest physical address of the dump's segments. */
static uint64_t lowest_paddr(const struct vs_input *in)
{
	uint64_t low = UINT64_MAX;

	for (size_t i = 0; i < in->nr_loads; i++)
		if (in->loads[i].paddr < low)
			low = in->loads[i].paddr;
	return low;
}

static int linear_map(struct rv *rv, struct vs_error *err)
{
	uint64_t va_pa, pgdir = 1ull << (rv->va_bits - 9);
	uint64_t half = -(1ull << (rv->va_bits - 1));

	if (need_var(rv, "phys_ram_base", 0, 8, &rv->phys_ram_base,
		     "phys_ram_base", err) < 0 ||
	    km_member(rv, "page_offset", &rv->page_offset, "PAGE_OFFSET",
		      err) < 0 ||
	    km_member(rv, "va_pa_offset", &va_pa, "phys_ram_base", err) < 0)
		return -1;
	if (rv->page_offset < half || (rv->page_offset & (pgdir - 1)))
		return vs_err(err, "riscv64: cannot give PAGE_OFFSET: "
			      "kernel_map.page_offset 0x%llx is no PGD-aligned "
			      "address of Sv%u's kernel half",
			      (unsigned long long)rv->page_offset, rv->va_bits);
	if (rv->page_offset - va_pa != rv->phys_ram_base)
		return vs_err(err, "riscv64: cannot give phys_ram_base: the "
			      "variable is 0x%llx but the linear map's offset "
			      "(kernel_map.va_pa_offset 0x%llx) maps PAGE_OFFSET "
			      "to 0x%llx", (unsigned long long)rv->phys_ram_base,
			      (unsigned long long)va_pa,
			      (unsigned long long)(rv->page_offset - va_pa));
	if (lowest_paddr(rv->im->in) < rv->phys_ram_base)
		return vs_err(err, "riscv64: cannot give phys_ram_base: the "
			      "variable is 0x%llx but the dump has memory at "
			      "0x%llx", (unsigned long long)rv->phys_ram_base,
			      (unsigned long long)lowest_paddr(rv->im->in));
	return 0;
}

/* A pointer at the linear-map address VA. */
static int linear_u64(const struct rv *rv, uint64_t va, uint64_t *v,
		      struct vs_error *err)
{
	struct vs_machine m = { .big_endian = rv->im->in->order.big_endian,
				.swap = rv->im->in->order.swap, .ptr_size = 8 };
	uint8_t b[8];

	if (va < rv->page_offset)
		return vs_err(err, "0x%llx lies below the linear map",
			      (unsigned long long)va);
	if (vs_di_phys_read(rv->im, va - rv->page_offset + rv->phys_ram_base,
			    b, sizeof(b), err) < 0)
		return vs_err_ctx(err, "cannot read 0x%llx through the linear "
				  "map", (unsigned long long)va);
	*v = vs_load64(&m, b);
	return 0;
}

static int type_size(const struct vs_typeinfo *ti, const char *name,
		     uint64_t *size)
{
	struct vs_error scratch = { 0 };
	struct vs_ti_type t;
	uint64_t id;

	if (ti->ops->type_by_name(ti->ctx, name, &id, &scratch) < 0 ||
	    ti->ops->type(ti->ctx, id, &t, &scratch) < 0 || !t.size)
		return -1;
	*size = t.size;
	return 0;
}

/* mem_section as SPARSEMEM_EXTREME has it (a pointer to roots of
 * pointers, as riscv64 kernels build it): the size and section_mem_map's
 * offset of a struct mem_section. */
static int extreme_sections(const struct rv *rv, uint64_t *ms_size,
			    uint64_t *off, struct vs_error *err)
{
	const struct vs_typeinfo *ti = rv->im->ti;
	struct vs_error scratch = { 0 };
	struct vs_ti_type t;
	uint64_t type;

	if (ti->ops->symbol_type(ti->ctx, "mem_section", &type, &scratch) < 0 ||
	    ti->ops->type(ti->ctx, type, &t, &scratch) < 0 ||
	    t.kind != VS_TI_PTR)
		return refuse(err, "VMEMMAP_START", "the vmlinux's mem_section "
			      "is no pointer (SPARSEMEM_EXTREME)");
	if (type_size(ti, "struct mem_section", ms_size) < 0 ||
	    ti->ops->type_by_name(ti->ctx, "struct mem_section", &type,
				  &scratch) < 0 ||
	    ti->ops->member(ti->ctx, type, "section_mem_map", off, &type,
			    &scratch) < 0)
		return refuse(err, "VMEMMAP_START", "no struct mem_section "
			      "with a section_mem_map in the vmlinux");
	return 0;
}

/* vmemmap as the kernel encoded it in phys_ram_base's section's
 * section_mem_map (mem_map - the section's first pfn, flags below). */
static int encoded_vmemmap(const struct rv *rv, uint64_t *vmemmap,
			   struct vs_error *err)
{
	uint64_t root, ms_size, off, entry;
	uint64_t nr = rv->phys_ram_base >> RV_SECTION_SIZE_BITS, per_root;

	if (extreme_sections(rv, &ms_size, &off, err) < 0 ||
	    need_var(rv, "mem_section", 0, 8, &root, "VMEMMAP_START", err) < 0)
		return -1;
	per_root = (1ull << RV_PAGE_SHIFT) / ms_size;
	if (linear_u64(rv, root + nr / per_root * 8, &root, err) < 0 ||
	    linear_u64(rv, root + nr % per_root * ms_size + off, &entry,
		       err) < 0)
		return vs_err_ctx(err, "riscv64: cannot give VMEMMAP_START: "
				  "cannot read the mem_section of "
				  "phys_ram_base");
	if (!(entry & 1))
		return refuse(err, "VMEMMAP_START", "phys_ram_base's memory "
			      "section is not present");
	*vmemmap = entry & ~(rv->page_size - 1);
	return 0;
}

static unsigned order_base_2(uint64_t v)
{
	unsigned o = 0;

	while ((1ull << o) < v)
		o++;
	return o;
}

static int vmemmap(const struct rv *rv, uint64_t start, struct vs_error *err)
{
	uint64_t enc = 0, base_pfn = rv->phys_ram_base >> RV_PAGE_SHIFT;
	int found = vs_di_image_var(rv->im, "vmemmap_start_pfn", 0, 8,
				    &base_pfn, err);

	if (found < 0)
		return vs_err_ctx(err, "riscv64: VMEMMAP_START");
	if (encoded_vmemmap(rv, &enc, err) < 0)
		return -1;
	if (enc + base_pfn * rv->page_size != start)
		return vs_err(err, "riscv64: cannot give VMEMMAP_START: Sv%u "
			      "puts it at 0x%llx but the kernel's mem_map "
			      "gives 0x%llx", rv->va_bits,
			      (unsigned long long)start,
			      (unsigned long long)(enc + base_pfn *
						   rv->page_size));
	return 0;
}

static int regions(const struct rv *rv, FILE *f, struct vs_error *err)
{
	uint64_t vm_start = rv->page_offset - (1ull << (rv->va_bits - 3));
	uint64_t mm_start = vm_start - (1ull << (rv->va_bits - RV_PAGE_SHIFT -
						 1 + order_base_2(rv->page_size)));

	if (vmemmap(rv, mm_start, err) < 0)
		return -1;
	fprintf(f, "NUMBER(PAGE_OFFSET)=0x%llx\nNUMBER(VMALLOC_START)=0x%llx\n"
		"NUMBER(VMALLOC_END)=0x%llx\nNUMBER(VA_BITS)=%u\n"
		"NUMBER(VMEMMAP_START)=0x%llx\nNUMBER(VMEMMAP_END)=0x%llx\n",
		(unsigned long long)rv->page_offset,
		(unsigned long long)vm_start,
		(unsigned long long)rv->page_offset, rv->va_bits,
		(unsigned long long)mm_start, (unsigned long long)vm_start);
	return 0;
}

/* The vmlinux's address of NAME, relocated, or refused for KEY. */
static int image_sym(const struct rv *rv, const char *name, uint64_t *v,
		     const char *key, struct vs_error *err)
{
	const struct vs_typeinfo *ti = rv->im->ti;
	struct vs_error scratch = { 0 };

	if (ti->ops->symbol(ti->ctx, name, v, &scratch) < 0)
		return vs_err(err, "riscv64: cannot give %s: no symbol '%s' in "
			      "the vmlinux", key, name);
	*v += rv->im->kaslr;
	return 0;
}

static uint64_t pfn_align(uint64_t v)
{
	return (v + (1ull << RV_PAGE_SHIFT) - 1) & ~((1ull << RV_PAGE_SHIFT) - 1);
}

/* kernel_map.virt_addr is the relocated _start START (MODULES_END's
 * check), and less its KASLR offset virt_offset (6.6+; 0 before) the
 * link address 2 GiB below the top (KERNEL_LINK_ADDR's). */
static int link_address(const struct rv *rv, uint64_t start,
			struct vs_error *err)
{
	const struct vs_typeinfo *ti = rv->im->ti;
	struct vs_error scratch = { 0 };
	uint64_t virt, voff = 0, off, type;

	if (km_member(rv, "virt_addr", &virt, "MODULES_END", err) < 0)
		return -1;
	if (ti->ops->member(ti->ctx, rv->km, "virt_offset", &off, &type,
			    &scratch) == 0 &&
	    km_member(rv, "virt_offset", &voff, "KERNEL_LINK_ADDR", err) < 0)
		return -1;
	if (virt != start)
		return vs_err(err, "riscv64: cannot give MODULES_END: the "
			      "kernel's kernel_map.virt_addr is 0x%llx but its "
			      "_start lies at 0x%llx in the dump",
			      (unsigned long long)virt,
			      (unsigned long long)start);
	if (start - rv->im->kaslr != -SZ_2G || virt - voff != -SZ_2G)
		return vs_err(err, "riscv64: cannot give KERNEL_LINK_ADDR: the "
			      "vmlinux's _start 0x%llx and kernel_map.virt_addr "
			      "0x%llx less virt_offset 0x%llx are not both "
			      "2 GiB below the top",
			      (unsigned long long)(start - rv->im->kaslr),
			      (unsigned long long)virt,
			      (unsigned long long)voff);
	return 0;
}

/* The image segment's p_vaddr - p_paddr, checked against the kernel's
 * kernel_map.va_kernel_pa_offset. */
static int kernel_pa_offset(const struct rv *rv, uint64_t *kpa,
			    struct vs_error *err)
{
	const struct vs_segment *load = rv->im->load;

	if (km_member(rv, "va_kernel_pa_offset", kpa, "va_kernel_pa_offset",
		      err) < 0)
		return -1;
	if (load->vaddr - load->paddr != *kpa)
		return vs_err(err, "riscv64: cannot give va_kernel_pa_offset: "
			      "the kernel-image segment maps 0x%llx to physical "
			      "0x%llx but the kernel's "
			      "kernel_map.va_kernel_pa_offset is 0x%llx",
			      (unsigned long long)load->vaddr,
			      (unsigned long long)load->paddr,
			      (unsigned long long)*kpa);
	return 0;
}

static int image_keys(const struct rv *rv, FILE *f, struct vs_error *err)
{
	uint64_t start, end, kpa;

	if (image_sym(rv, "_start", &start, "KERNEL_LINK_ADDR", err) < 0 ||
	    image_sym(rv, "_end", &end, "MODULES_VADDR", err) < 0 ||
	    link_address(rv, start, err) < 0 ||
	    kernel_pa_offset(rv, &kpa, err) < 0)
		return -1;
	fprintf(f, "NUMBER(MODULES_VADDR)=0x%llx\nNUMBER(MODULES_END)=0x%llx\n"
		"NUMBER(KERNEL_LINK_ADDR)=0x%llx\n"
		"NUMBER(va_kernel_pa_offset)=0x%llx\n",
		(unsigned long long)(pfn_align(end) - SZ_2G),
		(unsigned long long)pfn_align(start),
		(unsigned long long)(start - rv->im->kaslr),
		(unsigned long long)kpa);
	return 0;
}

int vs_debuginfo_riscv64(const struct vs_di_image *im, FILE *f,
			 struct vs_error *err)
{
	struct vs_error scratch = { 0 };
	struct rv rv = { .im = im };

	if (im->ti->ops->type_by_name(im->ti->ctx, "struct kernel_mapping",
				      &rv.km, &scratch) < 0)
		return refuse(err, "PAGE_OFFSET", "no struct kernel_mapping "
			      "in the vmlinux (before 5.13)");
	if (type_size(im->ti, "struct page", &rv.page_size) < 0)
		return refuse(err, "VMEMMAP_START", "no struct page in the "
			      "vmlinux");
	if (va_bits(&rv, err) < 0 || linear_map(&rv, err) < 0)
		return -1;
	fprintf(f, "NUMBER(phys_ram_base)=%lld\n", (long long)rv.phys_ram_base);
	if (regions(&rv, f, err) < 0 || image_keys(&rv, f, err) < 0)
		return -1;
	return 0;
}
