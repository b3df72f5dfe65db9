/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * smallread_test.c - unit test of the views' small-read blocks
 * (lib/file.c: vs_view_read_small), against pread of the same file: a
 * file of random bytes whose size is no multiple of the block is read
 * through a view at its edges (a read crossing a block boundary, reads
 * ending at the file's end and in its last, partial block, a read past
 * the end refused naming the offset and the file), then the least
 * recently used block is the one evicted (counted by the view's misses),
 * then thousands of random small reads equal pread's bytes.  Then the
 * windows (vs_view_get) walked down the file a page at a time, as the
 * struct pages of a vmemmap filled from the top are: after the first
 * miss below a window the next window ends at the read, so the pages
 * below it are hits (the window stays), and every byte equals pread's.
 * All of it with mmap on and off.
 *
 *   smallread_test [SEED]
 *
 * Run by tests/suites/unit.sh and `make -C tests/unit run`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "file.h"

#define BLOCK VS_SMALL_BLOCK
/* More blocks than the view keeps, more than a window, and a partial
 * last block. */
#define FILE_SIZE (VS_MAP_WINDOW + VS_READ_WINDOW + 123)
#define RANDOM_READS 20000

/* Whether the view's LEN bytes at OFF equal pread's. */
static int same(struct vs_view *v, int fd, uint64_t off, size_t len)
{
	uint8_t want[2 * BLOCK], got[2 * BLOCK];
	struct vs_error err = { 0 };

	if (pread(fd, want, len, (off_t)off) != (ssize_t)len)
		return 0;
	memset(got, 0xa5, sizeof(got));
	if (vs_view_read_small(v, got, len, off, &err) < 0) {
		fprintf(stderr, "  0x%zx at 0x%llx: %s\n", len,
			(unsigned long long)off, err.msg);
		return 0;
	}
	return memcmp(want, got, len) == 0;
}

static void edges(struct vs_view *v, int fd, const char *path)
{
	struct vs_error err = { 0 };
	uint8_t b[16];
	char where[64];

	CHECK(same(v, fd, 0, 8));
	CHECK(same(v, fd, BLOCK - 5, 10));              /* crosses a boundary */
	CHECK(same(v, fd, 3 * BLOCK - 1, BLOCK + 2));   /* spans three blocks */
	CHECK(same(v, fd, FILE_SIZE - 8, 8));           /* ends at the end */
	CHECK(same(v, fd, FILE_SIZE - 123, 123));       /* the partial block */
	CHECK(same(v, fd, FILE_SIZE - 130, 130));       /* into it */
	CHECK(vs_view_read_small(v, b, 0, FILE_SIZE, &err) == 0);
	CHECK(vs_view_read_small(v, b, 8, FILE_SIZE - 4, &err) < 0);
	snprintf(where, sizeof(where), "offset 0x%llx",
		 (unsigned long long)(FILE_SIZE - 4));
	CHECK(strstr(err.msg, where) && strstr(err.msg, path));
	CHECK(vs_view_read_small(v, b, 1, FILE_SIZE + BLOCK, &err) < 0);
}

/* Fill every slot with blocks 0..SLOTS-1, touch block 0 again, read one
 * more: block 1 (the least recently used) is the one evicted. */
static void eviction(struct vs_view *v, int fd)
{
	uint64_t m;

	for (uint64_t i = 0; i < VS_SMALL_SLOTS; i++)
		CHECK(same(v, fd, i * BLOCK + 7, 1));
	m = v->small.misses;
	CHECK(same(v, fd, 0, 8));
	CHECK_U64(v->small.misses, m);                  /* all held: no read */
	CHECK(same(v, fd, VS_SMALL_SLOTS * BLOCK + 9, 4));
	CHECK_U64(v->small.misses, m + 1);
	CHECK(same(v, fd, 5, 4));                       /* block 0 kept */
	CHECK(same(v, fd, 2 * BLOCK, 4));               /* block 2 kept */
	CHECK_U64(v->small.misses, m + 1);
	CHECK(same(v, fd, BLOCK + 3, 4));               /* block 1 evicted */
	CHECK_U64(v->small.misses, m + 2);
}

static void random_reads(struct vs_view *v, int fd)
{
	unsigned bad = 0;

	for (int i = 0; i < RANDOM_READS; i++) {
		size_t len = 1 + (size_t)rand() % 600;
		uint64_t off = (uint64_t)rand() % (FILE_SIZE - len + 1);

		bad += !same(v, fd, off, len);
	}
	CHECK_U64(bad, 0);
}

/* Pages read downwards from the file's end through the data window: at
 * most two misses (the window moves at most twice), the same bytes. */
static void walk_down(struct vs_view *v, int fd)
{
	uint8_t want[BLOCK];
	uint64_t off = FILE_SIZE - BLOCK - 100, last = UINT64_MAX;
	unsigned moves = 0, bad = 0;
	struct vs_error err = { 0 };

	for (int i = 0; i < 256; i++, off -= BLOCK) {
		const uint8_t *p = vs_view_get(v, VS_WIN_DATA, off, BLOCK,
					       FILE_SIZE, &err);

		if (!p || pread(fd, want, BLOCK, (off_t)off) != BLOCK ||
		    memcmp(p, want, BLOCK))
			bad++;
		moves += v->win[VS_WIN_DATA].off != last;
		last = v->win[VS_WIN_DATA].off;
	}
	CHECK_U64(bad, 0);
	CHECK(moves <= 2);
}

static void through_view(const char *path, int fd, int no_mmap)
{
	struct vs_error err = { 0 };
	struct vs_file f;
	struct vs_view v;

	if (!CHECK(vs_file_open(&f, path, NULL, &err) == 0)) {
		fprintf(stderr, "  %s\n", err.msg);
		return;
	}
	vs_view_init(&v, &f, no_mmap);
	edges(&v, fd, path);
	vs_view_fini(&v);
	vs_view_init(&v, &f, no_mmap);
	eviction(&v, fd);
	random_reads(&v, fd);
	walk_down(&v, fd);
	vs_view_fini(&v);
	vs_file_close(&f);
}

int main(int argc, char **argv)
{
	char path[] = "/tmp/vmsift-smallread-XXXXXX";
	uint8_t *data = malloc(FILE_SIZE);
	int fd = mkstemp(path);

	srand(argc > 1 ? (unsigned)atoi(argv[1]) : 1);
	if (fd < 0 || !data)
		return fprintf(stderr, "cannot make %s\n", path), 1;
	for (size_t i = 0; i < FILE_SIZE; i++)
		data[i] = (uint8_t)rand();
	if (write(fd, data, FILE_SIZE) != (ssize_t)FILE_SIZE)
		return fprintf(stderr, "cannot write %s\n", path), 1;
	through_view(path, fd, 0);
	through_view(path, fd, 1);
	unlink(path);
	close(fd);
	free(data);
	return check_exit("smallread_test");
}
