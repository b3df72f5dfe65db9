/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * erase_setup.c - the erase of one dump, set up from the input: the
 * config file parsed (erase_config.c), its rules resolved (erase.c)
 * through the input's own translation (arch.h) and reader.
 */
#include <stdlib.h>

#include "arch.h"
#include "erase_setup.h"

struct es_mem {
	struct vs_arch *arch;
	struct vs_reader reader;
};

static int es_read(void *ctx, uint64_t vaddr, void *buf, size_t len,
		   struct vs_error *err)
{
	struct es_mem *m = ctx;

	return vs_read_kvirt(m->arch, &m->reader, vaddr, buf, len, err);
}

static int es_vtop(void *ctx, uint64_t vaddr, uint64_t *paddr, uint64_t *span,
		   struct vs_error *err)
{
	struct es_mem *m = ctx;

	return vs_vtop(m->arch, &m->reader, vaddr, paddr, span, err);
}

static int resolve(struct vs_erase **out, const struct vs_input *in,
		   const struct vs_typeinfo *ti,
		   const struct vs_erase_config *c,
		   const struct vs_erase_opts *opts, struct vs_error *err)
{
	struct es_mem m = { 0 };
	struct vs_erase_mem mem = { .ctx = &m, .read = es_read,
				    .vtop = es_vtop };
	int ret = -1;

	if (vs_arch_new(&m.arch, in, err) < 0)
		return vs_err_ctx(err, "cannot translate the kernel's "
				  "addresses for --config");
	if (vs_reader_init(&m.reader, in, err) < 0)
		goto out_arch;
	mem.ptr_size = vs_arch_machine(m.arch)->ptr_size;
	mem.big_endian = vs_arch_machine(m.arch)->big_endian;
	mem.page_size = in->page_size;
	ret = vs_erase_build(out, c, ti, &mem, opts, err);
	vs_reader_fini(&m.reader);
out_arch:
	vs_arch_free(m.arch);
	return ret;
}

int vs_erase_setup(struct vs_erase **out, const struct vs_input *in,
		   const struct vs_typeinfo *ti, const char *path,
		   const struct vs_erase_opts *opts, struct vs_error *err)
{
	struct vs_erase_config *c;
	int ret;

	*out = NULL;
	if (vs_erase_config_load(path, &c, err) < 0)
		return -1;
	if (!ti || !ti->ops)
		ret = vs_err_st(err, VMSIFT_E_UNSUPPORTED, "the rules need "
				"the kernel's symbols and types: give -x "
				"VMLINUX (or a build that reads the dump's "
				"BTF)");
	else
		ret = resolve(out, in, ti, c, opts, err);
	vs_erase_config_free(c);
	if (ret < 0)
		return vs_err_ctx(err, "cannot apply '%s'", path);
	return 0;
}
