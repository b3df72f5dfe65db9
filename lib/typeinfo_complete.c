/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * typeinfo_complete.c - a declaration completed from another source
 * (typeinfo_complete.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "typeinfo_complete.h"

#define MAX_MEMBERS 65536   /* of one struct, anonymous members' included */
#define MAX_ANON_DEPTH 32   /* anonymous members inside anonymous ones */

static void mix(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {     /* FNV-1a */
		*h ^= b[i];
		*h *= 0x100000001b3ull;
	}
}

static void mix_u64(uint64_t *h, uint64_t v)
{
	mix(h, &v, sizeof(v));
}

static void mix_str(uint64_t *h, const char *s)
{
	if (!s)
		s = "";
	mix(h, s, strlen(s) + 1);
}

/* A member's type T (TYPE): its kind, size, length and name, and the
 * name of what a pointer or an array holds. */
static int mix_type(uint64_t *h, const struct vs_typeinfo *ti, uint64_t type,
		    struct vs_ti_type *t, struct vs_error *err)
{
	struct vs_ti_type target;

	if (ti->ops->type(ti->ctx, type, t, err) < 0)
		return -1;
	mix_u64(h, t->kind);
	mix_u64(h, t->size);
	mix_u64(h, t->nelem);
	mix_str(h, t->name);
	if ((t->kind != VS_TI_PTR && t->kind != VS_TI_ARRAY) || !t->target)
		return 0;
	if (ti->ops->type(ti->ctx, t->target, &target, err) < 0)
		return -1;
	mix_str(h, target.name);
	return 0;
}

/* The digest being made, and how many more members it may look at. */
struct walk {
	uint64_t h;
	unsigned left;
};

static int mix_members(struct walk *w, const struct vs_typeinfo *ti,
		       uint64_t type, const char *tname, unsigned depth,
		       struct vs_error *err);

/* Member M at DEPTH (0: the struct's own): its name, place, bits and
 * type, and an anonymous struct or union's members after it, one level
 * deeper, for two such members of the same size can differ inside. */
static int mix_member(struct walk *w, const struct vs_typeinfo *ti,
		      const struct vs_ti_member *m, const char *tname,
		      unsigned depth, struct vs_error *err)
{
	struct vs_ti_type t;

	mix_u64(&w->h, depth);
	mix_str(&w->h, m->name);
	mix_u64(&w->h, m->offset);
	mix_u64(&w->h, m->bit_offset);
	mix_u64(&w->h, m->bit_size);
	if (mix_type(&w->h, ti, m->type, &t, err) < 0)
		return vs_err_ctx(err, "member '%s' of '%s'",
				  m->name ? m->name : "(anonymous)", tname);
	if (m->name || (t.kind != VS_TI_STRUCT && t.kind != VS_TI_UNION))
		return 0;
	return mix_members(w, ti, m->type, tname, depth + 1, err);
}

/* The members of TYPE (in struct or union TNAME), anonymous members'
 * own included, MAX_ANON_DEPTH levels and w->left members at most. */
static int mix_members(struct walk *w, const struct vs_typeinfo *ti,
		       uint64_t type, const char *tname, unsigned depth,
		       struct vs_error *err)
{
	uint64_t pos = 0;

	if (depth > MAX_ANON_DEPTH)
		return vs_err(err, "'%s' has anonymous members more than %u "
			      "deep", tname, MAX_ANON_DEPTH);
	for (;;) {
		struct vs_ti_member m;
		int ret;

		ret = ti->ops->member_next(ti->ctx, type, &pos, &m, err);
		if (ret != 0)
			return ret < 0 ? -1 : 0;
		if (w->left-- == 0)
			return vs_err(err, "'%s' has more than %u members, "
				      "those of anonymous members included",
				      tname, MAX_MEMBERS);
		if (mix_member(w, ti, &m, tname, depth, err) < 0)
			return -1;
	}
}

int vs_ti_layout_digest(const struct vs_typeinfo *ti, uint64_t type,
			uint64_t *digest, struct vs_error *err)
{
	struct walk w = { 0xcbf29ce484222325ull, MAX_MEMBERS };
	struct vs_ti_type t;
	const char *tname;

	if (!ti->ops->member_next)
		return vs_err(err, "the %s source cannot list a type's members",
			      ti->ops->name);
	if (ti->ops->type(ti->ctx, type, &t, err) < 0)
		return -1;
	tname = t.name ? t.name : "(anonymous)";
	mix_u64(&w.h, t.kind);
	mix_u64(&w.h, t.size);
	mix_str(&w.h, t.name);
	if (mix_members(&w, ti, type, tname, 0, err) < 0)
		return -1;
	*digest = w.h;
	return 0;
}

static const char *kind_word(enum vs_ti_kind kind)
{
	return kind == VS_TI_UNION ? "union" : "struct";
}

/* 1 with *ID when P defines KIND NAME (not only declares it), else 0. */
static int defined_in(const struct vs_ti_place *p, enum vs_ti_kind kind,
		      const char *name, uint64_t *id, struct vs_error *err)
{
	struct vs_error absent;
	struct vs_ti_type t;
	char *full;
	int ret;

	/* the whole name, however long: a cut one could be another's */
	if (asprintf(&full, "%s %s", kind_word(kind), name) < 0)
		return vs_err_oom(err, "out of memory");
	if (p->ti->ops->type_by_name(p->ti->ctx, full, id, &absent) < 0)
		ret = 0;
	else if (p->ti->ops->type(p->ti->ctx, *id, &t, err) < 0)
		ret = vs_err_ctx(err, "'%s' in %s", full, p->file);
	else
		ret = t.kind == kind && !t.incomplete;
	free(full);
	return ret;
}

/* The definition in P (place I > 0) against the first one found, *TI's
 * (its digest *WANT, its file FIRST). */
static int compare(const struct vs_ti_place *p, uint64_t cand,
		   enum vs_ti_kind kind, const char *name,
		   const struct vs_typeinfo **ti, uint64_t *id, uint64_t *want,
		   char *first, size_t cap, struct vs_error *err)
{
	uint64_t d;

	if (vs_ti_layout_digest(p->ti, cand, &d, err) < 0)
		return vs_err_ctx(err, "the layout of %s '%s' in %s",
				  kind_word(kind), name, p->file);
	if (!*ti) {
		*ti = p->ti;
		*id = cand;
		*want = d;
		snprintf(first, cap, "%s", p->file);
		return 0;
	}
	if (d != *want)
		return vs_err(err, "%s '%s' is only declared here and defined "
			      "differently in %s and in %s: which one is "
			      "meant cannot be told", kind_word(kind), name,
			      first, p->file);
	return 0;
}

int vs_ti_complete(enum vs_ti_kind kind, const char *name,
		   vs_ti_place_fn places, void *ctx,
		   const struct vs_typeinfo **ti, uint64_t *id,
		   struct vs_error *err)
{
	struct vs_ti_place p;
	char first[512] = "";
	uint64_t want = 0, cand;
	int ret;

	*ti = NULL;
	for (size_t i = 0;; i++) {
		ret = places(ctx, i, &p, err);
		if (ret < 0)
			return -1;
		if (ret > 0)
			return *ti ? 0 : 1;
		if (!p.ti)
			continue;
		ret = defined_in(&p, kind, name, &cand, err);
		if (ret < 0)
			return -1;
		if (ret == 0)
			continue;
		if (i == 0) {                /* the vmlinux's: no other */
			*ti = p.ti;
			*id = cand;
			return 0;
		}
		if (compare(&p, cand, kind, name, ti, id, &want, first,
			    sizeof(first), err) < 0)
			return -1;
	}
}
