/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * erase_config.h - the rules of --config (makedumpfile.conf(5)) as a tree.
 *
 * The parser only reads text: no symbol is looked up here (erase.c does
 * that against lib/typeinfo.h).  Grammar (doc/erase.md):
 *
 *   file    := { "[" MODULE "]" | command }
 *   command := erase | loop
 *   loop    := "for" ID "in" EXPR [ "via" MEMBER
 *              | "within" STRUCT [":" PATH] | "rbtree" STRUCT ":" PATH
 *              | "hlist_nulls" STRUCT ":" PATH | "percpu"
 *              | "count" (EXPR ["+" NUMBER] | NUMBER) ] [ where ]
 *              { erase | loop } "endfor"       (loops nest 6 deep)
 *   where   := "where" cond { "and" cond }      (at most 4)
 *   cond    := EXPR ("==" | "!=") ("&" SYMBOL ["@" MODULE] | NUMBER)
 *   erase   := "erase" EXPR [ "size" (NUMBER[K|M] | EXPR) | "nullify" ]
 *   EXPR    := NAME[":" TYPE ["@" MODULE]] { "." NAME[":" TYPE ["@" MODULE]
 *              ["*"...]] },
 *              each NAME with an optional "[" INDEX "]" (vmsift's array
 *              indexing)
 *   PATH    := MEMBER { "." MEMBER }   (members of nested structs)
 *
 * vmsift's extensions: TYPE after the first NAME is the type of a global
 * the source cannot tell (BTF), "task_struct", "struct task_struct",
 * "char*"; after a member, a cast of that pointer member ("data[0]:
 * user_key_payload*").  "rbtree" walks a struct rb_root, "percpu" every
 * possible CPU's copy of a per-CPU variable, "where" keeps the loop's
 * elements whose pointer or integer EXPR equals (or not) a global's
 * address or a number ("and": each in turn, the first false one ends
 * the test).  "count EXPR" walks EXPR[0..EXPR) of an array
 * or a pointer whose length is an integer member (plus N: "count
 * ehash_mask+1"; or N alone); "hlist_nulls" walks a struct
 * hlist_nulls_head to its odd end marker; a member cast without "*"
 * ("__crt_ctx:crypto_gcm_ctx") sees an array member's address as that
 * type (a flexible array's bytes); "@MODULE" names
 * another module's type in a cast or symbol in a "where" ("vmlinux": the
 * kernel's).  '#' starts
 * a comment; tokens are separated by blanks and may span lines, as in
 * makedumpfile.  Errors name the file, the line and the column.
 */
#ifndef VMSIFT_ERASE_CONFIG_H
#define VMSIFT_ERASE_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define VS_EC_NO_INDEX UINT64_MAX
#define VS_EC_MAX_WHERE 4            /* conditions of one "where" */

/* One step of an expression: a symbol (the first) or a member. */
struct vs_ec_part {
	char *name;
	uint64_t index;              /* [N], or VS_EC_NO_INDEX */
	char *cast;                  /* a member's ":TYPE", or NULL */
	char *cast_module;           /* its "@MODULE", or NULL: the section's */
};

struct vs_ec_expr {
	char *text;                  /* as written, less ":TYPE" (eraseinfo) */
	char *type;                  /* SYMBOL:TYPE, or NULL */
	char *type_module;           /* SYMBOL:TYPE@MODULE, or NULL: the
					section's types */
	struct vs_ec_part *parts;
	unsigned nparts;
	int line, col;
};

enum vs_ec_size {
	VS_EC_SIZE_TYPE,             /* no size: the type's */
	VS_EC_SIZE_NUM,              /* size N[K|M] */
	VS_EC_SIZE_EXPR,             /* size SYM.member[/N] */
	VS_EC_NULLIFY,
};

struct vs_ec_rule;

/* One item of a rule's body: an erase, or a nested loop (LOOP set, the
 * rest unused). */
struct vs_ec_erase {
	struct vs_ec_rule *loop;     /* a nested "for", owned; or NULL */
	unsigned cmd;                /* the erase's number in the file */
	struct vs_ec_expr target;
	enum vs_ec_size size_kind;
	uint64_t size;               /* VS_EC_SIZE_NUM */
	struct vs_ec_expr size_expr; /* VS_EC_SIZE_EXPR */
	uint64_t size_div;           /* "/N" after it (rounded up), or 1 */
};

enum vs_ec_loop {
	VS_EC_NONE,                  /* a lone erase */
	VS_EC_LOOP,                  /* array, or "via" NEXT (default "next") */
	VS_EC_WITHIN,                /* list_head within STRUCT:MEMBER */
	VS_EC_RBTREE,                /* rb_root rbtree STRUCT:MEMBER */
	VS_EC_PERCPU,                /* SYMBOL percpu: each CPU's copy */
	VS_EC_HLIST_NULLS,           /* hlist_nulls_head hlist_nulls S:M */
};

/* "where EXPR == &SYM" (or "!=", or a number): a loop's filter. */
struct vs_ec_where {
	struct vs_ec_expr expr;      /* parts == NULL: no "where" */
	int negate;                  /* "!=" */
	char *sym;                   /* "&SYM", or NULL: VALUE */
	char *sym_module;            /* "&SYM@MODULE", or NULL: the section's */
	int sym_optional;            /* "&SYM?": absent, the where never holds */
	uint64_t value;
};

struct vs_ec_rule {
	const char *module;          /* the section, NULL: vmlinux */
	enum vs_ec_loop loop;
	char *id;                    /* the iteration variable */
	struct vs_ec_expr list;      /* what "in" names */
	int list_optional;           /* "in SYM?...": a kernel without SYM
					runs the loop zero times */
	int counted;                 /* a "count" */
	struct vs_ec_expr count;     /* "count EXPR": parts == NULL: N alone */
	uint64_t count_add;          /* "+N" after EXPR, or N alone */
	char *via;                   /* VS_EC_LOOP: NULL for arrays/default */
	char *within_struct, *within_member;  /* also rbtree's, hlist_nulls';
					       * the member a PATH */
	struct vs_ec_where where[VS_EC_MAX_WHERE];  /* all must hold, in order */
	unsigned nwhere;
	struct vs_ec_erase *erases;
	unsigned nerases;
	int line;
};

struct vs_erase_config {
	struct vs_ec_rule *rules;
	unsigned nrules;
	unsigned ncmds;              /* erase commands, nested ones too */
	char **modules;              /* section names, owned */
	unsigned nmodules;
};

/* Parse LEN bytes of TEXT (NAME for messages) into *OUT. */
int vs_erase_config_parse(const char *text, size_t len, const char *name,
			  struct vs_erase_config **out, struct vs_error *err);
/* The same from the file PATH. */
int vs_erase_config_load(const char *path, struct vs_erase_config **out,
			 struct vs_error *err);
void vs_erase_config_free(struct vs_erase_config *c);

#endif
