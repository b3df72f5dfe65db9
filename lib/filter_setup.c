/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * filter_setup.c - building a filter (filter.h) from VMCOREINFO: one
 * flat description of the dead kernel's struct page (offsets, flag
 * masks, which page-type and compound-page encodings apply), so that the
 * per-page cascade (filter.c) is plain loads and compares with no
 * function pointer per page.  Keys decide wherever they can; OSRELEASE
 * only where no key tells (u16 vs u8 compound fields before 4.16, the
 * buddy mapcount before it was exported, the order in _flags_1 of a 6.6+
 * kernel built without hugetlb).  Also builds the memory model
 * (memmap.c) and, for kernels without buddy marks, walks the free lists
 * (freelist.c).  Called by dump.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter_int.h"
#include "vmcoreinfo.h"

/* A sanity bound on SIZE(page), not a page size. */
#define MAX_STRUCT    4096u
#define KV(a, b, c)   (((a) << 16) + ((b) << 8) + (c))

const char *vs_filter_doubts(const struct vs_filter *f)
{
	return f ? f->doubt_text : "";
}

static unsigned kernel_version(const struct vs_input *in)
{
	const char *s = vs_vi_raw(in->vi, "OSRELEASE");
	unsigned a = 0, b = 0, c = 0;

	if (!s || sscanf(s, "%u.%u.%u", &a, &b, &c) < 2)
		return 0;
	return KV(a, b, c > 255 ? 255 : c);
}

static uint64_t flag_mask(const struct vs_input *in, const char *name,
			  int64_t dflt)
{
	int64_t v = dflt;

	vs_vi_number(in->vi, name, &v);
	return v >= 0 && v < 64 ? 1ull << v : 0;
}

static void set_ptype(struct ptype *t, const struct vs_input *in,
		      const char *name)
{
	int64_t v;

	t->known = vs_vi_number(in->vi, name, &v);
	t->value = (uint32_t)v;
}

static void set_flags(struct vs_filter *f, const struct vs_input *in)
{
	int64_t priv = 11, swapcache = 15, v;

	vs_vi_number(in->vi, "PG_private", &priv);
	vs_vi_number(in->vi, "PG_swapcache", &swapcache);
	f->m_lru = flag_mask(in, "PG_lru", 5);
	f->m_private = flag_mask(in, "PG_private", 11);
	f->m_swapcache = flag_mask(in, "PG_swapcache", 15);
	f->m_slab = flag_mask(in, "PG_slab", 7);
	f->m_hwpoison = flag_mask(in, "PG_hwpoison", -1);
	f->m_buddy = flag_mask(in, "PG_buddy", -1);
	f->m_hugetlb = flag_mask(in, "PG_hugetlb", -1);
	f->m_head = vs_vi_number(in->vi, "PG_head_mask", &v) ? (uint64_t)v : 1ull << 14;
	f->swapbacked_known = vs_vi_number(in->vi, "PG_swapbacked", &v);
	if (!f->swapbacked_known && swapcache < priv) {
		v = priv + 6;
		f->swapbacked_known = 1;
	}
	f->m_swapbacked = f->swapbacked_known && v >= 0 && v < 64 ? 1ull << v : 0;
	set_ptype(&f->t_buddy, in, "PAGE_BUDDY_MAPCOUNT_VALUE");
	set_ptype(&f->t_slab, in, "PAGE_SLAB_MAPCOUNT_VALUE");
	set_ptype(&f->t_offline, in, "PAGE_OFFLINE_MAPCOUNT_VALUE");
	set_ptype(&f->t_unaccepted, in, "PAGE_UNACCEPTED_MAPCOUNT_VALUE");
	set_ptype(&f->t_hugetlb, in, "PAGE_HUGETLB_MAPCOUNT_VALUE");
	f->slab_typed = f->t_slab.known;
}

static int off_of(const struct vs_input *in, const char *member, uint32_t *off,
		  uint64_t limit)
{
	int64_t v;

	if (!vs_vi_offset(in->vi, member, &v) || v < 0 || (uint64_t)v + 8 > limit)
		return 0;
	*off = (uint32_t)v;
	return 1;
}

