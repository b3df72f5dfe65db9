/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dmesg.c - the command's --dump-dmesg mode: write the dead kernel's log
 * buffer to LOGFILE (makedumpfile --dump-dmesg [--partial-dmesg]).
 * Called by main.c; uses the public API only.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int check_dmesg_args(const struct cli *c)
{
	if (!c->dump_dmesg)
		return cli_error("--partial-dmesg requires --dump-dmesg");
	if (c->nargs != 2)
		return cli_error("expected VMCORE LOGFILE, got %d argument%s",
				 c->nargs, c->nargs == 1 ? "" : "s");
	if (c->rebuild || c->opts.flattened)
		return cli_error("--dump-dmesg cannot be combined with -F or -R");
	return 0;
}

static int write_log(struct vmsift *vs, const struct cli *c)
{
	const char *name = c->args[1];
	int fd, created = 0, ret;

	fd = open_output(c, name, &created);
	if (fd < 0)
		return -1;
	ret = vmsift_dump_dmesg(vs, c->partial_dmesg, fd, name);
	if (ret < 0)
		cli_error("%s", vmsift_error(vs));
	if (close(fd) < 0 && ret == 0)
		ret = cli_error("cannot close '%s': %s", name, strerror(errno));
	/* A log cut short by a corrupt ring is not left to pass for one. */
	if (ret < 0 && created)
		unlink(name);
	return ret;
}

int cli_dump_dmesg(struct cli *c)
{
	struct vmsift *vs;
	int ret = -1;

	if (check_dmesg_args(c) < 0)
		return 1;
	vs = vmsift_new();
	if (!vs)
		return cli_error("out of memory"), 1;
	if (cli_open_input(vs, c) == 0)
		ret = write_log(vs, c);
	if (ret == 0 && (c->message_level & ML_COMMON))
		printf("The dmesg log is saved to %s.\n\nvmsift Completed.\n",
		       c->args[1]);
	if (ret < 0 && (c->message_level & ML_COMMON))
		fprintf(stderr, "\nvmsift Failed.\n");
	vmsift_free(vs);
	return ret < 0 ? 1 : 0;
}
