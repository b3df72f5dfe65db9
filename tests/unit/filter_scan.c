/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * filter_scan.c - run the page filter over a whole vmcore and compare the
 * result with a makedumpfile kdump file's bitmap2.
 *
 *   filter_scan [-r] [-t THREADS] [-c CHUNK_SHIFT] [-w BITS.out] LEVEL VMCORE [REF.kdump]
 *
 * Bits start set for every pfn whose page has data in VMCOREINFO's dump;
 * chunks of 2^CHUNK_SHIFT pfns (default 15) are filtered independently
 * (-r: last chunk first, -t: several threads taking chunks in turn;
 * -w: write the resulting bitmap, 64-bit words, for check_expect.py).
 * Prints makedumpfile-style counts, then the differences with REF.
 * Exit status: 0 when identical (or no REF), 1 on differences, 2 on error.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "filter.h"
#include "input.h"

struct job {
	const struct vs_filter *f;
	const struct vs_input *in;
	uint64_t *bits;
	uint64_t nr_chunks, chunk;
	int reverse;
	atomic_uint_fast64_t next;
	pthread_mutex_t lock;
	struct vs_counts sum;
	int failed;
};

static void *worker(void *arg)
{
	struct job *j = arg;
	struct vs_reader r;
	struct vs_error err;
	struct vs_counts *c = calloc(1, sizeof(*c));

	if (!c || vs_reader_init(&r, j->in, &err) < 0) {
		j->failed = 1;
		free(c);
		return NULL;
	}
	for (;;) {
		uint64_t k = atomic_fetch_add(&j->next, 1);

		if (k >= j->nr_chunks)
			break;
		if (j->reverse)
			k = j->nr_chunks - 1 - k;
		if (vs_filter_chunk(j->f, &r, k * j->chunk, j->chunk,
				    j->bits + k * j->chunk / 64, c, &err) < 0) {
			fprintf(stderr, "filter_scan: %s\n", err.msg);
			j->failed = 1;
		}
	}
	vs_reader_fini(&r);
	pthread_mutex_lock(&j->lock);
	vs_counts_add(&j->sum, c);
	pthread_mutex_unlock(&j->lock);
	free(c);
	return NULL;
}

static uint64_t *present_bits(const struct vs_input *in, uint64_t nbits)
{
	uint64_t *bits = calloc(nbits / 64, 8);

	for (uint64_t pfn = 0; bits && pfn < in->max_mapnr; pfn++) {
		uint64_t mem, data;

		vs_input_page_cover(in, pfn, &mem, &data);
		if (data)
			bits[pfn / 64] |= 1ull << (pfn % 64);
	}
	return bits;
}

static uint8_t *ref_bitmap2(const char *path, uint64_t *len, uint64_t *mapnr)
{
	int fd = open(path, O_RDONLY);
	uint8_t hdr[444];
	int32_t block, sub;
	uint32_t blocks;
	uint8_t *bm = NULL;

	if (fd < 0 || pread(fd, hdr, sizeof(hdr), 0) != sizeof(hdr))
		goto out;
	memcpy(&block, hdr + 428, 4);
	memcpy(&sub, hdr + 432, 4);
	memcpy(&blocks, hdr + 436, 4);
	{
		uint32_t m;

		memcpy(&m, hdr + 440, 4);
		*mapnr = m;
	}
	*len = (uint64_t)blocks * (uint64_t)block / 2;
	bm = malloc(*len);
	if (bm && pread(fd, bm, *len, (off_t)((1 + sub + blocks / 2) * (uint64_t)block)) !=
		  (ssize_t)*len) {
		free(bm);
		bm = NULL;
	}
out:
	if (fd >= 0)
		close(fd);
	return bm;
}

/* makedumpfile 1.7.2 drops a page a PT_LOAD covers only in part (pfn
 * 0x9f of /proc/vmcore); vmsift keeps it: the one allowed difference. */
static int partly_covered(const struct vs_input *in, uint64_t pfn)
{
	uint64_t mem, data;

	vs_input_page_cover(in, pfn, &mem, &data);
	return mem && mem < in->page_size;
}

