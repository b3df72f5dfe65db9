/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opendump.c - open the dump a reading subcommand names (readcmd.h): one
 * file of any format vmsift reads, or all the files of a split set.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "readcmd.h"

/* Encrypted dumps (--identity FILE): the age identities that decrypt
 * them, given before the dump is opened. */
static int apply_identity(struct vmsift_dumpfile *df,
			  const struct read_input *in)
{
	if (!in->identity || vmsift_dumpfile_set_identity(df, in->identity) == 0)
		return 0;
	return cli_error("%s", vmsift_dumpfile_error(df));
}

static int open_split(struct vmsift_dumpfile *df, const struct read_input *in)
{
	int *fds = calloc((size_t)in->npaths, sizeof(*fds));
	int ret = -1, i, n = 0;

	if (!fds)
		return cli_error("out of memory");
	for (i = 0; i < in->npaths; i++, n++) {
		fds[i] = open(in->paths[i], O_RDONLY | O_CLOEXEC);
		if (fds[i] < 0) {
			cli_error("cannot open '%s': %m (a file of the split "
				  "set)", in->paths[i]);
			goto out;
		}
	}
	ret = vmsift_dumpfile_open_split(df, fds, (const char *const *)in->paths,
					 (unsigned)in->npaths);
	if (ret < 0)
		cli_error("%s", vmsift_dumpfile_error(df));
out:
	for (i = 0; i < n; i++)
		close(fds[i]);
	free(fds);
	return ret;
}

int read_open_dump(const struct read_input *in, struct vmsift_dumpfile **out)
{
	struct vmsift_dumpfile *df = vmsift_dumpfile_new();

	*out = NULL;
	if (!df)
		return cli_error("out of memory");
	if (apply_identity(df, in) < 0)
		goto fail;
	if (in->cache_bytes != (size_t)-1 &&
	    vmsift_dumpfile_set_cache(df, in->cache_bytes) < 0) {
		cli_error("%s", vmsift_dumpfile_error(df));
		goto fail;
	}
	if (in->npaths > 1) {
		if (open_split(df, in) < 0)
			goto fail;
	} else if (vmsift_dumpfile_open(df, in->paths[0]) < 0) {
		cli_error("%s", vmsift_dumpfile_error(df));
		goto fail;
	}
	*out = df;
	return 0;
fail:
	vmsift_dumpfile_free(df);
	return -1;
}
