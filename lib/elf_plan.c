/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf_plan.c - the layout and headers of an ELF64 core file of a dump
 * (elf_plan.h), shared by the ELF writer and the ELF view.
 */
#include <stdlib.h>
#include <string.h>

#include "bitops.h"
#include "chunkmap.h"
#include "elf_order.h"
#include "elf_plan.h"
#include "select.h"
#include "util.h"

struct planner {
	struct vs_elf_plan *p;
	const uint64_t *kept;
	const struct vs_chunkmap *chunks;  /* NULL: KEPT is indexed by pfn */
	uint64_t max_pfn;
	unsigned shift;
	uint64_t last_chunk;         /* kept()'s last look-up: the chunk, */
	const uint64_t *last_bits;   /* and its bits (NULL: none kept) */
};

/* A piece covers memory [from, to) with data [from, data_end): the rest
 * reads as zeros, as an excluded page does in makedumpfile's ELF. */
static int add_piece(struct planner *pl, const struct vs_segment *s,
		     uint64_t from, uint64_t data_end, uint64_t to,
		     struct vs_error *err)
{
	struct vs_elf_plan *p = pl->p;
	uint64_t file_end = s->paddr + s->filesz;
	struct vs_elf_piece *pc;

	if (p->npieces == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		struct vs_elf_piece *np = realloc(p->pieces, cap * sizeof(*np));

		if (!np)
			return vs_err_oom(err, "out of memory");
		p->pieces = np;
		p->cap = cap;
	}
	if (data_end > file_end)
		data_end = file_end;
	pc = &p->pieces[p->npieces++];
	pc->paddr = from;
	pc->vaddr = s->vaddr + (from - s->paddr);
	pc->filesz = data_end > from ? data_end - from : 0;
	pc->memsz = to - from;
	return 0;
}

static int kept(struct planner *pl, uint64_t pfn)
{
	uint64_t chunk = pfn / VS_SELECT_PFNS;

	if (pfn >= pl->max_pfn)
		return 0;
	if (!pl->chunks)
		return vs_bit_test(pl->kept, pfn);
	if (chunk != pl->last_chunk) {
		int64_t nth = vs_chunkmap_find(pl->chunks, chunk);

		pl->last_chunk = chunk;
		pl->last_bits = nth < 0 ? NULL : pl->kept +
				(uint64_t)nth * (VS_SELECT_PFNS / 64);
	}
	return pl->last_bits && vs_bit_test(pl->last_bits, pfn % VS_SELECT_PFNS);
}

/* The end of the kept run starting at PFN, gaps under 256 pages bridged;
 * *NEXT = the first kept pfn after it (LAST if none). */
static uint64_t run_end(struct planner *pl, uint64_t pfn,
			uint64_t last, uint64_t *next)
{
	uint64_t b = pfn, gap;

	for (;;) {
		while (b < last && kept(pl, b))
			b++;
		gap = b;
		while (gap < last && !kept(pl, gap))
			gap++;
		if (gap >= last || gap - b >= VS_ELF_GAP_PAGES) {
			*next = gap;
			return b;
		}
		b = gap;
	}
}

/* Split one input load where kept pages resume after an excluded run of
 * 256 pages or more.  The pieces tile the segment, as makedumpfile's do:
 * each holds its kept run's data and reaches to the next piece as memory
 * without data (zeros to readers), so no address disappears. */
static int split_segment(struct planner *pl, const struct vs_segment *s,
			 struct vs_error *err)
{
	unsigned sh = pl->shift;
	uint64_t end = s->paddr + s->memsz, from = s->paddr;
	uint64_t pfn = s->paddr >> sh, last = vs_div_round_up(end, 1ULL << sh);
	uint64_t data_end, next;

	if (s->memsz == 0)
		return 0;
	while (pfn < last && !kept(pl, pfn))
		pfn++;
	if (pfn >= last)
		return add_piece(pl, s, from, from, end, err);
	if (pfn - (s->paddr >> sh) >= VS_ELF_GAP_PAGES) {
		/* A long excluded run first: a piece without data. */
		if (add_piece(pl, s, from, from, pfn << sh, err) < 0)
			return -1;
		from = pfn << sh;
	}
	while (pfn < last) {
		data_end = run_end(pl, pfn, last, &next) << sh;
		if (add_piece(pl, s, from, data_end < end ? data_end : end,
			      next < last ? next << sh : end, err) < 0)
			return -1;
		from = next << sh;
		pfn = next;
	}
	return 0;
}

