/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmcoreinfo.c - VMCOREINFO text parsed into typed values
 * (vmcoreinfo.h): a sorted table of KEY=VALUE lines, looked up by key.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmcoreinfo.h"

struct vs_vi_entry {
	const char *key;
	const char *value;
};

struct vs_vmcoreinfo {
	char *text;                  /* copy; keys and values point into it */
	struct vs_vi_entry *entries;
	size_t nr;
};

static int entry_cmp(const void *a, const void *b)
{
	const struct vs_vi_entry *x = a, *y = b;

	return strcmp(x->key, y->key);
}

/* Keys, then line order: of two lines with one key the first wins. */
static int entry_order(const void *a, const void *b)
{
	const struct vs_vi_entry *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->key < y->key ? -1 : x->key > y->key);
}

static size_t count_lines(const char *text, size_t len)
{
	size_t n = 1;

	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n')
			n++;
	return n;
}

/* Split the copy into KEY=VALUE entries; lines without '=' are skipped
 * (old kernels end the note with padding NULs). */
static void split_lines(struct vs_vmcoreinfo *vi, size_t len)
{
	char *p = vi->text, *end = vi->text + len;

	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *eq;

		if (!nl)
			nl = end;
		*nl = '\0';
		eq = strchr(p, '=');
		if (eq && eq != p) {
			*eq = '\0';
			vi->entries[vi->nr].key = p;
			vi->entries[vi->nr].value = eq + 1;
			vi->nr++;
		}
		p = nl + 1;
	}
}

static void drop_duplicates(struct vs_vmcoreinfo *vi)
{
	size_t n = 0;

	for (size_t i = 0; i < vi->nr; i++)
		if (n == 0 || strcmp(vi->entries[n - 1].key, vi->entries[i].key))
			vi->entries[n++] = vi->entries[i];
	vi->nr = n;
}

int vs_vmcoreinfo_parse(struct vs_vmcoreinfo **out, const char *text,
			size_t len, struct vs_error *err)
{
	struct vs_vmcoreinfo *vi;
	size_t n;

	*out = NULL;
	/* The note may carry trailing NULs; the text stops at the first. */
	n = strnlen(text, len);
	vi = calloc(1, sizeof(*vi));
	if (!vi)
		return vs_err_oom(err, "out of memory");
	vi->text = malloc(n + 1);
	vi->entries = calloc(count_lines(text, n), sizeof(*vi->entries));
	if (!vi->text || !vi->entries) {
		vs_vmcoreinfo_free(vi);
		return vs_err_oom(err, "out of memory");
	}
	memcpy(vi->text, text, n);
	vi->text[n] = '\0';
	split_lines(vi, n);
	qsort(vi->entries, vi->nr, sizeof(*vi->entries), entry_order);
	drop_duplicates(vi);
	*out = vi;
	return 0;
}

void vs_vmcoreinfo_free(struct vs_vmcoreinfo *vi)
{
	if (!vi)
		return;
	free(vi->entries);
	free(vi->text);
	free(vi);
}

const char *vs_vi_raw(const struct vs_vmcoreinfo *vi, const char *key)
{
	struct vs_vi_entry k = { key, NULL };
	const struct vs_vi_entry *e;

	if (!vi)
		return NULL;
	e = bsearch(&k, vi->entries, vi->nr, sizeof(k), entry_cmp);
	return e ? e->value : NULL;
}

static int parse_signed(const char *s, int base, int64_t *v)
{
	char *end;
	long long x;

	if (!s || !*s)
		return 0;
	errno = 0;
	x = strtoll(s, &end, base);
	if (errno || *end != '\0')
		return 0;
	*v = x;
	return 1;
}

static int parse_unsigned(const char *s, int base, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (!s || !*s || *s == '-')
		return 0;
	errno = 0;
	x = strtoull(s, &end, base);
	if (errno || *end != '\0')
		return 0;
	*v = x;
	return 1;
}

static const char *lookup(const struct vs_vmcoreinfo *vi, const char *kind,
			  const char *name)
{
	char key[256];

	if (snprintf(key, sizeof(key), "%s(%s)", kind, name) >= (int)sizeof(key))
		return NULL;
	return vs_vi_raw(vi, key);
}

int vs_vi_symbol(const struct vs_vmcoreinfo *vi, const char *name, uint64_t *v)
{
	return parse_unsigned(lookup(vi, "SYMBOL", name), 16, v);
}

int vs_vi_size(const struct vs_vmcoreinfo *vi, const char *type, int64_t *v)
{
	return parse_signed(lookup(vi, "SIZE", type), 10, v);
}

int vs_vi_offset(const struct vs_vmcoreinfo *vi, const char *member, int64_t *v)
{
	return parse_signed(lookup(vi, "OFFSET", member), 10, v);
}

int vs_vi_length(const struct vs_vmcoreinfo *vi, const char *name, int64_t *v)
{
	return parse_signed(lookup(vi, "LENGTH", name), 10, v);
}

int vs_vi_number(const struct vs_vmcoreinfo *vi, const char *name, int64_t *v)
{
	return parse_signed(lookup(vi, "NUMBER", name), 10, v);
}

int vs_vi_unsigned(const struct vs_vmcoreinfo *vi, const char *name,
		   uint64_t *v)
{
	const char *s = lookup(vi, "NUMBER", name);

	if (!s || *s == '+')
		return 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return s[2] != '+' && s[2] != '-' &&
		       parse_unsigned(s + 2, 16, v);
	return parse_unsigned(s, 10, v);
}

int vs_vi_decimal(const struct vs_vmcoreinfo *vi, const char *key, int64_t *v)
{
	return parse_signed(vs_vi_raw(vi, key), 10, v);
}

int vs_vi_hex(const struct vs_vmcoreinfo *vi, const char *key, uint64_t *v)
{
	return parse_unsigned(vs_vi_raw(vi, key), 16, v);
}
