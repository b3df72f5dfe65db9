/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - the vmsift command's shared state and the calls between its
 * files (main.c, dump.c, split.c, dmesg.c, signal.c).  The command uses
 * only the public API (vmsift.h).
 */
#ifndef VMSIFT_CLI_H
#define VMSIFT_CLI_H

#include <stdint.h>

#include "vmsift.h"

/* --message-level bits, as makedumpfile's */
#define ML_PROGRESS 1u
#define ML_COMMON   2u
#define ML_ERROR    4u
#define ML_DEBUG    8u
#define ML_REPORT   16u
#define ML_DEFAULT  (ML_PROGRESS | ML_COMMON | ML_ERROR)

enum {
	OPT_MESSAGE_LEVEL = 256,
	OPT_SHOW_STATS,
	OPT_NON_MMAP,
	OPT_READ_PATH,
	OPT_NUM_THREADS,
	OPT_CYCLIC_BUFFER,
	OPT_WORK_DIR,
	OPT_LEVEL,
	OPT_DUMP_DMESG,
	OPT_PARTIAL_DMESG,
	OPT_CHECK_PARAMS,
	OPT_SPLIT,
	OPT_REASSEMBLE,
	OPT_SPLITBLOCK_SIZE,
	OPT_DRY_RUN,
	OPT_CONFIG,
	OPT_ERASE_IGNORE_MISSING,
	OPT_MEM_USAGE,
	OPT_EXACT_ZERO,
	OPT_UNSUPPORTED,
	OPT_ENCRYPT_TO,
	OPT_ENCRYPT_TO_FILE,
	OPT_IDENTITY,
};

struct cli {
	struct vmsift_options opts;
	unsigned message_level;
	int force;
	int rebuild;
	int dump_dmesg;              /* --dump-dmesg */
	int partial_dmesg;           /* --partial-dmesg */
	int help;
	int version;
	int check_params;            /* --check-params: validate, exit */
	int split;                   /* --split */
	int reassemble;              /* --reassemble */
	int mem_usage;               /* --mem-usage */
	int exact_zero;              /* --exact-zero */
	const char *vmcoreinfo;
	const char *vmlinux;          /* -x */
	const char *gen_vmcoreinfo;   /* -g */
	int exit_status;             /* other than 1 on failure (2: -x mismatch) */
	const char **recipients;     /* --encrypt-to, --encrypt-to-file */
	unsigned nr_recipients;
	const char *identity;        /* --identity: for encrypted inputs */
	unsigned levels[32];         /* -d 11,31: the retry levels */
	unsigned nr_levels;
	char **args;
	int nargs;
};

/* Print "vmsift: MESSAGE" on stderr; returns -1. */
__attribute__((format(printf, 1, 2)))
int cli_error(const char *fmt, ...);

int cli_parse_dump_level(struct cli *c, const char *arg);
int cli_parse_size(const char *arg, uint64_t *size);
int cli_dump(struct cli *c);
int cli_rebuild(struct cli *c);
int cli_reassemble(struct cli *c);
int cli_split(struct cli *c);
int cli_dump_dmesg(struct cli *c);
/* vmsift_open() of args[0], then -x and -i; prints the error and sets
 * exit_status for a vmlinux of another kernel (cli/debuginfo.c). */
int cli_open_input(struct vmsift *vs, struct cli *c);
/* STATUS, or exit_status when one was set and STATUS is a failure. */
int cli_exit_status(const struct cli *c, int status);
int cli_gen_vmcoreinfo(struct cli *c);
int cli_mem_usage(struct cli *c);
/* A first word mount, umount or cat (subcmd.c): run it, its exit status
 * into *STATUS, and return 1; else 0. */
int cli_subcommand(int argc, char **argv, int *status);
/* Create PATH for output: 0600, never over an existing file or through a
 * symlink unless -f; prints the error and returns -1 on failure. */
int open_output(const struct cli *c, const char *path, int *created);
/* A session with --identity's file set (cli_set_identity) and PATH
 * created for output (open_output): PATH's descriptor, the session in
 * *VS; -1 (the error printed, nothing held) on failure. */
int cli_session_output(const struct cli *c, const char *path,
		       struct vmsift **vs);

/* encrypt.c: the age options (doc/encryption.md). */
int cli_add_recipient(struct cli *c, const char *r);
int cli_add_recipients_file(struct cli *c, const char *path);
int cli_check_encryption(const struct cli *c);
/* vmsift_set_identity with --identity's file, if given. */
int cli_set_identity(struct vmsift *vs, const struct cli *c);
void cli_free_recipients(struct cli *c);

/* SIGINT and SIGTERM cancel VS's dump (vmsift_cancel), which ends as an
 * incomplete one; SIGPIPE is ignored.  Release before freeing VS. */
void cli_catch_signals(struct vmsift *vs);
void cli_release_signals(void);

#endif
