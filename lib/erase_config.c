/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * erase_config.c - the parser of --config files (erase_config.h).
 *
 * Two steps: the text is cut into tokens (each with its line and column,
 * comments dropped, "[module]" lines turned into section tokens), then a
 * recursive-descent parser builds the rules.  Nothing here trusts the
 * text: every length is bounded by the input, numbers are checked for
 * overflow, and every error names the line and the column.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "erase_config.h"
#include "util.h"

#define EC_MAX_FILE (16u << 20)      /* a config file is text, not a dump */
#define EC_MAX_PARTS 64
#define EC_MAX_NEST 6                /* loops inside loops */
#define EC_MAX_COUNT (1ULL << 22)    /* "count N", "+N": the loop bound */
#define EC_MAX_SIZE_DIV 4096u        /* "size EXPR/N" */

struct ec_tok {
	char *text;
	int line, col;
	int section;                 /* a "[module]" line */
};

struct ec_parser {
	const char *name;
	struct ec_tok *toks;
	size_t ntoks, cap, pos;
	int last_line;
	struct vs_erase_config *c;
	const char *module;
	const char *ids[EC_MAX_NEST];  /* the enclosing loops' variables */
	unsigned nids;
	struct vs_error *err;
};

static int tok_push(struct ec_parser *p, const char *s, size_t n, int line,
		    int col, int section)
{
	struct ec_tok *t;

	if (p->ntoks == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		struct ec_tok *nt = realloc(p->toks, cap * sizeof(*nt));

		if (!nt)
			return vs_err_oom(p->err, "out of memory");
		p->toks = nt;
		p->cap = cap;
	}
	t = &p->toks[p->ntoks];
	t->text = strndup(s, n);
	if (!t->text)
		return vs_err_oom(p->err, "out of memory");
	t->line = line;
	t->col = col;
	t->section = section;
	p->ntoks++;
	return 0;
}

static int lex_section(struct ec_parser *p, const char *s, size_t n,
		       int line, int col)
{
	const char *close = memchr(s, ']', n);

	if (!close || close == s + 1)
		return vs_err(p->err, "%s:%d:%d: a section is \"[module]\"",
			      p->name, line, col);
	return tok_push(p, s + 1, (size_t)(close - s - 1), line, col, 1);
}

/* One line: blanks separate tokens, '#' ends the line. */
static int lex_line(struct ec_parser *p, const char *s, size_t n, int line)
{
	size_t i = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
		i++;
	if (i < n && s[i] == '[')
		return lex_section(p, s + i, n - i, line, (int)i + 1);
	while (i < n && s[i] != '#') {
		size_t start = i;

		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
			i++;
			continue;
		}
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			return vs_err(p->err, "%s:%d:%d: unexpected byte 0x%02x",
				      p->name, line, (int)i + 1,
				      (unsigned char)s[i]);
		while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' &&
		       s[i] != '#')
			i++;
		if (tok_push(p, s + start, i - start, line, (int)start + 1,
			     0) < 0)
			return -1;
	}
	return 0;
}

static int lex(struct ec_parser *p, const char *text, size_t len)
{
	size_t off = 0;
	int line = 0;

	while (off < len) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - text - off) : len - off;

		line++;
		if (memchr(text + off, '\0', n))
			return vs_err(p->err, "%s:%d: a NUL byte in the text",
				      p->name, line);
		if (lex_line(p, text + off, n, line) < 0)
			return -1;
		off += n + (nl ? 1 : 0);
	}
	p->last_line = line;
	return 0;
}

static const struct ec_tok *peek(const struct ec_parser *p)
{
	return p->pos < p->ntoks ? &p->toks[p->pos] : NULL;
}

static int is_word(const struct ec_tok *t, const char *w)
{
	return t && !t->section && strcmp(t->text, w) == 0;
}

static int is_keyword(const char *s)
{
	static const char *const kw[] = { "erase", "size", "nullify", "for",
					  "in", "via", "within", "endfor",
					  "rbtree", "percpu", "where",
					  "count", "hlist_nulls", "and" };

	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (strcmp(s, kw[i]) == 0)
			return 1;
	return 0;
}

