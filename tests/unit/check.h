/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.h - the unit tests' check macros (tests/unit/NAME_test.c, one binary
 * per area of the library).  A failed check prints where and what, and
 * the test goes on; check_exit() prints the count and gives the exit
 * status.  Each test binary is one file, so the counters below are that
 * binary's own.
 */
#ifndef VMSIFT_TEST_CHECK_H
#define VMSIFT_TEST_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static unsigned check_run, check_failed;

static inline int check_report(int ok, const char *file, int line,
			       const char *what)
{
	check_run++;
	if (!ok) {
		check_failed++;
		fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
	}
	return ok;
}

/* CHECK(COND): COND holds. */
#define CHECK(cond) check_report(!!(cond), __FILE__, __LINE__, #cond)

/* CHECK_U64(A, B): two unsigned numbers are equal; both are printed. */
#define CHECK_U64(a, b) do {						\
	uint64_t check_a_ = (a), check_b_ = (b);			\
	if (!check_report(check_a_ == check_b_, __FILE__, __LINE__,	\
			  #a " == " #b))				\
		fprintf(stderr, "  %" PRIu64 " != %" PRIu64 "\n",	\
			check_a_, check_b_);				\
} while (0)

/* CHECK_STR(S, FRAGMENT): string S (not NULL) contains FRAGMENT. */
#define CHECK_STR(s, fragment) do {					\
	const char *check_s_ = (s);					\
	if (!check_report(check_s_ && strstr(check_s_, (fragment)),	\
			  __FILE__, __LINE__,				\
			  #s " contains \"" fragment "\""))		\
		fprintf(stderr, "  got \"%s\"\n",			\
			check_s_ ? check_s_ : "(null)");		\
} while (0)

/* The exit status: 0 when every check held (and there was one). */
static inline int check_exit(const char *name)
{
	printf("%s: %u checks, %u failed\n", name, check_run, check_failed);
	return check_failed || !check_run;
}

#endif
