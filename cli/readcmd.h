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
 * cache size, and the key of an encrypted dump; and how many threads
 * read it. */
struct read_input {
	char **paths;
	int npaths;
	size_t cache_bytes;          /* (size_t)-1: the library's default */
	const char *identity;        /* --identity FILE; NULL: none */
	unsigned threads;            /* --num-threads N; 0: CPUs online */
};

/*
 * The options the reading subcommands share, parsed by read_option():
 * READ_OPTIONS (--cache-size SIZE, --identity FILE) go in each one's
 * getopt_long table, READ_OPTION_THREADS (--num-threads N) in those that
 * read with several threads (mount; cat reads with one and refuses it).
 * The subcommand's own option values stay below READ_CACHE.
 */
enum { READ_CACHE = 0x1000, READ_IDENTITY, READ_THREADS };
#define READ_OPTIONS							\
	{ "cache-size", required_argument, NULL, READ_CACHE },		\
	{ "identity", required_argument, NULL, READ_IDENTITY }
#define READ_OPTION_THREADS						\
	{ "num-threads", required_argument, NULL, READ_THREADS }

/* OPT, as getopt_long returned it with OPTARG, if it is a shared one or
 * an error ('?', ':'): 1 when taken into IN, -1 (printed) for a bad value,
 * an unknown option or a missing argument; 0 when it is the caller's. */
int read_option(struct read_input *in, int opt, const char *arg,
		char **argv);

/* The operands from optind on: the dump's files, then TRAILING more
 * (mount's mount point).  Returns -1, printing nothing, when no file of
 * the dump is left. */
int read_operands(struct read_input *in, int argc, char **argv,
		  int trailing);

/* Open IN as *DF; prints the error and returns -1 on failure. */
int read_open_dump(const struct read_input *in, struct vmsift_dumpfile **df);

int cmd_mount(int argc, char **argv);
int cmd_umount(int argc, char **argv);
int cmd_cat(int argc, char **argv);

#endif
