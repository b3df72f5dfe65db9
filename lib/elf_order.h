/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf_order.h - ELF64 headers between the host's byte order and the
 * dumped machine's (EI_DATA): the ELF input turns what it reads into the
 * host's order at once, the ELF writer turns what it wrote in the host's
 * order into the file's just before writing.  Swapping is its own
 * inverse, so one function serves both ways.  Included by elf_input.c,
 * elf_writer.c and notes.c.
 */
#ifndef VMSIFT_ELF_ORDER_H
#define VMSIFT_ELF_ORDER_H

#include <elf.h>

#include "machine.h"

static inline void vs_elf_ehdr_order(const struct vs_machine *m, Elf64_Ehdr *e)
{
	e->e_type = vs_order16(m, e->e_type);
	e->e_machine = vs_order16(m, e->e_machine);
	e->e_version = vs_order32(m, e->e_version);
	e->e_entry = vs_order64(m, e->e_entry);
	e->e_phoff = vs_order64(m, e->e_phoff);
	e->e_shoff = vs_order64(m, e->e_shoff);
	e->e_flags = vs_order32(m, e->e_flags);
	e->e_ehsize = vs_order16(m, e->e_ehsize);
	e->e_phentsize = vs_order16(m, e->e_phentsize);
	e->e_phnum = vs_order16(m, e->e_phnum);
	e->e_shentsize = vs_order16(m, e->e_shentsize);
	e->e_shnum = vs_order16(m, e->e_shnum);
	e->e_shstrndx = vs_order16(m, e->e_shstrndx);
}

static inline void vs_elf_phdr_order(const struct vs_machine *m, Elf64_Phdr *p)
{
	p->p_type = vs_order32(m, p->p_type);
	p->p_flags = vs_order32(m, p->p_flags);
	p->p_offset = vs_order64(m, p->p_offset);
	p->p_vaddr = vs_order64(m, p->p_vaddr);
	p->p_paddr = vs_order64(m, p->p_paddr);
	p->p_filesz = vs_order64(m, p->p_filesz);
	p->p_memsz = vs_order64(m, p->p_memsz);
	p->p_align = vs_order64(m, p->p_align);
}

static inline void vs_elf_shdr_order(const struct vs_machine *m, Elf64_Shdr *s)
{
	s->sh_name = vs_order32(m, s->sh_name);
	s->sh_type = vs_order32(m, s->sh_type);
	s->sh_flags = vs_order64(m, s->sh_flags);
	s->sh_addr = vs_order64(m, s->sh_addr);
	s->sh_offset = vs_order64(m, s->sh_offset);
	s->sh_size = vs_order64(m, s->sh_size);
	s->sh_link = vs_order32(m, s->sh_link);
	s->sh_info = vs_order32(m, s->sh_info);
	s->sh_addralign = vs_order64(m, s->sh_addralign);
	s->sh_entsize = vs_order64(m, s->sh_entsize);
}

/* A note header read from the dump, in the host's order. */
static inline Elf64_Nhdr vs_elf_nhdr_load(const struct vs_machine *m,
					  const void *p)
{
	Elf64_Nhdr n;

	memcpy(&n, p, sizeof(n));
	n.n_namesz = vs_order32(m, n.n_namesz);
	n.n_descsz = vs_order32(m, n.n_descsz);
	n.n_type = vs_order32(m, n.n_type);
	return n;
}

#endif