/* The error at token T, or at the end of the file when T is NULL. */
__attribute__((format(printf, 3, 4)))
static int fail_at(struct ec_parser *p, const struct ec_tok *t,
		   const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!t)
		return vs_err(p->err, "%s:%d: at the end of the file: %s",
			      p->name, p->last_line, msg);
	return vs_err(p->err, "%s:%d:%d: %s", p->name, t->line, t->col, msg);
}

/* The next token, which must be a name (not a keyword or a section). */
static const struct ec_tok *take_name(struct ec_parser *p, const char *what)
{
	const struct ec_tok *t = peek(p);

	if (!t || t->section || is_keyword(t->text)) {
		fail_at(p, t, "expected %s%s%s%s", what, t ? ", found '" : "",
			t ? t->text : "", t ? "'" : "");
		return NULL;
	}
	p->pos++;
	return t;
}

static int valid_ident(const char *s, size_t n)
{
	if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return 0;
	return 1;
}

static int parse_index(struct ec_parser *p, const struct ec_tok *t,
		       const char *s, size_t n, uint64_t *index)
{
	uint64_t v = 0;

	if (n < 3 || s[0] != '[' || s[n - 1] != ']')
		return fail_at(p, t, "bad index '%.*s' in '%s'", (int)n, s,
			       t->text);
	for (size_t i = 1; i + 1 < n; i++) {
		if (!isdigit((unsigned char)s[i]) || v > (UINT64_MAX - 9) / 10)
			return fail_at(p, t, "bad index '%.*s' in '%s'",
				       (int)n, s, t->text);
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*index = v;
	return 0;
}

static int check_type(struct ec_parser *p, const struct ec_tok *t,
		      const char *type);

/* A module's name in "@MODULE": letters, digits, '_' and '-'. */
static int valid_module(const char *s, size_t n)
{
	if (n == 0 || n > 63)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
			return 0;
	return 1;
}

/* "TYPE@MODULE*...": *MODULE (owned) and the type's text less "@MODULE"
 * in *TYPE (owned). */
static int split_module(struct ec_parser *p, const struct ec_tok *t,
			const char *s, size_t n, char **type, char **module)
{
	const char *at = memchr(s, '@', n);
	size_t tlen = at ? (size_t)(at - s) : n, mlen = 0;

	if (at)
		while (at + 1 + mlen < s + n && at[1 + mlen] != '*')
			mlen++;
	if (at && !valid_module(at + 1, mlen))
		return fail_at(p, t, "'%.*s' in '%s' is not '@MODULE'",
			       (int)(n - tlen), at, t->text);
	*type = malloc(n + 1);
	*module = at ? strndup(at + 1, mlen) : NULL;
	if (!*type || (at && !*module))
		return vs_err_oom(p->err, "out of memory");
	memcpy(*type, s, tlen);
	/* the stars after the module */
	memcpy(*type + tlen, s + tlen + (at ? 1 + mlen : 0),
	       n - tlen - (at ? 1 + mlen : 0));
	(*type)[n - (at ? 1 + mlen : 0)] = '\0';
	return 0;
}

/* A member's ":TYPE" (the text after the colon at S, N bytes) into PART. */
static int parse_cast(struct ec_parser *p, const struct ec_tok *t,
		      const char *s, size_t n, struct vs_ec_part *part)
{
	if (n == 0)
		return fail_at(p, t, "expected a type after ':' in '%s'",
			       t->text);
	if (split_module(p, t, s, n, &part->cast, &part->cast_module) < 0)
		return -1;
	return check_type(p, t, part->cast);
}

/* NAME, NAME[N], NAME:TYPE or NAME[N]:TYPE, S of N bytes, into PART. */
static int parse_part(struct ec_parser *p, const struct ec_tok *t,
		      const char *s, size_t n, struct vs_ec_part *part)
{
	const char *colon = memchr(s, ':', n);
	size_t end = colon ? (size_t)(colon - s) : n;
	const char *br = memchr(s, '[', end);
	size_t len = br ? (size_t)(br - s) : end;

	part->index = VS_EC_NO_INDEX;
	if (!valid_ident(s, len))
		return fail_at(p, t, "'%.*s' in '%s' is not a name", (int)len,
			       s, t->text);
	if (br && parse_index(p, t, br, end - len, &part->index) < 0)
		return -1;
	part->name = strndup(s, len);
	if (!part->name)
		return vs_err_oom(p->err, "out of memory");
	if (colon)
		return parse_cast(p, t, colon + 1, n - end - 1, part);
	return 0;
}

/* "SYM:TYPE" (or "SYM:TYPE@MODULE") -> the type and its module are
 * kept, the text loses them. */
static int split_type(struct ec_parser *p, const struct ec_tok *t,
		      struct vs_ec_expr *e, const char **rest_out,
		      size_t *first_len)
{
	const char *s = t->text, *colon = strchr(s, ':');
	const char *dot = strchr(s, '.');

	*first_len = dot ? (size_t)(dot - s) : strlen(s);
	*rest_out = s + *first_len;
	if (!colon || (dot && colon > dot))
		return 0;
	if (colon[1] == '\0' || colon + 1 == dot)
		return fail_at(p, t, "expected a type after ':' in '%s'", s);
	if (split_module(p, t, colon + 1, (size_t)(s + *first_len - colon - 1),
			 &e->type, &e->type_module) < 0)
		return -1;
	*first_len = (size_t)(colon - s);
	return 0;
}

static int expr_text(struct ec_parser *p, const struct ec_tok *t,
		     struct vs_ec_expr *e, size_t first_len, const char *rest)
{
	size_t n = first_len + strlen(rest);

	e->text = malloc(n + 1);
	if (!e->text)
		return vs_err_oom(p->err, "out of memory");
	memcpy(e->text, t->text, first_len);
	strcpy(e->text + first_len, rest);
	return 0;
}

/* TYPE: words of a type name ("struct task_struct", "char*"): letters,
 * digits, '_', ' ' and trailing '*'. */
static int check_type(struct ec_parser *p, const struct ec_tok *t,
		      const char *type)
{
	size_t n = strlen(type);

	while (n && type[n - 1] == '*')
		n--;
	if (!valid_ident(type, n))
		return fail_at(p, t, "'%s' in '%s' is not a type name", type,
			       t->text);
	return 0;
}

static int parse_expr(struct ec_parser *p, const struct ec_tok *t,
		      struct vs_ec_expr *e)
{
	const char *rest;
	size_t first_len;

	e->line = t->line;
	e->col = t->col;
	if (split_type(p, t, e, &rest, &first_len) < 0)
		return -1;
	if (e->type && check_type(p, t, e->type) < 0)
		return -1;
	if (expr_text(p, t, e, first_len, rest) < 0)
		return -1;
	e->parts = calloc(EC_MAX_PARTS, sizeof(*e->parts));
	if (!e->parts)
		return vs_err_oom(p->err, "out of memory");
	if (parse_part(p, t, t->text, first_len, &e->parts[0]) < 0)
		return -1;
	e->nparts = 1;
	while (*rest) {
		const char *next = strchr(rest + 1, '.');
		size_t n = next ? (size_t)(next - rest - 1) : strlen(rest + 1);

		if (e->nparts == EC_MAX_PARTS)
			return fail_at(p, t, "'%s' has more than %d parts",
				       t->text, EC_MAX_PARTS);
		if (parse_part(p, t, rest + 1, n, &e->parts[e->nparts]) < 0)
			return -1;
		e->nparts++;
		rest = next ? next : rest + 1 + n;
	}
	return 0;
}

/* N, NK, NM (case-insensitive): 1 when T is a number, 0 when it is an
 * expression, -1 on a bad number. */
static int parse_number(struct ec_parser *p, const struct ec_tok *t,
			uint64_t *out)
{
	const char *s = t->text;
	uint64_t v = 0, mult = 1;
	size_t i = 0;

	if (!isdigit((unsigned char)s[0]))
		return 0;
	for (; isdigit((unsigned char)s[i]); i++) {
		if (v > (UINT64_MAX - 9) / 10)
			return fail_at(p, t, "size '%s' is too big", s);
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (s[i] == 'k' || s[i] == 'K')
		mult = 1024, i++;
	else if (s[i] == 'm' || s[i] == 'M')
		mult = 1024 * 1024, i++;
	if (s[i] != '\0')
		return fail_at(p, t, "bad size '%s' (a number with K or M, "
			       "or SYMBOL[.member...])", s);
	if (v > UINT64_MAX / mult || v * mult > (1ULL << 40))
		return fail_at(p, t, "size '%s' is too big", s);
	*out = v * mult;
	return 1;
}

/* The divisor N of "size EXPR/N", from S (after the '/'). */
static int parse_size_div(struct ec_parser *p, const struct ec_tok *t,
			  const char *s, uint64_t *out)
{
	const char *s0 = s;
	uint64_t v = 0;

	for (; isdigit((unsigned char)*s) && v <= EC_MAX_SIZE_DIV; s++)
		v = v * 10 + (uint64_t)(*s - '0');
	if (s == s0 || *s || v == 0 || v > EC_MAX_SIZE_DIV)
		return fail_at(p, t, "'size %s': '%s' is not a divisor from 1 "
			       "to %u", t->text, s0, EC_MAX_SIZE_DIV);
	*out = v;
	return 0;
}

/* "size N[K|M]", "size EXPR" or "size EXPR/N" (EXPR's value divided by
 * N, rounded up: a key's length in bits as bytes). */
static int parse_size(struct ec_parser *p, struct vs_ec_erase *er)
{
	const struct ec_tok *t = take_name(p, "a size after 'size'");
	const char *slash;
	struct ec_tok sub;
	int r;

	if (!t)
		return -1;
	r = parse_number(p, t, &er->size);
	if (r < 0)
		return -1;
	if (r == 1) {
		er->size_kind = VS_EC_SIZE_NUM;
		return 0;
	}
	er->size_kind = VS_EC_SIZE_EXPR;
	er->size_div = 1;
	slash = strchr(t->text, '/');
	if (!slash)
		return parse_expr(p, t, &er->size_expr);
	if (slash == t->text)
		return fail_at(p, t, "expected an expression before '/' in "
			       "'size %s'", t->text);
	if (parse_size_div(p, t, slash + 1, &er->size_div) < 0)
		return -1;
	sub = *t;
	sub.text = strndup(t->text, (size_t)(slash - t->text));
	if (!sub.text)
		return vs_err_oom(p->err, "out of memory");
	r = parse_expr(p, &sub, &er->size_expr);
	free(sub.text);
	return r;
}

/* Whether NAME is one of the enclosing loops' variables. */
static int is_loop_var(const struct ec_parser *p, const char *name)
{
	for (unsigned i = 0; i < p->nids; i++)
		if (strcmp(p->ids[i], name) == 0)
			return 1;
	return 0;
}

/* After the "erase" keyword, in a loop of variable ID or at the top
 * (ID NULL).  Inside loops the expression starts with a loop's variable. */
static int parse_erase(struct ec_parser *p, struct vs_ec_erase *er,
		       const char *id)
{
	const struct ec_tok *t = take_name(p, "a symbol after 'erase'");

	if (!t || parse_expr(p, t, &er->target) < 0)
		return -1;
	er->cmd = p->c->ncmds++;
	if (id && !is_loop_var(p, er->target.parts[0].name))
		return fail_at(p, t, "'%s' does not start with the loop's "
			       "variable '%s'", t->text, id);
	if (id && er->target.type)
		return fail_at(p, t, "the loop's variable takes no ':TYPE'");
	if (is_word(peek(p), "nullify")) {
		p->pos++;
		er->size_kind = VS_EC_NULLIFY;
	} else if (is_word(peek(p), "size")) {
		p->pos++;
		return parse_size(p, er);
	}
	return 0;
}

/* A new item at the end of R's body (zeroed), or NULL. */
static struct vs_ec_erase *new_item(struct ec_parser *p, struct vs_ec_rule *r)
{
	struct vs_ec_erase *ne = realloc(r->erases,
					 (r->nerases + 1) * sizeof(*ne));

	if (!ne) {
		vs_err_oom(p->err, "out of memory");
		return NULL;
	}
	r->erases = ne;
	memset(&ne[r->nerases], 0, sizeof(*ne));
	return &ne[r->nerases++];
}

static int add_erase(struct ec_parser *p, struct vs_ec_rule *r,
		     const char *id)
{
	struct vs_ec_erase *er = new_item(p, r);

	return er ? parse_erase(p, er, id) : -1;
}

/* MEMBER or MEMBER.MEMBER... (a member of nested structs). */
static int valid_path(const char *s)
{
	const char *dot;

	while ((dot = strchr(s, '.'))) {
		if (!valid_ident(s, (size_t)(dot - s)))
			return 0;
		s = dot + 1;
	}
	return valid_ident(s, strlen(s));
}

/* STRUCT[:PATH] after KW ("within": PATH defaults to "list", as in
 * makedumpfile; "rbtree" and "hlist_nulls": PATH is needed). */
static int parse_within(struct ec_parser *p, struct vs_ec_rule *r,
			const char *kw)
{
	const struct ec_tok *t;
	const char *colon;
	int within = strcmp(kw, "within") == 0;

	t = take_name(p, !strcmp(kw, "rbtree") ? "STRUCT:MEMBER after 'rbtree'"
		      : !within ? "STRUCT:MEMBER after 'hlist_nulls'"
		      : "STRUCT:MEMBER after 'within'");
	if (!t)
		return -1;
	colon = strchr(t->text, ':');
	if (!within && !colon)
		return fail_at(p, t, "expected STRUCT:MEMBER after '%s' (the "
			       "struct %s member), found '%s'", kw,
			       !strcmp(kw, "rbtree") ? "rb_node"
			       : "hlist_nulls_node", t->text);
	r->loop = within ? VS_EC_WITHIN : !strcmp(kw, "rbtree") ? VS_EC_RBTREE
		: VS_EC_HLIST_NULLS;
	r->within_struct = strndup(t->text, colon ? (size_t)(colon - t->text)
				   : strlen(t->text));
	/* makedumpfile's default list member */
	r->within_member = strdup(colon ? colon + 1 : "list");
	if (!r->within_struct || !r->within_member)
		return vs_err_oom(p->err, "out of memory");
	if (!valid_ident(r->within_struct, strlen(r->within_struct)) ||
	    !valid_path(r->within_member))
		return fail_at(p, t, "expected STRUCT:MEMBER after '%s', "
			       "found '%s'", kw, t->text);
	return 0;
}

/* "percpu": the loop's expression is one global, SYMBOL[:TYPE]. */
static int parse_percpu(struct ec_parser *p, struct vs_ec_rule *r,
			const struct ec_tok *list)
{
	r->loop = VS_EC_PERCPU;
	if (r->list.nparts != 1 || r->list.parts[0].index != VS_EC_NO_INDEX)
		return fail_at(p, list, "'percpu' walks a per-CPU variable: "
			       "'%s' is not a lone symbol", list->text);
	return 0;
}

/* &SYMBOL, &SYMBOL@MODULE, either with a trailing '?' (optional: a
 * kernel without the symbol makes the where never hold), or a number
 * (decimal or 0x hex). */
static int parse_where_value(struct ec_parser *p, struct vs_ec_where *w)
{
	const struct ec_tok *t = take_name(p, "'&SYMBOL' or a number after "
					   "the comparison");
	const char *s;
	char *end;

	if (!t)
		return -1;
	s = t->text;
	if (s[0] == '&') {
		size_t len = strlen(s);
		const char *at;
		size_t n;

		w->sym_optional = len > 1 && s[len - 1] == '?';
		len -= (size_t)w->sym_optional;
		at = memchr(s, '@', len);
		n = at ? (size_t)(at - s - 1) : len - 1;
		if (!valid_ident(s + 1, n) ||
		    (at && !valid_module(at + 1, len - (size_t)(at + 1 - s))))
			return fail_at(p, t, "'%s' is not '&SYMBOL' or "
				       "'&SYMBOL@MODULE' (with an optional "
				       "'?')", s);
		w->sym = strndup(s + 1, n);
		w->sym_module = at ? strndup(at + 1, len - (size_t)(at + 1 - s))
				   : NULL;
		if (!w->sym || (at && !w->sym_module))
			return vs_err_oom(p->err, "out of memory");
		return 0;
	}
	if (!isdigit((unsigned char)s[0]))
		return fail_at(p, t, "expected '&SYMBOL' or a number, found "
			       "'%s'", s);
	errno = 0;
	w->value = strtoull(s, &end, 0);
	if (*end || errno)
		return fail_at(p, t, "bad number '%s'", s);
	return 0;
}

/* One condition: EXPR ("==" | "!=") VALUE, EXPR on the loop's variable. */
static int parse_cond(struct ec_parser *p, struct vs_ec_rule *r,
		      struct vs_ec_where *w)
{
	const struct ec_tok *t = take_name(p, "an expression after 'where'");

	if (!t || parse_expr(p, t, &w->expr) < 0)
		return -1;
	if (strcmp(w->expr.parts[0].name, r->id) != 0 || w->expr.type)
		return fail_at(p, t, "'%s' does not start with the loop's "
			       "variable '%s'", t->text, r->id);
	t = peek(p);
	if (!t || t->section || (strcmp(t->text, "==") != 0 &&
				 strcmp(t->text, "!=") != 0))
		return fail_at(p, t, "expected '==' or '!=' after 'where "
			       "%s'%s%s%s", w->expr.text, t ? ", found '" : "",
			       t ? t->text : "", t ? "'" : "");
	w->negate = t->text[0] == '!';
	p->pos++;
	return parse_where_value(p, w);
}

/* After "where": conditions joined by "and". */
static int parse_where(struct ec_parser *p, struct vs_ec_rule *r)
{
	for (;;) {
		if (parse_cond(p, r, &r->where[r->nwhere++]) < 0)
			return -1;
		if (!is_word(peek(p), "and"))
			return 0;
		if (r->nwhere == VS_EC_MAX_WHERE)
			return fail_at(p, peek(p), "more than %d conditions "
				       "after 'where'", VS_EC_MAX_WHERE);
		p->pos++;
	}
}

/* N (at most the loop bound) at S: "count N", or "+N" after a count's
 * EXPR in T. */
static int parse_count_add(struct ec_parser *p, const struct ec_tok *t,
			   const char *s, uint64_t *out)
{
	const char *s0 = s;
	uint64_t v = 0;

	if (!*s)
		return fail_at(p, t, "expected a number after '+' in 'count "
			       "%s'", t->text);
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s) || v > EC_MAX_COUNT)
			break;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (*s || v > EC_MAX_COUNT)
		return fail_at(p, t, "'count %s': '%s' is not a number of at "
			       "most %llu", t->text, s0,
			       (unsigned long long)EC_MAX_COUNT);
	*out = v;
	return 0;
}

