/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mount.c - vmsift mount: a dump as a read-only FUSE directory holding
 *   vmcore      the ELF core file vmsift -E would write (vmsift_elfview),
 *               its pages decompressed on demand, excluded ones as zeros
 *   vmcoreinfo  the dump's VMCOREINFO text
 *   dmesg       the kernel's log, as --dump-dmesg writes it
 *   info        what vmsift knows of the dump (vmsift_dumpfile_describe)
 * The dump is opened, and a bad one refused, before the mount exists.
 * FUSE's threads read at once, each with a reader of a pool made at
 * mount time (one per thread, vmsift.h); a page that cannot be read is
 * EIO to the reader and a line in the log naming it, never the mount's
 * end.  dmesg and info are made on their first use.
 *
 * Built with libfuse3 (VMSIFT_FUSE, set by the Makefile when pkg-config
 * finds fuse3); the static builds for capture kernels are without it and
 * say so.
 */
#include <stdio.h>

#include "cli.h"
#include "readcmd.h"

#ifndef VMSIFT_FUSE

int cmd_mount(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("this vmsift is built without FUSE (libfuse3): "
			 "'vmsift mount' is not available; use a dynamically "
			 "linked vmsift, or 'vmsift cat'");
}

#else

#define FUSE_USE_VERSION 312  /* 3.12: fuse_loop_cfg_*; Debian 12 has 3.14 */

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

enum { M_LOG = 256 };

/* A text file made on first use: TEXT, or ABSENT with WHY. */
struct lazy_text {
	int made;
	char *text;
	size_t len;
};

struct mnt {
	struct read_input in;
	const char *mountpoint;
	int foreground;
	const char *fuse_opts;       /* -o, passed to FUSE */
	FILE *log;                   /* --log FILE; else syslog */

	struct vmsift_dumpfile *df;
	struct vmsift_elfview *view;
	struct timespec time;        /* of the mount: every file's times */
	pthread_mutex_t lock;        /* the pool */
	pthread_cond_t freed;
	pthread_mutex_t lazy_lock;   /* dmesg and info, made once */
	struct vmsift_reader **pool;
	unsigned nfree;
	struct lazy_text dmesg, info;
};

static void mount_usage(FILE *f)
{
	fprintf(f,
"usage: vmsift mount [options] DUMP... MOUNTPOINT\n"
"       vmsift umount MOUNTPOINT\n"
"\n"
"Show a dump as a read-only directory: vmcore (an ELF core file, pages\n"
"decompressed on demand), vmcoreinfo, dmesg and info.  DUMP... is one dump\n"
"of any format vmsift reads, or all the files of a split set.\n"
"\n"
"  -f               stay in the foreground (messages on stderr)\n"
"  -o OPTIONS       FUSE mount options (allow_other, ...)\n"
"  --cache-size SIZE  decompressed pages kept (bytes; K, M, G suffixes;\n"
"                   default 64M)\n"
"  --num-threads N  readers at once (default: CPUs online)\n"
"  --log FILE       append read errors to FILE (default: syslog, and\n"
"                   stderr with -f)\n"
"  --identity FILE  the key of an encrypted dump\n");
}

