/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmsift.h - the public API of libvmsift, the library that saves a Linux
 * kernel crash dump.
 *
 * The model: a struct vmsift is one session that writes dumps.  Open an
 * input once (vmsift_open, vmsift_open_fd: the formats are listed there),
 * optionally give it VMCOREINFO from a text file, then write dumps from
 * it with vmsift_dump() or vmsift_dump_split(), as many as wanted, one at
 * a time.  A struct vmsift_dumpfile, further down, is a dump opened to be
 * read: pages, physical and kernel virtual memory, from many threads.
 *
 * Errors: every call that can fail returns 0 on success or -1 on failure;
 * the failure's message, with the context of every layer that saw it
 * ("cannot dump 'x': ...: short read at offset 0x1000"), is then
 * available from vmsift_error(), and its kind (enum vmsift_status) from
 * vmsift_status().  The library never prints and never exits.
 *
 * Threads: one struct vmsift must not be used by two threads at once;
 * separate sessions are independent.  vmsift_dump() runs its own worker
 * threads (vmsift_options.threads) and joins them before it returns.
 *
 * Ownership: the library owns the session and everything hanging off it;
 * vmsift_free() releases all of it and accepts NULL.  File descriptors
 * passed in stay the caller's: the library never closes them (where it
 * keeps one open, it keeps a duplicate).
 *
 * doc/api.md is the map of this header, with examples.
 */
#ifndef VMSIFT_H
#define VMSIFT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VMSIFT_VERSION_STRING "0.2.0"
#define VMSIFT_VERSION_MAJOR 0
#define VMSIFT_VERSION_MINOR 2
#define VMSIFT_VERSION_PATCH 0

/* VMSIFT_API marks what libvmsift exports: the library is compiled with
 * -fvisibility=hidden, and lib/libvmsift.map names the version node. */
#if defined(__GNUC__) && __GNUC__ >= 4
#define VMSIFT_API __attribute__((visibility("default")))
#else
#define VMSIFT_API
#endif

/* Dump level bits (makedumpfile's -d). */
#define VMSIFT_DL_ZERO          1u  /* pages filled with zero */
#define VMSIFT_DL_CACHE         2u  /* non-private page cache */
#define VMSIFT_DL_CACHE_PRIVATE 4u  /* all page cache, private included */
#define VMSIFT_DL_USER          8u  /* user process data */
#define VMSIFT_DL_FREE          16u /* free pages */
#define VMSIFT_DL_MAX           31u

/* What kind of failure the last call had, beside its message: for a
 * caller that must act on it (retry elsewhere on NO_SPACE, say) rather
 * than print it.  vmsift_status() is VMSIFT_OK after a call that
 * succeeded. */
enum vmsift_status {
	VMSIFT_OK = 0,
	VMSIFT_E_INVALID,       /* a bad argument or call order: the caller's bug */
	VMSIFT_E_BAD_INPUT,     /* the dump is corrupt, truncated or not a dump */
	VMSIFT_E_UNSUPPORTED,   /* valid, but a format or feature not handled */
	VMSIFT_E_IO,            /* a read or write failed (errno in the message) */
	VMSIFT_E_NO_SPACE,      /* the output is full: ENOSPC, quota, -L */
	VMSIFT_E_NO_MEMORY,     /* an allocation failed */
	VMSIFT_E_CANCELLED,     /* vmsift_cancel() stopped it */
	VMSIFT_E_NO_DATA,       /* read: the address is not in the dump (a
				   hole, or a page the dump left out) */
	VMSIFT_E_MISMATCH,      /* a debug vmlinux (-x) of another kernel than
				   the dump's: build id or release differ */
};

enum vmsift_codec {
	VMSIFT_CODEC_NONE = 0,
	VMSIFT_CODEC_ZLIB,
	VMSIFT_CODEC_LZO,
	VMSIFT_CODEC_SNAPPY,
	VMSIFT_CODEC_ZSTD,
};

enum vmsift_format {
	VMSIFT_FORMAT_KDUMP = 0,  /* kdump-compressed (makedumpfile's default) */
	VMSIFT_FORMAT_ELF,        /* ELF core file (makedumpfile -E) */
};

