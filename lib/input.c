/*
 * input.c - open an input dump, whatever its format: a kdump-compressed
 * file (kdump_input.c, for re-filtering) or an ELF vmcore (elf_input.c).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "kdump_format.h"
#include "util.h"
#include "vmcoreinfo.h"

void vs_input_set_max_mapnr(struct vs_input *in)
{
	const struct vs_segment *last = &in->phys[in->nr_phys - 1];
	uint64_t end = last->paddr + last->memsz;

	in->max_mapnr = (end + in->page_size - 1) >> in->page_shift;
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
	in->page_size = (uint64_t)ps;
	in->page_shift = (unsigned)__builtin_ctzll(in->page_size);
	if (in->kind == VS_INPUT_ELF)
		vs_input_set_max_mapnr(in);
	else if (in->page_size != in->kd.block_size)
		return vs_err(err, "%s: PAGESIZE=%lld differs from the dump's "
			      "block size %llu", origin, (long long)ps,
			      (unsigned long long)in->kd.block_size);
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

int vs_input_open(struct vs_input *in, const char *path, struct vs_error *err)
{
	char magic[KDUMP_SIG_LEN];

	if (vs_file_open(&in->file, path, err) < 0)
		return -1;
	in->page_size = (uint64_t)sysconf(_SC_PAGESIZE);
	in->page_shift = (unsigned)__builtin_ctzll(in->page_size);
	if (in->file.size >= KDUMP_SIG_LEN &&
	    vs_file_read(&in->file, magic, KDUMP_SIG_LEN, 0) == 0 &&
	    !memcmp(magic, KDUMP_SIGNATURE, KDUMP_SIG_LEN))
		return vs_input_open_kdump(in, err);
	return vs_input_open_elf(in, err);
}

void vs_input_close(struct vs_input *in)
{
	vs_file_close(&in->file);
	vs_vmcoreinfo_free(in->vi);
	free(in->notes);
	free(in->phys);
	free(in->loads);
	free(in->kd.rank);
	memset(in, 0, sizeof(*in));
	in->file.fd = -1;
}
