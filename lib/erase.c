/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * erase.c - --config rules resolved to physical pieces and applied to
 * pages (erase.h).
 *
 * Evaluation follows makedumpfile.conf(5) as makedumpfile reads it, so
 * that the same config erases the same bytes:
 *  - an expression SYM.a.b walks members; a pointer on the way is
 *    followed (one level), a NULL one ends the rule quietly;
 *  - the end of the walk is erased: for a pointer the data it points to
 *    (sizeof the pointee; for char * its strlen, at most 1024), for an
 *    array all of it (elements x the base type's size, pointer arrays x
 *    the pointer size), else the object;
 *  - "nullify" zeroes a pointer; "size N" and "size EXPR" set the length.
 * Resolved ranges are kept once per start address (the longest wins, the
 * first rule keeps the eraseinfo line), translated page by page and cut
 * into pieces that never cross a page, sorted by physical address.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "erase.h"
#include "util.h"

#define EV_MAX_DEPTH 32              /* pointer/array levels of one type */
#define EV_STRLEN_MAX 1024           /* makedumpfile's bound for char * */
#define EV_MAX_ITER (1ULL << 22)
#define EV_MAX_PIECES (1u << 22)
#define EV_MAX_SIZE (1ULL << 30)     /* one range at most */
#define EV_FILL 'X'
#define EV_RB_MAX_DEPTH 96           /* a red-black tree of 2^22 nodes: 44 */
#define EV_MAX_CPUS 65536            /* nr_cpu_ids at most (NR_CPUS 8192) */
#define EV_MAX_NEST 6                /* loops inside loops (the parser's) */

/* A type as makedumpfile's rules see it: the flags met on the way from
 * the declared type to its base (pointers, arrays), and the base. */
struct ev_type {
	const struct vs_typeinfo *ti;  /* the source of the ids below */
	uint64_t id;                 /* the declared type */
	int ptr, array;
	uint64_t nelem;              /* the outermost array's length */
	uint64_t base;               /* 0: void */
	const struct vs_typeinfo *bti; /* the source of BASE: TI's, or where
					a declaration was completed */
	int incomplete;              /* BASE only declared, not completed */
	enum vs_ti_kind kind;        /* the base's */
	uint64_t size;               /* the base's, 0 for void */
	const char *name;            /* the base's, "void", or NULL */
};

/* One value of an expression (makedumpfile's config_entry). */
struct ev_val {
	uint64_t sym_addr;           /* where the object is */
	uint64_t vaddr;              /* the object, or what it points to */
	uint64_t size;
	struct ev_type t;
	int null;                    /* a NULL pointer on the way */
	uint64_t parent_addr;        /* the previous step's sym_addr */
	struct ev_type parent;
};

struct ev_inst {
	unsigned cmd;                /* the erase command (global index) */
	uint64_t vaddr, paddr, size;
	int nullify, dropped;
	size_t seq;                  /* creation order */
};

struct ev_piece {
	uint64_t paddr;
	uint32_t len;
	uint32_t inst;
};

struct vs_erase {
	unsigned nparts;
	uint64_t page_size;
	char **cmd_text;             /* per erase command */
	unsigned ncmds;
	struct ev_inst *inst;
	size_t ninst, inst_cap;
	struct ev_piece *pieces;
	size_t npieces;
	_Atomic uint64_t *applied;   /* [part * ninst + inst] */
	void *applied_mem;           /* the same, to free */
	atomic_uchar *piece_done;    /* [part * npieces + piece]: counted */
	void *piece_done_mem;
	unsigned skipped;
	char *skips;                 /* each skipped rule's message, a line
					each; NULL when none */
	size_t skips_len;
};

/* An enclosing loop's variable while a nested loop runs. */
struct ev_outer {
	const char *var;
	struct ev_val val;
	uint64_t where_value[VS_EC_MAX_WHERE];
	int where_never;
};

struct ev {
	const struct vs_typeinfo *ti;  /* the rule's section's source */
	const struct vs_typeinfo *kti; /* the kernel's */
	const struct vs_erase_mem *mem;
	const struct vs_erase_opts *opts;
	struct vs_erase *e;
	struct vs_error *err;
	const char *var;             /* the loop's variable */
	struct ev_val var_val;
	struct ev_outer outer[EV_MAX_NEST];  /* the loops around it */
	unsigned nouter;
	int line;
	uint64_t where_value[VS_EC_MAX_WHERE];  /* the "where" right-hand sides */
	int where_never;             /* "&SYM@MODULE" of a module not loaded */
};

/* --- types -------------------------------------------------------------- */

static int ti_type(struct ev *ev, const struct vs_typeinfo *ti, uint64_t id,
		   struct vs_ti_type *out)
{
	return ti->ops->type(ti->ctx, id, out, ev->err);
}

/* A struct or union that source T->bti only declares ("struct
 * crypto_aes_ctx;"): in a [module] section, its definition in the vmlinux
 * or another loaded module (vs_erase_modules.complete), as makedumpfile
 * looks a type up in the module and then in the kernel.  Without one it
 * stays incomplete: no size, no members. */
static int complete_base(struct ev *ev, struct ev_type *t)
{
	const struct vs_erase_modules *m = ev->opts->modules;
	const struct vs_typeinfo *ti;
	struct vs_ti_type ty;
	uint64_t id;
	int ret;

	if (!m || !m->complete || !t->name || t->bti == ev->kti)
		return 0;
	ret = m->complete(m->ctx, t->bti, t->kind, t->name, &ti, &id, ev->err);
	if (ret != 0)
		return ret < 0 ? -1 : 0;
	if (ti_type(ev, ti, id, &ty) < 0)
		return -1;
	t->bti = ti;
	t->base = id;
	t->size = ty.size;
	t->incomplete = 0;
	return 0;
}

/* Type ID of source TI as the rules see it. */
static int describe_in(struct ev *ev, const struct vs_typeinfo *ti,
		       uint64_t id, struct ev_type *t)
{
	struct vs_ti_type ty;

	memset(t, 0, sizeof(*t));
	t->ti = ti;
	t->id = id;
	for (int depth = 0; id && depth < EV_MAX_DEPTH; depth++) {
		if (ti_type(ev, ti, id, &ty) < 0)
			return -1;
		if (ty.kind == VS_TI_PTR) {
			t->ptr = 1;
		} else if (ty.kind == VS_TI_ARRAY) {
			if (!t->array)
				t->nelem = ty.nelem;
			t->array = 1;
		} else if (ty.kind == VS_TI_FUNC) {
			/* makedumpfile walks on to the return type: a
			 * function pointer is seen as a pointer to it */
		} else {
			t->base = id;
			t->bti = ti;
			t->kind = ty.kind;
			t->size = ty.kind == VS_TI_OTHER && !ty.size ? 0 : ty.size;
			t->name = ty.name;
			t->incomplete = ty.incomplete;
			return t->incomplete ? complete_base(ev, t) : 0;
		}
		id = ty.target;
	}
	if (id)
		return vs_err(ev->err, "type 0x%llx nests more than %d "
			      "pointers or arrays", (unsigned long long)t->id,
			      EV_MAX_DEPTH);
	t->kind = VS_TI_OTHER;   /* void */
	t->name = "void";
	return 0;
}

/* A type of the rule's section's source. */
static int describe(struct ev *ev, uint64_t id, struct ev_type *t)
{
	return describe_in(ev, ev->ti, id, t);
}

static int is_char(const struct ev_type *t)
{
	return t->kind == VS_TI_INT && t->name && strcmp(t->name, "char") == 0;
}

static int is_list_head(const struct ev_type *t)
{
	return !t->ptr && !t->array && t->kind == VS_TI_STRUCT && t->name &&
	       strcmp(t->name, "list_head") == 0;
}

static int is_void(const struct ev_type *t)
{
	return t->base == 0 || (t->kind == VS_TI_OTHER && t->size == 0);
}

/* --- memory ------------------------------------------------------------- */

static int read_ptr(struct ev *ev, uint64_t vaddr, uint64_t *out)
{
	uint8_t b[8];
	unsigned n = ev->mem->ptr_size;

	if (ev->mem->read(ev->mem->ctx, vaddr, b, n, ev->err) < 0)
		return vs_err_ctx(ev->err, "pointer at 0x%llx",
				  (unsigned long long)vaddr);
	*out = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned k = ev->mem->big_endian ? i : n - 1 - i;

		*out = (*out << 8) | b[k];
	}
	return 0;
}

