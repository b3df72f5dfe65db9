/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * reassemble.c - merge a split set (makedumpfile --reassemble) into one
 * kdump-compressed file, the very file a direct dump would have been.
 *
 * The parts must belong together: the same headers but for their split
 * fields, the same notes and bitmaps, and pfn ranges that tile
 * [0, max_mapnr) in order.  The metadata is taken from part 0 with the
 * split fields cleared; then each part's descriptors are rewritten for
 * their new data offsets (the shared zero page recognized by its offset)
 * and its data copied, compressed as it is, then each part's eraseinfo
 * (the sub header says where).  The header says incomplete
 * until the end, and stays so if any part was.
 *
 * vmsift_reassemble() of the public API; reads the parts itself (they
 * are not inputs to filter) and writes through a sink (sink.h).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kdump_format.h"
#include "session.h"
#include "file.h"
#include "sink.h"
#include "util.h"

#define RA_BUF (1u << 20)
#define RA_DESC 4096u

struct part {
	const char *name;
	struct vs_file file;         /* read through the file layer: a part
					may be flattened or an age file */
	uint64_t size;
	struct vs_machine order;      /* the byte order of its headers */
	struct kdump_header h;       /* headers in the host's order */
	struct kdump_sub_header sh;
	uint8_t *buf;                /* data read window */
	uint64_t buf_off;
	size_t buf_len;
};

struct reassembly {
	struct part *parts;
	unsigned n;
	uint64_t bs, meta_len;       /* header, sub header, notes, bitmaps */
	uint64_t bitmap2_off, bitmap_len, desc_off, data_off;
	uint64_t ndumpable;
	uint64_t zero_off, next;     /* output: zero page, next data */
	uint64_t desc_done;
	int incomplete;
	struct vs_sink sink;
};

static int read_part_at(struct part *p, void *buf, size_t len, uint64_t off,
			const char *what, struct vs_error *err)
{
	if (off > p->size || len > p->size - off)
		return vs_err(err, "'%s': %s at offset 0x%llx runs past the end "
			      "of the file (0x%llx)", p->name, what,
			      (unsigned long long)off,
			      (unsigned long long)p->size);
	if (vs_file_read_at(&p->file, buf, len, off, what, err) < 0)
		return vs_err_ctx(err, "cannot read '%s'", p->name);
	return 0;
}

/* Read the headers of the part open as FD (the caller's: not closed). */
static int open_part(struct part *p, int fd, const char *name,
		     const struct vs_age_ids *ids, struct vs_error *err)
{
	int64_t bs;
	int be;

	p->name = name;
	if (vs_file_open_fd(&p->file, fd, name, ids, err) < 0)
		return -1;
	p->size = p->file.size;
	if (read_part_at(p, &p->h, sizeof(p->h), 0, "kdump header", err) < 0)
		return -1;
	be = kdump_header_big_endian(&p->h);
	vs_machine_set(&p->order, 0, be > 0, 8);
	kdump_header_order(&p->order, &p->h);
	bs = p->h.block_size;
	if (memcmp(p->h.signature, KDUMP_SIGNATURE, KDUMP_SIG_LEN) || be < 0 ||
	    bs < 512 || bs > (1 << 20) || (bs & (bs - 1)) ||
	    p->h.sub_hdr_size < 1 || p->h.bitmap_blocks == 0)
		return vs_err(err, "'%s' is not a kdump-compressed file (header "
			      "at offset 0)", name);
	if (read_part_at(p, &p->sh, sizeof(p->sh), (uint64_t)bs,
			 "kdump sub header", err) < 0)
		return -1;
	kdump_sub_header_order(&p->order, &p->sh);
	if (!p->sh.split)
		return vs_err(err, "'%s' is not part of a split set (sub header "
			      "offset 0x%llx: split is 0)", name,
			      (unsigned long long)bs + 12);
	p->buf = malloc(RA_BUF);
	return p->buf ? 0 : vs_err_oom(err, "out of memory");
}

/* Headers equal but for what differs between the files of one set. */
static int same_set(const struct part *a, const struct part *b,
		    struct vs_error *err)
{
	struct kdump_header ha = a->h, hb = b->h;
	struct kdump_sub_header sa = a->sh, sb = b->sh;

	ha.status &= ~KDUMP_INCOMPLETE;
	hb.status &= ~KDUMP_INCOMPLETE;
	sa.start_pfn = sb.start_pfn = sa.end_pfn = sb.end_pfn = 0;
	sa.start_pfn_64 = sb.start_pfn_64 = sa.end_pfn_64 = sb.end_pfn_64 = 0;
	sa.offset_eraseinfo = sb.offset_eraseinfo = 0;
	sa.size_eraseinfo = sb.size_eraseinfo = 0;
	if (a->order.big_endian != b->order.big_endian ||
	    memcmp(&ha, &hb, sizeof(ha)) || memcmp(&sa, &sb, sizeof(sa)))
		return vs_err(err, "'%s' and '%s' are not parts of the same dump "
			      "(their headers differ)", a->name, b->name);
	return 0;
}

