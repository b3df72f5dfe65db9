/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_reassemble.c - merging a split set (makedumpfile --reassemble),
 * vmsift_reassemble() (lib/reassemble.c): each part's headers, the
 * checks that the parts belong together and in order, the merged
 * bitmaps and page descriptors, the copied page data.
 * Input: the parts, back to back:
 *   byte 0      bit 0 clear: 2 parts, set: 3
 *   then        each part but the last: u32 LE length, that many bytes
 *               (cut short at the end of the input); the last part: the
 *               rest
 * Each part is a memfd opened by path; the merged file goes to a memfd,
 * emptied before each run.
 */
#include <string.h>

#include "fuzz_common.h"
#include "vmsift.h"

#define MAX_PARTS 3

static int out_fd = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char paths[MAX_PARTS][64];
	const char *names[MAX_PARTS];
	int fds[MAX_PARTS];
	unsigned n;
	size_t at = 1;
	struct vmsift *vs;

	if (size < 1)
		return 0;
	n = data[0] & 1 ? 3 : 2;
	for (unsigned i = 0; i < n; i++) {
		size_t len = size - at;

		if (i + 1 < n) {
			uint64_t want = fz_le(data + at, size - at, 4);

			at = at + 4 < size ? at + 4 : size;
			len = want < size - at ? (size_t)want : size - at;
		}
		fds[i] = fz_memfd("fuzz-part", data + at, len, paths[i],
				  sizeof(paths[i]));
		names[i] = paths[i];
		at += len;
	}
	if (out_fd < 0)
		out_fd = fz_memfd("fuzz-out", NULL, 0, NULL, 0);
	fz_truncate(out_fd);
	vs = vmsift_new();
	if (vs) {
		vmsift_reassemble(vs, fds, names, n, out_fd, "fuzz-out");
		(void)strlen(vmsift_error(vs));
	}
	vmsift_free(vs);
	for (unsigned i = 0; i < n; i++)
		close(fds[i]);
	return 0;
}
