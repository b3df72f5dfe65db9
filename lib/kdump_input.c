/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kdump_input.c - a kdump-compressed file as input, for re-filtering
 * (writing it again at a higher dump level or with another codec).
 *
 * At open: the header and sub header are checked against the file, the
 * notes and VMCOREINFO taken from it, bitmap 1 turned into the physical
 * segments every other part of the library reads through, and bitmap 2
 * counted once into a rank table (set bits before every 4096th pfn) so
 * that a page's descriptor is found by counting at most 4095 bits.
 * Pages are then read through the reader's windows: one over bitmap 2,
 * one over the descriptors, one over the data, each decompressed into
 * the reader's bounce page.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "bitops.h"
#include "codec.h"
#include "format.h"
#include "kdump_format.h"
#include "util.h"

#define RANK_SHIFT 12
#define RANK_PFNS (1ULL << RANK_SHIFT)
#define STREAM_BUF (1u << 20)

/* What a kdump-compressed input adds to struct vs_input (in->priv). */
struct kdump_input {
	uint64_t block_size;
	uint64_t bitmap1_off, bitmap2_off, bitmap_len;
	uint64_t desc_off;
	uint64_t *rank;              /* bitmap2 bits set before pfn i << 12 */
	uint64_t nr_dumpable;
	uint64_t desc_base;          /* a split file: set bits below start_pfn */
	unsigned header_cpus;        /* nr_cpus of the header */
};

/* The ELF machine of the header's utsname.machine; without one (a dump
 * written without the kernel's utsname), the byte order's usual machine:
 * s390x for big-endian, x86_64 for little. */
static uint16_t machine_of(const char *uts_machine, int big_endian)
{
	static const struct { const char *name; uint16_t em; } map[] = {
		{ "x86_64", EM_X86_64 }, { "aarch64", EM_AARCH64 },
		{ "arm64", EM_AARCH64 }, { "ppc64le", EM_PPC64 },
		{ "ppc64", EM_PPC64 }, { "s390x", EM_S390 },
		{ "riscv64", EM_RISCV },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(uts_machine, map[i].name))
			return map[i].em;
	return big_endian ? EM_S390 : EM_X86_64;
}

static int check_header(struct vs_input *in, const struct kdump_header *h,
			struct vs_error *err)
{
	int64_t bs = h->block_size;

	if (h->header_version < 1)
		return vs_err(err, "kdump header version %d at offset 0x8 is "
			      "not supported", h->header_version);
	if (bs < 512 || bs > (1 << 20) || (bs & (bs - 1)))
		return vs_err(err, "kdump block size %lld at offset 0x1ac is "
			      "not a power of two between 512 and 1 MiB",
			      (long long)bs);
	if (h->sub_hdr_size < 1 ||
	    (uint64_t)h->sub_hdr_size * (uint64_t)bs > in->file.size)
		return vs_err(err, "kdump sub header size %d blocks at offset "
			      "0x1b0 does not fit in the file",
			      h->sub_hdr_size);
	if (h->bitmap_blocks == 0 ||
	    (1 + (uint64_t)h->sub_hdr_size + h->bitmap_blocks) * (uint64_t)bs >
	    in->file.size)
		return vs_err(err, "kdump bitmaps (%u blocks at offset 0x1b4) "
			      "run past the end of the file (0x%llx)",
			      h->bitmap_blocks,
			      (unsigned long long)in->file.size);
	return 0;
}

static int check_notes(struct vs_input *in, const struct kdump_sub_header *sh,
		       struct vs_error *err)
{
	if (sh->size_note == 0)
		return 0;
	if (sh->offset_note > in->file.size ||
	    sh->size_note > in->file.size - sh->offset_note ||
	    sh->size_note > (64u << 20))
		return vs_err(err, "notes 0x%llx+0x%llx (sub header offset "
			      "0x30) run past the end of the file (0x%llx)",
			      (unsigned long long)sh->offset_note,
			      (unsigned long long)sh->size_note,
			      (unsigned long long)in->file.size);
	in->notes = malloc(sh->size_note + 1);
	if (!in->notes)
		return vs_err_oom(err, "out of memory");
	in->notes_size = sh->size_note;
	return vs_file_read_at(&in->file, in->notes, sh->size_note, sh->offset_note, "notes",
		       err);
}

