/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * select.h - one dump in progress and the services the format writers
 * use: chunk selection, the worker pipeline, progress and cancel.
 *
 * The orchestration (dump.c) builds a struct vs_dump and one struct
 * vs_worker per thread, then hands them to the writer of the requested
 * format (writer.h).  The dump is read-only while workers run; each
 * worker owns its reader, codec context and buffers.  This layer sits
 * below the writers: it never calls one.
 *
 * Both writers select pages the same way: vs_select_chunk() computes, for
 * a chunk of pfns, bitmap1 (memory present) and bitmap2 (page kept).
 */
#ifndef VMSIFT_SELECT_H
#define VMSIFT_SELECT_H

#include <stdatomic.h>

#include "codec.h"
#include "erase.h"
#include "filter.h"
#include "input.h"
#include "pipeline.h"
#include "sink.h"
#include "vmsift.h"

/* pfns per selection chunk: 4 KiB of each bitmap, whatever the page
 * size. */
#define VS_SELECT_PFNS (1u << 15)

struct vs_worker;
struct vs_estimate;

/* A worker's share of vmsift_rates (vmsift.h), summed after the dump. */
struct vs_work_rates {
	uint64_t zero_bytes, codec_in, codec_out;
	double zero_seconds, codec_seconds, cpu_seconds;  /* CPU time */
	double codec_wall;           /* wall time inside the codec */
};

/* Account a job of WALL seconds, CPU seconds of its thread, CODEC_WALL
 * of them inside the codec: the CPU time is shared between the codec
 * and the rest (reading, the zero test) as the wall time was, so that a
 * thread preempted on a busy machine is not counted as working. */
void vs_work_rates_job(struct vs_work_rates *r, double wall, double cpu,
		       double codec_wall);

/* SUM += R */
void vs_work_rates_add(struct vs_work_rates *sum,
		       const struct vs_work_rates *r);

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
	uint64_t vmemmap;                     /* -e: struct pages left out */
	struct vs_estimate *estimate;         /* --mem-usage: estimate.c runs
						 instead of a writer */
	uint64_t done;                        /* pfns handled, for progress */
	int incomplete;                       /* cut short */
	atomic_int *cancel;                   /* vmsift_cancel() was called */
	struct vs_erase *erase;               /* --config; NULL: none */
	double select_seconds, copy_seconds;  /* time of each phase */
	double select_cpu;                    /* CPU of the selection, all
						 threads */
	struct vs_work_rates rates;           /* the workers', summed */
};

struct vs_worker {
	const struct vs_dump *d;
	struct vs_reader reader;
	void *codec_ctx;
	void *writer;                         /* the format writer's state */
	struct vs_counts counts;              /* summed by the orchestration */
	uint8_t *erase_page;                  /* a page, when d->erase */
	struct vs_work_rates rates;           /* this worker's phases */
};

/* Fails with "interrupted" once vmsift_cancel() was called: the writers
 * ask between chunks. */
int vs_check_cancel(const struct vs_dump *d, struct vs_error *err);

/* bitmap1 and bitmap2 of pfns [START, START + N), N a multiple of 64;
 * pfns past the dump's end are left out of both. */
int vs_select_chunk(const struct vs_dump *d, struct vs_worker *w,
		    uint64_t start, uint64_t n, uint64_t *bits1,
		    uint64_t *bits2, struct vs_error *err);

/* Calls the caller's progress callback, if any, with DONE capped at
 * TOTAL. */
void vs_report_progress(const struct vs_dump *d, uint64_t done,
			uint64_t total);

/* Run jobs [0, NJOBS) of OPS on the dump's workers, with NSLOTS slots of
 * SLOT_SIZE bytes each laid out at SLOTS; consume(ARG, ...) in order. */
int vs_dump_run(struct vs_dump *d, const struct vs_pipeline_ops *ops,
		void *arg, void *slots, size_t slot_size, unsigned nslots,
		uint64_t njobs, struct vs_error *err);

#endif