/* Metadata (notes and bitmaps included) equal to part 0's, compared in
 * pieces; and the pfn ranges must follow each other. */
static int check_set(struct reassembly *r, struct vs_error *err)
{
	uint8_t *x = malloc(RA_BUF), *y = malloc(RA_BUF);
	uint64_t expect = 0;
	int ret = -1;

	if (!x || !y) {
		vs_err_oom(err, "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < r->n; i++) {
		const struct part *p = &r->parts[i];

		if (p->sh.start_pfn_64 != expect || p->sh.end_pfn_64 < expect ||
		    p->sh.end_pfn_64 > p->sh.max_mapnr_64) {
			vs_err(err, "'%s' covers pfns 0x%llx-0x%llx, expected a "
			       "range from 0x%llx: parts missing or out of order",
			       p->name, (unsigned long long)p->sh.start_pfn_64,
			       (unsigned long long)p->sh.end_pfn_64,
			       (unsigned long long)expect);
			goto out;
		}
		expect = p->sh.end_pfn_64;
		if (i && same_set(&r->parts[0], p, err) < 0)
			goto out;
		/* The sub header was compared field by field above. */
		for (uint64_t off = r->bs + sizeof(struct kdump_sub_header);
		     i && off < r->desc_off; off += RA_BUF) {
			size_t n = r->desc_off - off < RA_BUF ?
				   (size_t)(r->desc_off - off) : RA_BUF;

			if (read_part_at(&r->parts[0], x, n, off, "metadata", err) < 0 ||
			    read_part_at(&r->parts[i], y, n, off, "metadata", err) < 0)
				goto out;
			if (memcmp(x, y, n)) {
				vs_err(err, "'%s' and '%s' are not parts of the "
				       "same dump (notes or bitmaps differ near "
				       "offset 0x%llx)", r->parts[0].name,
				       p->name, (unsigned long long)off);
				goto out;
			}
		}
	}
	if (expect != r->parts[0].sh.max_mapnr_64) {
		vs_err(err, "the parts end at pfn 0x%llx, the dump at 0x%llx: "
		       "parts are missing", (unsigned long long)expect,
		       (unsigned long long)r->parts[0].sh.max_mapnr_64);
		goto out;
	}
	ret = 0;
out:
	free(x);
	free(y);
	return ret;
}

/* Set bits of bitmap 2 for pfns [from, to). */
static int count_dumpable(struct reassembly *r, uint64_t from, uint64_t to,
			  uint64_t *count, struct vs_error *err)
{
	uint8_t *buf = malloc(RA_BUF);
	uint64_t n = 0;

	if (!buf)
		return vs_err_oom(err, "out of memory");
	for (uint64_t pfn = from; pfn < to;) {
		uint64_t byte = pfn / 8;
		uint64_t len = vs_div_round_up(to, 8) - byte;

		if (len > RA_BUF)
			len = RA_BUF;
		if (read_part_at(&r->parts[0], buf, len, r->bitmap2_off + byte,
				 "bitmap 2", err) < 0) {
			free(buf);
			return -1;
		}
		for (; pfn < to && pfn / 8 < byte + len; pfn++)
			n += (buf[pfn / 8 - byte] >> (pfn % 8)) & 1;
	}
	free(buf);
	*count = n;
	return 0;
}

static void plan(struct reassembly *r)
{
	const struct part *p = &r->parts[0];

	r->bs = (uint64_t)p->h.block_size;
	r->bitmap_len = (uint64_t)p->h.bitmap_blocks * r->bs / 2;
	r->bitmap2_off = (1 + (uint64_t)p->h.sub_hdr_size) * r->bs + r->bitmap_len;
	r->desc_off = r->bitmap2_off + r->bitmap_len;
	r->meta_len = r->desc_off;
}

/* The joined file's sub header: part 0's, split fields cleared, the
 * eraseinfo at EI_OFF (EI_SIZE bytes; 0 and 0 for none yet). */
static int write_sub_header(struct reassembly *r, uint64_t ei_off,
			    uint64_t ei_size, struct vs_error *err)
{
	struct kdump_sub_header sh = r->parts[0].sh;

	sh.split = 0;
	sh.start_pfn = sh.end_pfn = sh.start_pfn_64 = sh.end_pfn_64 = 0;
	sh.offset_eraseinfo = ei_off;
	sh.size_eraseinfo = ei_size;
	kdump_sub_header_order(&r->parts[0].order, &sh);
	return vs_sink_write(&r->sink, &sh, sizeof(sh), r->bs, err);
}

/* Header (incomplete until finish()), sub header with no eraseinfo yet
 * (write_eraseinfo() gives it), notes and bitmaps. */
static int write_meta(struct reassembly *r, struct vs_error *err)
{
	uint8_t *buf = malloc(RA_BUF);
	struct kdump_header h = r->parts[0].h;
	int ret = 0;

	if (!buf)
		return vs_err_oom(err, "out of memory");
	for (uint64_t off = 0; off < r->meta_len && ret == 0; off += RA_BUF) {
		size_t n = r->meta_len - off < RA_BUF ?
			   (size_t)(r->meta_len - off) : RA_BUF;

		ret = read_part_at(&r->parts[0], buf, n, off, "metadata", err);
		if (ret == 0)
			ret = vs_sink_write(&r->sink, buf, n, off, err);
	}
	free(buf);
	h.status |= KDUMP_INCOMPLETE;
	kdump_header_order(&r->parts[0].order, &h);
	if (ret == 0)
		ret = vs_sink_write(&r->sink, &h, sizeof(h), 0, err);
	if (ret == 0)
		ret = write_sub_header(r, 0, 0, err);
	return ret;
}

static const uint8_t *part_data(struct part *p, uint64_t off, uint32_t size,
				struct vs_error *err)
{
	if (off >= p->buf_off && off + size <= p->buf_off + p->buf_len)
		return p->buf + (off - p->buf_off);
	p->buf_len = p->size - off < RA_BUF ? (size_t)(p->size - off) : RA_BUF;
	p->buf_off = off;
	if (size > p->buf_len || off > p->size)
		return vs_err(err, "'%s': page data at offset 0x%llx (0x%x bytes) "
			      "runs past the end of the file", p->name,
			      (unsigned long long)off, size), NULL;
	if (vs_file_read_at(&p->file, p->buf, p->buf_len, off, "page data",
			    err) < 0)
		return vs_err_ctx(err, "cannot read '%s'", p->name), NULL;
	return p->buf;
}

static int move_desc(struct reassembly *r, struct part *p,
		     struct kdump_page_desc *pd, uint8_t *out, size_t *out_len,
		     struct vs_error *err)
{
	const uint8_t *data;

	if (pd->offset == 0) {          /* lost in an incomplete part */
		r->incomplete = 1;
		return 0;
	}
	if ((r->parts[0].sh.dump_level & 1) && (uint64_t)pd->offset == r->zero_off)
		return 0;               /* the shared zero page: same offset */
	if (pd->size == 0 || pd->size > r->bs || pd->offset < 0)
		return vs_err(err, "'%s': bad page descriptor (offset 0x%llx, "
			      "size 0x%x)", p->name,
			      (unsigned long long)pd->offset, pd->size);
	data = part_data(p, (uint64_t)pd->offset, pd->size, err);
	if (!data)
		return -1;
	if (*out_len + pd->size > RA_BUF) {
		if (vs_sink_write(&r->sink, out, *out_len, r->next - *out_len,
				  err) < 0)
			return -1;
		*out_len = 0;
	}
	memcpy(out + *out_len, data, pd->size);
	*out_len += pd->size;
	pd->offset = (int64_t)r->next;
	r->next += pd->size;
	return 0;
}

static int copy_part(struct reassembly *r, struct part *p, uint8_t *out,
		     struct kdump_page_desc *desc, struct vs_error *err)
{
	uint64_t count, done = 0;
	size_t out_len = 0;

	if (count_dumpable(r, p->sh.start_pfn_64, p->sh.end_pfn_64, &count,
			   err) < 0)
		return -1;
	while (done < count) {
		size_t n = count - done < RA_DESC ? (size_t)(count - done) : RA_DESC;

		if (read_part_at(p, desc, n * sizeof(*desc),
				 r->desc_off + done * sizeof(*desc),
				 "page descriptors", err) < 0)
			return -1;
		for (size_t i = 0; i < n; i++) {
			kdump_page_desc_order(&p->order, &desc[i]);
			if (move_desc(r, p, &desc[i], out, &out_len, err) < 0)
				return -1;
			kdump_page_desc_order(&p->order, &desc[i]);
		}
		if (vs_sink_write(&r->sink, out, out_len, r->next - out_len, err) < 0 ||
		    vs_sink_write(&r->sink, desc, n * sizeof(*desc),
				  r->desc_off + r->desc_done * sizeof(*desc), err) < 0)
			return -1;
		out_len = 0;
		r->desc_done += n;
		done += n;
	}
	return 0;
}

static int write_data(struct reassembly *r, struct vs_error *err)
{
	uint8_t *out = malloc(RA_BUF);
	struct kdump_page_desc *desc = calloc(RA_DESC, sizeof(*desc));
	int ret = 0;

	if (!out || !desc) {
		ret = vs_err_oom(err, "out of memory");
		goto out;
	}
	r->zero_off = r->data_off;
	r->next = r->data_off;
	if (r->parts[0].sh.dump_level & 1) {
		memset(out, 0, r->bs);
		ret = vs_sink_write(&r->sink, out, r->bs, r->zero_off, err);
		r->next += r->bs;
	}
	for (unsigned i = 0; i < r->n && ret == 0; i++)
		ret = copy_part(r, &r->parts[i], out, desc, err);
out:
	free(desc);
	free(out);
	return ret;
}

/* Each part's eraseinfo, in order, after the data (makedumpfile's
 * --reassemble does the same); the sub header then says where. */
static int write_eraseinfo(struct reassembly *r, struct vs_error *err)
{
	uint8_t *buf = malloc(RA_BUF);
	uint64_t start = r->next;
	int ret = 0;

	if (!buf)
		return vs_err_oom(err, "out of memory");
	for (unsigned i = 0; i < r->n && ret == 0; i++) {
		const struct kdump_sub_header *ps = &r->parts[i].sh;

		for (uint64_t done = 0; done < ps->size_eraseinfo && ret == 0;) {
			size_t n = ps->size_eraseinfo - done < RA_BUF ?
				   (size_t)(ps->size_eraseinfo - done) : RA_BUF;

			ret = read_part_at(&r->parts[i], buf, n,
					   ps->offset_eraseinfo + done,
					   "eraseinfo", err);
			if (ret == 0)
				ret = vs_sink_write(&r->sink, buf, n, r->next, err);
			r->next += n;
			done += n;
		}
	}
	free(buf);
	if (ret < 0)
		return ret;
	return write_sub_header(r, r->next > start ? start : 0,
				r->next - start, err);
}

static int finish(struct reassembly *r, struct vs_error *err)
{
	struct kdump_header h = r->parts[0].h;

	for (unsigned i = 0; i < r->n; i++)
		if (r->parts[i].h.status & KDUMP_INCOMPLETE)
			r->incomplete = 1;
	h.status &= ~KDUMP_INCOMPLETE;
	if (r->incomplete)
		h.status |= KDUMP_INCOMPLETE;
	kdump_header_order(&r->parts[0].order, &h);
	return vs_sink_write(&r->sink, &h, sizeof(h), 0, err);
}

static int reassemble(struct reassembly *r, int out_fd, const char *out_name,
		      struct vs_error *err)
{
	plan(r);
	if (check_set(r, err) < 0 ||
	    count_dumpable(r, 0, r->parts[0].sh.max_mapnr_64, &r->ndumpable,
			   err) < 0)
		return -1;
	r->data_off = r->desc_off + r->ndumpable * sizeof(struct kdump_page_desc);
	if (vs_sink_open(&r->sink, out_fd, out_name, 0, 0, 0, err) < 0 ||
	    write_meta(r, err) < 0 || write_data(r, err) < 0 ||
	    write_eraseinfo(r, err) < 0)
		return -1;
	return finish(r, err);
}

int vmsift_reassemble(struct vmsift *vs, const int *part_fds,
		      const char *const *part_names, unsigned n,
		      int out_fd, const char *out_name)
{
	struct reassembly r = { .n = n };
	int ret = -1;

	vs_err_clear(&vs->err);
	if (n < 1)
		return vs_err_st(&vs->err, VMSIFT_E_INVALID,
				 "no split files to reassemble");
	r.parts = calloc(n, sizeof(*r.parts));
	if (!r.parts)
		return vs_err_oom(&vs->err, "out of memory");
	for (unsigned i = 0; i < n; i++)
		r.parts[i].file.fd = -1;
	for (unsigned i = 0; i < n; i++)
		if (open_part(&r.parts[i], part_fds[i], part_names[i],
			      &vs->ids, &vs->err) < 0)
			goto out;
	ret = reassemble(&r, out_fd, out_name, &vs->err);
out:
	for (unsigned i = 0; i < n; i++) {
		free(r.parts[i].buf);
		vs_file_close(&r.parts[i].file);
	}
	free(r.parts);
	if (ret < 0)
		vs_err_ctx(&vs->err, "cannot reassemble '%s'", out_name);
	return ret;
}