/* "count EXPR[+N]" or "count N": the loop walks EXPR (+N) or N
 * elements; EXPR names an enclosing loop's variable or a global, not
 * this loop's. */
static int parse_count(struct ec_parser *p, struct vs_ec_rule *r)
{
	const struct ec_tok *t = take_name(p, "an expression after 'count'");
	const char *plus;
	struct ec_tok sub;
	int ret;

	if (!t)
		return -1;
	r->counted = 1;
	if (isdigit((unsigned char)t->text[0]))
		return parse_count_add(p, t, t->text, &r->count_add);
	plus = strchr(t->text, '+');
	if (plus == t->text)
		return fail_at(p, t, "expected an expression before '+' in "
			       "'count %s'", t->text);
	if (plus && parse_count_add(p, t, plus + 1, &r->count_add) < 0)
		return -1;
	sub = *t;
	sub.text = strndup(t->text, plus ? (size_t)(plus - t->text)
			   : strlen(t->text));
	if (!sub.text)
		return vs_err_oom(p->err, "out of memory");
	ret = parse_expr(p, &sub, &r->count);
	free(sub.text);
	if (ret < 0)
		return -1;
	if (strcmp(r->count.parts[0].name, r->id) == 0)
		return fail_at(p, t, "'count %s': the count cannot use the "
			       "loop's own variable '%s'", t->text, r->id);
	return 0;
}

