/*
 * filter.c - the per-page exclusion decision (filter.h).
 *
 * vs_filter_new() reads VMCOREINFO once into a flat description of the
 * dead kernel's struct page (offsets, flag masks, which page-type and
 * compound-page encodings apply) so that the hot loop is plain loads and
 * compares, with no function pointer per page.  Keys decide wherever they
 * can; OSRELEASE only where no key tells (u16 vs u8 compound fields before
 * 4.16, the buddy mapcount before it was exported, the order in _flags_1
 * of a 6.6+ kernel built without hugetlb).
 *
 * The scan of a chunk follows makedumpfile's sequential loop: every pfn
 * whose page starts inside the dump's memory is a decision point; a
 * decision that excludes 2^order pages skips the scan over them.
 *
 * Chunks are independent.  A chunk may begin inside a range decided at an
 * earlier pfn (a gigantic page's head, or any range when a caller uses
 * small chunks).  Every such range is aligned to its size (compound
 * orders are discarded when the head is not aligned; buddy and
 * unaccepted blocks are aligned by the kernel), so its start is one of the
 * chunk start's "aligned ancestors": START with its lowest set bits
 * cleared one by one.  lookback() decides those few candidates, lowest
 * pfn first as the sequential scan would, and resumes the chunk where the
 * first range covering START ends.  That needs no compound_head pointer
 * (whose encoding changed in 7.1) and also covers buddy blocks.
 *
 * Without buddy identification in struct page, free pages come from the
 * zones' free lists, walked once here (bounded, prev-checked, with Brent's
 * cycle detection) into a sorted list of pfn ranges applied per chunk.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "filter.h"
#include "memmap.h"
#include "vmcoreinfo.h"

#define DL_CACHE      2u
#define DL_CACHE_PRI  4u
#define DL_USER       8u
#define DL_FREE       16u
#define BATCH         512u
#define MAX_STRUCT    4096u
#define KV(a, b, c)   (((a) << 16) + ((b) << 8) + (c))

enum order_mode { ORD_NONE, ORD_U8, ORD_U16, ORD_ULONG, ORD_FLAGS_BYTE };
enum huge_mode { HUGE_NONE, HUGE_DTOR_U8, HUGE_DTOR_U16, HUGE_DTOR_PTR,
		 HUGE_FLAG_TAIL, HUGE_TYPE };
enum buddy_mode { BUDDY_NONE, BUDDY_TYPE, BUDDY_FLAG, BUDDY_FREELIST };
enum reason { R_KEEP, R_FREE, R_CACHE, R_CACHE_PRI, R_USER, R_HWPOISON,
	      R_OFFLINE, R_DOUBT };

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

/* ---- doubt log and counts ---------------------------------------- */

static void doubt_insert(struct vs_doubt_log *log, uint64_t key, const char *s)
{
	unsigned i = log->nr;

	if (log->nr == VS_DOUBT_LINES) {
		log->more++;
		if (key >= log->key[VS_DOUBT_LINES - 1])
			return;
		i = VS_DOUBT_LINES - 1;
	} else {
		log->nr++;
	}
	for (; i > 0 && log->key[i - 1] > key; i--) {
		log->key[i] = log->key[i - 1];
		memcpy(log->line[i], log->line[i - 1], VS_DOUBT_LEN);
	}
	log->key[i] = key;
	snprintf(log->line[i], VS_DOUBT_LEN, "%s", s);
}

void vs_doubt_add(struct vs_doubt_log *log, uint64_t key, const char *fmt, ...)
{
	char line[VS_DOUBT_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	doubt_insert(log, key, line);
}

void vs_doubt_merge(struct vs_doubt_log *dst, const struct vs_doubt_log *src)
{
	for (unsigned i = 0; i < src->nr; i++)
		doubt_insert(dst, src->key[i], src->line[i]);
	dst->more += src->more;
}

void vs_doubt_format(const struct vs_doubt_log *log, char *buf, size_t size)
{
	size_t used = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned i = 0; i < log->nr && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s\n",
					 log->line[i]);
	if (log->more && used < size)
		snprintf(buf + used, size - used, "(%llu more)\n",
			 (unsigned long long)log->more);
}

