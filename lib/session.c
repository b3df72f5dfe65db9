/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session.c - the session's public calls (struct vmsift, session.h):
 * create and free it, open the input, give it a VMCOREINFO file, cancel,
 * and read back the last dump's error, stats and doubts.  Dumping itself
 * is dump.c.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session.h"
#include "util.h"

#define VMCOREINFO_MAX (64u << 20)

/* realloc that frees the old block when it fails. */
static void *realloc_or_free(void *p, size_t size)
{
	void *q = realloc(p, size);

	if (!q)
		free(p);
	return q;
}

struct vmsift *vmsift_new(void)
{
	struct vmsift *vs = calloc(1, sizeof(*vs));

	if (vs)
		vs->in.file.fd = -1;
	return vs;
}

void vmsift_free(struct vmsift *vs)
{
	if (!vs)
		return;
	if (vs->opened)
		vs_input_close(&vs->in);
	free(vs->doubts);
	free(vs->erase_skips);
	vs_age_ids_free(&vs->ids);
	vs_typeinfo_free(&vs->ti);
	free(vs);
}

void vs_session_set_typeinfo(struct vmsift *vs, struct vs_typeinfo ti)
{
	vs_typeinfo_free(&vs->ti);
	vs->ti = ti;
}

const char *vmsift_error(const struct vmsift *vs)
{
	return vs->err.msg;
}

enum vmsift_status vmsift_status(const struct vmsift *vs)
{
	return vs->err.status;
}

const char *vmsift_version(void)
{
	return VMSIFT_VERSION_STRING;
}

unsigned vmsift_cpus_online(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

/* The end of both opens: RC is vs_input_open's or vs_input_open_fd's. */
static int opened(struct vmsift *vs, int rc)
{
	if (rc < 0) {
		vs_input_close(&vs->in);
		return -1;
	}
	vs->opened = 1;
	return 0;
}

/* All of FD (PATH, for messages) into *TEXT (malloc'ed, *LEN bytes), or
 * an error: never a silent cut.  A VMCOREINFO file is a few KiB; one of
 * VMCOREINFO_MAX or more is not one. */
static int read_all(int fd, const char *path, char **text, size_t *len,
		    struct vs_error *err)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);

	for (;;) {
		ssize_t got;

		if (!buf)
			return vs_err_oom(err, "out of memory for '%s'", path);
		got = vs_read_upto(fd, buf + n, cap - n);
		if (got < 0) {
			free(buf);
			return vs_err_sys(err, "cannot read '%s'", path);
		}
		n += (size_t)got;
		if (n < cap)
			break;
		if (cap >= VMCOREINFO_MAX) {
			free(buf);
			return vs_err(err, "'%s' has %u MiB or more: not a "
				      "VMCOREINFO file", path,
				      VMCOREINFO_MAX >> 20);
		}
		cap *= 2;
		buf = realloc_or_free(buf, cap);
	}
	*text = buf;
	*len = n;
	return 0;
}

static int read_whole(const char *path, char **text, size_t *len,
		      struct vs_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return vs_err_sys(err, "cannot open '%s'", path);
	ret = read_all(fd, path, text, len, err);
	close(fd);
	return ret;
}

int vmsift_open(struct vmsift *vs, const char *path)
{
	vs_err_clear(&vs->err);
	if (vs->opened)
		return vs_err_st(&vs->err, VMSIFT_E_INVALID,
				 "an input is open already");
	vs->in.ids = &vs->ids;
	return opened(vs, vs_input_open(&vs->in, path, &vs->err));
}

int vmsift_open_fd(struct vmsift *vs, int fd, const char *name)
{
	vs_err_clear(&vs->err);
	if (vs->opened)
		return vs_err_st(&vs->err, VMSIFT_E_INVALID,
				 "an input is open already");
	if (fd < 0)
		return vs_err_st(&vs->err, VMSIFT_E_INVALID, "'%s': file "
				 "descriptor %d", name, fd);
	vs->in.ids = &vs->ids;
	return opened(vs, vs_input_open_fd(&vs->in, fd, name, &vs->err));
}

int vmsift_set_identity(struct vmsift *vs, const char *path)
{
	vs_err_clear(&vs->err);
	vs_age_ids_free(&vs->ids);
	return vs_age_ids_load(&vs->ids, path, &vs->err);
}

int vmsift_check_recipient(struct vmsift *vs, const char *recipient)
{
	uint8_t pk[VS_AGE_KEY];

	vs_err_clear(&vs->err);
	return vs_age_parse_recipient(recipient, pk, &vs->err);
}

int vmsift_set_vmcoreinfo_file(struct vmsift *vs, const char *path)
{
	char *text = NULL;
	size_t len = 0;
	int ret;

	vs_err_clear(&vs->err);
	if (!vs->opened)
		return vs_err_st(&vs->err, VMSIFT_E_INVALID,
				 "no input is open");
	if (read_whole(path, &text, &len, &vs->err) < 0)
		return -1;
	ret = vs_input_set_vmcoreinfo(&vs->in, text, len, path, &vs->err);
	free(text);
	return ret;
}

void vmsift_cancel(struct vmsift *vs)
{
	atomic_store(&vs->cancel, 1);
}

void vmsift_get_stats(const struct vmsift *vs, struct vmsift_stats *st)
{
	*st = vs->stats;
}

void vmsift_get_rates(const struct vmsift *vs, struct vmsift_rates *r)
{
	size_t n = r->struct_size < sizeof(*r) ? r->struct_size : sizeof(*r);
	size_t want = r->struct_size;

	if (n > sizeof(r->struct_size))
		memcpy((char *)r + sizeof(r->struct_size),
		       (const char *)&vs->rates + sizeof(r->struct_size),
		       n - sizeof(r->struct_size));
	r->struct_size = want;
}

const char *vmsift_doubts(const struct vmsift *vs)
{
	return vs->doubts ? vs->doubts : "";
}

const char *vmsift_erase_skipped(const struct vmsift *vs)
{
	return vs->erase_skips ? vs->erase_skips : "";
}
