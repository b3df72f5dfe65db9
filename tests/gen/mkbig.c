// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkbig - a synthetic x86_64 ELF vmcore of a big, mostly free machine,
 * made in the time it takes to write its struct page array.
 *
 *   mkbig [-s SEED] [-n NODES] OUT GIB
 *
 * GIB GiB of RAM: [1 MiB, 3 GiB) below the PCI hole and the rest from
 * 4 GiB on, in NODES nodes (default one per 64 GiB, at most 8), each a
 * PT_LOAD whose last sixteenth is left out of the file (p_filesz <
 * p_memsz; free memory).  Linux 6.1's layout, as tests/gen/mkvmcore.py
 * writes it for "gen 6.1" (gens.py): VMCOREINFO, 4-level page tables
 * (direct map in 1 GiB pages, vmemmap in 2 MiB leaves), SPARSEMEM_EXTREME
 * mem_section, and one real struct page per pfn of every present section
 * (64 bytes: 1 TiB of RAM takes 16 GiB of struct pages, written out).
 * Each node's struct pages sit at its start, as the kernel places them.
 *
 * Each 4 MiB block of RAM is a free order-10 buddy block, or two
 * transparent huge pages, or page-cache folios, or (one in 25) a mix of
 * 16-page groups: free buddy blocks of orders 0-4, page cache with and
 * without private data, anonymous pages, slab (order 0 and 3), kernel
 * pages, page tables and zeroed kernel pages.  Pages the kernel keeps
 * at -d 31 (kernel, slab, page tables, the kernel image) hold data that
 * compresses like kernel memory; every other page is a hole (zero).
 *
 * Prints the layout and the pages of each kind.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PAGE ((uint64_t)4096)
#define SPAGE 64                       /* sizeof(struct page) */
#define SEC_PAGES 32768ULL             /* 128 MiB sections */
#define SEC_MAP (SEC_PAGES * SPAGE)    /* 2 MiB of struct pages */
#define GIB ((uint64_t)1 << 30)
#define MIB ((uint64_t)1 << 20)
#define PAGE_OFFSET ((uint64_t)0xffff888000000000ULL)
#define VMEMMAP 0xffffea0000000000ULL
#define KMAP 0xffffffff80000000ULL
#define KLOAD (16 * MIB)
#define KSIZE (64 * MIB)
#define K_TEXT (32 * MIB)              /* kernel image: data pages */
#define K_TABLES (32 * MIB)            /* page tables, 16 MiB */
#define K_ROOTS (48 * MIB)             /* mem_section roots, 32 KiB */
#define K_SECTIONS (49 * MIB)          /* mem_section pages, 4 MiB */
#define K_UTS (60 * MIB)
#define NR_ROOTS 4096                  /* 2^(46-27) sections / 128 */
#define PTE_TABLE 0x63ULL
#define PTE_LARGE 0x80000000000001e3ULL
#define PTE_KTEXT 0x1e3ULL
#define DECOR 0x0017ffff00000000ULL
#define POISON1 0xdead000000000100ULL
#define POISON2 0xdead000000000122ULL
#define TAIL_MAPPING 0xdead000000000400ULL
#define BUDDY (-129)
#define OFFLINE (-257)
#define TABLE (-513)
#define PG(n) (1ULL << (n))
enum { PG_referenced = 1, PG_uptodate = 2, PG_dirty = 3, PG_lru = 4,
       PG_slab = 9, PG_reserved = 12, PG_private = 13, PG_head = 16,
       PG_swapbacked = 19 };
enum kind { K_FREE, K_CACHE, K_PCACHE, K_ANON, K_SLAB, K_KERNEL, K_PGTABLE,
	    K_ZERO, K_RESERVED, K_META, K_NR };
static const char *const kind_name[K_NR] = {
	"free", "cache", "private cache", "anon", "slab", "kernel",
	"page table", "zero", "reserved", "struct page array",
};

struct seg { uint64_t pa, memsz, filesz, off; };

