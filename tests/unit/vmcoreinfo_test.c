/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmcoreinfo_test.c - unit tests of VMCOREINFO parsing (lib/vmcoreinfo.h),
 * run by tests/suites/unit.sh: a good note's keys of every kind, hex and
 * decimal numbers, missing and malformed values (0, never a zero value),
 * overlong lines and names, duplicates, padding NULs, empty text.
 */
#include <stdlib.h>

#include "check.h"
#include "vmcoreinfo.h"

static struct vs_vmcoreinfo *parse(const char *text, size_t len)
{
	struct vs_vmcoreinfo *vi = NULL;
	struct vs_error err;

	vs_err_clear(&err);
	CHECK(vs_vmcoreinfo_parse(&vi, text, len, &err) == 0);
	CHECK(vi != NULL);
	return vi;
}

static const char good[] =
	"OSRELEASE=6.1.0-18-amd64\n"
	"BUILD-ID=0123456789abcdef\n"
	"PAGESIZE=4096\n"
	"SYMBOL(init_uts_ns)=ffffffff82a13b40\n"
	"SYMBOL(mem_section)=0xffff888237fd2000\n"
	"SIZE(page)=64\n"
	"OFFSET(page.flags)=0\n"
	"OFFSET(page._refcount)=52\n"
	"LENGTH(mem_section)=2048\n"
	"NUMBER(PG_lru)=4\n"
	"NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)=-129\n"
	"KERNELOFFSET=1c000000\n"
	"CRASHTIME=1700000000\n";

static void test_good(void)
{
	struct vs_vmcoreinfo *vi = parse(good, sizeof(good) - 1);
	uint64_t u = 1;
	int64_t s = 1;

	CHECK_STR(vs_vi_raw(vi, "OSRELEASE"), "6.1.0-18-amd64");
	CHECK(strcmp(vs_vi_raw(vi, "OSRELEASE"), "6.1.0-18-amd64") == 0);
	CHECK(vs_vi_symbol(vi, "init_uts_ns", &u) == 1);
	CHECK_U64(u, 0xffffffff82a13b40ull);
	CHECK(vs_vi_symbol(vi, "mem_section", &u) == 1);
	CHECK_U64(u, 0xffff888237fd2000ull);
	CHECK(vs_vi_size(vi, "page", &s) == 1 && s == 64);
	CHECK(vs_vi_offset(vi, "page.flags", &s) == 1 && s == 0);
	CHECK(vs_vi_offset(vi, "page._refcount", &s) == 1 && s == 52);
	CHECK(vs_vi_length(vi, "mem_section", &s) == 1 && s == 2048);
	CHECK(vs_vi_number(vi, "PG_lru", &s) == 1 && s == 4);
	CHECK(vs_vi_number(vi, "PAGE_BUDDY_MAPCOUNT_VALUE", &s) == 1 &&
	      s == -129);
	CHECK(vs_vi_decimal(vi, "PAGESIZE", &s) == 1 && s == 4096);
	CHECK(vs_vi_decimal(vi, "CRASHTIME", &s) == 1 && s == 1700000000);
	CHECK(vs_vi_hex(vi, "KERNELOFFSET", &u) == 1);
	CHECK_U64(u, 0x1c000000);
	vs_vmcoreinfo_free(vi);
}

/* Missing keys and malformed values return 0 and leave the value alone. */
static void test_missing(void)
{
	static const char text[] =
		"SIZE(page)=0x40\n"          /* hex where decimal is due */
		"OFFSET(page.lru)=\n"        /* empty */
		"NUMBER(PG_slab)=7 \n"       /* trailing garbage */
		"SYMBOL(swapper_pg_dir)=-1\n"
		"SYMBOL(bad)=ffffzz\n"
		"LENGTH(huge)=99999999999999999999999\n"
		"=no key\n"
		"no equals sign\n"
		"PAGESIZE=4k\n";
	struct vs_vmcoreinfo *vi = parse(text, sizeof(text) - 1);
	uint64_t u = 77;
	int64_t s = 77;

	CHECK(vs_vi_symbol(vi, "init_uts_ns", &u) == 0);
	CHECK(vs_vi_size(vi, "page", &s) == 0);
	CHECK(vs_vi_offset(vi, "page.lru", &s) == 0);
	CHECK(vs_vi_number(vi, "PG_slab", &s) == 0);
	CHECK(vs_vi_symbol(vi, "swapper_pg_dir", &u) == 0);
	CHECK(vs_vi_symbol(vi, "bad", &u) == 0);
	CHECK(vs_vi_length(vi, "huge", &s) == 0);
	CHECK(vs_vi_decimal(vi, "PAGESIZE", &s) == 0);
	CHECK(vs_vi_raw(vi, "") == NULL);
	CHECK(vs_vi_raw(vi, "no equals sign") == NULL);
	CHECK(vs_vi_raw(vi, "OSRELEASE") == NULL);
	CHECK_U64(u, 77);
	CHECK(s == 77);
	/* A NULL session is a missing key, not a crash. */
	CHECK(vs_vi_raw(NULL, "OSRELEASE") == NULL);
	vs_vmcoreinfo_free(vi);
	vs_vmcoreinfo_free(NULL);
}

