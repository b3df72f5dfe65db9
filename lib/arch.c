/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arch.c - the registry of architectures, the dumped machine's
 * properties and the translation helpers (arch.h).  Used by the filter,
 * the memory model, dmesg.c and the kdump writer; calls down into each
 * architecture's ops and the input's reader.
 */
#include <elf.h>
#include <stdlib.h>

#include "arch.h"

struct vs_arch {
	const struct vs_arch_ops *ops;
	void *ctx;
	struct vs_machine m;
};

static const struct vs_arch_ops *const arch_table[] = {
	&vs_arch_x86_64,
	&vs_arch_arm64,
	&vs_arch_ppc64,
	&vs_arch_riscv64,
	&vs_arch_s390x,
};

static const struct vs_arch_ops *find_ops(uint16_t machine)
{
	for (size_t i = 0; i < sizeof(arch_table) / sizeof(arch_table[0]); i++)
		if (arch_table[i]->elf_machine == machine)
			return arch_table[i];
	return NULL;
}

int vs_arch_ctx_new(void **out, size_t size, vs_arch_setup_fn setup,
		    void (*fini)(void *ctx), const struct vs_input *in,
		    struct vs_reader *r, struct vs_error *err)
{
	void *c;

	if (!in->vi)
		return vs_err(err, "the dump has no VMCOREINFO");
	c = calloc(1, size);
	if (!c)
		return vs_err_oom(err, "out of memory");
	if (setup(c, in, r, err) < 0) {
		fini(c);
		return -1;
	}
	*out = c;
	return 0;
}

/* A name for ELF machine EM in messages: an architecture vmsift may
 * read without translating (-d 0, -d 1) but not filter. */
static const char *machine_name(uint16_t em)
{
	switch (em) {
	case EM_386: return "i386";
	case EM_ARM: return "arm";
	case EM_MIPS: return "mips";
	case EM_LOONGARCH: return "loongarch64";
	default: return "unknown";
	}
}

int vs_arch_new(struct vs_arch **out, const struct vs_input *in,
		struct vs_error *err)
{
	const struct vs_arch_ops *ops = find_ops(in->elf_machine);
	struct vs_reader r;
	struct vs_arch *a;
	int rc;

	*out = NULL;
	if (!ops)
		return vs_err_st(err, VMSIFT_E_UNSUPPORTED, "address translation "
				 "for ELF machine %u (%s) is not supported",
				 (unsigned)in->elf_machine,
				 machine_name(in->elf_machine));
	/* The architecture's code reads the kernel's memory in its own
	 * order: a dump in the other (a big-endian arm64) is not its. */
	if (ops->big_endian != in->order.big_endian)
		return vs_err_st(err, VMSIFT_E_UNSUPPORTED, "the %s code reads "
				 "%s-endian dumps; this one is %s-endian",
				 ops->name, ops->big_endian ? "big" : "little",
				 in->order.big_endian ? "big" : "little");
	a = calloc(1, sizeof(*a));
	if (!a)
		return vs_err_oom(err, "out of memory");
	a->ops = ops;
	vs_machine_set(&a->m, in->page_size, ops->big_endian, ops->ptr_size);
	if (vs_reader_init(&r, in, err) < 0) {
		free(a);
		return -1;
	}
	rc = ops->init(&a->ctx, in, &r, err);
	vs_reader_fini(&r);
	if (rc < 0) {
		free(a);
		return vs_err_ctx(err, "%s", ops->name);
	}
	*out = a;
	return 0;
}

void vs_arch_free(struct vs_arch *a)
{
	if (!a)
		return;
	a->ops->fini(a->ctx);
	free(a);
}

const struct vs_arch_ops *vs_arch_ops_of(const struct vs_arch *a)
{
	return a->ops;
}

const struct vs_machine *vs_arch_machine(const struct vs_arch *a)
{
	return &a->m;
}

int vs_arch_linear_base(const struct vs_arch *a, uint64_t *vaddr)
{
	return a && a->ops->linear_base && a->ops->linear_base(a->ctx, vaddr);
}

int vs_arch_kernel_image(const struct vs_arch *a, uint64_t *vaddr,
			 uint64_t *paddr, uint64_t *max_len)
{
	return a && a->ops->kernel_image &&
	       a->ops->kernel_image(a->ctx, vaddr, paddr, max_len);
}

int vs_vtop(const struct vs_arch *a, struct vs_reader *r, uint64_t vaddr,
	    uint64_t *paddr, uint64_t *span, struct vs_error *err)
{
	uint64_t dummy;

	return a->ops->vtop(a->ctx, r, vaddr, paddr, span ? span : &dummy, err);
}

int vs_read_kvirt(const struct vs_arch *a, struct vs_reader *r, uint64_t vaddr,
		  void *buf, size_t len, struct vs_error *err)
{
	uint8_t *p = buf;

	while (len) {
		uint64_t pa, span;
		size_t n;

		if (a->ops->vtop(a->ctx, r, vaddr, &pa, &span, err) < 0)
			return -1;
		n = span < len ? (size_t)span : len;
		if (n == 0)
			return vs_err(err, "empty mapping at 0x%llx",
				      (unsigned long long)vaddr);
		if (vs_read_phys(r, pa, p, n, err) < 0)
			return vs_err_ctx(err, "virtual address 0x%llx",
					  (unsigned long long)vaddr);
		p += n;
		vaddr += n;
		len -= n;
	}
	return 0;
}

int vs_read_kvirt_u32(const struct vs_arch *a, struct vs_reader *r,
		      uint64_t vaddr, uint32_t *v, struct vs_error *err)
{
	uint8_t b[4];

	if (vs_read_kvirt(a, r, vaddr, b, sizeof(b), err) < 0)
		return -1;
	*v = vs_load32(&a->m, b);
	return 0;
}

int vs_read_kvirt_u64(const struct vs_arch *a, struct vs_reader *r,
		      uint64_t vaddr, uint64_t *v, struct vs_error *err)
{
	uint8_t b[8];

	if (vs_read_kvirt(a, r, vaddr, b, sizeof(b), err) < 0)
		return -1;
	*v = vs_load64(&a->m, b);
	return 0;
}

int vs_read_kvirt_ptr(const struct vs_arch *a, struct vs_reader *r,
		      uint64_t vaddr, uint64_t *v, struct vs_error *err)
{
	uint8_t b[8];

	if (vs_read_kvirt(a, r, vaddr, b, a->m.ptr_size, err) < 0)
		return -1;
	*v = vs_loadptr(&a->m, b);
	return 0;
}
