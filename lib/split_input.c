/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * split_input.c - a split set as one input (split_input.h), for the read
 * interface (read.c).
 */
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "split_input.h"

/* One thread's readers of the files other than parts[0]. */
struct split_readers {
	unsigned n;
	struct vs_reader r[];        /* r[i].in == NULL: not made yet */
};

/* The file whose range holds PFN (ranges sorted and contiguous). */
static long part_of(const struct vs_split *s, uint64_t pfn)
{
	unsigned lo = 0, hi = s->n;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		const struct vs_prev_dump *pd = &s->parts[mid].prev;

		if (pfn < pd->start_pfn)
			hi = mid;
		else if (pfn >= pd->end_pfn)
			lo = mid + 1;
		else
			return (long)mid;
	}
	return -1;
}

static struct vs_reader *sub_reader(struct vs_reader *r,
				    const struct vs_split *s, unsigned k,
				    struct vs_error *err)
{
	struct split_readers *sr = r->sub;

	if (!sr) {
		sr = calloc(1, sizeof(*sr) + s->n * sizeof(sr->r[0]));
		if (!sr)
			return vs_err_oom(err, "out of memory"), NULL;
		sr->n = s->n;
		r->sub = sr;
	}
	if (!sr->r[k].in && vs_reader_init(&sr->r[k], &s->parts[k], err) < 0)
		return NULL;
	return &sr->r[k];
}

static int split_read_page(struct vs_reader *r, uint64_t pfn,
			   const uint8_t **page, struct vs_error *err)
{
	const struct vs_split *s = r->in->hooks_arg;
	long k = part_of(s, pfn);
	struct vs_reader *sub;

	if (k < 0)
		return vs_err(err, "pfn 0x%llx is in no file of the split set",
			      (unsigned long long)pfn);
	if (k == 0)
		return r->in->ops->read_page(r, pfn, page, err);
	sub = sub_reader(r, s, (unsigned)k, err);
	if (!sub || vs_read_page(sub, pfn, page, err) < 0)
		return vs_err_ctx(err, "'%s'", s->parts[k].file.name);
	return 0;
}

static void split_reader_fini(struct vs_reader *r)
{
	struct split_readers *sr = r->sub;

	for (unsigned i = 0; sr && i < sr->n; i++)
		if (sr->r[i].in)
			vs_reader_fini(&sr->r[i]);
	free(sr);
	r->sub = NULL;
}

static const struct vs_input_hooks split_hooks = {
	.read_page = split_read_page,
	.reader_fini = split_reader_fini,
};

static int by_start(const void *a, const void *b)
{
	const struct vs_input *x = a, *y = b;

	return x->prev.start_pfn < y->prev.start_pfn ? -1 :
	       x->prev.start_pfn > y->prev.start_pfn;
}

/* The files are one set: same dump, ranges from 0 to max_mapnr without
 * a gap or an overlap. */
static int check_set(const struct vs_split *s, struct vs_error *err)
{
	const struct vs_input *first = &s->parts[0];
	uint64_t next = 0;

	for (unsigned i = 0; i < s->n; i++) {
		const struct vs_input *p = &s->parts[i];

		if (!p->prev.split)
			return vs_err(err, "'%s' is not a file of a split set",
				      p->file.name);
		if (p->max_mapnr != first->max_mapnr ||
		    p->page_size != first->page_size ||
		    p->order.big_endian != first->order.big_endian ||
		    p->prev.tv_sec != first->prev.tv_sec)
			return vs_err(err, "'%s' and '%s' are files of "
				      "different dumps", first->file.name, p->file.name);
		if (p->prev.start_pfn != next)
			return vs_err(err, "the split set has %s at pfn 0x%llx "
				      "('%s' starts at 0x%llx)",
				      p->prev.start_pfn > next ? "a gap" :
				      "an overlap", (unsigned long long)next,
				      p->file.name,
				      (unsigned long long)p->prev.start_pfn);
		next = p->prev.end_pfn;
	}
	if (next != first->max_mapnr)
		return vs_err(err, "the split set ends at pfn 0x%llx, the dump "
			      "at 0x%llx: a file is missing",
			      (unsigned long long)next,
			      (unsigned long long)first->max_mapnr);
	return 0;
}

static int open_part(struct vs_input *in, int fd, const char *name,
		     const struct vs_age_ids *ids, struct vs_error *err)
{
	in->file.fd = -1;
	in->allow_split = 1;
	in->ids = ids;
	if (vs_input_open_fd(in, fd, name, err) < 0)
		return -1;
	if (!in->prev.known)
		return vs_err(err, "'%s' is not kdump-compressed: not a file "
			      "of a split set", name);
	in->no_mmap = 0;
	return 0;
}

int vs_split_open(struct vs_split *s, const int *fds,
		  const char *const *names, unsigned n,
		  const struct vs_age_ids *ids, struct vs_error *err)
{
	memset(s, 0, sizeof(*s));
	if (n < 1)
		return vs_err_st(err, VMSIFT_E_INVALID, "a split set of no file");
	s->parts = calloc(n, sizeof(*s->parts));
	if (!s->parts)
		return vs_err_oom(err, "out of memory");
	for (unsigned i = 0; i < n; i++) {
		s->n = i + 1;
		if (open_part(&s->parts[i], fds[i], names[i], ids, err) < 0)
			return -1;
	}
	qsort(s->parts, n, sizeof(*s->parts), by_start);
	if (check_set(s, err) < 0)
		return -1;
	s->parts[0].hooks = &split_hooks;
	s->parts[0].hooks_arg = s;
	return 0;
}

void vs_split_close(struct vs_split *s)
{
	for (unsigned i = 0; i < s->n; i++)
		vs_input_close(&s->parts[i]);
	free(s->parts);
	memset(s, 0, sizeof(*s));
}
