/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * machine_load.c - the dumped machine's loads (lib/machine.h) read
 * values in the dumped machine's byte order, whatever the host's.
 *
 *   machine_load        exit 0 when every check holds, 1 otherwise
 */
#include <stdio.h>

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
	return bad;
}
