/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_kallsyms.c - the kallsyms decoder (lib/kallsyms.c) on hostile
 * tables, then every lookup.  Input: a 32-byte header, then an image of
 * the dead kernel's memory mapped at IMAGE_BASE:
 *   u32 flags   bit 0 big-endian, bit 1 absolute addresses (no offsets),
 *               bit 2 32-bit pointers
 *   u32 x 7     image offsets of kallsyms_names, num_syms, token_table,
 *               token_index, offsets (or addresses), relative_base, and
 *               of a name to look up (NUL-terminated, bounded)
 * Reads outside the image fail, as reads of memory the dump lacks do.
 */
#include <string.h>

#include "fuzz_common.h"
#include "../../lib/kallsyms.h"

#define IMAGE_BASE 0xffff800000000000ull
#define HDR 32

struct image {
	const uint8_t *p;
	size_t len;
};

static uint32_t le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static int image_read(void *arg, uint64_t vaddr, void *buf, size_t len,
		      struct vs_error *err)
{
	const struct image *im = arg;
	uint64_t off = vaddr - IMAGE_BASE;

	if (vaddr < IMAGE_BASE || off > im->len || len > im->len - off)
		return vs_err(err, "address 0x%llx is not in the image",
			      (unsigned long long)vaddr);
	memcpy(buf, im->p + off, len);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vs_error err = { 0 };
	struct vs_kallsyms *ks = NULL;
	struct vs_ks_layout l = { 0 };
	struct image im;
	uint32_t flags, lookup;
	char name[64] = "";
	uint64_t addr;
	char type;

	if (size < HDR)
		return 0;
	flags = le32(data);
	im.p = data + HDR;
	im.len = size - HDR;
	vs_machine_set(&l.m, 4096, flags & 1, flags & 4 ? 4 : 8);
	l.names = IMAGE_BASE + le32(data + 4);
	l.num_syms = IMAGE_BASE + le32(data + 8);
	l.token_table = IMAGE_BASE + le32(data + 12);
	l.token_index = IMAGE_BASE + le32(data + 16);
	if (flags & 2) {
		l.addresses = IMAGE_BASE + le32(data + 20);
	} else {
		l.offsets = IMAGE_BASE + le32(data + 20);
		l.relative_base = IMAGE_BASE + le32(data + 24);
	}
	lookup = le32(data + 28);
	if (lookup < im.len)
		strncpy(name, (const char *)im.p + lookup,
			im.len - lookup < sizeof(name) - 1 ? im.len - lookup
							    : sizeof(name) - 1);
	if (vs_kallsyms_load(&ks, &l, image_read, &im, &err) < 0)
		return 0;
	vs_kallsyms_lookup(ks, name, &addr, &type, &err);
	for (size_t i = 0; i < vs_kallsyms_count(ks); i++) {
		const char *n = vs_kallsyms_at(ks, i, &addr, &type);

		if (vs_kallsyms_lookup(ks, n, &addr, &type, &err) < 0)
			abort();        /* every decoded name must be found */
	}
	vs_kallsyms_free(ks);
	return 0;
}