static int read_uint(struct ev *ev, uint64_t vaddr, unsigned n,
		     uint64_t *out)
{
	uint8_t b[8];

	if (ev->mem->read(ev->mem->ctx, vaddr, b, n, ev->err) < 0)
		return vs_err_ctx(ev->err, "value at 0x%llx",
				  (unsigned long long)vaddr);
	*out = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned k = ev->mem->big_endian ? i : n - 1 - i;

		*out = (*out << 8) | b[k];
	}
	return 0;
}

/* makedumpfile reads 1024 bytes at once: unreadable means 0. */
static uint64_t str_len(struct ev *ev, uint64_t vaddr)
{
	char buf[EV_STRLEN_MAX + 1];
	struct vs_error ignored;

	if (!vaddr || ev->mem->read(ev->mem->ctx, vaddr, buf, EV_STRLEN_MAX,
				    &ignored) < 0)
		return 0;
	buf[EV_STRLEN_MAX] = '\0';
	return strlen(buf);
}

/* --- expressions -------------------------------------------------------- */

/* The value at V.sym_addr seen through V.t: follow a pointer. */
static int finish(struct ev *ev, struct ev_val *v)
{
	v->vaddr = v->sym_addr;
	v->size = v->t.size;
	if (v->t.ptr && !v->t.array) {
		if (read_ptr(ev, v->sym_addr, &v->vaddr) < 0)
			return -1;
		if (is_void(&v->t))
			v->size = 0;
		else if (is_char(&v->t))
			v->size = str_len(ev, v->vaddr);
	}
	return 0;
}

static int apply_index(struct ev *ev, struct ev_val *v, uint64_t index,
		       const char *name)
{
	const struct vs_typeinfo *ti = v->t.ti;
	struct vs_ti_type ty;
	uint64_t id = v->t.id;

	if (index == VS_EC_NO_INDEX)
		return finish(ev, v);
	if (ti_type(ev, ti, id, &ty) < 0)
		return -1;
	if (ty.kind != VS_TI_ARRAY)
		return vs_err(ev->err, "'%s' is not an array: [%llu] needs one",
			      name, (unsigned long long)index);
	if (ty.nelem && index >= ty.nelem)
		return vs_err(ev->err, "index %llu is past the end of '%s' "
			      "(%llu elements)", (unsigned long long)index,
			      name, (unsigned long long)ty.nelem);
	if (describe_in(ev, ti, ty.target, &v->t) < 0 ||
	    ti_type(ev, ti, ty.target, &ty) < 0)
		return -1;
	v->sym_addr += index * ty.size;
	return finish(ev, v);
}

static int module_ti(struct ev *ev, const char *name,
		     const struct vs_typeinfo **ti);

/* The source of a global's ":TYPE": the section's, or "@MODULE"'s. */
static int type_source(struct ev *ev, const struct vs_ec_expr *x,
		       const struct vs_typeinfo **tti)
{
	int ret;

	*tti = ev->ti;
	if (!x->type_module)
		return 0;
	ret = module_ti(ev, x->type_module, tti);
	if (ret > 0)
		return vs_err(ev->err, "'%s:%s@%s': no module '%s' loaded in "
			      "the dump", x->parts[0].name, x->type,
			      x->type_module, x->type_module);
	return ret;
}

/* The type of the global X starts with: *TYPE of source *TTI. */
static int type_of_symbol(struct ev *ev, const struct vs_ec_expr *x,
			  const struct vs_typeinfo **tti, uint64_t *type)
{
	const struct vs_typeinfo_ops *ops = ev->ti->ops;
	const char *sym = x->parts[0].name;
	struct vs_error derr;
	uint64_t declared;
	struct ev_type a, b;

	*tti = ev->ti;
	if (!x->type) {
		if (ops->symbol_type(ev->ti->ctx, sym, type, ev->err) == 0)
			return 0;
		return vs_err_ctx(ev->err, "no type for '%s' (name it: "
				  "%s:TYPE, e.g. %s:task_struct or %s:char*)",
				  sym, sym, sym, sym);
	}
	if (type_source(ev, x, tti) < 0 ||
	    (*tti)->ops->type_by_name((*tti)->ctx, x->type, type, ev->err) < 0)
		return vs_err_ctx(ev->err, "type '%s' of '%s'", x->type, sym);
	/* A source that knows the declared type (DWARF) checks :TYPE. */
	if (ops->symbol_type(ev->ti->ctx, sym, &declared, &derr) < 0)
		return 0;
	if (describe(ev, declared, &a) < 0 ||
	    describe_in(ev, *tti, *type, &b) < 0)
		return -1;
	/* an array may be named by its element's type (boot_command_line:char
	 * with a size), as C lets it decay */
	if (a.ptr != b.ptr || (b.array && !a.array) || a.kind != b.kind ||
	    a.size != b.size || (a.name && b.name && strcmp(a.name, b.name)))
		return vs_err(ev->err, "'%s:%s' does not match the declared "
			      "type of '%s' (%s%s%s)", sym, x->type, sym,
			      a.name ? a.name : "?", a.ptr ? " *" : "",
			      a.array ? " []" : "");
	return 0;
}

/* The value of loop variable NAME, the innermost first: 1 when found. */
static int loop_var(const struct ev *ev, const char *name, struct ev_val *v)
{
	if (ev->var && strcmp(name, ev->var) == 0) {
		*v = ev->var_val;
		return 1;
	}
	for (unsigned i = ev->nouter; i-- > 0;)
		if (ev->outer[i].var && strcmp(name, ev->outer[i].var) == 0) {
			*v = ev->outer[i].val;
			return 1;
		}
	return 0;
}

/* The source of module NAME ("vmlinux": the kernel's) in *TI; 1 when the
 * dump has no such module loaded. */
static int module_ti(struct ev *ev, const char *name,
		     const struct vs_typeinfo **ti)
{
	const struct vs_erase_modules *m = ev->opts->modules;
	int ret;

	if (strcmp(name, "vmlinux") == 0) {
		*ti = ev->kti;
		return 0;
	}
	if (!m)
		return vs_err(ev->err, "'@%s': no source of module symbols",
			      name);
	ret = m->source(m->ctx, name, ti, ev->err);
	if (ret < 0)
		return vs_err_ctx(ev->err, "module '%s'", name);
	return ret;
}

static int resolve_symbol(struct ev *ev, const struct vs_ec_expr *x,
			  struct ev_val *v)
{
	const char *sym = x->parts[0].name;
	const struct vs_typeinfo *tti;
	uint64_t type;

	memset(v, 0, sizeof(*v));
	if (loop_var(ev, sym, v)) {
		if (x->parts[0].index != VS_EC_NO_INDEX)
			return vs_err(ev->err, "the loop's variable '%s' takes "
				      "no index", sym);
		return 0;
	}
	if (ev->ti->ops->symbol(ev->ti->ctx, sym, &v->sym_addr, ev->err) < 0)
		return -1;
	if (type_of_symbol(ev, x, &tti, &type) < 0 ||
	    describe_in(ev, tti, type, &v->t) < 0)
		return -1;
	return apply_index(ev, v, x->parts[0].index, sym);
}

/* "member:TYPE" (no '*'): an array member, a flexible one as struct
 * crypto_tfm's __crt_ctx, seen at its address as a TYPE (its bytes, not
 * a pointer read from them). */
static int see_as(struct ev *ev, struct ev_val *v,
		  const struct vs_ec_part *part, const struct ev_type *c)
{
	if (!v->t.array || part->index != VS_EC_NO_INDEX)
		return vs_err(ev->err, "'%s:%s': only an array member (a "
			      "flexible array) is seen as a %s; a pointer "
			      "member is cast with '%s*'", part->name,
			      part->cast, part->cast, part->cast);
	v->t = *c;
	v->vaddr = v->sym_addr;
	v->size = c->size;
	return 0;
}

/* "member:TYPE*": the pointer (or pointer-sized integer) member read as
 * a pointer to TYPE. */
