/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * erase_modules.c - the sources of [module] sections (erase_modules.h).
 *
 * makedumpfile (erase_info.c, dwarf_info.c) takes a section's symbols from
 * the dumped module's own symbol table and its types from the module's
 * debug file, found with elfutils under /lib/modules/RELEASE and
 * /usr/lib/debug; a section whose module is not loaded is skipped.  Here
 * each section's module is looked up once; what the rules see is one
 * typeinfo whose symbol() is the module's table and whose types are its
 * DWARF or BTF.
 *
 * A struct the module only declares is completed (complete(), for
 * erase.c) from the vmlinux, else from the other loaded modules, opened
 * then and kept for later sections (typeinfo_complete.h); a config that
 * meets no such declaration opens no other module.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "erase_modules.h"
#include "modules.h"
#include "typeinfo_btf.h"
#include "typeinfo_complete.h"
#include "typeinfo_dwarf.h"

#define MAX_DEPTH 8                  /* directories below a search root */
#define MAX_SECTIONS 1024            /* distinct modules named or looked
					at for a declaration */

struct em_one {
	char name[64];               /* as the section names it */
	struct vs_module *mod;       /* NULL: not loaded */
	struct vs_typeinfo types;    /* the module's DWARF or BTF */
	struct vs_typeinfo ti;       /* what the rules see */
	char *file;                  /* where its types are, for messages */
	int failed;                  /* the module or its types unreadable */
	char *why;                   /* what failed (NULL: out of memory) */
	enum vmsift_status why_status;
};

struct vs_erase_mods {
	const struct vs_typeinfo *kti, *base;
	const struct vs_erase_mem *mem;
	char release[128];
	struct em_one *v;
	size_t n;
	char (*loaded)[64];          /* the dump's modules, once listed */
	size_t nloaded;
	int listed;
};

/* --- the rules' view: the module's symbols, its types ------------------ */

static int mo_symbol(void *ctx, const char *name, uint64_t *addr,
		     struct vs_error *err)
{
	const struct em_one *o = ctx;

	return vs_module_symbol(o->mod, name, addr, err);
}

static int mo_symbol_type(void *ctx, const char *name, uint64_t *type,
			  struct vs_error *err)
{
	const struct em_one *o = ctx;

	return o->types.ops->symbol_type(o->types.ctx, name, type, err);
}

static int mo_type_by_name(void *ctx, const char *name, uint64_t *type,
			   struct vs_error *err)
{
	const struct em_one *o = ctx;

	return o->types.ops->type_by_name(o->types.ctx, name, type, err);
}

static int mo_type(void *ctx, uint64_t type, struct vs_ti_type *out,
		   struct vs_error *err)
{
	const struct em_one *o = ctx;

	return o->types.ops->type(o->types.ctx, type, out, err);
}

static int mo_member(void *ctx, uint64_t type, const char *member,
		     uint64_t *offset, uint64_t *mtype, struct vs_error *err)
{
	const struct em_one *o = ctx;

	return o->types.ops->member(o->types.ctx, type, member, offset, mtype,
				    err);
}

static int mo_enumerator(void *ctx, const char *name, int64_t *value,
			 struct vs_error *err)
{
	const struct em_one *o = ctx;

	return o->types.ops->enumerator(o->types.ctx, name, value, err);
}

static int mo_member_next(void *ctx, uint64_t type, uint64_t *pos,
			  struct vs_ti_member *out, struct vs_error *err)
{
	const struct em_one *o = ctx;

	return o->types.ops->member_next(o->types.ctx, type, pos, out, err);
}

static void mo_free(void *ctx)
{
	(void)ctx;                   /* vs_erase_mods_free() owns it */
}

static const struct vs_typeinfo_ops module_ops = {
	.name = "module",
	.symbol = mo_symbol,
	.symbol_type = mo_symbol_type,
	.type_by_name = mo_type_by_name,
	.type = mo_type,
	.member = mo_member,
	.member_next = mo_member_next,
	.enumerator = mo_enumerator,
	.free = mo_free,
};

