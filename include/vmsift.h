/*
 * vmsift.h - the public API of libvmsift, the library that saves a Linux
 * kernel crash dump.
 *
 * The model: a struct vmsift is one session.  Open an input (a vmcore: the
 * kernel's /proc/vmcore or an ELF dump file), optionally give it
 * VMCOREINFO from a text file, then write one dump from it with
 * vmsift_dump().  Every call that can fail returns 0 on success or -1 on
 * failure; the failure's message, with the context of every layer that saw
 * it ("cannot dump 'x': ...: short read at offset 0x1000"), is then
 * available from vmsift_error().  The library never prints and never exits.
 *
 * Threads: one struct vmsift must not be used by two threads at once;
 * separate sessions are independent.  vmsift_dump() runs its own worker
 * threads (vmsift_options.threads) and joins them before it returns.
 *
 * Ownership: the library owns the session and everything hanging off it;
 * vmsift_free() releases all of it and accepts NULL.  File descriptors
 * passed in stay the caller's: the library never closes them.
 */
#ifndef VMSIFT_H
#define VMSIFT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VMSIFT_VERSION_STRING "0.1.0"

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

struct vmsift_options {
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
};

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
	uint64_t bytes_written;      /* bytes of dump written */
	uint64_t doubtful;           /* pages kept because their metadata was unreadable */
	double select_seconds;       /* choosing pages: the struct page scan */
	double copy_seconds;         /* reading, compressing, writing pages */
	int incomplete;              /* the dump was cut short and says so */
	int out_of_space;            /* ... because the disk or -L was full */
	int cancelled;               /* ... because vmsift_cancel() was called */
};

struct vmsift;

/* A new session, or NULL when out of memory. */
VMSIFT_API struct vmsift *vmsift_new(void);
/* Release the session and all it holds; NULL is a no-op. */
VMSIFT_API void vmsift_free(struct vmsift *vs);

/* The message of the last failure, with its context; "" if none. */
VMSIFT_API const char *vmsift_error(const struct vmsift *vs);

/* Open the input dump at PATH. */
VMSIFT_API int vmsift_open(struct vmsift *vs, const char *path);

/* Take VMCOREINFO from a text file (makedumpfile -i) instead of the
 * dump's own note.  Call after vmsift_open(). */
VMSIFT_API int vmsift_set_vmcoreinfo_file(struct vmsift *vs, const char *path);

/* Write a dump of the opened input to OUT_FD, which must be open for
 * writing; it must be seekable unless opts->flattened is set.
 * OUT_NAME names it in messages.  Fills vmsift_stats. */
VMSIFT_API int vmsift_dump(struct vmsift *vs, const struct vmsift_options *opts,
			   int out_fd, const char *out_name);

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
				 const int *out_fds, const char *const *out_names,
				 unsigned n);

/* Merge the files of a split set, in order, into OUT_FD: the file a
 * direct dump would have written.  Refuses parts of different dumps,
 * missing parts and parts out of order. */
VMSIFT_API int vmsift_reassemble(struct vmsift *vs, const char *const *parts,
				 unsigned n, int out_fd, const char *out_name);

/* What the last vmsift_dump() found doubtful in the dead kernel's page
 * metadata (unreadable struct pages, broken free lists, absurd orders),
 * one line each with the pfns and addresses, the pages concerned kept;
 * "" when nothing was. */
VMSIFT_API const char *vmsift_doubts(const struct vmsift *vs);

/* The counts of the last vmsift_dump(). */
VMSIFT_API void vmsift_get_stats(const struct vmsift *vs,
				 struct vmsift_stats *st);

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

/* The name of a codec ("zlib", "lzo", "snappy", "zstd", "none"). */
VMSIFT_API const char *vmsift_codec_name(enum vmsift_codec codec);

/* The number of CPUs online, at least 1. */
VMSIFT_API unsigned vmsift_cpus_online(void);

#ifdef __cplusplus
}
#endif
#endif /* VMSIFT_H */