static int read_headers(struct vs_input *in, struct vs_error *err)
{
	struct kdump_header h;
	struct kdump_sub_header sh = { 0 };
	struct kdump_input *kd = in->priv;
	uint64_t mapnr_bytes;

	int be;

	if (vs_file_read_at(&in->file, &h, sizeof(h), 0, "kdump header", err) < 0)
		return -1;
	be = kdump_header_big_endian(&h);
	if (be < 0)
		return vs_err(err, "kdump header version at offset 0x8 is no "
			      "small positive number in either byte order");
	vs_machine_set(&in->order, 0, be, 8);
	kdump_header_order(&in->order, &h);
	if (check_header(in, &h, err) < 0)
		return -1;
	kd->block_size = (uint64_t)h.block_size;
	in->prev.known = 1;
	in->prev.tv_sec = h.tv_sec;
	in->prev.status = h.status;
	memcpy(in->prev.utsname, &h.utsname, sizeof(in->prev.utsname));
	kd->header_cpus = h.nr_cpus > 0 ? (unsigned)h.nr_cpus : 0;
	in->page_size = kd->block_size;
	in->page_shift = (unsigned)__builtin_ctzll(in->page_size);
	in->elf_machine = machine_of(h.utsname.machine, in->order.big_endian);
	if (vs_file_read_at(&in->file, &sh, sizeof(sh), kd->block_size, "kdump sub header",
		    err) < 0)
		return -1;
	kdump_sub_header_order(&in->order, &sh);
	in->prev.phys_base = sh.phys_base;
	in->prev.dump_level = sh.dump_level;
	in->max_mapnr = h.header_version >= 6 && sh.max_mapnr_64 ?
			sh.max_mapnr_64 : h.max_mapnr;
	in->prev.split = sh.split != 0;
	in->prev.start_pfn = sh.start_pfn_64;
	in->prev.end_pfn = sh.end_pfn_64;
	if (sh.split && !in->allow_split)
		return vs_err(err, "this is one file of a split set (pfns "
			      "0x%llx-0x%llx); reassemble the set first",
			      (unsigned long long)sh.start_pfn_64,
			      (unsigned long long)sh.end_pfn_64);
	if (sh.split && (sh.start_pfn_64 > sh.end_pfn_64 ||
			 sh.end_pfn_64 > in->max_mapnr))
		return vs_err(err, "split file range 0x%llx-0x%llx (sub header "
			      "offset 0x50) is not inside max_mapnr 0x%llx",
			      (unsigned long long)sh.start_pfn_64,
			      (unsigned long long)sh.end_pfn_64,
			      (unsigned long long)in->max_mapnr);
	mapnr_bytes = vs_round_up(vs_div_round_up(in->max_mapnr, 8),
				  kd->block_size);
	kd->bitmap1_off = (1 + (uint64_t)h.sub_hdr_size) * kd->block_size;
	kd->bitmap_len = (uint64_t)h.bitmap_blocks * kd->block_size / 2;
	if (kd->bitmap_len < mapnr_bytes)
		return vs_err(err, "kdump bitmaps of %u blocks (offset 0x1b4) "
			      "cannot hold max_mapnr 0x%llx",
			      h.bitmap_blocks,
			      (unsigned long long)in->max_mapnr);
	kd->bitmap2_off = kd->bitmap1_off + kd->bitmap_len;
	kd->desc_off = kd->bitmap2_off + kd->bitmap_len;
	return check_notes(in, &sh, err);
}

/* Stream bitmap OFF in STREAM_BUF pieces, calling FN on each. */
typedef int bitmap_piece_fn(struct vs_input *in, void *arg,
			    const uint8_t *buf, uint64_t byte0, size_t n,
			    struct vs_error *err);