static int apply_cast(struct ev *ev, struct ev_val *v,
		      const struct vs_ec_part *part)
{
	const struct ev_type *o = &v->t;
	const struct vs_typeinfo *ti = ev->ti;
	struct ev_type c;
	uint64_t id;
	int ret = part->cast_module ? module_ti(ev, part->cast_module, &ti)
				    : 0;

	if (ret > 0)
		return vs_err(ev->err, "'%s:%s@%s': no module '%s' loaded in "
			      "the dump", part->name, part->cast,
			      part->cast_module, part->cast_module);
	if (ret < 0 ||
	    ti->ops->type_by_name(ti->ctx, part->cast, &id, ev->err) < 0 ||
	    describe_in(ev, ti, id, &c) < 0)
		return vs_err_ctx(ev->err, "type '%s' of '%s'", part->cast,
				  part->name);
	if (c.array)
		return vs_err(ev->err, "'%s:%s': a member is cast to a struct "
			      "or a pointer type, not an array", part->name,
			      part->cast);
	if (!c.ptr)
		return see_as(ev, v, part, &c);
	if (o->array || !(o->ptr || (o->kind == VS_TI_INT &&
				     o->size == ev->mem->ptr_size)))
		return vs_err(ev->err, "'%s:%s': '%s' is not a pointer",
			      part->name, part->cast, part->name);
	v->t = c;
	return finish(ev, v);
}

/* T, a struct or union that stayed a declaration (complete_base()):
 * no size, no members. */
static int undefined(struct ev *ev, const struct ev_type *t)
{
	return vs_err(ev->err, "%s '%s' is only declared, and defined in "
		      "neither the vmlinux nor another loaded module",
		      t->kind == VS_TI_UNION ? "union" : "struct",
		      t->name ? t->name : "?");
}

static int step_member(struct ev *ev, struct ev_val *v,
		       const struct vs_ec_part *part)
{
	const struct vs_typeinfo *ti = v->t.bti;
	uint64_t off, mtype;

	if (v->t.kind != VS_TI_STRUCT && v->t.kind != VS_TI_UNION)
		return vs_err(ev->err, "'%s' is not a struct or union: no "
			      "member '%s'", v->t.name ? v->t.name : "?",
			      part->name);
	if (v->t.incomplete) {
		undefined(ev, &v->t);
		return vs_err_ctx(ev->err, "no member '%s'", part->name);
	}
	if (ti->ops->member(ti->ctx, v->t.base, part->name, &off, &mtype,
			    ev->err) < 0)
		return -1;
	v->parent_addr = v->sym_addr;
	v->parent = v->t;
	v->sym_addr = v->vaddr + off;
	if (describe_in(ev, ti, mtype, &v->t) < 0)
		return -1;
	if (apply_index(ev, v, part->index, part->name) < 0)
		return -1;
	return part->cast ? apply_cast(ev, v, part) : 0;
}

/* Evaluate X into V; V->null when a NULL pointer ends the walk. */
static int resolve(struct ev *ev, const struct vs_ec_expr *x,
		   struct ev_val *v)
{
	if (resolve_symbol(ev, x, v) < 0)
		return vs_err_ctx(ev->err, "'%s'", x->text);
	for (unsigned i = 1; i < x->nparts; i++) {
		if (!v->vaddr) {
			v->null = 1;
			return 0;
		}
		if (step_member(ev, v, &x->parts[i]) < 0)
			return vs_err_ctx(ev->err, "'%s'", x->text);
	}
	return 0;
}

/* The bytes of "size EXPR[/N]" (ER's): EXPR's value, an integer of at
 * most 8 bytes, divided by N rounded up; 0 or negative: nothing. */
static int eval_size(struct ev *ev, const struct vs_ec_erase *er,
		     uint64_t *size)
{
	const struct vs_ec_expr *x = &er->size_expr;
	struct ev_val v;
	uint64_t n = 0;

	*size = 0;
	if (resolve(ev, x, &v) < 0)
		return -1;
	if (v.null)
		return 0;
	if (v.t.array || v.t.kind != VS_TI_INT || v.t.size == 0 ||
	    v.t.size > 8)
		return vs_err(ev->err, "size '%s' is not an integer", x->text);
	if (read_uint(ev, v.vaddr, (unsigned)v.t.size, &n) < 0)
		return vs_err_ctx(ev->err, "size '%s'", x->text);
	if ((int64_t)n <= 0)
		return 0;
	if (er->size_div > 1)
		n = n / er->size_div + (n % er->size_div != 0);
	if (n > EV_MAX_SIZE)
		return vs_err(ev->err, "size '%s' is %llu bytes: implausible",
			      x->text, (unsigned long long)n);
	*size = n;
	return 0;
}

/* --- ranges ------------------------------------------------------------- */

static int add_inst(struct ev *ev, unsigned cmd, uint64_t vaddr,
		    uint64_t size, int nullify)
{
	struct vs_erase *e = ev->e;
	struct ev_inst *in;
	uint64_t span;

	if (e->ninst == e->inst_cap) {
		size_t cap = e->inst_cap ? 2 * e->inst_cap : 64;
		struct ev_inst *n = realloc(e->inst, cap * sizeof(*n));

		if (!n)
			return vs_err_oom(ev->err, "out of memory");
		e->inst = n;
		e->inst_cap = cap;
	}
	in = &e->inst[e->ninst];
	memset(in, 0, sizeof(*in));
	if (ev->mem->vtop(ev->mem->ctx, vaddr, &in->paddr, &span, ev->err) < 0)
		return vs_err_ctx(ev->err, "cannot translate 0x%llx",
				  (unsigned long long)vaddr);
	in->cmd = cmd;
	in->vaddr = vaddr;
	in->size = size;
	in->nullify = nullify;
	in->seq = e->ninst++;
	return 0;
}

static int eval_erase(struct ev *ev, const struct vs_ec_erase *er)
{
	unsigned cmd = er->cmd;
	struct ev_val v;
	uint64_t size;

	if (resolve(ev, &er->target, &v) < 0)
		return -1;
	if (v.null)
		return 0;
	if (er->size_kind == VS_EC_NULLIFY) {
		/* makedumpfile nullifies pointers only */
		if (!v.t.ptr || !v.sym_addr)
			return 0;
		return add_inst(ev, cmd, v.sym_addr, ev->mem->ptr_size, 1);
	}
	if (er->size_kind == VS_EC_SIZE_NUM)
		size = er->size;
	else if (er->size_kind == VS_EC_SIZE_EXPR) {
		if (eval_size(ev, er, &size) < 0)
			return -1;
	} else if (v.t.incomplete && !v.t.array) {
		if (!v.vaddr)
			return 0;
		undefined(ev, &v.t);
		return vs_err_ctx(ev->err, "'%s': no size (give 'size N')",
				  er->target.text);
	} else if (v.t.array)
		size = v.t.nelem * (v.t.ptr ? ev->mem->ptr_size : v.t.size);
	else
		size = v.size;
	if (!v.vaddr || !size)
		return 0;
	if (size > EV_MAX_SIZE)
		return vs_err(ev->err, "'%s' is %llu bytes: implausible",
			      er->target.text, (unsigned long long)size);
	return add_inst(ev, cmd, v.vaddr, size, 0);
}

/* Condition I of the rule's "where" on the loop's current element:
 * *HOLDS.  A NULL pointer on the way makes it false. */
static int where_holds(struct ev *ev, const struct vs_ec_rule *r,
		       unsigned i, int *holds)
{
	const struct vs_ec_where *w = &r->where[i];
	struct ev_val v;
	uint64_t val;

	*holds = 0;
	if (resolve(ev, &w->expr, &v) < 0)
		return vs_err_ctx(ev->err, "'where'");
	if (v.null)
		return 0;
	if (v.t.ptr && !v.t.array)
		val = v.vaddr;
	else if (!v.t.ptr && !v.t.array && v.t.kind == VS_TI_INT &&
		 v.t.size && v.t.size <= 8) {
		if (read_uint(ev, v.vaddr, (unsigned)v.t.size, &val) < 0)
			return vs_err_ctx(ev->err, "'where %s'", w->expr.text);
	} else
		return vs_err(ev->err, "'where %s': not a pointer or an "
			      "integer", w->expr.text);
	*holds = (val == ev->where_value[i]) != w->negate;
	return 0;
}

static int eval_rule(struct ev *ev, const struct vs_ec_rule *r);

