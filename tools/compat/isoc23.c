// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * isoc23.c - for vmsift-static.riscv64 only.  Debian has no bookworm
 * riscv64, so its static libcrypto comes from trixie, built against
 * glibc 2.38, which names strtol __isoc23_strtol (C23: "0b" prefixes);
 * the cross compiler's libc is bookworm's 2.36.  libcrypto's two calls
 * parse decimal and hex numbers, where both spellings agree.
 */
#include <stdlib.h>

long __isoc23_strtol(const char *nptr, char **endptr, int base);

long __isoc23_strtol(const char *nptr, char **endptr, int base)
{
	return strtol(nptr, endptr, base);
}