static int stream_bitmap(struct vs_input *in, uint64_t off,
			 bitmap_piece_fn *fn, void *arg, struct vs_error *err)
{
	uint64_t len = vs_div_round_up(in->max_mapnr, 8);
	uint8_t *buf = malloc(STREAM_BUF);
	int ret = 0;

	if (!buf)
		return vs_err_oom(err, "out of memory");
	for (uint64_t done = 0; done < len && ret == 0;) {
		size_t n = len - done < STREAM_BUF ? (size_t)(len - done) : STREAM_BUF;

		ret = vs_file_read_at(&in->file, buf, n, off + done, "bitmap", err);
		if (ret == 0)
			ret = fn(in, arg, buf, done, n, err);
		done += n;
	}
	free(buf);
	return ret;
}

static int add_run(struct vs_input *in, uint64_t start, uint64_t end,
		   size_t *cap, struct vs_error *err)
{
	struct vs_segment *s;

	if (in->nr_phys == *cap) {
		size_t ncap = *cap ? 2 * *cap : 64;
		struct vs_segment *p = realloc(in->phys, ncap * sizeof(*p));

		if (!p)
			return vs_err_oom(err, "out of memory");
		in->phys = p;
		*cap = ncap;
	}
	s = &in->phys[in->nr_phys++];
	memset(s, 0, sizeof(*s));
	s->paddr = start << in->page_shift;
	s->memsz = s->filesz = (end - start) << in->page_shift;
	return 0;
}

struct run_state {
	uint64_t start;              /* of the open run, or UINT64_MAX */
	size_t cap;
};

/* Bitmap 1 into runs of present pfns: the input's physical segments. */
static int bitmap1_piece(struct vs_input *in, void *arg, const uint8_t *buf,
			 uint64_t byte0, size_t n, struct vs_error *err)
{
	struct run_state *rs = arg;

	for (size_t i = 0; i < n; i++) {
		/* A byte that neither ends nor starts a run: a hole, or the
		 * middle of memory (pfns past max_mapnr are in the last
		 * byte only, which is looked at bit by bit). */
		uint8_t same = rs->start == UINT64_MAX ? 0 : 0xff;
		uint64_t word;

		if (i % 8 == 0 && i + 8 <= n &&
		    (byte0 + i + 8) * 8 <= in->max_mapnr) {
			memcpy(&word, buf + i, 8);
			if (word == (same ? UINT64_MAX : 0)) {
				i += 7;
				continue;
			}
		}
		if (buf[i] == same && (byte0 + i + 1) * 8 <= in->max_mapnr)
			continue;
		for (unsigned b = 0; b < 8; b++) {
			uint64_t pfn = (byte0 + i) * 8 + b;
			int set = (buf[i] >> b) & 1 && pfn < in->max_mapnr;

			if (set && rs->start == UINT64_MAX)
				rs->start = pfn;
			if (!set && rs->start != UINT64_MAX) {
				if (add_run(in, rs->start, pfn, &rs->cap, err) < 0)
					return -1;
				rs->start = UINT64_MAX;
			}
		}
	}
	return 0;
}

static int build_segments(struct vs_input *in, struct vs_error *err)
{
	const struct kdump_input *kd = in->priv;
	struct run_state rs = { UINT64_MAX, 0 };
	int ret;

	ret = stream_bitmap(in, kd->bitmap1_off, bitmap1_piece, &rs, err);
	if (ret == 0 && rs.start != UINT64_MAX)
		ret = add_run(in, rs.start, in->max_mapnr, &rs.cap, err);
	if (ret < 0)
		return -1;
	if (in->nr_phys == 0)
		return vs_err(err, "bitmap 1 at offset 0x%llx marks no page "
			      "present", (unsigned long long)kd->bitmap1_off);
	in->loads = malloc(in->nr_phys * sizeof(*in->loads));
	if (!in->loads)
		return vs_err_oom(err, "out of memory");
	memcpy(in->loads, in->phys, in->nr_phys * sizeof(*in->loads));
	in->nr_loads = in->nr_phys;
	return 0;
}

