/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * freelist.c - free pages of kernels without buddy marks in struct page:
 * the zones' free lists, walked once when the filter is built
 * (filter_setup.c), bounded, prev-checked, with Brent's cycle detection,
 * into a sorted list of pfn ranges that the cascade (filter.c) applies
 * per chunk.  Damaged lists become doubt lines and their pages are kept.
 */
#include <stdlib.h>

#include "filter_int.h"
#include "vmcoreinfo.h"

struct walk {
	struct vs_filter *f;
	struct vs_reader r;
	uint64_t budget;             /* list entries left before giving up */
	size_t cap;
	int64_t zones, nr_zones, zone_size, free_area, area_size, free_list;
	int64_t lh_size, lh_next, lh_prev, lru, migrate, spanned;
	int has_spanned;
};

static int add_free(struct walk *w, uint64_t pfn, uint64_t nr,
		    struct vs_error *err)
{
	struct vs_filter *f = w->f;

	if (f->nr_freel == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 1024;
		void *p = realloc(f->freel, cap * sizeof(*f->freel));

		if (!p)
			return vs_err_oom(err, "out of memory");
		f->freel = p;
		w->cap = cap;
	}
	f->freel[f->nr_freel++] = (struct pfn_range){ pfn, pfn + nr };
	return 0;
}

static int read_link(struct walk *w, uint64_t entry, uint64_t *next,
		     uint64_t *prev, struct vs_error *err)
{
	return vs_read_kvirt_ptr(w->f->arch, &w->r,
				 entry + (uint64_t)w->lh_next, next, err) < 0 ||
	       vs_read_kvirt_ptr(w->f->arch, &w->r,
				 entry + (uint64_t)w->lh_prev, prev, err) < 0 ?
	       -1 : 0;
}

static void list_doubt(struct walk *w, uint64_t head, unsigned order,
		       uint64_t at, const char *what)
{
	vs_doubt_add(&w->f->doubts, UINT64_MAX - 1, "free list 0x%llx (order "
		     "%u) abandoned at 0x%llx: %s; its pages are kept",
		     (unsigned long long)head, order, (unsigned long long)at, what);
}

/* One free_list[] chain: entries are page.lru of the first page of a free
 * block of 2^ORDER pages.  Stops at a bad link, a prev mismatch, a
 * struct page outside mem_map, a cycle (Brent) or an exhausted budget. */
static int walk_list(struct walk *w, uint64_t head, unsigned order,
		     struct vs_error *err)
{
	uint64_t cur, prev = head, next, back, tortoise, power = 1, lam = 0, pfn;
	struct vs_error why;

	if (read_link(w, head, &cur, &back, &why) < 0)
		return list_doubt(w, head, order, head, why.msg), 0;
	tortoise = head;
	while (cur != head) {
		if (w->budget-- == 0)
			return list_doubt(w, head, order, cur, "more entries than pages"), 0;
		if (read_link(w, cur, &next, &back, &why) < 0)
			return list_doubt(w, head, order, cur, why.msg), 0;
		if (back != prev)
			return list_doubt(w, head, order, cur, "prev link mismatch"), 0;
		if (!vs_memmap_pfn_of(&w->f->mm, cur - (uint64_t)w->lru, &pfn))
			return list_doubt(w, head, order, cur, "not a struct page"), 0;
		if (add_free(w, pfn, 1ull << order, err) < 0)
			return -1;
		prev = cur;
		cur = next;
		if (cur == tortoise)
			return list_doubt(w, head, order, cur, "list loops"), 0;
		if (++lam == power) {
			tortoise = cur;
			power *= 2;
			lam = 0;
		}
	}
	return 0;
}

static int walk_zone(struct walk *w, uint64_t zone, struct vs_error *err)
{
	uint64_t spanned = 1;
	unsigned orders = (unsigned)w->f->nr_orders;

	struct vs_error why;

	if (w->has_spanned &&
	    vs_read_kvirt_ptr(w->f->arch, &w->r, zone + (uint64_t)w->spanned,
			      &spanned, &why) < 0) {
		vs_doubt_add(&w->f->doubts, UINT64_MAX - 1, "zone at 0x%llx "
			     "unreadable: %s; its free pages are kept",
			     (unsigned long long)zone, why.msg);
		return 0;
	}
	if (!spanned)
		return 0;
	for (unsigned o = orders; o-- > 0;)
		for (int64_t mt = 0; mt < w->migrate; mt++) {
			uint64_t head = zone + (uint64_t)(w->free_area + o * w->area_size +
					w->free_list + mt * w->lh_size);

			if (walk_list(w, head, o, err) < 0)
				return -1;
		}
	return 0;
}

