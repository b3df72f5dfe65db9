/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * error.h - located, stacked error messages.
 *
 * The lowest layer that sees a failure sets the message with vs_err() (or
 * vs_err_sys(), which appends strerror(errno) once); each layer above adds
 * its own context in front with vs_err_ctx().  The result reads top-down:
 *   "cannot read 'x.vmcore': program header 2 at offset 0xb0: segment ends
 *    past the end of the file (0x1000 > 0x800)".
 * Messages follow git's style: lowercase, no full stop, subject quoted.
 * All of them return -1 so that a failure path can be "return vs_err(...)".
 *
 * Beside the message, a status (the public enum vmsift_status) says what
 * kind of failure it was, for a caller that must act on it rather than
 * print it.  vs_err() sets BAD_INPUT (most messages are about the dump's
 * data); vs_err_sys() maps errno (ENOSPC, EDQUOT, EFBIG: NO_SPACE; ENOMEM:
 * NO_MEMORY; 0, a short read: BAD_INPUT; else IO); vs_err_st() sets the
 * one given, vs_err_oom() NO_MEMORY; vs_err_ctx() keeps the status of the
 * message it extends.
 */
#ifndef VMSIFT_ERROR_H
#define VMSIFT_ERROR_H

#include <stdarg.h>

#include "vmsift.h"

#define VS_ERR_MAX 1024

struct vs_error {
	char msg[VS_ERR_MAX];
	enum vmsift_status status;
};

__attribute__((format(printf, 2, 3)))
int vs_err(struct vs_error *e, const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
int vs_err_sys(struct vs_error *e, const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
int vs_err_oom(struct vs_error *e, const char *fmt, ...);
__attribute__((format(printf, 3, 4)))
int vs_err_st(struct vs_error *e, enum vmsift_status st, const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
int vs_err_ctx(struct vs_error *e, const char *fmt, ...);

static inline void vs_err_clear(struct vs_error *e)
{
	e->msg[0] = '\0';
	e->status = VMSIFT_OK;
}

/* Change the status of the message E holds (a cause found out later). */
static inline void vs_err_set_status(struct vs_error *e,
				     enum vmsift_status st)
{
	e->status = st;
}

#endif
