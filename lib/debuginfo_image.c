/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * debuginfo_image.c - -x without VMCOREINFO: the dead kernel's image read
 * at its virtual addresses, for debuginfo.c (the utsname, mem_section)
 * and the architecture parts (debuginfo_arm64.c, debuginfo_riscv64.c:
 * their variables).  An address of the image is read at the physical
 * address the kernel-image segment's offset (p_vaddr - p_paddr) gives,
 * through whichever segment holds it: a riscv64 kdump's image segment
 * ends inside a page whose rest, and the image's first pages, other
 * segments (kexec-tools' linear-map ones) hold.
 */
#include "debuginfo.h"

#include "machine.h"

int vs_di_phys_read(const struct vs_di_image *im, uint64_t paddr, void *buf,
		    size_t len, struct vs_error *err)
{
	struct vs_reader r;
	int ret;

	if (vs_reader_init(&r, im->in, err) < 0)
		return -1;
	ret = vs_read_phys(&r, paddr, buf, len, err);
	vs_reader_fini(&r);
	return ret;
}

int vs_di_image_read(const struct vs_di_image *im, uint64_t addr, void *buf,
		     size_t len, struct vs_error *err)
{
	const struct vs_segment *load = im->load;
	uint64_t va = addr + im->kaslr;

	if (va < load->vaddr - load->paddr)
		return vs_err(err, "kernel address 0x%llx lies below the "
			      "physical memory the kernel-image segment maps",
			      (unsigned long long)va);
	if (vs_di_phys_read(im, va - (load->vaddr - load->paddr), buf, len,
			    err) < 0)
		return vs_err_ctx(err, "cannot read kernel address 0x%llx "
				  "through the kernel-image segment's offset",
				  (unsigned long long)va);
	return 0;
}

int vs_di_image_var(const struct vs_di_image *im, const char *name,
		    uint64_t off, size_t size, uint64_t *v,
		    struct vs_error *err)
{
	struct vs_error scratch = { 0 };
	struct vs_machine m = { .big_endian = im->in->order.big_endian,
				.swap = im->in->order.swap, .ptr_size = 8 };
	uint64_t addr;
	uint8_t b[8];

	if (im->ti->ops->symbol(im->ti->ctx, name, &addr, &scratch) < 0)
		return 0;
	if (size != 1 && size != 4 && size != 8)
		return vs_err(err, "'%s': cannot read %zu bytes as a number",
			      name, size);
	if (vs_di_image_read(im, addr + off, b, size, err) < 0)
		return vs_err_ctx(err, "cannot read '%s'", name);
	*v = size == 8 ? vs_load64(&m, b) : size == 4 ? vs_load32(&m, b) : b[0];
	return 1;
}
