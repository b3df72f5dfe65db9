/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flat.c - makedumpfile's flattened format (-F), read: the header check,
 * the record parser and the extent map (flat.h).  A flattened file is a
 * 4096-byte header, then records of a big-endian offset and size followed
 * by that many bytes, until an offset and size of -1.
 *
 * Used by file.c, which reads a flattened input through the map, and by
 * flat_reader.c (-R).  A range no record covers reads as zeros, as a hole
 * of the rebuilt file does.
 */
#include <endian.h>
#include <stdlib.h>
#include <string.h>

#include "flat.h"
#include "kdump_format.h"
#include "util.h"

int vs_flat_probe(const void *head, size_t len)
{
	return len >= sizeof(FLAT_SIGNATURE) - 1 &&
	       !memcmp(head, FLAT_SIGNATURE, sizeof(FLAT_SIGNATURE) - 1);
}

int vs_flat_check_header(const void *hdr, const char *name,
			 struct vs_error *err)
{
	int64_t type;

	if (memcmp(hdr, FLAT_SIGNATURE, sizeof(FLAT_SIGNATURE) - 1) != 0)
		return vs_err(err, "'%s' is not a flattened dump: no "
			      "'makedumpfile' signature at offset 0", name);
	memcpy(&type, (const uint8_t *)hdr + 16, sizeof(type));
	if (be64toh((uint64_t)type) != FLAT_TYPE)
		return vs_err(err, "'%s': flattened header type %lld at offset "
			      "0x10, expected %d", name,
			      (long long)be64toh((uint64_t)type), FLAT_TYPE);
	return 0;
}

int vs_flat_record_parse(const void *raw, uint64_t pos, const char *name,
			 struct vs_flat_record *rec, struct vs_error *err)
{
	struct flat_record fr;
	int64_t off, size;

	memcpy(&fr, raw, sizeof(fr));
	off = (int64_t)be64toh((uint64_t)fr.offset);
	size = (int64_t)be64toh((uint64_t)fr.size);
	rec->end = off == -1 && size == -1;
	rec->off = rec->size = 0;
	if (rec->end)
		return 0;
	/* Both non-negative, so INT64_MAX - off cannot overflow. */
	if (off < 0 || size < 0 || size > INT64_MAX - off)
		return vs_err(err, "flattened stream '%s': bad record at byte "
			      "0x%llx (offset %lld, size %lld)", name,
			      (unsigned long long)pos, (long long)off,
			      (long long)size);
	rec->off = (uint64_t)off;
	rec->size = (uint64_t)size;
	return 0;
}

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
		return vs_err_oom(err, "out of memory for the flattened index");
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

int vs_flat_map_insert(struct vs_flat_map *m, uint64_t off, uint64_t len,
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
	if (end > m->end)
		m->end = end;
	return 0;
}

static int fd_pread(void *arg, void *buf, size_t len, uint64_t off)
{
	return vs_pread_full(*(const int *)arg, buf, len, off);
}

static int read_record(vs_flat_pread_fn *rd, void *arg, const char *name,
		       uint64_t size, uint64_t pos, struct vs_flat_record *rec,
		       struct vs_error *err)
{
	struct flat_record raw;

	if (pos > size || sizeof(raw) > size - pos)
		return vs_err(err, "flattened stream '%s' ends at byte 0x%llx "
			      "without its end marker", name,
			      (unsigned long long)size);
	if (rd(arg, &raw, sizeof(raw), pos) < 0)
		return vs_err_sys(err, "cannot read '%s' at byte 0x%llx", name,
				  (unsigned long long)pos);
	return vs_flat_record_parse(&raw, pos, name, rec, err);
}

/* The stream ends at SIZE, before its end marker: with ALLOW_CUT, what
 * came is kept (the record cut at POS too, as far as it goes). */
static int cut_short(struct vs_flat_map *m, const struct vs_flat_record *rec,
		     uint64_t pos, uint64_t size, struct vs_error *err)
{
	m->cut = 1;
	if (rec && pos < size &&
	    vs_flat_map_insert(m, rec->off, size - pos, pos, err) < 0)
		return -1;
	vs_err_clear(err);
	return 0;
}

int vs_flat_map_build_from(struct vs_flat_map *m, vs_flat_pread_fn *rd,
			   void *arg, const char *name, uint64_t size,
			   int allow_cut, struct vs_error *err)
{
	uint8_t hdr[FLAT_HEADER_SIZE];
	uint64_t pos = FLAT_HEADER_SIZE;
	struct vs_flat_record rec;

	if (rd(arg, hdr, sizeof(hdr), 0) < 0)
		return vs_err_sys(err, "cannot read '%s'", name);
	if (vs_flat_check_header(hdr, name, err) < 0)
		return -1;
	for (;;) {
		if (allow_cut && (pos > size ||
				  size - pos < sizeof(struct flat_record)))
			return cut_short(m, NULL, pos, size, err);
		if (read_record(rd, arg, name, size, pos, &rec, err) < 0)
			return -1;
		if (rec.end)
			return 0;
		pos += sizeof(struct flat_record);
		if (rec.size > size - pos && allow_cut)
			return cut_short(m, &rec, pos, size, err);
		if (rec.size > size - pos)
			return vs_err(err, "flattened stream '%s' ends at byte "
				      "0x%llx, inside the record at byte 0x%llx, "
				      "without its end marker", name,
				      (unsigned long long)size,
				      (unsigned long long)(pos - 16));
		if (rec.size &&
		    vs_flat_map_insert(m, rec.off, rec.size, pos, err) < 0)
			return -1;
		pos += rec.size;
	}
}

int vs_flat_map_build(struct vs_flat_map *m, int fd, const char *name,
		      uint64_t size, struct vs_error *err)
{
	return vs_flat_map_build_from(m, fd_pread, &fd, name, size, 0, err);
}

void vs_flat_map_free(struct vs_flat_map *m)
{
	free(m->ext);
	memset(m, 0, sizeof(*m));
}

int vs_flat_map_read_from(const struct vs_flat_map *m, vs_flat_pread_fn *rd,
			  void *arg, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	memset(buf, 0, len);
	for (size_t i = first_after(m, off);
	     i < m->n && m->ext[i].off < off + len; i++) {
		const struct vs_flat_extent *e = &m->ext[i];
		uint64_t a = e->off > off ? e->off : off;
		uint64_t b = e->off + e->len < off + len ? e->off + e->len :
							   off + len;

		if (rd(arg, p + (a - off), b - a, e->pos + (a - e->off)) < 0)
			return -1;
	}
	return 0;
}

int vs_flat_map_read(const struct vs_flat_map *m, int fd, void *buf,
		     size_t len, uint64_t off)
{
	return vs_flat_map_read_from(m, fd_pread, &fd, buf, len, off);
}
