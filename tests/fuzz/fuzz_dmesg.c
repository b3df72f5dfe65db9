/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_dmesg.c - the kernel log from memory, vmsift_dump_dmesg()
 * (lib/dmesg.c): the lockless ringbuffer (5.10+), the 3.5-5.9 records and
 * the plain character ring, chosen and laid out by VMCOREINFO values.
 *
 * Each run builds a small x86_64 ELF vmcore in the layout of
 * tests/dmesg/mkdmesg.py: one PT_LOAD of MEM bytes at physical 0, page
 * tables at 0x0000-0x2fff mapping the kernel text 0xffffffff80000000 to
 * physical 0 with one 2 MiB page.  An input is
 *   byte 0      bit 0: --partial-dmesg
 *   then        VMCOREINFO text, up to the first NUL (or the end), put
 *               after a fixed preamble (page size, init_top_pgt,
 *               phys_base): the fuzzer picks the format, the symbols and
 *               the SIZE/OFFSET values
 *   then        memory from physical 0x3000 (VARS) on, at most MEM - VARS
 *               bytes: the variables, the log buffer, the rings
 * The log goes to a memfd, emptied before each run.
 */
#include <string.h>

#include "fuzz_common.h"
#include "vmsift.h"

#define MEM       0x10000
#define VARS      0x3000
#define KTEXT     0xffffffff80000000ull
#define DIRECT    0xffff888000000000ull
#define EHDR      64
#define PHDR      56
#define NOTE_CORE 336               /* an x86_64 NT_PRSTATUS */

static const char preamble[] =
	"PAGESIZE=4096\nSYMBOL(init_top_pgt)=ffffffff80000000\n"
	"NUMBER(phys_base)=0\nKERNELOFFSET=0\n";

static int out_fd = -1;

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* The notes: NT_PRSTATUS, then VMCOREINFO of VI_LEN bytes. */
static size_t notes_size(size_t vi_len)
{
	return 12 + 8 + NOTE_CORE + 12 + 12 + pad4(vi_len);
}

static uint8_t *put_le(uint8_t *p, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
	return p + n;
}

/* A note NAME/TYPE with DESC[N] at P; returns the end. */
static uint8_t *put_note(uint8_t *p, const char *name, uint32_t type,
			 const void *desc, size_t n)
{
	const size_t namesz = strlen(name) + 1;

	p = put_le(p, namesz, 4);
	p = put_le(p, n, 4);
	p = put_le(p, type, 4);
	memcpy(p, name, namesz);
	p += pad4(namesz);
	if (n)
		memcpy(p, desc, n);
	return p + pad4(n);
}

static uint8_t *put_phdr(uint8_t *p, uint32_t type, uint64_t off,
			 uint64_t vaddr, uint64_t size)
{
	p = put_le(p, type, 4);
	p = put_le(p, type == 1 ? 7 : 0, 4);
	p = put_le(p, off, 8);
	p = put_le(p, vaddr, 8);
	p = put_le(p, 0, 8);            /* p_paddr: 0 for both */
	p = put_le(p, size, 8);
	p = put_le(p, size, 8);
	return put_le(p, 0, 8);
}

/* The vmcore for VI[VI_LEN] and MEM_BYTES[MEM_LEN] (at VARS) into IMG,
 * of image_size(VI_LEN) bytes. */
static size_t image_size(size_t vi_len)
{
	return EHDR + 2 * PHDR + notes_size(vi_len) + MEM;
}

static void build(uint8_t *img, const char *vi, size_t vi_len,
		    const uint8_t *mem_bytes, size_t mem_len)
{
	const size_t notes_len = notes_size(vi_len);
	const size_t mem_off = EHDR + 2 * PHDR + notes_len;
	uint8_t core[NOTE_CORE], *p = img, *mem = img + mem_off;

	memset(img, 0, mem_off + MEM);
	memcpy(p, "\177ELF\2\1\1", 7);
	p += 16;
	p = put_le(p, 4, 2);            /* ET_CORE */
	p = put_le(p, 62, 2);           /* EM_X86_64 */
	p = put_le(p, 1, 4);
	p = put_le(p, 0, 8);
	p = put_le(p, EHDR, 8);         /* e_phoff */
	p = put_le(p, 0, 8);
	p = put_le(p, 0, 4);
	p = put_le(p, EHDR, 2);
	p = put_le(p, PHDR, 2);
	p = put_le(p, 2, 2);            /* e_phnum; no section headers */
	p = put_phdr(img + EHDR, 4, EHDR + 2 * PHDR, 0, notes_len);
	p = put_phdr(p, 1, mem_off, DIRECT, MEM);
	memset(core, 0, sizeof(core));
	p = put_note(p, "CORE", 1, core, sizeof(core));
	put_note(p, "VMCOREINFO", 0, vi, vi_len);
	put_le(mem + 511 * 8, 0x1000 | 0x63, 8);     /* PGD -> PUD */
	put_le(mem + 0x1000 + 510 * 8, 0x2000 | 0x63, 8);  /* PUD -> PMD */
	put_le(mem + 0x2000, 0xe3, 8);               /* 2 MiB page at 0 */
	memcpy(mem + VARS, mem_bytes, mem_len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *text, *nul, *mem_bytes;
	size_t text_len, mem_len, vi_len;
	char *vi, path[64];
	uint8_t *img;
	struct vmsift *vs;
	int fd;

	if (size < 1)
		return 0;
	text = data + 1;
	nul = memchr(text, 0, size - 1);
	text_len = nul ? (size_t)(nul - text) : size - 1;
	mem_bytes = nul ? nul + 1 : data + size;
	mem_len = (size_t)(data + size - mem_bytes);
	if (mem_len > MEM - VARS)
		mem_len = MEM - VARS;
	vi_len = sizeof(preamble) - 1 + text_len;
	vi = malloc(vi_len + 1);
	img = malloc(image_size(vi_len));
	if (!vi || !img)
		fz_die("malloc");
	memcpy(vi, preamble, sizeof(preamble) - 1);
	memcpy(vi + sizeof(preamble) - 1, text, text_len);
	build(img, vi, vi_len, mem_bytes, mem_len);
	fd = fz_memfd("fuzz-dmesg", img, image_size(vi_len), path, sizeof(path));
	if (out_fd < 0)
		out_fd = fz_memfd("fuzz-out", NULL, 0, NULL, 0);
	fz_truncate(out_fd);
	vs = vmsift_new();
	if (vs && vmsift_open(vs, path) == 0)
		vmsift_dump_dmesg(vs, data[0] & 1, out_fd, "fuzz-out");
	if (vs)
		(void)strlen(vmsift_error(vs));
	vmsift_free(vs);
	close(fd);
	free(img);
	free(vi);
	return 0;
}
