/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * debuginfo.c - VMCOREINFO text from a debug vmlinux (-g), and an input's
 * VMCOREINFO completed from one (-x).  Reads the vmlinux through
 * typeinfo.h (typeinfo_dwarf.c's extras for the file's own data), the
 * dump through input.h; the result goes to the existing parser
 * (vs_input_set_vmcoreinfo), so that the filter sees one VMCOREINFO
 * whatever its source.  doc/debuginfo.md has the rules.
 */
#include "debuginfo.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "typeinfo_dwarf.h"
#include "vmcoreinfo.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

#define RELEASE_LEN 65        /* struct new_utsname's fields */

/* makedumpfile's SYMBOL() lines, in its order. */
static const char *const symbols[] = {
	"mem_map", "vmem_map", "mem_section", "pkmap_count",
	"pkmap_count_next", "system_utsname", "init_uts_ns", "_stext",
	"swapper_pg_dir", "init_level4_pgt", "level4_kernel_pgt",
	"init_top_pgt", "vmlist", "vmap_area_list", "node_online_map",
	"node_states", "node_data", "pgdat_list", "contig_page_data", "prb",
	"clear_seq", "log_buf", "log_buf_len", "log_end", "log_first_idx",
	"clear_idx", "log_next_idx", "max_pfn", "high_memory",
	"node_remap_start_vaddr", "node_remap_end_vaddr",
	"node_remap_start_pfn", "vmemmap_list", "mmu_psize_defs",
	"mmu_vmemmap_psize", "cpu_pgd", "demote_segment_4k", "cur_cpu_spec",
	"free_huge_page",
};

static const char *const sizes_head[] = {
	"page", "mem_section", "pglist_data", "zone", "free_area", "list_head",
	"node_memblk_s", "nodemask_t",
};
static const char *const sizes_ringbuffer[] = {
	"printk_ringbuffer", "prb_desc", "printk_info", "latched_seq",
};
static const char *const sizes_tail[] = { "vmemmap_backing", "mmu_psize_def" };

/* OFFSET() lines after page's (which have fallbacks), up to the printk
 * ones. */
static const char *const offsets_mid[] = {
	"mem_section.section_mem_map", "pglist_data.node_zones",
	"pglist_data.nr_zones", "pglist_data.node_mem_map",
	"pglist_data.node_start_pfn", "pglist_data.node_spanned_pages",
	"pglist_data.pgdat_next", "zone.free_pages", "zone.free_area",
	"zone.vm_stat", "zone.spanned_pages", "free_area.free_list",
	"list_head.next", "list_head.prev", "node_memblk_s.start_paddr",
	"node_memblk_s.size", "node_memblk_s.nid", "vm_struct.addr",
	"vmap_area.va_start", "vmap_area.list",
};
static const char *const offsets_ringbuffer[] = {
	"printk_ringbuffer.desc_ring", "printk_ringbuffer.text_data_ring",
	"prb_desc_ring.count_bits", "prb_desc_ring.descs",
	"prb_desc_ring.infos", "prb_desc_ring.head_id",
	"prb_desc_ring.tail_id", "prb_desc.state_var",
	"prb_desc.text_blk_lpos", "prb_data_blk_lpos.begin",
	"prb_data_blk_lpos.next", "prb_data_ring.size_bits",
	"prb_data_ring.data", "printk_info.ts_nsec", "printk_info.text_len",
	"printk_info.caller_id", "atomic_long_t.counter", "latched_seq.val",
};
static const char *const offsets_printk_log[] = {
	"printk_log.ts_nsec", "printk_log.len", "printk_log.text_len",
	"printk_log.caller_id",
};
static const char *const offsets_tail[] = {
	"vmemmap_backing.phys", "vmemmap_backing.virt_addr",
	"vmemmap_backing.list", "mmu_psize_def.shift",
	"cpu_spec.mmu_features", "uts_namespace.name",
};
static const char *const length_syms[] = {
	"node_data", "pgdat_list", "mem_section", "node_memblk",
	"node_remap_start_pfn",
};
/* NUMBER() lines from enumerators; PG_head_mask is computed. */
static const char *const numbers[] = {
	"NR_FREE_PAGES", "N_ONLINE", "pgtable_l5_enabled", "sme_mask",
	"PG_lru", "PG_private", "PG_head_mask", "PG_swapcache",
	"PG_swapbacked", "PG_buddy", "PG_slab", "PG_hwpoison", "PG_hugetlb",
	"PAGE_BUDDY_MAPCOUNT_VALUE", "PAGE_OFFLINE_MAPCOUNT_VALUE",
	"PAGE_UNACCEPTED_MAPCOUNT_VALUE", "phys_base", "KERNEL_IMAGE_SIZE",
	"HUGETLB_PAGE_DTOR",
};

