/*
 * session.c - the session's public calls (struct vmsift, session.h):
 * create and free it, open the input, give it a VMCOREINFO file, cancel,
 * and read back the last dump's error, stats and doubts.  Dumping itself
 * is dump.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "session.h"
#include "util.h"

struct vmsift *vmsift_new(void)
{
	struct vmsift *vs = calloc(1, sizeof(*vs));

	if (vs)
		vs->in.file.fd = -1;
	return vs;
}

void vmsift_free(struct vmsift *vs)
{
	if (!vs)
		return;
	if (vs->opened)
		vs_input_close(&vs->in);
	free(vs->doubts);
	free(vs);
}

const char *vmsift_error(const struct vmsift *vs)
{
	return vs->err.msg;
}

unsigned vmsift_cpus_online(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

int vmsift_open(struct vmsift *vs, const char *path)
{
	vs_err_clear(&vs->err);
	if (vs->opened)
		return vs_err(&vs->err, "an input is open already");
	if (vs_input_open(&vs->in, path, &vs->err) < 0) {
		vs_input_close(&vs->in);
		return -1;
	}
	vs->opened = 1;
	return 0;
}

int vmsift_set_vmcoreinfo_file(struct vmsift *vs, const char *path)
{
	FILE *f;
	char *text;
	size_t len;
	int ret;

	vs_err_clear(&vs->err);
	if (!vs->opened)
		return vs_err(&vs->err, "no input is open");
	f = fopen(path, "re");
	if (!f)
		return vs_err_sys(&vs->err, "cannot open '%s'", path);
	text = malloc(1 << 20);
	len = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
	if (!text || ferror(f)) {
		ret = vs_err_sys(&vs->err, "cannot read '%s'", path);
	} else {
		ret = vs_input_set_vmcoreinfo(&vs->in, text, len, path,
					      &vs->err);
	}
	free(text);
	fclose(f);
	return ret;
}

void vmsift_cancel(struct vmsift *vs)
{
	atomic_store(&vs->cancel, 1);
}

void vmsift_get_stats(const struct vmsift *vs, struct vmsift_stats *st)
{
	*st = vs->stats;
}

const char *vmsift_doubts(const struct vmsift *vs)
{
	return vs->doubts ? vs->doubts : "";
}