/* Where the compound order lives, relative to the head's struct page. */
static void set_order_mode(struct vs_filter *f, const struct vs_input *in,
			   unsigned ver)
{
	uint32_t off, lru, prev = 8;
	uint64_t two = 2 * f->sps;

	if (f->m_hugetlb || f->t_hugetlb.known) {
		f->ord = ORD_FLAGS_BYTE;          /* 6.6+: folio._flags_1 & 0xff */
		f->ord_off = (uint32_t)f->sps + f->off_flags;
	} else if (off_of(in, "folio._folio_order", &off, two)) {
		f->ord = ORD_U8;                  /* 6.3-6.5 */
		f->ord_off = off;
	} else if (off_of(in, "page.compound_order", &off, f->sps)) {
		f->ord = ver && ver < KV(4, 16, 0) ? ORD_U16 : ORD_U8;
		f->ord_off = (uint32_t)f->sps + off;
	} else if (ver && ver < KV(4, 4, 0) && off_of(in, "page.lru", &lru, f->sps)) {
		off_of(in, "list_head.prev", &prev, 16);
		f->ord = ORD_ULONG;               /* tail1.lru.prev */
		f->ord_off = (uint32_t)f->sps + lru + prev;
	} else if (ver >= KV(6, 6, 0)) {
		f->ord = ORD_FLAGS_BYTE;          /* hugetlb not configured */
		f->ord_off = (uint32_t)f->sps + f->off_flags;
	}
}

/* How a hugetlbfs head is recognised. */
static void set_huge_mode(struct vs_filter *f, const struct vs_input *in,
			  unsigned ver)
{
	uint32_t off, lru, next = 0;
	int64_t dtor;
	int has_dtor = vs_vi_number(in->vi, "HUGETLB_PAGE_DTOR", &dtor);

	f->dtor_value = (uint64_t)dtor;
	if (f->t_hugetlb.known) {
		f->huge = HUGE_TYPE;                      /* 6.9+ */
	} else if (f->m_hugetlb) {
		f->huge = HUGE_FLAG_TAIL;                 /* 6.6-6.8 */
	} else if (has_dtor && off_of(in, "folio._folio_dtor", &off, 2 * f->sps)) {
		f->huge = HUGE_DTOR_U8;                   /* 6.3-6.5 */
		f->dtor_off = off;
	} else if (has_dtor && off_of(in, "page.compound_dtor", &off, f->sps)) {
		f->huge = ver && ver < KV(4, 16, 0) ? HUGE_DTOR_U16 : HUGE_DTOR_U8;
		f->dtor_off = (uint32_t)f->sps + off;
	} else if (ver && ver < KV(4, 4, 0) &&
		   vs_vi_symbol(in->vi, "free_huge_page", &f->dtor_value) &&
		   off_of(in, "page.lru", &lru, f->sps)) {
		off_of(in, "list_head.next", &next, 16);
		f->huge = HUGE_DTOR_PTR;                  /* tail1.lru.next */
		f->dtor_off = (uint32_t)f->sps + lru + next;
	}
}

static void set_buddy_mode(struct vs_filter *f, unsigned ver)
{
	if (!(f->level & DL_FREE))
		return;
	if (f->has_mapcount && f->has_private && !f->t_buddy.known && ver) {
		if (ver == KV(2, 6, 38))
			f->t_buddy = (struct ptype){ 1, (uint32_t)-2 };
		else if (ver >= KV(2, 6, 39) && ver < KV(4, 18, 0))
			f->t_buddy = (struct ptype){ 1, (uint32_t)-128 };
	}
	if (f->has_mapcount && f->has_private && f->t_buddy.known)
		f->buddy = BUDDY_TYPE;
	else if (f->m_buddy && f->has_private)
		f->buddy = BUDDY_FLAG;
	else
		f->buddy = BUDDY_FREELIST;
}

/* The keys every decision needs (makedumpfile's mem_map requirements). */
static int set_offsets(struct vs_filter *f, const struct vs_input *in,
		       struct vs_error *err)
{
	int64_t size;
	uint32_t count;

