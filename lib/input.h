/*
 * input.h - the opened input dump, and per-thread readers of its memory.
 *
 * struct vs_input describes what a dump holds, independent of its file
 * format: the physical memory it covers (a sorted table of segments), the
 * ELF notes to carry over, the VMCOREINFO text and the CPU count.  The ELF
 * reader (elf_input.c) fills it; it is read-only once opened, so any
 * number of threads may share it.
 *
 * struct vs_reader is one thread's view of that memory: a window of the
 * file, mapped (mmap) or read (pread) in large pieces, plus a bounce page
 * for pages the file covers only in part.  Never share a reader between
 * threads; make one per thread with vs_reader_init().
 */
#ifndef VMSIFT_INPUT_H
#define VMSIFT_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "file.h"

struct vs_vmcoreinfo;

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

enum vs_input_kind {
	VS_INPUT_ELF,                /* /proc/vmcore, an ELF dump */
	VS_INPUT_KDUMP,              /* kdump-compressed: re-filtering */
};

/* What a kdump-compressed input adds (kdump_input.c). */
struct vs_kdump_input {
	uint64_t block_size;
	uint64_t bitmap1_off, bitmap2_off, bitmap_len;
	uint64_t desc_off;
	uint64_t *rank;              /* bitmap2 bits set before pfn i << 12 */
	uint64_t nr_dumpable;
	uint32_t status;             /* header status: codec, incomplete */
	int32_t dump_level;          /* the level it was written with */
	uint64_t phys_base;
	char utsname[6 * 65];
	int64_t tv_sec;
};

#define VS_RANK_SHIFT 12

struct vs_input {
	enum vs_input_kind kind;
	struct vs_file file;         /* the file and its flattened map */
	int no_mmap;                 /* read with pread only */

	uint16_t elf_machine;        /* EM_X86_64, ... */
	uint64_t page_size;
	unsigned page_shift;

	/* PT_LOADs as the file lists them (for ELF output). */
	struct vs_segment *loads;
	size_t nr_loads;
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
	struct vs_kdump_input kd;    /* VS_INPUT_KDUMP only */
};

/* Open PATH and read its headers and notes into IN (zeroed by caller):
 * a kdump-compressed file or an ELF vmcore, told apart by signature. */
int vs_input_open(struct vs_input *in, const char *path, struct vs_error *err);
void vs_input_close(struct vs_input *in);

/* The format-specific parts of vs_input_open(). */
int vs_input_open_elf(struct vs_input *in, struct vs_error *err);
int vs_input_open_kdump(struct vs_input *in, struct vs_error *err);
/* Shared by both: the notes (CPUs, VMCOREINFO), max_mapnr from phys. */
int vs_input_scan_notes(struct vs_input *in, struct vs_error *err);
int vs_input_load_vmcoreinfo_note(struct vs_input *in, struct vs_error *err);
void vs_input_set_max_mapnr(struct vs_input *in);

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
	struct vs_view view;         /* ELF: DATA, and DESC for small reads */
	uint8_t *bounce;             /* one page, for partly covered pages */
	uint8_t *cbuf;               /* kdump input: a compressed page */
	long last_seg;
};

/* Set in BITS (64-aligned START, N pfns, chunk-relative) the pfns whose
 * data the input holds. */
int vs_input_data_bits(struct vs_reader *r, uint64_t start, uint64_t n,
		       uint64_t *bits, struct vs_error *err);
/* The same for pfns with memory (bitmap 1). */
int vs_input_present_bits(const struct vs_input *in, uint64_t start,
			  uint64_t n, uint64_t *bits);

/* kdump_input.c: a page of a kdump-compressed input, decompressed; the
 * bits of its bitmap 2. */
int vs_kdump_read_page(struct vs_reader *r, uint64_t pfn, const uint8_t **page,
		       struct vs_error *err);
int vs_kdump_data_bits(struct vs_reader *r, uint64_t start, uint64_t n,
		       uint64_t *bits, struct vs_error *err);

int vs_reader_init(struct vs_reader *r, const struct vs_input *in,
		   struct vs_error *err);
void vs_reader_fini(struct vs_reader *r);

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