void vs_counts_add(struct vs_counts *sum, const struct vs_counts *c)
{
	sum->cache += c->cache;
	sum->cache_private += c->cache_private;
	sum->user += c->user;
	sum->free += c->free;
	sum->hwpoison += c->hwpoison;
	sum->offline += c->offline;
	sum->doubtful += c->doubtful;
	vs_doubt_merge(&sum->doubts, &c->doubts);
}

const char *vs_filter_doubts(const struct vs_filter *f)
{
	return f ? f->doubt_text : "";
}

/* ---- setup: what the dead kernel's struct page looks like --------- */

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
		else if (ver >= KV(2, 6, 39))
			f->t_buddy = (struct ptype){ 1, (uint32_t)-128 };
	}
	if (f->has_mapcount && f->has_private && f->t_buddy.known)
		f->buddy = BUDDY_TYPE;
	else if (f->m_buddy && f->has_private)
		f->buddy = BUDDY_FLAG;
	else
		f->buddy = BUDDY_FREELIST;
}

static int need_key(int found, const char *key, struct vs_error *err)
{
	return found ? 0 : vs_err(err, "VMCOREINFO lacks '%s'", key);
}

/* The keys every decision needs (makedumpfile's mem_map requirements). */
static int set_offsets(struct vs_filter *f, const struct vs_input *in,
		       struct vs_error *err)
{
	int64_t size;
	uint32_t count;

