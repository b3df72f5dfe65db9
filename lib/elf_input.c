/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf_input.c - open an ELF64 vmcore: the kernel's /proc/vmcore, an ELF
 * dump file, or QEMU's dump-guest-memory output.
 *
 * Follows the ELF specification, not one producer's habits: program
 * headers are found at e_phoff (QEMU puts section headers first and writes
 * a wrong e_ehsize), PN_XNUM is honoured, and every segment and note is
 * checked against the file's size before it is used.
 *
 * Memory is then read in place through the reader's windows, one window
 * for bulk data and one for small reads; a page the input covers only in
 * part (a segment ending at 0x9fc00, p_filesz < p_memsz) is assembled in
 * the bounce page, with zeros where the file has no data.  Exports only
 * its ops (format.h), used by input.c's table and reader.c.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/vfs.h>

#include "elf_order.h"
#include "format.h"
#include "util.h"

/* Highest physical address we accept: 2^56 (x86_64 5-level paging and
 * arm64 LPA2 stay below 2^52). */
#define VS_MAX_PADDR (1ULL << 56)
#define VS_MAX_NOTES (64u << 20)

static int check_ident(const Elf64_Ehdr *eh, struct vs_error *err)
{
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0)
		return vs_err(err, "not an ELF file (no ELF magic at offset 0)");
	if (eh->e_ident[EI_CLASS] != ELFCLASS64)
		return vs_err(err, "ELF class %u at offset 0x4: only ELF64 "
			      "vmcores are supported", eh->e_ident[EI_CLASS]);
	if (eh->e_ident[EI_DATA] != ELFDATA2LSB &&
	    eh->e_ident[EI_DATA] != ELFDATA2MSB)
		return vs_err(err, "ELF data encoding %u at offset 0x5: "
			      "expected little-endian (1) or big-endian (2)",
			      eh->e_ident[EI_DATA]);
	if (eh->e_type != ET_CORE)
		return vs_err(err, "ELF type %u at offset 0x10: expected a "
			      "core file (4)", eh->e_type);
	if (eh->e_phentsize != sizeof(Elf64_Phdr))
		return vs_err(err, "program header size %u at offset 0x36: "
			      "expected %zu", eh->e_phentsize,
			      sizeof(Elf64_Phdr));
	return 0;
}

/* The number of program headers, through section header 0 if PN_XNUM. */
static int count_phdrs(struct vs_input *in, const Elf64_Ehdr *eh,
		       size_t *nr, struct vs_error *err)
{
	Elf64_Shdr sh;

	*nr = eh->e_phnum;
	if (eh->e_phnum != PN_XNUM)
		return 0;
	if (eh->e_shoff == 0)
		return vs_err(err, "e_phnum is PN_XNUM but there is no section "
			      "header 0 (e_shoff is 0)");
	if (vs_file_read_at(&in->file, &sh, sizeof(sh), eh->e_shoff, "section header 0",
		       err) < 0)
		return -1;
	vs_elf_shdr_order(&in->order, &sh);
	*nr = sh.sh_info;
	return 0;
}

static int check_load(const struct vs_input *in, const Elf64_Phdr *ph,
		      size_t i, uint64_t phoff, struct vs_error *err)
{
	if (ph->p_filesz > ph->p_memsz)
		return vs_err(err, "program header %zu at offset 0x%llx: file "
			      "size 0x%llx larger than memory size 0x%llx", i,
			      (unsigned long long)phoff,
			      (unsigned long long)ph->p_filesz,
			      (unsigned long long)ph->p_memsz);
	if (ph->p_paddr >= VS_MAX_PADDR || ph->p_memsz > VS_MAX_PADDR - ph->p_paddr)
		return vs_err(err, "program header %zu at offset 0x%llx: "
			      "absurd physical range 0x%llx+0x%llx", i,
			      (unsigned long long)phoff,
			      (unsigned long long)ph->p_paddr,
			      (unsigned long long)ph->p_memsz);
	if (ph->p_offset > in->file.size ||
	    ph->p_filesz > in->file.size - ph->p_offset)
		return vs_err(err, "program header %zu at offset 0x%llx: "
			      "segment data 0x%llx+0x%llx ends past the end of "
			      "the file (0x%llx)", i,
			      (unsigned long long)phoff,
			      (unsigned long long)ph->p_offset,
			      (unsigned long long)ph->p_filesz,
			      (unsigned long long)in->file.size);
	return 0;
}