int vs_elf_plan_make(struct vs_elf_plan *p, const struct vs_input *in,
		     const struct vs_segment *loads, size_t nloads,
		     const uint64_t *kept_bits, const struct vs_chunkmap *chunks,
		     uint64_t max_pfn,
		     uint64_t extra_notes, struct vs_error *err)
{
	struct planner pl = { .p = p, .kept = kept_bits, .chunks = chunks,
			      .max_pfn = max_pfn, .shift = in->page_shift,
			      .last_chunk = UINT64_MAX };
	uint64_t off;

	for (size_t i = 0; i < nloads; i++)
		if (split_segment(&pl, &loads[i], err) < 0)
			return -1;
	p->phnum = p->npieces + 1;
	off = sizeof(Elf64_Ehdr) + p->phnum * sizeof(Elf64_Phdr);
	if (p->phnum >= PN_XNUM)
		off += sizeof(Elf64_Shdr);
	p->notes_off = off;
	off += in->notes_size;
	if (extra_notes) {
		p->extra_notes_off = p->notes_off + vs_round_up(in->notes_size, 4);
		off = p->extra_notes_off + extra_notes;
	}
	p->headers_size = off;
	for (size_t i = 0; i < p->npieces; i++) {
		p->pieces[i].offset = off;
		off += p->pieces[i].filesz;
	}
	p->file_size = off;
	return 0;
}

void vs_elf_plan_free(struct vs_elf_plan *p)
{
	free(p->pieces);
	memset(p, 0, sizeof(*p));
}

void vs_elf_plan_ehdr(const struct vs_elf_plan *p, const struct vs_input *in,
		      uint32_t flags, Elf64_Ehdr *eh)
{
	memset(eh, 0, sizeof(*eh));
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = in->order.big_endian ? ELFDATA2MSB : ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_CORE;
	eh->e_machine = in->elf_machine;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(Elf64_Ehdr);
	eh->e_flags = flags;
	eh->e_ehsize = sizeof(Elf64_Ehdr);
	eh->e_phentsize = sizeof(Elf64_Phdr);
	eh->e_phnum = p->phnum >= PN_XNUM ? PN_XNUM : (uint16_t)p->phnum;
	if (p->phnum >= PN_XNUM) {
		eh->e_shoff = sizeof(Elf64_Ehdr) + p->phnum * sizeof(Elf64_Phdr);
		eh->e_shentsize = sizeof(Elf64_Shdr);
		eh->e_shnum = 1;
	}
	vs_elf_ehdr_order(&in->order, eh);
}

int vs_elf_plan_phdrs(const struct vs_elf_plan *p, const struct vs_input *in,
		      Elf64_Phdr **out, Elf64_Shdr *sh, int *has_sh,
		      struct vs_error *err)
{
	Elf64_Phdr *ph = calloc(p->phnum, sizeof(*ph));

	if (!ph)
		return vs_err_oom(err, "out of memory");
	ph[0].p_type = PT_NOTE;
	ph[0].p_offset = p->notes_off;
	ph[0].p_filesz = ph[0].p_memsz = p->headers_size - p->notes_off;
	for (size_t i = 0; i < p->npieces; i++) {
		const struct vs_elf_piece *pc = &p->pieces[i];

		ph[i + 1].p_type = PT_LOAD;
		ph[i + 1].p_flags = PF_R | PF_W | PF_X;
		ph[i + 1].p_offset = pc->offset;
		ph[i + 1].p_vaddr = pc->vaddr;
		ph[i + 1].p_paddr = pc->paddr;
		ph[i + 1].p_filesz = pc->filesz;
		ph[i + 1].p_memsz = pc->memsz;
	}
	for (size_t i = 0; i < p->phnum; i++)
		vs_elf_phdr_order(&in->order, &ph[i]);
	*has_sh = p->phnum >= PN_XNUM;
	memset(sh, 0, sizeof(*sh));
	if (*has_sh) {
		sh->sh_info = (Elf64_Word)p->phnum;
		vs_elf_shdr_order(&in->order, sh);
	}
	*out = ph;
	return 0;
}