/* A progress report: called from the writing thread, about once per
 * chunk of output; done <= total, both in pages. */
typedef void vmsift_progress_fn(void *arg, uint64_t done, uint64_t total);

/* How vmsift_dump() reads the kept pages of the input (the output is
 * the same byte for byte whichever is taken).  WINDOWS: through 2 MiB
 * mmap windows (1 MiB pread windows with no_mmap).  RUNS: each run of
 * consecutive kept pages with one pread.  AUTO (the default): RUNS on a
 * file, WINDOWS on /proc/vmcore (whose read() costs many times its mmap)
 * and /proc/kcore.  None of them maps anything with no_mmap. */
enum vmsift_read_path {
	VMSIFT_READ_AUTO = 0,
	VMSIFT_READ_WINDOWS,
	VMSIFT_READ_RUNS,
};

/* What vmsift_dump() writes.  The struct grows at its end in later
 * versions: set struct_size, first, to the size the caller was built with
 * (vmsift_options_init() or VMSIFT_OPTIONS_INIT do it and zero the rest,
 * which means every default).  The library takes an older, smaller struct
 * with defaults for the fields it lacks, and refuses one bigger than it
 * knows (VMSIFT_E_INVALID): a newer caller asking for what this library
 * cannot do. */
struct vmsift_options {
	size_t struct_size;          /* sizeof(struct vmsift_options) */
	unsigned dump_level;         /* VMSIFT_DL_* bits */
	enum vmsift_codec codec;
	int codec_level;             /* 0: the codec's default (zlib 1, zstd 1) */
	enum vmsift_format format;
	int flattened;               /* write makedumpfile's flattened stream */
	int no_mmap;                 /* read the input with pread only */
	unsigned threads;            /* worker threads; 0: CPUs online */
	uint64_t size_limit;         /* bytes of output at most (-L); 0: none */
	uint64_t splitblock_size;    /* bytes; split balance unit; 0: 1 GiB */
	int dry_run;                 /* do everything but write (--dry-run) */
	vmsift_progress_fn *progress;
	void *progress_arg;
	/* Encrypt to these age recipients ("age1...", X25519): the output
	 * (each file of a split set) is an age file (age-encryption.org/v1)
	 * whose plaintext is the kdump-compressed dump as a flattened stream;
	 * `age -d` and vmsift -R rebuild it.  Not with VMSIFT_FORMAT_ELF.
	 * A bad recipient fails the dump before anything is written. */
	const char *const *encrypt_to;
	unsigned nr_encrypt_to;
	const char *erase_config;    /* --config: erase rules (doc/erase.md) */
	int erase_ignore_missing;    /* skip rules naming what the kernel lacks */
	int exclude_vmemmap;         /* -e: leave out the pages holding only
					struct pages of excluded pages
					(kdump-compressed output) */
	enum vmsift_read_path read_path;  /* how the kept pages are read */
};

#define VMSIFT_OPTIONS_INIT { .struct_size = sizeof(struct vmsift_options) }

/* Zero *O, every field at its default, and set its struct_size. */
VMSIFT_API void vmsift_options_init(struct vmsift_options *o);

/* Counts, in pages, of one dump; the rows of makedumpfile's report. */
struct vmsift_stats {
	uint64_t max_mapnr;          /* pfns spanned: highest segment end */
	uint64_t present;            /* pfns in some PT_LOAD ("Original pages") */
	uint64_t zero;               /* excluded: filled with zero */
	uint64_t cache;              /* excluded: non-private cache */
	uint64_t cache_private;      /* excluded: private cache */
	uint64_t user;               /* excluded: user process data */
	uint64_t free;               /* excluded: free pages */
	uint64_t hwpoison;           /* excluded: hardware-poisoned */
	uint64_t offline;            /* excluded: offline */
	uint64_t no_data;            /* present but not in the file (p_filesz < p_memsz) */
	uint64_t dumped;             /* pages with data in the dump */
	uint64_t bytes_written;      /* the output's size (all files of a split set) */
	uint64_t doubtful;           /* pages kept because their metadata was unreadable */
	double select_seconds;       /* choosing pages: the struct page scan */
	double copy_seconds;         /* reading, compressing, writing pages */
	int incomplete;              /* the dump was cut short and says so */
	int out_of_space;            /* ... because the disk or -L was full */
	int cancelled;               /* ... because vmsift_cancel() was called */
};

