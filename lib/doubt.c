/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * doubt.c - the doubt log (doubt.h): a bounded, key-ordered set of lines
 * on doubtful metadata.  Used by the filter, the memory model and dump.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "doubt.h"

static void doubt_insert(struct vs_doubt_log *log, uint64_t key, const char *s)
{
	unsigned i = log->nr;

	if (log->nr == VS_DOUBT_LINES) {
		log->more++;
		if (key >= log->key[VS_DOUBT_LINES - 1])
			return;
		i = VS_DOUBT_LINES - 1;
	} else {
		log->nr++;
	}
	for (; i > 0 && log->key[i - 1] > key; i--) {
		log->key[i] = log->key[i - 1];
		memcpy(log->line[i], log->line[i - 1], VS_DOUBT_LEN);
	}
	log->key[i] = key;
	snprintf(log->line[i], VS_DOUBT_LEN, "%s", s);
}

void vs_doubt_add(struct vs_doubt_log *log, uint64_t key, const char *fmt, ...)
{
	char line[VS_DOUBT_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	doubt_insert(log, key, line);
}

void vs_doubt_merge(struct vs_doubt_log *dst, const struct vs_doubt_log *src)
{
	for (unsigned i = 0; i < src->nr; i++)
		doubt_insert(dst, src->key[i], src->line[i]);
	dst->more += src->more;
}

void vs_doubt_format(const struct vs_doubt_log *log, char *buf, size_t size)
{
	size_t used = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned i = 0; i < log->nr && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s\n",
					 log->line[i]);
	if (log->more && used < size)
		snprintf(buf + used, size - used, "(%llu more)\n",
			 (unsigned long long)log->more);
}
