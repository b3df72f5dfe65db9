/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memmap.c - the pfn -> struct page table (memmap.h), built once per
 * dump by the filter's set-up (filter_setup.c) and read by the cascade
 * (filter.c) and the free-list walk (freelist.c).
 *
 * Model choice follows makedumpfile: DISCONTIGMEM when the node tables
 * are described, else SPARSEMEM (EXTREME when LENGTH(mem_section) is the
 * number of roots, or missing), else FLATMEM.  A SPARSEMEM section word
 * holds the section's mem_map pre-biased by its first pfn:
 *   struct page of pfn = (word & ~0x1f) + pfn * SIZE(page)
 * and only sections with SECTION_MARKED_PRESENT (bit 0) are used.
 */
#include <stdlib.h>
#include <string.h>

#include "memmap.h"
#include "vmcoreinfo.h"

#define SECTION_MARKED_PRESENT 1ull
#define SECTION_MAP_MASK       (~0x1full)
#define MAX_NODES              1024

struct build {
	struct vs_memmap *m;
	const struct vs_input *in;
	const struct vs_arch *a;
	struct vs_reader *r;
	struct vs_doubt_log *doubts;
	size_t cap;
};

static int add_range(struct build *b, uint64_t start, uint64_t end,
		     uint64_t vaddr, int bad, struct vs_error *err)
{
	struct vs_memmap *m = b->m;
	struct vs_memmap_range *last = m->nr ? &m->ranges[m->nr - 1] : NULL;

	if (end > b->in->max_mapnr)
		end = b->in->max_mapnr;
	if (start >= end)
		return 0;
	if (last && last->end == start && last->bad == bad &&
	    (bad || last->vaddr + (start - last->start) * m->page_struct_size == vaddr)) {
		last->end = end;
		return 0;
	}
	if (m->nr == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		void *p = realloc(m->ranges, cap * sizeof(*m->ranges));

		if (!p)
			return vs_err_oom(err, "out of memory");
		m->ranges = p;
		b->cap = cap;
	}
	m->ranges[m->nr++] = (struct vs_memmap_range){ start, end, vaddr, bad };
	return 0;
}

static int need(int found, const char *key, struct vs_error *err)
{
	return found ? 0 : vs_err(err, "VMCOREINFO lacks '%s'", key);
}

struct sparse {
	uint64_t sym, sec_size, map_off, pps, nr_sections, per_root, roots;
	int extreme;
};

static int sparse_params(const struct vs_input *in, const struct vs_arch *a,
			 struct sparse *s, struct vs_error *err)
{
	const struct vs_machine *m = vs_arch_machine(a);
	int64_t size, off, bits, phys, len;
	int has_len;

	if (need(vs_vi_size(in->vi, "mem_section", &size),
		 "SIZE(mem_section)", err) < 0 ||
	    need(vs_vi_offset(in->vi, "mem_section.section_mem_map", &off),
		 "OFFSET(mem_section.section_mem_map)", err) < 0)
		return -1;
	if (!vs_vi_number(in->vi, "SECTION_SIZE_BITS", &bits))
		bits = vs_arch_ops_of(a)->section_size_bits;
	if (!vs_vi_number(in->vi, "MAX_PHYSMEM_BITS", &phys))
		phys = vs_arch_ops_of(a)->max_physmem_bits;
	if (size <= 0 || off < 0 || off + m->ptr_size > size ||
	    bits <= m->page_shift ||
	    bits >= 48 || phys < bits || phys > 64)
		return vs_err(err, "VMCOREINFO describes mem_section oddly "
			      "(size %lld, section bits %lld, physmem bits %lld)",
			      (long long)size, (long long)bits, (long long)phys);
	s->sec_size = (uint64_t)size;
	s->map_off = (uint64_t)off;
	s->pps = 1ull << (bits - m->page_shift);
	s->nr_sections = (in->max_mapnr + s->pps - 1) / s->pps;
	s->per_root = m->page_size / s->sec_size;  /* SECTIONS_PER_ROOT */
	has_len = vs_vi_length(in->vi, "mem_section", &len);
	s->extreme = !has_len || s->per_root == 0 ||
		     (uint64_t)len == (1ull << (phys - bits)) / s->per_root;
	if (!s->extreme)
		s->per_root = s->nr_sections;
	s->roots = (s->nr_sections + s->per_root - 1) / s->per_root;
	if (has_len && s->extreme && s->roots > (uint64_t)len)
		s->roots = (uint64_t)len;
	return 0;
}