struct vmsift;

/* What vmsift_mem_usage() finds (makedumpfile's --mem-usage table, at
 * dump level 31) and the size a kdump-compressed dump would have, per
 * level and codec, estimated from a sample of the pages. */
struct vmsift_dump_size {
	unsigned level;              /* 1 or 31 */
	enum vmsift_codec codec;     /* zlib, lzo, snappy, zstd */
	uint64_t bytes;
};

struct vmsift_mem_usage {
	size_t struct_size;          /* sizeof(struct vmsift_mem_usage) */
	uint64_t page_size;
	uint64_t present;            /* pages with memory ("Total pages") */
	uint64_t zero;               /* at -d 31: filled with zero (see
					exact_zero, zero_estimated) */
	uint64_t cache;              /* non-private cache */
	uint64_t cache_private;      /* private cache */
	uint64_t user;               /* user process data */
	uint64_t free;               /* free pages */
	uint64_t hwpoison, offline;  /* always left out */
	struct vmsift_dump_size sizes[8];  /* levels 1, 31 x the 4 codecs */
	unsigned nr_sizes;
	uint64_t sampled;            /* pages compressed for the sizes */
	double seconds;
	/* In: each of the two samples (pages kept at 31, pages only level 1
	 * keeps) holds exactly SAMPLE_PAGES of them (all when fewer; of the
	 * second, up to 4 times as many are zero-tested); 0: the default,
	 * 1024 pages of 4 KiB in bytes but at least 384 pages.
	 * SAMPLE_SEED (low 32 bits) shifts which pages
	 * (doc/mem-usage.md). */
	unsigned sample_pages;
	uint64_t sample_seed;
	/* In: count the zero pages by reading every page kept at 31, as
	 * makedumpfile's --mem-usage does (always done on /proc/kcore);
	 * otherwise ZERO is the sample's zero fraction of those pages, and
	 * a -d 31 dump's reading is saved. */
	unsigned exact_zero;
	/* Out: ZERO is estimated from the sample, not counted. */
	unsigned zero_estimated;
};

/* The version of the library running, which may differ from the
 * VMSIFT_VERSION_STRING the caller was built with: "0.2.0". */
VMSIFT_API const char *vmsift_version(void);

/* A new session, or NULL when out of memory. */
VMSIFT_API struct vmsift *vmsift_new(void);
/* Release the session and all it holds; NULL is a no-op. */
VMSIFT_API void vmsift_free(struct vmsift *vs);

/* The message of the last failure, with its context; "" if none. */
VMSIFT_API const char *vmsift_error(const struct vmsift *vs);

/* The status of the last failure (VMSIFT_OK if the last call did not
 * fail), and a short name for a status ("no space"). */
VMSIFT_API enum vmsift_status vmsift_status(const struct vmsift *vs);
VMSIFT_API const char *vmsift_status_name(enum vmsift_status st);

/* Open the input dump at PATH: an ELF vmcore (/proc/vmcore, makedumpfile
 * -E, QEMU's dump-guest-memory), a kdump-compressed file (any codec; to
 * re-filter it), or either of them as a flattened stream (makedumpfile
 * -F, read from a file).  A file of a split set is refused: reassemble
 * the set first (vmsift_reassemble) or read it with
 * vmsift_dumpfile_open_split.
 * A session opens one input, once: a second vmsift_open() fails with
 * VMSIFT_E_INVALID; use a new session for another input. */
VMSIFT_API int vmsift_open(struct vmsift *vs, const char *path);

/* The same for an input the caller has open as FD (readable, seekable).
 * The library works on its own duplicate of FD (close-on-exec) and
 * closes that; FD stays the caller's.  NAME names it in messages. */