/* A loop inside the current one: the current variable, its value and
 * its "where" are kept on the stack while it runs. */
static int eval_nested(struct ev *ev, const struct vs_ec_rule *r)
{
	struct ev_outer *o;
	int ret;

	if (ev->nouter == EV_MAX_NEST)
		return vs_err(ev->err, "loops nest more than %d deep",
			      EV_MAX_NEST);
	o = &ev->outer[ev->nouter++];
	o->var = ev->var;
	o->val = ev->var_val;
	memcpy(o->where_value, ev->where_value, sizeof(o->where_value));
	o->where_never = ev->where_never;
	ret = eval_rule(ev, r);
	if (ret < 0)
		vs_err_ctx(ev->err, "the loop at line %d", r->line);
	ev->var = o->var;
	ev->var_val = o->val;
	memcpy(ev->where_value, o->where_value, sizeof(ev->where_value));
	ev->where_never = o->where_never;
	ev->nouter--;
	return ret;
}

static int run_body(struct ev *ev, const struct vs_ec_rule *r)
{
	int holds;

	if (ev->where_never)
		return 0;
	for (unsigned i = 0; i < r->nwhere; i++) {
		if (where_holds(ev, r, i, &holds) < 0)
			return -1;
		if (!holds)
			return 0;
	}
	for (unsigned i = 0; i < r->nerases; i++) {
		const struct vs_ec_erase *er = &r->erases[i];

		if (er->loop ? eval_nested(ev, er->loop) < 0
			     : eval_erase(ev, er) < 0)
			return -1;
	}
	return 0;
}

/* --- loops -------------------------------------------------------------- */

/* Brent's cycle check over a walk's nodes. */
struct ev_walk {
	uint64_t tortoise, power, lam, steps;
};

static int walk_step(struct ev *ev, struct ev_walk *w, uint64_t node,
		     const struct vs_ec_rule *r)
{
	uint64_t max = ev->opts->max_iter ? ev->opts->max_iter : EV_MAX_ITER;

	if (node == w->tortoise)
		return vs_err(ev->err, "the list of '%s' loops back to 0x%llx "
			      "after %llu entries without returning to its "
			      "start", r->list.text,
			      (unsigned long long)node,
			      (unsigned long long)w->steps);
	if (++w->steps > max)
		return vs_err(ev->err, "the list of '%s' does not end after "
			      "%llu entries", r->list.text,
			      (unsigned long long)max);
	if (++w->lam == w->power) {
		w->tortoise = node;
		w->power *= 2;
		w->lam = 0;
	}
	return 0;
}

static int loop_array(struct ev *ev, const struct vs_ec_rule *r,
		      const struct ev_val *l)
{
	uint64_t stride = l->t.ptr ? ev->mem->ptr_size : l->t.size;

	if (!stride && l->t.nelem)
		return vs_err(ev->err, "'%s': elements of no size (void?)",
			      r->list.text);
	for (uint64_t i = 0; i < l->t.nelem; i++) {
		struct ev_val *v = &ev->var_val;
		uint64_t slot = l->vaddr + i * stride;

		memset(v, 0, sizeof(*v));
		v->t = l->t;
		v->t.array = 0;
		v->sym_addr = slot;
		v->vaddr = slot;
		v->size = l->t.size;
		if (l->t.ptr) {
			if (read_ptr(ev, slot, &v->vaddr) < 0)
				return -1;
			if (!v->vaddr)
				continue;
			if (is_char(&l->t))
				v->size = str_len(ev, v->vaddr);
		}
		if (run_body(ev, r) < 0)
			return -1;
	}
	return 0;
}

static int via_member(struct ev *ev, const struct vs_ec_rule *r,
		      const struct ev_type *t, uint64_t *off)
{
	const char *via = r->via ? r->via : "next";
	struct ev_type mt;
	uint64_t mtype;

	if (t->bti->ops->member(t->bti->ctx, t->base, via, off, &mtype,
				ev->err) < 0 || describe_in(ev, t->bti, mtype, &mt) < 0)
		return vs_err_ctx(ev->err, "'via %s'", via);
	if (!mt.ptr || mt.array || mt.base != t->base)
		if (!mt.ptr || !mt.name || !t->name ||
		    strcmp(mt.name, t->name) != 0)
			return vs_err(ev->err, "'via %s': the member does not "
				      "point to a %s", via,
				      t->name ? t->name : "struct");
	return 0;
}

static int loop_via(struct ev *ev, const struct vs_ec_rule *r,
		    const struct ev_val *l)
{
	struct ev_walk w = { .tortoise = l->vaddr, .power = 1 };
	uint64_t off, node = l->vaddr, sym = l->sym_addr;

	if (l->t.kind != VS_TI_STRUCT)
		return vs_err(ev->err, "'%s' is not an array, a struct or a "
			      "pointer to one", r->list.text);
	if (via_member(ev, r, &l->t, &off) < 0)
		return -1;
	while (node) {
		struct ev_val *v = &ev->var_val;

		memset(v, 0, sizeof(*v));
		v->t = l->t;
		v->sym_addr = sym;
		v->vaddr = node;
		v->size = l->t.size;
		if (run_body(ev, r) < 0)
			return -1;
		sym = node + off;
		if (read_ptr(ev, sym, &node) < 0)
			return -1;
		if (node == l->vaddr)
			break;
		if (node && walk_step(ev, &w, node, r) < 0)
			return -1;
	}
	return 0;
}

/* The list's head: a list_head, or HEAD.next of one. */
static int list_head_of(struct ev *ev, const struct vs_ec_rule *r,
			const struct ev_val *l, uint64_t *head)
{
	if (is_list_head(&l->t)) {
		*head = l->sym_addr;
		return 0;
	}
	if (r->list.nparts > 1 && is_list_head(&l->parent)) {
		*head = l->parent_addr;
		return 0;
	}
	return vs_err(ev->err, "'%s' is not a struct list_head (for ... "
		      "within)", r->list.text);
}

/* The offset *OFF and type *MT of PATH ("a" or "a.b.c": members of
 * nested structs or unions, not through pointers) in ST. */
static int member_path(struct ev *ev, const struct ev_type *st,
		       const char *path, uint64_t *off, struct ev_type *mt)
{
	const struct vs_typeinfo *ti = st->bti;
	uint64_t type = st->base, mtype;
	char name[VS_ERR_MAX];
	struct ev_type t;
	uint64_t o;

	*off = 0;
	for (;;) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);

		if (n >= sizeof(name))
			return vs_err(ev->err, "member '%.40s...' is too long",
				      path);
		memcpy(name, path, n);
		name[n] = '\0';
		if (ti->ops->member(ti->ctx, type, name, &o, &mtype,
				    ev->err) < 0 ||
		    describe_in(ev, ti, mtype, &t) < 0)
			return -1;
		*off += o;
		if (!dot) {
			*mt = t;
			return 0;
		}
		if (t.ptr || t.array || (t.kind != VS_TI_STRUCT &&
					 t.kind != VS_TI_UNION))
			return vs_err(ev->err, "'%s' in a member path is not a "
				      "struct or union", name);
		ti = t.bti;
		type = t.base;
		path = dot + 1;
	}
}

static int within_type(struct ev *ev, const struct vs_ec_rule *r,
		       struct ev_type *st, uint64_t *off)
{
	struct ev_type mt;
	uint64_t id;

	if (ev->ti->ops->type_by_name(ev->ti->ctx, r->within_struct, &id,
				      ev->err) < 0 || describe(ev, id, st) < 0)
		return vs_err_ctx(ev->err, "'within %s'", r->within_struct);
	if (st->ptr || st->array || st->kind != VS_TI_STRUCT)
		return vs_err(ev->err, "'within %s': not a struct",
			      r->within_struct);
	if (member_path(ev, st, r->within_member, off, &mt) < 0)
		return vs_err_ctx(ev->err, "'within %s:%s'", r->within_struct,
				  r->within_member);
	if (!is_list_head(&mt))
		return vs_err(ev->err, "'within %s:%s': the member is not a "
			      "struct list_head", r->within_struct,
			      r->within_member);
	return 0;
}

