/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_status.c - the status beside the message (vmsift_status()): each
 * kind of failure a caller may act on reports its own code.  Run by
 * tests/suites/api.sh:
 *   test_status nospace IN OUT     under the write-failure shim: NO_SPACE
 *   test_status cancel IN OUT      cancelled from the progress callback
 *   test_status truncated IN DIR   cut copies of IN and of a kdump of it
 *   test_status invalid IN OUT     calls out of order, bad options
 *   test_status contract IN OUT    version, options' struct_size, open_fd
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vmsift.h"

static int failures;

static void expect(const struct vmsift *vs, int rc, enum vmsift_status want,
		   const char *what)
{
	enum vmsift_status got = vmsift_status(vs);

	if ((want == VMSIFT_OK) != (rc == 0) || got != want) {
		fprintf(stderr, "FAIL %s: rc %d, status %s (want %s): %s\n",
			what, rc, vmsift_status_name(got),
			vmsift_status_name(want), vmsift_error(vs));
		failures++;
	} else {
		printf("ok %s: %s\n", what, vmsift_status_name(got));
	}
}

static void base_options(struct vmsift_options *o)
{
	vmsift_options_init(o);
	o->dump_level = 1;
	o->codec = VMSIFT_CODEC_ZSTD;
	o->threads = 2;
}

