/*
 * input_read.c - the input side's read interface, page by page: opens
 * A by path and B by a descriptor (closed at once: the input must hold
 * its own), reads every pfn of both with vs_reader_page() and compares.
 *
 *   input_read [-s] A B
 *
 * Without -s both must say the same of every page (state and bytes);
 * with -s (B filtered from A) a page B holds must equal A's, and a page
 * B left out must be one A holds.  Prints the counts of each state.
 * Used by tests/suites/refilter.sh.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"

struct side {
	struct vs_input in;
	struct vs_reader r;
	uint8_t *buf;
	enum vs_page_state st;
	uint64_t count[3];
};

static int open_side(struct side *s, const char *path, int by_fd,
		     struct vs_error *err)
{
	int fd, ret;

	if (!by_fd)
		ret = vs_input_open(&s->in, path, err);
	else {
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return vs_err_sys(err, "cannot open '%s'", path);
		ret = vs_input_open_fd(&s->in, fd, path, err);
		close(fd);
	}
	if (ret < 0 || vs_reader_init(&s->r, &s->in, err) < 0)
		return -1;
	s->buf = malloc(s->in.page_size);
	return s->buf ? 0 : vs_err(err, "out of memory");
}

/* Whether A and B may say what they say of PFN. */
static int agree(const struct side *a, const struct side *b, uint64_t pfn,
		 size_t page, int subset)
{
	/* A dump written from A ends where the kernel's mem_map ends, as
	 * makedumpfile's does: A's memory past it (a QEMU snapshot's device
	 * RAM) is absent from B. */
	if (pfn >= b->in.max_mapnr && b->st == VS_PAGE_ABSENT)
		return 1;
	if (b->st == VS_PAGE_DATA && a->st != VS_PAGE_DATA)
		return fprintf(stderr, "pfn 0x%llx: B holds it, A does not\n",
			       (unsigned long long)pfn), 0;
	if (b->st == VS_PAGE_DATA && memcmp(a->buf, b->buf, page))
		return fprintf(stderr, "pfn 0x%llx: bytes differ\n",
			       (unsigned long long)pfn), 0;
	if (subset && b->st == VS_PAGE_EXCLUDED && a->st == VS_PAGE_ABSENT)
		return fprintf(stderr, "pfn 0x%llx: excluded by B, absent "
			       "from A\n", (unsigned long long)pfn), 0;
	if (!subset && a->st != b->st)
		return fprintf(stderr, "pfn 0x%llx: state %d in A, %d in B\n",
			       (unsigned long long)pfn, a->st, b->st), 0;
	return 1;
}

int main(int argc, char **argv)
{
	static struct side a, b;
	struct vs_error err = { 0 };
	int subset = argc > 1 && !strcmp(argv[1], "-s");
	uint64_t max;

	if (argc != 3 + subset)
		return fprintf(stderr, "usage: input_read [-s] A B\n"), 2;
	if (open_side(&a, argv[1 + subset], 0, &err) < 0 ||
	    open_side(&b, argv[2 + subset], 1, &err) < 0)
		return fprintf(stderr, "%s\n", err.msg), 1;
	if (a.in.page_size != b.in.page_size)
		return fprintf(stderr, "page sizes differ\n"), 1;
	max = a.in.max_mapnr > b.in.max_mapnr ? a.in.max_mapnr : b.in.max_mapnr;
	for (uint64_t pfn = 0; pfn < max + 64; pfn++) {
		if (vs_reader_page(&a.r, pfn, a.buf, &a.st, &err) < 0 ||
		    vs_reader_page(&b.r, pfn, b.buf, &b.st, &err) < 0)
			return fprintf(stderr, "%s\n", err.msg), 1;
		if (!agree(&a, &b, pfn, a.in.page_size, subset))
			return 1;
		a.count[a.st]++;
		b.count[b.st]++;
	}
	printf("A: %llu absent, %llu excluded, %llu data\n",
	       (unsigned long long)a.count[0], (unsigned long long)a.count[1],
	       (unsigned long long)a.count[2]);
	printf("B: %llu absent, %llu excluded, %llu data\n",
	       (unsigned long long)b.count[0], (unsigned long long)b.count[1],
	       (unsigned long long)b.count[2]);
	vs_reader_fini(&a.r);
	vs_reader_fini(&b.r);
	vs_input_close(&a.in);
	vs_input_close(&b.in);
	free(a.buf);
	free(b.buf);
	return 0;
}
