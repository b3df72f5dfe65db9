/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf_writer.c - write an ELF64 core file (makedumpfile -E).  Exports
 * only vs_elf_writer (writer.h), run by dump.c; uses select.h's services.
 *
 * Layout: ELF header, program headers (PT_NOTE, then PT_LOADs), section
 * header 0 when the PT_LOADs need PN_XNUM, the notes copied verbatim,
 * then each PT_LOAD's data back to back.  Every input PT_LOAD (the
 * kernel-text alias included, which readers use to find phys_base) is
 * written as one or more pieces: runs of excluded pages of 256 pages or
 * more are cut out, shorter ones stay with their original contents, as
 * makedumpfile does.  A page of the input only partly covered stays
 * byte-exact: pieces end where the input's segments end.
 *
 * Zero pages must be known before the program headers, so with -d 1 the
 * select phase reads every page once to test it, and the copy phase
 * reads the kept ones again.  The selection is kept in memory, one bit a
 * page.  The header goes out first marked incomplete (e_flags bit 0) and
 * is rewritten at the end.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "bitops.h"
#include "elf_order.h"
#include "pipeline.h"
#include "util.h"
#include "writer.h"

#define ELF_GAP_PAGES 256u
#define ELF_INCOMPLETE 0x1u
#define ELF_COPY_BUF (1u << 20)

struct elf_piece {
	uint64_t paddr, vaddr, filesz, memsz, offset;
};

struct elf_slot {
	uint64_t bits1[VS_SELECT_PFNS / 64];
	uint64_t bits2[VS_SELECT_PFNS / 64];
	uint64_t zero;
};

struct elf_writer {
	struct vs_dump *d;
	uint64_t *bitmap;            /* bitmap2, whole */
	struct elf_piece *pieces;
	size_t npieces, cap;
	uint64_t data_off;
	uint64_t notes_off;
	uint64_t erase_note_off;     /* the ERASEINFO note (--config), or 0 */
	uint64_t erase_desc;         /* its descriptor's size */
	Elf64_Ehdr eh;
};

#define ERASE_NOTE_NAME "ERASEINFO"   /* 10 bytes with its NUL */
#define ERASE_NOTE_HDR (12u + 12u)    /* Elf64_Nhdr + the name, padded */

static int elf_select_work(void *worker, uint64_t index, void *slot,
			   struct vs_error *err)
{
	struct vs_worker *wk = worker;
	const struct vs_dump *d = wk->d;
	struct elf_slot *s = slot;
	uint64_t start = index * VS_SELECT_PFNS;

	s->zero = 0;
	if (vs_select_chunk(d, wk, start, VS_SELECT_PFNS, s->bits1, s->bits2,
			    err) < 0)
		return -1;
	if (!(d->level & VMSIFT_DL_ZERO))
		return 0;
	for (uint64_t i = 0; i < VS_SELECT_PFNS; i++) {
		const uint8_t *page;

		if (!vs_bit_test(s->bits2, i))
			continue;
		if (vs_read_page(&wk->reader, start + i, &page, err) < 0)
			return vs_err_ctx(err, "pfn 0x%llx",
					  (unsigned long long)(start + i));
		if (vs_is_zero(page, d->in->page_size)) {
			vs_bit_clear(s->bits2, i);
			s->zero++;
		}
	}
	return 0;
}

static int elf_select_consume(void *arg, uint64_t index, void *slot,
			      struct vs_error *err)
{
	struct elf_writer *w = arg;
	struct elf_slot *s = slot;

	if (vs_check_cancel(w->d, err) < 0)
		return -1;
	memcpy(w->bitmap + index * (VS_SELECT_PFNS / 64), s->bits2,
	       sizeof(s->bits2));
	w->d->present += vs_bits_count(s->bits1, VS_SELECT_PFNS / 64);
	w->d->zero += s->zero;
	return 0;
}

