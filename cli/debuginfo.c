/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * debuginfo.c - the debug vmlinux on the command line: -x VMLINUX when an
 * input is opened (dump, split, dmesg), and -g VMCOREINFO -x VMLINUX.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vmsift.h"

/* makedumpfile's exit status for a vmlinux or VMCOREINFO file of another
 * kernel (WRONG_RELEASE). */
#define EXIT_MISMATCH 2

int cli_open_input(struct vmsift *vs, struct cli *c)
{
	if (vmsift_open(vs, c->args[0]) < 0 ||
	    (c->vmlinux && vmsift_set_vmlinux(vs, c->vmlinux) < 0) ||
	    (c->vmcoreinfo && vmsift_set_vmcoreinfo_file(vs, c->vmcoreinfo) < 0)) {
		if (vmsift_status(vs) == VMSIFT_E_MISMATCH)
			c->exit_status = EXIT_MISMATCH;
		return cli_error("%s", vmsift_error(vs));
	}
	return 0;
}

int cli_exit_status(const struct cli *c, int status)
{
	return status && c->exit_status ? c->exit_status : status;
}

static int write_text(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return cli_error("cannot create '%s': %s", path,
				 strerror(errno));
	if (fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		int e = errno;

		if (f)
			fclose(f);
		return cli_error("cannot write '%s': %s", path, strerror(e));
	}
	return 0;
}

int cli_gen_vmcoreinfo(struct cli *c)
{
	struct vmsift *vs;
	char *text = NULL;
	size_t len = 0;
	int ret = -1;

	if (!c->vmlinux || c->nargs != 0)
		return cli_error("-g VMCOREINFO needs -x VMLINUX and no other "
				 "argument"), 1;
	vs = vmsift_new();
	if (!vs)
		return cli_error("out of memory"), 1;
	if (vmsift_vmlinux_vmcoreinfo(vs, c->vmlinux, 0, &text, &len) < 0)
		cli_error("%s", vmsift_error(vs));
	else
		ret = write_text(c->gen_vmcoreinfo, text, len);
	if (ret == 0 && (c->message_level & ML_COMMON))
		printf("The vmcoreinfo is saved to %s.\n\nvmsift Completed.\n",
		       c->gen_vmcoreinfo);
	free(text);
	vmsift_free(vs);
	return ret < 0 ? 1 : 0;
}
