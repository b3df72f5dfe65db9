/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * read.c - the read interface of vmsift.h: struct vmsift_dumpfile (one
 * opened dump, shared by threads) and struct vmsift_reader (one thread's
 * reads of it), for programs that look into a dump rather than write it.
 *
 * A dumpfile is a plain input (input.c: ELF, kdump, flattened) or a split
 * set (split_input.c), the kernel's address translation (arch.c) when the
 * dump has what it needs, and the page cache (pagecache.c).  All of that
 * is read-only once opened but the cache, which locks itself; a reader
 * has its own vs_reader (windows, bounce page, decompression) and error,
 * so readers never share mutable state but through the cache.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "error.h"
#include "input.h"
#include "pagecache.h"
#include "read_int.h"
#include "split_input.h"

#define DEFAULT_CACHE (4u << 20)

struct vmsift_dumpfile {
	struct vs_error err;
	int opened;
	size_t cache_bytes;
	struct vs_input single;      /* a plain input ... */
	struct vs_split split;       /* ... or a split set (split.n > 0) */
	const struct vs_input *in;   /* what readers read: one of the two */
	struct vs_pagecache *cache;
	struct vs_arch *arch;        /* NULL: arch_err says why */
	struct vs_error arch_err;
	struct vs_age_ids ids;       /* for an encrypted dump */
};

struct vmsift_reader {
	struct vmsift_dumpfile *df;
	struct vs_reader r;
	struct vs_error err;
	uint8_t *page;               /* one page, for partial reads */
};

static int check_unopened(struct vmsift_dumpfile *df);

struct vmsift_dumpfile *vmsift_dumpfile_new(void)
{
	struct vmsift_dumpfile *df = calloc(1, sizeof(*df));

	if (df) {
		df->single.file.fd = -1;
		df->cache_bytes = DEFAULT_CACHE;
	}
	return df;
}

void vmsift_dumpfile_free(struct vmsift_dumpfile *df)
{
	if (!df)
		return;
	vs_arch_free(df->arch);
	vs_pagecache_free(df->cache);
	vs_split_close(&df->split);
	vs_input_close(&df->single);
	vs_age_ids_free(&df->ids);
	free(df);
}

int vmsift_dumpfile_set_identity(struct vmsift_dumpfile *df, const char *path)
{
	if (check_unopened(df) < 0)
		return -1;
	vs_age_ids_free(&df->ids);
	return vs_age_ids_load(&df->ids, path, &df->err);
}

const char *vmsift_dumpfile_error(const struct vmsift_dumpfile *df)
{
	return df->err.msg;
}

enum vmsift_status vmsift_dumpfile_status(const struct vmsift_dumpfile *df)
{
	return df->err.status;
}

int vmsift_dumpfile_set_cache(struct vmsift_dumpfile *df, size_t bytes)
{
	vs_err_clear(&df->err);
	if (df->opened)
		return vs_err_st(&df->err, VMSIFT_E_INVALID, "the cache size "
				 "is set before the dump is opened");
	df->cache_bytes = bytes;
	return 0;
}

/* What every open does once the input is there: the cache, and the
 * translation when the dump allows it (its absence fails only
 * vmsift_read_kvirt). */
static int finish_open(struct vmsift_dumpfile *df, const struct vs_input *in)
{
	df->in = in;
	df->cache = vs_pagecache_new(in->page_size,
				     df->cache_bytes / in->page_size);
	if (!df->cache)
		return vs_err_oom(&df->err, "out of memory for a cache of "
				  "%zu bytes", df->cache_bytes);
	if (!in->vi)
		vs_err_st(&df->arch_err, VMSIFT_E_UNSUPPORTED, "the dump has "
			  "no VMCOREINFO to translate addresses with");
	else if (vs_arch_new(&df->arch, in, &df->arch_err) < 0)
		vs_err_set_status(&df->arch_err, VMSIFT_E_UNSUPPORTED);
	df->opened = 1;
	return 0;
}

