/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_filter.c - the page filter on a damaged vmcore: lib/filter.c's
 * decisions, lib/memmap.c's memory-model tables and lib/arch_x86_64.c's
 * page-table walk, all reading garbage.
 *
 * The base is a small valid vmcore from tests/gen/mkvmcore.py
 * (filter.spec, carried as base.vmcore.zst).  At start-up the filter runs
 * once over it at -d 31 with every vs_read_phys() traced (the link wraps
 * it): the pages it reads (page tables, mem_section, struct pages, free
 * lists, pglist_data) plus the VMCOREINFO note's text make the "hot"
 * bytes.  An input is
 *   byte 0      dump level (low 5 bits); bit 5: also vmsift_dump() it;
 *               bit 6: read with pread, not mmap
 *   then        records: u16 LE offset / 4 into the hot bytes (modulo
 *               their size), u8 length, that many bytes to write there
 * so the fuzzer edits fields in place.  Each run patches the base, runs
 * the filter over every pfn (and maybe a dump), then puts the bytes back.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"
#include "vmsift.h"
#include "../../lib/filter.h"
#include "../../lib/input.h"

#ifndef FUZZ_BASE
#define FUZZ_BASE "build/base.vmcore"
#endif

struct region {
	uint64_t off;                /* in the file */
	uint64_t len;
};

static struct {
	uint8_t *image;              /* the base file */
	size_t size;
	int fd, out_fd;
	char path[64];
	struct region *reg;
	size_t nr_reg;
	uint64_t hot;                /* bytes in all regions */
	int tracing;
	uint64_t *pages;             /* traced physical page numbers */
	size_t nr_pages, cap_pages;
} g;

int __real_vs_read_phys(struct vs_reader *r, uint64_t paddr, void *buf,
			size_t len, struct vs_error *err);
int __wrap_vs_read_phys(struct vs_reader *r, uint64_t paddr, void *buf,
			size_t len, struct vs_error *err);

int __wrap_vs_read_phys(struct vs_reader *r, uint64_t paddr, void *buf,
			size_t len, struct vs_error *err)
{
	if (g.tracing && len) {
		for (uint64_t p = paddr >> 12; p <= (paddr + len - 1) >> 12; p++) {
			if (g.nr_pages == g.cap_pages) {
				g.cap_pages = g.cap_pages ? 2 * g.cap_pages : 256;
				g.pages = realloc(g.pages, g.cap_pages * sizeof(*g.pages));
				if (!g.pages)
					fz_die("realloc");
			}
			g.pages[g.nr_pages++] = p;
		}
	}
	return __real_vs_read_phys(r, paddr, buf, len, err);
}

static void load_base(void)
{
	const char *path = getenv("VMSIFT_FUZZ_BASE");
	struct stat st;
	int fd;

	if (!path)
		path = FUZZ_BASE;
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0)
		fz_die(path);
	g.size = (size_t)st.st_size;
	g.image = malloc(g.size);
	if (!g.image || pread(fd, g.image, g.size, 0) != (ssize_t)g.size)
		fz_die("read base vmcore");
	close(fd);
	g.fd = fz_memfd("fuzz-base", g.image, g.size, g.path, sizeof(g.path));
	g.out_fd = fz_memfd("fuzz-out", NULL, 0, NULL, 0);
}

/* Run the filter at LEVEL over all of IN; 0, or -1 if it cannot start. */
static int filter_all(const struct vs_input *in, unsigned level)
{
	struct vs_filter *f = NULL;
	struct vs_reader r;
	struct vs_error err;
	struct vs_counts *cnt = calloc(1, sizeof(*cnt));
	const uint64_t chunk = 1u << 12;
	uint64_t n = (in->max_mapnr + chunk - 1) / chunk * chunk;
	uint64_t *bits = malloc(n / 8);
	int ret = -1;

	if (!cnt || !bits)
		fz_die("malloc");
	memset(bits, 0xff, n / 8);
	if (vs_filter_new(&f, in, level, &err) < 0 || !f)
		goto out;
	(void)strlen(vs_filter_doubts(f));
	if (vs_reader_init(&r, in, &err) < 0)
		goto out;
	for (uint64_t s = 0; s < n; s += chunk)
		vs_filter_chunk(f, &r, s, chunk, bits + s / 64, cnt, &err);
	vs_reader_fini(&r);
	ret = 0;
out:
	vs_filter_free(f);
	free(bits);
	free(cnt);
	return ret;
}