static int loop_within(struct ev *ev, const struct vs_ec_rule *r,
		       const struct ev_val *l)
{
	struct ev_walk w = { .power = 1 };
	struct ev_type st;
	uint64_t head = 0, off = 0, node = 0;

	if (list_head_of(ev, r, l, &head) < 0 ||
	    within_type(ev, r, &st, &off) < 0)
		return -1;
	w.tortoise = head;
	/* list_head.next is its first member in every kernel */
	if (read_ptr(ev, head, &node) < 0)
		return -1;
	while (node != head) {
		struct ev_val *v = &ev->var_val;

		if (!node)
			return vs_err(ev->err, "the list of '%s' breaks: a NULL "
				      "next pointer", r->list.text);
		memset(v, 0, sizeof(*v));
		v->t = st;
		v->vaddr = node - off;
		v->size = st.size;
		if (run_body(ev, r) < 0)
			return -1;
		if (read_ptr(ev, node, &node) < 0)
			return -1;
		if (node != head && walk_step(ev, &w, node, r) < 0)
			return -1;
	}
	return 0;
}

/* The rbtree's layout: the enclosing struct *ST, the offset of its
 * rb_node member, and rb_node's rb_left and rb_right. */
struct ev_rb {
	struct ev_type st;
	uint64_t member, left, right;
};

static int rb_member(struct ev *ev, const struct ev_type *t,
		     const char *name, uint64_t *off)
{
	uint64_t mtype;

	return t->bti->ops->member(t->bti->ctx, t->base, name, off, &mtype,
				   ev->err);
}

/* The walk's STRUCT (*ST) and the offset *MEMBER of its PATH, which must
 * be a struct NODE (its type in *MT): "rbtree" and "hlist_nulls". */
static int node_layout(struct ev *ev, const struct vs_ec_rule *r,
		       const char *kw, const char *node, struct ev_type *st,
		       uint64_t *member, struct ev_type *mt)
{
	uint64_t id;

	if (ev->ti->ops->type_by_name(ev->ti->ctx, r->within_struct, &id,
				      ev->err) < 0 ||
	    describe(ev, id, st) < 0)
		return vs_err_ctx(ev->err, "'%s %s'", kw, r->within_struct);
	if (st->ptr || st->array || st->kind != VS_TI_STRUCT)
		return vs_err(ev->err, "'%s %s': not a struct", kw,
			      r->within_struct);
	if (member_path(ev, st, r->within_member, member, mt) < 0)
		return vs_err_ctx(ev->err, "'%s %s:%s'", kw, r->within_struct,
				  r->within_member);
	if (mt->ptr || mt->array || !mt->name || strcmp(mt->name, node))
		return vs_err(ev->err, "'%s %s:%s': the member is not a "
			      "struct %s", kw, r->within_struct,
			      r->within_member, node);
	return 0;
}

static int rb_layout(struct ev *ev, const struct vs_ec_rule *r,
		     struct ev_rb *rb)
{
	struct ev_type node;

	if (node_layout(ev, r, "rbtree", "rb_node", &rb->st, &rb->member,
			&node) < 0)
		return -1;
	if (rb_member(ev, &node, "rb_left", &rb->left) < 0 ||
	    rb_member(ev, &node, "rb_right", &rb->right) < 0)
		return vs_err_ctx(ev->err, "struct rb_node");
	return 0;
}

/* The first node of a walk: L is a struct HEAD (or points to one), whose
 * member FIELD points to it; KW names the walk in the error. */
static int head_first(struct ev *ev, const struct vs_ec_rule *r,
		      const struct ev_val *l, const char *head,
		      const char *field, const char *kw, uint64_t *first)
{
	uint64_t off;

	if (l->t.array || l->t.kind != VS_TI_STRUCT || !l->t.name ||
	    strcmp(l->t.name, head) != 0)
		return vs_err(ev->err, "'%s' is not a struct %s (for ... %s)",
			      r->list.text, head, kw);
	if (rb_member(ev, &l->t, field, &off) < 0)
		return vs_err_ctx(ev->err, "struct %s", head);
	return read_ptr(ev, l->vaddr + off, first);
}

/* The tree's first node: L is a struct rb_root (or points to one). */
static int rb_top(struct ev *ev, const struct vs_ec_rule *r,
		  const struct ev_val *l, uint64_t *top)
{
	return head_first(ev, r, l, "rb_root", "rb_node", "rbtree; of an "
			  "rb_root_cached, name its '.rb_root'", top);
}

/* In order (left, node, right), with an explicit stack: a tree deeper
 * than EV_RB_MAX_DEPTH (a cycle through child pointers never ends, and
 * goes ever deeper) or with more than max_iter nodes is an error. */
static int loop_rbtree(struct ev *ev, const struct vs_ec_rule *r,
		       const struct ev_val *l)
{
	uint64_t stack[EV_RB_MAX_DEPTH], node, visits = 0;
	uint64_t max = ev->opts->max_iter ? ev->opts->max_iter : EV_MAX_ITER;
	unsigned depth[EV_RB_MAX_DEPTH], sp = 0, d = 1;
	struct ev_rb rb;

	if (rb_layout(ev, r, &rb) < 0 || rb_top(ev, r, l, &node) < 0)
		return -1;
	for (;;) {
		for (; node; d++) {
			if (d > EV_RB_MAX_DEPTH)
				return vs_err(ev->err, "the rbtree of '%s' is "
					      "deeper than %d levels at "
					      "0x%llx: a cycle or a corrupt "
					      "tree", r->list.text,
					      EV_RB_MAX_DEPTH,
					      (unsigned long long)node);
			stack[sp] = node;
			depth[sp++] = d;
			if (read_ptr(ev, node + rb.left, &node) < 0)
				return -1;
		}
		if (!sp)
			return 0;
		node = stack[--sp];
		d = depth[sp] + 1;
		if (++visits > max)
			return vs_err(ev->err, "the rbtree of '%s' has over "
				      "%llu nodes", r->list.text,
				      (unsigned long long)max);
		memset(&ev->var_val, 0, sizeof(ev->var_val));
		ev->var_val.t = rb.st;
		ev->var_val.vaddr = node - rb.member;
		ev->var_val.size = rb.st.size;
		if (run_body(ev, r) < 0 ||
		    read_ptr(ev, node + rb.right, &node) < 0)
			return -1;
	}
}

/* The hlist_nulls walk's layout: the enclosing struct *ST, the offset
 * of its struct hlist_nulls_node PATH, that node's "next"; the head's
 * "first". */
struct ev_hn {
	struct ev_type st;
	uint64_t member, next;
};

static int hn_layout(struct ev *ev, const struct vs_ec_rule *r,
		     struct ev_hn *hn)
{
	struct ev_type node;

	if (node_layout(ev, r, "hlist_nulls", "hlist_nulls_node", &hn->st,
			&hn->member, &node) < 0)
		return -1;
	if (rb_member(ev, &node, "next", &hn->next) < 0)
		return vs_err_ctx(ev->err, "struct hlist_nulls_node");
	return 0;
}

/* The chain's first node: L is a struct hlist_nulls_head (or points to
 * one). */
static int hn_first(struct ev *ev, const struct vs_ec_rule *r,
		    const struct ev_val *l, uint64_t *first)
{
	return head_first(ev, r, l, "hlist_nulls_head", "first",
			  "hlist_nulls", first);
}

/* An hlist_nulls chain (the kernel's hash tables of sockets): nodes up
 * to an odd "nulls" value, which ends it; a NULL node is a broken chain,
 * a cycle or more than max_iter nodes an error. */
static int loop_hlist_nulls(struct ev *ev, const struct vs_ec_rule *r,
			    const struct ev_val *l)
{
	struct ev_walk w = { .power = 1 };
	struct ev_hn hn;
	uint64_t node;

	if (hn_layout(ev, r, &hn) < 0 || hn_first(ev, r, l, &node) < 0)
		return -1;
	w.tortoise = node;
	while (!(node & 1)) {
		struct ev_val *v = &ev->var_val;

		if (!node)
			return vs_err(ev->err, "the hlist_nulls chain of '%s' "
				      "breaks: a NULL pointer, not an odd end "
				      "marker", r->list.text);
		memset(v, 0, sizeof(*v));
		v->t = hn.st;
		v->vaddr = node - hn.member;
		v->size = hn.st.size;
		if (run_body(ev, r) < 0 ||
		    read_ptr(ev, node + hn.next, &node) < 0)
			return -1;
		if (!(node & 1) && walk_step(ev, &w, node, r) < 0)
			return -1;
	}
	return 0;
}