static int check_unopened(struct vmsift_dumpfile *df)
{
	vs_err_clear(&df->err);
	if (df->opened || df->in)
		return vs_err_st(&df->err, VMSIFT_E_INVALID,
				 "a dump is open already");
	return 0;
}

/* The rest of opening SINGLE, once its file opened (RC 0) or not. */
static int open_single(struct vmsift_dumpfile *df, int rc)
{
	struct vs_input *in = &df->single;

	if (rc < 0) {
		vs_input_close(in);
		return -1;
	}
	in->no_mmap = in->file.is_flat;
	/* Reads come in any order: no read-ahead past what is asked. */
	posix_fadvise(in->file.fd, 0, 0, POSIX_FADV_RANDOM);
	return finish_open(df, in);
}

int vmsift_dumpfile_open(struct vmsift_dumpfile *df, const char *path)
{
	if (check_unopened(df) < 0)
		return -1;
	df->single.ids = &df->ids;
	return open_single(df, vs_input_open(&df->single, path, &df->err));
}

int vmsift_dumpfile_open_fd(struct vmsift_dumpfile *df, int fd,
			    const char *name)
{
	if (check_unopened(df) < 0)
		return -1;
	if (fd < 0)
		return vs_err_st(&df->err, VMSIFT_E_INVALID, "'%s': file "
				 "descriptor %d", name, fd);
	df->single.ids = &df->ids;
	return open_single(df, vs_input_open_fd(&df->single, fd, name,
						&df->err));
}

int vmsift_dumpfile_open_split(struct vmsift_dumpfile *df, const int *fds,
			       const char *const *names, unsigned n)
{
	if (check_unopened(df) < 0)
		return -1;
	if (vs_split_open(&df->split, fds, names, n, &df->ids, &df->err) < 0) {
		vs_split_close(&df->split);
		return vs_err_ctx(&df->err, "cannot open the split set of "
				  "'%s'", n ? names[0] : "");
	}
	return finish_open(df, &df->split.parts[0]);
}

void vmsift_dumpfile_cache_counts(struct vmsift_dumpfile *df, uint64_t *hits,
				  uint64_t *misses)
{
	*hits = *misses = 0;
	if (df->cache)
		vs_pagecache_counts(df->cache, hits, misses);
}

uint64_t vmsift_dumpfile_page_size(const struct vmsift_dumpfile *df)
{
	return df->in ? df->in->page_size : 0;
}

uint64_t vmsift_dumpfile_max_pfn(const struct vmsift_dumpfile *df)
{
	return df->in ? df->in->max_mapnr : 0;
}

const char *vmsift_dumpfile_vmcoreinfo(const struct vmsift_dumpfile *df,
				       size_t *len)
{
	const struct vs_input *in = df->in;

	if (!in || !in->has_vmcoreinfo_note) {
		*len = 0;
		return NULL;
	}
	*len = in->vmcoreinfo_size;
	return (const char *)in->notes + in->vmcoreinfo_off;
}

struct vmsift_reader *vmsift_reader_new(struct vmsift_dumpfile *df)
{
	struct vmsift_reader *rd;

	if (!df->opened)
		return NULL;
	rd = calloc(1, sizeof(*rd));
	if (!rd)
		return NULL;
	rd->df = df;
	rd->page = malloc(df->in->page_size);
	if (!rd->page || vs_reader_init(&rd->r, df->in, &rd->err) < 0) {
		free(rd->page);
		free(rd);
		return NULL;
	}
	return rd;
}

void vmsift_reader_free(struct vmsift_reader *rd)
{
	if (!rd)
		return;
	vs_reader_fini(&rd->r);
	free(rd->page);
	free(rd);
}

const char *vmsift_reader_error(const struct vmsift_reader *rd)
{
	return rd->err.msg;
}