static void mnt_log(struct mnt *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void mnt_log(struct mnt *m, const char *fmt, ...)
{
	char line[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (m->log) {
		fprintf(m->log, "vmsift mount %s: %s\n", m->mountpoint, line);
		fflush(m->log);
	}
	if (m->foreground)
		fprintf(stderr, "vmsift mount %s: %s\n", m->mountpoint, line);
	else
		syslog(LOG_ERR, "%s: %s", m->mountpoint, line);
}

static struct mnt *mnt_of_ctx(void)
{
	return fuse_get_context()->private_data;
}

static struct vmsift_reader *take_reader(struct mnt *m)
{
	struct vmsift_reader *r;

	pthread_mutex_lock(&m->lock);
	while (m->nfree == 0)
		pthread_cond_wait(&m->freed, &m->lock);
	r = m->pool[--m->nfree];
	pthread_mutex_unlock(&m->lock);
	return r;
}

static void give_reader(struct mnt *m, struct vmsift_reader *r)
{
	pthread_mutex_lock(&m->lock);
	m->pool[m->nfree++] = r;
	pthread_cond_signal(&m->freed);
	pthread_mutex_unlock(&m->lock);
}

/* The kernel's log, with a session of its own (the read interface has no
 * log reader); a split set has no single file to open: no dmesg. */
static void make_dmesg(struct mnt *m, struct lazy_text *t)
{
	struct vmsift *vs;
	int fd;
	off_t len;

	if (m->in.npaths != 1 || m->in.identity)
		return;
	vs = vmsift_new();
	fd = memfd_create("vmsift-dmesg", MFD_CLOEXEC);
	if (!vs || fd < 0 || vmsift_open(vs, m->in.paths[0]) < 0 ||
	    vmsift_dump_dmesg(vs, 0, fd, "dmesg") < 0) {
		mnt_log(m, "no dmesg: %s", vs ? vmsift_error(vs) : "out of memory");
		goto out;
	}
	len = lseek(fd, 0, SEEK_END);
	t->text = len > 0 ? malloc((size_t)len) : NULL;
	if (t->text && pread(fd, t->text, (size_t)len, 0) == len)
		t->len = (size_t)len;
out:
	if (fd >= 0)
		close(fd);
	vmsift_free(vs);
}

static void make_info(struct mnt *m, struct lazy_text *t)
{
	if (vmsift_dumpfile_describe(m->df, &t->text) < 0) {
		mnt_log(m, "no info: %s", vmsift_dumpfile_error(m->df));
		return;
	}
	t->len = strlen(t->text);
}

/* The text of a lazy file, made on first use; NULL if it cannot be. */
static struct lazy_text *lazy(struct mnt *m, const char *name)
{
	struct lazy_text *t = !strcmp(name, "dmesg") ? &m->dmesg : &m->info;

	pthread_mutex_lock(&m->lazy_lock);
	if (!t->made) {
		if (t == &m->dmesg)
			make_dmesg(m, t);
		else
			make_info(m, t);
		t->made = 1;
	}
	pthread_mutex_unlock(&m->lazy_lock);
	return t->text ? t : NULL;
}

/* The size of the file NAME, or -1 when the directory has none. */
static int64_t file_size(struct mnt *m, const char *name)
{
	size_t vi_len;
	struct lazy_text *t;

	if (!strcmp(name, "vmcore"))
		return (int64_t)vmsift_elfview_size(m->view);
	if (!strcmp(name, "vmcoreinfo"))
		return vmsift_dumpfile_vmcoreinfo(m->df, &vi_len) ?
		       (int64_t)vi_len : -1;
	if (strcmp(name, "dmesg") && strcmp(name, "info"))
		return -1;
	t = lazy(m, name);
	return t ? (int64_t)t->len : -1;
}

static int m_getattr(const char *path, struct stat *st,
		     struct fuse_file_info *fi)
{
	struct mnt *m = mnt_of_ctx();
	int64_t size;

	(void)fi;
	memset(st, 0, sizeof(*st));
	st->st_uid = getuid();
	st->st_gid = getgid();
	st->st_atim = st->st_mtim = st->st_ctim = m->time;
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0555;
		st->st_nlink = 2;
		return 0;
	}
	size = file_size(m, path + 1);
	if (size < 0)
		return -ENOENT;
	st->st_mode = S_IFREG | 0444;
	st->st_nlink = 1;
	st->st_size = size;
	st->st_blksize = 4096;
	st->st_blocks = (size + 511) / 512;
	return 0;
}

static int m_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
		     off_t off, struct fuse_file_info *fi,
		     enum fuse_readdir_flags flags)
{
	static const char *const names[] = {
		"vmcore", "vmcoreinfo", "dmesg", "info",
	};
	struct mnt *m = mnt_of_ctx();

	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/"))
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (file_size(m, names[i]) >= 0)
			fill(buf, names[i], NULL, 0, 0);
	return 0;
}