static int bitmap2_piece(struct vs_input *in, void *arg, const uint8_t *buf,
			 uint64_t byte0, size_t n, struct vs_error *err)
{
	const uint64_t bytes_per_rank = RANK_PFNS / 8;
	struct kdump_input *kd = in->priv;

	(void)arg;
	(void)err;
	for (size_t i = 0; i < n; i++) {
		uint64_t byte = byte0 + i, word;

		if (byte % bytes_per_rank == 0)
			kd->rank[byte / bytes_per_rank] = kd->nr_dumpable;
		/* Eight bytes at once (a rank is a multiple of them): a
		 * hole costs its words. */
		if (byte % 8 == 0 && i + 8 <= n) {
			memcpy(&word, buf + i, 8);
			kd->nr_dumpable += (uint64_t)__builtin_popcountll(word);
			i += 7;
			continue;
		}
		kd->nr_dumpable += (uint64_t)__builtin_popcount(buf[i]);
	}
	return 0;
}

/* *N = the set bits of bitmap 2 below PFN (PFN <= max_mapnr). */
static int rank_of(const struct vs_input *in, uint64_t pfn, uint64_t *n,
		   struct vs_error *err)
{
	const struct kdump_input *kd = in->priv;
	uint8_t buf[RANK_PFNS / 8];
	uint64_t base = pfn & ~(RANK_PFNS - 1);
	size_t len = (size_t)(pfn - base + 7) / 8;

	if (pfn >= in->max_mapnr) {
		*n = kd->nr_dumpable;
		return 0;
	}
	*n = kd->rank[pfn >> RANK_SHIFT];
	if (vs_file_read_at(&in->file, buf, len, kd->bitmap2_off + base / 8,
			    "bitmap 2", err) < 0)
		return -1;
	for (size_t i = 0; i < len; i++) {
		uint8_t byte = buf[i];

		if (base + 8 * i + 8 > pfn)
			byte &= (uint8_t)((1u << (pfn % 8)) - 1);
		*n += (uint64_t)__builtin_popcount(byte);
	}
	return 0;
}

/* How many descriptors the file holds: a split file, those of its range. */
static int count_descs(struct vs_input *in, uint64_t *n, struct vs_error *err)
{
	struct kdump_input *kd = in->priv;
	uint64_t end;

	*n = kd->nr_dumpable;
	if (!in->prev.split)
		return 0;
	if (rank_of(in, in->prev.start_pfn, &kd->desc_base, err) < 0 ||
	    rank_of(in, in->prev.end_pfn, &end, err) < 0)
		return -1;
	*n = end - kd->desc_base;
	return 0;
}

static int build_rank(struct vs_input *in, struct vs_error *err)
{
	struct kdump_input *kd = in->priv;
	uint64_t nr = vs_div_round_up(in->max_mapnr, RANK_PFNS) + 1, ndesc;

	kd->rank = calloc(nr, sizeof(*kd->rank));
	if (!kd->rank)
		return vs_err_oom(err, "out of memory");
	if (stream_bitmap(in, kd->bitmap2_off, bitmap2_piece, NULL, err) < 0 ||
	    count_descs(in, &ndesc, err) < 0)
		return -1;
	if (kd->desc_off + ndesc * sizeof(struct kdump_page_desc) >
	    in->file.size)
		return vs_err(err, "0x%llx page descriptors at offset 0x%llx "
			      "run past the end of the file (0x%llx)",
			      (unsigned long long)ndesc,
			      (unsigned long long)kd->desc_off,
			      (unsigned long long)in->file.size);
	return 0;
}

static int kdump_open(struct vs_input *in, struct vs_error *err)
{
	in->priv = calloc(1, sizeof(struct kdump_input));
	if (!in->priv)
		return vs_err_oom(err, "out of memory");
	in->fixed_page_size = 1;
	in->no_elf_loads = 1;
	if (read_headers(in, err) < 0 || vs_input_scan_notes(in, err) < 0 ||
	    build_segments(in, err) < 0 || build_rank(in, err) < 0 ||
	    vs_input_load_vmcoreinfo_note(in, err) < 0)
		return vs_err_ctx(err, "cannot read kdump-compressed '%s'",
				  in->file.name);
	/* The notes count the CPUs; the header's count is for a dump
	 * without them. */
	if (!in->nr_cpus)
		in->nr_cpus = ((const struct kdump_input *)in->priv)->header_cpus;
	return 0;
}