enum vmsift_status vmsift_reader_status(const struct vmsift_reader *rd)
{
	return rd->err.status;
}

static int all_zero(const uint8_t *p, size_t len)
{
	return p[0] == 0 && !memcmp(p, p + 1, len - 1);
}

/* Whether the dump holds PFN: NOT_PRESENT, EXCLUDED, or (DATA) held. */
static int page_state(struct vmsift_reader *rd, uint64_t pfn,
		      enum vmsift_page *state)
{
	uint64_t mem, data, present[1], bits[1];

	vs_input_page_cover(rd->df->in, pfn, &mem, &data);
	if (mem == 0) {
		*state = VMSIFT_PAGE_NOT_PRESENT;
		return 0;
	}
	if (vs_input_page_bits(&rd->r, pfn & ~63ULL, 64, present, bits,
			       &rd->err) < 0)
		return -1;
	*state = bits[0] >> (pfn % 64) & 1 ? VMSIFT_PAGE_DATA :
					     VMSIFT_PAGE_EXCLUDED;
	return 0;
}

/* Page PFN into BUF: from the cache, else read (and decompressed) and
 * kept there. */
static int read_page(struct vmsift_reader *rd, uint64_t pfn, uint8_t *buf,
		     enum vmsift_page *state)
{
	const struct vs_input *in = rd->df->in;
	const uint8_t *p;

	if (pfn >= in->max_mapnr)
		return vs_err_st(&rd->err, VMSIFT_E_INVALID, "pfn 0x%llx is "
				 "past the dump's last, 0x%llx",
				 (unsigned long long)pfn,
				 (unsigned long long)in->max_mapnr - 1);
	if (!vs_pagecache_get(rd->df->cache, pfn, buf)) {
		if (page_state(rd, pfn, state) < 0)
			return -1;
		if (*state != VMSIFT_PAGE_DATA) {
			memset(buf, 0, in->page_size);
			return 0;
		}
		if (vs_read_page(&rd->r, pfn, &p, &rd->err) < 0)
			return -1;
		memcpy(buf, p, in->page_size);
		vs_pagecache_put(rd->df->cache, pfn, buf);
	}
	*state = all_zero(buf, in->page_size) ? VMSIFT_PAGE_ZERO :
						VMSIFT_PAGE_DATA;
	return 0;
}

int vmsift_read_pfn(struct vmsift_reader *rd, uint64_t pfn, void *buf,
		    enum vmsift_page *state)
{
	vs_err_clear(&rd->err);
	if (read_page(rd, pfn, buf, state) < 0)
		return vs_err_ctx(&rd->err, "cannot read pfn 0x%llx of '%s'",
				  (unsigned long long)pfn, rd->df->in->file.name);
	return 0;
}

/* LEN bytes at PADDR, all inside one page, into BUF. */
static int read_in_page(struct vmsift_reader *rd, uint64_t paddr,
			uint8_t *buf, size_t len)
{
	const struct vs_input *in = rd->df->in;
	uint64_t pfn = paddr >> in->page_shift;
	enum vmsift_page state;

	if (read_page(rd, pfn, rd->page, &state) < 0)
		return -1;
	if (state == VMSIFT_PAGE_NOT_PRESENT || state == VMSIFT_PAGE_EXCLUDED)
		return vs_err_st(&rd->err, VMSIFT_E_NO_DATA, "pfn 0x%llx is %s",
				 (unsigned long long)pfn,
				 state == VMSIFT_PAGE_EXCLUDED ?
				 "excluded from the dump" : "not in the dump");
	memcpy(buf, rd->page + (paddr & (in->page_size - 1)), len);
	return 0;
}

static int copy_phys(struct vmsift_reader *rd, uint64_t paddr, uint8_t *buf,
		     size_t len)
{
	const uint64_t ps = rd->df->in->page_size;

	while (len) {
		size_t n = ps - (paddr & (ps - 1));

		if (n > len)
			n = len;
		if (read_in_page(rd, paddr, buf, n) < 0)
			return -1;
		paddr += n;
		buf += n;
		len -= n;
	}
	return 0;
}

