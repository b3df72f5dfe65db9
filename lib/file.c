/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file.c - the lowest layer of input (file.h): open the input file,
 * read it by offset (through the extent map when it is flattened), and
 * keep one thread's windows onto it, mapped or read.
 *
 * Used by the input formats, input.c and reader.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <unistd.h>

#include "file.h"
#include "kdump_format.h"
#include "util.h"

static int age_pread(void *arg, void *buf, size_t len, uint64_t off)
{
	return vs_age_file_read(arg, buf, len, off);
}

/* An age file: read through its chunks from now on. */
static int setup_age(struct vs_file *f, const struct vs_age_ids *ids,
		     struct vs_error *err)
{
	if (vs_age_file_open(&f->age, f->fd, f->name, f->size, ids, err) < 0)
		return -1;
	f->stream_size = f->size;
	f->size = vs_age_file_size(f->age);
	f->cut = vs_age_file_truncated(f->age);
	return 0;
}

/* The file is open as F->fd: size it and index it if it is flattened. */
static int setup(struct vs_file *f, const struct vs_age_ids *ids,
		 struct vs_error *err)
{
	char magic[VS_AGE_MAGIC_LEN];
	struct statfs sf;
	struct stat st;
	int ret;

	if (fstat(f->fd, &st) < 0)
		return vs_err_sys(err, "cannot open '%s'", f->name);
	f->size = (uint64_t)st.st_size;
	f->procfs = fstatfs(f->fd, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC;
	/* A hint for a cold page cache; /proc/vmcore ignores it. */
	posix_fadvise(f->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if (f->size >= sizeof(magic) &&
	    vs_pread_full(f->fd, magic, sizeof(magic), 0) == 0 &&
	    vs_age_probe(magic, sizeof(magic)) && setup_age(f, ids, err) < 0)
		return -1;
	if (f->size < FLAT_HEADER_SIZE ||
	    vs_file_read(f, magic, sizeof(FLAT_SIGNATURE) - 1, 0) < 0 ||
	    !vs_flat_probe(magic, sizeof(FLAT_SIGNATURE) - 1))
		return 0;
	/* Its messages name the file. */
	ret = f->age ? vs_flat_map_build_from(&f->flat, age_pread, f->age,
					      f->name, f->size, f->cut, err) :
		       vs_flat_map_build(&f->flat, f->fd, f->name, f->size, err);
	if (ret < 0)
		return -1;
	f->is_flat = 1;
	if (!f->age)
		f->stream_size = f->size;
	f->size = f->flat.end;
	return 0;
}

int vs_file_open(struct vs_file *f, const char *path,
		 const struct vs_age_ids *ids, struct vs_error *err)
{
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->name = strdup(path);
	if (!f->name)
		return vs_err_oom(err, "out of memory");
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return vs_err_sys(err, "cannot open '%s'", path);
	return setup(f, ids, err);
}

int vs_file_open_fd(struct vs_file *f, int fd, const char *name,
		    const struct vs_age_ids *ids, struct vs_error *err)
{
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->name = strdup(name ? name : "(descriptor)");
	if (!f->name)
		return vs_err_oom(err, "out of memory");
	f->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (f->fd < 0)
		return vs_err_sys(err, "cannot duplicate descriptor %d of '%s'",
				  fd, f->name);
	return setup(f, ids, err);
}

void vs_file_close(struct vs_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	vs_flat_map_free(&f->flat);
	vs_age_file_close(f->age);
	free(f->name);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

int vs_file_read(const struct vs_file *f, void *buf, size_t len, uint64_t off)
{
	if (f->is_flat && f->age)
		return vs_flat_map_read_from(&f->flat, age_pread, f->age, buf,
					     len, off);
	if (f->is_flat)
		return vs_flat_map_read(&f->flat, f->fd, buf, len, off);
	if (f->age)
		return vs_age_file_read(f->age, buf, len, off);
	return vs_pread_full(f->fd, buf, len, off);
}

/* A failed read of F at OFF: which chunk did not authenticate, if that
 * was it, else the system's error. */
static int read_failed(const struct vs_file *f, const char *what,
		       uint64_t off, struct vs_error *err)
{
	char why[256];

	if (errno != EBADMSG || !f->age)
		return vs_err_sys(err, "%s at offset 0x%llx of '%s': read "
				  "failed", what, (unsigned long long)off,
				  f->name);
	vs_age_file_why(f->age, why, sizeof(why));
	return vs_err(err, "%s at offset 0x%llx of '%s': %s", what,
		      (unsigned long long)off, f->name, why);
}

int vs_file_read_at(const struct vs_file *f, void *buf, size_t len,
		    uint64_t off, const char *what, struct vs_error *err)
{
	if (off > f->size || len > f->size - off)
		return vs_err(err, "%s at offset 0x%llx: file ends at 0x%llx, "
			      "expected 0x%zx more bytes", what,
			      (unsigned long long)off,
			      (unsigned long long)f->size, len);
	if (vs_file_read(f, buf, len, off) < 0)
		return f->age ? read_failed(f, what, off, err) :
		       vs_err_sys(err, "%s at offset 0x%llx: read failed", what,
				  (unsigned long long)off);
	return 0;
}

/* ---- windows ---------------------------------------------------------- */

void vs_view_init(struct vs_view *v, const struct vs_file *f, int no_mmap)
{
	memset(v, 0, sizeof(*v));
	v->f = f;
	v->use_mmap = !no_mmap && !f->is_flat && !f->age;
}

/* Unmap W's mapping, if it has one; its buffer is kept for reads. */
static void drop_window(struct vs_window *w)
{
	if (w->p && w->mapped)
		munmap(w->p, w->len);
	w->p = NULL;
	w->off = w->len = 0;
	w->mapped = 0;
}

void vs_view_fini(struct vs_view *v)
{
	free(v->small.mem);
	v->small.mem = NULL;
	for (int i = 0; i < VS_NR_WIN; i++) {
		drop_window(&v->win[i]);
		free(v->win[i].buf);
		v->win[i].buf = NULL;
	}
}

static int map_window(struct vs_view *v, struct vs_window *w,
		      uint64_t start, uint64_t end)
{
	void *p = mmap(NULL, end - start, PROT_READ, MAP_PRIVATE, v->f->fd,
		       (off_t)start);

	if (p == MAP_FAILED)
		return -1;
	w->p = p;
	w->off = start;
	w->len = end - start;
	w->mapped = 1;
	return 0;
}

/* Read [off, end) into W's buffer, allocating it the first time. */
static int read_window(struct vs_view *v, struct vs_window *w, uint64_t off,
		       uint64_t end, struct vs_error *err)
{
	drop_window(w);
	if (!w->buf) {
		w->buf = malloc(VS_READ_WINDOW);
		if (!w->buf)
			return vs_err_oom(err, "out of memory");
	}
	if (vs_file_read(v->f, w->buf, end - off, off) < 0)
		return v->f->age ? read_failed(v->f, "data", off, err) :
		       vs_err_sys(err, "cannot read '%s' at offset 0x%llx",
				  v->f->name, (unsigned long long)off);
	w->p = w->buf;
	w->off = off;
	w->len = end - off;
	return 0;
}

/* A miss inside a run of kept data (vs_view_run): read the run, or as
 * much of it as the region and the buffer hold, in one pread. */
static const uint8_t *read_run(struct vs_view *v, struct vs_window *w,
			       uint64_t off, size_t len, uint64_t limit,
			       struct vs_error *err)
{
	uint64_t n = v->run > len ? v->run : len;

	if (n > VS_READ_WINDOW)
		n = VS_READ_WINDOW;
	if (limit > off && n > limit - off)
		n = limit - off;
	if (n < len)
		n = len;
	v->run = v->run > n ? v->run - n : 0;
	if (read_window(v, w, off, off + n, err) < 0)
		return NULL;
	return w->p;
}

/* Where a window of SPAN bytes for [off, off + len) starts: at OFF, or
 * ending at off + len when the miss starts below the window it replaces
 * (BELOW): a walk down the file (the struct pages of a vmemmap the
 * kernel filled from the top, s390x) then misses once a window, not
 * once a read. */
static uint64_t window_start(uint64_t off, size_t len, size_t span, int below)
{
	if (!below || off + len <= span)
		return below ? 0 : off;
	return off + len - span;
}

const uint8_t *vs_view_get(struct vs_view *v, int wi, uint64_t off, size_t len,
			   uint64_t limit, struct vs_error *err)
{
	struct vs_window *w = &v->win[wi];
	const int below = w->len && off < w->off;
	uint64_t start, end;

	if (w->len && off >= w->off && off + len <= w->off + w->len)
		return w->p + (off - w->off);
	if (w->mapped)
		drop_window(w);
	if (v->sparse && len <= VS_READ_WINDOW)
		return read_window(v, w, off, off + len, err) < 0 ? NULL : w->p;
	if (v->run && wi == VS_WIN_DATA && len <= VS_READ_WINDOW)
		return read_run(v, w, off, len, limit, err);
	if (v->use_mmap) {
		start = window_start(off, len, VS_MAP_WINDOW, below) &
			~(uint64_t)(sysconf(_SC_PAGESIZE) - 1);
		end = start + VS_MAP_WINDOW;
		if (end > limit)
			end = limit;
		if (end < off + len)
			end = off + len;
		drop_window(w);
		if (map_window(v, w, start, end) == 0)
			return w->p + (off - start);
		v->use_mmap = 0;  /* mmap refused: pread from now on */
	}
	start = window_start(off, len, VS_READ_WINDOW, below);
	end = start + VS_READ_WINDOW < limit ? start + VS_READ_WINDOW : limit;
	if (end < off + len)
		return vs_err(err, "internal: read of 0x%zx bytes exceeds the "
			      "window", len), NULL;
	if (read_window(v, w, start, end, err) < 0)
		return NULL;
	return w->p + (off - start);
}

/* ---- small reads ------------------------------------------------------ */

/* The slot holding the block at BOFF, or the one to refill: an empty one,
 * else the least recently used. */
static struct vs_small_slot *small_slot(struct vs_small *c, uint64_t boff)
{
	struct vs_small_slot *victim = &c->slot[0];

	for (int i = 0; i < VS_SMALL_SLOTS; i++) {
		struct vs_small_slot *sl = &c->slot[i];

		if (sl->len && sl->off == boff)
			return sl;
		if (victim->len && (!sl->len || sl->used < victim->used))
			victim = sl;
	}
	return victim;
}

/* The block at BOFF in slot SL, read unless it is there already. */
static const uint8_t *small_block(struct vs_view *v, struct vs_small_slot *sl,
				  uint64_t boff, struct vs_error *err)
{
	struct vs_small *c = &v->small;
	uint8_t *mem = c->mem + (size_t)(sl - c->slot) * VS_SMALL_BLOCK;
	uint64_t n = v->f->size - boff;

	sl->used = ++c->clock;
	if (sl->len && sl->off == boff)
		return mem;
	if (n > VS_SMALL_BLOCK)
		n = VS_SMALL_BLOCK;
	sl->len = 0;
	if (vs_file_read(v->f, mem, (size_t)n, boff) < 0)
		return read_failed(v->f, "small read", boff, err), NULL;
	sl->off = boff;
	sl->len = (size_t)n;
	c->misses++;
	return mem;
}

int vs_view_read_small(struct vs_view *v, void *buf, size_t len, uint64_t off,
		       struct vs_error *err)
{
	struct vs_small *c = &v->small;
	uint8_t *out = buf;

	if (off > v->f->size || len > v->f->size - off)
		return vs_err(err, "read of 0x%zx bytes at offset 0x%llx of "
			      "'%s': the file ends at 0x%llx", len,
			      (unsigned long long)off, v->f->name,
			      (unsigned long long)v->f->size);
	if (!c->mem) {
		c->mem = malloc(VS_SMALL_SLOTS * VS_SMALL_BLOCK);
		if (!c->mem)
			return vs_err_oom(err, "out of memory");
	}
	while (len) {
		uint64_t boff = off & ~(uint64_t)(VS_SMALL_BLOCK - 1);
		size_t in = (size_t)(off - boff);
		size_t n = VS_SMALL_BLOCK - in < len ? VS_SMALL_BLOCK - in : len;
		const uint8_t *b = small_block(v, small_slot(c, boff), boff,
					       err);

		if (!b)
			return -1;
		memcpy(out, b + in, n);
		out += n;
		off += n;
		len -= n;
	}
	return 0;
}
