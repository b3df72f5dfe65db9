/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * debuginfo_arm64.c - -x without VMCOREINFO on arm64: the keys the
 * kernel's arch_crash_save_vmcoreinfo() and its SPARSEMEM lines would
 * have given, from the dump's program headers and memory and the
 * vmlinux's DWARF (doc/debuginfo.md, "arm64"):
 *
 *   kimage_voffset     the kernel-image segment's p_vaddr - p_paddr
 *                      (kexec-tools writes _text's physical address),
 *                      which debuginfo.c has already read the utsname
 *                      through; checked against the kernel's own variable
 *                      kimage_voffset read through it (4.6+; before,
 *                      the image is in the linear map: no key)
 *   PHYS_OFFSET        the kernel's variable memstart_addr
 *   TCR_EL1_T1SZ       64 - vabits_actual: the one linear region
 *                      [-2^v, -2^(v-1)), v = 52, 48, 47, 42, 39 or 36,
 *                      that holds the segments other than the image's,
 *                      all below it (5.4+; before, the linear map is the
 *                      upper half and its size is not told: refused)
 *   VA_BITS            52 when memstart_addr lies above 2^52 (a 52-bit
 *                      kernel on a CPU with fewer bits moves it, 5.11+),
 *                      else vabits_actual
 *   SECTION_SIZE_BITS  21 + log2(64 x the length of struct
 *                      mem_section_usage's subsection_map) from two longs
 *                      up; one long means 27 or fewer, and arm64 kernels
 *                      with subsection maps (5.3+) use 27, 29 or 30: 27;
 *                      without them (before 5.3) the arm64 default, 30
 * A value the dump and the DWARF do not determine is refused, naming it.
 */
#include <string.h>

#include "debuginfo.h"

#define SUBSECTION_SHIFT 21

static int var_u64(const struct vs_di_image *im, const char *name,
		   uint64_t *v, struct vs_error *err)
{
	int found = vs_di_image_var(im, name, 0, 8, v, err);

	if (found < 0)
		return vs_err_ctx(err, "arm64");
	return found;
}

static int kimage_voffset(const struct vs_di_image *im, FILE *f,
			  struct vs_error *err)
{
	uint64_t seg = im->load->vaddr - im->load->paddr, var;
	int found = var_u64(im, "kimage_voffset", &var, err);

	if (found <= 0)
		return found;
	if (var != seg)
		return vs_err(err, "arm64: the kernel-image segment maps "
			      "0x%llx to physical 0x%llx (kimage_voffset "
			      "0x%llx) but the kernel's kimage_voffset is "
			      "0x%llx", (unsigned long long)im->load->vaddr,
			      (unsigned long long)im->load->paddr,
			      (unsigned long long)seg,
			      (unsigned long long)var);
	fprintf(f, "NUMBER(kimage_voffset)=0x%llx\n", (unsigned long long)var);
	return 0;
}

/* vabits_actual: the linear region a segment other than the image's
 * lies in; 0 when none does, when segments disagree, or when one lies
 * above the image (the layout before 5.4, whose linear map is the whole
 * upper half: the regions of each size nest). */
static unsigned linear_bits(const struct vs_di_image *im)
{
	static const unsigned cand[] = { 52, 48, 47, 42, 39, 36 };
	unsigned found = 0;

	for (size_t i = 0; i < im->in->nr_loads; i++) {
		const struct vs_segment *s = &im->in->loads[i];

		if (s == im->load || s->vaddr == s->paddr)
			continue;
		if (s->vaddr > im->load->vaddr)
			return 0;
		for (size_t j = 0; j < sizeof(cand) / sizeof(cand[0]); j++) {
			uint64_t lo = -(1ull << cand[j]);
			uint64_t hi = -(1ull << (cand[j] - 1));

			if (s->vaddr < lo || s->vaddr >= hi)
				continue;
			if (found && found != cand[j])
				return 0;
			found = cand[j];
		}
	}
	return found;
}

static int address_bits(const struct vs_di_image *im, FILE *f,
			struct vs_error *err)
{
	uint64_t memstart;
	unsigned vabits = linear_bits(im);
	int found = var_u64(im, "memstart_addr", &memstart, err);

	if (found < 0)
		return -1;
	if (!found)
		return vs_err(err, "arm64: no variable 'memstart_addr' in the "
			      "vmlinux to give PHYS_OFFSET");
	if (!vabits)
		return vs_err(err, "arm64: no segment of the dump lies in one "
			      "linear map (36 to 52 bits) below the kernel image "
			      "(the 5.4+ layout) to give the virtual address "
			      "size (TCR_EL1_T1SZ)");
	fprintf(f, "NUMBER(VA_BITS)=%u\nNUMBER(PHYS_OFFSET)=0x%llx\n"
		"NUMBER(TCR_EL1_T1SZ)=0x%x\n", memstart >> 52 ? 52 : vabits,
		(unsigned long long)memstart, 64 - vabits);
	return 0;
}

static int section_bits(const struct vs_di_image *im, FILE *f,
			struct vs_error *err)
{
	const struct vs_typeinfo *ti = im->ti;
	struct vs_error scratch = { 0 };
	struct vs_ti_type t;
	uint64_t type, off, longs;
	unsigned bits = SUBSECTION_SHIFT + 6;

	if (ti->ops->type_by_name(ti->ctx, "struct mem_section_usage", &type,
				  &scratch) < 0 ||
	    ti->ops->member(ti->ctx, type, "subsection_map", &off, &type,
			    &scratch) < 0)
		return 0;
	if (ti->ops->type(ti->ctx, type, &t, err) < 0)
		return -1;
	longs = t.nelem;
	if (t.kind != VS_TI_ARRAY || !longs || (longs & (longs - 1)))
		return vs_err(err, "arm64: mem_section_usage.subsection_map "
			      "is no array of a power of two longs: "
			      "SECTION_SIZE_BITS unknown");
	while (longs > 1) {
		longs >>= 1;
		bits++;
	}
	fprintf(f, "NUMBER(SECTION_SIZE_BITS)=%u\n", bits);
	return 0;
}

int vs_debuginfo_arm64(const struct vs_di_image *im, FILE *f,
		       struct vs_error *err)
{
	if (kimage_voffset(im, f, err) < 0 || address_bits(im, f, err) < 0 ||
	    section_bits(im, f, err) < 0)
		return -1;
	return 0;
}
