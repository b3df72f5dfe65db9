/*
 * flat_input.c - a flattened file (makedumpfile -F output saved as is)
 * read directly, without rebuilding it first.
 *
 * The stream's records are indexed once: a sorted table of extents, each
 * mapping a range of the rebuilt file to where its bytes lie in the
 * stream.  A later record overwrites an earlier one where they overlap,
 * as -R would apply them; a range no record covers reads as zeros, as a
 * hole of the rebuilt file does.  Everything else in the library then
 * reads the rebuilt file through vs_input_read().
 */
#include <endian.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "kdump_format.h"
#include "util.h"

static int grow(struct vs_flat_map *m, size_t need, struct vs_error *err)
{
	struct vs_flat_extent *p;
	size_t cap;

	if (need <= m->cap)
		return 0;
	cap = m->cap ? 2 * m->cap : 256;
	while (cap < need)
		cap *= 2;
	p = realloc(m->ext, cap * sizeof(*p));
	if (!p)
		return vs_err(err, "out of memory for the flattened index");
	m->ext = p;
	m->cap = cap;
	return 0;
}

/* The first extent that ends above OFF. */
static size_t first_after(const struct vs_flat_map *m, uint64_t off)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->ext[mid].off + m->ext[mid].len <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Insert [off, off + len) at stream position POS, overwriting what it
 * overlaps: extents are cut, split or dropped. */
static int insert(struct vs_flat_map *m, uint64_t off, uint64_t len,
		  uint64_t pos, struct vs_error *err)
{
	uint64_t end = off + len;
	size_t i = first_after(m, off), j;
	struct vs_flat_extent left = { 0 }, right = { 0 };
	int has_left = 0, has_right = 0;

	for (j = i; j < m->n && m->ext[j].off < end; j++) {
		const struct vs_flat_extent *e = &m->ext[j];

		if (e->off < off) {
			left = *e;
			left.len = off - e->off;
			has_left = 1;
		}
		if (e->off + e->len > end) {
			right = *e;
			right.pos += end - e->off;
			right.len = e->off + e->len - end;
			right.off = end;
			has_right = 1;
		}
	}
	/* Replace ext[i, j) by left?, new, right?. */
	if (grow(m, m->n + 3, err) < 0)
		return -1;
	memmove(&m->ext[i + has_left + 1 + has_right], &m->ext[j],
		(m->n - j) * sizeof(*m->ext));
	m->n = m->n - (j - i) + (size_t)(has_left + 1 + has_right);
	if (has_left)
		m->ext[i++] = left;
	m->ext[i].off = off;
	m->ext[i].len = len;
	m->ext[i].pos = pos;
	if (has_right)
		m->ext[i + 1] = right;
	return 0;
}

static int read_record(const struct vs_input *in, uint64_t pos, int64_t *off,
		       int64_t *size, struct vs_error *err)
{
	struct flat_record rec;

	if (pos + sizeof(rec) > in->file_size)
		return vs_err(err, "flattened stream ends at byte 0x%llx without "
			      "its end marker", (unsigned long long)in->file_size);
	if (vs_pread_full(in->fd, &rec, sizeof(rec), pos) < 0)
		return vs_err_sys(err, "cannot read the record at byte 0x%llx",
				  (unsigned long long)pos);
	*off = (int64_t)be64toh((uint64_t)rec.offset);
	*size = (int64_t)be64toh((uint64_t)rec.size);
	return 0;
}

int vs_input_open_flat(struct vs_input *in, struct vs_error *err)
{
	uint64_t pos = FLAT_HEADER_SIZE, end = 0;

	for (;;) {
		int64_t off = 0, size = 0;

		if (read_record(in, pos, &off, &size, err) < 0)
			return vs_err_ctx(err, "cannot read flattened '%s'", in->path);
		if (off == -1 && size == -1)
			break;
		pos += sizeof(struct flat_record);
		if (off < 0 || size < 0 || (uint64_t)size > in->file_size - pos)
			return vs_err(err, "cannot read flattened '%s': bad record "
				      "at byte 0x%llx (offset %lld, size %lld)",
				      in->path, (unsigned long long)(pos - 16),
				      (long long)off, (long long)size);
		if (size && insert(&in->flat, (uint64_t)off, (uint64_t)size, pos,
				   err) < 0)
			return -1;
		if ((uint64_t)(off + size) > end)
			end = (uint64_t)(off + size);
		pos += (uint64_t)size;
	}
	in->is_flat = 1;
	in->no_mmap = 1;
	in->stream_size = in->file_size;
	in->file_size = end;
	return 0;
}

int vs_input_read(const struct vs_input *in, void *buf, size_t len,
		  uint64_t off)
{
	const struct vs_flat_map *m = &in->flat;
	uint8_t *p = buf;
	size_t i;

	if (!in->is_flat)
		return vs_pread_full(in->fd, buf, len, off);
	memset(buf, 0, len);
	for (i = first_after(m, off); i < m->n && m->ext[i].off < off + len; i++) {
		const struct vs_flat_extent *e = &m->ext[i];
		uint64_t a = e->off > off ? e->off : off;
		uint64_t b = e->off + e->len < off + len ? e->off + e->len : off + len;

		if (vs_pread_full(in->fd, p + (a - off), b - a,
				  e->pos + (a - e->off)) < 0)
			return -1;
	}
	return 0;
}
