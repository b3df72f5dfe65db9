/* error.c - located, stacked error messages (see error.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

int vs_err(struct vs_error *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int vs_err_sys(struct vs_error *e, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;
	size_t len;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	len = strlen(e->msg);
	snprintf(e->msg + len, sizeof(e->msg) - len, ": %s",
		 saved ? strerror(saved) : "unexpected end of file");
	errno = saved;
	return -1;
}

int vs_err_ctx(struct vs_error *e, const char *fmt, ...)
{
	char old[VS_ERR_MAX];
	size_t len;
	va_list ap;

	memcpy(old, e->msg, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	if (!old[0])
		return -1;
	len = strlen(e->msg);
	if (len + 2 < sizeof(e->msg)) {
		memcpy(e->msg + len, ": ", 2);
		len += 2;
		/* Keep the end of the old message if it must be cut. */
		strncpy(e->msg + len, old, sizeof(e->msg) - len - 1);
		e->msg[sizeof(e->msg) - 1] = '\0';
	}
	return -1;
}
