/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * subcmd.c - the first word that selects a reading subcommand (vmsift
 * mount, umount, cat; readcmd.h), and vmsift umount itself.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "readcmd.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} subcommands[] = {
	{ "mount", cmd_mount },
	{ "umount", cmd_umount },
	{ "cat", cmd_cat },
};

int cli_subcommand(int argc, char **argv, int *status)
{
	if (argc < 2)
		return 0;
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(argv[1], subcommands[i].name)) {
			*status = subcommands[i].run(argc - 1, argv + 1) < 0;
			return 1;
		}
	return 0;
}

/* vmsift umount MOUNTPOINT: fusermount3 -u, which a user may run on a
 * mount of theirs. */
int cmd_umount(int argc, char **argv)
{
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: vmsift umount MOUNTPOINT\n");
		return -1;
	}
	execlp("fusermount3", "fusermount3", "-u", "--", argv[1], (char *)NULL);
	return cli_error("cannot run 'fusermount3': %m");
}
