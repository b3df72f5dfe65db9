/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sink.h - where a dump's bytes go: a seekable file (pwrite at each
 * offset) or makedumpfile's flattened stream (a record of offset and size
 * before each piece, for pipes and ssh).  Writers address both the same
 * way, by file offset; only the sink knows the difference.  Used from one
 * thread (the pipeline's ordered writer).
 */
#ifndef VMSIFT_SINK_H
#define VMSIFT_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct vs_age_writer;

struct vs_sink {
	int fd;
	const char *name;
	int flat;                    /* flattened stream */
	int readable;                /* seekable and open for reading too */
	int sparse;                  /* a regular file empty at open: what
					is not written reads as zeros */
	int dry_run;                 /* count, write nothing */
	uint64_t limit;              /* -L: the file (or stream) size at most */
	uint64_t bytes;              /* the output's size so far */
	uint64_t written;            /* bytes handed to write(2) or the stream */
	double write_seconds;        /* time spent there */
	int out_of_space;            /* a write failed: disk full or -L */
	struct vs_age_writer *age;   /* the stream goes out encrypted (age.h) */
};

/* Start writing to FD; writes the flattened header when FLAT.  With
 * DRY_RUN nothing is written and FD is not used. */
int vs_sink_open(struct vs_sink *s, int fd, const char *name, int flat,
		 int dry_run, uint64_t limit, struct vs_error *err);
/* The same for a flattened stream encrypted to the N age recipients
 * RCPTS ("age1..."): the file is an age file whose plaintext is the
 * stream, written once, front to back; -L counts the encrypted bytes. */
int vs_sink_open_age(struct vs_sink *s, int fd, const char *name, int dry_run,
		     uint64_t limit, const char *const *rcpts, unsigned n,
		     struct vs_error *err);
/* Parse the recipients RCPTS into *PKS (malloc'ed), refusing a bad one. */
int vs_sink_recipients(const char *const *rcpts, unsigned n, uint8_t (**pks)[32],
		       struct vs_error *err);
/* Free what the sink holds (the encryption state); after close or not. */
void vs_sink_release(struct vs_sink *s);
int vs_sink_write(struct vs_sink *s, const void *buf, size_t len,
		  uint64_t off, struct vs_error *err);
/* As vs_sink_write, but a BUF of zeros is only counted when the file
 * is sparse: a hole reads the same, and costs no disk and no time (the
 * bitmaps of a large address span are mostly zeros). */
int vs_sink_write_sparse(struct vs_sink *s, const void *buf, size_t len,
			 uint64_t off, struct vs_error *err);
/* Ends a flattened stream with its end marker (and an encrypted one
 * with its last chunk); makes a sparse file as long as its furthest
 * write, holes included. */
int vs_sink_close(struct vs_sink *s, struct vs_error *err);
/* Read back what was written at OFF (only if s->readable). */
int vs_sink_read(const struct vs_sink *s, void *buf, size_t len, uint64_t off,
		 struct vs_error *err);

#endif