static int add_note_segment(struct vs_input *in, const Elf64_Phdr *ph,
			    size_t i, uint64_t phoff, struct vs_error *err)
{
	uint8_t *p;

	if (ph->p_offset > in->file.size ||
	    ph->p_filesz > in->file.size - ph->p_offset)
		return vs_err(err, "program header %zu at offset 0x%llx: notes "
			      "0x%llx+0x%llx end past the end of the file "
			      "(0x%llx)", i, (unsigned long long)phoff,
			      (unsigned long long)ph->p_offset,
			      (unsigned long long)ph->p_filesz,
			      (unsigned long long)in->file.size);
	if (ph->p_filesz > VS_MAX_NOTES || in->notes_size + ph->p_filesz > VS_MAX_NOTES)
		return vs_err(err, "program header %zu at offset 0x%llx: notes "
			      "too large (0x%llx bytes)", i,
			      (unsigned long long)phoff,
			      (unsigned long long)ph->p_filesz);
	p = realloc(in->notes, in->notes_size + ph->p_filesz + 1);
	if (!p)
		return vs_err_oom(err, "out of memory");
	in->notes = p;
	if (vs_file_read_at(&in->file, p + in->notes_size, ph->p_filesz, ph->p_offset,
		       "notes", err) < 0)
		return -1;
	in->notes_size += ph->p_filesz;
	return 0;
}

/* ---- /proc/kcore ------------------------------------------------------ */

/* /proc/kcore (x86_64 only) is an ELF core of kernel virtual memory: the
 * direct map, vmalloc, vmemmap, the kernel image.  It is told from a
 * vmcore by a PT_LOAD with p_paddr all ones, which kcore writes for every
 * segment that is not RAM (and, before Linux 4.13 or so, for all).  Only
 * the direct map is memory: each of its segments becomes a physical
 * range, p_paddr where the kernel gives one (makedumpfile's rule), else
 * the virtual address less PAGE_OFFSET; every other PT_LOAD is dropped
 * (its p_type set to PT_NULL). */
#define KCORE_NO_PADDR     (~0ULL)
#define KCORE_KERNEL_MAP   0xffffffff80000000ULL  /* __START_KERNEL_map */
#define KCORE_PAGE_OFFSET  0xffff888000000000ULL  /* 4-level, no KASLR */
#define KCORE_DIRECT_SIZE  (1ULL << 46)           /* 4-level direct map */

static int is_kcore(const struct vs_input *in, const Elf64_Phdr *ph,
		    size_t nr)
{
	if (in->elf_machine != EM_X86_64)
		return 0;
	for (size_t i = 0; i < nr; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_paddr == KCORE_NO_PADDR)
			return 1;
	return 0;
}

/* PAGE_OFFSET: from the last RAM segment that has p_paddr (as
 * makedumpfile), else 4-level paging's constant; *WITH_PADDR says which. */
static uint64_t kcore_page_offset(const Elf64_Phdr *ph, size_t nr,
				  int *with_paddr)
{
	uint64_t off = KCORE_PAGE_OFFSET;

	*with_paddr = 0;
	for (size_t i = 0; i < nr; i++) {
		if (ph[i].p_type != PT_LOAD ||
		    ph[i].p_paddr == KCORE_NO_PADDR ||
		    ph[i].p_vaddr >= KCORE_KERNEL_MAP ||
		    ph[i].p_vaddr < ph[i].p_paddr)
			continue;
		off = ph[i].p_vaddr - ph[i].p_paddr;
		*with_paddr = 1;
	}
	return off;
}

static void kcore_phdrs(struct vs_input *in, Elf64_Phdr *ph, size_t nr)
{
	int with_paddr;
	const uint64_t base = kcore_page_offset(ph, nr, &with_paddr);

	in->kcore = 1;
	for (size_t i = 0; i < nr; i++) {
		Elf64_Phdr *p = &ph[i];
		const int direct = p->p_vaddr >= base &&
			p->p_vaddr - base < KCORE_DIRECT_SIZE &&
			p->p_vaddr < KCORE_KERNEL_MAP;

		if (p->p_type != PT_LOAD)
			continue;
		if (!direct || (with_paddr && p->p_paddr == KCORE_NO_PADDR))
			p->p_type = PT_NULL;
		else if (p->p_paddr == KCORE_NO_PADDR)
			p->p_paddr = p->p_vaddr - base;
	}
}

/* Where the kcore has no VMCOREINFO note (before Linux 4.19): the note
 * the kernel keeps in memory, at the physical address and size
 * /sys/kernel/vmcoreinfo gives, read through the direct map (this
 * system's kcore only). */
