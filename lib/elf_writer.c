/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf_writer.c - write an ELF64 core file (makedumpfile -E).  Exports
 * only vs_elf_writer (writer.h), run by dump.c; uses select.h's services.
 *
 * Layout (elf_plan.c, which the ELF view of vmsift mount shares): ELF
 * header, program headers (PT_NOTE, then PT_LOADs), section header 0
 * when the PT_LOADs need PN_XNUM, the notes copied verbatim, then each
 * PT_LOAD's data back to back.  Every input PT_LOAD (the kernel-text
 * alias included, which readers use to find phys_base) is written as one
 * or more pieces: runs of excluded pages of 256 pages or more are cut
 * out, shorter ones stay with their original contents, as makedumpfile
 * does.  A page of the input only partly covered stays byte-exact:
 * pieces end where the input's segments end.
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
#include "chunkmap.h"
#include "elf_plan.h"
#include "pipeline.h"
#include "util.h"
#include "writer.h"

#define ELF_INCOMPLETE 0x1u
#define ELF_COPY_BUF (1u << 20)

struct elf_slot {
	uint64_t bits1[VS_SELECT_PFNS / 64];
	uint64_t bits2[VS_SELECT_PFNS / 64];
	uint64_t zero;
};

struct elf_writer {
	struct vs_dump *d;
	struct vs_chunkmap chunks;   /* chunks with a kept page */
	uint64_t *bitmap;            /* their bitmap 2, in the list's order */
	uint64_t bitmap_cap;         /* chunks it has room for */
	struct vs_elf_plan plan;     /* elf_plan.c: shared with the ELF view */
	uint64_t erase_desc;         /* ERASEINFO text size (--config), or 0 */
};

#define ERASE_NOTE_NAME "ERASEINFO"   /* 10 bytes with its NUL */
#define ERASE_NOTE_HDR (12u + 12u)    /* Elf64_Nhdr + the name, padded */

static int zero_test(const struct vs_dump *d, struct vs_worker *wk,
		     struct elf_slot *s, uint64_t start, struct vs_error *err);

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
	return zero_test(d, wk, s, start, err);
}

/* Pages of the chunk kept but zero leave bitmap 2, timed by the chunk
 * (vmsift_rates' zero test). */
static int zero_test(const struct vs_dump *d, struct vs_worker *wk,
		     struct elf_slot *s, uint64_t start, struct vs_error *err)
{
	double t = vs_now(), cpu = vs_thread_cpu();

	vs_reader_chunk(&wk->reader);
	/* A word at a time: a hole's words are skipped whole. */
	for (uint64_t wd = 0; wd < VS_SELECT_PFNS / 64; wd++) {
		for (uint64_t m = s->bits2[wd]; m; m &= m - 1) {
			uint64_t i = 64 * wd + (uint64_t)__builtin_ctzll(m);
			const uint8_t *page;

			vs_reader_kept(&wk->reader, s->bits2, i,
				       VS_SELECT_PFNS);
			if (vs_read_page(&wk->reader, start + i, &page, err) < 0)
				return vs_err_ctx(err, "pfn 0x%llx",
						  (unsigned long long)(start + i));
			wk->rates.zero_bytes += d->in->page_size;
			if (vs_is_zero(page, d->in->page_size)) {
				vs_bit_clear(s->bits2, i);
				s->zero++;
			}
		}
	}
	vs_work_rates_job(&wk->rates, vs_now() - t, vs_thread_cpu() - cpu, 0);
	return 0;
}

/* Only chunks with a kept page take room: a hole in the address space
 * costs nothing here. */
static int keep_chunk(struct elf_writer *w, uint64_t index,
		      const uint64_t *bits2, struct vs_error *err)
{
	const uint64_t words = VS_SELECT_PFNS / 64;
	uint64_t nth = w->chunks.total;

	if (vs_chunkmap_add(&w->chunks, index, err) < 0)
		return -1;
	if (nth == w->bitmap_cap) {
		uint64_t cap = w->bitmap_cap ? 2 * w->bitmap_cap : 64;
		uint64_t *p = realloc(w->bitmap, cap * words * sizeof(*p));

		if (!p)
			return vs_err_oom(err, "out of memory for the bitmap");
		w->bitmap = p;
		w->bitmap_cap = cap;
	}
	memcpy(w->bitmap + nth * words, bits2, words * sizeof(*bits2));
	return 0;
}

