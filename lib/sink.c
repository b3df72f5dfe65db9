/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sink.c - file and flattened-stream output (sink.h): used by the kdump
 * and ELF writers and by reassemble.c; calls util.c, and age.h's writer
 * when the stream is encrypted.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "age.h"
#include "kdump_format.h"
#include "sink.h"
#include "util.h"

/* Bytes of the stream, in order: to the file, or to the age writer. */
static int stream_out(struct vs_sink *s, const void *buf, size_t len,
		      struct vs_error *err)
{
	if (s->age)
		return vs_age_writer_write(s->age, buf, len, err);
	return vs_write_full(s->fd, buf, len);
}

static int write_flat_header(struct vs_sink *s, struct vs_error *err)
{
	uint8_t hdr[FLAT_HEADER_SIZE] = { 0 };
	int64_t v;

	memcpy(hdr, FLAT_SIGNATURE, sizeof(FLAT_SIGNATURE) - 1);
	v = (int64_t)htobe64(FLAT_TYPE);
	memcpy(hdr + 16, &v, sizeof(v));
	v = (int64_t)htobe64(FLAT_VERSION);
	memcpy(hdr + 24, &v, sizeof(v));
	errno = 0;
	if (stream_out(s, hdr, sizeof(hdr), err) < 0)
		return errno ? vs_err_sys(err, "cannot write the flattened "
					  "header to '%s'", s->name) :
			       vs_err_ctx(err, "'%s'", s->name);
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

/* The output file's size for a stream of PLAIN bytes. */
static uint64_t file_size(const struct vs_sink *s, uint64_t plain)
{
	if (!s->age)
		return plain;
	return vs_age_writer_overhead(s->age) - VS_AGE_NONCE +
	       vs_age_payload_size(plain);
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

static int sink_write(struct vs_sink *s, const void *buf, size_t len,
		      uint64_t off, struct vs_error *err)
{
	if (len == 0)
		return 0;
	if (s->limit && (s->flat ? file_size(s, s->bytes +
					     sizeof(struct flat_record) + len) :
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

		errno = 0;
		if (stream_out(s, &rec, sizeof(rec), err) < 0 ||
		    stream_out(s, buf, len, err) < 0)
			return errno || !s->age ? failed(s, len, off, err) :
			       vs_err_ctx(err, "'%s'", s->name);
	} else if (vs_pwrite_full(s->fd, buf, len, off) < 0) {
		return failed(s, len, off, err);
	}
	account(s, len, off);
	return 0;
}

/* Timed: vmsift_rates' write phase (a call per buffer, not per page). */
int vs_sink_write(struct vs_sink *s, const void *buf, size_t len,
		  uint64_t off, struct vs_error *err)
{
	double t = vs_now();
	int ret = sink_write(s, buf, len, off, err);

	s->write_seconds += vs_now() - t;
	if (ret == 0 && !s->dry_run)
		s->written += len;
	return ret;
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

	if (s->flat && !s->dry_run && stream_out(s, end, sizeof(end), err) < 0)
		return vs_err_sys(err, "cannot end the flattened stream on '%s'",
				  s->name);
	if (s->age) {
		if (vs_age_writer_finish(s->age, err) < 0)
			return vs_err_ctx(err, "cannot end the encrypted stream "
					  "on '%s'", s->name);
		s->bytes = file_size(s, s->bytes);
		vs_sink_release(s);
	}
	if (s->sparse && !s->dry_run)
		return extend(s, err);
	return 0;
}

void vs_sink_release(struct vs_sink *s)
{
	vs_age_writer_free(s->age);
	s->age = NULL;
}

/* The age writer's output: the file, failures as the sink's. */
static int age_out(void *arg, const void *buf, size_t len,
		   struct vs_error *err)
{
	struct vs_sink *s = arg;

	(void)err;
	return vs_write_full(s->fd, buf, len);
}

int vs_sink_recipients(const char *const *rcpts, unsigned n,
		       uint8_t (**pks)[32], struct vs_error *err)
{
	uint8_t (*p)[32] = calloc(n ? n : 1, sizeof(*p));

	*pks = NULL;
	if (!p)
		return vs_err_oom(err, "out of memory");
	for (unsigned i = 0; i < n; i++)
		if (!rcpts[i] || vs_age_parse_recipient(rcpts[i], p[i], err) < 0) {
			free(p);
			return rcpts[i] ? -1 : vs_err_st(err, VMSIFT_E_INVALID,
							 "recipient %u is NULL", i);
		}
	*pks = p;
	return 0;
}

int vs_sink_open_age(struct vs_sink *s, int fd, const char *name, int dry_run,
		     uint64_t limit, const char *const *rcpts, unsigned n,
		     struct vs_error *err)
{
	uint8_t (*pks)[32];
	int ret;

	memset(s, 0, sizeof(*s));
	if (vs_sink_recipients(rcpts, n, &pks, err) < 0)
		return -1;
	s->fd = fd;
	s->name = name;
	ret = dry_run ? 0 : vs_age_writer_new(&s->age, (const uint8_t (*)[32])pks,
					      n, age_out, s, err);
	free(pks);
	if (ret < 0)
		return errno ? vs_err_sys(err, "cannot write the age header to "
					  "'%s'", name) :
			       vs_err_ctx(err, "'%s'", name);
	s->flat = 1;
	s->dry_run = dry_run;
	s->limit = limit;
	s->bytes = FLAT_HEADER_SIZE + sizeof(struct flat_record);
	if (dry_run)
		return 0;
	if (file_size(s, s->bytes) > limit && limit)
		return full(s, FLAT_HEADER_SIZE, 0, err);
	return write_flat_header(s, err);
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
