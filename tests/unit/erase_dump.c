/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * erase_dump.c - vmsift --config on a real vmcore with the symbols and
 * types of a spec file (ti_spec.h) that gdb wrote from the -dbg vmlinux
 * (tests/tools/ti_spec.py), for tests/suites/erase.sh while vmsift has
 * no DWARF or BTF reader of its own on this branch.
 *
 *   erase_dump [-E] [-F] [-c|-l|-z] [-d LEVEL] [--threads N] [--btf]
 *              [--splitblock KB] [--ignore-missing]
 *              SPEC VMCORE CONFIG OUT [OUT2...]
 *
 * Several OUTs: a split set.  -F writes the flattened stream to OUT.
 * --btf: the source knows no global's type (as BTF), so rules must say
 * SYMBOL:TYPE.  Exit 0 when the dump was written, 1 with the library's
 * message otherwise.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/session.h"
#include "ti_spec.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = calloc(1, (size_t)n + 1)) &&
	    fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static int parse_opt(struct vmsift_options *o, struct tis *spec,
		     char **argv, int *i)
{
	const char *a = argv[*i];

	if (strcmp(a, "-E") == 0)
		o->format = VMSIFT_FORMAT_ELF;
	else if (strcmp(a, "-F") == 0)
		o->flattened = 1;
	else if (strcmp(a, "-c") == 0)
		o->codec = VMSIFT_CODEC_ZLIB;
	else if (strcmp(a, "-l") == 0)
		o->codec = VMSIFT_CODEC_LZO;
	else if (strcmp(a, "-z") == 0)
		o->codec = VMSIFT_CODEC_ZSTD;
	else if (strcmp(a, "-d") == 0 && argv[*i + 1])
		o->dump_level = (unsigned)atoi(argv[++*i]);
	else if (strcmp(a, "--threads") == 0 && argv[*i + 1])
		o->threads = (unsigned)atoi(argv[++*i]);
	else if (strcmp(a, "--splitblock") == 0 && argv[*i + 1])
		o->splitblock_size = (uint64_t)atoll(argv[++*i]) << 10;
	else if (strcmp(a, "--btf") == 0)
		spec->no_symbol_types = 1;
	else if (strcmp(a, "--ignore-missing") == 0)
		o->erase_ignore_missing = 1;
	else
		return -1;
	return 0;
}

static int dump(struct vmsift *vs, const struct vmsift_options *o,
		char **outs, int nouts)
{
	int fds[64];
	int ret;

	if (nouts > 64)
		return -1;
	for (int i = 0; i < nouts; i++) {
		fds[i] = open(outs[i], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fds[i] < 0) {
			perror(outs[i]);
			return -1;
		}
	}
	if (nouts == 1)
		ret = vmsift_dump(vs, o, fds[0], outs[0]);
	else
		ret = vmsift_dump_split(vs, o, fds, (const char *const *)outs,
					(unsigned)nouts);
	for (int i = 0; i < nouts; i++)
		close(fds[i]);
	return ret;
}

int main(int argc, char **argv)
{
	static struct tis spec;
	struct vmsift_options o;
	struct vmsift *vs;
	char *text;
	int i = 1, ret;

	vmsift_options_init(&o);
	o.threads = 2;
	while (i < argc && argv[i][0] == '-' && parse_opt(&o, &spec, argv,
							   &i) == 0)
		i++;
	if (argc - i < 4) {
		fprintf(stderr, "usage: erase_dump [options] SPEC VMCORE "
			"CONFIG OUT [OUT2...]\n");
		return 2;
	}
	text = slurp(argv[i]);
	if (!text || tis_parse(&spec, text) < 0) {
		fprintf(stderr, "erase_dump: cannot read spec '%s'\n", argv[i]);
		return 2;
	}
	free(text);
	o.erase_config = argv[i + 2];
	vs = vmsift_new();
	if (!vs || vmsift_open(vs, argv[i + 1]) < 0) {
		fprintf(stderr, "erase_dump: %s\n", vs ? vmsift_error(vs) : "oom");
		return 1;
	}
	vs_session_set_typeinfo(vs, (struct vs_typeinfo){ &tis_ops, &spec });
	ret = dump(vs, &o, argv + i + 3, argc - i - 3);
	if (ret < 0)
		fprintf(stderr, "erase_dump: %s\n", vmsift_error(vs));
	vmsift_free(vs);
	return ret < 0;
}