static int m_open(const char *path, struct fuse_file_info *fi)
{
	if (file_size(mnt_of_ctx(), path + 1) < 0)
		return -ENOENT;
	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return -EROFS;
	fi->keep_cache = 1;  /* the files never change */
	return 0;
}

static int read_vmcore(struct mnt *m, char *buf, size_t len, off_t off)
{
	struct vmsift_reader *r = take_reader(m);
	size_t got = 0;
	int ret;

	ret = vmsift_elfview_read(r, m->view, (uint64_t)off, buf, len, &got);
	if (ret < 0)
		mnt_log(m, "EIO: %s", vmsift_reader_error(r));
	give_reader(m, r);
	return ret < 0 ? -EIO : (int)got;
}

static int read_text(const char *text, size_t tlen, char *buf, size_t len,
		     off_t off)
{
	if (off < 0 || (uint64_t)off >= tlen)
		return 0;
	if (len > tlen - (size_t)off)
		len = tlen - (size_t)off;
	memcpy(buf, text + off, len);
	return (int)len;
}

static int m_read(const char *path, char *buf, size_t len, off_t off,
		  struct fuse_file_info *fi)
{
	struct mnt *m = mnt_of_ctx();
	struct lazy_text *t;
	const char *vi;
	size_t vi_len;

	(void)fi;
	if (!strcmp(path, "/vmcore"))
		return read_vmcore(m, buf, len, off);
	if (!strcmp(path, "/vmcoreinfo")) {
		vi = vmsift_dumpfile_vmcoreinfo(m->df, &vi_len);
		return vi ? read_text(vi, vi_len, buf, len, off) : -ENOENT;
	}
	if (strcmp(path, "/dmesg") && strcmp(path, "/info"))
		return -ENOENT;
	t = lazy(m, path + 1);
	return t ? read_text(t->text, t->len, buf, len, off) : -ENOENT;
}

/* Sequential readers get long reads ahead, which FUSE's threads serve at
 * once; the kernel keeps what was read (the files never change). */
static void *m_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	conn->max_readahead = 4u << 20;
	cfg->kernel_cache = 1;
	return fuse_get_context()->private_data;
}

static const struct fuse_operations mount_ops = {
	.init = m_init,
	.getattr = m_getattr,
	.readdir = m_readdir,
	.open = m_open,
	.read = m_read,
};

/* The dump's paths made absolute: FUSE's daemon leaves the directory it
 * was started in, and dmesg opens the dump again from there. */
static int absolute_paths(struct mnt *m)
{
	for (int i = 0; i < m->in.npaths; i++) {
		char *abs = realpath(m->in.paths[i], NULL);

		if (!abs)
			return cli_error("cannot open '%s': %m", m->in.paths[i]);
		m->in.paths[i] = abs;  /* lives as long as the process */
	}
	return 0;
}

static int parse_mount(struct mnt *m, int argc, char **argv)
{
	static const struct option opts[] = {
		READ_OPTIONS,
		READ_OPTION_THREADS,
		{ "log", required_argument, NULL, M_LOG },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, r;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "fho:", opts, NULL)) != -1) {
		if ((r = read_option(&m->in, opt, optarg, argv)) != 0) {
			if (r < 0)
				return -1;
			continue;
		}
		switch (opt) {
		case 'h': mount_usage(stdout); exit(0);
		case 'f': m->foreground = 1; break;
		case 'o': m->fuse_opts = optarg; break;
		case M_LOG:
			m->log = fopen(optarg, "ae");
			if (!m->log)
				return cli_error("cannot open '%s': %m", optarg);
			break;
		}
	}
	if (read_operands(&m->in, argc, argv, 1) < 0)
		return cli_error("vmsift mount needs a dump and a mount point");
	m->mountpoint = argv[argc - 1];
	return absolute_paths(m);
}

