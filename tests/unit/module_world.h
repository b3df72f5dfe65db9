/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * module_world.h - a hand-made kernel with two loaded modules, for the
 * module list walk's tests (module_test.c) and fuzz target
 * (tests/fuzz/fuzz_modules.c): a ti_spec.h spec of struct module and its
 * core_kallsyms, and 16 KiB of memory at VBASE (erase_world.h's
 * fake_mem) that mw_build() fills:
 *
 *   0x0000  struct list_head modules -> dm_mod -> dm_crypt -> back
 *   0x0100  struct module dm_mod      (no symbols)
 *   0x0300  struct module dm_crypt    (3 symbols: the null one,
 *           crypt_target at 0x2000, key_size at 0x2100)
 *   0x1000  dm_crypt's Elf64_Sym table, 0x1100 its strtab
 */
#ifndef VMSIFT_TEST_MODULE_WORLD_H
#define VMSIFT_TEST_MODULE_WORLD_H

#include "erase_world.h"

#define MW_HEAD  0x0000u
#define MW_MOD   0x0100u
#define MW_CRYPT 0x0300u
#define MW_SYMS  0x1000u
#define MW_STRS  0x1100u
#define MW_LIST  0x08u   /* struct module's members */
#define MW_NAME  0x18u
#define MW_KSYMS 0x60u

static const char module_world_spec[] =
	"type 1 int 1 0 0 char\n"
	"type 2 int 4 0 0 int\n"
	"type 3 struct 16 0 0 list_head\n"
	"type 4 ptr 8 0 3 -\n"
	"type 5 struct 0x100 0 0 module\n"
	"type 6 array 56 56 1 -\n"
	"type 7 struct 0x20 0 0 mod_kallsyms\n"
	"type 8 ptr 8 0 0 -\n"
	"type 9 ptr 8 0 1 -\n"
	"member 3 next 0 4\n"
	"member 3 prev 8 4\n"
	"member 5 list 0x8 3\n"
	"member 5 name 0x18 6\n"
	"member 5 core_kallsyms 0x60 7\n"
	"member 7 symtab 0 8\n"
	"member 7 num_symtab 8 2\n"
	"member 7 strtab 0x10 9\n"
	"sym modules 0xffff888000100000 3\n";

static void mw_put64(struct fake_mem *m, uint32_t off, uint64_t v)
{
	memcpy(m->b + off, &v, 8);   /* the tests run little-endian */
}

static void mw_sym(struct fake_mem *m, unsigned i, uint32_t name,
		   uint64_t value)
{
	memcpy(m->b + MW_SYMS + i * 24, &name, 4);
	mw_put64(m, MW_SYMS + i * 24 + 8, value);
}

static void mw_build(struct fake_mem *m)
{
	static const char strs[] = "\0crypt_target\0key_size";
	uint32_t n = 3;

	memset(m->b, 0, sizeof(m->b));
	mw_put64(m, MW_HEAD, VBASE + MW_MOD + MW_LIST);
	mw_put64(m, MW_MOD + MW_LIST, VBASE + MW_CRYPT + MW_LIST);
	mw_put64(m, MW_CRYPT + MW_LIST, VBASE + MW_HEAD);
	memcpy(m->b + MW_MOD + MW_NAME, "dm_mod", 7);
	memcpy(m->b + MW_CRYPT + MW_NAME, "dm_crypt", 9);
	mw_put64(m, MW_CRYPT + MW_KSYMS, VBASE + MW_SYMS);
	memcpy(m->b + MW_CRYPT + MW_KSYMS + 8, &n, 4);
	mw_put64(m, MW_CRYPT + MW_KSYMS + 0x10, VBASE + MW_STRS);
	memcpy(m->b + MW_STRS, strs, sizeof(strs));
	mw_sym(m, 1, 1, VBASE + 0x2000);
	mw_sym(m, 2, 14, VBASE + 0x2100);
}

#endif
