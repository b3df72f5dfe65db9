/*
 * error.h - located, stacked error messages.
 *
 * The lowest layer that sees a failure sets the message with vs_err() (or
 * vs_err_sys(), which appends strerror(errno) once); each layer above adds
 * its own context in front with vs_err_ctx().  The result reads top-down:
 *   "cannot read 'x.vmcore': program header 2 at offset 0xb0: segment ends
 *    past the end of the file (0x1000 > 0x800)".
 * Messages follow git's style: lowercase, no full stop, subject quoted.
 * All three return -1 so that a failure path can be "return vs_err(...)".
 */
#ifndef VMSIFT_ERROR_H
#define VMSIFT_ERROR_H

#include <stdarg.h>

#define VS_ERR_MAX 1024

struct vs_error {
	char msg[VS_ERR_MAX];
};

__attribute__((format(printf, 2, 3)))
int vs_err(struct vs_error *e, const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
int vs_err_sys(struct vs_error *e, const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
int vs_err_ctx(struct vs_error *e, const char *fmt, ...);

static inline void vs_err_clear(struct vs_error *e)
{
	e->msg[0] = '\0';
}

#endif
