/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_agestream.c - the age payload (age_stream.c) both ways it is read:
 * front to back by vmsift_rebuild_flattened() (-R of an encrypted
 * stream), and by random access through the file layer (file.c: the
 * chunk cache, the cut-file rule, the flattened map over the plaintext),
 * with a fixed test identity.
 * Input: an age file.  Seeds: small flattened streams `age -r` encrypted
 * to FZ_AGE_RECIPIENT (fuzz_common.h), see README.md.
 */
#include <string.h>

#include "file.h"
#include "fuzz_common.h"
#include "session.h"

static int out_fd = -1;

/* Every byte of the plaintext, through the file layer, in odd pieces. */
static void read_all(const struct vs_age_ids *ids, int fd)
{
	struct vs_error err = { 0 };
	struct vs_file f;
	uint8_t buf[5000];

	if (vs_file_open_fd(&f, fd, "fuzz-in", ids, &err) == 0) {
		for (uint64_t off = 0; off < f.size; off += sizeof(buf) - 7) {
			size_t n = f.size - off < sizeof(buf) ?
				   (size_t)(f.size - off) : sizeof(buf);

			if (vs_file_read(&f, buf, n, off) < 0)
				break;
		}
	}
	(void)strlen(err.msg);
	vs_file_close(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vmsift *vs = vmsift_new();
	int in_fd = fz_memfd("fuzz-age", data, size, NULL, 0);

	if (out_fd < 0)
		out_fd = fz_memfd("fuzz-out", NULL, 0, NULL, 0);
	fz_truncate(out_fd);
	if (!vs || vs_age_ids_parse(&vs->ids, FZ_AGE_IDENTITY,
				    strlen(FZ_AGE_IDENTITY), "fuzz-key",
				    &vs->err) < 0)
		abort();
	read_all(&vs->ids, in_fd);
	lseek(in_fd, 0, SEEK_SET);
	vmsift_rebuild_flattened(vs, in_fd, "fuzz-in", out_fd, "fuzz-out");
	(void)strlen(vmsift_error(vs));
	vmsift_free(vs);
	close(in_fd);
	return 0;
}