	if (vs_need_key(vs_vi_size(in->vi, "page", &size), "SIZE(page)", err) < 0)
		return -1;
	if (size < 16 || size > MAX_STRUCT)
		return vs_err(err, "SIZE(page) %lld is not plausible", (long long)size);
	f->sps = (uint64_t)size;
	if (vs_need_key(off_of(in, "page.flags", &f->off_flags, f->sps),
		     "OFFSET(page.flags)", err) < 0 ||
	    vs_need_key(off_of(in, "page._refcount", &count, f->sps) ||
		     off_of(in, "page._count", &count, f->sps),
		     "OFFSET(page._refcount)", err) < 0 ||
	    vs_need_key(off_of(in, "page.mapping", &f->off_mapping, f->sps),
		     "OFFSET(page.mapping)", err) < 0)
		return -1;
	f->has_mapcount = off_of(in, "page._mapcount", &f->off_mapcount, f->sps);
	f->has_private = off_of(in, "page.private", &f->off_private, f->sps);
	f->has_head = off_of(in, "page.compound_info", &f->off_head, f->sps) ||
		      off_of(in, "page.compound_head", &f->off_head, f->sps);
	if (f->has_mapcount && f->off_mapcount + 4 > f->sps)
		f->has_mapcount = 0;
	return 0;
}

/* Does anything ask for the struct page scan?  (makedumpfile: bits
 * 2/4/8, PG_hwpoison known, or free pages via page_is_buddy.) */
static int scan_needed(const struct vs_filter *f)
{
	return (f->level & (DL_CACHE | DL_CACHE_PRI | DL_USER)) || f->m_hwpoison ||
	       (f->buddy == BUDDY_TYPE || f->buddy == BUDDY_FLAG);
}

static int setup(struct vs_filter *f, const struct vs_input *in,
		 struct vs_error *err)
{
	unsigned ver = kernel_version(in);
	struct vs_reader r;
	int64_t v;
	int rc;

	/* The machine first: an architecture vmsift cannot translate
	 * says so, whatever else its VMCOREINFO lacks. */
	if (vs_arch_new(&f->arch, in, err) < 0)
		return -1;
	if (set_offsets(f, in, err) < 0)
		return -1;
	set_flags(f, in);
	set_order_mode(f, in, ver);
	set_huge_mode(f, in, ver);
	set_buddy_mode(f, ver);
	f->nr_orders = vs_vi_length(in->vi, "zone.free_area", &v) && v > 0 && v < 64 ?
		       (uint64_t)v : 0;
	f->m = *vs_arch_machine(f->arch);
	if (f->m.ptr_size != 8)
		return vs_err(err, "struct page of a %u-bit kernel is not "
			      "supported", 8 * f->m.ptr_size);
	if (vs_reader_init(&r, in, err) < 0)
		return -1;
	rc = vs_memmap_build(&f->mm, in, f->arch, &r, &f->doubts, err);
	vs_reader_fini(&r);
	if (rc == 0 && f->buddy == BUDDY_FREELIST)
		rc = vs_freelist_walk(f, err);
	return rc;
}

int vs_filter_new(struct vs_filter **out, const struct vs_input *in,
		  unsigned dump_level, struct vs_error *err)
{
	int filtering = (dump_level & (DL_CACHE | DL_CACHE_PRI | DL_USER | DL_FREE)) != 0;
	struct vs_filter *f;

	*out = NULL;
	if (!in->vi)
		return filtering ? vs_err(err, "dump level %u needs VMCOREINFO, "
					  "which the dump lacks", dump_level) : 0;
	f = calloc(1, sizeof(*f));
	if (!f)
		return vs_err_oom(err, "out of memory");
	f->in = in;
	f->level = dump_level;
	if (setup(f, in, err) < 0) {
		vs_filter_free(f);
		if (!filtering)
			return 0;  /* hwpoison/offline only: not worth failing */
		return vs_err_ctx(err, "cannot filter at dump level %u", dump_level);
	}
	/* Kept even when no page needs deciding: the mem_map table still
	 * bounds max_mapnr (vs_filter_max_pfn). */
	f->scan = scan_needed(f) || f->buddy == BUDDY_FREELIST;
	vs_doubt_format(&f->doubts, f->doubt_text, sizeof(f->doubt_text));
	*out = f;
	return 0;
}

uint64_t vs_filter_max_pfn(const struct vs_filter *f)
{
	return f && f->mm.nr ? f->mm.ranges[f->mm.nr - 1].end : 0;
}

const struct vs_memmap *vs_filter_memmap(const struct vs_filter *f)
{
	return &f->mm;
}

const struct vs_arch *vs_filter_arch(const struct vs_filter *f)
{
	return f->arch;
}

void vs_filter_free(struct vs_filter *f)
{
	if (!f)
		return;
	vs_memmap_fini(&f->mm);
	vs_arch_free(f->arch);
	free(f->freel);
	free(f);
}