/* Add the present sections among the PER_ROOT at table TAB. */
static int add_sections(struct build *b, const struct sparse *s,
			const uint8_t *tab, uint64_t first, uint64_t count,
			struct vs_error *err)
{
	const struct vs_machine *m = vs_arch_machine(b->a);

	for (uint64_t i = 0; i < count; i++) {
		uint64_t nr = first + i, word, start = nr * s->pps;

		word = vs_loadptr(m, tab + i * s->sec_size + s->map_off);
		if (!(word & SECTION_MARKED_PRESENT) || !(word & SECTION_MAP_MASK))
			continue;
		word = (word & SECTION_MAP_MASK) + start * b->m->page_struct_size;
		if (add_range(b, start, start + s->pps, word, 0, err) < 0)
			return -1;
	}
	return 0;
}

static int bad_root(struct build *b, const struct sparse *s, uint64_t first,
		    uint64_t count, const char *what, uint64_t addr,
		    const struct vs_error *why, struct vs_error *err)
{
	vs_doubt_add(b->doubts, first * s->pps, "mem_section %s at 0x%llx "
		     "(pfns 0x%llx-0x%llx) unreadable: %s", what,
		     (unsigned long long)addr,
		     (unsigned long long)(first * s->pps),
		     (unsigned long long)((first + count) * s->pps - 1),
		     why->msg);
	return add_range(b, first * s->pps, (first + count) * s->pps, 0, 1, err);
}

static int one_root(struct build *b, const struct sparse *s, uint64_t root,
		    uint8_t *tab, struct vs_error *err)
{
	uint64_t first = root * s->per_root, count = s->per_root, ptr = s->sym;
	uint64_t at = s->sym + root * vs_arch_machine(b->a)->ptr_size;
	struct vs_error why;

	if (first + count > s->nr_sections)
		count = s->nr_sections - first;
	if (s->extreme && vs_read_kvirt_ptr(b->a, b->r, at, &ptr, &why) < 0)
		return bad_root(b, s, first, count, "root pointer", at, &why,
				err);
	if (ptr == 0)
		return 0;
	if (vs_read_kvirt(b->a, b->r, ptr, tab, count * s->sec_size, &why) < 0)
		return bad_root(b, s, first, count, "table", ptr, &why, err);
	return add_sections(b, s, tab, first, count, err);
}

static int build_sparse(struct build *b, struct vs_error *err)
{
	struct sparse s;
	uint8_t *tab;
	int rc = 0;

	if (sparse_params(b->in, b->a, &s, err) < 0)
		return -1;
	vs_vi_symbol(b->in->vi, "mem_section", &s.sym);
	b->m->model = s.extreme ? "SPARSEMEM_EXTREME" : "SPARSEMEM";
	tab = malloc(s.per_root * s.sec_size);
	if (!tab)
		return vs_err_oom(err, "out of memory");
	for (uint64_t root = 0; root < s.roots && rc == 0; root++)
		rc = one_root(b, &s, root, tab, err);
	free(tab);
	return rc;
}

static int build_flat(struct build *b, struct vs_error *err)
{
	uint64_t sym, map;
	struct vs_error why;

	vs_vi_symbol(b->in->vi, "mem_map", &sym);
	b->m->model = "FLATMEM";
	if (vs_read_kvirt_ptr(b->a, b->r, sym, &map, &why) < 0) {
		vs_doubt_add(b->doubts, 0, "mem_map pointer at 0x%llx "
			     "unreadable: %s", (unsigned long long)sym, why.msg);
		return add_range(b, 0, b->in->max_mapnr, 0, 1, err);
	}
	return add_range(b, 0, b->in->max_mapnr, map, 0, err);
}

struct node_fields {
	int64_t map, start, spanned;
};

static int add_node(struct build *b, const struct node_fields *o,
		    uint64_t pgdat, struct vs_error *err)
{
	uint64_t map, start, spanned;
	struct vs_error why;

	if (vs_read_kvirt_ptr(b->a, b->r, pgdat + (uint64_t)o->map, &map,
			      &why) < 0 ||
	    vs_read_kvirt_ptr(b->a, b->r, pgdat + (uint64_t)o->start, &start,
			      &why) < 0 ||
	    vs_read_kvirt_ptr(b->a, b->r, pgdat + (uint64_t)o->spanned,
			      &spanned, &why) < 0) {
		vs_doubt_add(b->doubts, 0, "pglist_data at 0x%llx unreadable: %s",
			     (unsigned long long)pgdat, why.msg);
		return 0;
	}
	if (map == 0 || start >= b->in->max_mapnr)
		return 0;
	return add_range(b, start, start + spanned, map, 0, err);
}