/* -x only (not -g): keys of the kernel's own VMCOREINFO that makedumpfile
 * -g does not write and the DWARF gives, for the readers that need them
 * without the note (--dump-dmesg: the 5.10+ ring buffer's). */
static const char *const extra_sizes[] = {
	"prb_desc_ring", "prb_data_blk_lpos", "prb_data_ring",
	"atomic_long_t", "dev_printk_info",
};
static const char *const extra_offsets[] = {
	"printk_ringbuffer.fail", "printk_info.seq", "printk_info.dev_info",
	"dev_printk_info.subsystem", "dev_printk_info.device",
	"prb_data_ring.head_lpos", "prb_data_ring.tail_lpos",
	"pglist_data.node_id",
};

/* -x only: the page types of 6.12+ (the top byte of page_type, enum
 * pagetype), which the kernel's note gives as NUMBER(PAGE_*_MAPCOUNT_VALUE)
 * = PGTY_x << 24 and its DWARF as the enumerators.  Without them a slab
 * page of 6.12 looks like an anonymous one (-d 8) and a free page like
 * any other (-d 16). */
static const char *const page_types[][2] = {
	{ "PAGE_BUDDY_MAPCOUNT_VALUE", "PGTY_buddy" },
	{ "PAGE_OFFLINE_MAPCOUNT_VALUE", "PGTY_offline" },
	{ "PAGE_HUGETLB_MAPCOUNT_VALUE", "PGTY_hugetlb" },
	{ "PAGE_SLAB_MAPCOUNT_VALUE", "PGTY_slab" },
	{ "PAGE_UNACCEPTED_MAPCOUNT_VALUE", "PGTY_unaccepted" },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct gen {
	const struct vs_typeinfo *ti;
	FILE *f;
	struct vs_error scratch;     /* a missing key is no failure */
};

static int sym(struct gen *g, const char *name, uint64_t *addr)
{
	return g->ti->ops->symbol(g->ti->ctx, name, addr, &g->scratch) == 0;
}

/* A struct (or union, or typedef) by its bare name. */
static int type_named(struct gen *g, const char *name, uint64_t *type)
{
	static const char *const prefix[] = { "struct ", "union ", "" };
	char buf[128];

	for (size_t i = 0; i < N(prefix); i++) {
		snprintf(buf, sizeof(buf), "%s%s", prefix[i], name);
		if (g->ti->ops->type_by_name(g->ti->ctx, buf, type,
					     &g->scratch) == 0)
			return 1;
	}
	return 0;
}

static int type_of(struct gen *g, uint64_t id, struct vs_ti_type *t)
{
	return g->ti->ops->type(g->ti->ctx, id, t, &g->scratch) == 0;
}

static int size_of(struct gen *g, const char *name, uint64_t *size)
{
	struct vs_ti_type t;
	uint64_t id;

	if (!type_named(g, name, &id) || !type_of(g, id, &t) || !t.size)
		return 0;
	*size = t.size;
	return 1;
}

/* OFFSET of "type.member", and the member's type. */
static int member(struct gen *g, const char *key, uint64_t *off,
		  uint64_t *mtype)
{
	char name[128];
	const char *dot = strchr(key, '.');
	uint64_t id;

	if (!dot || (size_t)(dot - key) >= sizeof(name))
		return 0;
	memcpy(name, key, (size_t)(dot - key));
	name[dot - key] = '\0';
	return type_named(g, name, &id) &&
	       g->ti->ops->member(g->ti->ctx, id, dot + 1, off, mtype,
				  &g->scratch) == 0;
}

static void put_size(struct gen *g, const char *name)
{
	uint64_t v;

	if (size_of(g, name, &v))
		fprintf(g->f, "SIZE(%s)=%llu\n", name, (unsigned long long)v);
}

static void put_offset_as(struct gen *g, const char *key, const char *as)
{
	uint64_t off, mtype;

	if (member(g, key, &off, &mtype))
		fprintf(g->f, "OFFSET(%s)=%llu\n", as, (unsigned long long)off);
}

static void put_offsets(struct gen *g, const char *const *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put_offset_as(g, keys[i], keys[i]);
}

static void put_symbols(struct gen *g)
{
	uint64_t v;

	for (size_t i = 0; i < N(symbols); i++)
		if (sym(g, symbols[i], &v))
			fprintf(g->f, "SYMBOL(%s)=%llx\n", symbols[i],
				(unsigned long long)v);
}

/* page's offsets: _refcount was _count before 4.6, compound_head is
 * compound_info from 7.1 (written under the old name, as makedumpfile
 * does); folio's since 6.3. */
static void put_page_offsets(struct gen *g)
{
	uint64_t off, t;

	put_offset_as(g, "page.flags", "page.flags");
	if (member(g, "page._refcount", &off, &t))
		put_offset_as(g, "page._refcount", "page._refcount");
	else
		put_offset_as(g, "page._count", "page._count");
	put_offsets(g, (const char *const[]){ "page.mapping", "page.lru",
		    "page._mapcount", "page.private", "page.compound_dtor",
		    "page.compound_order" }, 6);
	if (member(g, "page.compound_head", &off, &t))
		put_offset_as(g, "page.compound_head", "page.compound_head");
	else
		put_offset_as(g, "page.compound_info", "page.compound_head");
	put_offsets(g, (const char *const[]){ "folio._folio_dtor",
		    "folio._folio_order" }, 2);
}

/* LENGTH of an array variable (its definition's bound) or member. */
static int array_length(struct gen *g, uint64_t type, uint64_t *n)
{
	struct vs_ti_type t;

	if (!type_of(g, type, &t) || t.kind != VS_TI_ARRAY || !t.nelem)
		return 0;
	*n = t.nelem;
	return 1;
}

static void put_lengths(struct gen *g)
{
	static const char *const members[] = {
		"zone.free_area", "free_area.free_list",
	};
	uint64_t type, n, off;

	for (size_t i = 0; i < N(length_syms); i++)
		if (sym(g, length_syms[i], &n) &&
		    g->ti->ops->symbol_type(g->ti->ctx, length_syms[i], &type,
					    &g->scratch) == 0 &&
		    array_length(g, type, &n))
			fprintf(g->f, "LENGTH(%s)=%llu\n", length_syms[i],
				(unsigned long long)n);
	for (size_t i = 0; i < N(members); i++)
		if (member(g, members[i], &off, &type) &&
		    array_length(g, type, &n))
			fprintf(g->f, "LENGTH(%s)=%llu\n", members[i],
				(unsigned long long)n);
}

static int enumerator(struct gen *g, const char *name, int64_t *v)
{
	return g->ti->ops->enumerator(g->ti->ctx, name, v, &g->scratch) == 0;
}

static void put_numbers(struct gen *g)
{
	for (size_t i = 0; i < N(numbers); i++) {
		int64_t v;
		int found = enumerator(g, numbers[i], &v);

		if (!found && !strcmp(numbers[i], "PG_head_mask")) {
			found = enumerator(g, "PG_head", &v) ||
				enumerator(g, "PG_compound", &v);
			if (found)
				v = (int64_t)(1ull << (v & 63));
		}
		if (found)
			fprintf(g->f, "NUMBER(%s)=%lld\n", numbers[i],
				(long long)v);
	}
}

/* The printk keys: the ring buffer (5.10+), struct printk_log (3.11+),
 * or struct log before. */
static void put_printk(struct gen *g, int sizes)
{
	uint64_t v;

	if (sym(g, "prb", &v)) {
		if (sizes)
			for (size_t i = 0; i < N(sizes_ringbuffer); i++)
				put_size(g, sizes_ringbuffer[i]);
		else
			put_offsets(g, offsets_ringbuffer, N(offsets_ringbuffer));
	} else if (size_of(g, "printk_log", &v)) {
		if (sizes)
			put_size(g, "printk_log");
		else
			put_offsets(g, offsets_printk_log, N(offsets_printk_log));
	} else if (sizes) {
		if (size_of(g, "log", &v))
			fprintf(g->f, "SIZE(log)=%llu\n", (unsigned long long)v);
	} else {
		put_offsets(g, (const char *const[]){ "log.ts_nsec", "log.len",
			    "log.text_len" }, 3);
	}
}

static int release_of(struct gen *g, char *rel, struct vs_error *err)
{
	uint64_t addr, name_off = 0, rel_off, t;

	if (!sym(g, "init_uts_ns", &addr)) {
		if (!sym(g, "system_utsname", &addr))
			return vs_err(err, "no symbol 'init_uts_ns' or "
				      "'system_utsname' in the vmlinux");
	} else if (!member(g, "uts_namespace.name", &name_off, &t)) {
		name_off = 4;  /* the kref before it, in old kernels */
	}
	if (!member(g, "new_utsname.release", &rel_off, &t))
		rel_off = 2 * RELEASE_LEN;
	if (vs_typeinfo_dwarf_read(g->ti, addr + name_off + rel_off, rel,
				   RELEASE_LEN, err) < 0)
		return vs_err_ctx(err, "cannot read the release (init_uts_ns)");
	rel[RELEASE_LEN - 1] = '\0';
	return 0;
}

/* NUMBER(PAGE_*_MAPCOUNT_VALUE) from enum pagetype, where -g wrote none. */
static void put_page_types(struct gen *g)
{
	for (size_t i = 0; i < N(page_types); i++) {
		int64_t v;

		if (enumerator(g, page_types[i][0], &v) ||
		    !enumerator(g, page_types[i][1], &v) || v < 0 || v > 0xff)
			continue;
		fprintf(g->f, "NUMBER(%s)=%d\n", page_types[i][0],
			(int)(int32_t)((uint32_t)v << 24));
	}
}

static void put_extras(struct gen *g)
{
	uint64_t v;

	if (sym(g, "printk_rb_static", &v))
		fprintf(g->f, "SYMBOL(printk_rb_static)=%llx\n",
			(unsigned long long)v);
	for (size_t i = 0; i < N(extra_sizes); i++)
		put_size(g, extra_sizes[i]);
	put_offsets(g, extra_offsets, N(extra_offsets));
	put_page_types(g);
}

static int generate(struct gen *g, uint64_t page_size, int extras,
		    struct vs_error *err)
{
	char rel[RELEASE_LEN];
	const char *src;

	if (release_of(g, rel, err) < 0)
		return -1;
	fprintf(g->f, "OSRELEASE=%s\nPAGESIZE=%llu\n", rel,
		(unsigned long long)page_size);
	put_symbols(g);
	for (size_t i = 0; i < N(sizes_head); i++)
		put_size(g, sizes_head[i]);
	put_printk(g, 1);
	for (size_t i = 0; i < N(sizes_tail); i++)
		put_size(g, sizes_tail[i]);
	put_page_offsets(g);
	put_offsets(g, offsets_mid, N(offsets_mid));
	put_printk(g, 0);
	put_offsets(g, offsets_tail, N(offsets_tail));
	put_lengths(g);
	put_numbers(g);
	if (vs_typeinfo_dwarf_srcfile(g->ti, "pud_t", &src, &g->scratch) == 0)
		fprintf(g->f, "SRCFILE(pud_t)=%s\n", src);
	if (extras)
		put_extras(g);
	return 0;
}

static int make_text(const struct vs_typeinfo *ti, uint64_t page_size,
		     int extras, char **text, size_t *len, struct vs_error *err)
{
	struct gen g = { .ti = ti };
	int ret;

	*text = NULL;
	*len = 0;
	g.f = open_memstream(text, len);
	if (!g.f)
		return vs_err_oom(err, "out of memory for VMCOREINFO text");
	ret = generate(&g, page_size, extras, err);
	if (fclose(g.f) != 0 && ret == 0)
		ret = vs_err_oom(err, "out of memory for VMCOREINFO text");
	if (ret < 0) {
		free(*text);
		*text = NULL;
	}
	return ret;
}

int vs_debuginfo_text(const struct vs_typeinfo *ti, uint64_t page_size,
		      char **text, size_t *len, struct vs_error *err)
{
	return make_text(ti, page_size, 0, text, len, err);
}

/* ---- -x: the dump's VMCOREINFO completed from the vmlinux ---- */

/* The value of KEY in TEXT's lines, copied into BUF ("" when absent). */
static void text_value(const char *text, const char *key, char *buf,
		       size_t size)
{
	size_t n = strlen(key);

	buf[0] = '\0';
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : l) {
		if (strncmp(l, key, n) || l[n] != '=')
			continue;
		snprintf(buf, size, "%.*s", (int)strcspn(l + n + 1, "\n"),
			 l + n + 1);
		return;
	}
}