static int run_select(struct elf_writer *w, struct vs_error *err)
{
	struct vs_dump *d = w->d;
	uint64_t njobs = vs_div_round_up(d->max_mapnr, VS_SELECT_PFNS);
	unsigned nslots = 2 * d->nworkers;
	struct elf_slot *slots = calloc(nslots, sizeof(*slots));
	static const struct vs_pipeline_ops ops = {
		.work = elf_select_work, .consume = elf_select_consume,
	};
	int ret = -1;

	w->bitmap = calloc(njobs, VS_SELECT_PFNS / 8);
	if (!slots || !w->bitmap)
		vs_err_oom(err, "out of memory");
	else
		ret = vs_dump_run(d, &ops, w, slots, sizeof(*slots), nslots,
				  njobs, err);
	free(slots);
	return ret;
}

/* A piece covers memory [from, to) with data [from, data_end): the rest
 * reads as zeros, as an excluded page does in makedumpfile's ELF. */
static int add_piece(struct elf_writer *w, const struct vs_segment *s,
		     uint64_t from, uint64_t data_end, uint64_t to,
		     struct vs_error *err)
{
	uint64_t file_end = s->paddr + s->filesz;
	struct elf_piece *p;

	if (w->npieces == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 64;
		struct elf_piece *np = realloc(w->pieces, cap * sizeof(*np));

		if (!np)
			return vs_err_oom(err, "out of memory");
		w->pieces = np;
		w->cap = cap;
	}
	if (data_end > file_end)
		data_end = file_end;
	p = &w->pieces[w->npieces++];
	p->paddr = from;
	p->vaddr = s->vaddr + (from - s->paddr);
	p->filesz = data_end > from ? data_end - from : 0;
	p->memsz = to - from;
	return 0;
}

static int kept(const struct elf_writer *w, uint64_t pfn)
{
	return pfn < w->d->max_mapnr && vs_bit_test(w->bitmap, pfn);
}

/* The end of the kept run starting at PFN, gaps under 256 pages bridged;
 * *NEXT = the first kept pfn after it (LAST if none). */
static uint64_t run_end(const struct elf_writer *w, uint64_t pfn,
			uint64_t last, uint64_t *next)
{
	uint64_t b = pfn, gap;

	for (;;) {
		while (b < last && kept(w, b))
			b++;
		gap = b;
		while (gap < last && !kept(w, gap))
			gap++;
		if (gap >= last || gap - b >= ELF_GAP_PAGES) {
			*next = gap;
			return b;
		}
		b = gap;
	}
}

/* Split one input PT_LOAD where kept pages resume after an excluded run
 * of 256 pages or more.  The pieces tile the segment, as makedumpfile's
 * do: each holds its kept run's data and reaches to the next piece as
 * memory without data (zeros to readers), so no address disappears. */
static int split_segment(struct elf_writer *w, const struct vs_segment *s,
			 struct vs_error *err)
{
	unsigned sh = w->d->in->page_shift;
	uint64_t end = s->paddr + s->memsz, from = s->paddr;
	uint64_t pfn = s->paddr >> sh, last = vs_div_round_up(end, 1ULL << sh);
	uint64_t data_end, next;

	if (s->memsz == 0)
		return 0;
	while (pfn < last && !kept(w, pfn))
		pfn++;
	if (pfn >= last)
		return add_piece(w, s, from, from, end, err);
	if (pfn - (s->paddr >> sh) >= ELF_GAP_PAGES) {
		/* A long excluded run first: a piece without data. */
		if (add_piece(w, s, from, from, pfn << sh, err) < 0)
			return -1;
		from = pfn << sh;
	}
	while (pfn < last) {
		data_end = run_end(w, pfn, last, &next) << sh;
		if (add_piece(w, s, from, data_end < end ? data_end : end,
			      next < last ? next << sh : end, err) < 0)
			return -1;
		from = next << sh;
		pfn = next;
	}
	return 0;
}

