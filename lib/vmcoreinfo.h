/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmcoreinfo.h - the dead kernel's VMCOREINFO, parsed into typed values.
 *
 * VMCOREINFO is text, one KEY=VALUE a line.  Keys come in kinds:
 *   SYMBOL(name)=hex address     SIZE(type)=decimal
 *   OFFSET(type.member)=decimal  LENGTH(name)=decimal
 *   NUMBER(name)=signed decimal  plain: OSRELEASE, PAGESIZE, CRASHTIME,
 *                                KERNELOFFSET (hex), ...
 * Each getter returns 1 and stores the value when the key is present and
 * well formed, 0 when it is missing (or malformed), so that "missing" is
 * never mistaken for zero.
 *
 * Parsed by the input (the note, or vmsift_set_vmcoreinfo_file); read by
 * the architectures, the filter, the memory model, dmesg.c and the kdump
 * writer.
 */
#ifndef VMSIFT_VMCOREINFO_H
#define VMSIFT_VMCOREINFO_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct vs_vmcoreinfo;

int vs_vmcoreinfo_parse(struct vs_vmcoreinfo **out, const char *text,
			size_t len, struct vs_error *err);
void vs_vmcoreinfo_free(struct vs_vmcoreinfo *vi);

/* The raw value of KEY ("OSRELEASE", "SYMBOL(mem_section)"), or NULL. */
const char *vs_vi_raw(const struct vs_vmcoreinfo *vi, const char *key);

int vs_vi_symbol(const struct vs_vmcoreinfo *vi, const char *name, uint64_t *v);
int vs_vi_size(const struct vs_vmcoreinfo *vi, const char *type, int64_t *v);
int vs_vi_offset(const struct vs_vmcoreinfo *vi, const char *member, int64_t *v);
int vs_vi_length(const struct vs_vmcoreinfo *vi, const char *name, int64_t *v);
int vs_vi_number(const struct vs_vmcoreinfo *vi, const char *name, int64_t *v);
/* NUMBER(NAME) as an unsigned value, the way the architectures write
 * addresses and masks: decimal, or hex after "0x" (no sign). */
int vs_vi_unsigned(const struct vs_vmcoreinfo *vi, const char *name,
		   uint64_t *v);
/* A plain key with a decimal value (PAGESIZE, CRASHTIME). */
int vs_vi_decimal(const struct vs_vmcoreinfo *vi, const char *key, int64_t *v);
/* A plain key with a hex value (KERNELOFFSET). */
int vs_vi_hex(const struct vs_vmcoreinfo *vi, const char *key, uint64_t *v);

#endif
