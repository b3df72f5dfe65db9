/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opendump.c - the reading subcommands' shared options and operands, and
 * the dump they name opened (readcmd.h): one file of any format vmsift
 * reads, or all the files of a split set.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "readcmd.h"

/* --num-threads N: 1 to 1024, decimal. */
static int parse_threads(const char *arg, unsigned *threads)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || v < 1 || v > 1024)
		return cli_error("invalid thread count '%s' (1-1024)", arg);
	*threads = (unsigned)v;
	return 0;
}

int read_option(struct read_input *in, int opt, const char *arg,
		char **argv)
{
	uint64_t v;

	switch (opt) {
	case READ_IDENTITY:
		in->identity = arg;
		return 1;
	case READ_CACHE:
		if (cli_parse_size(arg, &v) < 0 || v > SIZE_MAX / 2)
			return cli_error("invalid cache size '%s'", arg);
		in->cache_bytes = (size_t)v;
		return 1;
	case READ_THREADS:
		return parse_threads(arg, &in->threads) < 0 ? -1 : 1;
	case '?':
	case ':':
		return cli_error("unknown option '%s' or missing argument",
				 argv[optind - 1]);
	default:
		return 0;
	}
}

int read_operands(struct read_input *in, int argc, char **argv,
		  int trailing)
{
	if (argc - optind - trailing < 1)
		return -1;
	in->paths = argv + optind;
	in->npaths = argc - optind - trailing;
	return 0;
}

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