/* "SYM?" at the start of the list T ("SYM?:TYPE", "SYM?.member"): an
 * optional symbol, its '?' taken out of T's text; 1 when it is one, -1
 * on a loop's variable (which is always there). */
static int list_optional(struct ec_parser *p, struct ec_tok *t)
{
	size_t n = strcspn(t->text, ":.[@");
	char *name;

	if (n < 2 || t->text[n - 1] != '?')
		return 0;
	name = strndup(t->text, n - 1);
	if (!name)
		return vs_err_oom(p->err, "out of memory");
	if (is_loop_var(p, name)) {
		free(name);
		return fail_at(p, t, "'%s': a loop's variable cannot be "
			       "optional ('?' follows a symbol)", t->text);
	}
	free(name);
	memmove(t->text + n - 1, t->text + n, strlen(t->text + n) + 1);
	return 1;
}

static int parse_loop_head(struct ec_parser *p, struct vs_ec_rule *r)
{
	const struct ec_tok *t = take_name(p, "a variable after 'for'");
	const struct ec_tok *list;

	if (!t)
		return -1;
	if (!valid_ident(t->text, strlen(t->text)))
		return fail_at(p, t, "'%s' is not a name", t->text);
	r->id = strdup(t->text);
	if (!r->id)
		return vs_err_oom(p->err, "out of memory");
	if (!is_word(peek(p), "in"))
		return fail_at(p, peek(p), "expected 'in' after 'for %s'",
			       r->id);
	p->pos++;
	list = take_name(p, "an array or list after 'in'");
	if (!list)
		return -1;
	r->list_optional = list_optional(p, &p->toks[list - p->toks]);
	if (r->list_optional < 0 || parse_expr(p, list, &r->list) < 0)
		return -1;
	r->loop = VS_EC_LOOP;
	if (is_word(peek(p), "via")) {
		p->pos++;
		t = take_name(p, "a member after 'via'");
		if (!t)
			return -1;
		if (!valid_ident(t->text, strlen(t->text)))
			return fail_at(p, t, "'%s' is not a member name",
				       t->text);
		r->via = strdup(t->text);
		if (!r->via)
			return vs_err_oom(p->err, "out of memory");
	} else if (is_word(peek(p), "within") || is_word(peek(p), "rbtree") ||
		   is_word(peek(p), "hlist_nulls")) {
		t = &p->toks[p->pos++];
		if (parse_within(p, r, t->text) < 0)
			return -1;
	} else if (is_word(peek(p), "percpu")) {
		p->pos++;
		if (parse_percpu(p, r, list) < 0)
			return -1;
	} else if (is_word(peek(p), "count")) {
		p->pos++;
		if (parse_count(p, r) < 0)
			return -1;
	}
	if (is_word(peek(p), "where")) {
		p->pos++;
		return parse_where(p, r);
	}
	return 0;
}

