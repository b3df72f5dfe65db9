/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.c - run a fuzz target once on each file named, or on each file of
 * each directory named (in name order), without libFuzzer's engine.  Built
 * under ASan+UBSan with -fno-sanitize-recover=all, so any report ends the
 * run with a non-zero status; the corpus replay of tests/suites/fuzz.sh.
 */
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t size = 0, cap = 0, n;

	if (!f) {
		fprintf(stderr, "replay: cannot open '%s': %s\n", path,
			strerror(errno));
		return -1;
	}
	do {
		if (size == cap) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				fz_die("realloc");
		}
		n = fread(buf + size, 1, cap - size, f);
		size += n;
	} while (n > 0);
	fclose(f);
	/* An exact-size copy, so that ASan sees reads past the input. */
	uint8_t *exact = malloc(size ? size : 1);

	if (!exact)
		fz_die("malloc");
	memcpy(exact, buf, size);
	free(buf);
	LLVMFuzzerTestOneInput(exact, size);
	free(exact);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int run_dir(const char *dir, unsigned *count)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, by_name), ret = 0;
	char path[4096];

	if (n < 0) {
		fprintf(stderr, "replay: cannot read '%s': %s\n", dir,
			strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		if (ents[i]->d_name[0] != '.' && stat(path, &st) == 0 &&
		    S_ISREG(st.st_mode)) {
			if (run_file(path) < 0)
				ret = -1;
			++*count;
		}
		free(ents[i]);
	}
	free(ents);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned count = 0;
	int ret = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			if (run_dir(argv[i], &count) < 0)
				ret = 1;
		} else {
			if (run_file(argv[i]) < 0)
				ret = 1;
			count++;
		}
	}
	printf("replay: %s: %u inputs, no sanitizer report\n", argv[0], count);
	return ret;
}