VMSIFT_API int vmsift_open_fd(struct vmsift *vs, int fd, const char *name);

/* Read encrypted inputs (age files, vmsift --encrypt-to) with the
 * identities of the age identity file at PATH (age-keygen's output):
 * vmsift_open, vmsift_rebuild_flattened and vmsift_reassemble decrypt
 * with them.  Call before those. */
VMSIFT_API int vmsift_set_identity(struct vmsift *vs, const char *path);

/* Check an age recipient ("age1..."): 0, or -1 with the reason as the
 * session's error. */
VMSIFT_API int vmsift_check_recipient(struct vmsift *vs, const char *recipient);

/* Take VMCOREINFO from a text file (makedumpfile -i) instead of the
 * dump's own note.  Call after vmsift_open(). */
VMSIFT_API int vmsift_set_vmcoreinfo_file(struct vmsift *vs, const char *path);

/* makedumpfile -x: complete the input's VMCOREINFO from the DWARF of the
 * debug vmlinux at PATH.  The dump's own VMCOREINFO note wins key by key;
 * without one, every key comes from the vmlinux, its addresses moved by
 * the KASLR offset found in the dump (an ELF vmcore).  Fails with
 * VMSIFT_E_MISMATCH when the vmlinux's build id or release is not the
 * dump's, VMSIFT_E_UNSUPPORTED in a build without libdw.  Call after
 * vmsift_open() and before vmsift_set_vmcoreinfo_file() (whose file then
 * wins, as makedumpfile's -i does). doc/debuginfo.md. */
VMSIFT_API int vmsift_set_vmlinux(struct vmsift *vs, const char *path);

/* makedumpfile -g: the VMCOREINFO text of the debug vmlinux at PATH, for
 * PAGE_SIZE (0: the host's), into *TEXT (malloc'ed, NUL-terminated; the
 * caller frees it) and *LEN.  Needs no input; VS carries the error. */
VMSIFT_API int vmsift_vmlinux_vmcoreinfo(struct vmsift *vs, const char *path,
					 uint64_t page_size, char **text,
					 size_t *len);

/* Write a dump of the opened input to OUT_FD, which must be open for
 * writing; it must be seekable unless opts->flattened is set.
 * OUT_NAME names it in messages.  Fills vmsift_stats.  A session may dump
 * any number of times, one dump at a time, with the same or other
 * options (the CLI's -d 1,31 retry does); each dump reads the input
 * afresh. */
VMSIFT_API int vmsift_dump(struct vmsift *vs, const struct vmsift_options *opts,
			   int out_fd, const char *out_name);

/* makedumpfile --mem-usage, on any input: fill *MU (set its struct_size
 * first) with the page counts at dump level 31 and the estimated size of
 * a kdump-compressed dump at levels 1 and 31 with each codec.  Reads
 * every page kept at level 31 only with EXACT_ZERO (the ZERO count), and
 * compresses a sample of at most 2 x SAMPLE_PAGES pages, whatever the
 * input's size;
 * writes nothing.
 * OPTS gives the threads and the codec level (its dump level, format
 * and codec are not used; NULL: defaults). */
VMSIFT_API int vmsift_mem_usage(struct vmsift *vs,
				const struct vmsift_options *opts,
				struct vmsift_mem_usage *mu);

/* Ask a running vmsift_dump() to stop: it ends the dump as an
 * incomplete one (readable, flagged so) and fails.  Safe to call from a
 * signal handler or another thread. */
VMSIFT_API void vmsift_cancel(struct vmsift *vs);

/* Write a split set (makedumpfile --split): N kdump-compressed files,
 * file i holding the pages of one contiguous pfn range, ranges balanced
 * by dumpable pages in units of opts->splitblock_size; crash and
 * libkdumpfile open them together.  One pass, all threads. */
VMSIFT_API int vmsift_dump_split(struct vmsift *vs,
				 const struct vmsift_options *opts,
				 const int *out_fds,
				 const char *const *out_names, unsigned n);

/* Merge the files of a split set, open as PART_FDS[0..N) (readable,
 * seekable, named PART_NAMES[i] in messages), in order, into OUT_FD: the
 * file a direct dump would have written.  Refuses parts of different
 * dumps, missing parts and parts out of order.  Needs no vmsift_open(). */