static int mismatch(struct vs_error *err, const char *vmlinux,
		    const char *what, const char *theirs, const char *ours)
{
	return vs_err_st(err, VMSIFT_E_MISMATCH, "'%s' does not match the "
			 "dump: its %s is %s, the dump's %s", vmlinux, what,
			 theirs, ours);
}

/* The dump's identity (VMCOREINFO's BUILD-ID and OSRELEASE) against
 * the vmlinux's. */
static int check_identity(const struct vs_input *in,
			  const struct vs_typeinfo *ti, const char *gen,
			  const char *vmlinux, struct vs_error *err)
{
	const char *id = vs_vi_raw(in->vi, "BUILD-ID");
	const char *rel = vs_vi_raw(in->vi, "OSRELEASE");
	const char *mine = vs_typeinfo_dwarf_build_id(ti);
	char myrel[RELEASE_LEN];

	text_value(gen, "OSRELEASE", myrel, sizeof(myrel));
	if (id && *mine && strcmp(id, mine))
		return mismatch(err, vmlinux, "build id", mine, id);
	if (rel && strcmp(rel, myrel))
		return mismatch(err, vmlinux, "release", myrel, rel);
	return 0;
}

struct merge {
	FILE *f;
	uint64_t kaslr;              /* added to every SYMBOL() */
	uint64_t mem_section;        /* SYMBOL(mem_section)'s value, or 0 */
	const struct vs_vmcoreinfo *keep;  /* keys already given, or NULL */
};