static int plan_pieces(struct elf_writer *w, struct vs_error *err)
{
	const struct vs_input *in = w->d->in;
	uint64_t phnum, off;

	for (size_t i = 0; i < in->nr_loads; i++)
		if (split_segment(w, &in->loads[i], err) < 0)
			return -1;
	phnum = w->npieces + 1;
	off = sizeof(Elf64_Ehdr) + phnum * sizeof(Elf64_Phdr);
	if (phnum >= PN_XNUM)
		off += sizeof(Elf64_Shdr);
	w->notes_off = off;
	off += in->notes_size;
	/* makedumpfile reserves room for the text as if every range were
	 * stored whole; what is written is padded with zeros to it. */
	if (w->d->erase && (w->erase_desc = vs_erase_text_bound(w->d->erase))) {
		w->erase_note_off = w->notes_off + vs_round_up(in->notes_size, 4);
		off = w->erase_note_off + ERASE_NOTE_HDR +
		      vs_round_up(w->erase_desc, 4);
	}
	for (size_t i = 0; i < w->npieces; i++) {
		w->pieces[i].offset = off;
		off += w->pieces[i].filesz;
	}
	return 0;
}

static int write_ehdr(struct elf_writer *w, uint32_t flags,
		      struct vs_error *err)
{
	uint64_t phnum = w->npieces + 1;
	Elf64_Ehdr *eh = &w->eh, file;

	memset(eh, 0, sizeof(*eh));
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = w->d->in->order.big_endian ? ELFDATA2MSB :
						       ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_CORE;
	eh->e_machine = w->d->in->elf_machine;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(Elf64_Ehdr);
	eh->e_flags = flags;
	eh->e_ehsize = sizeof(Elf64_Ehdr);
	eh->e_phentsize = sizeof(Elf64_Phdr);
	eh->e_phnum = phnum >= PN_XNUM ? PN_XNUM : (uint16_t)phnum;
	if (phnum >= PN_XNUM) {
		eh->e_shoff = sizeof(Elf64_Ehdr) + phnum * sizeof(Elf64_Phdr);
		eh->e_shentsize = sizeof(Elf64_Shdr);
		eh->e_shnum = 1;
	}
	file = *eh;
	vs_elf_ehdr_order(&w->d->in->order, &file);
	return vs_sink_write(w->d->sinks, &file, sizeof(file), 0, err);
}

static int write_phdrs(struct elf_writer *w, struct vs_error *err)
{
	const struct vs_input *in = w->d->in;
	uint64_t phnum = w->npieces + 1;
	Elf64_Phdr *ph = calloc(phnum, sizeof(*ph));
	int ret = 0;

	if (!ph)
		return vs_err_oom(err, "out of memory");
	ph[0].p_type = PT_NOTE;
	ph[0].p_offset = w->notes_off;
	ph[0].p_filesz = ph[0].p_memsz = in->notes_size;
	if (w->erase_desc)
		ph[0].p_filesz = ph[0].p_memsz = in->notes_size +
			ERASE_NOTE_HDR + vs_round_up(w->erase_desc, 4);
	for (size_t i = 0; i < w->npieces; i++) {
		const struct elf_piece *p = &w->pieces[i];

		ph[i + 1].p_type = PT_LOAD;
		ph[i + 1].p_flags = PF_R | PF_W | PF_X;
		ph[i + 1].p_offset = p->offset;
		ph[i + 1].p_vaddr = p->vaddr;
		ph[i + 1].p_paddr = p->paddr;
		ph[i + 1].p_filesz = p->filesz;
		ph[i + 1].p_memsz = p->memsz;
	}
	for (size_t i = 0; i < phnum; i++)
		vs_elf_phdr_order(&in->order, &ph[i]);
	if (vs_sink_write(w->d->sinks, ph, phnum * sizeof(*ph),
			  sizeof(Elf64_Ehdr), err) < 0)
		ret = -1;
	if (ret == 0 && phnum >= PN_XNUM) {
		Elf64_Shdr sh = { .sh_info = (Elf64_Word)phnum };

		vs_elf_shdr_order(&in->order, &sh);
		ret = vs_sink_write(w->d->sinks, &sh, sizeof(sh),
				    w->eh.e_shoff, err);
	}
	free(ph);
	return ret;
}

