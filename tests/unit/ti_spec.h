/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ti_spec.h - a test double of lib/typeinfo.h: symbols and types from a
 * small text spec, one item a line:
 *
 *   sym NAME ADDR [TYPE]          a global; without TYPE its type is
 *                                 unknown (as BTF: use SYMBOL:TYPE)
 *   type ID KIND SIZE NELEM TARGET NAME
 *                                 KIND int|ptr|array|struct|union|func|other,
 *                                 or fwd (a struct only declared: no
 *                                 size, no members), NAME "-" when
 *                                 anonymous
 *   member ID NAME OFFSET TYPE [BIT SIZE]
 *                                 a member of struct/union ID; a
 *                                 bit-field with its first bit (from
 *                                 the struct's start) and width
 *
 * Numbers in C syntax (0x...).  Used by erase_test.c (a hand-written
 * kernel) and erase_dump.c (a spec tests/tools/ti_spec.py writes from a
 * real -dbg vmlinux with gdb).  Header-only: each test is one file.
 */
#ifndef VMSIFT_TEST_TI_SPEC_H
#define VMSIFT_TEST_TI_SPEC_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/typeinfo.h"

struct tis_sym { char name[128]; uint64_t addr, type; };
struct tis_type { uint64_t id; struct vs_ti_type t; char name[128]; };
struct tis_member {
	uint64_t type; char name[128]; uint64_t off, mtype, bit;
	uint32_t bits;
};

struct tis {
	struct tis_sym *syms; size_t nsyms;
	struct tis_type *types; size_t ntypes;
	struct tis_member *members; size_t nmembers;
	int no_symbol_types;         /* behave as BTF: no global's type */
	uint64_t next_id;
};

static void *tis_grow(void *p, size_t n, size_t size)
{
	void *q = realloc(p, (n + 1) * size);

	if (!q)
		abort();
	return q;
}

static enum vs_ti_kind tis_kind(const char *s)
{
	static const char *const k[] = { "int", "ptr", "array", "struct",
					 "union", "func", "other" };

	for (int i = 0; i < 7; i++)
		if (strcmp(s, k[i]) == 0)
			return (enum vs_ti_kind)i;
	return strcmp(s, "fwd") == 0 ? VS_TI_STRUCT : VS_TI_OTHER;
}

static void tis_add_type(struct tis *s, uint64_t id, enum vs_ti_kind kind,
			 uint64_t size, uint64_t nelem, uint64_t target,
			 const char *name)
{
	struct tis_type *t;

	s->types = tis_grow(s->types, s->ntypes, sizeof(*s->types));
	t = &s->types[s->ntypes++];
	memset(t, 0, sizeof(*t));
	t->id = id;
	t->t.kind = kind;
	t->t.size = size;
	t->t.nelem = nelem;
	t->t.target = target;
	snprintf(t->name, sizeof(t->name), "%s", name);
	if (id >= s->next_id)
		s->next_id = id + 1;
}

/* Words of LINE into W (at most MAX), numbers read with base 0. */
static int tis_words(char *line, char **w, int max)
{
	int n = 0;

	for (char *t = strtok(line, " \t"); t && n < max;
	     t = strtok(NULL, " \t"))
		w[n++] = t;
	return n;
}

static uint64_t tis_num(const char *s)
{
	return strtoull(s, NULL, 0);
}

static int tis_line(struct tis *s, char *line)
{
	char *w[16];
	int n = tis_words(line, w, 16);

	if (n == 0 || w[0][0] == '#')
		return 0;
	if (strcmp(w[0], "sym") == 0 && (n == 3 || n == 4)) {
		struct tis_sym *sy;

		s->syms = tis_grow(s->syms, s->nsyms, sizeof(*s->syms));
		sy = &s->syms[s->nsyms++];
		snprintf(sy->name, sizeof(sy->name), "%s", w[1]);
		sy->addr = tis_num(w[2]);
		sy->type = n == 4 ? tis_num(w[3]) : 0;
		return 0;
	}
	if (strcmp(w[0], "type") == 0 && n >= 7) {
		char name[128] = "";

		/* a name of several words: "unsigned int" */
		for (int i = 6; i < n; i++)
			snprintf(name + strlen(name), sizeof(name) - strlen(name),
				 "%s%s", i > 6 ? " " : "", w[i]);
		tis_add_type(s, tis_num(w[1]), tis_kind(w[2]), tis_num(w[3]),
			     tis_num(w[4]), tis_num(w[5]),
			     strcmp(name, "-") ? name : "");
		s->types[s->ntypes - 1].t.incomplete = !strcmp(w[2], "fwd");
		return 0;
	}
	if (strcmp(w[0], "member") == 0 && (n == 5 || n == 7)) {
		struct tis_member *m;

		s->members = tis_grow(s->members, s->nmembers,
				      sizeof(*s->members));
		m = &s->members[s->nmembers++];
		m->type = tis_num(w[1]);
		snprintf(m->name, sizeof(m->name), "%s", w[2]);
		m->off = tis_num(w[3]);
		m->mtype = tis_num(w[4]);
		m->bit = n == 7 ? tis_num(w[5]) : m->off * 8;
		m->bits = n == 7 ? (uint32_t)tis_num(w[6]) : 0;
		return 0;
	}
	return -1;
}

static int tis_parse(struct tis *s, const char *text)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);
		char line[512];

		snprintf(line, sizeof(line), "%.*s", (int)n, text);
		char copy[512];

		memcpy(copy, line, sizeof(copy));
		if (tis_line(s, line) < 0) {
			fprintf(stderr, "ti_spec: bad line '%s'\n", copy);
			return -1;
		}
		text += n + (nl ? 1 : 0);
	}
	return 0;
}