static int parse_loop(struct ec_parser *p, struct vs_ec_rule *r);

/* A "for" inside R's body (T: the "for"): a nested rule, owned by the
 * item. */
static int add_nested(struct ec_parser *p, struct vs_ec_rule *r,
		      const struct ec_tok *t)
{
	struct vs_ec_erase *it;

	if (p->nids == EC_MAX_NEST)
		return fail_at(p, t, "loops nest more than %d deep",
			       EC_MAX_NEST);
	it = new_item(p, r);
	if (!it)
		return -1;
	it->loop = calloc(1, sizeof(*it->loop));
	if (!it->loop)
		return vs_err_oom(p->err, "out of memory");
	it->loop->module = p->module;
	it->loop->line = t->line;
	p->pos++;
	return parse_loop(p, it->loop);
}

static int parse_body(struct ec_parser *p, struct vs_ec_rule *r)
{
	const struct ec_tok *t;

	for (;;) {
		t = peek(p);
		if (is_word(t, "endfor")) {
			p->pos++;
			break;
		}
		if (is_word(t, "for")) {
			if (add_nested(p, r, t) < 0)
				return -1;
			continue;
		}
		if (!is_word(t, "erase"))
			return fail_at(p, t, "expected 'erase', 'for' or "
				       "'endfor' in the loop of line %d%s%s%s",
				       r->line, t ? ", found '" : "",
				       t ? t->text : "", t ? "'" : "");
		p->pos++;
		if (add_erase(p, r, r->id) < 0)
			return -1;
	}
	if (r->nerases == 0)
		return fail_at(p, t, "the loop of line %d erases nothing",
			       r->line);
	return 0;
}

