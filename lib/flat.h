/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flat.h - makedumpfile's flattened format (-F): the one parser of its
 * header and records, and the extent map that lets a flattened file be
 * read as the file it stands for.
 *
 * Used by file.c (a flattened file opened as input: it reads through the
 * map) and by flat_reader.c (-R, rebuilding a file from a stream), so
 * that the two cannot disagree on what a record may say.  Sits just above
 * util: it calls nothing else of the library.
 */
#ifndef VMSIFT_FLAT_H
#define VMSIFT_FLAT_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Bytes [off, off + len) of the rebuilt file lie at stream position POS. */
struct vs_flat_extent {
	uint64_t off, len, pos;
};

/* Sorted by off, disjoint; END is where the rebuilt file ends. */
struct vs_flat_map {
	struct vs_flat_extent *ext;
	size_t n, cap;
	uint64_t end;
	int cut;                     /* the stream ended early (allowed) */
};

/* Where a stream's bytes come from: pread-like, 0 or -1 with errno. */
typedef int vs_flat_pread_fn(void *arg, void *buf, size_t len, uint64_t off);

/* Whether HEAD (LEN bytes from offset 0) starts with the signature;
 * the file must also hold the FLAT_HEADER_SIZE header. */
int vs_flat_probe(const void *head, size_t len);
/* Check a whole FLAT_HEADER_SIZE header of NAME: signature and type. */
int vs_flat_check_header(const void *hdr, const char *name,
			 struct vs_error *err);

/* One record header, decoded. */
struct vs_flat_record {
	uint64_t off, size;
	int end;                     /* the end marker: off and size -1 */
};

/* Decode the 16 bytes RAW read at stream position POS of NAME.  A record
 * whose offset or size is negative, or whose end does not fit in an
 * int64 (an off_t), is an error naming POS. */
int vs_flat_record_parse(const void *raw, uint64_t pos, const char *name,
			 struct vs_flat_record *rec, struct vs_error *err);

/* Index the records of the flattened file FD (NAME, SIZE bytes) into M;
 * a later record overwrites an earlier one where they overlap, as -R
 * applies them. */
int vs_flat_map_build(struct vs_flat_map *m, int fd, const char *name,
		      uint64_t size, struct vs_error *err);
/* Add [off, off + len) at stream position POS, cutting what it overlaps. */
int vs_flat_map_insert(struct vs_flat_map *m, uint64_t off, uint64_t len,
		       uint64_t pos, struct vs_error *err);
/* The same over a stream read with RD(ARG): an age file's plaintext.
 * With ALLOW_CUT, a stream that ends early (the authenticated prefix of
 * a cut file) is indexed as far as it goes, and m->cut set. */
int vs_flat_map_build_from(struct vs_flat_map *m, vs_flat_pread_fn *rd,
			   void *arg, const char *name, uint64_t size,
			   int allow_cut, struct vs_error *err);
void vs_flat_map_free(struct vs_flat_map *m);

/* Read LEN bytes at OFF of the rebuilt file from the stream FD: ranges
 * no record wrote read as zeros.  0, or -1 with errno. */
int vs_flat_map_read(const struct vs_flat_map *m, int fd, void *buf,
		     size_t len, uint64_t off);
int vs_flat_map_read_from(const struct vs_flat_map *m, vs_flat_pread_fn *rd,
			  void *arg, void *buf, size_t len, uint64_t off);

#endif
