/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_dwarf.c - a debug vmlinux (-x, -g): vs_typeinfo_dwarf_open()'s
 * symbol table and DWARF index (typeinfo_dwarf.c), every op of
 * typeinfo.h, and vs_debuginfo_text() (debuginfo.c), which asks for every
 * key makedumpfile -g writes.  Input: the ELF file, put in a memfd and
 * opened by its /proc/self/fd path.  Seeds: tests/debuginfo/fake-vmlinux.c
 * built with gcc -g (new and old kernel names).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "../../lib/debuginfo.h"
#include "../../lib/typeinfo_dwarf.h"

static void ops(const struct vs_typeinfo *ti)
{
	static const char *const names[] = {
		"page", "struct page", "page*", "struct page **", "pg_data_t",
		"uts_namespace", "mem_section", "PG_lru", "", "*",
	};
	const struct vs_typeinfo_ops *o = ti->ops;
	struct vs_error err;
	struct vs_ti_type t;
	uint64_t v, id, off;
	int64_t sv;
	const char *file;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		o->symbol(ti->ctx, names[i], &v, &err);
		o->enumerator(ti->ctx, names[i], &sv, &err);
		if (o->symbol_type(ti->ctx, names[i], &id, &err) == 0)
			o->type(ti->ctx, id, &t, &err);
		if (o->type_by_name(ti->ctx, names[i], &id, &err) == 0 &&
		    o->type(ti->ctx, id, &t, &err) == 0 && t.target)
			o->type(ti->ctx, t.target, &t, &err);
		if (o->type_by_name(ti->ctx, names[i], &id, &err) == 0)
			o->member(ti->ctx, id, "flags", &off, &id, &err);
		vs_typeinfo_dwarf_srcfile(ti, names[i], &file, &err);
	}
	o->type(ti->ctx, 1, &t, &err);
	o->type(ti->ctx, ~0ull, &t, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vs_typeinfo ti;
	struct vs_error err;
	char path[64], *text = NULL;
	size_t len;
	int fd = memfd_create("fuzz_dwarf", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (vs_typeinfo_dwarf_open(&ti, path, &err) == 0) {
			ops(&ti);
			if (vs_debuginfo_text(&ti, 4096, &text, &len, &err) == 0)
				free(text);
			vs_typeinfo_free(&ti);
		}
	}
	close(fd);
	return 0;
}