static void merge_line(struct merge *m, const char *l, size_t n)
{
	char key[128];
	size_t k = strcspn(l, "=\n");
	unsigned long long v;

	if (k >= n || k >= sizeof(key))
		return;
	memcpy(key, l, k);
	key[k] = '\0';
	if (m->keep && vs_vi_raw(m->keep, key))
		return;
	if (strncmp(key, "SYMBOL(", 7) || sscanf(l + k + 1, "%llx", &v) != 1) {
		fprintf(m->f, "%.*s\n", (int)n, l);
		return;
	}
	if (!strcmp(key, "SYMBOL(mem_section)") && m->mem_section)
		v = m->mem_section;
	else
		v += m->kaslr;
	fprintf(m->f, "%s=%llx\n", key, v);
}

/* GEN's lines, less those KEEP has, relocated; then EXTRA. */
static int merged_text(struct merge *m, const char *gen, const char *extra,
		       size_t extra_len, char **out, size_t *len,
		       struct vs_error *err)
{
	m->f = open_memstream(out, len);
	if (!m->f)
		return vs_err_oom(err, "out of memory for VMCOREINFO text");
	for (const char *l = gen; *l;) {
		size_t n = strcspn(l, "\n");

		merge_line(m, l, n);
		l += n + (l[n] == '\n');
	}
	fwrite(extra, 1, extra_len, m->f);
	if (fclose(m->f) != 0) {
		free(*out);
		return vs_err_oom(err, "out of memory for VMCOREINFO text");
	}
	return 0;
}

