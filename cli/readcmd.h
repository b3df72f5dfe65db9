/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * readcmd.h - the subcommands that read a saved dump rather than write
 * one: vmsift mount (mount.c), vmsift umount and vmsift cat (cat.c),
 * chosen by the first word (subcmd.c), and what they share: opening a
 * dump or a split set as a struct vmsift_dumpfile (opendump.c).
 */
#ifndef VMSIFT_READCMD_H
#define VMSIFT_READCMD_H

#include <stddef.h>

#include "vmsift.h"

/* What opens the dump: its files (one, or the parts of a split set), the
 * cache size, and the key of an encrypted dump. */
struct read_input {
	char **paths;
	int npaths;
	size_t cache_bytes;          /* (size_t)-1: the library's default */
	const char *identity;        /* --identity FILE; NULL: none */
};

/* Open IN as *DF; prints the error and returns -1 on failure. */
int read_open_dump(const struct read_input *in, struct vmsift_dumpfile **df);

int cmd_mount(int argc, char **argv);
int cmd_umount(int argc, char **argv);
int cmd_cat(int argc, char **argv);

#endif
