/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flat_reader.c - rebuild a seekable dump from makedumpfile's flattened
 * stream (makedumpfile -R): a 4096-byte header, then records of a
 * big-endian offset and size followed by that many bytes, applied in
 * order, until an offset and size of -1.  A stream that ends early is
 * reported, and the rebuilt dump is marked incomplete so that no reader
 * takes it for whole.
 *
 * vmsift_rebuild_flattened() of the public API (the CLI's -R); parses the
 * records with flat.c, the parser the flattened input uses too.  A stream
 * that is an age file (vmsift --encrypt-to) is decrypted on the way, with
 * the session's identities: each chunk is written out only once it
 * authenticates, and one that does not stops the rebuild there.
 */
#include <elf.h>
#include <endian.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "age.h"
#include "flat.h"
#include "kdump_format.h"
#include "session.h"
#include "util.h"

#define FLAT_COPY_BUF (1u << 20)

/* The stream: FD itself, or the plaintext of the age file FD holds. */
struct src {
	int fd;
	const char *name;
	struct vs_age_reader *age;
};

/* Up to LEN bytes (fewer only at the end), or -1 with a message naming
 * POS, the stream's byte. */
static ssize_t src_read(struct src *s, void *buf, size_t len, uint64_t pos,
			struct vs_error *err)
{
	ssize_t n;

	if (s->age) {
		n = vs_age_reader_read(s->age, buf, len, err);
		if (n < 0 || vs_age_reader_failed(s->age))
			vs_err_ctx(err, "at flattened stream byte 0x%llx",
				   (unsigned long long)(pos + (n > 0 ?
							       (uint64_t)n : 0)));
		return n;
	}
	n = vs_read_upto(s->fd, buf, len);
	if (n < 0)
		vs_err_sys(err, "cannot read '%s' at byte 0x%llx", s->name,
			   (unsigned long long)pos);
	return n;
}

/* The flattened header; an age file is opened first, with IDS. */
static int read_flat_header(struct src *s, const struct vs_age_ids *ids,
			    struct vs_error *err)
{
	uint8_t hdr[FLAT_HEADER_SIZE];
	ssize_t n = vs_read_upto(s->fd, hdr, sizeof(hdr));

	if (n < 0)
		return vs_err_sys(err, "cannot read '%s'", s->name);
	if (vs_age_probe(hdr, (size_t)n)) {
		if (vs_age_reader_new(&s->age, s->fd, s->name, hdr, (size_t)n,
				      ids, err) < 0)
			return -1;
		n = src_read(s, hdr, sizeof(hdr), 0, err);
		if (n < 0)
			return -1;
	}
	if ((size_t)n < sizeof(hdr))
		return vs_err(err, "'%s' is not a flattened dump: %zd bytes, "
			      "the header alone has %d", s->name, n,
			      FLAT_HEADER_SIZE);
	return vs_flat_check_header(hdr, s->name, err);
}

/* Mark a rebuilt kdump or ELF dump incomplete after a cut stream, in
 * the byte order its header is written in. */
static void mark_incomplete(int out_fd)
{
	uint8_t head[sizeof(struct kdump_header)];
	struct vs_machine m;
	size_t at;

	if (vs_pread_full(out_fd, head, sizeof(head), 0) < 0)
		return;
	if (!memcmp(head, KDUMP_SIGNATURE, KDUMP_SIG_LEN)) {
		const struct kdump_header *h = (const void *)head;

		vs_machine_set(&m, 0, kdump_header_big_endian(h) > 0, 8);
		at = offsetof(struct kdump_header, status);
		vs_store32(&m, head + at, vs_load32(&m, head + at) | KDUMP_INCOMPLETE);
	} else if (!memcmp(head, ELFMAG, SELFMAG)) {
		vs_machine_set(&m, 0, head[EI_DATA] == ELFDATA2MSB, 8);
		at = offsetof(Elf64_Ehdr, e_flags);
		vs_store32(&m, head + at, vs_load32(&m, head + at) | 1u);
	} else {
		return;
	}
	vs_pwrite_full(out_fd, head + at, 4, at);
}

/* Where the rebuilt file may keep holes: it was empty, and zeros bound
 * for bytes no record has written read the same unwritten (the bitmaps
 * of a large address span are mostly zeros).  The bytes written are
 * kept as sorted, merged extents: a few, as records come in order. */
struct extent {
	uint64_t start, end;
};

struct hole_state {
	int sparse;
	uint64_t end;                /* the furthest byte any record reached */
	struct extent *ext;
	size_t next, cap;
};

/* The first extent that ends after OFF. */
static size_t extent_at(const struct hole_state *h, uint64_t off)
{
	size_t lo = 0, hi = h->next;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h->ext[mid].end <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Note [OFF, END) as written, merging the extents it touches. */
static int add_extent(struct hole_state *h, uint64_t off, uint64_t end,
		      struct vs_error *err)
{
	size_t i = extent_at(h, off ? off - 1 : 0), j = i;

	while (j < h->next && h->ext[j].start <= end) {
		off = h->ext[j].start < off ? h->ext[j].start : off;
		end = h->ext[j].end > end ? h->ext[j].end : end;
		j++;
	}
	if (j == i) {
		if (h->next == h->cap) {
			size_t cap = h->cap ? 2 * h->cap : 64;
			struct extent *p = realloc(h->ext, cap * sizeof(*p));

			if (!p)
				return vs_err_oom(err, "out of memory");
			h->ext = p;
			h->cap = cap;
		}
		memmove(h->ext + i + 1, h->ext + i, (h->next - i) * sizeof(*h->ext));
		h->next++;
		j = i + 1;
	}
	h->ext[i] = (struct extent){ off, end };
	memmove(h->ext + i + 1, h->ext + j, (h->next - j) * sizeof(*h->ext));
	h->next -= j - i - 1;
	return 0;
}

/* 1: leave the piece a hole; 0: write it; -1: out of memory. */
static int skip_zeros(struct hole_state *h, const uint8_t *buf, size_t n,
		      uint64_t off, struct vs_error *err)
{
	size_t i;

	if (off + n > h->end)
		h->end = off + n;
	if (!h->sparse)
		return 0;
	i = extent_at(h, off);
	if (buf[0] == 0 && memcmp(buf, buf + 1, n - 1) == 0 &&
	    (i == h->next || h->ext[i].start >= off + n))
		return 1;
	return add_extent(h, off, off + n, err);
}

static int copy_record(struct src *in, int out_fd, const char *out_name,
		       uint64_t off, uint64_t size, uint64_t *pos, uint8_t *buf,
		       struct hole_state *h,
		       struct vs_error *err)
{
	while (size) {
		size_t want = size < FLAT_COPY_BUF ? (size_t)size : FLAT_COPY_BUF;
		ssize_t n = src_read(in, buf, want, *pos, err);
		int skip;

		if (n < 0)
			return -1;
		skip = n > 0 ? skip_zeros(h, buf, (size_t)n, off, err) : 1;
		if (skip < 0)
			return -1;
		if (!skip && vs_pwrite_full(out_fd, buf, (size_t)n, off) < 0)
			return vs_err_sys(err, "cannot write '%s' at offset "
					  "0x%llx", out_name,
					  (unsigned long long)off);
		*pos += (uint64_t)n;
		if ((size_t)n < want && in->age &&
		    vs_age_reader_failed(in->age))
			return -1;  /* a chunk failed: its message */
		if ((size_t)n < want)
			return vs_err(err, "flattened stream '%s' ends at byte "
				      "0x%llx, inside a record for offset "
				      "0x%llx (0x%llx bytes missing)", in->name,
				      (unsigned long long)*pos,
				      (unsigned long long)off,
				      (unsigned long long)(size - (uint64_t)n));
		off += (uint64_t)n;
		size -= (uint64_t)n;
	}
	return 0;
}

/* A file whose last records were holes: give it its length. */
static int extend(int fd, const char *name, const struct hole_state *h,
		  struct vs_error *err)
{
	struct stat st;

	if (!h->sparse)
		return 0;
	if (fstat(fd, &st) < 0)
		return vs_err_sys(err, "cannot stat '%s'", name);
	if ((uint64_t)st.st_size < h->end && ftruncate(fd, (off_t)h->end) < 0)
		return vs_err_sys(err, "cannot extend '%s' to 0x%llx bytes",
				  name, (unsigned long long)h->end);
	return 0;
}

static int read_record_header(struct src *in, uint64_t *pos,
			      struct vs_flat_record *rec, struct vs_error *err)
{
	struct flat_record raw;
	ssize_t n = src_read(in, &raw, sizeof(raw), *pos, err);

	if (n < 0 || (in->age && vs_age_reader_failed(in->age)))
		return -1;
	if ((size_t)n < sizeof(raw))
		return vs_err(err, "flattened stream '%s' ends at byte 0x%llx "
			      "without its end marker", in->name,
			      (unsigned long long)(*pos + (uint64_t)n));
	*pos += sizeof(raw);
	return vs_flat_record_parse(&raw, *pos - sizeof(raw), in->name, rec,
				    err);
}

static int rebuild(struct src *in, const struct vs_age_ids *ids, int out_fd,
		   const char *out_name, uint8_t *buf, struct vs_error *err)
{
	uint64_t pos = FLAT_HEADER_SIZE;
	struct hole_state h = { 0 };
	struct stat st;
	int ret;

	if (fstat(out_fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
		h.sparse = 1;
	if (read_flat_header(in, ids, err) < 0)
		return -1;
	for (;;) {
		struct vs_flat_record rec;

		ret = read_record_header(in, &pos, &rec, err);
		if (ret < 0)
			break;
		if (rec.end) {
			ret = extend(out_fd, out_name, &h, err);
			break;
		}
		ret = copy_record(in, out_fd, out_name, rec.off, rec.size, &pos,
				  buf, &h, err);
		if (ret < 0)
			break;
	}
	free(h.ext);
	return ret;
}

int vmsift_rebuild_flattened(struct vmsift *vs, int in_fd, const char *in_name,
			     int out_fd, const char *out_name)
{
	uint8_t *buf = malloc(FLAT_COPY_BUF);
	struct src in = { .fd = in_fd, .name = in_name };
	int ret;

	vs_err_clear(&vs->err);
	if (!buf)
		return vs_err_oom(&vs->err, "out of memory");
	ret = rebuild(&in, &vs->ids, out_fd, out_name, buf, &vs->err);
	vs_age_reader_free(in.age);
	if (ret < 0) {
		mark_incomplete(out_fd);
		vs_err_ctx(&vs->err, "cannot rebuild '%s' (marked incomplete)",
			   out_name);
	}
	free(buf);
	return ret;
}