/* The segment of the kernel image: the highest virtual addresses (above
 * the direct map on every architecture vmsift reads), at or above the
 * image's unrelocated start TEXT (KASLR moves it up).  A dump without
 * virtual addresses (QEMU's without paging: vaddr = paddr) has none. */
static const struct vs_segment *image_load(const struct vs_input *in,
					   uint64_t text)
{
	const struct vs_segment *best = NULL;

	if (in->no_elf_loads)
		return NULL;
	for (size_t i = 0; i < in->nr_loads; i++) {
		const struct vs_segment *s = &in->loads[i];

		if (s->vaddr >= text && s->vaddr != s->paddr &&
		    (!best || s->vaddr > best->vaddr))
			best = s;
	}
	return best;
}

/* The unrelocated start of the kernel image. */
static int image_start(const struct vs_typeinfo *ti, uint64_t *text,
		       struct vs_error *err)
{
	if (ti->ops->symbol(ti->ctx, "_text", text, err) == 0 ||
	    ti->ops->symbol(ti->ctx, "_stext", text, err) == 0)
		return 0;
	return vs_err(err, "no symbol '_text' or '_stext' in the vmlinux");
}

/* The release the dump holds at the image's utsname, relocated by
 * IM->kaslr, or -1 when it does not read as a utsname ("Linux" first). */