	if (need_key(vs_vi_size(in->vi, "page", &size), "SIZE(page)", err) < 0)
		return -1;
	if (size < 16 || size > MAX_STRUCT)
		return vs_err(err, "SIZE(page) %lld is not plausible", (long long)size);
	f->sps = (uint64_t)size;
	if (need_key(off_of(in, "page.flags", &f->off_flags, f->sps),
		     "OFFSET(page.flags)", err) < 0 ||
	    need_key(off_of(in, "page._refcount", &count, f->sps) ||
		     off_of(in, "page._count", &count, f->sps),
		     "OFFSET(page._refcount)", err) < 0 ||
	    need_key(off_of(in, "page.mapping", &f->off_mapping, f->sps),
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

static int free_list_walk(struct vs_filter *f, struct vs_error *err);

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

	if (set_offsets(f, in, err) < 0)
		return -1;
	set_flags(f, in);
	set_order_mode(f, in, ver);
	set_huge_mode(f, in, ver);
	set_buddy_mode(f, ver);
	f->nr_orders = vs_vi_length(in->vi, "zone.free_area", &v) && v > 0 && v < 64 ?
		       (uint64_t)v : 0;
	if (vs_arch_new(&f->arch, in, err) < 0)
		return -1;
	if (vs_reader_init(&r, in, err) < 0)
		return -1;
	rc = vs_memmap_build(&f->mm, in, f->arch, &r, &f->doubts, err);
	vs_reader_fini(&r);
	if (rc == 0 && f->buddy == BUDDY_FREELIST)
		rc = free_list_walk(f, err);
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

void vs_filter_free(struct vs_filter *f)
{
	if (!f)
		return;
	vs_memmap_fini(&f->mm);
	vs_arch_free(f->arch);
	free(f->freel);
	free(f);
}

/* ---- the decision, one struct page -------------------------------- */

static inline uint64_t ld64(const uint8_t *p, uint32_t off)
{
	uint64_t v;

	memcpy(&v, p + off, sizeof(v));
	return v;
}

static inline uint32_t ld32(const uint8_t *p, uint32_t off)
{
	uint32_t v;

	memcpy(&v, p + off, sizeof(v));
	return v;
}

static inline int is_type(const struct ptype *t, uint32_t mapcount)
{
	return t->known && mapcount == t->value;
}

static inline int is_cache(const struct vs_filter *f, uint64_t flags)
{
	if (flags & f->m_lru)
		return 1;
	return (flags & f->m_swapcache) &&
	       (!f->swapbacked_known || (flags & f->m_swapbacked));
}

/* Order of the compound page headed by PG (its first tail follows it),
 * and whether it is a hugetlbfs page. */
static inline uint64_t compound(const struct vs_filter *f, const uint8_t *pg,
				uint32_t mapcount, int *huge)
{
	uint64_t order = 0;

	switch (f->ord) {
	case ORD_U8: order = pg[f->ord_off]; break;
	case ORD_FLAGS_BYTE: order = pg[f->ord_off]; break;
	case ORD_U16: order = (uint64_t)pg[f->ord_off] | (uint64_t)pg[f->ord_off + 1] << 8; break;
	case ORD_ULONG: order = ld64(pg, f->ord_off); break;
	case ORD_NONE: break;
	}
	switch (f->huge) {
	case HUGE_TYPE: *huge = is_type(&f->t_hugetlb, mapcount); break;
	case HUGE_FLAG_TAIL: *huge = (ld64(pg + f->sps, f->off_flags) & f->m_hugetlb) != 0; break;
	case HUGE_DTOR_U8: *huge = pg[f->dtor_off] == f->dtor_value; break;
	case HUGE_DTOR_U16: *huge = (pg[f->dtor_off] | pg[f->dtor_off + 1] << 8) == (int)f->dtor_value; break;
	case HUGE_DTOR_PTR: *huge = ld64(pg, f->dtor_off) == f->dtor_value; break;
	case HUGE_NONE: *huge = 0; break;
	}
	return order;
}

/* makedumpfile's cascade (notes §3.3), first match wins.  HAS_TAIL: the
 * next struct page follows PG in memory.  Sets *NR to the pages the
 * decision covers. */
static inline enum reason decide(const struct vs_filter *f, const uint8_t *pg,
				 int has_tail, uint64_t pfn, uint64_t *nr)
{
	uint64_t flags = ld64(pg, f->off_flags);
	uint64_t mapping = ld64(pg, f->off_mapping);
	uint32_t mc = f->has_mapcount ? ld32(pg, f->off_mapcount) : 0;
	uint64_t order = 0, priv;
	int slab, anon, cache, huge = 0;

	*nr = 1;
	if (f->has_head && (ld64(pg, f->off_head) & 1))
		return R_KEEP;                             /* tail: skip */
	slab = f->slab_typed ? is_type(&f->t_slab, mc) : (flags & f->m_slab) != 0;
	if (f->level & DL_FREE) {
		int buddy = f->buddy == BUDDY_TYPE ? !slab && is_type(&f->t_buddy, mc) :
			    f->buddy == BUDDY_FLAG ? (flags & f->m_buddy) != 0 : 0;

		if (buddy) {
			priv = ld64(pg, f->off_private);
			if (priv >= (f->nr_orders ? f->nr_orders : 64))
				return R_DOUBT;
			*nr = 1ull << priv;
			return R_FREE;
		}
		if (is_type(&f->t_unaccepted, mc)) {
			*nr = 1ull << (f->nr_orders ? f->nr_orders - 1 : 10);
			return R_FREE;
		}
	}
	if (has_tail && (flags & f->m_head)) {
		order = compound(f, pg, mc, &huge);
		if (order >= 64 || (pfn & ((1ull << order) - 1)))
			order = 0;
	}
	anon = (mapping & 1) && !slab;
	cache = is_cache(f, flags);
	*nr = 1ull << order;
	if ((f->level & DL_CACHE) && cache && !(flags & f->m_private) && !anon)
		return R_CACHE;
	if ((f->level & DL_CACHE_PRI) && cache && !anon)
		return flags & f->m_private ? R_CACHE_PRI : R_CACHE;
	if ((f->level & DL_USER) && (anon || huge))
		return R_USER;
	if (flags & f->m_hwpoison)
		return R_HWPOISON;
	if (!slab && is_type(&f->t_offline, mc))
		return R_OFFLINE;
	*nr = 1;
	return R_KEEP;
}

/* ---- scanning a chunk -------------------------------------------- */

struct scan {
	const struct vs_filter *f;
	struct vs_reader *r;
	uint64_t start, end;         /* the chunk */
	uint64_t *bits;
	struct vs_counts *cnt;
	uint64_t next;               /* first pfn not yet covered */
	struct vs_xlat x;
	uint8_t *buf;                /* (BATCH + 1) struct pages */
};

/* Clear bits [from, to) of the chunk; return how many were set. */
static uint64_t clear_bits(struct scan *s, uint64_t from, uint64_t to)
{
	uint64_t n = 0;

	for (uint64_t i = from - s->start, e = to - s->start; i < e;) {
		uint64_t *w = &s->bits[i / 64], m;
		unsigned lo = (unsigned)(i % 64);
		uint64_t take = 64 - lo < e - i ? 64 - lo : e - i;

		m = (take == 64 ? ~0ull : ((1ull << take) - 1)) << lo;
		n += (uint64_t)__builtin_popcountll(*w & m);
		*w &= ~m;
		i += take;
	}
	return n;
}

static int bit_set(const struct scan *s, uint64_t pfn)
{
	uint64_t i = pfn - s->start;

	return (s->bits[i / 64] >> (i % 64)) & 1;
}

static void count(struct vs_counts *c, enum reason why, uint64_t n)
{
	switch (why) {
	case R_FREE: c->free += n; break;
	case R_CACHE: c->cache += n; break;
	case R_CACHE_PRI: c->cache_private += n; break;
	case R_USER: c->user += n; break;
	case R_HWPOISON: c->hwpoison += n; break;
	case R_OFFLINE: c->offline += n; break;
	case R_DOUBT: c->doubtful += n; break;
	case R_KEEP: break;
	}
}

/* Apply a decision taken at PFN covering NR pages (clipped to the chunk,
 * and starting no earlier than FROM). */
static void apply(struct scan *s, enum reason why, uint64_t pfn, uint64_t nr,
		  uint64_t from)
{
	uint64_t to = nr > s->end - pfn ? s->end : pfn + nr;

	if (from < to)
		count(s->cnt, why, clear_bits(s, from, to));
	s->next = nr > UINT64_MAX - pfn ? UINT64_MAX : pfn + nr;
}

static void doubt_order(struct scan *s, uint64_t pfn, const uint8_t *pg)
{
	if (!bit_set(s, pfn))
		return;
	s->cnt->doubtful++;
	vs_doubt_add(&s->cnt->doubts, pfn, "pfn 0x%llx kept: free page of "
		     "order %llu (at most %llu)", (unsigned long long)pfn,
		     (unsigned long long)ld64(pg, s->f->off_private),
		     (unsigned long long)(s->f->nr_orders ? s->f->nr_orders - 1 : 63));
}

static int in_dump(const struct vs_filter *f, uint64_t pfn)
{
	return vs_input_find(f->in, pfn << f->in->page_shift) >= 0;
}

/* Read the struct pages of [pfn, pfn + n) of range G into BUF, plus the
 * next one when G has it and it is readable; returns how many were read
 * (0: the N are not all readable). */
/* The struct pages of [pfn, pfn + n), plus the next one when the range
 * has it (the first tail of a head at the end): in place in the input's
 * window when they are contiguous there (the common case: the scan is
 * bandwidth-bound and a copy would double its traffic), else copied into
 * s->buf.  Returns how many are there, 0 if unreadable. */
static uint64_t read_pages(struct scan *s, const struct vs_memmap_range *g,
			   uint64_t pfn, uint64_t n, const uint8_t **pages)
{
	uint64_t sps = s->f->sps, va = g->vaddr + (pfn - g->start) * sps;
	uint64_t want = pfn + n < g->end ? n + 1 : n;
	uint8_t *buf = s->buf;
	struct vs_error why;

	*pages = vs_memmap_peek(s->f->arch, s->r, &s->x, va, want * sps, &why);
	if (*pages)
		return want;
	*pages = buf;
	if (vs_memmap_read(s->f->arch, s->r, &s->x, va, buf, n * sps, &why) < 0) {
		s->x.len = 0;
		return 0;
	}
	if (pfn + n < g->end &&
	    vs_memmap_read(s->f->arch, s->r, &s->x, va + n * sps, buf + n * sps,
			   sps, &why) == 0)
		return n + 1;
	return n;
}

/* If the page at PFN is a compound tail, its head's pfn, else PFN.
 * compound_head holds the head's address + 1; Linux 7.1's compound_info
 * may instead hold a mask that gives the head when and-ed with the
 * tail's address.  A head that cannot be found gives 0 (search). */
static uint64_t head_of(struct scan *s, uint64_t pfn)
{
	const struct vs_filter *f = s->f;
	size_t i = vs_memmap_first(&f->mm, pfn);
	const struct vs_memmap_range *g = i < f->mm.nr ? &f->mm.ranges[i] : NULL;
	const uint8_t *pg;
	uint64_t word, va, head;

	if (!f->has_head || i == f->mm.nr || g->start > pfn || g->bad ||
	    !read_pages(s, g, pfn, 1, &pg))
		return pfn;
	word = ld64(pg, f->off_head);
	if (!(word & 1))
		return pfn;
	va = g->vaddr + (pfn - g->start) * f->sps;
	if (vs_memmap_pfn_of(&f->mm, word - 1, &head) && head < pfn)
		return head;
	if (vs_memmap_pfn_of(&f->mm, va & word, &head) && head < pfn)
		return head;
	return 0;
}

/* Decide candidate P of the lookback; 1 when its range covers the
 * chunk start (applied), else 0 with *SKIP past its range. */
static int try_candidate(struct scan *s, uint64_t p, uint64_t *skip)
{
	const struct vs_filter *f = s->f;
	size_t i = vs_memmap_first(&f->mm, p);
	const struct vs_memmap_range *g = i < f->mm.nr ? &f->mm.ranges[i] : NULL;
	const uint8_t *pg;
	enum reason why;
	uint64_t got, nr;

	if (i == f->mm.nr || g->start > p || g->bad || !in_dump(f, p))
		return 0;
	got = read_pages(s, g, p, 1, &pg);
	if (!got)
		return 0;
	why = decide(f, pg, got > 1, p, &nr);
	if (why == R_KEEP || why == R_DOUBT)
		return 0;
	if (nr > s->start - p) {
		apply(s, why, p, nr, s->start);
		return 1;
	}
	*skip = p + nr;
	return 0;
}

/* Decide the ranges that may cover the chunk start but begin before it;
 * returns the first pfn the main scan must decide.  Every such range is
 * aligned to its size, so it starts at an "aligned ancestor" of START
 * (START with low bits cleared), decided lowest first as the sequential
 * scan would.  Buddy and unaccepted blocks are at most 2^(orders-1)
 * pages: a chunk aligned to that needs no search for them.  Larger
 * ranges are compound pages, so the wide search runs only when START is
 * a tail, and then goes straight to its head when the head is known. */
static uint64_t lookback(struct scan *s)
{
	const struct vs_filter *f = s->f;
	uint64_t skip = 0, prev = s->start, head = head_of(s, s->start);
	unsigned low = (unsigned)__builtin_ctzll(s->start | (1ull << 63));
	unsigned top = f->nr_orders ? (unsigned)f->nr_orders - 1 : 10;

	if (head && head < s->start && try_candidate(s, head, &skip))
		return s->next;
	if (head == 0)
		top = 63;
	for (unsigned o = top; o > low; o--) {
		uint64_t p = s->start & ~((1ull << o) - 1);

		if (p == prev || p < skip)
			continue;
		prev = p;
		if (try_candidate(s, p, &skip))
			return s->next;
	}
	return s->start;
}

/* Pages [p, p + n) whose struct pages cannot be read: kept, doubtful. */
static void doubt_run(struct scan *s, const struct vs_memmap_range *g,
		      uint64_t p, uint64_t n)
{
	uint64_t first = UINT64_MAX, k = 0;

	for (uint64_t q = p > s->next ? p : s->next; q < p + n; q++)
		if (bit_set(s, q)) {
			k++;
			first = first < q ? first : q;
		}
	if (s->next < p + n)
		s->next = p + n;
	if (!k)
		return;
	s->cnt->doubtful += k;
	vs_doubt_add(&s->cnt->doubts, first, "pfns 0x%llx-0x%llx kept: struct "
		     "pages at 0x%llx unreadable (%llu pages)",
		     (unsigned long long)p, (unsigned long long)(p + n - 1),
		     (unsigned long long)(g->vaddr + (p - g->start) * s->f->sps),
		     (unsigned long long)k);
}

/* The hot loop: decide N (at most BATCH) pages from one read.  When the
 * read fails, retry in pieces of one page of mem_map, so that only the
 * struct pages really unreadable make their pages doubtful. */
static void scan_batch(struct scan *s, const struct vs_memmap_range *g,
		       uint64_t p, uint64_t n)
{
	const struct vs_filter *f = s->f;
	const uint8_t *pages;
	uint64_t sps = f->sps, nr, got = read_pages(s, g, p, n, &pages);
	uint64_t piece = f->in->page_size / sps ? f->in->page_size / sps : 1;

	if (!got && n > piece) {
		for (uint64_t q = p; q < p + n; q += piece)
			scan_batch(s, g, q, piece < p + n - q ? piece : p + n - q);
		return;
	}
	if (!got) {
		doubt_run(s, g, p, n);
		return;
	}
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *pg = pages + i * sps;
		enum reason why;

		if (p + i < s->next)
			continue;
		why = decide(f, pg, i + 1 < got, p + i, &nr);
		if (why == R_DOUBT)
			doubt_order(s, p + i, pg);
		else if (why != R_KEEP)
			apply(s, why, p + i, nr, p + i);
	}
}

static void scan_good(struct scan *s, const struct vs_memmap_range *g,
		      uint64_t lo, uint64_t hi)
{
	for (uint64_t p = lo; p < hi; ) {
		uint64_t n = ((p | (BATCH - 1)) + 1 < hi ? (p | (BATCH - 1)) + 1 : hi) - p;

		scan_batch(s, g, p, n);
		p += n;
	}
}

static void scan_bad(struct scan *s, uint64_t lo, uint64_t hi)
{
	uint64_t first = UINT64_MAX, n = 0;

	for (uint64_t p = lo > s->next ? lo : s->next; p < hi; p++)
		if (bit_set(s, p)) {
			n++;
			first = first < p ? first : p;
		}
	if (!n)
		return;
	s->cnt->doubtful += n;
	vs_doubt_add(&s->cnt->doubts, first, "pfns 0x%llx-0x%llx kept: their "
		     "mem_section could not be read (%llu pages)",
		     (unsigned long long)lo, (unsigned long long)(hi - 1),
		     (unsigned long long)n);
}

/* Decide the pfns [lo, hi) that start inside the dump's memory. */
static void scan_present(struct scan *s, uint64_t lo, uint64_t hi)
{
	const struct vs_memmap *mm = &s->f->mm;

	for (size_t i = vs_memmap_first(mm, lo); i < mm->nr; i++) {
		const struct vs_memmap_range *g = &mm->ranges[i];
		uint64_t a = g->start > lo ? g->start : lo;
		uint64_t b = g->end < hi ? g->end : hi;

		if (g->start >= hi)
			break;
		if (a < s->next)
			a = s->next < b ? s->next : b;
		if (a >= b)
			continue;
		if (g->bad)
			scan_bad(s, a, b);
		else
			scan_good(s, g, a, b);
	}
}

static void scan_segments(struct scan *s)
{
	const struct vs_input *in = s->f->in;
	uint64_t ps = in->page_size;

	for (size_t i = 0; i < in->nr_phys; i++) {
		const struct vs_segment *g = &in->phys[i];
		uint64_t lo = (g->paddr + ps - 1) >> in->page_shift;
		uint64_t hi = (g->paddr + g->memsz + ps - 1) >> in->page_shift;

		if (lo < s->next)
			lo = s->next;
		if (hi > s->end)
			hi = s->end;
		if (lo < hi)
			scan_present(s, lo, hi);
	}
}

static void apply_free_lists(struct scan *s)
{
	const struct vs_filter *f = s->f;
	size_t lo = 0, hi = f->nr_freel;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->freel[mid].end <= s->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < f->nr_freel && f->freel[i].start < s->end; i++) {
		uint64_t a = f->freel[i].start > s->start ? f->freel[i].start : s->start;
		uint64_t b = f->freel[i].end < s->end ? f->freel[i].end : s->end;

		s->cnt->free += clear_bits(s, a, b);
	}
}

int vs_filter_chunk(const struct vs_filter *f, struct vs_reader *r,
		    uint64_t start, uint64_t n, uint64_t *bits,
		    struct vs_counts *cnt, struct vs_error *err)
{
	struct scan s = { f, r, start, start + n, bits, cnt, start, { 0, 0, 0 }, NULL };