#define KCORE_SYS_VMCOREINFO "/sys/kernel/vmcoreinfo"
#define KCORE_MAX_VMCOREINFO (64u << 10)

/* This system's kcore (a file on procfs), not a copy of one. */
static int is_live_kcore(const struct vs_input *in)
{
	struct statfs sf;

	return fstatfs(in->file.fd, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC;
}

static int kcore_sys_vmcoreinfo(struct vs_input *in, struct vs_error *err)
{
	unsigned long long paddr, size;
	uint32_t nh[3];
	char *buf;
	FILE *f;
	int n;
	long i;
	int ret = -1;

	if (!is_live_kcore(in))
		return vs_err(err, "no VMCOREINFO note (a copy of a kcore, not "
			      "this system's: no '%s' to read)",
			      KCORE_SYS_VMCOREINFO);
	f = fopen(KCORE_SYS_VMCOREINFO, "r");
	n = f ? fscanf(f, "%llx %llx", &paddr, &size) : 0;
	if (f)
		fclose(f);
	if (n != 2)
		return vs_err(err, "no VMCOREINFO note, and none in '%s'",
			      KCORE_SYS_VMCOREINFO);
	i = vs_input_find(in, paddr);
	if (i < 0 || size > KCORE_MAX_VMCOREINFO || size < sizeof(nh) ||
	    paddr + size > in->phys[i].paddr + in->phys[i].filesz)
		return vs_err(err, "VMCOREINFO at 0x%llx+0x%llx ('%s') is not "
			      "in the direct map", paddr, size,
			      KCORE_SYS_VMCOREINFO);
	buf = malloc(size);
	if (!buf)
		return vs_err_oom(err, "out of memory");
	if (vs_file_read_at(&in->file, buf, size, in->phys[i].offset +
			    (paddr - in->phys[i].paddr), "VMCOREINFO", err) < 0)
		goto out;
	memcpy(nh, buf, sizeof(nh));
	n = (int)vs_round_up(nh[0], 4);  /* the name, "VMCOREINFO" */
	if (nh[1] > size - sizeof(nh) || (size_t)n > size - sizeof(nh) - nh[1])
		vs_err(err, "bad VMCOREINFO note at 0x%llx", paddr);
	else
		ret = vs_input_set_vmcoreinfo(in, buf + sizeof(nh) + n, nh[1],
					      KCORE_SYS_VMCOREINFO, err);
out:
	free(buf);
	return ret;
}

/* Leave [start, end) out of in->phys (sorted, no overlaps), splitting
 * the segment it lies inside. */
static int phys_cut(struct vs_input *in, uint64_t start, uint64_t end,
		    struct vs_error *err)
{
	for (size_t i = 0; i < in->nr_phys; i++) {
		struct vs_segment *s = &in->phys[i], tail;
		const uint64_t s_end = s->paddr + s->memsz;

		if (end <= s->paddr || start >= s_end)
			continue;
		tail = *s;
		tail.paddr = end;
		tail.memsz = end < s_end ? s_end - end : 0;
		tail.offset = s->offset + (end - s->paddr);
		tail.filesz = s->filesz > end - s->paddr ?
			s->filesz - (end - s->paddr) : 0;
		s->memsz = start > s->paddr ? start - s->paddr : 0;
		if (s->filesz > s->memsz)
			s->filesz = s->memsz;
		if (tail.memsz) {
			struct vs_segment *p = realloc(in->phys,
					(in->nr_phys + 1) * sizeof(*p));

			if (!p)
				return vs_err_oom(err, "out of memory");
			in->phys = p;
			memmove(&p[i + 2], &p[i + 1],
				(in->nr_phys - i - 1) * sizeof(*p));
			p[i + 1] = tail;
			in->nr_phys++;
		}
	}
	for (size_t i = 0; i < in->nr_phys;) {
		if (in->phys[i].memsz)
			i++;
		else
			memmove(&in->phys[i], &in->phys[i + 1],
				(--in->nr_phys - i) * sizeof(*in->phys));
	}
	if (in->nr_phys == 0)
		return vs_err(err, "no memory left once the crash kernel's "
			      "0x%llx-0x%llx is left out",
			      (unsigned long long)start,
			      (unsigned long long)end);
	return 0;
}

/* makedumpfile leaves the crash kernel's reserved memory (crashkernel=,
 * "Crash kernel" in /proc/iomem) out of --mem-usage on kcore: so do we,
 * when the input is this system's kcore (a file on procfs), not a copy. */
static int kcore_cut_crashkernel(struct vs_input *in, struct vs_error *err)
{
	char line[256];
	unsigned long long start, end;
	FILE *f;
	int ret = 0;

	if (!is_live_kcore(in))
		return 0;
	f = fopen("/proc/iomem", "r");
	if (!f)
		return 0;
	while (ret == 0 && fgets(line, sizeof(line), f)) {
		if (strstr(line, ": Crash kernel") &&
		    sscanf(line, " %llx-%llx", &start, &end) == 2 &&
		    end > start)
			ret = phys_cut(in, start, end + 1, err);
	}
	fclose(f);
	return ret;
}

static int read_phdrs(struct vs_input *in, const Elf64_Ehdr *eh,
		      struct vs_error *err)
{
	size_t nr, i;
	Elf64_Phdr *ph;
	int ret = -1;

	if (count_phdrs(in, eh, &nr, err) < 0)
		return -1;
	if (nr == 0)
		return vs_err(err, "no program headers (e_phnum is 0)");
	if (nr > in->file.size / sizeof(*ph))
		return vs_err(err, "%zu program headers at offset 0x%llx cannot "
			      "fit in a file of 0x%llx bytes", nr,
			      (unsigned long long)eh->e_phoff,
			      (unsigned long long)in->file.size);
	ph = calloc(nr, sizeof(*ph));
	in->loads = calloc(nr, sizeof(*in->loads));
	if (!ph || !in->loads) {
		vs_err_oom(err, "out of memory");
		goto out;
	}
	if (vs_file_read_at(&in->file, ph, nr * sizeof(*ph), eh->e_phoff,
		       "program headers", err) < 0)
		goto out;
	for (i = 0; i < nr; i++)
		vs_elf_phdr_order(&in->order, &ph[i]);
	if (is_kcore(in, ph, nr))
		kcore_phdrs(in, ph, nr);
	for (i = 0; i < nr; i++) {
		uint64_t phoff = eh->e_phoff + i * sizeof(*ph);

		if (ph[i].p_type == PT_NOTE) {
			if (add_note_segment(in, &ph[i], i, phoff, err) < 0)
				goto out;
		} else if (ph[i].p_type == PT_LOAD) {
			struct vs_segment *s = &in->loads[in->nr_loads++];

			if (check_load(in, &ph[i], i, phoff, err) < 0)
				goto out;
			s->paddr = ph[i].p_paddr;
			s->memsz = ph[i].p_memsz;
			s->filesz = ph[i].p_filesz;
			s->offset = ph[i].p_offset;
			s->vaddr = ph[i].p_vaddr;
		}
	}
	if (in->nr_loads == 0)
		vs_err(err, "no PT_LOAD segment among %zu program headers at "
		       "offset 0x%llx", nr, (unsigned long long)eh->e_phoff);
	else
		ret = 0;
out:
	free(ph);
	return ret;
}

static int seg_cmp(const void *a, const void *b)
{
	const struct vs_segment *x = a, *y = b;

	if (x->paddr != y->paddr)
		return x->paddr < y->paddr ? -1 : 1;
	/* The larger first, so that one inside it is seen as an alias. */
	if (x->memsz != y->memsz)
		return x->memsz > y->memsz ? -1 : 1;
	return 0;
}

/* Build in->phys: sorted, segments of zero size dropped, one lying wholly
 * inside another dropped (the kernel-text alias); a partial overlap is
 * an error, since the two would disagree on what memory holds. */
static int build_phys_map(struct vs_input *in, struct vs_error *err)
{
	size_t i, n = 0;

	in->phys = calloc(in->nr_loads, sizeof(*in->phys));
	if (!in->phys)
		return vs_err_oom(err, "out of memory");
	memcpy(in->phys, in->loads, in->nr_loads * sizeof(*in->phys));
	qsort(in->phys, in->nr_loads, sizeof(*in->phys), seg_cmp);
	for (i = 0; i < in->nr_loads; i++) {
		const struct vs_segment *s = &in->phys[i];
		struct vs_segment *last = n ? &in->phys[n - 1] : NULL;

		if (s->memsz == 0)
			continue;
		if (last && s->paddr < last->paddr + last->memsz) {
			if (s->paddr + s->memsz <= last->paddr + last->memsz)
				continue;
			return vs_err(err, "PT_LOAD segments overlap: physical "
				      "0x%llx-0x%llx and 0x%llx-0x%llx",
				      (unsigned long long)last->paddr,
				      (unsigned long long)(last->paddr + last->memsz),
				      (unsigned long long)s->paddr,
				      (unsigned long long)(s->paddr + s->memsz));
		}
		in->phys[n++] = *s;
	}
	in->nr_phys = n;
	if (n == 0)
		return vs_err(err, "no PT_LOAD segment holds any memory");
	return 0;
}

/* The page size of the dumped machine until its VMCOREINFO (PAGESIZE)
 * says: never the host's.  ppc64's distributions build 64 KiB pages;
 * every other machine kdump runs on starts from 4 KiB. */
static uint64_t base_page_size(uint16_t machine)
{
	return machine == EM_PPC64 ? 65536 : 4096;
}

static int read_header(struct vs_input *in, struct vs_error *err)
{
	Elf64_Ehdr eh;

	if (in->file.size < sizeof(eh)) {
		if (in->file.size >= SELFMAG &&
		    vs_file_read_at(&in->file, &eh, SELFMAG, 0, "ELF header", err) == 0 &&
		    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
			return vs_err(err, "not an ELF file (no ELF magic at "
				      "offset 0)");
		return vs_err(err, "truncated ELF header: the file has 0x%llx "
			      "bytes, the header needs 0x%zx",
			      (unsigned long long)in->file.size, sizeof(eh));
	}
	if (vs_file_read_at(&in->file, &eh, sizeof(eh), 0, "ELF header", err) < 0)
		return -1;
	/* Every field after e_ident in the dumped machine's order. */
	vs_machine_set(&in->order, 0, eh.e_ident[EI_DATA] == ELFDATA2MSB, 8);
	vs_elf_ehdr_order(&in->order, &eh);
	if (check_ident(&eh, err) < 0)
		return -1;
	in->elf_machine = eh.e_machine;
	in->page_size = base_page_size(eh.e_machine);
	in->page_shift = (unsigned)__builtin_ctzll(in->page_size);
	return read_phdrs(in, &eh, err);
}

static int elf_open(struct vs_input *in, struct vs_error *err)
{
	const char *path = in->file.name;

	if (read_header(in, err) < 0 || build_phys_map(in, err) < 0 ||
	    (in->kcore && kcore_cut_crashkernel(in, err) < 0) ||
	    vs_input_scan_notes(in, err) < 0)
		return vs_err_ctx(err, "cannot read '%s'", path);
	vs_input_set_max_mapnr(in);
	if (vs_input_load_vmcoreinfo_note(in, err) < 0 ||
	    (in->kcore && !in->has_vmcoreinfo_note &&
	     kcore_sys_vmcoreinfo(in, err) < 0))
		return vs_err_ctx(err, "cannot read '%s'", path);
	return 0;
}

/* ---- memory ----------------------------------------------------------- */

/* Reads under this many bytes go through the small-read blocks. */
#define ELF_SMALL_READ 512

/* Copy LEN (< a page) bytes at REL of segment S, zeros past its file
 * data, through the view's small-read blocks: page-table entries and
 * kernel variables land all over memory, and a window each would map
 * and unmap 2 MiB for 8 bytes. */
static int copy_small(struct vs_reader *r, const struct vs_segment *s,
		      uint64_t rel, uint8_t *buf, size_t len,
		      struct vs_error *err)
{
	size_t n = 0;

	if (rel < s->filesz)
		n = s->filesz - rel < len ? (size_t)(s->filesz - rel) : len;
	if (n && vs_view_read_small(&r->view, buf, n, s->offset + rel,
				    err) < 0)
		return -1;
	memset(buf + n, 0, len - n);
	return 0;
}

/* Copy [paddr, paddr + len) of segment S, zeros past its file data. */
static int copy_from_segment(struct vs_reader *r, const struct vs_segment *s,
			     uint64_t paddr, uint8_t *buf, size_t len,
			     struct vs_error *err)
{
	uint64_t rel = paddr - s->paddr;

	if (len < ELF_SMALL_READ)
		return copy_small(r, s, rel, buf, len, err);
	while (len) {
		size_t n = len > VS_READ_WINDOW / 2 ? VS_READ_WINDOW / 2 : len;
		const uint8_t *src;

		if (rel >= s->filesz) {
			memset(buf, 0, len);
			return 0;
		}
		if (n > s->filesz - rel)
			n = (size_t)(s->filesz - rel);
		src = vs_view_get(&r->view, VS_WIN_DATA, s->offset + rel, n,
				  s->offset + s->filesz, err);
		if (!src)
			return -1;
		memcpy(buf, src, n);
		buf += n;
		rel += n;
		len -= n;
	}
	return 0;
}

static int elf_read_phys(struct vs_reader *r, uint64_t paddr, void *buf,
			 size_t len, struct vs_error *err)
{
	uint8_t *p = buf;

	while (len) {
		long i = vs_input_find(r->in, paddr);
		const struct vs_segment *s;
		size_t n;

		if (i < 0)
			return vs_err(err, "physical address 0x%llx is not in "
				      "the dump", (unsigned long long)paddr);
		s = &r->in->phys[i];
		n = s->paddr + s->memsz - paddr < len ?
			(size_t)(s->paddr + s->memsz - paddr) : len;
		if (copy_from_segment(r, s, paddr, p, n, err) < 0)
			return -1;
		p += n;
		paddr += n;
		len -= n;
	}
	return 0;
}

static const uint8_t *elf_peek_phys(struct vs_reader *r, uint64_t paddr,
				     size_t len, struct vs_error *err)
{
	const struct vs_input *in = r->in;
	const struct vs_segment *s;
	long i;

	if (len > VS_MAP_WINDOW / 2)
		return NULL;
	i = vs_input_find(in, paddr);
	if (i < 0)
		return NULL;
	s = &in->phys[i];
	if (paddr - s->paddr + len > s->filesz)
		return NULL;
	return vs_view_get(&r->view, VS_WIN_DATA, s->offset + (paddr - s->paddr),
			   len, s->offset + s->filesz, err);
}

/* A page not wholly inside one segment's file data: assemble it. */
static int assemble_page(struct vs_reader *r, uint64_t pfn,
			 const uint8_t **page, struct vs_error *err)
{
	const struct vs_input *in = r->in;
	uint64_t start = pfn << in->page_shift, mem, data;

	vs_input_page_cover(in, pfn, &mem, &data);
	if (mem == 0)
		return vs_err(err, "pfn 0x%llx is not in the dump",
			      (unsigned long long)pfn);
	memset(r->bounce, 0, in->page_size);
	for (uint64_t off = 0; off < in->page_size;) {
		long i = vs_input_find(in, start + off);
		uint64_t n;

		if (i < 0) {
			/* A hole inside the page: skip to the next segment. */
			uint64_t next = vs_phys_next(in, start + off);

			if (next >= start + in->page_size)
				break;
			off = next - start;
			continue;
		}
		n = in->phys[i].paddr + in->phys[i].memsz - (start + off);
		if (n > in->page_size - off)
			n = in->page_size - off;
		if (copy_from_segment(r, &in->phys[i], start + off,
				      r->bounce + off, (size_t)n, err) < 0)
			return -1;
		off += n;
	}
	*page = r->bounce;
	return 0;
}

static int elf_read_page(struct vs_reader *r, uint64_t pfn,
			 const uint8_t **page, struct vs_error *err)
{
	const struct vs_input *in = r->in;
	uint64_t paddr = pfn << in->page_shift;
	const struct vs_segment *s;
	long i = r->last_seg;

	if (i < 0 || paddr < in->phys[i].paddr ||
	    paddr - in->phys[i].paddr >= in->phys[i].memsz) {
		i = vs_input_find(in, paddr);
		r->last_seg = i;
	}
	if (i < 0)
		return assemble_page(r, pfn, page, err);
	s = &in->phys[i];
	if (paddr - s->paddr + in->page_size > s->filesz)
		return assemble_page(r, pfn, page, err);
	*page = vs_view_get(&r->view, VS_WIN_DATA, s->offset + (paddr - s->paddr),
			      in->page_size, s->offset + s->filesz, err);
	return *page ? 0 : -1;
}

static int elf_data_bits(struct vs_reader *r, uint64_t start, uint64_t n,
			 uint64_t *bits, struct vs_error *err)
{
	(void)err;
	vs_phys_bits(r->in, start, n, bits, 1);
	return 0;
}

static int elf_probe(const uint8_t *head, size_t len)
{
	return len >= SELFMAG && !memcmp(head, ELFMAG, SELFMAG);
}

const struct vs_format_ops vs_format_elf = {
	.name = "ELF",
	.probe = elf_probe,
	.open = elf_open,
	.read_page = elf_read_page,
	.read_phys = elf_read_phys,
	.peek_phys = elf_peek_phys,
	.data_bits = elf_data_bits,
};
