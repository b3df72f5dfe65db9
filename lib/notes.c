/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * notes.c - the ELF notes a dump carries: count the CPUs (CORE /
 * NT_PRSTATUS) and find VMCOREINFO, checking every note's sizes against
 * the notes' end; parse the VMCOREINFO text, from the note or from a
 * file (-i), into in->vi.  Used by the formats at open (ELF and
 * kdump-compressed alike) and by dump.c for a VMCOREINFO file; calls
 * vmcoreinfo.c and phys.c.
 */
#include <elf.h>
#include <string.h>

#include "elf_order.h"
#include "format.h"
#include "vmcoreinfo.h"

static size_t note_align(size_t x)
{
	return (x + 3) & ~(size_t)3;
}

/* Walk the notes: count CPUs, find VMCOREINFO; a note that runs past its
 * segment is an error naming its offset inside the notes. */
int vs_input_scan_notes(struct vs_input *in, struct vs_error *err)
{
	size_t off = 0;

	while (off + sizeof(Elf64_Nhdr) <= in->notes_size) {
		const Elf64_Nhdr n = vs_elf_nhdr_load(&in->order, in->notes + off);
		const Elf64_Nhdr *nh = &n;
		size_t name = off + sizeof(*nh);
		size_t desc = name + note_align(nh->n_namesz);
		size_t end = desc + note_align(nh->n_descsz);

		if (nh->n_namesz == 0 && nh->n_descsz == 0 && nh->n_type == 0)
			break;  /* padding after the last note */
		if (nh->n_namesz > in->notes_size || nh->n_descsz > in->notes_size ||
		    desc + nh->n_descsz > in->notes_size)
			return vs_err(err, "corrupt ELF note at offset 0x%zx of "
				      "the notes: name size %u, data size %u "
				      "run past their end (0x%zx)", off,
				      nh->n_namesz, nh->n_descsz, in->notes_size);
		if (nh->n_namesz == 5 && !memcmp(in->notes + name, "CORE", 5) &&
		    nh->n_type == NT_PRSTATUS)
			in->nr_cpus++;
		if (nh->n_namesz == 11 && !memcmp(in->notes + name, "VMCOREINFO", 11) &&
		    nh->n_type == 0 && !in->has_vmcoreinfo_note) {
			in->has_vmcoreinfo_note = 1;
			in->vmcoreinfo_off = desc;
			in->vmcoreinfo_size = nh->n_descsz;
		}
		off = end > in->notes_size ? in->notes_size : end;
	}
	return 0;
}

int vs_input_set_vmcoreinfo(struct vs_input *in, const char *text, size_t len,
			    const char *origin, struct vs_error *err)
{
	int64_t ps;

	vs_vmcoreinfo_free(in->vi);
	in->vi = NULL;
	if (vs_vmcoreinfo_parse(&in->vi, text, len, err) < 0)
		return vs_err_ctx(err, "%s", origin);
	if (!vs_vi_decimal(in->vi, "PAGESIZE", &ps))
		return vs_err(err, "%s: no PAGESIZE= line", origin);
	if (ps < 512 || ps > (1 << 20) || (ps & (ps - 1)))
		return vs_err(err, "%s: PAGESIZE=%lld is not a power of two "
			      "between 512 and 1 MiB", origin, (long long)ps);
	if (in->fixed_page_size && (uint64_t)ps != in->page_size)
		return vs_err(err, "%s: PAGESIZE=%lld differs from the dump's "
			      "block size %llu", origin, (long long)ps,
			      (unsigned long long)in->page_size);
	in->page_size = (uint64_t)ps;
	in->page_shift = (unsigned)__builtin_ctzll(in->page_size);
	if (!in->fixed_page_size)
		vs_input_set_max_mapnr(in);
	return 0;
}

int vs_input_load_vmcoreinfo_note(struct vs_input *in, struct vs_error *err)
{
	if (!in->has_vmcoreinfo_note)
		return 0;
	return vs_input_set_vmcoreinfo(in,
			(const char *)in->notes + in->vmcoreinfo_off,
			in->vmcoreinfo_size, "VMCOREINFO note", err);
}