/* --- the debug file (-x) ----------------------------------------------- */

/* 1 when FILE is NAME.ko or NAME.ko.debug, '-' and '_' alike. */
static int is_debug_file(const char *file, const char *name)
{
	static const char *const ext[] = { ".ko", ".ko.debug" };
	size_t n = strlen(file);

	for (size_t i = 0; i < 2; i++) {
		size_t e = strlen(ext[i]);
		char stem[256];

		if (n <= e || n - e >= sizeof(stem) ||
		    strcmp(file + n - e, ext[i]) != 0)
			continue;
		memcpy(stem, file, n - e);
		stem[n - e] = '\0';
		if (vs_module_name_eq(stem, name))
			return 1;
	}
	return 0;
}

/* The first NAME.ko(.debug) under DIR, DEPTH directories deep at most,
 * into OUT; 0 when there is none. */
static int find_file(const char *dir, const char *name, int depth, char *out,
		     size_t cap)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		char path[4096];
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     de->d_name) >= sizeof(path) ||
		    stat(path, &st) < 0)
			continue;
		if (S_ISREG(st.st_mode) && is_debug_file(de->d_name, name)) {
			found = (size_t)snprintf(out, cap, "%s", path) < cap;
		} else if (S_ISDIR(st.st_mode) && depth > 0) {
			found = find_file(path, name, depth - 1, out, cap);
		}
	}
	closedir(d);
	return found;
}

#define NROOTS 5

/* Where a module's debug file may be, in this order: beside VMLINUX, in
 * an extracted -dbg package or module tree beside it, then where
 * Debian's -dbg package and the kernel's modules install them. */
static void search_roots(char roots[NROOTS][4096], int depth[NROOTS],
			 const char *vmlinux, const char *release)
{
	const char *slash = strrchr(vmlinux, '/');
	int dir = slash ? (int)(slash - vmlinux) : 1;
	const char *d = slash ? vmlinux : ".";

	snprintf(roots[0], 4096, "%.*s", dir, d);
	snprintf(roots[1], 4096, "%.*s/usr/lib/debug/lib/modules/%s", dir, d,
		 release);
	snprintf(roots[2], 4096, "%.*s/lib/modules/%s", dir, d, release);
	snprintf(roots[3], 4096, "/usr/lib/debug/lib/modules/%s", release);
	snprintf(roots[4], 4096, "/lib/modules/%s", release);
	depth[0] = 0;
	for (int i = 1; i < NROOTS; i++)
		depth[i] = release[0] ? MAX_DEPTH : -1;
}

static int open_dwarf(struct vs_erase_mods *m, struct em_one *o,
		      const char *vmlinux, struct vs_error *err)
{
	char roots[NROOTS][4096];
	char file[4096], tried[1024] = "";
	size_t used = 0;
	struct vs_error last;
	int depth[NROOTS];

	search_roots(roots, depth, vmlinux, m->release);
	vs_err_clear(&last);
	for (int i = 0; i < NROOTS; i++) {
		if (depth[i] < 0)
			continue;
		if (used < sizeof(tried)) {  /* the list, cut at its end */
			int w = snprintf(tried + used, sizeof(tried) - used,
					 "%s%s", used ? ", " : "", roots[i]);
			used = w < 0 ? sizeof(tried) : used + (size_t)w;
		}
		if (!find_file(roots[i], o->name, depth[i], file, sizeof(file)))
			continue;
		/* a module without DWARF (stripped): look further */
		if (vs_typeinfo_dwarf_open_module(&o->types, file, &last) == 0)
			return (o->file = strdup(file)) ? 0 :
			       vs_err_oom(err, "out of memory");
	}
	if (last.msg[0]) {
		*err = last;
		return vs_err_ctx(err, "no debug information for module '%s'",
				  o->name);
	}
	return vs_err(err, "no debug information for module '%s': no %s.ko "
		      "or %s.ko.debug ('-' or '_') in %s", o->name, o->name,
		      o->name, tried);
}