/* An integer global of N bytes (no type needed: BTF has none). */
static int read_global(struct ev *ev, const char *name, unsigned n,
		       uint64_t *out)
{
	uint64_t addr;

	if (ev->ti->ops->symbol(ev->ti->ctx, name, &addr, ev->err) < 0 ||
	    read_uint(ev, addr, n, out) < 0)
		return vs_err_ctx(ev->err, "'%s' (for ... percpu)", name);
	return 0;
}

/* Whether CPU is in cpu_possible_mask (an array of unsigned long). */
static int cpu_possible(struct ev *ev, uint64_t mask, unsigned cpu,
			int *possible)
{
	unsigned bits = 8 * ev->mem->ptr_size;
	uint64_t word;

	if (read_uint(ev, mask + (cpu / bits) * ev->mem->ptr_size,
		      ev->mem->ptr_size, &word) < 0)
		return vs_err_ctx(ev->err, "__cpu_possible_mask");
	*possible = (word >> (cpu % bits)) & 1;
	return 0;
}

/* Every possible CPU's copy of a per-CPU variable, at
 * __per_cpu_offset[cpu] + &SYMBOL, CPUs below nr_cpu_ids that
 * __cpu_possible_mask holds; a pointer's copy: what it points to (NULL
 * skipped), as an array of pointers. */
static int loop_percpu(struct ev *ev, const struct vs_ec_rule *r)
{
	uint64_t addr, type, nr = 0, offs, mask, off;
	const struct vs_typeinfo *tti;
	struct ev_type t;
	int possible = 0;

	if (ev->ti->ops->symbol(ev->ti->ctx, r->list.parts[0].name, &addr,
				ev->err) < 0 ||
	    type_of_symbol(ev, &r->list, &tti, &type) < 0 ||
	    describe_in(ev, tti, type, &t) < 0)
		return vs_err_ctx(ev->err, "'%s'", r->list.text);
	if (read_global(ev, "nr_cpu_ids", 4, &nr) < 0 ||
	    ev->ti->ops->symbol(ev->ti->ctx, "__per_cpu_offset", &offs,
				ev->err) < 0 ||
	    ev->ti->ops->symbol(ev->ti->ctx, "__cpu_possible_mask", &mask,
				ev->err) < 0)
		return vs_err_ctx(ev->err, "'%s percpu' (an SMP kernel's "
				  "per-CPU areas)", r->list.text);
	if (nr == 0 || nr > EV_MAX_CPUS)
		return vs_err(ev->err, "nr_cpu_ids is %llu: implausible",
			      (unsigned long long)nr);
	for (unsigned cpu = 0; cpu < nr; cpu++) {
		struct ev_val *v = &ev->var_val;

		if (cpu_possible(ev, mask, cpu, &possible) < 0)
			return -1;
		if (!possible)
			continue;
		if (read_ptr(ev, offs + cpu * ev->mem->ptr_size, &off) < 0)
			return vs_err_ctx(ev->err, "__per_cpu_offset[%u]", cpu);
		memset(v, 0, sizeof(*v));
		v->t = t;
		v->sym_addr = addr + off;
		if (finish(ev, v) < 0)
			return vs_err_ctx(ev->err, "CPU %u's '%s'", cpu,
					  r->list.text);
		if (v->t.ptr && !v->t.array && !v->vaddr)
			continue;
		if (run_body(ev, r) < 0)
			return -1;
	}
	return 0;
}

/* The "where" right-hand side: a global's address (of the section's
 * module, or of "@MODULE": none loaded, the condition never holds; with
 * "?", a symbol the kernel or module lacks: the same), or a number. */
static int where_value(struct ev *ev, const struct vs_ec_where *w,
		       uint64_t *value)
{
	const struct vs_typeinfo *ti = ev->ti;
	int ret;

	*value = w->value;
	if (!w->sym)
		return 0;
	if (w->sym_module) {
		ret = module_ti(ev, w->sym_module, &ti);
		if (ret < 0)
			return vs_err_ctx(ev->err, "'where ... &%s@%s'",
					  w->sym, w->sym_module);
		if (ret > 0) {
			ev->where_never = 1;
			return 0;
		}
	}
	if (ti->ops->symbol(ti->ctx, w->sym, value, ev->err) < 0) {
		if (w->sym_optional) {
			vs_err_clear(ev->err);
			ev->where_never = 1;
			return 0;
		}
		return vs_err_ctx(ev->err, "'where ... &%s%s%s'", w->sym,
				  w->sym_module ? "@" : "",
				  w->sym_module ? w->sym_module : "");
	}
	return 0;
}

static int where_values(struct ev *ev, const struct vs_ec_rule *r)
{
	ev->where_never = 0;
	for (unsigned i = 0; i < r->nwhere; i++)
		if (where_value(ev, &r->where[i], &ev->where_value[i]) < 0)
			return -1;
	return 0;
}

/* "count EXPR[+N]": an integer of at most 8 bytes, plus N, at most the
 * loop bound; "count N": N. */
static int eval_count(struct ev *ev, const struct vs_ec_rule *r,
		      uint64_t *n)
{
	uint64_t max = ev->opts->max_iter ? ev->opts->max_iter : EV_MAX_ITER;
	const struct vs_ec_expr *x = &r->count;
	struct ev_val v;
	uint64_t val = 0;

	*n = 0;
	if (x->parts) {
		if (resolve(ev, x, &v) < 0)
			return vs_err_ctx(ev->err, "'count'");
		if (v.null)
			return 0;
		if (v.t.array || v.t.ptr || v.t.kind != VS_TI_INT ||
		    v.t.size == 0 || v.t.size > 8)
			return vs_err(ev->err, "'count %s' is not an integer",
				      x->text);
		if (read_uint(ev, v.vaddr, (unsigned)v.t.size, &val) < 0)
			return vs_err_ctx(ev->err, "'count %s'", x->text);
	}
	/* the parser bounds count_add: no overflow below 2^63 */
	if (val > max || val + r->count_add > max) {
		char label[VS_ERR_MAX];

		if (!x->parts)
			snprintf(label, sizeof(label), "%llu",
				 (unsigned long long)r->count_add);
		else if (r->count_add)
			snprintf(label, sizeof(label), "%s+%llu", x->text,
				 (unsigned long long)r->count_add);
		else
			snprintf(label, sizeof(label), "%s", x->text);
		return vs_err(ev->err, "'count %s' is %llu: over %llu elements",
			      label, (unsigned long long)(val > max ? val :
				      val + r->count_add),
			      (unsigned long long)max);
	}
	*n = val + r->count_add;
	return 0;
}

/* "for ID in LIST count N": LIST an array (of at least N elements) or a
 * pointer to the first of N; an element that is a pointer is followed,
 * as in an array of pointers. */
static int loop_count(struct ev *ev, const struct vs_ec_rule *r,
		      const struct ev_val *l, uint64_t n)
{
	struct ev_val a = *l;
	struct vs_ti_type ty;

	if (l->t.array) {
		if (l->t.nelem && n > l->t.nelem)
			return vs_err(ev->err, "'%s' has %llu elements, not "
				      "%llu ('count %s')", r->list.text,
				      (unsigned long long)l->t.nelem,
				      (unsigned long long)n, r->count.text);
		a.t.nelem = n;
		return loop_array(ev, r, &a);
	}
	if (!l->t.ptr)
		return vs_err(ev->err, "'%s' is not an array or a pointer "
			      "('count')", r->list.text);
	if (ti_type(ev, l->t.ti, l->t.id, &ty) < 0 ||
	    describe_in(ev, l->t.ti, ty.target, &a.t) < 0)
		return -1;
	if (a.t.array)
		return vs_err(ev->err, "'%s' points to an array ('count' "
			      "walks a pointer to its first element)",
			      r->list.text);
	a.t.array = 1;
	a.t.nelem = n;
	return loop_array(ev, r, &a);
}

/* Whether the source of symbols at hand (the kernel's, or a [module]
 * section's) has NAME. */
static int has_symbol(struct ev *ev, const char *name)
{
	struct vs_error scratch;
	uint64_t addr;

	vs_err_clear(&scratch);
	return ev->ti->ops->symbol(ev->ti->ctx, name, &addr, &scratch) == 0;
}

