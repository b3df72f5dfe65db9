/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_roundtrip.c - a dump read back: the input is dumped through the
 * public API (vmsift_dump, kdump format, the codec and level chosen from
 * the input's size), then the input and the dump are both opened through
 * the read interface (lib/read.c, lib/pagecache.c) and compared page by
 * page.  A dump that vmsift wrote without failing must open, read whole,
 * and agree with its input: any difference aborts.  Then the ELF view
 * (lib/elf_view.c, vmsift mount's vmcore) of the dump reads whole in
 * reads of odd sizes, its every PT_LOAD's data the dump's pages; the
 * view of the (hostile) input is read whole too, where failures are
 * allowed but nothing else.
 * Input: the whole vmcore file (the elf target's corpus is a fit).
 */
#include <string.h>

#include "fuzz_common.h"
#include "vmsift.h"

/* As in fuzz_elf.c: a fuzzed PT_LOAD may claim terabytes. */
#define DUMP_MAX_PAGES 4096

static int out_fd = -1;

static void fail(const char *what, uint64_t pfn, const char *msg)
{
	fprintf(stderr, "roundtrip: %s at pfn 0x%llx: %s\n", what,
		(unsigned long long)pfn, msg);
	abort();
}

static int held(enum vmsift_page s)
{
	return s == VMSIFT_PAGE_ZERO || s == VMSIFT_PAGE_DATA;
}

static int is_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static int dump(const char *path, size_t size)
{
	static const enum vmsift_codec codecs[] = {
		VMSIFT_CODEC_NONE, VMSIFT_CODEC_ZLIB, VMSIFT_CODEC_LZO,
		VMSIFT_CODEC_SNAPPY, VMSIFT_CODEC_ZSTD,
	};
	struct vmsift *vs = vmsift_new();
	struct vmsift_options o;
	int rc = -1;

	if (!vs)
		return -1;
	vmsift_options_init(&o);
	o.codec = codecs[size % 5];
	o.dump_level = (size / 5) % 2;  /* 0, or 1: zero pages excluded */
	o.threads = 1;
	fz_truncate(out_fd);
	if (vmsift_open(vs, path) == 0)
		rc = vmsift_dump(vs, &o, out_fd, "fuzz-out");
	vmsift_free(vs);
	return rc;
}

/* Page PFN of the input (A, state SA) against the dump's (B, SB). */
static void compare(uint64_t pfn, const uint8_t *a, enum vmsift_page sa,
		    const uint8_t *b, enum vmsift_page sb, size_t ps)
{
	if (held(sb) && (!held(sa) || memcmp(a, b, ps)))
		fail("a page of the dump differs from its input", pfn, "");
	if (!held(sb) && !is_zero(a, ps))
		fail("the dump left out a page with data", pfn, "");
	if ((sa == VMSIFT_PAGE_NOT_PRESENT) != (sb == VMSIFT_PAGE_NOT_PRESENT))
		fail("present in one, not in the other", pfn, "");
}

static uint64_t get(const uint8_t *p, unsigned n, int swap)
{
	uint64_t v = 0;

	memcpy(&v, p, n);  /* little-endian host (the fuzzers run on x86_64) */
	if (swap)
		v = n == 8 ? __builtin_bswap64(v) : n == 4 ?
		    __builtin_bswap32((uint32_t)v) : __builtin_bswap16((uint16_t)v);
	return v;
}

/* The whole view of DF into a buffer, read in pieces of odd sizes; NULL
 * (and *SIZE the bytes read) when a read fails and MUST_READ is 0. */
static uint8_t *read_view(struct vmsift_dumpfile *df, int must_read,
			  uint64_t *size)
{
	struct vmsift_elfview *v;
	struct vmsift_reader *r;
	uint8_t *buf = NULL;
	uint64_t off = 0, n;
	size_t got;

	if (vmsift_elfview_new(df, &v) < 0) {
		if (must_read)
			fail("no ELF view of the dump", 0, vmsift_dumpfile_error(df));
		return NULL;
	}
	n = vmsift_elfview_size(v);
	r = vmsift_reader_new(df);
	buf = n < (64u << 20) ? malloc(n + 1) : NULL;
	while (r && buf && off < n) {
		size_t len = 1 + (size_t)((off * 7919) % 9000);

		if (vmsift_elfview_read(r, v, off, buf + off, len, &got) < 0) {
			if (must_read)
				fail("the ELF view does not read", off,
				     vmsift_reader_error(r));
			break;
		}
		if (got == 0 || got > len || off + got > n)
			fail("the ELF view read a wrong length", off, "");
		off += got;
	}
	*size = off;
	vmsift_reader_free(r);
	vmsift_elfview_free(v);
	return buf;
}

/* Every PT_LOAD of the view of OUT holds OUT's pages (RO reads them). */
static void check_view(struct vmsift_dumpfile *out, struct vmsift_reader *ro)
{
	size_t ps = vmsift_dumpfile_page_size(out);
	uint64_t size = 0;
	uint8_t *f = read_view(out, 1, &size), *page = malloc(ps);
	enum vmsift_page st;
	int swap;

	if (!f || !page || size < 64 || memcmp(f, "\177ELF", 4))
		fail("the ELF view is not an ELF file", size, "");
	swap = f[5] == 2;
	for (uint64_t i = 1; i < get(f + 56, 2, swap); i++) {
		const uint8_t *ph = f + 64 + 56 * i;
		uint64_t off = get(ph + 8, 8, swap), pa = get(ph + 24, 8, swap);
		uint64_t filesz = get(ph + 32, 8, swap);

		if (64 + 56 * (i + 1) > size)
			fail("the program headers end past the view", i, "");
		if (off + filesz > size)
			fail("a PT_LOAD ends past the view", pa, "");
		for (uint64_t at = 0; at < filesz; at++) {
			uint64_t a = pa + at;

			if ((at == 0 || a % ps == 0) &&
			    vmsift_read_pfn(ro, a / ps, page, &st) < 0)
				fail("the dump does not read", a / ps, "");
			if (f[off + at] != page[a % ps])
				fail("the ELF view differs from the dump", a / ps, "");
		}
	}
	free(page);
	free(f);
}

static void read_back(struct vmsift_dumpfile *in)
{
	char path[64];
	struct vmsift_dumpfile *out = vmsift_dumpfile_new();
	struct vmsift_reader *ri = vmsift_reader_new(in), *ro;
	size_t ps = vmsift_dumpfile_page_size(in);
	uint8_t *a = malloc(2 * ps), *b = a + ps;
	enum vmsift_page sa, sb;
	uint64_t max;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", out_fd);
	if (!out || !ri || !a)
		fz_die("out of memory");
	vmsift_dumpfile_set_cache(out, 4 * ps);
	if (vmsift_dumpfile_open(out, path) < 0)
		fail("the dump does not open", 0, vmsift_dumpfile_error(out));
	ro = vmsift_reader_new(out);
	max = vmsift_dumpfile_max_pfn(out);
	if (!ro || vmsift_dumpfile_page_size(out) != ps ||
	    max > vmsift_dumpfile_max_pfn(in))
		fail("the dump's geometry is not its input's", max, "");
	for (uint64_t pfn = 0; pfn < max; pfn++) {
		if (vmsift_read_pfn(ro, pfn, b, &sb) < 0)
			fail("the dump does not read", pfn,
			     vmsift_reader_error(ro));
		/* The input may be damaged where the dump did not look. */
		if (vmsift_read_pfn(ri, pfn, a, &sa) == 0)
			compare(pfn, a, sa, b, sb, ps);
	}
	check_view(out, ro);
	vmsift_reader_free(ro);
	vmsift_reader_free(ri);
	vmsift_dumpfile_free(out);
	free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = fz_memfd("fuzz-roundtrip", data, size, path, sizeof(path));
	struct vmsift_dumpfile *in = vmsift_dumpfile_new();

	if (out_fd < 0)
		out_fd = fz_memfd("fuzz-out", NULL, 0, NULL, 0);
	uint64_t n;

	if (in && vmsift_dumpfile_open(in, path) == 0 &&
	    vmsift_dumpfile_max_pfn(in) <= DUMP_MAX_PAGES) {
		free(read_view(in, 0, &n));
		if (dump(path, size) == 0)
			read_back(in);
	}
	vmsift_dumpfile_free(in);
	close(fd);
	return 0;
}