/* --- the module's BTF (no -x) ------------------------------------------ */

static int open_btf(struct vs_erase_mods *m, struct em_one *o,
		    struct vs_error *err)
{
	uint64_t addr, size;
	void *data;
	int ret;

	if (vs_module_btf(o->mod, m->kti, &addr, &size, err) < 0)
		return -1;
	if (!addr || !size)
		return vs_err(err, "module '%s' has no BTF in the dump (a "
			      "kernel without CONFIG_DEBUG_INFO_BTF_MODULES?): "
			      "give -x VMLINUX for its debug file", o->name);
	if (size > VS_MOD_MAX_BTF)
		return vs_err(err, "module '%s': BTF of %llu bytes at 0x%llx, "
			      "more than %u", o->name, (unsigned long long)size,
			      (unsigned long long)addr, VS_MOD_MAX_BTF);
	data = malloc(size);
	if (!data)
		return vs_err_oom(err, "out of memory");
	ret = m->mem->read(m->mem->ctx, addr, data, size, err);
	if (ret == 0)
		ret = vs_typeinfo_btf_new_split(&o->types, m->base, data, size,
						err);
	free(data);
	if (ret < 0)
		return vs_err_ctx(err, "module '%s': its BTF at 0x%llx (%llu "
				  "bytes)", o->name, (unsigned long long)addr,
				  (unsigned long long)size);
	if (asprintf(&o->file, "the BTF of module '%s' in the dump",
		     o->name) < 0) {
		o->file = NULL;
		return vs_err_oom(err, "out of memory");
	}
	return 0;
}

/* --- sections ---------------------------------------------------------- */

static int open_one(struct vs_erase_mods *m, struct em_one *o,
		    struct vs_error *err)
{
	const char *vmlinux = vs_typeinfo_dwarf_path(m->base);

	if (vs_module_find(&o->mod, m->kti, m->mem, o->name, err) < 0)
		return -1;
	if (!o->mod)
		return 0;
	if (vmlinux ? open_dwarf(m, o, vmlinux, err) < 0 :
		      open_btf(m, o, err) < 0)
		return -1;
	o->ti.ops = &module_ops;
	o->ti.ctx = o;
	return 0;
}

static struct em_one *lookup(struct vs_erase_mods *m, const char *name,
			     struct vs_error *err)
{
	struct em_one *n;

	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->v[i].name, name) == 0)
			return &m->v[i];
	if (m->n == MAX_SECTIONS || strlen(name) >= sizeof(n->name)) {
		vs_err(err, "module section [%s]: more than %u modules, or a "
		       "name over 63 bytes", name, MAX_SECTIONS);
		return NULL;
	}
	if (!m->v) {
		m->v = calloc(MAX_SECTIONS, sizeof(*m->v));
		if (!m->v) {
			vs_err_oom(err, "out of memory");
			return NULL;
		}
	}
	n = &m->v[m->n++];
	snprintf(n->name, sizeof(n->name), "%s", name);
	if (open_one(m, n, err) < 0) {
		n->failed = 1;
		n->why = strdup(err->msg);
		n->why_status = err->status;
		return NULL;
	}
	return n;
}

static int source(void *ctx, const char *name, const struct vs_typeinfo **ti,
		  struct vs_error *err)
{
	struct em_one *o = lookup(ctx, name, err);

	if (!o)
		return -1;
	if (o->failed)
		return o->why ? vs_err_st(err, o->why_status, "%s", o->why) :
				vs_err_oom(err, "out of memory");
	if (!o->mod)
		return 1;
	*ti = &o->ti;
	return 0;
}

/* --- declarations completed from the vmlinux or another module --------- */

