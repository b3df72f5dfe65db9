/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * module_test.c - the module list walk and module symbol tables
 * (lib/modules.c) on the hand-made kernel of module_world.h: names with
 * '-' and '_', a module not loaded, symbols found and not, and corrupt
 * lists and tables refused with a message, never a hang; the list
 * erase_modules.c takes for completing a declaration, read whole or not
 * at all.  Run by tests/suites/erase_modules.sh.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "ti_spec.h"
#include "module_world.h"
#include "../../lib/erase_modules.h"
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

/* A declaration no source defines, completed through erase_modules.c:
 * the vmlinux, then every module of the list (none has types here). */
static int complete_nosuch(struct vs_erase_mods *em, struct vs_error *err)
{
	struct vs_erase_modules ops;
	const struct vs_typeinfo *got;
	uint64_t id;

	vs_erase_mods_ops(em, &ops);
	vs_err_clear(err);
	return ops.complete(ops.ctx, NULL, VS_TI_STRUCT, "nosuch", &got, &id,
			    err);
}

/* A list that breaks part way fails each time with the same message
 * naming where, and leaves no names behind for the next walk. */
static void expect_list_error(struct vs_erase_mods *em, const char *msg)
{
	struct vs_error first, again;

	CHECK(complete_nosuch(em, &first) < 0);
	if (!strstr(first.msg, msg))
		printf("'%s' lacks '%s'\n", first.msg, msg);
	CHECK(strstr(first.msg, msg) != NULL);
	CHECK(strstr(first.msg, "listing the dump's modules") != NULL);
	CHECK(complete_nosuch(em, &again) < 0);
	CHECK(strcmp(first.msg, again.msg) == 0);
	CHECK(vs_erase_mods_loaded(em, 0) == NULL);
}

static void test_listed(void)
{
	struct vs_erase_mods *em;
	struct vs_error err;

	vs_err_clear(&err);
	CHECK(vs_erase_mods_new(&em, &ti, &ti, &emem, NULL, &err) == 0);
	if (!em)
		return;
	/* dm_mod listed, then its next pointer leads nowhere */
	mw_put64(&mem, MW_MOD + MW_LIST, 0xdead000000000000ULL);
	expect_list_error(em, "the name of the module at 0xdeacfffffffffff8: "
			  "cannot read 0xdead000000000010");
	/* dm_crypt back to dm_mod: both listed 32768 times, then refused */
	mw_build(&mem);
	mw_put64(&mem, MW_CRYPT + MW_LIST, VBASE + MW_MOD + MW_LIST);
	expect_list_error(em, "does not end after 65536 modules");
	/* whole again: each module once, in the list's order, every time */
	mw_build(&mem);
	for (int i = 0; i < 2; i++) {
		CHECK(complete_nosuch(em, &err) == 1);
		CHECK(vs_erase_mods_loaded(em, 0) &&
		      strcmp(vs_erase_mods_loaded(em, 0), "dm_mod") == 0);
		CHECK(vs_erase_mods_loaded(em, 1) &&
		      strcmp(vs_erase_mods_loaded(em, 1), "dm_crypt") == 0);
		CHECK(vs_erase_mods_loaded(em, 2) == NULL);
	}
	vs_erase_mods_free(em);
}

int main(void)
{
	if (tis_parse(&spec, module_world_spec) < 0)
		return 1;
	mw_build(&mem);
	test_found();
	test_corrupt();
	test_listed();
	return check_exit("module_test");
}
