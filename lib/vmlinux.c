/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmlinux.c - the public calls of a debug vmlinux: vmsift_set_vmlinux()
 * (-x) and vmsift_vmlinux_vmcoreinfo() (-g).  Opens the DWARF source of
 * typeinfo.h; debuginfo.c does the work.  -x leaves the source with the
 * session, for --config's rules.
 */
#include <stdlib.h>
#include <unistd.h>

#include "debuginfo.h"
#include "session.h"
#include "typeinfo_dwarf.h"
#include "vmsift.h"

int vmsift_set_vmlinux(struct vmsift *vs, const char *path)
{
	struct vs_typeinfo ti;
	int ret;

	vs_err_clear(&vs->err);
	if (!vs->opened)
		return vs_err_st(&vs->err, VMSIFT_E_INVALID,
				 "no input is open");
	if (vs_typeinfo_dwarf_open(&ti, path, &vs->err) < 0)
		return -1;
	ret = vs_debuginfo_apply(&vs->in, &ti, path, &vs->err);
	if (ret < 0) {
		vs_typeinfo_free(&ti);
		return ret;
	}
	/* The session keeps the source: --config resolves its rules with
	 * it (erase_setup.c). */
	vs_session_set_typeinfo(vs, ti);
	return 0;
}

int vmsift_vmlinux_vmcoreinfo(struct vmsift *vs, const char *path,
			      uint64_t page_size, char **text, size_t *len)
{
	struct vs_typeinfo ti;
	int ret;

	vs_err_clear(&vs->err);
	if (!page_size) {
		long ps = sysconf(_SC_PAGESIZE);

		page_size = ps > 0 ? (uint64_t)ps : 4096;
	}
	if (vs_typeinfo_dwarf_open(&ti, path, &vs->err) < 0)
		return -1;
	ret = vs_debuginfo_text(&ti, page_size, text, len, &vs->err);
	if (ret < 0)
		vs_err_ctx(&vs->err, "'%s'", path);
	vs_typeinfo_free(&ti);
	return ret;
}