static int parse_loop(struct ec_parser *p, struct vs_ec_rule *r)
{
	int ret;

	if (parse_loop_head(p, r) < 0)
		return -1;
	if (is_loop_var(p, r->id))
		return fail_at(p, &p->toks[p->pos - 1], "the loop of line %d "
			       "reuses the variable '%s' of a loop around it",
			       r->line, r->id);
	p->ids[p->nids++] = r->id;
	ret = parse_body(p, r);
	p->nids--;
	return ret;
}

static struct vs_ec_rule *new_rule(struct ec_parser *p, int line)
{
	struct vs_erase_config *c = p->c;
	struct vs_ec_rule *nr = realloc(c->rules,
					(c->nrules + 1) * sizeof(*nr));

	if (!nr) {
		vs_err_oom(p->err, "out of memory");
		return NULL;
	}
	c->rules = nr;
	memset(&nr[c->nrules], 0, sizeof(*nr));
	nr[c->nrules].module = p->module;
	nr[c->nrules].line = line;
	return &nr[c->nrules++];
}

static int add_module(struct ec_parser *p, const char *name)
{
	struct vs_erase_config *c = p->c;
	char **nm = realloc(c->modules, (c->nmodules + 1) * sizeof(*nm));

	if (!nm)
		return vs_err_oom(p->err, "out of memory");
	c->modules = nm;
	nm[c->nmodules] = strdup(name);
	if (!nm[c->nmodules])
		return vs_err_oom(p->err, "out of memory");
	p->module = strcmp(name, "vmlinux") == 0 ? NULL : nm[c->nmodules];
	c->nmodules++;
	return 0;
}

