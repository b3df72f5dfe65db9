/* SPDX-License-Identifier: GPL-2.0-or-later */
/* error.c - located, stacked error messages and their status (error.h);
 * every layer of the library reports failures through it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

__attribute__((format(printf, 3, 0)))
static int set_v(struct vs_error *e, enum vmsift_status st, const char *fmt,
		 va_list ap)
{
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	e->status = st;
	return -1;
}

int vs_err(struct vs_error *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_v(e, VMSIFT_E_BAD_INPUT, fmt, ap);
	va_end(ap);
	return -1;
}

int vs_err_oom(struct vs_error *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_v(e, VMSIFT_E_NO_MEMORY, fmt, ap);
	va_end(ap);
	return -1;
}

int vs_err_st(struct vs_error *e, enum vmsift_status st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_v(e, st, fmt, ap);
	va_end(ap);
	return -1;
}

static enum vmsift_status status_of_errno(int errnum)
{
	switch (errnum) {
	case 0:                      /* a short read: the file is cut */
		return VMSIFT_E_BAD_INPUT;
	case ENOSPC:
	case EDQUOT:
	case EFBIG:
		return VMSIFT_E_NO_SPACE;
	case ENOMEM:
		return VMSIFT_E_NO_MEMORY;
	default:
		return VMSIFT_E_IO;
	}
}

int vs_err_sys(struct vs_error *e, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;
	size_t len;

	va_start(ap, fmt);
	set_v(e, status_of_errno(saved), fmt, ap);
	va_end(ap);
	len = strlen(e->msg);
	snprintf(e->msg + len, sizeof(e->msg) - len, ": %s",
		 saved ? strerror(saved) : "unexpected end of file");
	errno = saved;
	return -1;
}

/* Put the new context in front; when the whole does not fit, the end of
 * the old message is what is cut. */
int vs_err_ctx(struct vs_error *e, const char *fmt, ...)
{
	char old[VS_ERR_MAX];
	size_t len;
	va_list ap;

	memcpy(old, e->msg, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	if (!old[0]) {
		if (e->status == VMSIFT_OK)
			e->status = VMSIFT_E_BAD_INPUT;
		return -1;
	}
	len = strlen(e->msg);
	if (len + 2 < sizeof(e->msg)) {
		memcpy(e->msg + len, ": ", 2);
		len += 2;
		strncpy(e->msg + len, old, sizeof(e->msg) - len - 1);
		e->msg[sizeof(e->msg) - 1] = '\0';
	}
	return -1;
}

const char *vmsift_status_name(enum vmsift_status st)
{
	static const char *const names[] = {
		[VMSIFT_OK] = "ok",
		[VMSIFT_E_INVALID] = "invalid argument",
		[VMSIFT_E_BAD_INPUT] = "bad input",
		[VMSIFT_E_UNSUPPORTED] = "unsupported",
		[VMSIFT_E_IO] = "i/o error",
		[VMSIFT_E_NO_SPACE] = "no space",
		[VMSIFT_E_NO_MEMORY] = "out of memory",
		[VMSIFT_E_CANCELLED] = "cancelled",
		[VMSIFT_E_NO_DATA] = "not in the dump",
		[VMSIFT_E_MISMATCH] = "debug information of another kernel",
	};

	if ((unsigned)st >= sizeof(names) / sizeof(names[0]) || !names[st])
		return "unknown status";
	return names[st];
}