static int compare(const struct vs_input *in, const uint64_t *bits,
		   uint64_t max_mapnr, const char *ref)
{
	uint64_t len, diffs = 0, ours = 0, theirs = 0, mapnr = 0, beyond = 0;
	uint8_t *bm = ref_bitmap2(ref, &len, &mapnr);

	if (!bm) {
		fprintf(stderr, "filter_scan: cannot read bitmap2 of '%s'\n", ref);
		return 2;
	}
	for (uint64_t pfn = 0; pfn < max_mapnr; pfn++) {
		int a = (bits[pfn / 64] >> (pfn % 64)) & 1;
		int b = pfn / 8 < len ? (bm[pfn / 8] >> (pfn % 8)) & 1 : 0;

		if (pfn >= mapnr) {
			beyond += a;
			continue;
		}
		ours += a;
		theirs += b;
		if (a && !b && partly_covered(in, pfn))
			continue;
		if (a != b && diffs++ < 20)
			printf("  differ at pfn 0x%" PRIx64 ": ours %d, reference %d\n",
			       pfn, a, b);
	}
	printf("dumpable: ours 0x%" PRIx64 ", reference 0x%" PRIx64 "; %" PRIu64
	       " pfns differ\n", ours, theirs, diffs);
	if (beyond)
		printf("(0x%" PRIx64 " dumpable pfns of ours lie beyond the "
		       "reference's max_mapnr 0x%" PRIx64 ", not compared)\n",
		       beyond, mapnr);
	free(bm);
	return diffs ? 1 : 0;
}

static int write_bits(const char *path, const uint64_t *bits, uint64_t nbits)
{
	FILE *f = fopen(path, "wb");
	size_t n = (size_t)((nbits + 63) / 64);
	int ok = f && fwrite(bits, 8, n, f) == n;

	if (f && fclose(f) != 0)
		ok = 0;
	return ok ? 0 : 2;
}

static void report(const struct vs_counts *c, double secs)
{
	char text[2048];

	printf("Non-private cache pages : 0x%016" PRIx64 "\n", c->cache);
	printf("Private cache pages     : 0x%016" PRIx64 "\n", c->cache_private);
	printf("User process data pages : 0x%016" PRIx64 "\n", c->user);
	printf("Free pages              : 0x%016" PRIx64 "\n", c->free);
	printf("Hwpoison pages          : 0x%016" PRIx64 "\n", c->hwpoison);
	printf("Offline pages           : 0x%016" PRIx64 "\n", c->offline);
	printf("Doubtful pages          : 0x%016" PRIx64 "\n", c->doubtful);
	printf("filter time             : %.3f s\n", secs);
	vs_doubt_format(&c->doubts, text, sizeof(text));
	fputs(text, stdout);
}

static int run(struct job *j, unsigned threads)
{
	pthread_t tid[64];

	for (unsigned i = 0; i < threads; i++)
		pthread_create(&tid[i], NULL, worker, j);
	for (unsigned i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	return j->failed ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct vs_input in = { 0 };
	struct vs_error err;
	struct vs_filter *f;
	struct job j = { 0 };
	struct timespec t0, t1;
	unsigned threads = 1, shift = 15;
	const char *out_path = NULL;
	int opt, rc = 0;

	while ((opt = getopt(argc, argv, "rt:c:w:")) != -1) {
		if (opt == 'w')
			out_path = optarg;
		else if (opt == 'r')
			j.reverse = 1;
		else if (opt == 't')
			threads = (unsigned)atoi(optarg);
		else if (opt == 'c')
			shift = (unsigned)atoi(optarg);
		else
			return 2;
	}
	if (argc - optind < 2 || threads < 1 || threads > 64 || shift < 6 || shift > 30)
		return fprintf(stderr, "usage: filter_scan [-r] [-t N] [-c SHIFT] "
			       "LEVEL VMCORE [REF]\n"), 2;
	if (vs_input_open(&in, argv[optind + 1], &err) < 0)
		return fprintf(stderr, "filter_scan: %s\n", err.msg), 2;
	if (vs_filter_new(&f, &in, (unsigned)atoi(argv[optind]), &err) < 0)
		return fprintf(stderr, "filter_scan: %s\n", err.msg), 2;
	j.f = f;
	j.in = &in;
	j.chunk = 1ull << shift;
	j.nr_chunks = (in.max_mapnr + j.chunk - 1) / j.chunk;
	j.bits = present_bits(&in, j.nr_chunks * j.chunk);
	pthread_mutex_init(&j.lock, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (f && run(&j, threads) < 0)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("filter: %s\n", f ? "scan" : "none");
	fputs(vs_filter_doubts(f), stdout);
	report(&j.sum, (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (out_path)
		rc = write_bits(out_path, j.bits, in.max_mapnr);
	if (argc - optind > 2)
		rc = compare(&in, j.bits, in.max_mapnr, argv[optind + 2]);
	vs_filter_free(f);
	free(j.bits);
	vs_input_close(&in);
	return rc;
}