static int dump_release(const struct vs_di_image *im, char *rel,
			struct vs_error *err)
{
	char uts[3 * RELEASE_LEN];

	if (vs_di_image_read(im, im->uts, uts, sizeof(uts), err) < 0)
		return -1;
	if (memcmp(uts, "Linux", 6))
		return vs_err(err, "no utsname at 0x%llx",
			      (unsigned long long)(im->uts + im->kaslr));
	memcpy(rel, uts + 2 * RELEASE_LEN, RELEASE_LEN);
	rel[RELEASE_LEN - 1] = '\0';
	return 0;
}

/* KASLR: the image segment starts at the relocated _text (or _stext). */
static int find_kaslr(struct vs_di_image *im, char *rel,
		      struct vs_error *err)
{
	static const char *const starts[] = { "_text", "_stext" };
	const struct vs_typeinfo *ti = im->ti;

	for (size_t i = 0; i < N(starts); i++) {
		uint64_t s;

		if (ti->ops->symbol(ti->ctx, starts[i], &s, err) < 0)
			continue;
		im->kaslr = im->load->vaddr - s;
		if (dump_release(im, rel, err) == 0)
			return 0;
	}
	return -1;
}

/* The segment whose virtual range holds the utsname UTS at its link
 * address (at or above the image's start TEXT): the kernel inside the
 * direct map (ppc64's kernel at physical 0 under 0xc000000000000000) or
 * in an identity map (s390x before 6.10, where the segments of a dump
 * without virtual addresses say vaddr = paddr, and that is the truth). */
static const struct vs_segment *linked_load(const struct vs_input *in,
					    uint64_t text, uint64_t uts)
{
	if (uts < text)
		return NULL;
	for (size_t i = 0; i < in->nr_loads; i++) {
		const struct vs_segment *s = &in->loads[i];

		if (uts >= s->vaddr &&
		    uts + 3 * RELEASE_LEN - s->vaddr <= s->memsz)
			return s;
	}
	return NULL;
}

/* The image: its own segment with KASLR found from it, else the kernel
 * at its link address in a segment that maps it (KASLR 0); either read
 * back as the vmlinux's utsname at init_uts_ns. */
static int find_image(struct vs_di_image *im, uint64_t start, char *rel,
		      struct vs_error *err)
{
	const struct vs_segment *own = image_load(im->in, start);

	im->load = own;
	if (own && find_kaslr(im, rel, err) == 0)
		return 0;
	im->load = linked_load(im->in, start, im->uts);
	im->kaslr = 0;
	if (im->load && dump_release(im, rel, err) == 0)
		return 0;
	im->load = own ? own : im->load;
	return -1;
}

/* mem_section's value when it is a pointer (SPARSEMEM_EXTREME), as the
 * kernel's own VMCOREINFO gives it; 0 when it is an array. */
