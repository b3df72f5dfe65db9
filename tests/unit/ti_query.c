/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ti_query.c - ask a dump's own kallsyms and BTF (lib/kallsyms.c,
 * lib/typeinfo_btf.c) what a debugger asks DWARF, for tests/suites/btf.sh,
 * which puts the same questions to drgn and the -dbg vmlinux.
 *
 *   ti_query VMCORE kallsyms         every symbol: "NAME ADDR TYPE" (hex)
 *   ti_query VMCORE query < LINES    the BTF typeinfo source, one answer a
 *                                    line; the questions:
 *     sym NAME                 "NAME ADDR"
 *     sizeof TYPE              "TYPE SIZE"           (TYPE may end in '*')
 *     offsetof TYPE M[.M...]   "TYPE M OFFSET SIZE"  (the member's own size)
 *     symtype NAME             "NAME TYPENAME SIZE"  (per-CPU variables)
 *     enum NAME                "NAME VALUE"
 *   A question that fails is answered "NAME error MESSAGE".
 * Exit 0, or 1 when the dump or its tables cannot be read (stderr).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "kallsyms.h"
#include "typeinfo_btf.h"

static int list_kallsyms(const struct vs_input *in)
{
	struct vs_kallsyms *ks;
	struct vs_error err = { 0 };
	const char *name;
	uint64_t addr;
	char type;
	size_t i;

	if (vs_kallsyms_load_input(&ks, in, &err) < 0) {
		fprintf(stderr, "ti_query: %s\n", err.msg);
		return 1;
	}
	for (i = 0; i < vs_kallsyms_count(ks); i++) {
		name = vs_kallsyms_at(ks, i, &addr, &type);
		printf("%s %" PRIx64 " %c\n", name, addr, type);
	}
	vs_kallsyms_free(ks);
	return 0;
}

/* The offset and type of PATH ("a.b.c") inside TYPE. */
static int member_path(const struct vs_typeinfo *ti, uint64_t type,
		       char *path, uint64_t *off, uint64_t *mtype,
		       struct vs_error *err)
{
	char *save = NULL, *m;
	uint64_t o;

	*off = 0;
	*mtype = type;
	for (m = strtok_r(path, ".", &save); m; m = strtok_r(NULL, ".", &save)) {
		if (ti->ops->member(ti->ctx, *mtype, m, &o, mtype, err) < 0)
			return -1;
		*off += o;
	}
	return 0;
}

static int answer(const struct vs_typeinfo *ti, char *q, struct vs_error *err)
{
	char *verb = strtok(q, " \n"), *a = strtok(NULL, " \n");
	char *b = strtok(NULL, " \n");
	struct vs_ti_type t;
	uint64_t v, id, off;
	int64_t e;

	if (!verb || !a)
		return vs_err(err, "bad question");
	if (!strcmp(verb, "sym")) {
		if (ti->ops->symbol(ti->ctx, a, &v, err) < 0)
			return -1;
		printf("%s %" PRIx64 "\n", a, v);
	} else if (!strcmp(verb, "sizeof")) {
		if (ti->ops->type_by_name(ti->ctx, a, &id, err) < 0 ||
		    ti->ops->type(ti->ctx, id, &t, err) < 0)
			return -1;
		printf("%s %" PRIu64 "\n", a, t.size);
	} else if (!strcmp(verb, "offsetof") && b) {
		printf("%s ", a);
		if (ti->ops->type_by_name(ti->ctx, a, &id, err) < 0)
			return -1;
		printf("%s ", b);
		if (member_path(ti, id, b, &off, &id, err) < 0 ||
		    ti->ops->type(ti->ctx, id, &t, err) < 0)
			return -1;
		printf("%" PRIu64 " %" PRIu64 "\n", off, t.size);
	} else if (!strcmp(verb, "symtype")) {
		if (ti->ops->symbol_type(ti->ctx, a, &id, err) < 0 ||
		    ti->ops->type(ti->ctx, id, &t, err) < 0)
			return -1;
		printf("%s %s %" PRIu64 "\n", a, t.name ? t.name : "?", t.size);
	} else if (!strcmp(verb, "enum")) {
		if (ti->ops->enumerator(ti->ctx, a, &e, err) < 0)
			return -1;
		printf("%s %" PRId64 "\n", a, e);
	} else {
		return vs_err(err, "unknown question '%s'", verb);
	}
	return 0;
}

static int query(const struct vs_input *in)
{
	struct vs_typeinfo ti = { 0 };
	struct vs_error err = { 0 };
	char line[1024], copy[1024];

	if (vs_typeinfo_btf_open(&ti, in, &err) < 0) {
		fprintf(stderr, "ti_query: %s\n", err.msg);
		return 1;
	}
	while (fgets(line, sizeof(line), stdin)) {
		memcpy(copy, line, sizeof(line));
		vs_err_clear(&err);
		if (answer(&ti, line, &err) < 0)
			printf("%s error %s\n", strtok(copy, " \n"), err.msg);
	}
	vs_typeinfo_free(&ti);
	return 0;
}

int main(int argc, char **argv)
{
	struct vs_input in = { 0 };
	struct vs_error err = { 0 };
	int ret = 1;

	if (argc != 3) {
		fprintf(stderr, "usage: ti_query VMCORE kallsyms|query\n");
		return 2;
	}
	if (vs_input_open(&in, argv[1], &err) < 0)
		fprintf(stderr, "ti_query: %s\n", err.msg);
	else if (!strcmp(argv[2], "kallsyms"))
		ret = list_kallsyms(&in);
	else if (!strcmp(argv[2], "query"))
		ret = query(&in);
	vs_input_close(&in);
	return ret;
}