/* A line far longer than any real one is kept whole and does not eat the
 * next line; a name too long for a key is simply missing. */
static void test_overlong(void)
{
	size_t n = 100000;
	char *text = malloc(n + 200), *name = malloc(5000);
	struct vs_vmcoreinfo *vi;
	const char *v;
	int64_t s = 0;

	if (!CHECK(text && name))
		goto out;
	strcpy(text, "OSRELEASE=");
	memset(text + 10, 'x', n);
	strcpy(text + 10 + n, "\nSIZE(page)=64\n");
	vi = parse(text, strlen(text));
	v = vs_vi_raw(vi, "OSRELEASE");
	CHECK(v && strlen(v) == n);
	CHECK(vs_vi_size(vi, "page", &s) == 1 && s == 64);
	memset(name, 'a', 4999);
	name[4999] = '\0';
	CHECK(vs_vi_size(vi, name, &s) == 0);
	CHECK(vs_vi_symbol(vi, name, &(uint64_t){ 0 }) == 0);
	vs_vmcoreinfo_free(vi);
out:
	free(text);
	free(name);
}

/* Two lines with one key: the first wins.  The note's padding NULs end
 * the text; a final line without '\n' counts; empty text is no keys. */
static void test_edges(void)
{
	static const char dup[] = "SIZE(page)=64\nSIZE(page)=56\nPAGESIZE=4096";
	static const char padded[] = "PAGESIZE=4096\n\0\0\0SIZE(page)=1\n";
	struct vs_vmcoreinfo *vi;
	int64_t s = 0;

	vi = parse(dup, sizeof(dup) - 1);
	CHECK(vs_vi_size(vi, "page", &s) == 1 && s == 64);
	CHECK(vs_vi_decimal(vi, "PAGESIZE", &s) == 1 && s == 4096);
	vs_vmcoreinfo_free(vi);
	vi = parse(padded, sizeof(padded) - 1);
	CHECK(vs_vi_decimal(vi, "PAGESIZE", &s) == 1 && s == 4096);
	CHECK(vs_vi_size(vi, "page", &s) == 0);
	vs_vmcoreinfo_free(vi);
	vi = parse("", 0);
	CHECK(vs_vi_raw(vi, "PAGESIZE") == NULL);
	vs_vmcoreinfo_free(vi);
}

/* NUMBER() as an unsigned value (vs_vi_unsigned): decimal or 0x hex, as
 * the architectures write addresses; signs, empty and junk are missing. */
static void test_unsigned(void)
{
	static const char text[] =
		"NUMBER(VA_BITS)=48\n"
		"NUMBER(PAGE_OFFSET)=0xffffaf8000000000\n"
		"NUMBER(phys_ram_base)=0X80000000\n"
		"NUMBER(neg)=-1\n"
		"NUMBER(plus)=+1\n"
		"NUMBER(hexneg)=0x-1\n"
		"NUMBER(empty)=\n"
		"NUMBER(nodigits)=0x\n"
		"NUMBER(junk)=12z\n"
		"NUMBER(big)=0x10000000000000000\n";
	struct vs_vmcoreinfo *vi = parse(text, sizeof(text) - 1);
	uint64_t u = 7;

	CHECK(vs_vi_unsigned(vi, "VA_BITS", &u) == 1);
	CHECK_U64(u, 48);
	CHECK(vs_vi_unsigned(vi, "PAGE_OFFSET", &u) == 1);
	CHECK_U64(u, 0xffffaf8000000000ull);
	CHECK(vs_vi_unsigned(vi, "phys_ram_base", &u) == 1);
	CHECK_U64(u, 0x80000000);
	u = 7;
	CHECK(vs_vi_unsigned(vi, "neg", &u) == 0);
	CHECK(vs_vi_unsigned(vi, "plus", &u) == 0);
	CHECK(vs_vi_unsigned(vi, "hexneg", &u) == 0);
	CHECK(vs_vi_unsigned(vi, "empty", &u) == 0);
	CHECK(vs_vi_unsigned(vi, "nodigits", &u) == 0);
	CHECK(vs_vi_unsigned(vi, "junk", &u) == 0);
	CHECK(vs_vi_unsigned(vi, "big", &u) == 0);
	CHECK(vs_vi_unsigned(vi, "absent", &u) == 0);
	CHECK_U64(u, 7);
	vs_vmcoreinfo_free(vi);
}

int main(void)
{
	test_good();
	test_missing();
	test_overlong();
	test_edges();
	test_unsigned();
	return check_exit("vmcoreinfo");
}