static int mem_section_value(const struct vs_di_image *im, uint64_t *v,
			     struct vs_error *err)
{
	const struct vs_typeinfo *ti = im->ti;
	struct vs_ti_type t;
	uint64_t addr, type;
	uint8_t b[8];

	*v = 0;
	if (ti->ops->symbol(ti->ctx, "mem_section", &addr, err) < 0 ||
	    ti->ops->symbol_type(ti->ctx, "mem_section", &type, err) < 0 ||
	    ti->ops->type(ti->ctx, type, &t, err) < 0 || t.kind != VS_TI_PTR)
		return 0;
	if (t.size != 8 && t.size != 4)
		return vs_err(err, "mem_section is a %llu-byte pointer",
			      (unsigned long long)t.size);
	if (vs_di_image_read(im, addr, b, t.size, err) < 0)
		return vs_err_ctx(err, "cannot read mem_section");
	for (size_t i = 0; i < t.size; i++)
		*v |= (uint64_t)b[im->in->order.big_endian ? t.size - 1 - i : i]
		      << (8 * i);
	return 0;
}

/* What the kernel's note adds after the DWARF's lines: KERNELOFFSET; on
 * x86_64 with KASLR (CONFIG_RANDOMIZE_BASE) its 1 GiB KERNEL_IMAGE_SIZE,
 * a macro the DWARF does not hold (512 MiB without KASLR, what the x86_64
 * code assumes when the key is missing); on arm64 and riscv64 the keys
 * of their arch_crash_save_vmcoreinfo() (debuginfo_arm64.c,
 * debuginfo_riscv64.c). */
static int image_tail(const struct vs_di_image *im, char **tail,
		      size_t *len, struct vs_error *err)
{
	unsigned machine = 0, ptr_size = 0;
	int ret = 0;
	FILE *f = open_memstream(tail, len);

	if (!f)
		return vs_err_oom(err, "out of memory for VMCOREINFO text");
	fprintf(f, "KERNELOFFSET=%llx\n", (unsigned long long)im->kaslr);
	vs_typeinfo_dwarf_machine(im->ti, &machine, &ptr_size);
	if (machine == EM_X86_64 && im->kaslr)
		fprintf(f, "NUMBER(KERNEL_IMAGE_SIZE)=%llu\n", 1ull << 30);
	else if (machine == EM_AARCH64)
		ret = vs_debuginfo_arm64(im, f, err);
	else if (machine == EM_RISCV)
		ret = vs_debuginfo_riscv64(im, f, err);
	if (fclose(f) != 0 && ret == 0)
		ret = vs_err_oom(err, "out of memory for VMCOREINFO text");
	if (ret < 0) {
		free(*tail);
		*tail = NULL;
	}
	return ret;
}

static int without_note(struct vs_input *in, const struct vs_typeinfo *ti,
			const char *gen, const char *vmlinux, char **text,
			size_t *len, struct vs_error *err)
{
	struct vs_di_image im = { .in = in, .ti = ti };
	struct merge m = { 0 };
	uint64_t name_off = 0, t, start;
	char rel[RELEASE_LEN], myrel[RELEASE_LEN], *tail = NULL;
	size_t tail_len = 0;
	int ret;

	if (image_start(ti, &start, err) < 0)
		return -1;
	if (ti->ops->symbol(ti->ctx, "init_uts_ns", &im.uts, err) < 0)
		return -1;
	if (ti->ops->type_by_name(ti->ctx, "struct uts_namespace", &t, err) == 0)
		ti->ops->member(ti->ctx, t, "name", &name_off, &t, err);
	im.uts += name_off;
	text_value(gen, "OSRELEASE", myrel, sizeof(myrel));
	if (in->no_elf_loads || (!image_load(in, start) &&
				 !linked_load(in, start, im.uts)))
		return vs_err(err, "the dump has no VMCOREINFO and no segment "
			      "of the kernel image at its virtual address: -x "
			      "without VMCOREINFO needs an ELF vmcore as kdump "
			      "writes it (/proc/vmcore)");
	if (find_image(&im, start, rel, err) < 0)
		return vs_err_st(err, VMSIFT_E_MISMATCH, "'%s' does not match "
				 "the dump: its release is %s, build id %s, and "
				 "the dump's kernel image (at 0x%llx) holds no "
				 "utsname where that kernel keeps it", vmlinux,
				 myrel, *vs_typeinfo_dwarf_build_id(ti) ?
				 vs_typeinfo_dwarf_build_id(ti) : "(none)",
				 (unsigned long long)im.load->vaddr);
	if (strcmp(rel, myrel))
		return mismatch(err, vmlinux, "release", myrel, rel);
	m.kaslr = im.kaslr;
	if (mem_section_value(&im, &m.mem_section, err) < 0)
		return -1;
	if (image_tail(&im, &tail, &tail_len, err) < 0)
		return vs_err_ctx(err, "-x without VMCOREINFO");
	ret = merged_text(&m, gen, tail, tail_len, text, len, err);
	free(tail);
	return ret;
}

