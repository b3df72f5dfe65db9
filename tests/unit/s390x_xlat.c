/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * s390x_xlat.c - translate kernel virtual addresses of a big-endian s390x
 * ELF vmcore through lib/arch_s390x.c, with an ELF reader of its own (a
 * few lines: the headers, the VMCOREINFO note, pages by pread), so the
 * translation is tested on tests/gen's s390x vmcores whatever the
 * library's input reads.  For tests/gen/s390x/xlat_check.py.
 *
 *   s390x_xlat VMCORE < ADDRESSES
 *
 * Reads one hex virtual address a line; writes "VA PA SPAN" (hex) for
 * each that translates, "VA fail MESSAGE" for each that does not.  Exit
 * 0, or 1 when the vmcore cannot be read or translation cannot be set up
 * (the message on stderr).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "format.h"
#include "machine.h"
#include "vmcoreinfo.h"

#define MAX_SEGS 64

struct core {
	int fd;
	struct vs_machine m;
	struct vs_segment seg[MAX_SEGS];
};

static const struct vs_segment *find_seg(const struct vs_input *in,
					 uint64_t pa)
{
	for (size_t i = 0; i < in->nr_phys; i++)
		if (pa >= in->phys[i].paddr &&
		    pa - in->phys[i].paddr < in->phys[i].filesz)
			return &in->phys[i];
	return NULL;
}

static int core_read_page(struct vs_reader *r, uint64_t pfn,
			  const uint8_t **page, struct vs_error *err)
{
	const struct core *c = r->in->priv;
	uint64_t pa = pfn << 12;
	const struct vs_segment *s = find_seg(r->in, pa);

	if (!s)
		return vs_err(err, "pfn 0x%llx is not in the vmcore",
			      (unsigned long long)pfn);
	if (pread(c->fd, r->bounce, 4096,
		  (off_t)(s->offset + (pa - s->paddr))) != 4096)
		return vs_err_sys(err, "cannot read pfn 0x%llx",
				  (unsigned long long)pfn);
	*page = r->bounce;
	return 0;
}

static int core_data_bits(struct vs_reader *r, uint64_t start, uint64_t n,
			  uint64_t *bits, struct vs_error *err)
{
	(void)r; (void)start; (void)n; (void)err;
	*bits = ~0ull;
	return 0;
}

static const struct vs_format_ops core_format = {
	.name = "s390x test ELF",
	.read_page = core_read_page,
	.data_bits = core_data_bits,
};

static int read_at(int fd, uint64_t off, void *buf, size_t len)
{
	return pread(fd, buf, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}

/* The VMCOREINFO note's text in the PT_NOTE at OFF, LEN bytes. */
static int find_vmcoreinfo(struct core *c, struct vs_input *in, uint64_t off,
			   uint64_t len, struct vs_error *err)
{
	uint8_t *notes = malloc(len);
	uint64_t p = 0;
	int rc = -1;

	if (!notes || read_at(c->fd, off, notes, len) < 0)
		goto out;
	while (p + 12 <= len) {
		uint32_t nsz = vs_load32(&c->m, notes + p);
		uint32_t dsz = vs_load32(&c->m, notes + p + 4);
		uint64_t name = p + 12, desc = name + ((nsz + 3) & ~3u);

		if (desc + dsz > len)
			break;
		if (nsz == 11 && !memcmp(notes + name, "VMCOREINFO", 10)) {
			rc = vs_vmcoreinfo_parse(&in->vi, (char *)notes + desc,
						 dsz, err);
			goto out;
		}
		p = desc + ((dsz + 3) & ~3u);
	}
out:
	free(notes);
	return rc;
}

static int open_core(struct core *c, struct vs_input *in, const char *path,
		     struct vs_error *err)
{
	uint8_t eh[64], ph[56];
	uint64_t phoff;
	unsigned phnum;

	c->fd = open(path, O_RDONLY);
	if (c->fd < 0 || read_at(c->fd, 0, eh, sizeof(eh)) < 0 ||
	    memcmp(eh, "\177ELF\2\2", 6))
		return vs_err(err, "'%s' is not a big-endian ELF64 file", path);
	vs_machine_set(&c->m, 4096, 1, 8);
	vs_machine_set(&in->order, 0, 1, 8);       /* EI_DATA: big-endian */
	phoff = vs_load64(&c->m, eh + 32);
	phnum = vs_load16(&c->m, eh + 56);
	in->elf_machine = vs_load16(&c->m, eh + 18);
	for (unsigned i = 0; i < phnum && in->nr_phys < MAX_SEGS; i++) {
		uint32_t type;

		if (read_at(c->fd, phoff + i * 56ull, ph, sizeof(ph)) < 0)
			return vs_err(err, "cannot read program header %u", i);
		type = vs_load32(&c->m, ph);
		if (type == 4 && find_vmcoreinfo(c, in, vs_load64(&c->m, ph + 8),
						  vs_load64(&c->m, ph + 32),
						  err) < 0)
			return vs_err(err, "no VMCOREINFO note");
		if (type != 1)
			continue;
		c->seg[in->nr_phys] = (struct vs_segment){
			vs_load64(&c->m, ph + 24), vs_load64(&c->m, ph + 40),
			vs_load64(&c->m, ph + 32), vs_load64(&c->m, ph + 8),
			vs_load64(&c->m, ph + 16) };
		in->nr_phys++;
	}
	in->phys = c->seg;
	in->ops = &core_format;
	in->priv = c;
	in->page_size = 4096;
	in->page_shift = 12;
	return in->vi ? 0 : vs_err(err, "no VMCOREINFO note");
}

static void translate(const struct vs_arch *a, struct vs_reader *r,
		      uint64_t va)
{
	struct vs_error err;
	uint64_t pa, span;

	vs_err_clear(&err);
	if (vs_vtop(a, r, va, &pa, &span, &err) < 0)
		printf("%llx fail %s\n", (unsigned long long)va, err.msg);
	else
		printf("%llx %llx %llx\n", (unsigned long long)va,
		       (unsigned long long)pa, (unsigned long long)span);
}

int main(int argc, char **argv)
{
	struct core c = { .fd = -1 };
	struct vs_input in;
	struct vs_arch *a = NULL;
	struct vs_reader r;
	struct vs_error err;
	char line[64];
	int rc = 1;

	memset(&in, 0, sizeof(in));
	vs_err_clear(&err);
	if (argc != 2) {
		fprintf(stderr, "usage: s390x_xlat VMCORE < ADDRESSES\n");
		return 1;
	}
	if (open_core(&c, &in, argv[1], &err) < 0 ||
	    vs_arch_new(&a, &in, &err) < 0 || vs_reader_init(&r, &in, &err) < 0) {
		fprintf(stderr, "s390x_xlat: %s\n", err.msg);
		goto out;
	}
	while (fgets(line, sizeof(line), stdin))
		translate(a, &r, strtoull(line, NULL, 16));
	vs_reader_fini(&r);
	rc = 0;
out:
	vs_arch_free(a);
	vs_vmcoreinfo_free(in.vi);
	if (c.fd >= 0)
		close(c.fd);
	return rc;
}
