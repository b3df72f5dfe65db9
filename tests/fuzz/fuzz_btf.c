/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_btf.c - the BTF source of typeinfo.h (lib/typeinfo_btf.c) on
 * hostile BTF bytes: loaded with libbpf, then every op on names the
 * seeds use and on every type id (each member listed, the layout
 * digest of typeinfo_complete.h, declarations "struct f;" too); then the
 * same bytes as split BTF (a module's) over them.  Input: the raw BTF.
 */
#include "fuzz_common.h"
#include "../../lib/typeinfo_btf.h"
#include "../../lib/typeinfo_complete.h"

/* Type ID's first members one by one, and its layout digest. */
static void walk_members(const struct vs_typeinfo *ti, uint64_t id)
{
	struct vs_error err = { 0 };
	struct vs_ti_member m;
	uint64_t pos = 0, digest;

	for (unsigned i = 0; i < 8; i++)
		if (ti->ops->member_next(ti->ctx, id, &pos, &m, &err) != 0)
			break;
	vs_ti_layout_digest(ti, id, &digest, &err);
}

static void ask(const struct vs_typeinfo *ti)
{
	static const char *const names[] = {
		"s", "struct s", "union u", "t", "int", "s*", "t**", "e",
		"enum e", "void", "v", "a", "b", "c", "E1", "",
		"struct f", "union f", "f", "struct g", "union w",
	};
	struct vs_error err = { 0 };
	struct vs_ti_type t;
	uint64_t id, off, mt;
	int64_t e;
	size_t i, k;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		ti->ops->symbol(ti->ctx, names[i], &id, &err);
		ti->ops->symbol_type(ti->ctx, names[i], &id, &err);
		ti->ops->enumerator(ti->ctx, names[i], &e, &err);
		if (ti->ops->type_by_name(ti->ctx, names[i], &id, &err) < 0)
			continue;
		ti->ops->type(ti->ctx, id, &t, &err);
		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			ti->ops->member(ti->ctx, id, names[k], &off, &mt, &err);
	}
	for (id = 0; id < 64; id++) {
		if (ti->ops->type(ti->ctx, id, &t, &err) == 0 && t.target)
			ti->ops->type(ti->ctx, t.target, &t, &err);
		ti->ops->member(ti->ctx, id, "a", &off, &mt, &err);
		walk_members(ti, id);
		walk_members(ti, id | 1ull << 63);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vs_typeinfo ti = { 0 };
	struct vs_error err = { 0 };

	struct vs_typeinfo split = { 0 };

	if (vs_typeinfo_btf_new(&ti, data, size, NULL, 8, &err) < 0)
		return 0;
	ask(&ti);
	/* the same bytes as a module's split BTF over them */
	if (vs_typeinfo_btf_new_split(&split, &ti, data, size, &err) == 0) {
		ask(&split);
		vs_typeinfo_free(&split);
	}
	vs_typeinfo_free(&ti);
	return 0;
}