static int elf_select_consume(void *arg, uint64_t index, void *slot,
			      struct vs_error *err)
{
	struct elf_writer *w = arg;
	struct elf_slot *s = slot;

	if (vs_check_cancel(w->d, err) < 0)
		return -1;
	if (vs_bits_count(s->bits2, VS_SELECT_PFNS / 64) &&
	    keep_chunk(w, index, s->bits2, err) < 0)
		return -1;
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

	if (!slots)
		vs_err_oom(err, "out of memory");
	else
		ret = vs_dump_run(d, &ops, w, slots, sizeof(*slots), nslots,
				  njobs, err);
	free(slots);
	return ret;
}

static int plan_pieces(struct elf_writer *w, struct vs_error *err)
{
	const struct vs_input *in = w->d->in;

	/* makedumpfile reserves room for the text as if every range were
	 * stored whole; what is written is padded with zeros to it. */
	if (w->d->erase)
		w->erase_desc = vs_erase_text_bound(w->d->erase);
	return vs_elf_plan_make(&w->plan, in, in->loads, in->nr_loads,
				w->bitmap, &w->chunks, w->d->max_mapnr,
				w->erase_desc ? ERASE_NOTE_HDR +
				vs_round_up(w->erase_desc, 4) : 0, err);
}

static int write_ehdr(struct elf_writer *w, uint32_t flags,
		      struct vs_error *err)
{
	Elf64_Ehdr eh;

	vs_elf_plan_ehdr(&w->plan, w->d->in, flags, &eh);
	return vs_sink_write(w->d->sinks, &eh, sizeof(eh), 0, err);
}

static int write_phdrs(struct elf_writer *w, struct vs_error *err)
{
	const struct vs_elf_plan *p = &w->plan;
	Elf64_Phdr *ph;
	Elf64_Shdr sh;
	int has_sh, ret;

	if (vs_elf_plan_phdrs(p, w->d->in, &ph, &sh, &has_sh, err) < 0)
		return -1;
	ret = vs_sink_write(w->d->sinks, ph, p->phnum * sizeof(*ph),
			    sizeof(Elf64_Ehdr), err);
	if (ret == 0 && has_sh)
		ret = vs_sink_write(w->d->sinks, &sh, sizeof(sh),
				    sizeof(Elf64_Ehdr) +
				    p->phnum * sizeof(Elf64_Phdr), err);
	free(ph);
	return ret;
}

static int copy_piece(struct elf_writer *w, const struct vs_elf_piece *p,
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
	for (size_t i = 0; i < w->plan.npieces && ret == 0; i++)
		ret = copy_piece(w, &w->plan.pieces[i], buf, err);
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
	ret = vs_sink_write(w->d->sinks, note, room, w->plan.extra_notes_off,
			   err);
	free(note);
	return ret;
}

static void count_dumped(struct elf_writer *w)
{
	uint64_t nwords = w->chunks.total * (VS_SELECT_PFNS / 64);

	w->d->dumped = vs_bits_count(w->bitmap, nwords);
}

static int elf_write(struct vs_dump *d, struct vs_error *err)
{
	struct elf_writer w = { .d = d };
	double t = vs_now(), cpu = vs_process_cpu();
	int ret = -1;

	if (run_select(&w, err) < 0 || plan_pieces(&w, err) < 0)
		goto out;
	d->select_seconds = vs_now() - t;
	d->select_cpu = vs_process_cpu() - cpu;
	t = vs_now();
	count_dumped(&w);
	if (write_ehdr(&w, ELF_INCOMPLETE, err) < 0 ||
	    write_phdrs(&w, err) < 0 ||
	    vs_sink_write(d->sinks, d->in->notes, d->in->notes_size,
			  w.plan.notes_off, err) < 0)
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
	vs_elf_plan_free(&w.plan);
	free(w.bitmap);
	vs_chunkmap_free(&w.chunks);
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
