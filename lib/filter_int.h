/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * filter_int.h - the filter's own description of the dead kernel's
 * struct page (struct vs_filter), shared by its three files and no
 * other: filter_setup.c fills it from VMCOREINFO, freelist.c adds the
 * free-list walk's ranges, filter.c reads it in the per-page cascade.
 */
#ifndef VMSIFT_FILTER_INT_H
#define VMSIFT_FILTER_INT_H

#include "arch.h"
#include "doubt.h"
#include "filter.h"
#include "memmap.h"

#define DL_CACHE      2u
#define DL_CACHE_PRI  4u
#define DL_USER       8u
#define DL_FREE       16u

enum order_mode { ORD_NONE, ORD_U8, ORD_U16, ORD_ULONG, ORD_FLAGS_BYTE };
enum huge_mode { HUGE_NONE, HUGE_DTOR_U8, HUGE_DTOR_U16, HUGE_DTOR_PTR,
		 HUGE_FLAG_TAIL, HUGE_TYPE };
enum buddy_mode { BUDDY_NONE, BUDDY_TYPE, BUDDY_FLAG, BUDDY_FREELIST };

/* A page type kept in _mapcount (before 6.12 ~PG_x, from 6.12 PGTY_x <<
 * 24), compared with the exported value exactly, as upstream makedumpfile
 * does since 1.7.7 (not on the top byte alone, as the kernel would). */
struct ptype {
	int known;
	uint32_t value;
};

struct pfn_range {
	uint64_t start, end;
};

struct vs_filter {
	const struct vs_input *in;
	int scan;                    /* some page needs a decision */
	struct vs_arch *arch;
	struct vs_machine m;         /* the dumped machine (arch.h) */
	struct vs_memmap mm;
	unsigned level;
	uint64_t sps;                /* SIZE(page) */
	uint32_t off_flags, off_mapping, off_mapcount, off_private, off_head;
	int has_mapcount, has_private, has_head;
	uint64_t m_lru, m_private, m_swapcache, m_swapbacked, m_slab;
	uint64_t m_hwpoison, m_head, m_buddy, m_hugetlb;
	int swapbacked_known, slab_typed;
	enum order_mode ord;
	uint32_t ord_off;            /* from the head's struct page */
	enum huge_mode huge;
	uint32_t dtor_off;           /* from the head's struct page */
	uint64_t dtor_value;
	struct ptype t_buddy, t_slab, t_offline, t_unaccepted, t_hugetlb;
	enum buddy_mode buddy;
	uint64_t nr_orders;          /* LENGTH(zone.free_area); 0 unknown */
	struct pfn_range *freel;     /* free-list walk result, sorted */
	size_t nr_freel;
	struct vs_doubt_log doubts;
	char doubt_text[VS_DOUBT_LINES * (VS_DOUBT_LEN + 1) + 64];
};

static inline int vs_need_key(int found, const char *key, struct vs_error *err)
{
	return found ? 0 : vs_err(err, "VMCOREINFO lacks '%s'", key);
}

/* Walk the zones' free lists into f->freel, sorted and merged (for
 * kernels without buddy marks in struct page).  Damaged lists become
 * doubt lines; fails when VMCOREINFO lacks the keys or memory runs out. */
int vs_freelist_walk(struct vs_filter *f, struct vs_error *err);

#endif
