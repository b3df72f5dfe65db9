/*
 * dump.h - one dump in progress, shared by the format writers.
 *
 * vmsift_dump() (dump.c) builds a struct vs_dump and one struct vs_worker
 * per thread, then hands them to the writer of the requested format
 * (kdump_writer.c, elf_writer.c).  The dump is read-only while workers
 * run; each worker owns its reader, codec context and buffers.
 *
 * Both writers select pages the same way: vs_select_chunk() computes, for
 * a chunk of pfns, bitmap1 (memory present) and bitmap2 (page kept).
 */
#ifndef VMSIFT_DUMP_H
#define VMSIFT_DUMP_H

#include <stdatomic.h>

#include "codec.h"
#include "filter.h"
#include "input.h"
#include "pipeline.h"
#include "sink.h"
#include "vmsift.h"

/* pfns per selection chunk: 4 KiB of bitmap, 128 MiB of 4 KiB pages. */
#define VS_SELECT_PFNS (1u << 15)

struct vs_dump {
	const struct vs_input *in;
	const struct vmsift_options *opts;
	const struct vs_filter *filter;       /* NULL: no page-type filtering */
	const struct vs_codec_ops *codec;     /* NULL: pages stored raw */
	uint64_t max_mapnr;                   /* pfns the dump spans */
	unsigned level;                       /* dump level, with a re-filtered
						 input's own or-ed in */
	unsigned nthreads;                    /* 0: run on the calling thread */
	unsigned nworkers;                    /* max(nthreads, 1) */
	struct vs_worker **workers;
	struct vs_sink *sinks;                /* one, or one per split file */
	unsigned nsinks;
	uint64_t split_pfns;                  /* pfns per splitblock */
	struct vs_counts counts;              /* filter's exclusions */
	uint64_t present;                     /* pfns with memory */
	uint64_t no_data;                     /* present, no data in the file */
	uint64_t zero;                        /* zero pages excluded */
	uint64_t dumped;                      /* pages written with data */
	uint64_t done;                        /* pfns handled, for progress */
	int incomplete;                       /* cut short */
	atomic_int *cancel;                   /* vmsift_cancel() was called */
	double select_seconds, copy_seconds;  /* time of each phase */
};

/* A monotonic clock, in seconds, for the phase timings. */
double vs_now(void);

/* Fails with "interrupted" once vmsift_cancel() was called: the writers
 * ask between chunks. */
int vs_check_cancel(const struct vs_dump *d, struct vs_error *err);

struct vs_worker {
	const struct vs_dump *d;
	struct vs_reader reader;
	void *codec_ctx;
	void *writer;                         /* the format writer's state */
	struct vs_counts counts;              /* summed by the consumer */
};

int vs_select_chunk(const struct vs_dump *d, struct vs_worker *w,
		    uint64_t start, uint64_t n, uint64_t *bits1,
		    uint64_t *bits2, struct vs_error *err);

void vs_report_progress(const struct vs_dump *d, uint64_t done,
			uint64_t total);

/* Run jobs [0, NJOBS) of OPS on the dump's workers, with NSLOTS slots of
 * SLOT_SIZE bytes each laid out at SLOTS; consume(ARG, ...) in order. */
int vs_dump_run(struct vs_dump *d, const struct vs_pipeline_ops *ops,
		void *arg, void *slots, size_t slot_size, unsigned nslots,
		uint64_t njobs, struct vs_error *err);

int vs_write_kdump(struct vs_dump *d, struct vs_error *err);
int vs_write_elf(struct vs_dump *d, struct vs_error *err);

/* Bit helpers over arrays of 64-bit words, pfn-relative to a chunk. */
static inline void vs_bit_set(uint64_t *bits, uint64_t i)
{
	bits[i / 64] |= 1ULL << (i % 64);
}

static inline int vs_bit_test(const uint64_t *bits, uint64_t i)
{
	return (bits[i / 64] >> (i % 64)) & 1;
}

static inline void vs_bit_clear(uint64_t *bits, uint64_t i)
{
	bits[i / 64] &= ~(1ULL << (i % 64));
}

uint64_t vs_bits_count(const uint64_t *bits, uint64_t nwords);

#endif
