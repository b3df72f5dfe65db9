/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf_view.c - an opened dump seen as the ELF core file vmsift -E would
 * write of it (vmsift.h: vmsift_elfview_*), for vmsift mount: the file
 * is never made, its bytes are made on demand.
 *
 * At creation the view reads the dump's bitmap of held pages once (one
 * bit a page) and plans the file with elf_plan.c, the function the ELF
 * writer uses: the same program headers, the same offsets.  The headers
 * and notes are kept in memory; a read past them finds its PT_LOAD by a
 * binary search on file offsets and reads the pages it covers through
 * the caller's reader (and the dumpfile's cache), excluded pages as
 * zeros.  A dump that kept no program headers (kdump-compressed) gets
 * those /proc/vmcore would have had where the architecture knows them
 * (x86_64): a kernel-text load first, then the memory at the direct
 * map's vaddrs; else the memory at vaddr 0.
 *
 * The view is read-only once made: any number of readers may read it at
 * once, each on its own thread.  It borrows the dumpfile, which must
 * outlive it.
 */
#include <stdlib.h>
#include <string.h>

#include "bitops.h"
#include "elf_plan.h"
#include "filter.h"
#include "read_int.h"
#include "util.h"

struct vmsift_elfview {
	struct vmsift_dumpfile *df;
	struct vs_elf_plan plan;
	uint8_t *head;               /* headers and notes: plan.headers_size */
	uint64_t dumped;             /* pages with data */
};

/* The kernel-text load of a view without the input's loads, as
 * /proc/vmcore has one first: from _stext to the end of the RAM segment
 * holding it (or of the kernel map); readers find the kernel image's
 * place there (drgn translates through it).  0 when there is none. */
static int text_load(struct vmsift_dumpfile *df, struct vs_segment *s)
{
	const struct vs_input *in = vs_df_input(df);
	uint64_t vaddr, paddr, max_len, end;
	long i;

	if (!vs_arch_kernel_image(vs_df_arch(df), &vaddr, &paddr, &max_len))
		return 0;
	i = vs_input_find(in, paddr);
	if (i < 0)
		return 0;
	end = in->phys[i].paddr + in->phys[i].memsz;
	if (end - paddr > max_len)
		end = paddr + max_len;
	s->paddr = paddr;
	s->vaddr = vaddr;
	s->memsz = s->filesz = end - paddr;
	s->offset = 0;
	return 1;
}

/* The loads to plan with: the input's, or for an input without vaddrs
 * (kdump-compressed) the kernel text's and a copy of the input's with the
 * direct map's vaddrs (0 where the architecture does not say). */
static int view_loads(struct vmsift_dumpfile *df, struct vs_segment **out,
		      size_t *n)
{
	const struct vs_input *in = vs_df_input(df);
	struct vs_segment *l;
	uint64_t base = 0;
	size_t text;

	*out = l = malloc((in->nr_loads + 1) * sizeof(*l));
	if (!l)
		return vs_err_oom(vs_df_err(df), "out of memory");
	*n = in->nr_loads;
	if (!in->no_elf_loads) {
		memcpy(l, in->loads, in->nr_loads * sizeof(*l));
		return 0;
	}
	text = (size_t)text_load(df, &l[0]);
	memcpy(l + text, in->loads, in->nr_loads * sizeof(*l));
	if (!vs_arch_linear_base(vs_df_arch(df), &base))
		base = 0;
	for (size_t i = text; i < in->nr_loads + text; i++)
		l[i].vaddr = base + l[i].paddr;
	*n += text;
	return 0;
}

static int build_head(struct vmsift_elfview *v)
{
	const struct vs_input *in = vs_df_input(v->df);
	const struct vs_elf_plan *p = &v->plan;
	Elf64_Phdr *ph;
	Elf64_Shdr sh;
	int has_sh;

	v->head = calloc(1, p->headers_size);
	if (!v->head)
		return vs_err_oom(vs_df_err(v->df), "out of memory");
	vs_elf_plan_ehdr(p, in, 0, (Elf64_Ehdr *)v->head);
	if (vs_elf_plan_phdrs(p, in, &ph, &sh, &has_sh, vs_df_err(v->df)) < 0)
		return -1;
	memcpy(v->head + sizeof(Elf64_Ehdr), ph, p->phnum * sizeof(*ph));
	free(ph);
	if (has_sh)
		memcpy(v->head + sizeof(Elf64_Ehdr) + p->phnum * sizeof(*ph),
		       &sh, sizeof(sh));
	if (in->notes_size)
		memcpy(v->head + p->notes_off, in->notes, in->notes_size);
	return 0;
}

/* The pfns a dump of IN spans, as vmsift_dump() finds it: up to the last
 * memory section with struct pages, where VMCOREINFO tells (memory past
 * it, a device's, is left out of -E's file too). */
static uint64_t dump_span(const struct vs_input *in)
{
	struct vs_filter *f = NULL;
	struct vs_error scratch;
	uint64_t n = in->max_mapnr;

	if (vs_filter_new(&f, in, 0, &scratch) == 0 && vs_filter_max_pfn(f) &&
	    vs_filter_max_pfn(f) < n)
		n = vs_filter_max_pfn(f);
	vs_filter_free(f);
	return n;
}