static int walk_node(struct walk *w, uint64_t pgdat, struct vs_error *err)
{
	uint32_t raw = 0;
	int32_t nr;
	struct vs_error why;

	if (vs_read_kvirt_u32(w->f->arch, &w->r, pgdat + (uint64_t)w->nr_zones,
			      &raw, &why) < 0) {
		vs_doubt_add(&w->f->doubts, UINT64_MAX - 1, "pglist_data at 0x%llx "
			     "unreadable: %s; its free pages are kept",
			     (unsigned long long)pgdat, why.msg);
		return 0;
	}
	nr = (int32_t)raw;
	if (nr < 0 || nr > 16) {
		vs_doubt_add(&w->f->doubts, UINT64_MAX - 1, "pglist_data at 0x%llx "
			     "has %d zones; its free pages are kept",
			     (unsigned long long)pgdat, nr);
		return 0;
	}
	for (int32_t z = 0; z < nr; z++)
		if (walk_zone(w, pgdat + (uint64_t)(w->zones + z * w->zone_size), err) < 0)
			return -1;
	return 0;
}

static int walk_keys(struct walk *w, const struct vs_input *in,
		     struct vs_error *err)
{
	const struct vs_vmcoreinfo *vi = in->vi;

	w->lh_size = 2 * w->f->m.ptr_size;
	w->lh_next = 0;
	w->lh_prev = w->f->m.ptr_size;
	w->migrate = 1;
	vs_vi_size(vi, "list_head", &w->lh_size);
	vs_vi_offset(vi, "list_head.next", &w->lh_next);
	vs_vi_offset(vi, "list_head.prev", &w->lh_prev);
	vs_vi_length(vi, "free_area.free_list", &w->migrate);
	w->has_spanned = vs_vi_offset(vi, "zone.spanned_pages", &w->spanned);
	if (!w->f->nr_orders)
		w->f->nr_orders = 11;
	if (w->migrate < 1 || w->migrate > 64)
		w->migrate = 1;
	return vs_need_key(vs_vi_offset(vi, "pglist_data.node_zones", &w->zones),
			"OFFSET(pglist_data.node_zones)", err) < 0 ||
	       vs_need_key(vs_vi_offset(vi, "pglist_data.nr_zones", &w->nr_zones),
			"OFFSET(pglist_data.nr_zones)", err) < 0 ||
	       vs_need_key(vs_vi_size(vi, "zone", &w->zone_size), "SIZE(zone)", err) < 0 ||
	       vs_need_key(vs_vi_offset(vi, "zone.free_area", &w->free_area),
			"OFFSET(zone.free_area)", err) < 0 ||
	       vs_need_key(vs_vi_size(vi, "free_area", &w->area_size),
			"SIZE(free_area)", err) < 0 ||
	       vs_need_key(vs_vi_offset(vi, "free_area.free_list", &w->free_list),
			"OFFSET(free_area.free_list)", err) < 0 ||
	       vs_need_key(vs_vi_offset(vi, "page.lru", &w->lru), "OFFSET(page.lru)",
			err) < 0 ? -1 : 0;
}

static int range_cmp(const void *x, const void *y)
{
	const struct pfn_range *a = x, *b = y;

	return a->start < b->start ? -1 : a->start > b->start;
}

static void merge_free(struct vs_filter *f)
{
	size_t out = 0;

	qsort(f->freel, f->nr_freel, sizeof(*f->freel), range_cmp);
	for (size_t i = 0; i < f->nr_freel; i++) {
		if (out && f->freel[i].start <= f->freel[out - 1].end) {
			if (f->freel[i].end > f->freel[out - 1].end)
				f->freel[out - 1].end = f->freel[i].end;
			continue;
		}
		f->freel[out++] = f->freel[i];
	}
	f->nr_freel = out;
}

int vs_freelist_walk(struct vs_filter *f, struct vs_error *err)
{
	struct walk w = { .f = f, .budget = f->in->max_mapnr + 1 };
	uint64_t pgdat[1024];
	size_t nr;
	int rc;

	if (walk_keys(&w, f->in, err) < 0)
		return vs_err_ctx(err, "cannot find free pages without buddy marks");
	if (vs_reader_init(&w.r, f->in, err) < 0)
		return -1;
	if (vs_memmap_nodes(f->in, f->arch, &w.r, pgdat, 1024, &nr, err) < 0) {
		vs_doubt_add(&f->doubts, UINT64_MAX - 1, "free lists not walked: "
			     "%s; free pages are kept", err->msg);
		nr = 0;
	}
	rc = 0;
	for (size_t i = 0; rc == 0 && i < nr; i++)
		rc = walk_node(&w, pgdat[i], err);
	vs_reader_fini(&w.r);
	if (rc == 0)
		merge_free(f);
	return rc;
}
