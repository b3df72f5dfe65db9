/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * s390x_test.c - unit tests of s390x address translation
 * (lib/arch_s390x.c) on memory built here, with no dump file: a format
 * of this file's own serves 16 MiB of RAM from a buffer, in which the
 * tests write big-endian DAT tables the way the kernel builds them
 * (empty entries carry their table's type and the invalid bit).
 *
 * Checked: the legacy identity map (its end at *high_memory, else at the
 * end of RAM); walks from a region-third (3 levels), region-second (4)
 * and region-first (5) top; 4 KiB pages, 1 MiB large segments (EDAT1),
 * 2 GiB large region-third entries (EDAT2) and each one's span; invalid
 * entries at every level, a wrong table type, the table-offset bits,
 * an address beyond the top table's reach, a table outside the dump;
 * the 6.10+ layout from VMCOREINFO (IDENTITYBASE, KERNELOFFSET,
 * KERNELOFFPHYS, SAMODE31/EAMODE31) and from os_info through the
 * lowcore; a missing swapper_pg_dir.  Run by tests/suites/unit.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "check.h"
#include "format.h"
#include "vmcoreinfo.h"

#define RAM (16ull << 20)
#define PAGE 4096ull

/* DAT entry bits (z/Architecture). */
#define TT(l) ((uint64_t)(l) << 2)   /* 3 R1, 2 R2, 1 R3, 0 segment */
#define TL3 3ull
#define INV 0x20ull
#define FC 0x400ull
#define PTE_INV 0x400ull

struct mem {
	uint8_t *ram;
};

static int mem_read_page(struct vs_reader *r, uint64_t pfn,
			 const uint8_t **page, struct vs_error *err)
{
	const struct mem *m = r->in->priv;

	if (pfn >= RAM / PAGE)
		return vs_err(err, "pfn 0x%llx is not in the test's RAM",
			      (unsigned long long)pfn);
	*page = m->ram + pfn * PAGE;
	return 0;
}

static int mem_data_bits(struct vs_reader *r, uint64_t start, uint64_t n,
			 uint64_t *bits, struct vs_error *err)
{
	(void)r; (void)start; (void)n; (void)err;
	*bits = ~0ull;
	return 0;
}

static const struct vs_format_ops mem_format = {
	.name = "memory",
	.read_page = mem_read_page,
	.data_bits = mem_data_bits,
};

struct box {
	struct mem m;
	struct vs_segment seg;
	struct vs_input in;
};

static void put64(struct box *b, uint64_t pa, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b->m.ram[pa + i] = (uint8_t)(v >> (56 - 8 * i));
}

static void box_init(struct box *b)
{
	memset(b, 0, sizeof(*b));
	b->m.ram = calloc(1, RAM);
	CHECK(b->m.ram != NULL);
	if (!b->m.ram)
		exit(1);
	b->seg = (struct vs_segment){ 0, RAM, RAM, 0, 0 };
	b->in.ops = &mem_format;
	b->in.priv = &b->m;
	b->in.elf_machine = 22;
	vs_machine_set(&b->in.order, 0, 1, 8);     /* a big-endian dump */
	b->in.page_size = PAGE;
	b->in.page_shift = 12;
	b->in.phys = &b->seg;
	b->in.nr_phys = 1;
	b->in.max_mapnr = RAM / PAGE;
}

static void box_fini(struct box *b)
{
	vs_vmcoreinfo_free(b->in.vi);
	free(b->m.ram);
}

static void set_vi(struct box *b, const char *text)
{
	struct vs_error err;

	vs_err_clear(&err);
	CHECK(vs_vmcoreinfo_parse(&b->in.vi, text, strlen(text), &err) == 0);
}

/* A region or segment table at PA: 2048 empty entries of LEVEL. */
static void empty_table(struct box *b, uint64_t pa, unsigned level)
{
	for (unsigned i = 0; i < 2048; i++)
		put64(b, pa + i * 8, TT(level) | INV);
}

/* The index of VA in a table of LEVEL (0 segment .. 3 region-first). */
static uint64_t idx(uint64_t va, unsigned level)
{
	return (va >> (20 + 11 * level)) & 0x7ff;
}

static struct vs_arch *arch(struct box *b)
{
	struct vs_arch *a = NULL;
	struct vs_error err;

	vs_err_clear(&err);
	if (vs_arch_new(&a, &b->in, &err) < 0)
		fprintf(stderr, "vs_arch_new: %s\n", err.msg);
	CHECK(a != NULL);
	return a;
}

/* VA translates to PA with SPAN bytes to the end of its mapping. */
static void check_xlat(struct vs_arch *a, struct box *b, uint64_t va,
		       uint64_t pa, uint64_t span)
{
	struct vs_reader r;
	struct vs_error err;
	uint64_t got = 0, got_span = 0;

	vs_err_clear(&err);
	CHECK(vs_reader_init(&r, &b->in, &err) == 0);
	if (vs_vtop(a, &r, va, &got, &got_span, &err) < 0) {
		fprintf(stderr, "0x%llx: %s\n", (unsigned long long)va,
			err.msg);
		CHECK(!"translates");
	} else {
		CHECK_U64(got, pa);
		CHECK_U64(got_span, span);
	}
	vs_reader_fini(&r);
}

/* VA does not translate, with a message that contains WHAT. */
static void check_fails(struct vs_arch *a, struct box *b, uint64_t va,
			const char *what)
{
	struct vs_reader r;
	struct vs_error err;
	uint64_t pa = 0;

	vs_err_clear(&err);
	CHECK(vs_reader_init(&r, &b->in, &err) == 0);
	if (vs_vtop(a, &r, va, &pa, NULL, &err) == 0) {
		fprintf(stderr, "0x%llx translated to 0x%llx\n",
			(unsigned long long)va, (unsigned long long)pa);
		CHECK(!"fails");
	} else if (!strstr(err.msg, what)) {
		fprintf(stderr, "0x%llx: '%s' lacks '%s'\n",
			(unsigned long long)va, err.msg, what);
		CHECK(!"names why");
	}
	vs_reader_fini(&r);
}

/* Tables for a walk from TOP (1, 2 or 3) down to a segment table, in
 * RAM from 1 MiB on (the top table there), mapping:
 *   VA            a 4 KiB page at 0x500000
 *   VA + 1 MiB    a large segment (1 MiB) at 0x700000
 *   VA + 2 MiB    an invalid segment entry
 *   VA + 3 MiB    a page table whose entry is invalid
 *   VA + 4 MiB    a segment entry of the wrong table type
 * and a large region-third entry (2 GiB at 0x80000000) at VA + 4 GiB,
 * two region-third slots above VA; the slot between is empty.  VA must
 * sit at a 2 GiB boundary with two region-third slots above it in its
 * table.  Returns the top table's address. */
static uint64_t build_walk(struct box *b, unsigned top, uint64_t va)
{
	uint64_t next = 1ull << 20, table, st, pt;
	unsigned level;

	table = next;
	empty_table(b, table, top);
	for (level = top; level > 0; level--) {
		uint64_t child = next + 0x4000;

		next = child;
		empty_table(b, child, level - 1);
		if (level == 1)
			put64(b, table + (idx(va, 1) + 2) * 8,
			      0x80000000ull | TT(1) | FC);
		put64(b, table + idx(va, level) * 8,
		      child | TT(level) | TL3);
		table = child;
	}
	st = table;
	pt = next + 0x4000;
	for (unsigned i = 0; i < 512; i++)         /* two page tables */
		put64(b, pt + i * 8, PTE_INV);
	put64(b, st + idx(va, 0) * 8, pt);
	put64(b, pt + ((va >> 12) & 0xff) * 8, 0x500000ull);
	put64(b, st + idx(va + (1 << 20), 0) * 8, 0x700000ull | FC);
	put64(b, st + idx(va + (3 << 20), 0) * 8, pt + 0x800);
	put64(b, pt + 0x800, PTE_INV);
	put64(b, st + idx(va + (4 << 20), 0) * 8, (pt + 0x1000) | TT(1));
	return 1ull << 20;
}

static void check_walk(struct vs_arch *a, struct box *b, uint64_t va)
{
	check_xlat(a, b, va + 0x123, 0x500123, 0x1000 - 0x123);
	check_xlat(a, b, va + 0x1ff000, 0x7ff000, 0x1000);
	check_xlat(a, b, va + (1 << 20) + 0x12345, 0x712345,
		   (1 << 20) - 0x12345);
	check_xlat(a, b, va + (2ull << 31) + 0x1234567, 0x81234567ull,
		   (2ull << 30) - 0x1234567);
	check_fails(a, b, va + 0x1000, "page-table entry");
	check_fails(a, b, va + (2 << 20), "segment entry");
	check_fails(a, b, va + (3 << 20), "not mapped");
	check_fails(a, b, va + (4 << 20), "corrupt segment entry");
	check_fails(a, b, va + (1ull << 31), "region-third entry");
}

/* Legacy, 3 levels: identity below *high_memory, the walk above it. */
static void test_legacy_r3(void)
{
	struct box b;
	struct vs_arch *a;
	uint64_t va = 0x30000000000ull;    /* 3 TiB, under the 4 TiB reach */
	char vi[256];

	box_init(&b);
	build_walk(&b, 1, va);
	put64(&b, 0x8000, 0xc00000);        /* high_memory: 12 MiB */
	snprintf(vi, sizeof(vi), "SYMBOL(swapper_pg_dir)=%llx\n"
		 "SYMBOL(high_memory)=8000\nKERNELOFFSET=0\n",
		 1ull << 20);
	set_vi(&b, vi);
	a = arch(&b);
	if (a) {
		CHECK(vs_arch_machine(a)->big_endian == 1);
		check_xlat(a, &b, 0x123456, 0x123456, 0xc00000 - 0x123456);
		check_walk(a, &b, va);
		check_fails(a, &b, 1ull << 42, "beyond the region-third");
		/* *high_memory ends the identity map: above it, the walk */
		check_fails(a, &b, 0xc00000, "region-third entry");
	}
	vs_arch_free(a);
	box_fini(&b);
}

/* 4 and 5 levels; the legacy identity map ends at RAM's end without
 * SYMBOL(high_memory). */
static void test_deeper(unsigned top, uint64_t va)
{
	struct box b;
	struct vs_arch *a;
	char vi[128];

	box_init(&b);
	build_walk(&b, top, va);
	snprintf(vi, sizeof(vi), "SYMBOL(swapper_pg_dir)=100000\n");
	set_vi(&b, vi);
	a = arch(&b);
	if (a) {
		check_xlat(a, &b, RAM - 8, RAM - 8, 8);
		check_walk(a, &b, va);
		check_fails(a, &b, va - (1ull << (20 + 11 * top)),
			    top == 3 ? "region-first entry" :
				       "region-second entry");
		if (top == 2)
			check_fails(a, &b, 1ull << 53, "beyond");
	}
	vs_arch_free(a);
	box_fini(&b);
}

/* A corrupt entry above the segment table: the table-offset bits, an
 * origin outside the dump. */
static void test_corrupt_regions(void)
{
	struct box b;
	struct vs_arch *a;
	uint64_t va = 1ull << 51, top;

	box_init(&b);
	top = build_walk(&b, 2, va);
	put64(&b, top + (idx(va, 2) + 1) * 8, 0x200000 | TT(2) | TL3 | 0x40);
	put64(&b, top + (idx(va, 2) + 2) * 8,
	      (1ull << 40) | TT(2) | TL3);
	set_vi(&b, "SYMBOL(swapper_pg_dir)=100000\n");
	a = arch(&b);
	if (a) {
		check_fails(a, &b, va + (1ull << 42), "corrupt region-second");
		check_fails(a, &b, va + (2ull << 42), "region-third entry");
	}
	vs_arch_free(a);
	box_fini(&b);
}

/* 6.10+: the keys in VMCOREINFO.  Identity at 64 GiB, the image at
 * 0x3ffe0000000 from physical 0 (swapper_pg_dir 1 MiB into it), amode31
 * at [0x10000, 0x30000). */
static void test_vr_vmcoreinfo(void)
{
	struct box b;
	struct vs_arch *a;
	uint64_t kv = 0x3ffe0000000ull, va = 0x30000000000ull;

	box_init(&b);
	build_walk(&b, 1, va);
	set_vi(&b, "SYMBOL(swapper_pg_dir)=3ffe0100000\n"
		 "IDENTITYBASE=1000000000\nKERNELOFFSET=3ffe0000000\n"
		 "KERNELOFFPHYS=0\nSAMODE31=10000\nEAMODE31=30000\n");
	a = arch(&b);
	if (a) {
		check_xlat(a, &b, 0x1ff0, 0x1ff0, 0x10);
		check_xlat(a, &b, 0x20000, 0x20000, 0x10000);
		check_xlat(a, &b, 0x1000000000ull + 0x5000, 0x5000,
			   RAM - 0x5000);
		check_xlat(a, &b, kv + 0x1234, 0x1234, -(kv + 0x1234));
		check_walk(a, &b, va);
		/* between amode31 and the identity base: the walk */
		check_fails(a, &b, 0x40000, "region-third entry");
	}
	vs_arch_free(a);
	box_fini(&b);
}

/* 6.10+ without the keys: os_info (its address at lowcore 0xe18) gives
 * them, vmemmap's start included. */
static void test_vr_os_info(void)
{
	struct box b;
	struct vs_arch *a;
	uint64_t oi = 0x3000, kv = 0x3ffe0000000ull, va = 0x30000000000ull;
	static const uint64_t val[] = {
		[4] = 0x1000000000ull,        /* identity base */
		[5] = 0x3ffe0000000ull,       /* KASLR offset: the image */
		[6] = 0x200000,               /* its physical start */
		[7] = 0x1000000000ull + (32ull << 20),   /* vmemmap */
		[8] = 0x10000, [9] = 0x30000, /* amode31 */
	};

	box_init(&b);
	build_walk(&b, 1, va);
	put64(&b, 0xe18, oi);
	put64(&b, oi, 0x4f53494e464f535aull);
	for (unsigned i = 4; i < 10; i++)
		put64(&b, oi + 32 + 20 * i, val[i]);
	/* swapper_pg_dir (physical 1 MiB) through the identity map */
	set_vi(&b, "SYMBOL(swapper_pg_dir)=1000100000\n");
	a = arch(&b);
	if (a) {
		check_xlat(a, &b, kv + 0x10, 0x200010, -(kv + 0x10));
		/* the identity map reaches vmemmap, past RAM's end */
		check_xlat(a, &b, 0x1000000000ull + (20ull << 20), 20ull << 20,
			   12ull << 20);
		check_xlat(a, &b, 0x2fff0, 0x2fff0, 0x10);
		check_walk(a, &b, va);
	}
	vs_arch_free(a);
	box_fini(&b);
}

/* Without swapper_pg_dir there is no translation; a bad os_info magic
 * is no os_info (legacy). */
static void test_missing(void)
{
	struct box b;
	struct vs_arch *a = NULL;
	struct vs_error err;

	box_init(&b);
	set_vi(&b, "OSRELEASE=6.1.0\n");
	vs_err_clear(&err);
	CHECK(vs_arch_new(&a, &b.in, &err) < 0);
	CHECK(strstr(err.msg, "'SYMBOL(swapper_pg_dir)'") != NULL);
	box_fini(&b);

	box_init(&b);
	build_walk(&b, 1, 0x30000000000ull);
	put64(&b, 0xe18, 0x3000);
	put64(&b, 0x3000, 0x4f53494e464f535bull);
	put64(&b, 0x3000 + 32 + 20 * 5, 0x3ffe0000000ull);
	set_vi(&b, "SYMBOL(swapper_pg_dir)=100000\n");
	a = arch(&b);
	if (a)
		check_xlat(a, &b, 0x10, 0x10, RAM - 0x10);
	vs_arch_free(a);
	box_fini(&b);
}

int main(void)
{
	test_legacy_r3();
	test_deeper(2, 0x10000000000000ull);         /* 4 levels: 2^52 */
	test_deeper(3, 0xffff800000000000ull);       /* 5 levels */
	test_corrupt_regions();
	test_vr_vmcoreinfo();
	test_vr_os_info();
	test_missing();
	return check_exit("s390x");
}