static int list_one(void *ctx, const char *name, struct vs_error *err)
{
	struct vs_erase_mods *m = ctx;
	char (*v)[64];

	if (m->nloaded % 64 == 0) {
		v = realloc(m->loaded, (m->nloaded + 64) * sizeof(*v));
		if (!v)
			return vs_err_oom(err, "out of memory");
		m->loaded = v;
	}
	snprintf(m->loaded[m->nloaded++], sizeof(*m->loaded), "%s", name);
	return 0;
}

/* The names of the dump's modules, listed once: all of them or none, so
 * that a walk that failed part way (a wild next pointer, a cycle) leaves
 * no names behind for the next declaration's walk to add again. */
static int list_loaded(struct vs_erase_mods *m, struct vs_error *err)
{
	if (m->listed)
		return 0;
	if (vs_module_each(m->kti, m->mem, list_one, m, err) < 0) {
		m->nloaded = 0;
		return vs_err_ctx(err, "listing the dump's modules for a "
				  "definition");
	}
	m->listed = 1;
	return 0;
}

const char *vs_erase_mods_loaded(const struct vs_erase_mods *m, size_t i)
{
	return m->listed && i < m->nloaded ? m->loaded[i] : NULL;
}

struct em_places {
	struct vs_erase_mods *m;
	const struct vs_typeinfo *from;   /* the declaring module's */
};

/* Place 0: the vmlinux; then each loaded module but the declaring one,
 * its types opened now (one without them is no place: skipped). */
static int place(void *ctx, size_t i, struct vs_ti_place *p,
		 struct vs_error *err)
{
	const struct em_places *a = ctx;
	struct vs_erase_mods *m = a->m;
	const char *vmlinux = vs_typeinfo_dwarf_path(m->base);
	struct vs_error why;
	struct em_one *o;
	size_t before;

	p->ti = NULL;
	if (i == 0) {
		p->ti = m->kti;
		p->file = vmlinux ? vmlinux : "the kernel's BTF";
		return 0;
	}
	if (list_loaded(m, err) < 0)
		return -1;
	if (i > m->nloaded)
		return 1;
	before = m->n;
	o = lookup(m, m->loaded[i - 1], &why);
	if (!o && m->n == before) {         /* no room: not a skip */
		*err = why;
		return -1;
	}
	/* a module without debug information or BTF: no place */
	if (o && !o->failed && o->mod && &o->ti != a->from) {
		p->ti = &o->ti;
		p->file = o->file;
	}
	return 0;
}

static int complete(void *ctx, const struct vs_typeinfo *from,
		    enum vs_ti_kind kind, const char *name,
		    const struct vs_typeinfo **ti, uint64_t *id,
		    struct vs_error *err)
{
	struct em_places a = { ctx, from };

	return vs_ti_complete(kind, name, place, &a, ti, id, err);
}

int vs_erase_mods_new(struct vs_erase_mods **out, const struct vs_typeinfo *kti,
		      const struct vs_typeinfo *base,
		      const struct vs_erase_mem *mem, const char *release,
		      struct vs_error *err)
{
	struct vs_erase_mods *m = calloc(1, sizeof(*m));

	*out = NULL;
	if (!m)
		return vs_err_oom(err, "out of memory");
	m->kti = kti;
	m->base = base;
	m->mem = mem;
	snprintf(m->release, sizeof(m->release), "%s", release ? release : "");
	*out = m;
	return 0;
}

void vs_erase_mods_free(struct vs_erase_mods *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		vs_typeinfo_free(&m->v[i].types);
		vs_module_free(m->v[i].mod);
		free(m->v[i].file);
		free(m->v[i].why);
	}
	free(m->v);
	free(m->loaded);
	free(m);
}

void vs_erase_mods_ops(struct vs_erase_mods *m, struct vs_erase_modules *out)
{
	out->ctx = m;
	out->source = source;
	out->complete = complete;
}
