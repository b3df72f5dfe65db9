/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipeline.c - an ordered parallel map (pipeline.h), run by the chunk
 * selection's vs_dump_run() (select.c) for both writers' phases.  Calls
 * nothing else of the library.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"

enum slot_state { SLOT_FREE, SLOT_BUSY, SLOT_DONE };

struct slot_info {
	enum slot_state state;
	uint64_t job;
};

struct pipeline {
	const struct vs_pipeline_ops *ops;
	void **slots;
	struct slot_info *info;
	unsigned nslots;
	uint64_t njobs;
	uint64_t next_job;           /* next job to hand out */
	int stop;                    /* a failure: everybody stops */
	struct vs_error *err;        /* the first failure's message */
	pthread_mutex_t lock;
	pthread_cond_t slot_freed;   /* workers wait for a free slot */
	pthread_cond_t job_done;     /* the consumer waits for its job */
};

struct worker_arg {
	struct pipeline *p;
	void *state;
	struct vs_error err;
};

static void fail_locked(struct pipeline *p, const struct vs_error *e)
{
	if (!p->stop)
		memcpy(p->err, e, sizeof(*e));
	p->stop = 1;
	pthread_cond_broadcast(&p->slot_freed);
	pthread_cond_broadcast(&p->job_done);
}

/* Take the next job once its slot is free; returns 0 when none is left. */
static int take_job(struct pipeline *p, uint64_t *job)
{
	int got = 0;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct slot_info *si;

		if (p->stop || p->next_job >= p->njobs)
			break;
		si = &p->info[p->next_job % p->nslots];
		if (si->state == SLOT_FREE) {
			si->state = SLOT_BUSY;
			si->job = p->next_job;
			*job = p->next_job++;
			got = 1;
			break;
		}
		pthread_cond_wait(&p->slot_freed, &p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	return got;
}

static void *worker_main(void *arg)
{
	struct worker_arg *w = arg;
	struct pipeline *p = w->p;
	uint64_t job;

	while (take_job(p, &job)) {
		int r = p->ops->work(w->state, job, p->slots[job % p->nslots],
				     &w->err);

		pthread_mutex_lock(&p->lock);
		if (r < 0)
			fail_locked(p, &w->err);
		else
			p->info[job % p->nslots].state = SLOT_DONE;
		pthread_cond_broadcast(&p->job_done);
		pthread_mutex_unlock(&p->lock);
	}
	return NULL;
}

/* Wait until job JOB is done; returns -1 if the run failed meanwhile. */
static int wait_job(struct pipeline *p, uint64_t job)
{
	struct slot_info *si = &p->info[job % p->nslots];
	int ret;

	pthread_mutex_lock(&p->lock);
	while (!p->stop && !(si->state == SLOT_DONE && si->job == job))
		pthread_cond_wait(&p->job_done, &p->lock);
	ret = p->stop ? -1 : 0;
	pthread_mutex_unlock(&p->lock);
	return ret;
}

static void release_slot(struct pipeline *p, uint64_t job)
{
	pthread_mutex_lock(&p->lock);
	p->info[job % p->nslots].state = SLOT_FREE;
	pthread_cond_broadcast(&p->slot_freed);
	pthread_mutex_unlock(&p->lock);
}

static int consume_all(struct pipeline *p, void *arg)
{
	struct vs_error e;

	for (uint64_t job = 0; job < p->njobs; job++) {
		if (wait_job(p, job) < 0)
			return -1;
		if (p->ops->consume(arg, job, p->slots[job % p->nslots], &e) < 0) {
			pthread_mutex_lock(&p->lock);
			fail_locked(p, &e);
			pthread_mutex_unlock(&p->lock);
			return -1;
		}
		release_slot(p, job);
	}
	return 0;
}

static int run_inline(const struct vs_pipeline_ops *ops, void *arg,
		      void *worker, void *slot, uint64_t njobs,
		      struct vs_error *err)
{
	for (uint64_t job = 0; job < njobs; job++)
		if (ops->work(worker, job, slot, err) < 0 ||
		    ops->consume(arg, job, slot, err) < 0)
			return -1;
	return 0;
}

static int start_workers(struct pipeline *p, pthread_t *tids,
			 struct worker_arg *wa, void **workers,
			 unsigned nthreads, unsigned *started)
{
	for (*started = 0; *started < nthreads; (*started)++) {
		wa[*started].p = p;
		wa[*started].state = workers[*started];
		vs_err_clear(&wa[*started].err);
		if (pthread_create(&tids[*started], NULL, worker_main,
				   &wa[*started]) != 0)
			return -1;
	}
	return 0;
}

int vs_pipeline_run(const struct vs_pipeline_ops *ops, void *consume_arg,
		    void **workers, unsigned nthreads, void **slots,
		    unsigned nslots, uint64_t njobs, struct vs_error *err)
{
	struct pipeline p = {
		.ops = ops, .slots = slots, .nslots = nslots,
		.njobs = njobs, .err = err,
	};
	pthread_t *tids;
	struct worker_arg *wa;
	unsigned started = 0;
	int ret = -1;

	if (nthreads == 0)
		return run_inline(ops, consume_arg, workers[0], slots[0], njobs,
				  err);
	p.info = calloc(nslots, sizeof(*p.info));
	tids = calloc(nthreads, sizeof(*tids));
	wa = calloc(nthreads, sizeof(*wa));
	if (!p.info || !tids || !wa) {
		vs_err_oom(err, "out of memory");
		goto out_free;
	}
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.slot_freed, NULL);
	pthread_cond_init(&p.job_done, NULL);
	if (start_workers(&p, tids, wa, workers, nthreads, &started) < 0) {
		struct vs_error e;

		vs_err(&e, "cannot start worker thread %u", started);
		pthread_mutex_lock(&p.lock);
		fail_locked(&p, &e);
		pthread_mutex_unlock(&p.lock);
	} else {
		ret = consume_all(&p, consume_arg);
	}
	if (ret < 0) {
		pthread_mutex_lock(&p.lock);
		p.stop = 1;
		pthread_cond_broadcast(&p.slot_freed);
		pthread_mutex_unlock(&p.lock);
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	pthread_cond_destroy(&p.job_done);
	pthread_cond_destroy(&p.slot_freed);
	pthread_mutex_destroy(&p.lock);
out_free:
	free(wa);
	free(tids);
	free(p.info);
	return ret;
}