static int parse_command(struct ec_parser *p)
{
	const struct ec_tok *t = peek(p);
	struct vs_ec_rule *r;

	if (t->section) {
		p->pos++;
		return add_module(p, t->text);
	}
	if (!is_word(t, "erase") && !is_word(t, "for"))
		return fail_at(p, t, "expected 'erase' or 'for', found '%s'",
			       t->text);
	r = new_rule(p, t->line);
	if (!r)
		return -1;
	p->pos++;
	if (is_word(t, "for"))
		return parse_loop(p, r);
	r->loop = VS_EC_NONE;
	return add_erase(p, r, NULL);
}

static void free_expr(struct vs_ec_expr *e)
{
	for (unsigned i = 0; e->parts && i < EC_MAX_PARTS; i++) {
		free(e->parts[i].name);
		free(e->parts[i].cast);
		free(e->parts[i].cast_module);
	}
	free(e->parts);
	free(e->text);
	free(e->type);
	free(e->type_module);
}

/* What R owns (not R itself); nested loops at most EC_MAX_NEST deep. */
static void free_rule(struct vs_ec_rule *r)
{
	for (unsigned j = 0; j < r->nerases; j++) {
		if (r->erases[j].loop) {
			free_rule(r->erases[j].loop);
			free(r->erases[j].loop);
		}
		free_expr(&r->erases[j].target);
		free_expr(&r->erases[j].size_expr);
	}
	free(r->erases);
	free_expr(&r->list);
	free_expr(&r->count);
	for (unsigned i = 0; i < r->nwhere; i++) {
		free_expr(&r->where[i].expr);
		free(r->where[i].sym);
		free(r->where[i].sym_module);
	}
	free(r->id);
	free(r->via);
	free(r->within_struct);
	free(r->within_member);
}