	if (start % 64 || n % 64)
		return vs_err(err, "internal: chunk 0x%llx+0x%llx is not "
			      "64-aligned", (unsigned long long)start,
			      (unsigned long long)n);
	if (!n || !f->scan)
		return 0;
	s.buf = malloc((BATCH + 1) * f->sps);
	if (!s.buf)
		return vs_err_oom(err, "out of memory");
	s.next = lookback(&s);
	if (s.next < s.end)
		scan_segments(&s);
	if (f->nr_freel)
		apply_free_lists(&s);
	free(s.buf);
	return 0;
}

/* ---- free lists, for kernels without buddy marks in struct page --- */

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
	return vs_read_kvirt(w->f->arch, &w->r, entry + (uint64_t)w->lh_next, next,
			     8, err) < 0 ||
	       vs_read_kvirt(w->f->arch, &w->r, entry + (uint64_t)w->lh_prev, prev,
			     8, err) < 0 ? -1 : 0;
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
	    vs_read_kvirt(w->f->arch, &w->r, zone + (uint64_t)w->spanned, &spanned,
			  8, &why) < 0) {
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
	int32_t nr = 0;
	struct vs_error why;

	if (vs_read_kvirt(w->f->arch, &w->r, pgdat + (uint64_t)w->nr_zones, &nr, 4,
			  &why) < 0) {
		vs_doubt_add(&w->f->doubts, UINT64_MAX - 1, "pglist_data at 0x%llx "
			     "unreadable: %s; its free pages are kept",
			     (unsigned long long)pgdat, why.msg);
		return 0;
	}
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

	w->lh_size = 16;
	w->lh_next = 0;
	w->lh_prev = 8;
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
	return need_key(vs_vi_offset(vi, "pglist_data.node_zones", &w->zones),
			"OFFSET(pglist_data.node_zones)", err) < 0 ||
	       need_key(vs_vi_offset(vi, "pglist_data.nr_zones", &w->nr_zones),
			"OFFSET(pglist_data.nr_zones)", err) < 0 ||
	       need_key(vs_vi_size(vi, "zone", &w->zone_size), "SIZE(zone)", err) < 0 ||
	       need_key(vs_vi_offset(vi, "zone.free_area", &w->free_area),
			"OFFSET(zone.free_area)", err) < 0 ||
	       need_key(vs_vi_size(vi, "free_area", &w->area_size),
			"SIZE(free_area)", err) < 0 ||
	       need_key(vs_vi_offset(vi, "free_area.free_list", &w->free_list),
			"OFFSET(free_area.free_list)", err) < 0 ||
	       need_key(vs_vi_offset(vi, "page.lru", &w->lru), "OFFSET(page.lru)",
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

static int free_list_walk(struct vs_filter *f, struct vs_error *err)
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
