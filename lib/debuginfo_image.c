/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * debuginfo_image.c - -x without VMCOREINFO: the dead kernel's image read
 * at its virtual addresses through the ELF segment that maps it, for
 * debuginfo.c (the utsname, mem_section) and the architecture parts
 * (debuginfo_arm64.c: kimage_voffset, memstart_addr).
 */
#include "debuginfo.h"

int vs_di_image_read(const struct vs_di_image *im, uint64_t addr, void *buf,
		     size_t len, struct vs_error *err)
{
	const struct vs_segment *load = im->load;
	uint64_t va = addr + im->kaslr;
	struct vs_reader r;
	int ret;

	if (va < load->vaddr || va - load->vaddr + len > load->memsz)
		return vs_err(err, "kernel address 0x%llx is outside the "
			      "kernel-image segment",
			      (unsigned long long)va);
	if (vs_reader_init(&r, im->in, err) < 0)
		return -1;
	ret = vs_read_phys(&r, load->paddr + (va - load->vaddr), buf, len, err);
	vs_reader_fini(&r);
	return ret;
}
