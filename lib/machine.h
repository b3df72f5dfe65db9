/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * machine.h - the dumped machine's properties, never the host's: page
 * size, byte order and pointer width, read from the dump (ELF header,
 * kdump header, VMCOREINFO) and the architecture's ops by the arch layer
 * (vs_arch_machine() in arch.c).
 *
 * Everything that reads the dump's memory (struct page fields in the
 * filter and the memory model, page-table entries, printk records, list
 * walks) loads values through vs_load16/32/64/ptr, which swap bytes when
 * the dumped machine's byte order differs from the host's.  The loads are
 * inline: the filter's hot loop uses them.
 */
#ifndef VMSIFT_MACHINE_H
#define VMSIFT_MACHINE_H

#include <stdint.h>
#include <string.h>

struct vs_machine {
	uint64_t page_size;          /* bytes, a power of two */
	unsigned page_shift;         /* log2(page_size) */
	int big_endian;              /* the dumped machine's byte order */
	int swap;                    /* it differs from the host's */
	unsigned ptr_size;           /* bytes in a pointer, an unsigned long */
};

/* Is the host big-endian? */
static inline int vs_host_big_endian(void)
{
	return __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
}

/* Fill M for a machine of PAGE_SIZE, BIG_ENDIAN and PTR_SIZE (0: 8). */
static inline void vs_machine_set(struct vs_machine *m, uint64_t page_size,
				  int big_endian, unsigned ptr_size)
{
	m->page_size = page_size;
	m->page_shift = page_size ? (unsigned)__builtin_ctzll(page_size) : 0;
	m->big_endian = big_endian != 0;
	m->swap = m->big_endian != vs_host_big_endian();
	m->ptr_size = ptr_size ? ptr_size : 8;
}

static inline uint16_t vs_load16(const struct vs_machine *m, const void *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return m->swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t vs_load32(const struct vs_machine *m, const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return m->swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t vs_load64(const struct vs_machine *m, const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return m->swap ? __builtin_bswap64(v) : v;
}

/* V between the host's order and the dumped machine's, either way: for
 * the fields of a header struct read or written whole (kdump_format.h,
 * elf_order.h). */
static inline uint16_t vs_order16(const struct vs_machine *m, uint16_t v)
{
	return m->swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t vs_order32(const struct vs_machine *m, uint32_t v)
{
	return m->swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t vs_order64(const struct vs_machine *m, uint64_t v)
{
	return m->swap ? __builtin_bswap64(v) : v;
}

static inline void vs_store16(const struct vs_machine *m, void *p, uint16_t v)
{
	v = vs_order16(m, v);
	memcpy(p, &v, sizeof(v));
}

static inline void vs_store32(const struct vs_machine *m, void *p, uint32_t v)
{
	v = vs_order32(m, v);
	memcpy(p, &v, sizeof(v));
}

static inline void vs_store64(const struct vs_machine *m, void *p, uint64_t v)
{
	v = vs_order64(m, v);
	memcpy(p, &v, sizeof(v));
}

/* A pointer or unsigned long of the dumped machine, widened. */
static inline uint64_t vs_loadptr(const struct vs_machine *m, const void *p)
{
	return m->ptr_size == 4 ? vs_load32(m, p) : vs_load64(m, p);
}

/* An unsigned integer of WIDTH bytes (1, 2, 4 or 8; else 0). */
static inline uint64_t vs_load_width(const struct vs_machine *m,
				     const void *p, unsigned width)
{
	switch (width) {
	case 1: return *(const uint8_t *)p;
	case 2: return vs_load16(m, p);
	case 4: return vs_load32(m, p);
	case 8: return vs_load64(m, p);
	default: return 0;
	}
}

/* Bit N of a bitmap of the dumped machine's unsigned longs (a kernel
 * nodemask_t, cpumask_t). */
static inline int vs_long_bit(const struct vs_machine *m, const uint8_t *map,
			      uint64_t n)
{
	uint64_t bits = 8ull * m->ptr_size;

	return (vs_loadptr(m, map + n / bits * m->ptr_size) >> (n % bits)) & 1;
}

#endif
