/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flat_map.c - unit test of the flattened file's extent map and record
 * parser (lib/flat.c), against a model: random records are applied both
 * to the map and to a plain byte array the way -R would write them, and
 * every read of the map must equal the array (zeros where no record
 * wrote).  Then the record parser's limits: the end marker, negative
 * fields, and an end past INT64_MAX refused, naming the record's byte.
 *
 *   flat_map [SEED]
 *
 * Run by tests/suites/refilter.sh.
 */
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flat.h"
#include "kdump_format.h"

#define SPAN 4096u               /* the rebuilt file's bytes at most */
#define STREAM (1u << 16)        /* the stream's payload bytes */
#define ROUNDS 200

static int fail(const char *what, unsigned round)
{
	fprintf(stderr, "round %u: %s\n", round, what);
	return 1;
}

/* Apply NREC random records to M and MODEL; read back everything. */
static int one_round(unsigned round, int fd, const uint8_t *stream,
		     uint8_t *model, uint8_t *got)
{
	struct vs_flat_map m = { 0 };
	struct vs_error err = { 0 };
	unsigned nrec = 1 + (unsigned)rand() % 40;
	uint64_t end = 0;
	int ret = 0;

	memset(model, 0, SPAN);
	for (unsigned i = 0; i < nrec; i++) {
		uint64_t off = (uint64_t)rand() % SPAN;
		uint64_t len = 1 + (uint64_t)rand() % (SPAN - off);
		uint64_t pos = (uint64_t)rand() % (STREAM - len);

		if (vs_flat_map_insert(&m, off, len, pos, &err) < 0)
			return fail(err.msg, round);
		memcpy(model + off, stream + pos, len);
		end = off + len > end ? off + len : end;
	}
	if (m.end != end)
		ret = fail("end of the rebuilt file differs", round);
	for (unsigned k = 0; k < 64 && !ret; k++) {
		uint64_t off = (uint64_t)rand() % SPAN;
		uint64_t len = (uint64_t)rand() % (SPAN - off + 1);

		if (vs_flat_map_read(&m, fd, got, len, off) < 0)
			ret = fail("read failed", round);
		else if (memcmp(got, model + off, len))
			ret = fail("read differs from the model", round);
	}
	for (size_t i = 1; i < m.n && !ret; i++)
		if (m.ext[i - 1].off + m.ext[i - 1].len > m.ext[i].off)
			ret = fail("extents overlap or are out of order", round);
	vs_flat_map_free(&m);
	return ret;
}

static int parse(int64_t off, int64_t size, struct vs_flat_record *rec,
		 struct vs_error *err)
{
	struct flat_record raw = {
		.offset = (int64_t)htobe64((uint64_t)off),
		.size = (int64_t)htobe64((uint64_t)size),
	};

	return vs_flat_record_parse(&raw, 0x1010, "t", rec, err);
}

static int check_parser(void)
{
	struct vs_flat_record rec;
	struct vs_error err = { 0 };

	if (parse(-1, -1, &rec, &err) < 0 || !rec.end)
		return fail("end marker not recognised", 0);
	if (parse(INT64_MAX - 16, 16, &rec, &err) < 0 || rec.end ||
	    rec.off != (uint64_t)INT64_MAX - 16 || rec.size != 16)
		return fail("record ending at INT64_MAX refused", 0);
	if (parse(INT64_MAX - 8, 16, &rec, &err) == 0)
		return fail("record ending past INT64_MAX accepted", 0);
	if (!strstr(err.msg, "byte 0x1010"))
		return fail("message does not name the record's byte", 0);
	if (parse(-5, 16, &rec, &err) == 0 || parse(0, -2, &rec, &err) == 0)
		return fail("negative offset or size accepted", 0);
	return 0;
}

int main(int argc, char **argv)
{
	char path[] = "/tmp/vmsift-flatmap-XXXXXX";
	static uint8_t stream[STREAM], model[SPAN], got[SPAN];
	int fd = mkstemp(path), ret = 0;

	srand(argc > 1 ? (unsigned)atoi(argv[1]) : 1);
	if (fd < 0)
		return perror("mkstemp"), 1;
	unlink(path);
	for (size_t i = 0; i < sizeof(stream); i++)
		stream[i] = (uint8_t)(1 + rand() % 255);
	if (write(fd, stream, sizeof(stream)) != (ssize_t)sizeof(stream))
		return perror("write"), 1;
	for (unsigned r = 0; r < ROUNDS && !ret; r++)
		ret = one_round(r, fd, stream, model, got);
	if (!ret)
		ret = check_parser();
	close(fd);
	if (!ret)
		printf("%u rounds of random records, parser limits: ok\n", ROUNDS);
	return ret;
}