static int make_pool(struct mnt *m)
{
	if (!m->in.threads)
		m->in.threads = vmsift_cpus_online();
	m->pool = calloc(m->in.threads, sizeof(*m->pool));
	if (!m->pool)
		return cli_error("out of memory");
	for (unsigned i = 0; i < m->in.threads; i++) {
		m->pool[i] = vmsift_reader_new(m->df);
		if (!m->pool[i])
			return cli_error("out of memory for reader %u", i);
		m->nfree++;
	}
	return 0;
}

static void mnt_free(struct mnt *m)
{
	for (unsigned i = 0; i < m->nfree; i++)
		vmsift_reader_free(m->pool[i]);
	free(m->pool);
	free(m->dmesg.text);
	free(m->info.text);
	vmsift_elfview_free(m->view);
	vmsift_dumpfile_free(m->df);
	if (m->log)
		fclose(m->log);
}

/* FUSE's options: read-only, named after the dump, and the user's. */
static int fuse_args_of(struct mnt *m, struct fuse_args *args)
{
	char opts[1024];

	snprintf(opts, sizeof(opts), "ro,fsname=vmsift:%s,subtype=vmsift%s%s",
		 m->in.paths[0], m->fuse_opts ? "," : "",
		 m->fuse_opts ? m->fuse_opts : "");
	if (fuse_opt_add_arg(args, "vmsift") < 0 ||
	    fuse_opt_add_arg(args, "-o") < 0 || fuse_opt_add_arg(args, opts) < 0)
		return cli_error("out of memory");
	return 0;
}

/* Serve until unmounted: FUSE's threads, at most one per reader. */
static int serve(struct mnt *m, struct fuse *f)
{
	struct fuse_loop_config *cfg = fuse_loop_cfg_create();
	int ret;

	if (!cfg)
		return cli_error("out of memory");
	fuse_loop_cfg_set_max_threads(cfg, m->in.threads);
	fuse_loop_cfg_set_idle_threads(cfg, m->in.threads);
	ret = fuse_loop_mt(f, cfg);
	fuse_loop_cfg_destroy(cfg);
	return ret == 0 ? 0 : -1;
}

/* Mount, go to the background unless -f (the command returns once the
 * mount is there), serve, and unmount on a signal or fusermount3 -u. */
static int run_fuse(struct mnt *m)
{
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse *f = NULL;
	int ret = -1;

	if (fuse_args_of(m, &args) < 0)
		goto out;
	f = fuse_new(&args, &mount_ops, sizeof(mount_ops), m);
	if (!f) {
		cli_error("cannot set up FUSE for '%s'", m->mountpoint);
		goto out;
	}
	if (fuse_mount(f, m->mountpoint) != 0) {
		cli_error("cannot mount on '%s'", m->mountpoint);
		goto out;
	}
	if (fuse_daemonize(m->foreground) == 0 &&
	    fuse_set_signal_handlers(fuse_get_session(f)) == 0) {
		ret = serve(m, f);
		fuse_remove_signal_handlers(fuse_get_session(f));
	}
	fuse_unmount(f);
out:
	if (f)
		fuse_destroy(f);
	fuse_opt_free_args(&args);
	return ret;
}

int cmd_mount(int argc, char **argv)
{
	struct mnt m = {
		.in = { .cache_bytes = 64u << 20 },
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.freed = PTHREAD_COND_INITIALIZER,
		.lazy_lock = PTHREAD_MUTEX_INITIALIZER,
	};
	int ret = -1;

	if (parse_mount(&m, argc, argv) < 0) {
		fprintf(stderr, "Try 'vmsift mount -h' for help.\n");
		goto out;
	}
	clock_gettime(CLOCK_REALTIME, &m.time);
	if (read_open_dump(&m.in, &m.df) < 0)
		goto out;
	if (vmsift_elfview_new(m.df, &m.view) < 0) {
		cli_error("%s", vmsift_dumpfile_error(m.df));
		goto out;
	}
	if (make_pool(&m) < 0)
		goto out;
	if (!m.foreground)
		openlog("vmsift", LOG_PID, LOG_DAEMON);
	ret = run_fuse(&m);
out:
	mnt_free(&m);
	return ret;
}

#endif