/* The kernel's page size for a dump without a note: its empty_zero_page
 * is one page (unsigned long[PAGE_SIZE / sizeof(long)] on arm64, riscv64
 * and x86_64); without it, the format's (elf_input.c: 4 KiB, 64 KiB on
 * ppc64) stands. */
static uint64_t dwarf_page_size(const struct vs_typeinfo *ti, uint64_t dflt)
{
	struct vs_error scratch = { 0 };
	struct vs_ti_type t;
	uint64_t type;

	if (ti->ops->symbol_type(ti->ctx, "empty_zero_page", &type,
				 &scratch) < 0 ||
	    ti->ops->type(ti->ctx, type, &t, &scratch) < 0 ||
	    t.kind != VS_TI_ARRAY || t.size < 4096 || t.size > 65536 ||
	    (t.size & (t.size - 1)))
		return dflt;
	return t.size;
}

/* A vmlinux of another machine than the ELF vmcore's (e_machine of both
 * headers) does not match it.  A kdump file's machine may be a guess
 * from its byte order (no utsname): not compared. */
static int check_machine(const struct vs_input *in,
			 const struct vs_typeinfo *ti, const char *vmlinux,
			 struct vs_error *err)
{
	unsigned machine = 0, ptr_size = 0;

	vs_typeinfo_dwarf_machine(ti, &machine, &ptr_size);
	if (in->no_elf_loads || !machine || !in->elf_machine ||
	    machine == in->elf_machine)
		return 0;
	return vs_err_st(err, VMSIFT_E_MISMATCH, "'%s' does not match the "
			 "dump: its ELF machine is %u, the dump's %u", vmlinux,
			 machine, (unsigned)in->elf_machine);
}

int vs_debuginfo_apply(struct vs_input *in, const struct vs_typeinfo *ti,
		       const char *vmlinux, struct vs_error *err)
{
	char *gen = NULL, *text = NULL, origin[512];
	uint64_t page_size = in->vi ? in->page_size :
			     dwarf_page_size(ti, in->page_size);
	size_t len;
	int ret;

	if (check_machine(in, ti, vmlinux, err) < 0)
		return -1;
	if (make_text(ti, page_size, 1, &gen, &len, err) < 0)
		return vs_err_ctx(err, "'%s'", vmlinux);
	if (in->vi) {
		struct merge m = { .keep = in->vi };

		vs_vi_hex(in->vi, "KERNELOFFSET", &m.kaslr);
		ret = check_identity(in, ti, gen, vmlinux, err);
		/* the note's text after the vmlinux's lines it lacks */
		if (ret == 0 && in->has_vmcoreinfo_note)
			ret = merged_text(&m, gen, (const char *)in->notes +
					  in->vmcoreinfo_off,
					  strnlen((const char *)in->notes +
						  in->vmcoreinfo_off,
						  in->vmcoreinfo_size),
					  &text, &len, err);
		else {          /* from a -i file: it wins, as in makedumpfile */
			free(gen);
			return ret;
		}
	} else {
		ret = without_note(in, ti, gen, vmlinux, &text, &len, err);
	}
	snprintf(origin, sizeof(origin), "VMCOREINFO from '%s'", vmlinux);
	if (ret == 0)
		ret = vs_input_set_vmcoreinfo(in, text, len, origin, err);
	free(gen);
	free(text);
	return ret;
}