static int range_cmp(const void *x, const void *y)
{
	const struct vs_memmap_range *a = x, *b = y;

	return a->start < b->start ? -1 : a->start > b->start;
}

static int build_discontig(struct build *b, const struct node_fields *o,
			   struct vs_error *err)
{
	uint64_t pgdat[MAX_NODES];
	size_t nr;

	b->m->model = "DISCONTIGMEM";
	if (vs_memmap_nodes(b->in, b->a, b->r, pgdat, MAX_NODES, &nr, err) < 0)
		return -1;
	for (size_t i = 0; i < nr; i++)
		if (add_node(b, o, pgdat[i], err) < 0)
			return -1;
	qsort(b->m->ranges, b->m->nr, sizeof(*b->m->ranges), range_cmp);
	for (size_t i = 1; i < b->m->nr; i++)  /* overlapping nodes: clip */
		if (b->m->ranges[i].start < b->m->ranges[i - 1].end)
			b->m->ranges[i - 1].end = b->m->ranges[i].start;
	return 0;
}

static int is_discontig(const struct vs_input *in, struct node_fields *o)
{
	uint64_t sym;

	return (vs_vi_symbol(in->vi, "node_data", &sym) ||
		vs_vi_symbol(in->vi, "pgdat_list", &sym)) &&
	       vs_vi_offset(in->vi, "pglist_data.node_mem_map", &o->map) &&
	       vs_vi_offset(in->vi, "pglist_data.node_start_pfn", &o->start) &&
	       vs_vi_offset(in->vi, "pglist_data.node_spanned_pages", &o->spanned);
}

static int vaddr_cmp(const void *x, const void *y, void *arg)
{
	const struct vs_memmap_range *r = arg;
	uint64_t a = r[*(const size_t *)x].vaddr, b = r[*(const size_t *)y].vaddr;

	return a < b ? -1 : a > b;
}

static int index_by_vaddr(struct vs_memmap *m, struct vs_error *err)
{
	m->by_vaddr = malloc((m->nr + 1) * sizeof(*m->by_vaddr));
	if (!m->by_vaddr)
		return vs_err_oom(err, "out of memory");
	for (size_t i = 0; i < m->nr; i++)
		if (!m->ranges[i].bad)
			m->by_vaddr[m->nr_by_vaddr++] = i;
	qsort_r(m->by_vaddr, m->nr_by_vaddr, sizeof(*m->by_vaddr), vaddr_cmp,
		m->ranges);
	return 0;
}

static int choose_model(struct build *b, struct vs_error *err)
{
	const struct vs_input *in = b->in;
	struct node_fields o;
	uint64_t sym;

	if (is_discontig(in, &o) &&
	    !vs_vi_symbol(in->vi, "mem_section", &sym))
		return build_discontig(b, &o, err);
	if (vs_vi_symbol(in->vi, "mem_section", &sym))
		return build_sparse(b, err);
	if (vs_vi_symbol(in->vi, "mem_map", &sym))
		return build_flat(b, err);
	return vs_err(err, "VMCOREINFO lacks 'SYMBOL(mem_section)' (and "
		      "'SYMBOL(mem_map)')");
}

int vs_memmap_build(struct vs_memmap *m, const struct vs_input *in,
		    const struct vs_arch *a, struct vs_reader *r,
		    struct vs_doubt_log *doubts, struct vs_error *err)
{
	struct build b = { m, in, a, r, doubts, 0 };
	int64_t size;

	memset(m, 0, sizeof(*m));
	if (!in->vi || !vs_vi_size(in->vi, "page", &size))
		return vs_err(err, "VMCOREINFO lacks 'SIZE(page)'");
	if (size < 16 || size > 4096)  /* SIZE(page), not a page size */
		return vs_err(err, "SIZE(page) %lld is not plausible",
			      (long long)size);
	m->page_struct_size = (uint64_t)size;
	if (choose_model(&b, err) < 0 || index_by_vaddr(m, err) < 0) {
		vs_memmap_fini(m);
		return -1;
	}
	return 0;
}

void vs_memmap_fini(struct vs_memmap *m)
{
	free(m->ranges);
	free(m->by_vaddr);
	memset(m, 0, sizeof(*m));
}

