/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * input.h - the opened input dump, and per-thread readers of its memory:
 * the input side's interface to the rest of the library (filter, arch,
 * writers, dump.c, the read API).
 *
 * struct vs_input describes what a dump holds, independent of its file
 * format: the physical memory it covers (a sorted table of segments), the
 * ELF notes to carry over, the VMCOREINFO text and the CPU count.  The
 * format that reads it (format.h: ELF, kdump-compressed; either possibly
 * flattened, see file.h) is chosen by signature at open.  It is read-only
 * once opened, so any number of threads may share it.
 *
 * struct vs_reader is one thread's view of that memory: windows onto the
 * file (file.h) plus a bounce page for pages assembled or decompressed.
 * Never share a reader between threads; make one per thread with
 * vs_reader_init().
 */
#ifndef VMSIFT_INPUT_H
#define VMSIFT_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "codec.h"
#include "error.h"
#include "file.h"
#include "machine.h"

struct vs_vmcoreinfo;
struct vs_format_ops;

/* One range of physical memory as the input holds it: [paddr, paddr +
 * memsz) is memory that was present; [paddr, paddr + filesz) of it has
 * data at file offset OFFSET; the rest reads as zero. */
struct vs_segment {
	uint64_t paddr;
	uint64_t memsz;
	uint64_t filesz;
	uint64_t offset;
	uint64_t vaddr;
};

/* What the headers of a dump written before (a kdump-compressed input,
 * being re-filtered) say of it; KNOWN is 0 for other inputs. */
struct vs_prev_dump {
	int known;
	int32_t dump_level;          /* the level it was written with */
	uint64_t phys_base;
	char utsname[6 * 65];
	int64_t tv_sec;
	uint32_t status;             /* the kdump header's (codec bits) */
	/* One file of a split set: it holds the pages of pfns [start_pfn,
	 * end_pfn) only (opened with allow_split; split_input.c). */
	int split;
	uint64_t start_pfn, end_pfn;
};

struct vs_input {
	const struct vs_format_ops *ops;  /* the format it is read with */
	void *priv;                  /* the format's own state */
	struct vs_file file;         /* the file and its flattened map */
	int no_mmap;                 /* read with pread only */
	int read_path;               /* enum vmsift_read_path: the kept pages'
					reads (reader.c) */
	int kcore;                   /* /proc/kcore: read() only, its direct
					map as physical memory (elf_input.c) */
	int allow_split;             /* set before opening: accept one file
					of a split set (kd.split) */
	const struct vs_age_ids *ids; /* set before opening: decrypt an age
					 file with these (borrowed) */
	/* A composite input (a split set, read.c): its pages come from
	 * hooks->read_page; NULL for a plain one. */
	const struct vs_input_hooks *hooks;
	void *hooks_arg;

	uint16_t elf_machine;        /* EM_X86_64, ... */
	/* The dumped machine's byte order, set by the format (ELF's
	 * EI_DATA, the kdump header's own order): every header field is
	 * read and written in it (only order.big_endian and order.swap
	 * mean anything; the page size is page_size below). */
	struct vs_machine order;
	uint64_t page_size;
	unsigned page_shift;
	int fixed_page_size;         /* set by the format (kdump block size) */

	/* PT_LOADs as the file lists them (for ELF output). */
	struct vs_segment *loads;
	size_t nr_loads;
	int no_elf_loads;            /* loads made up (no vaddr): no ELF output */
	/* Physical memory map used for reading: sorted by paddr, no
	 * overlaps; a segment wholly inside another (the kernel-text alias
	 * of /proc/vmcore) is left out. */
	struct vs_segment *phys;
	size_t nr_phys;
	uint64_t max_mapnr;          /* pfns up to the highest segment end */

	uint8_t *notes;              /* all PT_NOTE contents, concatenated */
	size_t notes_size;
	int has_vmcoreinfo_note;
	size_t vmcoreinfo_off;       /* its descriptor, inside notes */
	size_t vmcoreinfo_size;
	unsigned nr_cpus;            /* CORE/NT_PRSTATUS notes */

	struct vs_vmcoreinfo *vi;    /* parsed, or NULL without VMCOREINFO */
	struct vs_prev_dump prev;
};

/* What a composite input routes: pages, and the end of a reader (which
 * may keep per-thread state for the composite in vs_reader.sub). */