VMSIFT_API int vmsift_reassemble(struct vmsift *vs, const int *part_fds,
				 const char *const *part_names, unsigned n,
				 int out_fd, const char *out_name);

/* What the last vmsift_dump() found doubtful in the dead kernel's page
 * metadata (unreadable struct pages, broken free lists, absurd orders),
 * one line each with the pfns and addresses, the pages concerned kept;
 * "" when nothing was. */
VMSIFT_API const char *vmsift_doubts(const struct vmsift *vs);

/* The --config rules the last vmsift_dump() skipped, one line each with
 * the rule's line number and why; "" when none was: the rules of a
 * [module] section whose module the dead kernel has not loaded, and,
 * with opts->erase_ignore_missing, those naming what the kernel lacks (a
 * symbol, a member, a module's debug information), whose bytes then
 * stay in the dump. */
VMSIFT_API const char *vmsift_erase_skipped(const struct vmsift *vs);

/* The counts of the last vmsift_dump(). */
VMSIFT_API void vmsift_get_stats(const struct vmsift *vs,
				 struct vmsift_stats *st);

/* Where the last vmsift_dump()'s time went, per phase (issue #17): bytes
 * and seconds of each, so that rates can be computed and compared.
 * "CPU, summed over workers": the CPU time of every worker thread added
 * up (with N threads it may exceed the dump's wall time), read once per
 * job of 1 MiB of pages and shared between the codec and the rest of the
 * job as the wall time inside the codec (two clock reads around each
 * page's compression) was.  Kdump-compressed output fills every field;
 * ELF output (-E) all but the codec's. */
struct vmsift_rates {
	size_t struct_size;          /* sizeof(struct vmsift_rates) */
	uint64_t struct_page_bytes;  /* struct pages the scan read */
	double scan_seconds;         /* the selection phase, wall */
	double scan_cpu_seconds;     /* its CPU time, every thread */
	uint64_t zero_test_bytes;    /* pages read and tested for zeros */
	double zero_test_seconds;    /* reading them and testing, CPU, summed
					over workers */
	uint64_t codec_in_bytes;     /* pages given to the codec */
	uint64_t codec_out_bytes;    /* what it made of them (a page the codec
					cannot shrink is stored raw) */
	double codec_seconds;        /* inside the codec, CPU, summed over
					workers */
	double worker_cpu_seconds;   /* CPU of the copy jobs (with -E of the
					zero tests), summed over workers */
	uint64_t write_bytes;        /* bytes handed to the output(s) */
	double write_seconds;        /* in write(2)/the stream, wall */
	uint64_t peak_rss_kib;       /* the process's peak RSS so far */
};

/* Fill *R (set R->struct_size first: what the caller's header knows is
 * filled, nothing past it) with the phases of the last vmsift_dump(). */
VMSIFT_API void vmsift_get_rates(const struct vmsift *vs,
				 struct vmsift_rates *r);

/* Rebuild a seekable dump from a flattened stream (makedumpfile -R). */
VMSIFT_API int vmsift_rebuild_flattened(struct vmsift *vs, int in_fd,
					const char *in_name, int out_fd,
					const char *out_name);

/* Write the dead kernel's log buffer as text to OUT_FD (makedumpfile
 * --dump-dmesg), byte for byte as makedumpfile writes it: one
 * "[seconds.micros] text" line a record for the printk ringbuffer (5.10+)
 * and the 3.5-5.9 records, the raw text for older kernels.  With PARTIAL,
 * only the records since the last "dmesg --clear" (--partial-dmesg).
 * OUT_NAME names OUT_FD in messages.  A corrupt log fails, naming the
 * address; what was written before the failure stays in OUT_FD. */
VMSIFT_API int vmsift_dump_dmesg(struct vmsift *vs, int partial, int out_fd,
				 const char *out_name);

