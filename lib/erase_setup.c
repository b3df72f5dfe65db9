/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * erase_setup.c - the erase of one dump, set up from the input: the
 * config file parsed (erase_config.c), its rules resolved (erase.c)
 * through the input's own translation (arch.h) and reader.
 */
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "erase_modules.h"
#include "erase_setup.h"
#include "vmcoreinfo.h"

/* A DWARF source gives the vmlinux's link addresses: the kernel image's
 * symbols move by the dump's KASLR offset (VMCOREINFO KERNELOFFSET), as
 * makedumpfile moves them; per-CPU offsets below the image do not.  The
 * BTF source reads the dump's kallsyms: already where they are. */
struct es_reloc {
	const struct vs_typeinfo *inner;
	uint64_t offset, image;
};

static int rl_symbol(void *ctx, const char *name, uint64_t *addr,
		     struct vs_error *err)
{
	const struct es_reloc *r = ctx;

	if (r->inner->ops->symbol(r->inner->ctx, name, addr, err) < 0)
		return -1;
	if (*addr >= r->image)
		*addr += r->offset;
	return 0;
}

static int rl_symbol_type(void *ctx, const char *name, uint64_t *type,
			  struct vs_error *err)
{
	const struct es_reloc *r = ctx;

	return r->inner->ops->symbol_type(r->inner->ctx, name, type, err);
}

static int rl_type_by_name(void *ctx, const char *name, uint64_t *type,
			   struct vs_error *err)
{
	const struct es_reloc *r = ctx;

	return r->inner->ops->type_by_name(r->inner->ctx, name, type, err);
}

static int rl_type(void *ctx, uint64_t type, struct vs_ti_type *out,
		   struct vs_error *err)
{
	const struct es_reloc *r = ctx;

	return r->inner->ops->type(r->inner->ctx, type, out, err);
}

static int rl_member(void *ctx, uint64_t type, const char *member,
		     uint64_t *offset, uint64_t *mtype, struct vs_error *err)
{
	const struct es_reloc *r = ctx;

	return r->inner->ops->member(r->inner->ctx, type, member, offset,
				     mtype, err);
}

static int rl_member_next(void *ctx, uint64_t type, uint64_t *pos,
			  struct vs_ti_member *out, struct vs_error *err)
{
	const struct es_reloc *r = ctx;

	return r->inner->ops->member_next(r->inner->ctx, type, pos, out, err);
}

static int rl_enumerator(void *ctx, const char *name, int64_t *value,
			 struct vs_error *err)
{
	const struct es_reloc *r = ctx;

	return r->inner->ops->enumerator(r->inner->ctx, name, value, err);
}

static void rl_free(void *ctx)
{
	(void)ctx;
}

static const struct vs_typeinfo_ops reloc_ops = {
	.name = "DWARF (relocated)",
	.symbol = rl_symbol,
	.symbol_type = rl_symbol_type,
	.type_by_name = rl_type_by_name,
	.type = rl_type,
	.member = rl_member,
	.member_next = rl_member_next,
	.enumerator = rl_enumerator,
	.free = rl_free,
};

static void relocate(struct vs_typeinfo *out, struct es_reloc *r,
		     const struct vs_input *in, const struct vs_typeinfo *ti)
{
	struct vs_error ignored;

	*out = *ti;
	if (strcmp(ti->ops->name, "DWARF") != 0 || !in->vi ||
	    !vs_vi_hex(in->vi, "KERNELOFFSET", &r->offset) || !r->offset)
		return;
	r->inner = ti;
	if (ti->ops->symbol(ti->ctx, "_stext", &r->image, &ignored) < 0)
		r->image = 0;
	out->ops = &reloc_ops;
	out->ctx = r;
}

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

/* The dump's release, for the module debug files' directories; NULL
 * when it is unknown or could climb out of them. */
static const char *release_of(const struct vs_input *in)
{
	const char *r = in->vi ? vs_vi_raw(in->vi, "OSRELEASE") : NULL;

	if (!r || !*r || strchr(r, '/') || strcmp(r, "..") == 0)
		return NULL;
	return r;
}

/* The rules with their [module] sections' sources (erase_modules.h). */
static int build(struct vs_erase **out, const struct vs_input *in,
		 const struct vs_erase_config *c, const struct vs_typeinfo *kti,
		 const struct vs_typeinfo *base, const struct vs_erase_mem *mem,
		 const struct vs_erase_opts *opts, struct vs_error *err)
{
	struct vs_erase_opts o = *opts;
	struct vs_erase_modules ops;
	struct vs_erase_mods *mods;
	int ret;

	if (vs_erase_mods_new(&mods, kti, base, mem, release_of(in), err) < 0)
		return -1;
	vs_erase_mods_ops(mods, &ops);
	o.modules = &ops;
	ret = vs_erase_build(out, c, kti, mem, &o, err);
	vs_erase_mods_free(mods);
	return ret;
}

static int resolve(struct vs_erase **out, const struct vs_input *in,
		   const struct vs_typeinfo *ti,
		   const struct vs_erase_config *c,
		   const struct vs_erase_opts *opts, struct vs_error *err)
{
	struct es_mem m = { 0 };
	struct vs_erase_mem mem = { .ctx = &m, .read = es_read,
				    .vtop = es_vtop };
	struct es_reloc rl = { 0 };
	struct vs_typeinfo moved;
	int ret = -1;

	if (vs_arch_new(&m.arch, in, err) < 0)
		return vs_err_ctx(err, "cannot translate the kernel's "
				  "addresses for --config");
	if (vs_reader_init(&m.reader, in, err) < 0)
		goto out_arch;
	mem.ptr_size = vs_arch_machine(m.arch)->ptr_size;
	mem.big_endian = vs_arch_machine(m.arch)->big_endian;
	mem.page_size = in->page_size;
	relocate(&moved, &rl, in, ti);
	ret = build(out, in, c, &moved, ti, &mem, opts, err);
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