static int dump_file(struct vmsift *vs, const struct vmsift_options *o,
		     const char *out)
{
	int fd = open(out, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int rc;

	if (fd < 0) {
		perror(out);
		exit(2);
	}
	rc = vmsift_dump(vs, o, fd, out);
	close(fd);
	return rc;
}

static void t_nospace(const char *in, const char *out)
{
	struct vmsift *vs = vmsift_new();
	struct vmsift_options o;

	base_options(&o);
	expect(vs, vmsift_open(vs, in), VMSIFT_OK, "open");
	expect(vs, dump_file(vs, &o, out), VMSIFT_E_NO_SPACE, "dump to a full disk");
	vmsift_free(vs);
}

static void cancel_on_progress(void *arg, uint64_t done, uint64_t total)
{
	(void)done;
	(void)total;
	vmsift_cancel(arg);
}

static void t_cancel(const char *in, const char *out)
{
	struct vmsift *vs = vmsift_new();
	struct vmsift_options o;

	base_options(&o);
	o.progress = cancel_on_progress;
	o.progress_arg = vs;
	expect(vs, vmsift_open(vs, in), VMSIFT_OK, "open");
	expect(vs, dump_file(vs, &o, out), VMSIFT_E_CANCELLED, "cancelled dump");
	/* The session dumps again, now to the end. */
	o.progress = NULL;
	expect(vs, dump_file(vs, &o, out), VMSIFT_OK, "dump after a cancel");
	vmsift_free(vs);
}

/* Copy the first LEN bytes of IN to OUT. */
static void copy_head(const char *in, const char *out, size_t len)
{
	char *buf = malloc(len);
	int fi = open(in, O_RDONLY | O_CLOEXEC);
	int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (!buf || fi < 0 || fo < 0 || pread(fi, buf, len, 0) != (ssize_t)len ||
	    write(fo, buf, len) != (ssize_t)len) {
		perror(out);
		exit(2);
	}
	free(buf);
	close(fi);
	close(fo);
}

static void t_truncated(const char *in, const char *dir)
{
	struct vmsift *vs = vmsift_new();
	struct vmsift_options o;
	char cut[4096], kd[4096], out[4096];
	int rc;

	base_options(&o);
	snprintf(cut, sizeof(cut), "%s/cut.vmcore", dir);
	snprintf(kd, sizeof(kd), "%s/whole.kdump", dir);
	snprintf(out, sizeof(out), "%s/out.kdump", dir);
	copy_head(in, cut, 1 << 20);
	expect(vs, vmsift_open(vs, cut), VMSIFT_E_BAD_INPUT, "open a cut ELF vmcore");
	vmsift_free(vs);

	vs = vmsift_new();
	expect(vs, vmsift_open(vs, in), VMSIFT_OK, "open");
	expect(vs, dump_file(vs, &o, kd), VMSIFT_OK, "dump");
	vmsift_free(vs);
	/* Headers, bitmaps and descriptors whole, the page data cut. */
	copy_head(kd, cut, 3 << 20);
	vs = vmsift_new();
	rc = vmsift_open(vs, cut);
	if (rc == 0)
		rc = dump_file(vs, &o, out);
	expect(vs, rc, VMSIFT_E_BAD_INPUT, "a cut kdump file");
	vmsift_free(vs);
}

static void t_invalid(const char *in, const char *out)
{
	struct vmsift *vs = vmsift_new();
	struct vmsift_options o;

	base_options(&o);
	expect(vs, dump_file(vs, &o, out), VMSIFT_E_INVALID, "dump before open");
	expect(vs, vmsift_open(vs, in), VMSIFT_OK, "open");
	expect(vs, vmsift_open(vs, in), VMSIFT_E_INVALID, "open twice");
	o.dump_level = 99;
	expect(vs, dump_file(vs, &o, out), VMSIFT_E_INVALID, "dump level 99");
	o.dump_level = 31;
	expect(vs, dump_file(vs, &o, out), VMSIFT_OK, "dump");
	vmsift_free(vs);
}

static void t_version(void)
{
	if (strcmp(vmsift_version(), VMSIFT_VERSION_STRING)) {
		fprintf(stderr, "FAIL version: %s, header %s\n",
			vmsift_version(), VMSIFT_VERSION_STRING);
		failures++;
	}
}

/* An older caller's smaller struct: what it lacks takes the defaults,
 * whatever lies in memory past it. */
static void t_options_size(struct vmsift *vs, const char *out)
{
	struct vmsift_options o;

	base_options(&o);
	o.progress = cancel_on_progress;
	o.progress_arg = vs;
	o.struct_size = offsetof(struct vmsift_options, progress);
	expect(vs, dump_file(vs, &o, out), VMSIFT_OK, "older, smaller options");
	o.progress = NULL;
	o.struct_size = sizeof(o) + 8;
	expect(vs, dump_file(vs, &o, out), VMSIFT_E_INVALID, "bigger options");
	o.struct_size = 0;
	expect(vs, dump_file(vs, &o, out), VMSIFT_E_INVALID, "options not set up");
}

static void t_contract(const char *in, const char *out)
{
	struct vmsift *vs = vmsift_new();
	struct vmsift_options o = VMSIFT_OPTIONS_INIT;
	int fd = open(in, O_RDONLY | O_CLOEXEC);

	t_version();
	o.threads = 1;
	expect(vs, vmsift_open_fd(vs, -1, "nothing"), VMSIFT_E_INVALID, "open fd -1");
	expect(vs, vmsift_open_fd(vs, fd, in), VMSIFT_OK, "open by fd");
	/* The library has its own descriptor; the caller's is its own. */
	close(fd);
	expect(vs, dump_file(vs, &o, out), VMSIFT_OK, "dump after closing the fd");
	expect(vs, vmsift_open_fd(vs, 0, in), VMSIFT_E_INVALID, "open_fd twice");
	t_options_size(vs, out);
	vmsift_free(vs);
	fd = open(in, O_RDONLY | O_CLOEXEC);
	vs = vmsift_new();
	expect(vs, vmsift_open_fd(vs, fd, in), VMSIFT_OK, "open by fd");
	vmsift_free(vs);
	if (fcntl(fd, F_GETFD) < 0) {
		fprintf(stderr, "FAIL vmsift_free closed the caller's fd\n");
		failures++;
	}
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: test_status nospace|cancel|truncated|"
			"invalid IN OUT\n");
		return 2;
	}
	if (!strcmp(argv[1], "nospace"))
		t_nospace(argv[2], argv[3]);
	else if (!strcmp(argv[1], "cancel"))
		t_cancel(argv[2], argv[3]);
	else if (!strcmp(argv[1], "truncated"))
		t_truncated(argv[2], argv[3]);
	else if (!strcmp(argv[1], "invalid"))
		t_invalid(argv[2], argv[3]);
	else if (!strcmp(argv[1], "contract"))
		t_contract(argv[2], argv[3]);
	else
		return 2;
	return failures ? 1 : 0;
}