static int copy_piece(struct elf_writer *w, const struct elf_piece *p,
		      uint8_t *buf, struct vs_error *err)
{
	struct vs_dump *d = w->d;
	unsigned sh = d->in->page_shift;

	for (uint64_t done = 0; done < p->filesz;) {
		uint64_t n = p->filesz - done < ELF_COPY_BUF ?
			     p->filesz - done : ELF_COPY_BUF;

		if (vs_check_cancel(d, err) < 0 ||
		    vs_read_phys(&d->workers[0]->reader, p->paddr + done, buf,
				 n, err) < 0)
			return -1;
		if (d->erase)
			vs_erase_buf(d->erase, 0, p->paddr + done, buf, n);
		if (vs_sink_write(d->sinks, buf, n, p->offset + done, err) < 0)
			return -1;
		done += n;
		d->done += n >> sh;
		vs_report_progress(d, d->done, d->present);
	}
	return 0;
}

static int copy_pieces(struct elf_writer *w, struct vs_error *err)
{
	uint8_t *buf = malloc(ELF_COPY_BUF);
	int ret = 0;

	if (!buf)
		return vs_err_oom(err, "out of memory");
	for (size_t i = 0; i < w->npieces && ret == 0; i++)
		ret = copy_piece(w, &w->pieces[i], buf, err);
	free(buf);
	return ret;
}

static void put32(const struct vs_machine *m, uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * (m->big_endian ? 3 - i : i)));
}

/* The ERASEINFO note: its header and name, the text of what was erased,
 * zeros to the size reserved. */
static int write_erase_note(struct elf_writer *w, struct vs_error *err)
{
	size_t room = ERASE_NOTE_HDR + vs_round_up(w->erase_desc, 4);
	uint8_t *note;
	int ret;

	if (!w->erase_desc)
		return 0;
	note = calloc(1, room);
	if (!note)
		return vs_err_oom(err, "out of memory");
	put32(&w->d->in->order, note, sizeof(ERASE_NOTE_NAME));
	put32(&w->d->in->order, note + 4, (uint32_t)w->erase_desc);
	memcpy(note + 12, ERASE_NOTE_NAME, sizeof(ERASE_NOTE_NAME));
	vs_erase_text(w->d->erase, 0, (char *)note + ERASE_NOTE_HDR,
		      w->erase_desc);
	ret = vs_sink_write(w->d->sinks, note, room, w->erase_note_off, err);
	free(note);
	return ret;
}

static void count_dumped(struct elf_writer *w)
{
	uint64_t nwords = vs_div_round_up(w->d->max_mapnr, 64);

	w->d->dumped = vs_bits_count(w->bitmap, nwords);
}

static int elf_write(struct vs_dump *d, struct vs_error *err)
{
	struct elf_writer w = { .d = d };
	double t = vs_now();
	int ret = -1;

	if (run_select(&w, err) < 0 || plan_pieces(&w, err) < 0)
		goto out;
	d->select_seconds = vs_now() - t;
	t = vs_now();
	count_dumped(&w);
	if (write_ehdr(&w, ELF_INCOMPLETE, err) < 0 ||
	    write_phdrs(&w, err) < 0 ||
	    vs_sink_write(d->sinks, d->in->notes, d->in->notes_size,
			  w.notes_off, err) < 0)
		goto out;
	if (copy_pieces(&w, err) < 0) {
		d->incomplete = 1;
		goto out;
	}
	d->copy_seconds = vs_now() - t;
	if (write_erase_note(&w, err) < 0)
		goto out;
	ret = write_ehdr(&w, 0, err);
out:
	free(w.pieces);
	free(w.bitmap);
	return ret;
}

static int elf_check(const struct vs_input *in,
		     const struct vmsift_options *opts, struct vs_error *err)
{
	if (opts->codec != VMSIFT_CODEC_NONE)
		return vs_err_st(err, VMSIFT_E_INVALID,
				 "ELF output cannot be compressed");
	if (in->no_elf_loads)
		return vs_err(err, "ELF output cannot be made from a "
			      "kdump-compressed input");
	return 0;
}

const struct vs_writer_ops vs_elf_writer = {
	.name = "ELF",
	.format = VMSIFT_FORMAT_ELF,
	.check = elf_check,
	.write = elf_write,
};