static int eval_rule(struct ev *ev, const struct vs_ec_rule *r)
{
	struct ev_val l;
	uint64_t n = 0;
	int ret;

	ev->var = NULL;
	if (r->loop == VS_EC_NONE)
		return eval_erase(ev, &r->erases[0]);
	if (r->list_optional && !has_symbol(ev, r->list.parts[0].name))
		return 0;
	if (where_values(ev, r) < 0)
		return -1;
	if (r->loop == VS_EC_PERCPU) {
		ev->var = r->id;
		ret = loop_percpu(ev, r);
		ev->var = NULL;
		return ret;
	}
	if (resolve(ev, &r->list, &l) < 0)
		return -1;
	if (r->counted && !l.null && eval_count(ev, r, &n) < 0)
		return -1;
	ev->var = r->id;
	if (r->counted)
		ret = l.null || !l.vaddr ? 0 : loop_count(ev, r, &l, n);
	else if (r->loop == VS_EC_RBTREE)
		ret = l.null ? 0 : loop_rbtree(ev, r, &l);
	else if (r->loop == VS_EC_HLIST_NULLS)
		ret = l.null ? 0 : loop_hlist_nulls(ev, r, &l);
	else if (r->loop == VS_EC_WITHIN)
		ret = loop_within(ev, r, &l);
	else if (l.null)
		ret = 0;
	else if (l.t.array)
		ret = loop_array(ev, r, &l);
	else if (is_list_head(&l.t))
		ret = vs_err(ev->err, "'%s' is a list_head: use 'within "
			     "STRUCT:MEMBER'", r->list.text);
	else
		ret = loop_via(ev, r, &l);
	ev->var = NULL;
	return ret;
}

/* --- the table ---------------------------------------------------------- */

