/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sink.c - file and flattened-stream output (sink.h): used by the kdump
 * and ELF writers and by reassemble.c; calls only util.c.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kdump_format.h"
#include "sink.h"
#include "util.h"

static int write_flat_header(struct vs_sink *s, struct vs_error *err)
{
	uint8_t hdr[FLAT_HEADER_SIZE] = { 0 };
	int64_t v;

	memcpy(hdr, FLAT_SIGNATURE, sizeof(FLAT_SIGNATURE) - 1);
	v = (int64_t)htobe64(FLAT_TYPE);
	memcpy(hdr + 16, &v, sizeof(v));
	v = (int64_t)htobe64(FLAT_VERSION);
	memcpy(hdr + 24, &v, sizeof(v));
	if (vs_write_full(s->fd, hdr, sizeof(hdr)) < 0)
		return vs_err_sys(err, "cannot write the flattened header to '%s'",
				  s->name);
	return 0;
}

int vs_sink_open(struct vs_sink *s, int fd, const char *name, int flat,
		 int dry_run, uint64_t limit, struct vs_error *err)
{
	struct stat st;
	int mode;

	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->name = name;
	s->flat = flat;
	s->dry_run = dry_run;
	s->limit = limit;
	/* A stream is its header, its records and an end marker; -L
	 * counts them all. */
	if (flat)
		s->bytes = FLAT_HEADER_SIZE + sizeof(struct flat_record);
	if (dry_run)
		return 0;
	if (flat)
		return write_flat_header(s, err);
	if (fstat(fd, &st) < 0)
		return vs_err_sys(err, "cannot stat '%s'", name);
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		return vs_err(err, "'%s' is not a regular file or block "
			      "device; write a flattened stream (-F) to pipes",
			      name);
	mode = fcntl(fd, F_GETFL);
	s->readable = mode >= 0 && (mode & O_ACCMODE) == O_RDWR;
	s->sparse = S_ISREG(st.st_mode) && st.st_size == 0;
	return 0;
}

static int full(struct vs_sink *s, size_t len, uint64_t off,
		struct vs_error *err)
{
	s->out_of_space = 1;
	return vs_err(err, "cannot write 0x%zx bytes at offset 0x%llx of '%s': "
		      "the size limit of %llu bytes (-L) is reached", len,
		      (unsigned long long)off, s->name,
		      (unsigned long long)s->limit);
}

static int failed(struct vs_sink *s, size_t len, uint64_t off,
		  struct vs_error *err)
{
	if (errno == ENOSPC || errno == EDQUOT || errno == EFBIG)
		s->out_of_space = 1;
	return vs_err_sys(err, "cannot write 0x%zx bytes %s 0x%llx %s '%s'",
			  len, s->flat ? "for offset" : "at offset",
			  (unsigned long long)off, s->flat ? "to" : "of",
			  s->name);
}

/* The output's size so far: a stream grows by every record; a file is
 * as long as its furthest write (headers are rewritten in place). */
static void account(struct vs_sink *s, size_t len, uint64_t off)
{
	if (s->flat)
		s->bytes += sizeof(struct flat_record) + len;
	else if (off + len > s->bytes)
		s->bytes = off + len;
}

int vs_sink_write(struct vs_sink *s, const void *buf, size_t len,
		  uint64_t off, struct vs_error *err)
{
	if (len == 0)
		return 0;
	if (s->limit && (s->flat ? s->bytes + sizeof(struct flat_record) + len :
			 off + len) > s->limit)
		return full(s, len, off, err);
	if (s->dry_run) {
		account(s, len, off);
		return 0;
	}
	if (s->flat) {
		struct flat_record rec = {
			.offset = (int64_t)htobe64(off),
			.size = (int64_t)htobe64(len),
		};

		if (vs_write_full(s->fd, &rec, sizeof(rec)) < 0 ||
		    vs_write_full(s->fd, buf, len) < 0)
			return failed(s, len, off, err);
	} else if (vs_pwrite_full(s->fd, buf, len, off) < 0) {
		return failed(s, len, off, err);
	}
	account(s, len, off);
	return 0;
}

static int all_zero(const void *buf, size_t len)
{
	const uint8_t *p = buf;

	return len == 0 || (p[0] == 0 && memcmp(p, p + 1, len - 1) == 0);
}

int vs_sink_write_sparse(struct vs_sink *s, const void *buf, size_t len,
			 uint64_t off, struct vs_error *err)
{
	if (!s->sparse || s->dry_run || !all_zero(buf, len))
		return vs_sink_write(s, buf, len, off, err);
	if (s->limit && off + len > s->limit)
		return full(s, len, off, err);
	account(s, len, off);
	return 0;
}

/* A sparse file whose last bytes were a hole: give it its length. */
static int extend(struct vs_sink *s, struct vs_error *err)
{
	struct stat st;

	if (fstat(s->fd, &st) < 0)
		return vs_err_sys(err, "cannot stat '%s'", s->name);
	if ((uint64_t)st.st_size < s->bytes &&
	    ftruncate(s->fd, (off_t)s->bytes) < 0)
		return failed(s, 0, s->bytes, err);
	return 0;
}

int vs_sink_close(struct vs_sink *s, struct vs_error *err)
{
	static const uint8_t end[sizeof(struct flat_record)] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};

	if (s->flat && !s->dry_run && vs_write_full(s->fd, end, sizeof(end)) < 0)
		return vs_err_sys(err, "cannot end the flattened stream on '%s'",
				  s->name);
	if (s->sparse && !s->dry_run)
		return extend(s, err);
	return 0;
}

int vs_sink_read(const struct vs_sink *s, void *buf, size_t len, uint64_t off,
		 struct vs_error *err)
{
	if (vs_pread_full(s->fd, buf, len, off) < 0)
		return vs_err_sys(err, "cannot read back 0x%zx bytes at offset "
				  "0x%llx of '%s'", len,
				  (unsigned long long)off, s->name);
	return 0;
}
