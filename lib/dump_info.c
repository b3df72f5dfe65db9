/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_info.c - what vmsift knows of an opened dump, as text
 * (vmsift_dumpfile_describe, vmsift.h): the `info` file of vmsift mount.
 * One "key: value" line each; keys are stable, values are for people.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitops.h"
#include "format.h"
#include "kdump_format.h"
#include "read_int.h"
#include "util.h"
#include "vmcoreinfo.h"

static const char *machine_name(uint16_t em)
{
	switch (em) {
	case EM_X86_64: return "x86_64";
	case EM_AARCH64: return "arm64";
	case EM_PPC64: return "ppc64";
	case EM_S390: return "s390x";
	case EM_RISCV: return "riscv64";
	default: return "unknown";
	}
}

/* The codec a kdump header's status names; "none" for other inputs. */
static const char *codec_name(const struct vs_input *in)
{
	static const struct { uint32_t bit; const char *name; } map[] = {
		{ KDUMP_ZLIB, "zlib" }, { KDUMP_LZO, "lzo" },
		{ KDUMP_SNAPPY, "snappy" }, { KDUMP_ZSTD, "zstd" },
	};

	for (size_t i = 0; in->prev.known && i < sizeof(map) / sizeof(map[0]); i++)
		if (in->prev.status & map[i].bit)
			return map[i].name;
	return "none";
}

static void put_release(FILE *f, const struct vs_input *in)
{
	const char *r = in->vi ? vs_vi_raw(in->vi, "OSRELEASE") : NULL;

	if (r)
		fprintf(f, "kernel: %.*s\n", (int)strcspn(r, "\n"), r);
	else if (in->prev.known)
		fprintf(f, "kernel: %.65s\n", in->prev.utsname + 2 * 65);
	else
		fprintf(f, "kernel: unknown\n");
}

static void put_counts(FILE *f, const struct vs_input *in, uint64_t dumped)
{
	uint64_t present = 0;

	for (size_t i = 0; i < in->nr_phys; i++)
		present += vs_div_round_up(in->phys[i].paddr + in->phys[i].memsz,
					   in->page_size) -
			   in->phys[i].paddr / in->page_size;
	fprintf(f, "page_size: %llu\n", (unsigned long long)in->page_size);
	fprintf(f, "max_pfn: 0x%llx\n", (unsigned long long)in->max_mapnr);
	fprintf(f, "pages_present: %llu\n", (unsigned long long)present);
	fprintf(f, "pages_dumped: %llu\n", (unsigned long long)dumped);
	fprintf(f, "pages_excluded: %llu\n",
		(unsigned long long)(present > dumped ? present - dumped : 0));
}

static void put_info(FILE *f, struct vmsift_dumpfile *df, uint64_t dumped)
{
	const struct vs_input *in = vs_df_input(df);

	fprintf(f, "file: %s\n", in->file.name);
	fprintf(f, "format: %s%s\n", in->ops->name,
		in->file.is_flat ? ", flattened" : "");
	if (vs_df_nparts(df))
		fprintf(f, "split_parts: %u\n", vs_df_nparts(df));
	fprintf(f, "codec: %s\n", codec_name(in));
	if (in->prev.known)
		fprintf(f, "dump_level: %d\n", (int)in->prev.dump_level);
	else
		fprintf(f, "dump_level: unknown (an ELF vmcore keeps none)\n");
	if (in->prev.known && (in->prev.status & KDUMP_INCOMPLETE))
		fprintf(f, "incomplete: yes (the dump was cut short)\n");
	fprintf(f, "machine: %s, %s-endian\n", machine_name(in->elf_machine),
		in->order.big_endian ? "big" : "little");
	put_release(f, in);
	fprintf(f, "cpus: %u\n", in->nr_cpus);
	fprintf(f, "vmcoreinfo: %s\n", in->has_vmcoreinfo_note ? "yes" : "no");
	put_counts(f, in, dumped);
}

int vmsift_dumpfile_describe(struct vmsift_dumpfile *df, char **text)
{
	const struct vs_input *in = vs_df_input(df);
	uint64_t words, *bits;
	size_t size;
	FILE *f;

	*text = NULL;
	vs_err_clear(vs_df_err(df));
	if (!in)
		return vs_err_st(vs_df_err(df), VMSIFT_E_INVALID,
				 "no dump is open");
	words = vs_div_round_up(in->max_mapnr, 64) + 1;
	bits = calloc(words, 8);
	if (!bits)
		return vs_err_oom(vs_df_err(df), "out of memory");
	if (vs_df_data_bits(df, bits) < 0) {
		free(bits);
		return vs_err_ctx(vs_df_err(df), "cannot describe '%s'",
				  in->file.name);
	}
	f = open_memstream(text, &size);
	if (!f) {
		free(bits);
		return vs_err_oom(vs_df_err(df), "out of memory");
	}
	put_info(f, df, vs_bits_count(bits, words));
	free(bits);
	if (fclose(f) != 0) {
		free(*text);
		*text = NULL;
		return vs_err_oom(vs_df_err(df), "out of memory");
	}
	return 0;
}
