/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipeline.h - an ordered parallel map: N worker threads turn numbered
 * jobs into results in slots; the calling thread consumes the results
 * strictly in job order.  That is what makes a dump byte-identical
 * whatever the thread count: workers may finish in any order, the one
 * writer never sees it.  Used through vs_dump_run() (select.c) by both
 * writers; the unit tier may drive it directly.
 *
 * Ownership: slots and worker states are the caller's.  A slot belongs to
 * a worker from the moment it takes the job until it reports it done,
 * then to the consumer until consume() returns; the mutex hand-over
 * orders those accesses.  At most NSLOTS jobs are in flight, which bounds
 * memory.  With nthreads == 0 everything runs on the calling thread.
 */
#ifndef VMSIFT_PIPELINE_H
#define VMSIFT_PIPELINE_H

#include <stdint.h>

#include "error.h"

struct vs_pipeline_ops {
	/* Fill SLOT with the result of job INDEX. */
	int (*work)(void *worker, uint64_t index, void *slot,
		    struct vs_error *err);
	/* Use the result of job INDEX; called in order of INDEX. */
	int (*consume)(void *arg, uint64_t index, void *slot,
		       struct vs_error *err);
};

/* Run jobs [0, NJOBS).  WORKERS holds max(NTHREADS, 1) worker states,
 * SLOTS NSLOTS slots (NSLOTS >= max(NTHREADS, 1)).  Stops at the first
 * failure, whose message ends up in ERR. */
int vs_pipeline_run(const struct vs_pipeline_ops *ops, void *consume_arg,
		    void **workers, unsigned nthreads, void **slots,
		    unsigned nslots, uint64_t njobs, struct vs_error *err);

#endif
