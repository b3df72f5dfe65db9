/*
 * doubt.h - a few lines on doubtful metadata, for the report.  The filter
 * (filter*.c, freelist.c) and the memory model (memmap.c) add lines; the
 * orchestration (dump.c) merges the workers' logs and formats them for
 * vmsift_doubts().
 *
 * Lines are kept in order of their key (a pfn), the lowest VS_DOUBT_LINES
 * of all, so the log is the same whatever order chunks were done in.
 */
#ifndef VMSIFT_DOUBT_H
#define VMSIFT_DOUBT_H

#include <stddef.h>
#include <stdint.h>

#define VS_DOUBT_LINES 8
#define VS_DOUBT_LEN   256

struct vs_doubt_log {
	unsigned nr;                 /* lines held */
	uint64_t more;               /* lines left out */
	uint64_t key[VS_DOUBT_LINES];
	char line[VS_DOUBT_LINES][VS_DOUBT_LEN];
};

__attribute__((format(printf, 3, 4)))
void vs_doubt_add(struct vs_doubt_log *log, uint64_t key, const char *fmt, ...);
/* Merge SRC's lines into DST. */
void vs_doubt_merge(struct vs_doubt_log *dst, const struct vs_doubt_log *src);
/* The lines as text, one per line, into BUF of SIZE bytes. */
void vs_doubt_format(const struct vs_doubt_log *log, char *buf, size_t size);

#endif
