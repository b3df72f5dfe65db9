/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * typeinfo_query VMLINUX < QUERIES: answer typeinfo.h's questions from the
 * DWARF source (lib/typeinfo_dwarf.c), one line each, in the form
 * tests/tools/typeinfo_oracle.py answers them from drgn; tests/suites/
 * debuginfo.sh compares the two.  A query per line:
 *   sym NAME | vartype NAME | type NAME | member TYPE MEMBER | enum NAME
 * Types print with typedefs and qualifiers followed, pointers and arrays
 * with what they point to / hold.  A failed lookup prints "none".  The
 * time to open (index) the file goes to stderr.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "typeinfo_dwarf.h"

static const char *const kinds[] = {
	[VS_TI_INT] = "int", [VS_TI_PTR] = "ptr", [VS_TI_ARRAY] = "array",
	[VS_TI_STRUCT] = "struct", [VS_TI_UNION] = "union",
	[VS_TI_FUNC] = "func", [VS_TI_OTHER] = "other",
};

static void describe(const struct vs_typeinfo *ti, uint64_t id, int depth)
{
	struct vs_ti_type t;
	struct vs_error err;

	if (ti->ops->type(ti->ctx, id, &t, &err) < 0) {
		printf("none");
		return;
	}
	printf("%s size=%llu", kinds[t.kind], (unsigned long long)t.size);
	if (t.kind == VS_TI_ARRAY)
		printf(" nelem=%llu", (unsigned long long)t.nelem);
	if (t.name && t.kind != VS_TI_PTR && t.kind != VS_TI_ARRAY)
		printf(" name=%s", t.name);
	if ((t.kind == VS_TI_PTR || t.kind == VS_TI_ARRAY) && depth < 2) {
		printf(" of (");
		if (t.target)
			describe(ti, t.target, depth + 1);
		else
			printf("void");
		printf(")");
	}
}

static void query(const struct vs_typeinfo *ti, char *line)
{
	char *op = strtok(line, " \n"), *a = strtok(NULL, "\n"), *b;
	const struct vs_typeinfo_ops *o = ti->ops;
	struct vs_error err;
	uint64_t v, t;
	int64_t sv;

	if (!op || !a)
		return;
	printf("%s %s -> ", op, a);
	if (!strcmp(op, "sym") && o->symbol(ti->ctx, a, &v, &err) == 0)
		printf("0x%llx", (unsigned long long)v);
	else if (!strcmp(op, "enum") && o->enumerator(ti->ctx, a, &sv, &err) == 0)
		printf("%lld", (long long)sv);
	else if (!strcmp(op, "type") && o->type_by_name(ti->ctx, a, &t, &err) == 0)
		describe(ti, t, 0);
	else if (!strcmp(op, "vartype") &&
		 o->symbol_type(ti->ctx, a, &t, &err) == 0)
		describe(ti, t, 0);
	else if (!strcmp(op, "member") && (b = strrchr(a, ' ')) &&
		 (*b = '\0', o->type_by_name(ti->ctx, a, &t, &err) == 0) &&
		 o->member(ti->ctx, t, b + 1, &v, &t, &err) == 0) {
		printf("off=%llu ", (unsigned long long)v);
		describe(ti, t, 0);
	} else
		printf("none");
	printf("\n");
}

int main(int argc, char **argv)
{
	struct vs_typeinfo ti;
	struct vs_error err;
	struct timespec t0, t1;
	char line[512];

	if (argc != 2) {
		fprintf(stderr, "usage: typeinfo_query VMLINUX < QUERIES\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (vs_typeinfo_dwarf_open(&ti, argv[1], &err) < 0) {
		fprintf(stderr, "typeinfo_query: %s\n", err.msg);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "opened in %.2f s\n", (double)(t1.tv_sec - t0.tv_sec) +
		(double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	while (fgets(line, sizeof(line), stdin))
		query(&ti, line);
	vs_typeinfo_free(&ti);
	return 0;
}