struct vs_reader;
struct vs_input_hooks {
	int (*read_page)(struct vs_reader *r, uint64_t pfn,
			 const uint8_t **page, struct vs_error *err);
	void (*reader_fini)(struct vs_reader *r);
};

/* Open PATH and read its headers and notes into IN (zeroed by caller):
 * any format of the table in input.c, told apart by signature.  On
 * failure IN still needs vs_input_close(). */
int vs_input_open(struct vs_input *in, const char *path, struct vs_error *err);
/* The same from FD, which stays the caller's: the input reads its own
 * duplicate (F_DUPFD_CLOEXEC), from any offset; NAME names it in
 * messages (NULL: "(descriptor)"). */
int vs_input_open_fd(struct vs_input *in, int fd, const char *name,
		     struct vs_error *err);
void vs_input_close(struct vs_input *in);

/* Parse VMCOREINFO text (from the note or a file) into in->vi; takes
 * page size from PAGESIZE. */
int vs_input_set_vmcoreinfo(struct vs_input *in, const char *text, size_t len,
			    const char *origin, struct vs_error *err);

/* The index in in->phys of the segment holding PADDR, or -1. */
long vs_input_find(const struct vs_input *in, uint64_t paddr);

/* Bytes of [pfn * page_size, +page_size) that the input covers with
 * memory (0 for a hole), and of those how many have data in the file. */
void vs_input_page_cover(const struct vs_input *in, uint64_t pfn,
			 uint64_t *mem_bytes, uint64_t *data_bytes);

struct vs_reader {
	const struct vs_input *in;
	struct vs_view view;         /* windows onto the file */
	uint8_t *bounce;             /* one page, assembled or decompressed */
	struct vs_dctx_set dctx;     /* decompression contexts, per codec */
	long last_seg;               /* ELF: the segment read last */
	int runs;                    /* the chunk being read is read by runs
					(vs_reader_chunk) */
	void *sub;                   /* a composite input's per-thread state */
};

int vs_reader_init(struct vs_reader *r, const struct vs_input *in,
		   struct vs_error *err);
void vs_reader_fini(struct vs_reader *r);

/* Before reading the kept pages of a chunk: whether its runs of kept
 * pages are read with one pread each or through windows (the read path,
 * vmsift.h; reader.c). */
void vs_reader_chunk(struct vs_reader *r);
/* Before reading kept page I of that chunk, whose N pfns (chunk-relative)
 * BITS marks kept: the run it starts, if any. */
void vs_reader_kept(struct vs_reader *r, const uint64_t *bits, uint64_t i,
		    uint64_t n);

/* Set in PRESENT and DATA (64-aligned START, N pfns, chunk-relative)
 * the pfns with memory, and of those the ones whose data the input
 * holds. */
int vs_input_page_bits(struct vs_reader *r, uint64_t start, uint64_t n,
		       uint64_t *present, uint64_t *data, struct vs_error *err);

/* What the input says of a page. */
enum vs_page_state {
	VS_PAGE_ABSENT,              /* no memory there (a hole, past the end) */
	VS_PAGE_EXCLUDED,            /* memory the dump left out (filtered) */
	VS_PAGE_DATA,                /* in the dump */
};

/* Copy page PFN (in->page_size bytes) into BUF and say in STATE what it
 * is; an absent or excluded page reads as zeros.  Fails only when the
 * input cannot be read (the message names the page). */
int vs_reader_page(struct vs_reader *r, uint64_t pfn, void *buf,
		   enum vs_page_state *state, struct vs_error *err);

/* A pointer to the whole page PFN (zero-filled where the input has no
 * data), valid until the next call on R.  Fails if PFN is not present. */
int vs_read_page(struct vs_reader *r, uint64_t pfn, const uint8_t **page,
		 struct vs_error *err);

/* A pointer to LEN bytes of physical memory at PADDR, read in place in
 * the reader's window and valid until the next call on R; NULL when they
 * do not lie whole in one segment's file data (or on a read error, with
 * ERR set): then copy them with vs_read_phys. */
const uint8_t *vs_peek_phys(struct vs_reader *r, uint64_t paddr, size_t len,
			    struct vs_error *err);

/* Copy LEN bytes of physical memory at PADDR into BUF.  Fails, naming
 * the address, if any byte is outside the input's memory. */
int vs_read_phys(struct vs_reader *r, uint64_t paddr, void *buf, size_t len,
		 struct vs_error *err);

#endif
