/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipeline_test.c - unit tests of the ordered pipeline (lib/pipeline.h),
 * run by tests/suites/unit.sh: results consumed in job order whatever
 * order the workers finish in, at most NSLOTS jobs in flight, a worker's
 * failure and a consumer's stop (how a cancelled dump ends) both end the
 * run with their message and nothing consumed after them.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "pipeline.h"

struct slot {
	uint64_t index;
	uint64_t value;
};

/* What one run saw, shared by the workers and the consumer. */
struct seen {
	atomic_uint_fast64_t taken;      /* jobs a worker started */
	atomic_uint_fast64_t highest;    /* highest job index started + 1 */
	atomic_int in_flight;            /* started, not yet consumed */
	atomic_int max_in_flight;
	uint64_t consumed;               /* jobs consumed, in order */
	int out_of_order;
	uint64_t fail_work_at;           /* UINT64_MAX: never */
	uint64_t stop_consume_at;        /* UINT64_MAX: never */
};

struct worker {
	struct seen *seen;
};

static uint64_t value_of(uint64_t index)
{
	return index * 0x9e3779b97f4a7c15ull ^ 0x5a5a;
}

/* A short, job-dependent sleep, so that workers finish out of order. */
static void jitter(uint64_t index)
{
	struct timespec ts = { 0, (long)((index * 7919) % 5) * 20000 };

	nanosleep(&ts, NULL);
}

static void note_start(struct seen *s, uint64_t index)
{
	int now = atomic_fetch_add(&s->in_flight, 1) + 1;
	int max = atomic_load(&s->max_in_flight);
	uint_fast64_t hi;

	while (now > max && !atomic_compare_exchange_weak(&s->max_in_flight,
							  &max, now))
		;
	atomic_fetch_add(&s->taken, 1);
	hi = atomic_load(&s->highest);
	while (index + 1 > hi &&
	       !atomic_compare_exchange_weak(&s->highest, &hi, index + 1))
		;
}

static int work(void *worker, uint64_t index, void *slot, struct vs_error *err)
{
	struct worker *w = worker;
	struct slot *sl = slot;

	note_start(w->seen, index);
	jitter(index);
	if (index == w->seen->fail_work_at)
		return vs_err(err, "job %llu failed on purpose",
			      (unsigned long long)index);
	sl->index = index;
	sl->value = value_of(index);
	return 0;
}

static int consume(void *arg, uint64_t index, void *slot, struct vs_error *err)
{
	struct seen *s = arg;
	const struct slot *sl = slot;

	atomic_fetch_sub(&s->in_flight, 1);
	if (index == s->stop_consume_at)
		return vs_err(err, "stopped at job %llu",
			      (unsigned long long)index);
	if (index != s->consumed || sl->index != index ||
	    sl->value != value_of(index))
		s->out_of_order = 1;
	s->consumed++;
	return 0;
}

static const struct vs_pipeline_ops ops = { work, consume };

/* One run of NJOBS jobs on NTHREADS threads and NSLOTS slots. */
static int run(struct seen *s, unsigned nthreads, unsigned nslots,
	       uint64_t njobs, struct vs_error *err)
{
	unsigned nw = nthreads ? nthreads : 1;
	struct worker w[16];
	struct slot sl[32];
	void *workers[16], *slots[32];

	for (unsigned i = 0; i < nw; i++) {
		w[i].seen = s;
		workers[i] = &w[i];
	}
	for (unsigned i = 0; i < nslots; i++)
		slots[i] = &sl[i];
	vs_err_clear(err);
	return vs_pipeline_run(&ops, s, workers, nthreads, slots, nslots,
			       njobs, err);
}

static void seen_init(struct seen *s)
{
	memset(s, 0, sizeof(*s));
	s->fail_work_at = UINT64_MAX;
	s->stop_consume_at = UINT64_MAX;
}

/* Every job consumed once, in order, with its own result. */
static void test_order(unsigned nthreads, unsigned nslots, uint64_t njobs)
{
	struct seen s;
	struct vs_error err;

	seen_init(&s);
	CHECK(run(&s, nthreads, nslots, njobs, &err) == 0);
	CHECK_U64(s.consumed, njobs);
	CHECK_U64(atomic_load(&s.taken), njobs);
	CHECK(!s.out_of_order);
	CHECK(atomic_load(&s.max_in_flight) <= (int)(nslots ? nslots : 1));
	CHECK_STR(err.msg, "");
}

/* A worker fails at job K: the run fails with its message; only jobs
 * before K were consumed. */
static void test_work_error(unsigned nthreads, unsigned nslots)
{
	struct seen s;
	struct vs_error err;

	seen_init(&s);
	s.fail_work_at = 300;
	CHECK(run(&s, nthreads, nslots, 1000, &err) < 0);
	CHECK_STR(err.msg, "job 300 failed on purpose");
	CHECK(s.consumed <= 300);
	CHECK(!s.out_of_order);
}

/* The consumer stops at job K (a cancelled dump): the run fails with its
 * message, no later job is consumed and at most NSLOTS were started past
 * the last consumed one. */
static void test_consumer_stop(unsigned nthreads, unsigned nslots)
{
	struct seen s;
	struct vs_error err;

	seen_init(&s);
	s.stop_consume_at = 200;
	CHECK(run(&s, nthreads, nslots, 1000, &err) < 0);
	CHECK_STR(err.msg, "stopped at job 200");
	CHECK_U64(s.consumed, 200);
	CHECK(!s.out_of_order);
	CHECK(atomic_load(&s.highest) <= 200 + (uint64_t)(nslots ? nslots : 1));
}

int main(void)
{
	static const unsigned shapes[][2] = {
		{ 0, 1 }, { 1, 1 }, { 2, 2 }, { 2, 5 }, { 4, 4 }, { 8, 16 },
	};

	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		unsigned t = shapes[i][0], n = shapes[i][1];

		test_order(t, n, 0);
		test_order(t, n, 1);
		test_order(t, n, 1000);
		test_work_error(t, n);
		test_consumer_stop(t, n);
	}
	return check_exit("pipeline");
}