static void kdump_close(struct vs_input *in)
{
	struct kdump_input *kd = in->priv;

	if (kd)
		free(kd->rank);
	free(kd);
	in->priv = NULL;
}
/* ---- pages ------------------------------------------------------------ */

static int bitmap2_test(struct vs_reader *r, uint64_t pfn, int *set,
			struct vs_error *err)
{
	const struct kdump_input *kd = r->in->priv;
	const uint8_t *p;

	p = vs_view_get(&r->view, VS_WIN_BITMAP, kd->bitmap2_off + pfn / 8, 1,
			  kd->bitmap2_off + kd->bitmap_len, err);
	if (!p)
		return -1;
	*set = (*p >> (pfn % 8)) & 1;
	return 0;
}

/* The index of PFN's descriptor: set bits of bitmap 2 below it. */
static int desc_index(struct vs_reader *r, uint64_t pfn, uint64_t *index,
		      struct vs_error *err)
{
	const struct kdump_input *kd = r->in->priv;
	uint64_t base = pfn & ~(RANK_PFNS - 1);
	uint64_t n = kd->rank[pfn >> RANK_SHIFT];
	const uint8_t *p;

	p = vs_view_get(&r->view, VS_WIN_BITMAP, kd->bitmap2_off + base / 8,
			  RANK_PFNS / 8, kd->bitmap2_off + kd->bitmap_len, err);
	if (!p)
		return -1;
	for (uint64_t i = 0; i < (pfn - base) / 8; i++)
		n += (uint64_t)__builtin_popcount(p[i]);
	n += (uint64_t)__builtin_popcount(p[(pfn - base) / 8] &
					  ((1u << (pfn % 8)) - 1));
	*index = n - kd->desc_base;
	return 0;
}

static int read_desc(struct vs_reader *r, uint64_t pfn,
		     struct kdump_page_desc *pd, struct vs_error *err)
{
	const struct kdump_input *kd = r->in->priv;
	uint64_t index, off;

	if (desc_index(r, pfn, &index, err) < 0)
		return -1;
	off = kd->desc_off + index * sizeof(*pd);
	/* Through the small-read blocks: the page tables a translation
	 * reads have their descriptors all over the table. */
	if (vs_view_read_small(&r->view, pd, sizeof(*pd), off, err) < 0)
		return -1;
	kdump_page_desc_order(&r->in->order, pd);
	return 0;
}

static int check_desc(const struct vs_reader *r,
		      const struct kdump_page_desc *pd, struct vs_error *err)
{
	const struct vs_input *in = r->in;

	if (pd->offset == 0)
		return vs_err(err, "lost: the input dump is incomplete");
	if (pd->size == 0 || pd->size > in->page_size || pd->offset < 0 ||
	    (uint64_t)pd->offset > in->file.size ||
	    pd->size > in->file.size - (uint64_t)pd->offset)
		return vs_err(err, "page descriptor (offset 0x%llx, size 0x%x) "
			      "points outside the file (0x%llx)",
			      (unsigned long long)pd->offset, pd->size,
			      (unsigned long long)in->file.size);
	if (pd->flags && !vs_codec_by_flag(pd->flags))
		return vs_err(err, "unknown compression flags 0x%x in its page "
			      "descriptor", pd->flags);
	if (!pd->flags && pd->size != in->page_size)
		return vs_err(err, "raw page of 0x%x bytes, the page size is "
			      "0x%llx", pd->size, (unsigned long long)in->page_size);
	return 0;
}

