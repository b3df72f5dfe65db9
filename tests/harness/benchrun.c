/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * benchrun: time one run in the capture kernel, by the capture kernel's
 * own clocks, for kdump-test --bench (bench/run --capture).
 *
 *   benchrun TSV LABEL -- PROG ARGS... OUT   run PROG, wait for it
 *   benchrun TSV LABEL --read FILE           read() FILE 1 MiB at a time
 *   benchrun TSV LABEL --mmap FILE [COPY]    mmap() FILE 2 MiB at a time and
 *                                            read every byte of it (and write
 *                                            it to COPY: /proc/vmcore copied
 *                                            without its per-page read path)
 *
 * BENCHRUN_MAX_MB=N (environment) stops --read and --mmap without COPY after
 * the first N MiB: the raw read rates of a large /proc/vmcore, measured on
 * its first part (the copy is always whole).  BENCHRUN_TIMEOUT=S ends PROG
 * with SIGALRM after S seconds (exit status 142 in the row): one stuck run
 * does not take the whole benchmark's time.
 * Appends one tab-separated row to TSV:
 *   LABEL  exit-status  wall-s  user-s  sys-s  peak-RSS-KiB  bytes
 * wall from CLOCK_MONOTONIC around fork/exec and wait4 (or the read);
 * user, sys and RSS from wait4's rusage of PROG and its threads (or this
 * process's own for --read and --mmap); bytes: OUT's size afterwards (or
 * the bytes read).  LABEL is written as given ('|'-separated fields).
 *
 * Built with gcc -static by the harness; runs as /bin/benchrun.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (1UL << 20)
#define WINDOW (2UL << 20)

static volatile uint64_t sink;   /* keeps the reads' sums alive */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double tv(struct timeval t)
{
	return t.tv_sec + t.tv_usec / 1e6;
}

static int run(char **argv, struct rusage *ru, long long *bytes)
{
	int status, argc = 0;
	struct stat st;
	pid_t pid;

	while (argv[argc])
		argc++;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		const char *limit = getenv("BENCHRUN_TIMEOUT");

		if (limit)
			alarm((unsigned)atoi(limit));   /* kept across execv */
		execv(argv[0], argv);
		fprintf(stderr, "benchrun: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	if (wait4(pid, &status, 0, ru) < 0)
		return -1;
	*bytes = argc > 1 && stat(argv[argc - 1], &st) == 0 ? st.st_size : -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static uint64_t sum(const uint64_t *p, size_t n)
{
	uint64_t s = 0;

	for (size_t i = 0; i < n / 8; i++)
		s += p[i];
	return s;
}

static int put(int out, const void *p, size_t len)
{
	const char *c = p;

	while (out >= 0 && len) {
		ssize_t n = write(out, c, len);

		if (n <= 0)
			return -1;
		c += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Read FILE whole, or its first MAX bytes when MAX > 0, with read() (MAP 0)
 * or through mmap windows (MAP 1), writing it to OUT when OUT >= 0. */
static int slurp(const char *path, int map, int out, off_t max, long long *bytes)
{
	int fd = open(path, O_RDONLY);
	uint64_t *buf = NULL, s = 0;
	off_t off = 0;
	ssize_t n;

	if (fd < 0)
		return fprintf(stderr, "benchrun: %s: %s\n", path, strerror(errno)), 1;
	if (!map) {
		buf = malloc(CHUNK);
		while (buf && (!max || off < max) && (n = read(fd, buf, CHUNK)) > 0) {
			s += sum(buf, (size_t)n);
			off += n;
		}
		free(buf);
	} else {
		off_t size = lseek(fd, 0, SEEK_END);   /* /proc/vmcore has one */

		if (max && size > max)
			size = max;

		for (; off < size; off += WINDOW) {
			size_t len = size - off < (off_t)WINDOW ? (size_t)(size - off) : WINDOW;
			void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, off);

			if (p == MAP_FAILED) {
				fprintf(stderr, "benchrun: mmap %s at %lld: %s\n",
					path, (long long)off, strerror(errno));
				close(fd);
				return 1;
			}
			s += sum(p, len);
			if (put(out, p, len) < 0) {
				fprintf(stderr, "benchrun: write: %s\n", strerror(errno));
				munmap(p, len);
				close(fd);
				return 1;
			}
			munmap(p, len);
		}
		off = size;
	}
	sink = s;
	close(fd);
	*bytes = off;
	return 0;
}

int main(int argc, char **argv)
{
	struct rusage ru = { 0 };
	long long bytes = -1;
	double t0, t1;
	FILE *tsv;
	const char *max_mb = getenv("BENCHRUN_MAX_MB");
	int rc, out = -1;

	if (argc < 5 || (strcmp(argv[3], "--") && argc > 6)) {
		fprintf(stderr, "usage: benchrun TSV LABEL -- PROG ARGS... OUT\n"
			"       benchrun TSV LABEL --read|--mmap FILE [COPY]\n");
		return 2;
	}
	t0 = now();
	if (!strcmp(argv[3], "--"))
		rc = run(argv + 4, &ru, &bytes);
	else if (!strcmp(argv[3], "--read") || !strcmp(argv[3], "--mmap")) {
		if (argc == 6 && (out = open(argv[5], O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
			return fprintf(stderr, "benchrun: %s: %s\n", argv[5], strerror(errno)), 1;
		rc = slurp(argv[4], argv[3][2] == 'm', out,
			   out < 0 && max_mb ? (off_t)atoll(max_mb) << 20 : 0, &bytes);
		if (out >= 0 && (fsync(out) < 0 || close(out) < 0))
			rc = 1;
	}
	else
		return fprintf(stderr, "benchrun: unknown mode %s\n", argv[3]), 2;
	t1 = now();
	if (rc < 0)
		return fprintf(stderr, "benchrun: %s\n", strerror(errno)), 1;
	if (strcmp(argv[3], "--"))
		getrusage(RUSAGE_SELF, &ru);
	tsv = fopen(argv[1], "a");
	if (!tsv)
		return fprintf(stderr, "benchrun: %s: %s\n", argv[1], strerror(errno)), 1;
	fprintf(tsv, "%s\t%d\t%.3f\t%.3f\t%.3f\t%ld\t%lld\n", argv[2], rc, t1 - t0,
		tv(ru.ru_utime), tv(ru.ru_stime), ru.ru_maxrss, bytes);
	fclose(tsv);
	return rc;
}
