/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_elf.c - the ELF vmcore reader: the ELF header, the program headers,
 * the notes (CORE/NT_PRSTATUS, VMCOREINFO) and the physical memory map
 * (lib/elf_input.c), then the readers (lib/reader.c) and, for inputs that
 * open and stay small, one dump at -d 0 (kdump, no compression) and one at
 * -d 1 (ELF output) through the public API.
 * Input: the whole vmcore file.
 */
#include <fcntl.h>
#include <string.h>

#include "fuzz_common.h"
#include "vmsift.h"
#include "../../lib/input.h"

/* Dump only inputs that span at most this many pages: a fuzzed PT_LOAD
 * may claim terabytes of zero-filled memory. */
#define DUMP_MAX_PAGES 4096

static int out_fd = -1;

static void read_some(const struct vs_input *in)
{
	struct vs_reader r;
	struct vs_error err;
	const uint8_t *page;
	uint8_t buf[64];

	if (vs_reader_init(&r, in, &err) < 0)
		return;
	for (size_t i = 0; i < in->nr_phys && i < 8; i++) {
		const struct vs_segment *s = &in->phys[i];
		uint64_t pfn = s->paddr >> in->page_shift;

		vs_read_page(&r, pfn, &page, &err);
		vs_read_page(&r, pfn + 1, &page, &err);
		vs_read_phys(&r, s->paddr + s->memsz - 1, buf, sizeof(buf), &err);
		vs_read_phys(&r, s->paddr, buf, sizeof(buf), &err);
	}
	vs_read_page(&r, in->max_mapnr - 1, &page, &err);
	vs_reader_fini(&r);
}

static void dump(const char *path, unsigned level, enum vmsift_format format)
{
	struct vmsift *vs = vmsift_new();
	struct vmsift_options o;

	if (!vs)
		return;
	vmsift_options_init(&o);
	o.dump_level = level;
	o.codec = VMSIFT_CODEC_NONE;
	o.format = format;
	o.threads = 1;
	fz_truncate(out_fd);
	if (vmsift_open(vs, path) == 0)
		vmsift_dump(vs, &o, out_fd, "fuzz-out");
	vmsift_free(vs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vs_input in;
	struct vs_error err;
	char path[64];
	int fd = fz_memfd("fuzz-elf", data, size, path, sizeof(path));
	int small;

	if (out_fd < 0)
		out_fd = fz_memfd("fuzz-out", NULL, 0, NULL, 0);
	memset(&in, 0, sizeof(in));
	if (vs_input_open(&in, path, &err) < 0) {
		vs_input_close(&in);
		close(fd);
		return 0;
	}
	read_some(&in);
	small = in.max_mapnr <= DUMP_MAX_PAGES;
	vs_input_close(&in);
	if (small) {
		dump(path, 0, VMSIFT_FORMAT_KDUMP);
		dump(path, 1, VMSIFT_FORMAT_ELF);
	}
	close(fd);
	return 0;
}
