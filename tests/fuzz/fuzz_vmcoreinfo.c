/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_vmcoreinfo.c - VMCOREINFO text: vs_vmcoreinfo_parse(), every kind
 * of getter, and vs_input_set_vmcoreinfo() (PAGESIZE checks, max_mapnr).
 * Input: the text itself.
 */
#include <string.h>

#include "fuzz_common.h"
#include "../../lib/input.h"
#include "../../lib/vmcoreinfo.h"

static void getters(const struct vs_vmcoreinfo *vi)
{
	static const char *const names[] = {
		"mem_section", "init_top_pgt", "page", "page.flags",
		"NR_FREE_PAGES", "PG_lru", "OSRELEASE", "PAGESIZE",
		"KERNELOFFSET", "", "(", ")",
	};
	uint64_t u;
	int64_t s;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *raw = vs_vi_raw(vi, names[i]);

		if (raw)
			(void)strlen(raw);
		vs_vi_symbol(vi, names[i], &u);
		vs_vi_size(vi, names[i], &s);
		vs_vi_offset(vi, names[i], &s);
		vs_vi_length(vi, names[i], &s);
		vs_vi_number(vi, names[i], &s);
		vs_vi_decimal(vi, names[i], &s);
		vs_vi_hex(vi, names[i], &u);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vs_vmcoreinfo *vi = NULL;
	struct vs_segment seg = { .paddr = 0x1000, .memsz = 0x100000,
				  .filesz = 0x100000, .offset = 0x1000 };
	struct vs_input in;
	struct vs_error err;
	/* A copy exactly SIZE bytes long, so that ASan sees any over-read. */
	char *text = malloc(size ? size : 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	if (vs_vmcoreinfo_parse(&vi, text, size, &err) == 0)
		getters(vi);
	vs_vmcoreinfo_free(vi);

	memset(&in, 0, sizeof(in));
	in.file.fd = -1;
	in.phys = &seg;
	in.nr_phys = 1;
	in.page_size = 4096;
	in.page_shift = 12;
	vs_input_set_vmcoreinfo(&in, text, size, "fuzz", &err);
	vs_vmcoreinfo_free(in.vi);
	free(text);
	return 0;
}