int vmsift_read_phys(struct vmsift_reader *rd, uint64_t paddr, void *buf,
		     size_t len)
{
	vs_err_clear(&rd->err);
	if (copy_phys(rd, paddr, buf, len) < 0)
		return vs_err_ctx(&rd->err, "cannot read 0x%zx bytes at physical "
				  "address 0x%llx of '%s'", len,
				  (unsigned long long)paddr, rd->df->in->file.name);
	return 0;
}

static int copy_kvirt(struct vmsift_reader *rd, uint64_t vaddr, uint8_t *buf,
		      size_t len)
{
	const uint64_t ps = rd->df->in->page_size;
	uint64_t paddr, span;

	while (len) {
		size_t n = ps - (vaddr & (ps - 1));

		if (vs_vtop(rd->df->arch, &rd->r, vaddr, &paddr, &span,
			    &rd->err) < 0)
			return -1;
		if (n > len)
			n = len;
		if (span && n > span)
			n = (size_t)span;
		if (copy_phys(rd, paddr, buf, n) < 0)
			return -1;
		vaddr += n;
		buf += n;
		len -= n;
	}
	return 0;
}

int vmsift_read_kvirt(struct vmsift_reader *rd, uint64_t vaddr, void *buf,
		      size_t len)
{
	vs_err_clear(&rd->err);
	if (!rd->df->arch) {
		rd->err = rd->df->arch_err;
		return vs_err_ctx(&rd->err, "cannot translate kernel addresses "
				  "of '%s'", rd->df->in->file.name);
	}
	if (copy_kvirt(rd, vaddr, buf, len) < 0)
		return vs_err_ctx(&rd->err, "cannot read 0x%zx bytes at kernel "
				  "address 0x%llx of '%s'", len,
				  (unsigned long long)vaddr, rd->df->in->file.name);
	return 0;
}

/* What the views (read_int.h) borrow. */

const struct vs_input *vs_df_input(const struct vmsift_dumpfile *df)
{
	return df->in;
}

const struct vs_arch *vs_df_arch(const struct vmsift_dumpfile *df)
{
	return df->arch;
}

struct vs_error *vs_df_err(struct vmsift_dumpfile *df)
{
	return &df->err;
}

unsigned vs_df_nparts(const struct vmsift_dumpfile *df)
{
	return df->split.n;
}

int vs_df_data_bits(struct vmsift_dumpfile *df, uint64_t *data)
{
	const uint64_t chunk = 1u << 15;
	uint64_t *present = malloc(chunk / 8);
	struct vs_reader r;
	int ret = 0;

	if (!present)
		return vs_err_oom(&df->err, "out of memory");
	if (vs_reader_init(&r, df->in, &df->err) < 0) {
		free(present);
		return -1;
	}
	for (uint64_t s = 0; s < df->in->max_mapnr && ret == 0; s += chunk) {
		uint64_t n = df->in->max_mapnr - s < chunk ?
			     df->in->max_mapnr - s : chunk;

		ret = vs_input_page_bits(&r, s, (n + 63) & ~63ULL, present,
					 data + s / 64, &df->err);
	}
	vs_reader_fini(&r);
	free(present);
	return ret;
}

struct vmsift_dumpfile *vs_reader_df(struct vmsift_reader *rd)
{
	return rd->df;
}

struct vs_error *vs_reader_err(struct vmsift_reader *rd)
{
	return &rd->err;
}

uint8_t *vs_reader_bounce(struct vmsift_reader *rd)
{
	return rd->page;
}

int vs_reader_read_page(struct vmsift_reader *rd, uint64_t pfn, uint8_t *buf,
			enum vmsift_page *state)
{
	return read_page(rd, pfn, buf, state);
}
