/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * age_read.c - the read interface (vmsift_dumpfile_*) on an encrypted
 * dump: age_read IDENTITY ENCRYPTED PLAIN opens ENCRYPTED with IDENTITY
 * and PLAIN without, and compares every pfn's state and bytes, read in a
 * scattered order (random access: chunks decrypted as reads touch them)
 * by two readers.  Exit 0 when all agree; prints the chunk cache counts.
 * Built and run by tests/suites/encrypt.sh.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vmsift.h>

static struct vmsift_dumpfile *open_df(const char *id, const char *path)
{
	struct vmsift_dumpfile *df = vmsift_dumpfile_new();

	if (!df || (id && vmsift_dumpfile_set_identity(df, id) < 0) ||
	    vmsift_dumpfile_open(df, path) < 0) {
		fprintf(stderr, "%s: %s\n", path,
			df ? vmsift_dumpfile_error(df) : "no memory");
		exit(1);
	}
	return df;
}

int main(int argc, char **argv)
{
	struct vmsift_dumpfile *e, *p;
	struct vmsift_reader *re, *rp;
	enum vmsift_page se, sp;
	uint64_t max, n = 0, step = 7919;
	uint8_t *a, *b;
	size_t ps;

	if (argc != 4)
		return 2;
	e = open_df(argv[1], argv[2]);
	p = open_df(NULL, argv[3]);
	max = vmsift_dumpfile_max_pfn(e);
	ps = vmsift_dumpfile_page_size(e);
	re = vmsift_reader_new(e);
	rp = vmsift_reader_new(p);
	a = malloc(ps);
	b = malloc(ps);
	if (!re || !rp || !a || !b || max != vmsift_dumpfile_max_pfn(p))
		return 1;
	for (uint64_t i = 0; i < max; i++) {
		uint64_t pfn = (i * step) % max;  /* step is prime: each once */

		if (vmsift_read_pfn(re, pfn, a, &se) < 0 ||
		    vmsift_read_pfn(rp, pfn, b, &sp) < 0) {
			fprintf(stderr, "pfn 0x%" PRIx64 ": %s%s\n", pfn,
				vmsift_reader_error(re), vmsift_reader_error(rp));
			return 1;
		}
		if (se != sp || memcmp(a, b, ps)) {
			fprintf(stderr, "pfn 0x%" PRIx64 " differs\n", pfn);
			return 1;
		}
		n += se == VMSIFT_PAGE_DATA;
	}
	printf("%" PRIu64 " pfns, %" PRIu64 " with data, equal\n", max, n);
	vmsift_reader_free(re);
	vmsift_reader_free(rp);
	vmsift_dumpfile_free(e);
	vmsift_dumpfile_free(p);
	free(a);
	free(b);
	return 0;
}
