/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_flat.c - the flattened stream reader (makedumpfile -R):
 * vmsift_rebuild_flattened() from a stream to a seekable file, including
 * marking a cut stream's output incomplete.
 * Input: the stream.
 */
#include <string.h>

#include "fuzz_common.h"
#include "vmsift.h"

static int out_fd = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vmsift *vs = vmsift_new();
	int in_fd = fz_memfd("fuzz-flat", data, size, NULL, 0);

	if (out_fd < 0)
		out_fd = fz_memfd("fuzz-out", NULL, 0, NULL, 0);
	fz_truncate(out_fd);
	if (vs) {
		vmsift_rebuild_flattened(vs, in_fd, "fuzz-in", out_fd, "fuzz-out");
		(void)strlen(vmsift_error(vs));
	}
	vmsift_free(vs);
	close(in_fd);
	return 0;
}