static int plan_view(struct vmsift_elfview *v)
{
	const struct vs_input *in = vs_df_input(v->df);
	uint64_t words = vs_div_round_up(in->max_mapnr, 64) + 1;
	uint64_t *bits = calloc(words, 8);
	struct vs_segment *loads = NULL;
	size_t nloads = 0;
	int ret = -1;

	if (!bits) {
		vs_err_oom(vs_df_err(v->df), "out of memory for the bitmap of "
			   "0x%llx pages", (unsigned long long)in->max_mapnr);
		goto out;
	}
	if (vs_df_data_bits(v->df, bits) < 0 || view_loads(v->df, &loads, &nloads) < 0)
		goto out;
	v->dumped = vs_bits_count(bits, words);
	ret = vs_elf_plan_make(&v->plan, in, loads, nloads, bits, NULL,
			       dump_span(in), 0, vs_df_err(v->df));
out:
	free(loads);
	free(bits);
	return ret;
}

int vmsift_elfview_new(struct vmsift_dumpfile *df, struct vmsift_elfview **out)
{
	struct vmsift_elfview *v;

	*out = NULL;
	vs_err_clear(vs_df_err(df));
	if (!vs_df_input(df))
		return vs_err_st(vs_df_err(df), VMSIFT_E_INVALID,
				 "no dump is open");
	v = calloc(1, sizeof(*v));
	if (!v)
		return vs_err_oom(vs_df_err(df), "out of memory");
	v->df = df;
	if (plan_view(v) < 0 || build_head(v) < 0) {
		vmsift_elfview_free(v);
		return vs_err_ctx(vs_df_err(df), "cannot make the ELF view of "
				  "'%s'", vs_df_input(df)->file.name);
	}
	*out = v;
	return 0;
}

void vmsift_elfview_free(struct vmsift_elfview *v)
{
	if (!v)
		return;
	vs_elf_plan_free(&v->plan);
	free(v->head);
	free(v);
}

uint64_t vmsift_elfview_size(const struct vmsift_elfview *v)
{
	return v->plan.file_size;
}

uint64_t vmsift_elfview_dumped(const struct vmsift_elfview *v)
{
	return v->dumped;
}

/* The PT_LOAD whose data holds file offset OFF (> headers_size): the last
 * piece starting at or before it (pieces without data share the offset
 * of the next, so the last of equals is the one with data). */
static const struct vs_elf_piece *find_piece(const struct vs_elf_plan *p,
					     uint64_t off)
{
	size_t i = VS_UPPER_BOUND(p->pieces, p->npieces, offset, off);

	return &p->pieces[i ? i - 1 : 0];
}

/* LEN bytes at PADDR, all in one page, into BUF. */
static int read_part(struct vmsift_reader *rd, uint64_t paddr, uint8_t *buf,
		     size_t len, uint64_t off)
{
	const struct vs_input *in = vs_df_input(vs_reader_df(rd));
	uint64_t pfn = paddr >> in->page_shift;
	uint64_t in_page = paddr & (in->page_size - 1);
	uint8_t *page = len == in->page_size ? buf : vs_reader_bounce(rd);
	enum vmsift_page state;

	if (vs_reader_read_page(rd, pfn, page, &state) < 0)
		return vs_err_ctx(vs_reader_err(rd), "pfn 0x%llx (physical "
				  "address 0x%llx, offset 0x%llx of the ELF "
				  "view)", (unsigned long long)pfn,
				  (unsigned long long)paddr,
				  (unsigned long long)off);
	if (page != buf)
		memcpy(buf, page + in_page, len);
	return 0;
}

/* LEN bytes at file offset OFF, all in the data area, into BUF. */
static int read_data(struct vmsift_reader *rd, const struct vmsift_elfview *v,
		     uint64_t off, uint8_t *buf, size_t len)
{
	const uint64_t ps = vs_df_input(v->df)->page_size;
	const struct vs_elf_piece *pc = find_piece(&v->plan, off);

	while (len) {
		uint64_t paddr, n;

		while (off >= pc->offset + pc->filesz)
			pc++;
		paddr = pc->paddr + (off - pc->offset);
		n = ps - (paddr & (ps - 1));
		if (n > pc->offset + pc->filesz - off)
			n = pc->offset + pc->filesz - off;
		if (n > len)
			n = len;
		if (read_part(rd, paddr, buf, (size_t)n, off) < 0)
			return -1;
		off += n;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int vmsift_elfview_read(struct vmsift_reader *rd,
			const struct vmsift_elfview *v, uint64_t off,
			void *buf, size_t len, size_t *got)
{
	const struct vs_elf_plan *p = &v->plan;
	uint8_t *b = buf;
	size_t n;

	*got = 0;
	vs_err_clear(vs_reader_err(rd));
	if (vs_reader_df(rd) != v->df)
		return vs_err_st(vs_reader_err(rd), VMSIFT_E_INVALID,
				 "the reader reads another dump");
	if (off >= p->file_size)
		return 0;
	if (len > p->file_size - off)
		len = (size_t)(p->file_size - off);
	if (off < p->headers_size) {
		n = p->headers_size - off < len ?
		    (size_t)(p->headers_size - off) : len;
		memcpy(b, v->head + off, n);
		off += n;
		b += n;
		len -= n;
		*got = n;
	}
	if (len && read_data(rd, v, off, b, len) < 0)
		return vs_err_ctx(vs_reader_err(rd), "cannot read the ELF view "
				  "of '%s'", vs_df_input(v->df)->file.name);
	*got += len;
	return 0;
}
