/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * machine_load.c - the dumped machine's loads (lib/machine.h) read
 * values in the dumped machine's byte order, whatever the host's; the
 * stores write it; a kdump header's order is told from its version; the
 * bitmaps' words turn into the file's bytes (pfn 8i+b: bit b of byte i).
 *
 *   machine_load        exit 0 when every check holds, 1 otherwise
 */
#include <stdio.h>
#include <string.h>

#include "bitops.h"
#include "kdump_format.h"
#include "machine.h"

static const uint8_t bytes[8] = { 0x01, 0x02, 0x03, 0x04,
				  0x05, 0x06, 0x07, 0x08 };

static int expect(const char *what, uint64_t got, uint64_t want)
{
	if (got == want)
		return 0;
	fprintf(stderr, "%s: 0x%llx, not 0x%llx\n", what,
		(unsigned long long)got, (unsigned long long)want);
	return 1;
}

static int check_stores(const struct vs_machine *le,
			const struct vs_machine *be)
{
	uint8_t b[8];
	int bad = 0;

	vs_store64(be, b, 0x0102030405060708ull);
	bad |= expect("be store64", !memcmp(b, bytes, 8), 1);
	vs_store64(le, b, 0x0807060504030201ull);
	bad |= expect("le store64", !memcmp(b, bytes, 8), 1);
	vs_store32(be, b, 0x01020304u);
	bad |= expect("be store32", !memcmp(b, bytes, 4), 1);
	vs_store16(le, b, 0x0201u);
	bad |= expect("le store16", !memcmp(b, bytes, 2), 1);
	return bad;
}

/* A header written in one order reads back in it, and is told apart. */
static int check_kdump_order(const struct vs_machine *le,
			     const struct vs_machine *be)
{
	struct kdump_header h;
	const uint8_t *v = (const uint8_t *)&h.header_version;
	int bad = 0;

	memset(&h, 0, sizeof(h));
	h.header_version = 6;
	h.block_size = 4096;
	kdump_header_order(be, &h);
	bad |= expect("be version bytes", v[3] == 6 && v[0] == 0, 1);
	bad |= expect("be header told", kdump_header_big_endian(&h), 1);
	kdump_header_order(be, &h);
	bad |= expect("be round trip", (uint64_t)h.block_size, 4096);
	kdump_header_order(le, &h);
	bad |= expect("le version bytes", v[0] == 6 && v[3] == 0, 1);
	bad |= expect("le header told", kdump_header_big_endian(&h), 0);
	h.header_version = 0;
	bad |= expect("no order", (uint64_t)(kdump_header_big_endian(&h) + 1), 0);
	return bad;
}

static int check_bits(void)
{
	uint64_t w[2] = { 0 };
	const uint8_t *b = (const uint8_t *)w;
	int bad = 0;

	vs_bit_set(w, 9);
	vs_bit_set(w, 64 + 7);
	vs_bits_le(w, 2);
	bad |= expect("bitmap byte 1", b[1], 0x02);
	bad |= expect("bitmap byte 8", b[8], 0x80);
	bad |= expect("bitmap others", b[0] | b[2] | b[7] | b[9], 0);
	vs_bits_le(w, 2);
	bad |= expect("bitmap back", vs_bit_test(w, 9) && vs_bit_test(w, 71), 1);
	return bad;
}

int main(void)
{
	struct vs_machine le, be;
	uint8_t mask[16] = { 0 };
	int bad = 0;

	vs_machine_set(&le, 4096, 0, 8);
	vs_machine_set(&be, 65536, 1, 8);
	bad |= expect("page shift 64K", be.page_shift, 16);
	bad |= expect("le64", vs_load64(&le, bytes), 0x0807060504030201ull);
	bad |= expect("be64", vs_load64(&be, bytes), 0x0102030405060708ull);
	bad |= expect("le32", vs_load32(&le, bytes), 0x04030201u);
	bad |= expect("be32", vs_load32(&be, bytes), 0x01020304u);
	bad |= expect("le16", vs_load16(&le, bytes), 0x0201u);
	bad |= expect("be16", vs_load16(&be, bytes), 0x0102u);
	bad |= expect("be width 2", vs_load_width(&be, bytes, 2), 0x0102u);
	/* Node 9 online: bit 9 of the first unsigned long. */
	mask[1] = 0x02;          /* little-endian: byte 1, bit 1 */
	bad |= expect("le bit 9", vs_long_bit(&le, mask, 9), 1);
	mask[1] = 0;
	mask[6] = 0x02;          /* big-endian: byte 6 of the long */
	bad |= expect("be bit 9", vs_long_bit(&be, mask, 9), 1);
	bad |= expect("be bit 1", vs_long_bit(&be, mask, 1), 0);
	bad |= check_stores(&le, &be);
	bad |= check_kdump_order(&le, &be);
	bad |= check_bits();
	return bad;
}
