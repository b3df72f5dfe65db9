/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * split.c - the command's --split and --reassemble: a dump written as N
 * files in one pass, and N files merged back into one.  Called by
 * main.c; uses the public API only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int check_split_args(const struct cli *c)
{
	if (c->nargs < 3)
		return cli_error("--split needs VMCORE and at least two "
				 "DUMPFILEs, got %d argument%s", c->nargs,
				 c->nargs == 1 ? "" : "s");
	if (c->opts.flattened)
		return cli_error("--split cannot be combined with -F");
	if (c->opts.format == VMSIFT_FORMAT_ELF)
		return cli_error("--split writes kdump-compressed files: it "
				 "cannot be combined with -E");
	return 0;
}

static void close_all(const int *fds, const char *const *names, int n,
		      int remove)
{
	for (int i = 0; i < n; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		if (remove && fds[i] >= 0)
			unlink(names[i]);
	}
}

static int split(struct vmsift *vs, struct cli *c, int *fds,
		 const char *const *names, int n)
{
	struct vmsift_stats st;
	int created, ret;

	for (int i = 0; i < n; i++) {
		fds[i] = open_output(c, names[i], &created);
		if (fds[i] < 0) {
			close_all(fds, names, i, 1);
			return -1;
		}
	}
	ret = vmsift_dump_split(vs, &c->opts, fds, names, (unsigned)n);
	vmsift_get_stats(vs, &st);
	if (ret < 0)
		cli_error("%s", vmsift_error(vs));
	close_all(fds, names, n, ret < 0 && !st.incomplete);
	return ret;
}

int cli_split(struct cli *c)
{
	int n = c->nargs - 1, ret = -1, *fds;
	const char *const *names = (const char *const *)(c->args + 1);
	struct vmsift *vs;

	if (check_split_args(c) < 0)
		return 1;
	if (c->check_params)
		return 0;
	fds = malloc((size_t)n * sizeof(*fds));
	vs = vmsift_new();
	if (!fds || !vs) {
		cli_error("out of memory");
		goto out;
	}
	cli_catch_signals(vs);
	if (cli_open_input(vs, c) < 0)
		goto out;
	ret = split(vs, c, fds, names, n);
	if (ret == 0 && (c->message_level & ML_COMMON))
		printf("The dumpfiles are saved to %s, ... %s.\n\nvmsift "
		       "Completed.\n", names[0], names[n - 1]);
out:
	cli_release_signals();
	if (ret < 0 && (c->message_level & ML_COMMON))
		fprintf(stderr, "\nvmsift Failed.\n");
	vmsift_free(vs);
	free(fds);
	return ret < 0 ? 1 : 0;
}

/* Open the parts, C's arguments but the last, and merge them into FD. */
static int reassemble_parts(const struct cli *c, struct vmsift *vs, int fd,
			    const char *out)
{
	int n = c->nargs - 1, i, ret = -1;
	int *fds = calloc((size_t)n, sizeof(*fds));

	if (!fds)
		return cli_error("out of memory");
	for (i = 0; i < n; i++) {
		fds[i] = open(c->args[i], O_RDONLY | O_CLOEXEC);
		if (fds[i] < 0) {
			cli_error("cannot open '%s': %s", c->args[i],
				  strerror(errno));
			goto out;
		}
	}
	ret = vmsift_reassemble(vs, fds, (const char *const *)c->args,
				(unsigned)n, fd, out);
	if (ret < 0)
		cli_error("%s", vmsift_error(vs));
out:
	while (i-- > 0)
		close(fds[i]);
	free(fds);
	return ret;
}

int cli_reassemble(struct cli *c)
{
	struct vmsift *vs;
	const char *out;
	int fd, ret;

	if (c->nargs < 2)
		return cli_error("--reassemble needs the split DUMPFILEs and "
				 "the DUMPFILE to write"), 1;
	if (c->check_params)
		return 0;
	out = c->args[c->nargs - 1];
	fd = cli_session_output(c, out, &vs);
	if (fd < 0)
		return 1;
	ret = reassemble_parts(c, vs, fd, out);
	if (close(fd) < 0 && ret == 0)
		ret = cli_error("cannot close '%s': %s", out, strerror(errno));
	if (ret < 0)
		unlink(out);
	else if (c->message_level & ML_COMMON)
		printf("The dumpfile is saved to %s.\n\nvmsift Completed.\n", out);
	vmsift_free(vs);
	return ret < 0 ? 1 : 0;
}