static const struct tis_type *tis_type_of(const struct tis *s, uint64_t id)
{
	for (size_t i = 0; i < s->ntypes; i++)
		if (s->types[i].id == id)
			return &s->types[i];
	return NULL;
}

static int tis_symbol(void *ctx, const char *name, uint64_t *addr,
		      struct vs_error *err)
{
	const struct tis *s = ctx;

	for (size_t i = 0; i < s->nsyms; i++)
		if (strcmp(s->syms[i].name, name) == 0) {
			*addr = s->syms[i].addr;
			return 0;
		}
	return vs_err(err, "no symbol '%s'", name);
}

static int tis_symbol_type(void *ctx, const char *name, uint64_t *type,
			   struct vs_error *err)
{
	const struct tis *s = ctx;

	for (size_t i = 0; !s->no_symbol_types && i < s->nsyms; i++)
		if (strcmp(s->syms[i].name, name) == 0 && s->syms[i].type) {
			*type = s->syms[i].type;
			return 0;
		}
	return vs_err(err, "the type of '%s' is unknown", name);
}

static int tis_type_by_name(void *ctx, const char *name, uint64_t *type,
			    struct vs_error *err)
{
	struct tis *s = ctx;
	char base[128];
	size_t n;

	if (strncmp(name, "struct ", 7) == 0)
		name += 7;
	snprintf(base, sizeof(base), "%s", name);
	n = strlen(base);
	if (n && base[n - 1] == '*') {
		base[n - 1] = '\0';
		if (tis_type_by_name(ctx, base, type, err) < 0)
			return -1;
		for (size_t i = 0; i < s->ntypes; i++)
			if (s->types[i].t.kind == VS_TI_PTR &&
			    s->types[i].t.target == *type) {
				*type = s->types[i].id;
				return 0;
			}
		tis_add_type(s, s->next_id, VS_TI_PTR, 8, 0, *type, "");
		*type = s->types[s->ntypes - 1].id;
		return 0;
	}
	for (size_t i = 0; i < s->ntypes; i++)
		if (strcmp(s->types[i].name, base) == 0 &&
		    s->types[i].t.kind != VS_TI_PTR) {
			*type = s->types[i].id;
			return 0;
		}
	return vs_err(err, "no type '%s'", name);
}

static int tis_type(void *ctx, uint64_t type, struct vs_ti_type *out,
		    struct vs_error *err)
{
	const struct tis_type *t = tis_type_of(ctx, type);

	if (!t)
		return vs_err(err, "no type 0x%llx", (unsigned long long)type);
	*out = t->t;
	out->name = t->name[0] ? t->name : NULL;
	return 0;
}

static int tis_member(void *ctx, uint64_t type, const char *member,
		      uint64_t *offset, uint64_t *mtype, struct vs_error *err)
{
	const struct tis *s = ctx;
	const struct tis_type *t = tis_type_of(s, type);

	for (size_t i = 0; i < s->nmembers; i++)
		if (s->members[i].type == type &&
		    strcmp(s->members[i].name, member) == 0) {
			*offset = s->members[i].off;
			*mtype = s->members[i].mtype;
			return 0;
		}
	return vs_err(err, "struct '%s' has no member '%s'",
		      t ? t->name : "?", member);
}

/* *POS: the index in s->members to look from. */
static int tis_member_next(void *ctx, uint64_t type, uint64_t *pos,
			   struct vs_ti_member *out, struct vs_error *err)
{
	const struct tis *s = ctx;

	(void)err;
	for (size_t i = *pos; i < s->nmembers; i++)
		if (s->members[i].type == type) {
			out->name = s->members[i].name;
			out->offset = s->members[i].off;
			out->type = s->members[i].mtype;
			out->bit_offset = s->members[i].bit;
			out->bit_size = s->members[i].bits;
			*pos = i + 1;
			return 0;
		}
	*pos = s->nmembers;
	return 1;
}

static int tis_enumerator(void *ctx, const char *name, int64_t *value,
			  struct vs_error *err)
{
	(void)ctx;
	(void)value;
	return vs_err(err, "no enumerator '%s'", name);
}

static void tis_free(void *ctx)
{
	struct tis *s = ctx;

	free(s->syms);
	free(s->types);
	free(s->members);
	memset(s, 0, sizeof(*s));
}

static const struct vs_typeinfo_ops tis_ops = {
	.name = "spec",
	.symbol = tis_symbol,
	.symbol_type = tis_symbol_type,
	.type_by_name = tis_type_by_name,
	.type = tis_type,
	.member = tis_member,
	.member_next = tis_member_next,
	.enumerator = tis_enumerator,
	.free = tis_free,
};

#endif