static int cmp_paddr_seq(const void *a, const void *b)
{
	const struct ev_inst *x = a, *y = b;

	if (x->paddr != y->paddr)
		return x->paddr < y->paddr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_seq(const void *a, const void *b)
{
	const struct ev_inst *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* One range per start address, as makedumpfile keeps them: the first
 * stays, with the longest size. */
static void dedup(struct vs_erase *e)
{
	size_t keep = 0;

	if (!e->ninst)
		return;
	qsort(e->inst, e->ninst, sizeof(*e->inst), cmp_paddr_seq);
	for (size_t i = 1; i < e->ninst; i++) {
		struct ev_inst *k = &e->inst[keep];

		if (e->inst[i].paddr == k->paddr) {
			if (e->inst[i].size > k->size)
				k->size = e->inst[i].size;
			continue;
		}
		e->inst[++keep] = e->inst[i];
	}
	e->ninst = keep + 1;
	qsort(e->inst, e->ninst, sizeof(*e->inst), cmp_seq);
}

static int push_piece(struct vs_erase *e, size_t *cap, uint64_t paddr,
		      uint64_t len, size_t inst, struct vs_error *err)
{
	if (e->npieces == *cap) {
		size_t ncap = *cap ? 2 * *cap : 256;
		struct ev_piece *n;

		if (ncap > EV_MAX_PIECES)
			return vs_err(err, "the erase rules cover over %u pages",
				      EV_MAX_PIECES);
		n = realloc(e->pieces, ncap * sizeof(*n));
		if (!n)
			return vs_err_oom(err, "out of memory");
		e->pieces = n;
		*cap = ncap;
	}
	e->pieces[e->npieces].paddr = paddr;
	e->pieces[e->npieces].len = (uint32_t)len;
	e->pieces[e->npieces].inst = (uint32_t)inst;
	e->npieces++;
	return 0;
}

/* Cut range I into pieces within one physical page each. */
static int cut_range(struct vs_erase *e, const struct vs_erase_mem *mem,
		     size_t i, size_t *cap, struct vs_error *err)
{
	const struct ev_inst *in = &e->inst[i];
	uint64_t v = in->vaddr, left = in->size, ps = mem->page_size;

	while (left) {
		uint64_t p, span, n;

		if (mem->vtop(mem->ctx, v, &p, &span, err) < 0)
			return vs_err_ctx(err, "cannot translate 0x%llx",
					  (unsigned long long)v);
		n = ps - p % ps;
		if (n > left)
			n = left;
		if (push_piece(e, cap, p, n, i, err) < 0)
			return -1;
		v += n;
		left -= n;
	}
	return 0;
}

static int cmp_piece(const void *a, const void *b)
{
	const struct ev_piece *x = a, *y = b;

	if (x->paddr != y->paddr)
		return x->paddr < y->paddr ? -1 : 1;
	return x->inst < y->inst ? -1 : x->inst > y->inst;
}

static int make_pieces(struct vs_erase *e, const struct vs_erase_mem *mem,
		       struct vs_error *err)
{
	size_t cap = 0;

	dedup(e);
	for (size_t i = 0; i < e->ninst; i++)
		if (cut_range(e, mem, i, &cap, err) < 0)
			return -1;
	if (e->npieces)
		qsort(e->pieces, e->npieces, sizeof(*e->pieces), cmp_piece);
	e->applied_mem = calloc((size_t)e->nparts * (e->ninst ? e->ninst : 1),
				sizeof(*e->applied));
	e->applied = e->applied_mem;
	e->piece_done_mem = calloc((size_t)e->nparts *
				   (e->npieces ? e->npieces : 1), 1);
	e->piece_done = e->piece_done_mem;
	if (!e->applied_mem || !e->piece_done_mem)
		return vs_err_oom(err, "out of memory");
	return 0;
}

/* Each erase command's text at its number; nested loops at most
 * EV_MAX_NEST deep (the parser's bound). */
static int keep_rule_texts(struct vs_erase *e, const struct vs_ec_rule *r,
			   struct vs_error *err)
{
	for (unsigned j = 0; j < r->nerases; j++) {
		const struct vs_ec_erase *er = &r->erases[j];

		if (er->loop) {
			if (keep_rule_texts(e, er->loop, err) < 0)
				return -1;
			continue;
		}
		if (er->cmd >= e->ncmds || e->cmd_text[er->cmd])
			return vs_err(err, "erase command %u numbered twice or "
				      "past %u", er->cmd, e->ncmds);
		e->cmd_text[er->cmd] = strdup(er->target.text);
		if (!e->cmd_text[er->cmd])
			return vs_err_oom(err, "out of memory");
	}
	return 0;
}

static int keep_cmd_texts(struct vs_erase *e, const struct vs_erase_config *c,
			  struct vs_error *err)
{
	e->cmd_text = calloc(c->ncmds ? c->ncmds : 1, sizeof(*e->cmd_text));
	if (!e->cmd_text)
		return vs_err_oom(err, "out of memory");
	e->ncmds = c->ncmds;
	for (unsigned i = 0; i < c->nrules; i++)
		if (keep_rule_texts(e, &c->rules[i], err) < 0)
			return -1;
	return 0;
}

/* Rule skipped (ignore_missing): counted, and WHY kept as a line of
 * vs_erase_skip_msg() (when memory allows: the count is what matters). */
static void skip_rule(struct vs_erase *e, const struct vs_error *why)
{
	size_t n = strlen(why->msg);
	char *s = realloc(e->skips, e->skips_len + n + 2);

	e->skipped++;
	if (!s)
		return;
	memcpy(s + e->skips_len, why->msg, n);
	s[e->skips_len + n] = '\n';
	s[e->skips_len + n + 1] = '\0';
	e->skips = s;
	e->skips_len += n + 1;
}

/* The source of rule R's symbols and types: the kernel's (KTI), or for a
 * [module] section the module's; 1 when the module is not loaded. */
static int section_source(struct ev *ev, const struct vs_ec_rule *r,
			  const struct vs_typeinfo *kti, struct vs_error *err)
{
	const struct vs_erase_modules *m = ev->opts->modules;
	int ret;

	ev->ti = kti;
	if (!r->module || strcmp(r->module, "vmlinux") == 0)
		return 0;
	if (!m)
		return vs_err(err, "module section [%s]: no source of module "
			      "symbols", r->module);
	ret = m->source(m->ctx, r->module, &ev->ti, err);
	if (ret < 0)
		return vs_err_ctx(err, "module section [%s]", r->module);
	return ret;
}

/* A rule that fails: the build fails, or with ignore_missing the rule is
 * dropped with what it already resolved. */
static int eval_rules(struct ev *ev, const struct vs_erase_config *c,
		      struct vs_error *err)
{
	const struct vs_typeinfo *kti = ev->ti;
	int ret;

	for (unsigned i = 0; i < c->nrules; i++) {
		const struct vs_ec_rule *r = &c->rules[i];
		size_t before = ev->e->ninst;
		struct vs_error rerr;

		vs_err_clear(&rerr);
		ev->err = &rerr;
		ev->line = r->line;
		ret = section_source(ev, r, kti, &rerr);
		if (ret == 1) {
			vs_err(&rerr, "line %d: module section [%s]: no such "
			       "module loaded in the dump, rule skipped",
			       r->line, r->module);
			skip_rule(ev->e, &rerr);
		} else if (ret < 0 || eval_rule(ev, r) < 0) {
			vs_err_ctx(&rerr, "rule at line %d", r->line);
			if (!ev->opts->ignore_missing) {
				*err = rerr;
				return -1;
			}
			ev->e->ninst = before;
			skip_rule(ev->e, &rerr);
		}
	}
	ev->ti = kti;
	return 0;
}

int vs_erase_build(struct vs_erase **out, const struct vs_erase_config *c,
		   const struct vs_typeinfo *ti, const struct vs_erase_mem *mem,
		   const struct vs_erase_opts *opts, struct vs_error *err)
{
	struct vs_erase *e = calloc(1, sizeof(*e));
	struct ev ev = { .ti = ti, .kti = ti, .mem = mem, .opts = opts,
			 .e = e };
	int ret = -1;

	*out = NULL;
	if (!e)
		return vs_err_oom(err, "out of memory");
	e->nparts = opts->nparts ? opts->nparts : 1;
	e->page_size = mem->page_size;
	if (keep_cmd_texts(e, c, err) < 0)
		goto out;
	if (eval_rules(&ev, c, err) < 0)
		goto out;
	if (make_pieces(e, mem, err) < 0)
		goto out;
	*out = e;
	e = NULL;
	ret = 0;
out:
	vs_erase_free(e);
	return ret;
}

void vs_erase_free(struct vs_erase *e)
{
	if (!e)
		return;
	for (unsigned i = 0; e->cmd_text && i < e->ncmds; i++)
		free(e->cmd_text[i]);
	free(e->cmd_text);
	free(e->inst);
	free(e->pieces);
	free(e->applied_mem);
	free(e->piece_done_mem);
	free(e->skips);
	free(e);
}

/* --- applying ----------------------------------------------------------- */

/* Count piece I of PART once, however often its bytes are written (the
 * kernel's image and the direct map are two PT_LOADs of the same
 * memory in an ELF dump). */
static void count_piece(struct vs_erase *e, unsigned part, size_t i,
			uint64_t len)
{
	size_t at = (size_t)part * e->npieces + i;

	if (atomic_exchange(&e->piece_done[at], 1) == 0)
		atomic_fetch_add(&e->applied[(size_t)part * e->ninst +
					     e->pieces[i].inst], len);
}

static size_t first_piece(const struct vs_erase *e, uint64_t paddr)
{
	return VS_LOWER_BOUND(e->pieces, e->npieces, paddr, paddr);
}

const uint8_t *vs_erase_page(struct vs_erase *e, unsigned part, uint64_t pfn,
			     const uint8_t *page, uint8_t *scratch)
{
	uint64_t start = pfn * e->page_size, end = start + e->page_size;
	const uint8_t *out = page;

	if (part >= e->nparts)
		part = e->nparts - 1;
	for (size_t i = first_piece(e, start);
	     i < e->npieces && e->pieces[i].paddr < end; i++) {
		const struct ev_piece *p = &e->pieces[i];
		const struct ev_inst *in = &e->inst[p->inst];

		if (out == page) {
			memcpy(scratch, page, e->page_size);
			out = scratch;
		}
		memset(scratch + (p->paddr - start), in->nullify ? 0 : EV_FILL,
		       p->len);
		count_piece(e, part, i, p->len);
	}
	return out;
}

void vs_erase_buf(struct vs_erase *e, unsigned part, uint64_t paddr,
		  uint8_t *buf, size_t len)
{
	uint64_t end = paddr + len;

	if (part >= e->nparts)
		part = e->nparts - 1;
	for (size_t i = first_piece(e, paddr - paddr % e->page_size);
	     i < e->npieces && e->pieces[i].paddr < end; i++) {
		const struct ev_piece *p = &e->pieces[i];
		uint64_t a = p->paddr > paddr ? p->paddr : paddr;
		uint64_t b = p->paddr + p->len < end ? p->paddr + p->len : end;

		if (a >= b)
			continue;
		memset(buf + (a - paddr), e->inst[p->inst].nullify ? 0 : EV_FILL,
		       b - a);
		/* a piece cut by two buffers counts whole: it is written
		 * whole, across them */
		count_piece(e, part, i, p->len);
	}
}

/* --- eraseinfo ---------------------------------------------------------- */

static size_t put(char *buf, size_t cap, size_t at, const char *s)
{
	size_t n = strlen(s);

	if (buf && at < cap)
		memcpy(buf + at, s, at + n <= cap ? n : cap - at);
	return at + n;
}

static size_t put_line(const struct vs_erase *e, const struct ev_inst *in,
		       const char *size_str, char *buf, size_t cap, size_t at)
{
	at = put(buf, cap, at, "erase ");
	at = put(buf, cap, at, e->cmd_text[in->cmd]);
	at = put(buf, cap, at, " ");
	return put(buf, cap, at, size_str);
}

/* The rules' order in the text: by their first range. */
static int cmd_erased(const struct vs_erase *e, unsigned part, unsigned cmd)
{
	for (size_t i = 0; i < e->ninst; i++)
		if (e->inst[i].cmd == cmd &&
		    atomic_load(&e->applied[(size_t)part * e->ninst + i]))
			return 1;
	return 0;
}

/* makedumpfile writes, per rule, one line per range; a range none of
 * whose bytes were stored repeats the line before it (its size string is
 * left from the previous line). */
size_t vs_erase_text(const struct vs_erase *e, unsigned part, char *buf,
		     size_t cap)
{
	char size_str[64] = "size 0\n";
	size_t at = 0;
	unsigned char *done = calloc(e->ncmds ? e->ncmds : 1, 1);

	if (!done)
		return 0;
	for (size_t i = 0; i < e->ninst; i++) {
		unsigned cmd = e->inst[i].cmd;

		if (done[cmd])
			continue;
		done[cmd] = 1;
		if (!cmd_erased(e, part, cmd))
			continue;
		for (size_t j = i; j < e->ninst; j++) {
			uint64_t n = atomic_load(&e->applied[(size_t)part *
							     e->ninst + j]);

			if (e->inst[j].cmd != cmd)
				continue;
			if (n && e->inst[j].nullify)
				snprintf(size_str, sizeof(size_str), "nullify\n");
			else if (n)
				snprintf(size_str, sizeof(size_str),
					 "size %llu\n", (unsigned long long)n);
			at = put_line(e, &e->inst[j], size_str, buf, cap, at);
		}
	}
	free(done);
	return at;
}

size_t vs_erase_text_bound(const struct vs_erase *e)
{
	size_t at = 0;

	for (size_t i = 0; i < e->ninst; i++) {
		char s[64];

		if (e->inst[i].nullify)
			snprintf(s, sizeof(s), "nullify\n");
		else
			snprintf(s, sizeof(s), "size %llu\n",
				 (unsigned long long)e->inst[i].size);
		at = put_line(e, &e->inst[i], s, NULL, 0, at);
	}
	return at;
}

size_t vs_erase_nranges(const struct vs_erase *e)
{
	return e->ninst;
}

void vs_erase_range(const struct vs_erase *e, size_t i, uint64_t *vaddr,
		    uint64_t *size, int *nullify)
{
	*vaddr = e->inst[i].vaddr;
	*size = e->inst[i].size;
	*nullify = e->inst[i].nullify;
}

unsigned vs_erase_skipped(const struct vs_erase *e)
{
	return e->skipped;
}

const char *vs_erase_skip_msg(const struct vs_erase *e)
{
	return e->skips ? e->skips : "";
}
