/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * api_stats.c - vmsift_get_stats() and vmsift_doubts() after a dump that
 * the options check refused describe no dump, not the previous one.
 *
 *   api_stats VMCORE
 *
 * Dumps VMCORE once (dry run, -d 31), then asks for a dump at level 99,
 * which must fail before it starts, and for a split set of 0 files.
 * Exit status: 0 when each refused dump leaves zeroed stats, 1 if not,
 * 2 on a setup error.
 */
#include <stdio.h>
#include <string.h>

#include "vmsift.h"

static int stats_zero(const struct vmsift_stats *st)
{
	static const struct vmsift_stats zero;

	return memcmp(st, &zero, sizeof(zero)) == 0;
}

static int refused(struct vmsift *vs, const char *what, int ret)
{
	struct vmsift_stats st;

	if (ret == 0) {
		fprintf(stderr, "%s: the dump was not refused\n", what);
		return 1;
	}
	vmsift_get_stats(vs, &st);
	if (!stats_zero(&st) || vmsift_doubts(vs)[0]) {
		fprintf(stderr, "%s: stats after the refusal still show a dump "
			"(max_mapnr %llu, dumped %llu)\n", what,
			(unsigned long long)st.max_mapnr,
			(unsigned long long)st.dumped);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct vmsift_options o = { .struct_size = sizeof(o), .dump_level = 31, .dry_run = 1, .threads = 1 };
	struct vmsift_stats st;
	struct vmsift *vs = vmsift_new();
	const char *name = "dry-run";
	int fd = -1, bad = 0;

	if (argc != 2 || !vs || vmsift_open(vs, argv[1]) < 0 ||
	    vmsift_dump(vs, &o, -1, "dry-run") < 0) {
		fprintf(stderr, "setup: %s\n", vs ? vmsift_error(vs) : "no memory");
		return 2;
	}
	vmsift_get_stats(vs, &st);
	if (st.dumped == 0 || st.max_mapnr == 0) {
		fprintf(stderr, "setup: the first dump reports nothing\n");
		return 2;
	}
	o.dump_level = 99;
	bad |= refused(vs, "dump level 99", vmsift_dump(vs, &o, -1, "dry-run"));
	o.dump_level = 31;
	if (vmsift_dump(vs, &o, -1, "dry-run") < 0)
		return 2;
	bad |= refused(vs, "split into 0 files",
		       vmsift_dump_split(vs, &o, &fd, &name, 0));
	vmsift_free(vs);
	return bad;
}