static int decompress(struct vs_reader *r, const struct kdump_page_desc *pd,
		      const uint8_t *data, struct vs_error *err)
{
	const struct vs_codec_ops *c = vs_codec_by_flag(pd->flags);
	int ret = vs_codec_decompress(&r->dctx, c, data, pd->size, r->bounce,
				      r->in->page_size);

	if (ret == -2)
		return vs_err_oom(err, "out of memory for a %s decompressor",
			      c->name);
	if (ret < 0)
		return vs_err(err, "%s data at offset 0x%llx (0x%x bytes) does "
			      "not decompress to a page", c->name,
			      (unsigned long long)pd->offset, pd->size);
	return 0;
}

/* Compressed pages under this many bytes are read through the view's
 * small-read blocks. */
#define KDUMP_SMALL_DATA 512

/* PD's data: a small compressed page (a page table, mostly zeros, read
 * again at each translation through it) copied through the small-read
 * blocks into SMALL (KDUMP_SMALL_DATA bytes), the rest in place through
 * the data window. */
static const uint8_t *page_data(struct vs_reader *r,
				const struct kdump_page_desc *pd,
				uint8_t *small, struct vs_error *err)
{
	if (pd->flags && pd->size < KDUMP_SMALL_DATA)
		return vs_view_read_small(&r->view, small, pd->size,
					  (uint64_t)pd->offset, err) < 0 ?
		       NULL : small;
	return vs_view_get(&r->view, VS_WIN_DATA, (uint64_t)pd->offset,
			   pd->size, r->in->file.size, err);
}

static int kdump_read_page(struct vs_reader *r, uint64_t pfn,
			   const uint8_t **page, struct vs_error *err)
{
	const struct vs_input *in = r->in;
	uint8_t small[KDUMP_SMALL_DATA];
	struct kdump_page_desc pd;
	const uint8_t *data;
	int set;

	if (pfn >= in->max_mapnr)
		return vs_err(err, "pfn 0x%llx is beyond the dump's max_mapnr "
			      "0x%llx", (unsigned long long)pfn,
			      (unsigned long long)in->max_mapnr);
	if (in->prev.split &&
	    (pfn < in->prev.start_pfn || pfn >= in->prev.end_pfn))
		return vs_err(err, "pfn 0x%llx is not in this file of the "
			      "split set (0x%llx-0x%llx)",
			      (unsigned long long)pfn,
			      (unsigned long long)in->prev.start_pfn,
			      (unsigned long long)in->prev.end_pfn);
	if (bitmap2_test(r, pfn, &set, err) < 0)
		return -1;
	if (!set)
		return vs_err(err, "not in the dump");
	if (read_desc(r, pfn, &pd, err) < 0 || check_desc(r, &pd, err) < 0)
		return -1;
	data = page_data(r, &pd, small, err);
	if (!data)
		return -1;
	if (!pd.flags) {
		*page = data;
		return 0;
	}
	*page = r->bounce;
	return decompress(r, &pd, data, err);
}

static int kdump_data_bits(struct vs_reader *r, uint64_t start, uint64_t n,
			   uint64_t *bits, struct vs_error *err)
{
	const struct kdump_input *kd = r->in->priv;
	uint64_t end = start + n;
	const uint8_t *p;

	memset(bits, 0, n / 8);
	if (start >= r->in->max_mapnr)
		return 0;
	if (end > r->in->max_mapnr)
		end = vs_round_up(r->in->max_mapnr, 8);
	p = vs_view_get(&r->view, VS_WIN_BITMAP, kd->bitmap2_off + start / 8,
			  (end - start) / 8, kd->bitmap2_off + kd->bitmap_len,
			  err);
	if (!p)
		return -1;
	memcpy(bits, p, (end - start) / 8);
	vs_bits_le(bits, n / 64);
	return 0;
}

static int kdump_probe(const uint8_t *head, size_t len)
{
	return len >= KDUMP_SIG_LEN && !memcmp(head, KDUMP_SIGNATURE, KDUMP_SIG_LEN);
}

const struct vs_format_ops vs_format_kdump = {
	.name = "kdump-compressed",
	.probe = kdump_probe,
	.open = kdump_open,
	.close = kdump_close,
	.read_page = kdump_read_page,
	.data_bits = kdump_data_bits,
};