/*
 * Reading a dump: random access to the memory a dump holds, for tools
 * that look into it (a mount, an analyser) rather than write it again.
 *
 * A struct vmsift_dumpfile is one opened dump, any format vmsift reads:
 * an ELF vmcore, a kdump-compressed file with any codec, either of them
 * flattened (makedumpfile -F, in a file), or a split set (makedumpfile
 * --split, vmsift --split) given as all its files.  It holds what every
 * reader shares: the dump's headers, the kernel's address translation
 * and a bounded cache of decompressed pages (CLOCK replacement; 4 MiB
 * unless vmsift_dumpfile_set_cache() says otherwise).
 *
 * A struct vmsift_reader reads from it: one per thread, with its own
 * buffers, file windows and decompression state, and its own error.  Any
 * number of readers of one dumpfile may read at once from different
 * threads; one reader must not be used by two threads at once.  Make
 * and free readers while no other thread uses the dumpfile's calls other
 * than the read calls; free every reader before the dumpfile.
 *
 * Addresses are the dumped machine's: pfn = paddr / page size, and
 * kernel virtual addresses are translated through the dump's own page
 * tables (which needs VMCOREINFO in the dump).
 */
struct vmsift_dumpfile;
struct vmsift_reader;

/* What a dump says of one page frame.  An ELF dump tells an excluded
 * page only where its PT_LOAD says so (p_filesz short of p_memsz); pages
 * left out of every PT_LOAD read as NOT_PRESENT.  A kdump-compressed dump
 * tells them apart with its two bitmaps. */
enum vmsift_page {
	VMSIFT_PAGE_NOT_PRESENT = 0, /* no memory there (a hole in the map) */
	VMSIFT_PAGE_EXCLUDED,        /* memory the dump left out (filtered
					by -d, or no data in the file) */
	VMSIFT_PAGE_ZERO,            /* in the dump, all zeros */
	VMSIFT_PAGE_DATA,            /* in the dump, not all zeros */
};

/* A dumpfile with nothing open, or NULL when out of memory. */
VMSIFT_API struct vmsift_dumpfile *vmsift_dumpfile_new(void);
/* Close and release it; NULL is a no-op.  Its readers must be gone. */
VMSIFT_API void vmsift_dumpfile_free(struct vmsift_dumpfile *df);
/* The last failure of a vmsift_dumpfile_* call, as for a session. */
VMSIFT_API const char *vmsift_dumpfile_error(const struct vmsift_dumpfile *df);
VMSIFT_API enum vmsift_status vmsift_dumpfile_status(
	const struct vmsift_dumpfile *df);

/* Keep at most BYTES of decompressed pages (0: no cache).  Call before
 * opening. */
VMSIFT_API int vmsift_dumpfile_set_cache(struct vmsift_dumpfile *df,
					 size_t bytes);

/* Pages found in the cache and pages read into it since the open. */
VMSIFT_API void vmsift_dumpfile_cache_counts(struct vmsift_dumpfile *df,
					     uint64_t *hits, uint64_t *misses);

/* Decrypt an encrypted dump (an age file) with the identities of the age
 * identity file at PATH.  Call before opening. */
VMSIFT_API int vmsift_dumpfile_set_identity(struct vmsift_dumpfile *df,
					    const char *path);

/* Open the dump at PATH, or open as FD (the library reads a duplicate;
 * FD stays the caller's), or the N files of a split set, in any order,
 * open as FDS and named NAMES in messages.  One open per dumpfile. */
VMSIFT_API int vmsift_dumpfile_open(struct vmsift_dumpfile *df,
				    const char *path);
VMSIFT_API int vmsift_dumpfile_open_fd(struct vmsift_dumpfile *df, int fd,
				       const char *name);
VMSIFT_API int vmsift_dumpfile_open_split(struct vmsift_dumpfile *df,
					  const int *fds,
					  const char *const *names, unsigned n);

/* The dumped machine's page size; pfns run from 0 to max_pfn - 1. */
VMSIFT_API uint64_t vmsift_dumpfile_page_size(const struct vmsift_dumpfile *df);
VMSIFT_API uint64_t vmsift_dumpfile_max_pfn(const struct vmsift_dumpfile *df);
/* The dump's VMCOREINFO text and its length, or NULL without one. */
VMSIFT_API const char *vmsift_dumpfile_vmcoreinfo(
	const struct vmsift_dumpfile *df, size_t *len);

