/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * di_keys.c - the VMCOREINFO -x gives a dump: opens VMCORE, completes its
 * VMCOREINFO from VMLINUX (vs_debuginfo_apply, as vmsift -x does) and
 * prints KEY=VALUE for each KEY asked, as the text has it ("KEY absent"
 * when it has none).  A refusal prints the message on stderr, exit 1.
 *
 *   di_keys VMCORE VMLINUX KEY...
 *
 * Used by tests/suites/debuginfo_riscv64_kdump.sh: a dump without its
 * note must give its note's lines.
 */
#include <stdio.h>

#include "debuginfo.h"
#include "input.h"
#include "typeinfo_dwarf.h"
#include "vmcoreinfo.h"

static int apply(struct vs_input *in, const char *vmlinux,
		 struct vs_error *err)
{
	struct vs_typeinfo ti = { 0 };
	int ret;

	if (vs_typeinfo_dwarf_open(&ti, vmlinux, err) < 0)
		return -1;
	ret = vs_debuginfo_apply(in, &ti, vmlinux, err);
	vs_typeinfo_free(&ti);
	return ret;
}

int main(int argc, char **argv)
{
	struct vs_input in = { 0 };
	struct vs_error err = { 0 };
	int ret = 1;

	if (argc < 4) {
		fprintf(stderr, "usage: di_keys VMCORE VMLINUX KEY...\n");
		return 2;
	}
	if (vs_input_open(&in, argv[1], &err) < 0 ||
	    apply(&in, argv[2], &err) < 0) {
		fprintf(stderr, "di_keys: %s\n", err.msg);
		goto out_close;
	}
	for (int i = 3; i < argc; i++) {
		const char *v = vs_vi_raw(in.vi, argv[i]);

		if (v)
			printf("%s=%s\n", argv[i], v);
		else
			printf("%s absent\n", argv[i]);
	}
	ret = 0;
out_close:
	vs_input_close(&in);
	return ret;
}
