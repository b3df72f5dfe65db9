/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * module_test.c - the module list walk and module symbol tables
 * (lib/modules.c) on the hand-made kernel of module_world.h: names with
 * '-' and '_', a module not loaded, symbols found and not, and corrupt
 * lists and tables refused with a message, never a hang.  Run by
 * tests/suites/erase_modules.sh.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "ti_spec.h"
#include "module_world.h"
#include "../../lib/modules.h"

static struct tis spec;
static struct fake_mem mem;
static struct vs_typeinfo ti = { &tis_ops, &spec };
static const struct vs_erase_mem emem = { .ctx = &mem, .read = fm_read,
					  .vtop = fm_vtop, .ptr_size = 8,
					  .page_size = PS };

/* Find NAME: 1 found, 0 not loaded, -1 failed (the message in ERR). */
static int find(const char *name, struct vs_module **m, struct vs_error *err)
{
	vs_err_clear(err);
	if (vs_module_find(m, &ti, &emem, name, err) < 0)
		return -1;
	return *m != NULL;
}

static void test_found(void)
{
	struct vs_module *m;
	struct vs_error err;
	uint64_t a = 0;

	CHECK(find("dm-crypt", &m, &err) == 1);
	CHECK(m && strcmp(m->name, "dm_crypt") == 0);
	CHECK(m && vs_module_symbol(m, "key_size", &a, &err) == 0);
	CHECK_U64(a, VBASE + 0x2100);
	CHECK(m && vs_module_symbol(m, "crypt_target", &a, &err) == 0);
	CHECK_U64(a, VBASE + 0x2000);
	CHECK(m && vs_module_symbol(m, "crypt", &a, &err) < 0);
	CHECK(strstr(err.msg, "no symbol 'crypt' in module 'dm_crypt'") != NULL);
	vs_module_free(m);
	CHECK(find("dm_mod", &m, &err) == 1);
	CHECK(m && m->nsyms == 0 && vs_module_symbol(m, "x", &a, &err) < 0);
	vs_module_free(m);
	CHECK(find("dm_mo", &m, &err) == 0);
	CHECK(find("ext4", &m, &err) == 0);
}

static void expect_error(const char *what, const char *msg)
{
	struct vs_module *m = NULL;
	struct vs_error err;

	CHECK(find("ext4", &m, &err) < 0);
	if (!strstr(err.msg, msg))
		printf("%s: '%s' lacks '%s'\n", what, err.msg, msg);
	CHECK(strstr(err.msg, msg) != NULL);
	CHECK(m == NULL);
}

static void test_corrupt(void)
{
	struct vs_module *m;
	struct vs_error err;
	uint64_t a;
	uint32_t big = 1u << 21;

	mw_build(&mem);
	mw_put64(&mem, MW_CRYPT + MW_LIST, 0);
	expect_error("NULL next", "breaks after 2 modules: a NULL next pointer");
	mw_build(&mem);
	/* dm_crypt points back to dm_mod: never back at the head */
	mw_put64(&mem, MW_CRYPT + MW_LIST, VBASE + MW_MOD + MW_LIST);
	expect_error("cycle", "does not end after 65536 modules");
	mw_build(&mem);
	mw_put64(&mem, MW_MOD + MW_LIST, 0xdead000000000000ULL);
	expect_error("wild next", "cannot read 0xdead");
	mw_build(&mem);
	memcpy(mem.b + MW_CRYPT + MW_KSYMS + 8, &big, 4);
	CHECK(find("dm_crypt", &m, &err) < 0);
	CHECK(strstr(err.msg, "2097152 symbols, more than 1048576") != NULL);
	mw_build(&mem);
	/* a symbol table past the memory: an error naming the symbol */
	mw_put64(&mem, MW_CRYPT + MW_KSYMS, VBASE + 0x3ff0);
	CHECK(find("dm_crypt", &m, &err) == 1);
	CHECK(m && vs_module_symbol(m, "key_size", &a, &err) < 0);
	CHECK(strstr(err.msg, "module 'dm_crypt': symbol 1 at 0xffff888000104008") != NULL);
	vs_module_free(m);
	mw_build(&mem);
}

int main(void)
{
	if (tis_parse(&spec, module_world_spec) < 0)
		return 1;
	mw_build(&mem);
	test_found();
	test_corrupt();
	return check_exit("module_test");
}