size_t vs_memmap_first(const struct vs_memmap *m, uint64_t pfn)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->ranges[mid].end <= pfn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int vs_memmap_pfn_of(const struct vs_memmap *m, uint64_t vaddr, uint64_t *pfn)
{
	size_t lo = 0, hi = m->nr_by_vaddr;

	while (lo < hi) {  /* last range with vaddr <= VADDR */
		size_t mid = lo + (hi - lo) / 2;

		if (m->ranges[m->by_vaddr[mid]].vaddr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	const struct vs_memmap_range *g = &m->ranges[m->by_vaddr[lo - 1]];
	uint64_t off = vaddr - g->vaddr;

	if (off % m->page_struct_size || off / m->page_struct_size >= g->end - g->start)
		return 0;
	*pfn = g->start + off / m->page_struct_size;
	return 1;
}

int vs_memmap_read(const struct vs_arch *a, struct vs_reader *r,
		   struct vs_xlat *x, uint64_t vaddr, void *buf, size_t len,
		   struct vs_error *err)
{
	uint8_t *p = buf;

	while (len) {
		uint64_t pa, span, avail;
		size_t n;

		if (!x->len || vaddr < x->va || vaddr - x->va >= x->len) {
			if (vs_vtop(a, r, vaddr, &pa, &span, err) < 0)
				return -1;
			*x = (struct vs_xlat){ vaddr, pa, span };
		}
		avail = x->len - (vaddr - x->va);
		n = avail < len ? (size_t)avail : len;
		if (vs_read_phys(r, x->pa + (vaddr - x->va), p, n, err) < 0)
			return -1;
		p += n;
		vaddr += n;
		len -= n;
	}
	return 0;
}

const uint8_t *vs_memmap_peek(const struct vs_arch *a, struct vs_reader *r,
			      struct vs_xlat *x, uint64_t vaddr, size_t len,
			      struct vs_error *err)
{
	uint64_t pa, span;

	if (!x->len || vaddr < x->va || vaddr - x->va >= x->len) {
		if (vs_vtop(a, r, vaddr, &pa, &span, err) < 0)
			return NULL;
		*x = (struct vs_xlat){ vaddr, pa, span };
	}
	if (x->len - (vaddr - x->va) < len)
		return NULL;
	return vs_peek_phys(r, x->pa + (vaddr - x->va), len, err);
}

/* Online node ids from node_online_map or node_states[N_ONLINE]; node 0
 * alone when neither is exported, as makedumpfile does. */
static int online_map(const struct vs_input *in, const struct vs_arch *a,
		      struct vs_reader *r, uint8_t *map, size_t size,
		      struct vs_error *err)
{
	uint64_t sym;
	int64_t nsize = 8, n_online;

	memset(map, 0, size);
	vs_vi_size(in->vi, "nodemask_t", &nsize);
	if (nsize <= 0 || (uint64_t)nsize > size)
		nsize = (int64_t)size;
	if (vs_vi_symbol(in->vi, "node_online_map", &sym))
		return vs_read_kvirt(a, r, sym, map, (size_t)nsize, err);
	if (vs_vi_symbol(in->vi, "node_states", &sym) &&
	    vs_vi_number(in->vi, "N_ONLINE", &n_online))
		return vs_read_kvirt(a, r, sym + (uint64_t)(n_online * nsize), map,
				     (size_t)nsize, err);
	/* Node 0 alone: bit 0 of the first unsigned long, in its order. */
	map[vs_arch_machine(a)->big_endian ? vs_arch_machine(a)->ptr_size - 1 : 0] = 1;
	return 0;
}

int vs_memmap_nodes(const struct vs_input *in, const struct vs_arch *a,
		    struct vs_reader *r, uint64_t *pgdat, size_t max,
		    size_t *nr, struct vs_error *err)
{
	const struct vs_machine *m = vs_arch_machine(a);
	uint8_t map[MAX_NODES / 8];
	uint64_t sym;
	int64_t len = MAX_NODES;

	*nr = 0;
	if (online_map(in, a, r, map, sizeof(map), err) < 0)
		return vs_err_ctx(err, "cannot read the online node map");
	if (!vs_vi_symbol(in->vi, "node_data", &sym)) {
		if (vs_vi_symbol(in->vi, "contig_page_data", &sym) ||
		    vs_vi_symbol(in->vi, "pgdat_list", &sym))
			pgdat[(*nr)++] = sym;
		return 0;
	}
	vs_vi_length(in->vi, "node_data", &len);
	for (uint64_t n = 0; n < (uint64_t)len && n < MAX_NODES && *nr < max; n++) {
		uint64_t p;

		if (!vs_long_bit(m, map, n))
			continue;
		if (vs_read_kvirt_ptr(a, r, sym + n * m->ptr_size, &p, err) < 0)
			return vs_err_ctx(err, "cannot read node_data[%llu]",
					  (unsigned long long)n);
		if (p)
			pgdat[(*nr)++] = p;
	}
	return 0;
}