struct big {
	int fd;
	const char *path;
	uint64_t seed;
	struct seg seg[10];
	int nseg;                      /* seg[0] the kernel image */
	uint64_t memmap_pa[10];        /* per RAM segment: its struct pages */
	uint8_t *kimg;                 /* the kernel image, written at the end */
	uint64_t ntables;
	uint8_t *pool;                 /* 64 pages of kernel-like data */
	uint8_t *secbuf;
	uint64_t count[K_NR];
	uint64_t nodata_free;          /* free pages beyond a p_filesz */
	uint64_t data_pages;
};

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void put64(uint8_t *b, uint64_t v) { memcpy(b, &v, 8); }
static void put32(uint8_t *b, uint32_t v) { memcpy(b, &v, 4); }

static void die(const char *what, const char *path)
{
	fprintf(stderr, "mkbig: %s: %s: %s\n", path, what, strerror(errno));
	exit(1);
}

/* The file offset of physical address PA, or -1 when no segment's file
 * part holds it. */
static int64_t file_off(const struct big *b, uint64_t pa)
{
	for (int i = 1; i < b->nseg; i++) {
		const struct seg *s = &b->seg[i];
		if (pa >= s->pa && pa < s->pa + s->filesz)
			return (int64_t)(s->off + (pa - s->pa));
	}
	return -1;
}