/* A reader of DF, or NULL when out of memory or DF is not open. */
VMSIFT_API struct vmsift_reader *vmsift_reader_new(struct vmsift_dumpfile *df);
VMSIFT_API void vmsift_reader_free(struct vmsift_reader *r);
/* The last failure of a read on R. */
VMSIFT_API const char *vmsift_reader_error(const struct vmsift_reader *r);
VMSIFT_API enum vmsift_status vmsift_reader_status(
	const struct vmsift_reader *r);

/* Page PFN into BUF (page size bytes), its state into *STATE; a page not
 * in the dump (NOT_PRESENT, EXCLUDED) reads as zeros and is no failure.
 * Fails with VMSIFT_E_INVALID for a pfn at or past max_pfn, BAD_INPUT or
 * IO when the page cannot be read. */
VMSIFT_API int vmsift_read_pfn(struct vmsift_reader *r, uint64_t pfn, void *buf,
			       enum vmsift_page *state);
/* LEN bytes of physical memory at PADDR into BUF; fails with
 * VMSIFT_E_NO_DATA if any of them is not in the dump. */
VMSIFT_API int vmsift_read_phys(struct vmsift_reader *r, uint64_t paddr,
				void *buf, size_t len);
/* LEN bytes of the dead kernel's virtual memory at VADDR, translated
 * through its page tables; UNSUPPORTED without the VMCOREINFO or the
 * architecture that needs, NO_DATA where a page is not in the dump. */
VMSIFT_API int vmsift_read_kvirt(struct vmsift_reader *r, uint64_t vaddr,
				 void *buf, size_t len);

/*
 * An ELF view of a dump: the ELF core file vmsift -E would write of it
 * (the same program headers, offsets and bytes), never written anywhere,
 * its bytes made on demand from the dump's pages (excluded pages read as
 * zeros).  Made once (it reads the dump's bitmap, one bit a page), then
 * read from any number of threads, each with its own reader of the same
 * dumpfile.  A dump that kept no virtual addresses (kdump-compressed)
 * gets the direct map's where the architecture knows it (x86_64), else
 * 0.  It borrows DF, which must outlive it.  Failures of _new are DF's
 * (vmsift_dumpfile_error), of _read R's.
 */
struct vmsift_elfview;

VMSIFT_API int vmsift_elfview_new(struct vmsift_dumpfile *df,
				  struct vmsift_elfview **out);
/* NULL is a no-op. */
VMSIFT_API void vmsift_elfview_free(struct vmsift_elfview *v);
/* The size of the ELF file, in bytes. */
VMSIFT_API uint64_t vmsift_elfview_size(const struct vmsift_elfview *v);
/* Pages with data in the dump. */
VMSIFT_API uint64_t vmsift_elfview_dumped(const struct vmsift_elfview *v);
/* LEN bytes at file offset OFF into BUF; *GOT = how many (fewer at the
 * end of the file).  Fails (BAD_INPUT, IO) naming the pfn, the physical
 * address and the offset when a page cannot be read. */
VMSIFT_API int vmsift_elfview_read(struct vmsift_reader *r,
				   const struct vmsift_elfview *v,
				   uint64_t off, void *buf, size_t len,
				   size_t *got);

/* What vmsift knows of DF as text, "key: value" a line (file, format,
 * split_parts, codec, dump_level, machine, kernel, cpus, page counts),
 * malloc'ed into *TEXT for the caller to free. */
VMSIFT_API int vmsift_dumpfile_describe(struct vmsift_dumpfile *df,
					char **text);

/* The name of a codec ("zlib", "lzo", "snappy", "zstd", "none"). */
VMSIFT_API const char *vmsift_codec_name(enum vmsift_codec codec);

/* The number of CPUs online, at least 1. */
VMSIFT_API unsigned vmsift_cpus_online(void);

#ifdef __cplusplus
}
#endif
#endif /* VMSIFT_H */