static void add_region(uint64_t off, uint64_t len)
{
	g.reg = realloc(g.reg, (g.nr_reg + 1) * sizeof(*g.reg));
	if (!g.reg)
		fz_die("realloc");
	g.reg[g.nr_reg].off = off;
	g.reg[g.nr_reg].len = len;
	g.nr_reg++;
	g.hot += len;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The file offset of physical page P, or -1 if the file lacks it. */
static int64_t page_offset(const struct vs_input *in, uint64_t p)
{
	uint64_t pa = p << 12;

	for (size_t i = 0; i < in->nr_phys; i++) {
		const struct vs_segment *s = &in->phys[i];

		if (pa >= s->paddr && pa + 4096 <= s->paddr + s->filesz)
			return (int64_t)(s->offset + (pa - s->paddr));
	}
	return -1;
}

static void find_hot(void)
{
	struct vs_input in;
	struct vs_error err;
	const uint8_t *vi;

	memset(&in, 0, sizeof(in));
	if (vs_input_open(&in, g.path, &err) < 0) {
		fprintf(stderr, "fuzz_filter: %s\n", err.msg);
		abort();
	}
	g.tracing = 1;
	if (filter_all(&in, 31) < 0)
		abort();
	g.tracing = 0;
	qsort(g.pages, g.nr_pages, sizeof(*g.pages), cmp_u64);
	for (size_t i = 0; i < g.nr_pages; i++) {
		int64_t off = page_offset(&in, g.pages[i]);

		if ((i == 0 || g.pages[i] != g.pages[i - 1]) && off >= 0)
			add_region((uint64_t)off, 4096);
	}
	vi = memmem(g.image, g.size, in.notes + in.vmcoreinfo_off,
		    in.vmcoreinfo_size);
	if (vi)
		add_region((uint64_t)(vi - g.image), in.vmcoreinfo_size);
	vs_input_close(&in);
	if (getenv("VMSIFT_FUZZ_VERBOSE"))
		fprintf(stderr, "fuzz_filter: %zu hot regions, %llu bytes\n",
			g.nr_reg, (unsigned long long)g.hot);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	load_base();
	find_hot();
	return 0;
}

/* Write (or, with RESTORE, put back) LEN bytes at hot offset POS. */
static void patch(uint64_t pos, const uint8_t *src, size_t len, int restore)
{
	size_t i = 0;

	while (len) {
		while (pos >= g.reg[i].len) {
			pos -= g.reg[i].len;
			i = (i + 1) % g.nr_reg;
		}
		uint64_t n = g.reg[i].len - pos < len ? g.reg[i].len - pos : len;
		uint64_t off = g.reg[i].off + pos;
		const uint8_t *from = restore ? g.image + off : src;

		if (pwrite(g.fd, from, n, (off_t)off) != (ssize_t)n)
			fz_die("pwrite");
		src += n;
		len -= n;
		pos = 0;
		i = (i + 1) % g.nr_reg;
	}
}

static void apply(const uint8_t *data, size_t size, int restore)
{
	size_t i = 1;

	while (i + 3 <= size) {
		uint64_t pos = fz_le(data + i, 2, 2) * 4 % g.hot;
		size_t len = data[i + 2];

		i += 3;
		if (len > size - i)
			len = size - i;
		patch(pos, data + i, len, restore);
		i += len;
	}
}

static void dump(unsigned level, int no_mmap)
{
	struct vmsift *vs = vmsift_new();
	struct vmsift_options o;

	if (!vs)
		fz_die("vmsift_new");
	vmsift_options_init(&o);
	o.dump_level = level;
	o.codec = VMSIFT_CODEC_NONE;
	o.threads = 1;
	o.no_mmap = no_mmap;
	fz_truncate(g.out_fd);
	if (vmsift_open(vs, g.path) == 0)
		vmsift_dump(vs, &o, g.out_fd, "fuzz-out");
	vmsift_free(vs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vs_input in;
	struct vs_error err;
	unsigned level;

	if (!g.image)
		LLVMFuzzerInitialize(NULL, NULL);
	if (size < 1)
		return 0;
	level = data[0] & 31;
	apply(data, size, 0);
	memset(&in, 0, sizeof(in));
	if (vs_input_open(&in, g.path, &err) == 0) {
		in.no_mmap = (data[0] >> 6) & 1;
		filter_all(&in, level);
	}
	vs_input_close(&in);
	if (data[0] & 0x20)
		dump(level, (data[0] >> 6) & 1);
	apply(data, size, 1);
	return 0;
}
