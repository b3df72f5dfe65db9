/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_modules.c - the module list walk and module symbol tables
 * (lib/modules.c) on hostile kernel memory: the hand-made kernel of
 * tests/unit/module_world.h, its first bytes replaced by the input (up
 * to 16 KiB: the list head, both struct modules, the symbol table and
 * its names).  Every module name the world has, and one it has not, is
 * looked up, then symbols in what was found.
 */
#include <string.h>

#include "fuzz_common.h"
#include "../../lib/modules.h"
#include "../unit/module_world.h"
#include "../unit/ti_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "dm_mod", "dm-crypt", "ext4" };
	static struct tis spec;
	static struct fake_mem m;
	struct vs_typeinfo ti = { &tis_ops, &spec };
	struct vs_erase_mem mem = { .ctx = &m, .read = fm_read,
				    .vtop = fm_vtop, .ptr_size = 8,
				    .page_size = PS };
	struct vs_error err;

	if (!spec.ntypes && tis_parse(&spec, module_world_spec) < 0)
		return 0;
	mw_build(&m);
	memcpy(m.b, data, size < sizeof(m.b) ? size : sizeof(m.b));
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct vs_module *mod = NULL;
		uint64_t a;

		if (vs_module_find(&mod, &ti, &mem, names[i], &err) < 0 || !mod)
			continue;
		vs_module_symbol(mod, "key_size", &a, &err);
		vs_module_symbol(mod, "crypt_target", &a, &err);
		vs_module_btf(mod, &ti, &a, &a, &err);
		vs_module_free(mod);
	}
	return 0;
}