void vs_erase_config_free(struct vs_erase_config *c)
{
	if (!c)
		return;
	for (unsigned i = 0; i < c->nrules; i++)
		free_rule(&c->rules[i]);
	free(c->rules);
	for (unsigned i = 0; i < c->nmodules; i++)
		free(c->modules[i]);
	free(c->modules);
	free(c);
}

int vs_erase_config_parse(const char *text, size_t len, const char *name,
			  struct vs_erase_config **out,
			  struct vs_error *err)
{
	struct ec_parser p = { .name = name, .err = err };
	int ret = -1;

	*out = NULL;
	p.c = calloc(1, sizeof(*p.c));
	if (!p.c)
		return vs_err_oom(err, "out of memory");
	if (lex(&p, text, len) < 0)
		goto out;
	while (p.pos < p.ntoks)
		if (parse_command(&p) < 0)
			goto out;
	*out = p.c;
	p.c = NULL;
	ret = 0;
out:
	for (size_t i = 0; i < p.ntoks; i++)
		free(p.toks[i].text);
	free(p.toks);
	vs_erase_config_free(p.c);
	return ret;
}

int vs_erase_config_load(const char *path, struct vs_erase_config **out,
			 struct vs_error *err)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;
	int ret;

	*out = NULL;
	if (!f)
		return vs_err_sys(err, "cannot open '%s'", path);
	buf = malloc(EC_MAX_FILE + 1);
	if (!buf) {
		fclose(f);
		return vs_err_oom(err, "out of memory");
	}
	n = fread(buf, 1, EC_MAX_FILE + 1, f);
	if (ferror(f))
		ret = vs_err_sys(err, "cannot read '%s'", path);
	else if (n > EC_MAX_FILE)
		ret = vs_err(err, "'%s' is over %u MiB: not a config file",
			     path, EC_MAX_FILE >> 20);
	else
		ret = vs_erase_config_parse(buf, n, path, out, err);
	free(buf);
	fclose(f);
	return ret;
}