static void write_at(struct big *b, const void *buf, size_t n, uint64_t off)
{
	const uint8_t *p = buf;
	while (n) {
		ssize_t w = pwrite(b->fd, p, n, (off_t)off);
		if (w < 0)
			die("write", b->path);
		p += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
}

static void write_pa(struct big *b, const void *buf, size_t n, uint64_t pa)
{
	int64_t off = file_off(b, pa);
	if (off < 0) {
		fprintf(stderr, "mkbig: %#" PRIx64 " is not in the file\n", pa);
		exit(1);
	}
	write_at(b, buf, n, (uint64_t)off);
}

/* 8-byte words as kernel data has them: pointers, small counters,
 * zeros, a few random words. */
static void make_pool(struct big *b)
{
	uint64_t s = b->seed ^ 0x706f6f6c;
	b->pool = malloc(64 * PAGE);
	if (!b->pool)
		die("malloc", "pool");
	for (uint64_t i = 0; i < 64 * PAGE / 8; i++) {
		uint64_t r = rnd(&s), v, c = r % 100;
		if (c < 35)
			v = PAGE_OFFSET | ((r >> 8) & 0xfffffc0);
		else if (c < 55)
			v = (r >> 16) & 0xff;
		else if (c < 95)
			v = 0;
		else
			v = rnd(&s);
		put64(b->pool + i * 8, v);
	}
}

static void data_page(struct big *b, uint64_t pfn)
{
	write_pa(b, b->pool + (pfn % 64) * PAGE, PAGE, pfn * PAGE);
	b->data_pages++;
}

/* -- struct pages -------------------------------------------------------- */

static uint64_t spage_va(uint64_t pfn) { return VMEMMAP + pfn * SPAGE; }

static void sp_base(uint8_t *p, uint64_t flags, int32_t mapcount,
		    int32_t refcount, uint64_t mapping, uint64_t private,
		    uint64_t pfn)
{
	memset(p, 0, SPAGE);
	put64(p + 0, flags);
	put64(p + 8, POISON1);
	put64(p + 16, POISON2);
	put64(p + 24, mapping);
	put64(p + 32, pfn & 0xffff);
	put64(p + 40, private);
	put32(p + 48, (uint32_t)mapcount);
	put32(p + 52, (uint32_t)refcount);
}

/* Struct pages 1.. of a compound page of ORDER at HEAD (6.1: u8 dtor and
 * order in tail 1). */
static void sp_tails(uint8_t *p, uint64_t head, int order, int dtor)
{
	uint64_t n = 1ULL << order;
	for (uint64_t i = 1; i < n; i++) {
		uint8_t *t = p + i * SPAGE;
		sp_base(t, DECOR, -1, 0, TAIL_MAPPING, 0, head + i);
		put64(t + 8, spage_va(head) | 1);
		if (i == 1) {
			t[16] = (uint8_t)dtor;
			t[17] = (uint8_t)order;
			put32(t + 20, 0xffffffff);
			put32(t + 24, 0);
			put32(t + 28, (uint32_t)n);
		}
	}
}

static uint64_t anon_vma(uint64_t pfn)
{
	return 0xffff888004a3c001ULL | ((pfn << 8) & 0xffff00);
}

static uint64_t addr_space(uint64_t pfn)
{
	return 0xffff888003b0e6e8ULL + ((pfn & 0xff) << 9);
}

/* A unit of 2^ORDER pages of KIND at PFN; P its struct pages. */
static void unit(struct big *b, uint8_t *p, uint64_t pfn, enum kind k,
		 int order)
{
	uint64_t n = 1ULL << order, head = order ? PG(PG_head) : 0;
	switch (k) {
	case K_FREE:
		sp_base(p, DECOR, BUDDY, 0, 0, (uint64_t)order, pfn);
		for (uint64_t i = 1; i < n; i++)
			sp_base(p + i * SPAGE, DECOR, -1, 0, 0, 0, pfn + i);
		break;
	case K_CACHE:
		sp_base(p, DECOR | PG(PG_lru) | PG(PG_uptodate) |
			PG(PG_referenced) | head, (pfn & 1) ? 2 : -1, 1,
			addr_space(pfn), 0, pfn);
		sp_tails(p, pfn, order, 1);
		break;
	case K_PCACHE:
		sp_base(p, DECOR | PG(PG_lru) | PG(PG_uptodate) |
			PG(PG_private), -1, 1, addr_space(pfn),
			0xffff888005c00000ULL + ((pfn & 0xfff) << 7), pfn);
		break;
	case K_ANON:
		sp_base(p, DECOR | PG(PG_lru) | PG(PG_swapbacked) |
			PG(PG_uptodate) | PG(PG_dirty) | head, 0, 1,
			anon_vma(pfn), 0, pfn);
		sp_tails(p, pfn, order, 3);
		break;
	case K_SLAB:
		/* SLUB's counters overlay _mapcount: may look like a buddy */
		sp_base(p, DECOR | PG(PG_slab) | head,
			(pfn & 1) ? OFFLINE : BUDDY, 1, 0xffff888003c0a000ULL,
			0x0000ffff00000002ULL, pfn);
		sp_tails(p, pfn, order, 1);
		break;
	case K_PGTABLE:
		sp_base(p, DECOR, TABLE, 1, 0, 0, pfn);
		break;
	case K_RESERVED:
		sp_base(p, DECOR | PG(PG_reserved), -1, 1, 0, 0, pfn);
		break;
	default:                       /* kernel, zero, struct page array */
		sp_base(p, DECOR, -1, 1, 0, 0, pfn);
		break;
	}
	b->count[k] += n;
	if (k == K_KERNEL || k == K_SLAB || k == K_PGTABLE)
		for (uint64_t i = 0; i < n; i++)
			data_page(b, pfn + i);
}

/* -- layout ---------------------------------------------------------------- */

static int in_ram(const struct big *b, uint64_t pfn)
{
	for (int i = 1; i < b->nseg; i++)
		if (pfn * PAGE >= b->seg[i].pa &&
		    pfn * PAGE < b->seg[i].pa + b->seg[i].memsz)
			return 1;
	return 0;
}

static int in_file(const struct big *b, uint64_t pfn)
{
	return file_off(b, pfn * PAGE) >= 0;
}

/* What the kernel itself uses: the image, the struct page arrays. */
static enum kind meta(const struct big *b, uint64_t pfn)
{
	uint64_t pa = pfn * PAGE;
	if (pa >= KLOAD && pa < KLOAD + KSIZE)
		return K_RESERVED;
	for (int i = 1; i < b->nseg; i++) {
		uint64_t secs = b->seg[i].memsz / (SEC_PAGES * PAGE) +
			(i == 1);      /* the low range's section 0 */
		if (pa >= b->memmap_pa[i] && pa < b->memmap_pa[i] + secs * SEC_MAP)
			return K_META;
	}
	return K_NR;
}

/* A 4 MiB block that holds the kernel's own pages or a hole: page by
 * page, the rest free order-0 pages. */
static void block_pages(struct big *b, uint8_t *p, uint64_t pfn)
{
	for (uint64_t i = 0; i < 1024; i++, p += SPAGE) {
		uint64_t f = pfn + i;
		enum kind k = meta(b, f);
		if (!in_ram(b, f))
			sp_base(p, DECOR | PG(PG_reserved), -1, 1, 0, 0, f);
		else if (k == K_RESERVED)
			unit(b, p, f, K_RESERVED, 0);
		else if (k == K_META) {
			sp_base(p, DECOR, -1, 1, 0, 0, f);
			b->count[K_META]++;
		} else
			unit(b, p, f, K_FREE, 0);
	}
}

/* One group of 16 pages of a mixed block. */
static void group(struct big *b, uint8_t *p, uint64_t pfn, uint64_t *s)
{
	unsigned c = (unsigned)(rnd(s) % 1000);
	int o;
	enum kind k;
	if (c < 400) {
		o = (int)(rnd(s) % 5);
		for (uint64_t i = 0; i < 16; i += 1ULL << o)
			unit(b, p + i * SPAGE, pfn + i, K_FREE, o);
		return;
	}
	if (c < 620) k = K_CACHE;
	else if (c < 670) k = K_PCACHE;
	else if (c < 850) k = K_ANON;
	else if (c < 930) k = K_KERNEL;
	else if (c < 970) k = K_SLAB;
	else if (c < 990) {
		unit(b, p, pfn, K_SLAB, 3);
		unit(b, p + 8 * SPAGE, pfn + 8, K_SLAB, 3);
		return;
	} else if (c < 995) k = K_PGTABLE;
	else k = K_ZERO;
	for (uint64_t i = 0; i < 16; i++)
		unit(b, p + i * SPAGE, pfn + i, k, 0);
}

static void block(struct big *b, uint8_t *p, uint64_t pfn, uint64_t *s)
{
	unsigned c = (unsigned)(rnd(s) % 1000);
	int special = !in_ram(b, pfn) || !in_ram(b, pfn + 1023) ||
		meta(b, pfn) != K_NR || meta(b, pfn + 1023) != K_NR;
	if (special)
		block_pages(b, p, pfn);
	else if (!in_file(b, pfn)) {
		unit(b, p, pfn, K_FREE, 10);
		b->nodata_free += 1024;
	} else if (c >= 70)
		unit(b, p, pfn, K_FREE, 10);
	else if (c < 40)
		for (uint64_t i = 0; i < 1024; i += 16)
			group(b, p + i * SPAGE, pfn + i, s);
	else if (c < 60) {
		unit(b, p, pfn, K_ANON, 9);
		unit(b, p + 512 * SPAGE, pfn + 512, K_ANON, 9);
	} else
		for (uint64_t i = 0; i < 1024; i += 4)
			unit(b, p + i * SPAGE, pfn + i, K_CACHE, 2);
}

/* -- page tables and mem_section, in the kernel image ---------------------- */

static uint64_t kva(uint64_t pa) { return KMAP + pa; }

static uint8_t *table_at(struct big *b, uint64_t pa)
{
	return b->kimg + (pa - KLOAD);
}

static uint64_t new_table(struct big *b)
{
	if (b->ntables >= 16 * MIB / PAGE) {
		fprintf(stderr, "mkbig: out of page-table pages\n");
		exit(1);
	}
	return KLOAD + K_TABLES + b->ntables++ * PAGE;
}

/* The table DEPTH levels below the top (0 = PML4) for VA, made. */
static uint64_t walk(struct big *b, uint64_t va, int depth)
{
	static const int shift[] = { 39, 30, 21 };
	uint64_t t = KLOAD + K_TABLES;
	for (int l = 0; l < depth; l++) {
		uint8_t *e = table_at(b, t) + ((va >> shift[l]) & 511) * 8;
		uint64_t v;
		memcpy(&v, e, 8);
		if (!v) {
			v = new_table(b) | PTE_TABLE;
			put64(e, v);
		}
		t = v & 0x000ffffffffff000ULL;
	}
	return t;
}

static void map_large(struct big *b, uint64_t va, uint64_t pa, int depth,
		      uint64_t bits)
{
	int shift = depth == 1 ? 30 : 21;
	put64(table_at(b, walk(b, va, depth)) + ((va >> shift) & 511) * 8,
	      pa | bits);
}

static void tables(struct big *b)
{
	b->ntables = 1;                /* the PML4 */
	for (uint64_t pa = KLOAD; pa < KLOAD + KSIZE; pa += 2 * MIB)
		map_large(b, kva(pa), pa, 2, PTE_KTEXT);
	for (int i = 1; i < b->nseg; i++)
		for (uint64_t gb = b->seg[i].pa / GIB;
		     gb * GIB < b->seg[i].pa + b->seg[i].memsz; gb++)
			map_large(b, PAGE_OFFSET + gb * GIB, gb * GIB, 1,
				  PTE_LARGE);
}

/* The vmemmap leaf and mem_section entry of section SEC, its struct
 * pages at PA. */
static void section(struct big *b, uint64_t sec, uint64_t pa,
		    uint64_t *nsecpages, int64_t *root_page)
{
	uint64_t r = sec / 128, ms;
	map_large(b, VMEMMAP + sec * SEC_MAP, pa, 2, PTE_LARGE);
	if (root_page[r] < 0) {
		if (*nsecpages >= 4 * MIB / PAGE) {
			fprintf(stderr, "mkbig: too many mem_section pages\n");
			exit(1);
		}
		root_page[r] = (int64_t)(KLOAD + K_SECTIONS + (*nsecpages)++ * PAGE);
		put64(b->kimg + K_ROOTS + r * 8,
		      PAGE_OFFSET + (uint64_t)root_page[r]);
	}
	ms = (uint64_t)root_page[r] + (sec % 128) * 32;
	put64(table_at(b, ms), VMEMMAP | 15);   /* PRESENT|MAP|ONLINE|EARLY */
}

/* -- the file ------------------------------------------------------------ */

static size_t note(uint8_t *p, const char *name, uint32_t type,
		   const void *desc, uint32_t descsz)
{
	uint32_t namesz = (uint32_t)strlen(name) + 1;
	size_t n = 12;
	put32(p, namesz);
	put32(p + 4, descsz);
	put32(p + 8, type);
	memcpy(p + n, name, namesz);
	n += (namesz + 3) & ~3U;
	memcpy(p + n, desc, descsz);
	return n + ((descsz + 3) & ~3U);
}

static size_t vmcoreinfo(char *v, size_t cap)
{
	return (size_t)snprintf(v, cap,
		"OSRELEASE=6.1.0-57-amd64\nPAGESIZE=4096\n"
		"SYMBOL(init_uts_ns)=%" PRIx64 "\nOFFSET(uts_namespace.name)=0\n"
		"SYMBOL(_stext)=ffffffff81000000\n"
		"SYMBOL(swapper_pg_dir)=%" PRIx64 "\n"
		"SYMBOL(mem_section)=%" PRIx64 "\nLENGTH(mem_section)=%d\n"
		"SIZE(mem_section)=32\nOFFSET(mem_section.section_mem_map)=0\n"
		"NUMBER(SECTION_SIZE_BITS)=27\nNUMBER(MAX_PHYSMEM_BITS)=46\n"
		"SIZE(page)=64\nSIZE(list_head)=16\nOFFSET(page.flags)=0\n"
		"OFFSET(page._refcount)=52\nOFFSET(page.mapping)=24\n"
		"OFFSET(page.lru)=8\nOFFSET(page._mapcount)=48\n"
		"OFFSET(page.private)=40\nOFFSET(page.compound_dtor)=16\n"
		"OFFSET(page.compound_order)=17\nOFFSET(page.compound_head)=8\n"
		"OFFSET(list_head.next)=0\nOFFSET(list_head.prev)=8\n"
		"LENGTH(zone.free_area)=11\nNUMBER(NR_FREE_PAGES)=0\n"
		"NUMBER(PG_lru)=4\nNUMBER(PG_private)=13\nNUMBER(PG_swapcache)=10\n"
		"NUMBER(PG_swapbacked)=19\nNUMBER(PG_slab)=9\n"
		"NUMBER(PG_hwpoison)=23\nNUMBER(PG_head_mask)=65536\n"
		"NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)=-129\n"
		"NUMBER(PAGE_OFFLINE_MAPCOUNT_VALUE)=-257\n"
		"NUMBER(HUGETLB_PAGE_DTOR)=2\nNUMBER(phys_base)=0\n"
		"SYMBOL(init_top_pgt)=%" PRIx64 "\nNUMBER(pgtable_l5_enabled)=0\n"
		"KERNELOFFSET=0\nNUMBER(KERNEL_IMAGE_SIZE)=1073741824\n"
		"NUMBER(sme_mask)=0\nCRASHTIME=1700000000\n",
		kva(KLOAD + K_UTS), kva(KLOAD + K_TABLES),
		PAGE_OFFSET + KLOAD + K_ROOTS, NR_ROOTS, kva(KLOAD + K_TABLES));
}

static void headers(struct big *b)
{
	uint8_t ehdr[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 }, ph[11 * 56];
	uint8_t notes[8192], pr[336] = { 0 };
	char vi[4096];
	size_t nl = 0;
	uint16_t phnum = (uint16_t)(b->nseg + 1);
	for (uint32_t cpu = 0; cpu < 2; cpu++) {
		put32(pr + 32, 1000 + cpu);
		nl += note(notes + nl, "CORE", 1, pr, sizeof(pr));
	}
	nl += note(notes + nl, "VMCOREINFO", 0, vi,
		   (uint32_t)vmcoreinfo(vi, sizeof(vi)));
	memset(ph, 0, sizeof(ph));
	put32(ph, 4);
	put64(ph + 8, PAGE);
	put64(ph + 32, nl);
	put64(ph + 40, nl);
	for (int i = 0; i < b->nseg; i++) {
		uint8_t *h = ph + (i + 1) * 56;
		const struct seg *s = &b->seg[i];
		put32(h, 1);
		put32(h + 4, 7);
		put64(h + 8, s->off);
		put64(h + 16, i ? PAGE_OFFSET + s->pa : kva(s->pa));
		put64(h + 24, s->pa);
		put64(h + 32, s->filesz);
		put64(h + 40, s->memsz);
	}
	/* e_type ET_CORE, e_machine x86_64, e_version, e_phoff 64 */
	ehdr[16] = 4; ehdr[18] = 62; ehdr[20] = 1; ehdr[32] = 64;
	ehdr[52] = 64; ehdr[54] = 56;
	memcpy(ehdr + 56, &phnum, 2);
	write_at(b, ehdr, 64, 0);
	write_at(b, ph, (size_t)phnum * 56, 64);
	write_at(b, notes, nl, PAGE);
}

static void layout(struct big *b, uint64_t gib, int nodes)
{
	uint64_t off = 4 * PAGE, high = gib > 3 ? gib - 3 : 1, per;
	if (nodes <= 0)
		nodes = (int)(high / 64 ? high / 64 : 1);
	if (nodes > 8)
		nodes = 8;
	per = high / (uint64_t)nodes;
	b->seg[0] = (struct seg){ KLOAD, KSIZE, KSIZE, 0 };
	b->seg[1] = (struct seg){ MIB, 3 * GIB - MIB, 3 * GIB - MIB, 0 };
	b->memmap_pa[1] = 2 * GIB;
	b->nseg = 2;
	for (int n = 0; n < nodes; n++) {
		uint64_t size = (n == nodes - 1 ? high - per * (uint64_t)(nodes - 1)
				 : per) * GIB;
		struct seg *s = &b->seg[b->nseg];
		s->pa = 4 * GIB + per * (uint64_t)n * GIB;
		s->memsz = size;
		/* the last sixteenth (whole sections) is not in the file */
		s->filesz = size - size / 16 / (SEC_PAGES * PAGE) *
			(SEC_PAGES * PAGE);
		b->memmap_pa[b->nseg] = s->pa;
		b->nseg++;
	}
	for (int i = 0; i < b->nseg; i++) {
		b->seg[i].off = off;
		off += b->seg[i].filesz;
	}
	if (ftruncate(b->fd, (off_t)off))
		die("truncate", b->path);
}

/* Struct pages of every present section, each written where its
 * segment's vmemmap leaf points. */
static void struct_pages(struct big *b)
{
	uint64_t nsecpages = 0;
	int64_t *root_page = malloc(NR_ROOTS * sizeof(*root_page));
	if (!root_page)
		die("malloc", "roots");
	memset(root_page, 0xff, NR_ROOTS * sizeof(*root_page));
	for (int i = 1; i < b->nseg; i++) {
		uint64_t first = b->seg[i].pa / PAGE / SEC_PAGES;
		uint64_t last = (b->seg[i].pa + b->seg[i].memsz - 1) / PAGE / SEC_PAGES;
		for (uint64_t sec = first; sec <= last; sec++) {
			uint64_t pa = b->memmap_pa[i] + (sec - first) * SEC_MAP;
			uint64_t s = b->seed ^ (sec * 0x100000001b3ULL);
			for (uint64_t blk = 0; blk < SEC_PAGES; blk += 1024)
				block(b, b->secbuf + blk * SPAGE,
				      sec * SEC_PAGES + blk, &s);
			section(b, sec, pa, &nsecpages, root_page);
			write_pa(b, b->secbuf, SEC_MAP, pa);
		}
	}
	free(root_page);
}

/* The kernel image: text-like data, then tables, mem_section, uts. */
static void kernel_image(struct big *b)
{
	static const char *const uts[] = { "Linux", "vmsift-mkbig",
		"6.1.0-57-amd64", "#1 SMP PREEMPT_DYNAMIC", "x86_64", "(none)" };
	for (uint64_t o = 0; o < K_TEXT; o += PAGE)
		memcpy(b->kimg + o, b->pool + (o / PAGE % 64) * PAGE, PAGE);
	for (int i = 0; i < 6; i++)
		strcpy((char *)b->kimg + K_UTS + i * 65, uts[i]);
	for (uint64_t o = 0; o < KSIZE; o += PAGE) {
		static const uint8_t zero[PAGE];
		if (!memcmp(b->kimg + o, zero, PAGE)) {
			b->count[K_ZERO]++;
			continue;
		}
		write_at(b, b->kimg + o, PAGE, b->seg[0].off + o);
		write_pa(b, b->kimg + o, PAGE, KLOAD + o);
	}
}

int main(int argc, char **argv)
{
	struct big b = { .seed = 1 };
	int opt, nodes = 0;
	uint64_t gib;
	struct timespec t0, t1;
	while ((opt = getopt(argc, argv, "s:n:")) != -1) {
		if (opt == 's')
			b.seed = strtoull(optarg, NULL, 0);
		else if (opt == 'n')
			nodes = atoi(optarg);
		else
			return 2;
	}
	if (argc - optind != 2 || (gib = strtoull(argv[optind + 1], NULL, 0)) < 4) {
		fprintf(stderr, "usage: mkbig [-s SEED] [-n NODES] OUT GIB (>= 4)\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	b.path = argv[optind];
	b.fd = open(b.path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	b.kimg = calloc(1, KSIZE);
	b.secbuf = malloc(SEC_MAP);
	if (b.fd < 0 || !b.kimg || !b.secbuf)
		die("open", b.path);
	make_pool(&b);
	layout(&b, gib, nodes);
	tables(&b);
	struct_pages(&b);
	kernel_image(&b);
	headers(&b);
	if (fsync(b.fd) || close(b.fd))
		die("close", b.path);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%s: %" PRIu64 " GiB of RAM in %d PT_LOADs, max_mapnr %#" PRIx64
	       ", %" PRIu64 " data pages written, %.1f s\n", b.path, gib,
	       b.nseg - 1, (b.seg[b.nseg - 1].pa + b.seg[b.nseg - 1].memsz) / PAGE,
	       b.data_pages, (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	for (int k = 0; k < K_NR; k++)
		printf("  %-18s %" PRIu64 "\n", kind_name[k], b.count[k]);
	/* of the free pages, those without data in the file: makedumpfile
	 * drops them before it looks at struct pages, so no counter has them */
	printf("  %-18s %" PRIu64 "\n", "no-data free", b.nodata_free);
	return 0;
}
