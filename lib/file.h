/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file.h - the lowest layer of input: one opened input file, read by
 * offset, and per-thread windows onto it.
 *
 * struct vs_file is the file as the formats see it: for a flattened file
 * (makedumpfile -F) that is the file it stands for, read through its
 * extent map (flat.h).  It is read-only once opened; any number of
 * threads may read it.  struct vs_view is one thread's windows onto it:
 * mapped with mmap, or read with pread in large pieces when mmap is off
 * or refused, one system call per window, never one per page.
 *
 * Used by the input formats (elf_input.c, kdump_input.c), input.c and
 * reader.c; calls only flat.c, age_stream.c and util.c.
 */
#ifndef VMSIFT_FILE_H
#define VMSIFT_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "age.h"
#include "error.h"
#include "flat.h"

struct vs_file {
	char *name;                  /* the path, or the caller's name */
	int fd;                      /* owned: closed by vs_file_close() */
	uint64_t size;               /* of the (rebuilt) file */
	int is_flat;                 /* a flattened stream, read through flat */
	uint64_t stream_size;        /* the flattened file's own size */
	struct vs_flat_map flat;
	struct vs_age_file *age;     /* an age file: its plaintext is read,
					each chunk decrypted when touched */
	int cut;                     /* an age file cut short: only the
					prefix that authenticates is read */
	int procfs;                  /* in procfs (/proc/vmcore): its read()
					costs many times its mmap */
};

/* Open PATH, or a duplicate of the caller's FD (NAME for messages); a
 * flattened file is told by its signature and indexed; an age file is
 * opened with IDS (NULL: none, refused) and read as its plaintext, which
 * may be flattened in turn. */
int vs_file_open(struct vs_file *f, const char *path,
		 const struct vs_age_ids *ids, struct vs_error *err);
int vs_file_open_fd(struct vs_file *f, int fd, const char *name,
		    const struct vs_age_ids *ids, struct vs_error *err);
void vs_file_close(struct vs_file *f);

/* Read LEN bytes at OFF: 0, or -1 with errno (0 at the end of the file). */
int vs_file_read(const struct vs_file *f, void *buf, size_t len, uint64_t off);
/* The same for the formats' own structures: fails with a message naming
 * WHAT and the offset when the file is too short or the read fails. */
int vs_file_read_at(const struct vs_file *f, void *buf, size_t len,
		    uint64_t off, const char *what, struct vs_error *err);

/* A window onto the file: mapped, or read into a buffer. */
struct vs_window {
	uint8_t *p;
	uint64_t off;                /* file offset of p[0] */
	size_t len;
	int mapped;                  /* p is an mmap (else p is buf) */
	uint8_t *buf;                /* what reads fill: VS_READ_WINDOW bytes,
					allocated at the first, kept */
};

/* The windows a format keeps apart so that one does not evict another:
 * bulk data, bitmaps.  Small reads (kdump descriptors, page-table
 * entries) go through the view's small-read blocks (struct vs_small). */
enum { VS_WIN_DATA, VS_WIN_BITMAP, VS_NR_WIN };

/* A window spans 2 MiB when mapped, 1 MiB when read; a read of up to
 * VS_READ_WINDOW bytes is served whole by either. */
#define VS_MAP_WINDOW  ((size_t)2 << 20)
#define VS_READ_WINDOW ((size_t)1 << 20)

/* Small reads scattered over the file (page-table entries, kernel
 * variables): a few page-sized blocks, each filled by one pread of its
 * aligned VS_SMALL_BLOCK bytes, the least recently used one refilled on a
 * miss.  A hit is a memcpy; a miss one pread of a page (on /proc/vmcore
 * one ioremap), where a window would map and unmap 2 MiB for 8 bytes. */
#define VS_SMALL_BLOCK ((size_t)4096)
#define VS_SMALL_SLOTS 16

struct vs_small_slot {
	uint64_t off;                /* file offset, VS_SMALL_BLOCK aligned */
	size_t len;                  /* bytes held (less at the file's end);
					0: empty */
	uint64_t used;               /* the cache's clock at the last use */
};

struct vs_small {
	uint8_t *mem;                /* VS_SMALL_SLOTS blocks, allocated at
					the first read, kept */
	struct vs_small_slot slot[VS_SMALL_SLOTS];
	uint64_t clock;
	uint64_t misses;             /* blocks read (the unit test counts) */
};

struct vs_view {
	const struct vs_file *f;
	struct vs_window win[VS_NR_WIN];
	struct vs_small small;
	int use_mmap;                /* cleared for good if mmap fails */
	int sparse;                  /* reads far apart: read just what is
					asked, map nothing (a 2 MiB mapping
					and its unmapping cost 20 times a
					page's pread) */
	int runs;                    /* the caller may read runs (set by
					reader.c from the read path) */
	uint64_t run;                /* bytes of kept run the next data-window
					miss reads with one pread (RUNS);
					0: map or read a window */
};

/* Windows onto F, mapped unless NO_MMAP (a flattened file never is). */
void vs_view_init(struct vs_view *v, const struct vs_file *f, int no_mmap);
void vs_view_fini(struct vs_view *v);

/* The next miss of the data window starts a run of BYTES of kept data
 * (a hint: reads stay within the region and VS_READ_WINDOW): read it
 * with one pread instead of a window; 0 goes back to windows. */
static inline void vs_view_run(struct vs_view *v, uint64_t bytes)
{
	v->run = bytes;
}

/* A pointer to file bytes [off, off + len) through window W of V (LEN
 * at most VS_READ_WINDOW), valid until the next call on that window; LIMIT
 * is where the surrounding region ends in the file. */
const uint8_t *vs_view_get(struct vs_view *v, int w, uint64_t off, size_t len,
			   uint64_t limit, struct vs_error *err);

/* Copy file bytes [off, off + len) into BUF through V's small-read
 * blocks (any LEN, meant for reads under a page): fails naming the
 * offset when they run past the file's end or the read fails. */
int vs_view_read_small(struct vs_view *v, void *buf, size_t len, uint64_t off,
		       struct vs_error *err);

#endif
