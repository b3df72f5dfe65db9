/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kdump_format.h - the kdump-compressed ("diskdump") format on disk, as
 * makedumpfile writes it and crash and libkdumpfile read it: one header,
 * shared by the writer and the reader so that they cannot disagree.
 * Layout for 64-bit dumps; every integer in the dumped machine's byte
 * order, as makedumpfile running on that machine writes it (the
 * kdump_*_order functions convert; the bitmaps are bytes, and the
 * flattened framing is big-endian always).  doc/format.md describes the
 * whole file.  Included by kdump_input.c, kdump_writer.c,
 * reassemble.c, and for the flattened framing by flat.c, flat_reader.c,
 * file.c and sink.c.
 */
#ifndef VMSIFT_KDUMP_FORMAT_H
#define VMSIFT_KDUMP_FORMAT_H

#include <stdint.h>

#include "machine.h"

#define KDUMP_SIGNATURE        "KDUMP   "
#define KDUMP_SIG_LEN          8
#define KDUMP_HEADER_VERSION   6
#define KDUMP_UTS_LEN          65

/* status (header) and flags (page descriptor) bits */
#define KDUMP_ZLIB             0x01u
#define KDUMP_LZO              0x02u
#define KDUMP_SNAPPY           0x04u
#define KDUMP_INCOMPLETE       0x08u
#define KDUMP_EXCLUDED_VMEMMAP 0x10u
#define KDUMP_ZSTD             0x20u

struct kdump_utsname {
	char sysname[KDUMP_UTS_LEN];
	char nodename[KDUMP_UTS_LEN];
	char release[KDUMP_UTS_LEN];
	char version[KDUMP_UTS_LEN];
	char machine[KDUMP_UTS_LEN];
	char domainname[KDUMP_UTS_LEN];
};

/* struct disk_dump_header, 464 bytes on 64-bit. */
struct kdump_header {
	char signature[KDUMP_SIG_LEN];       /* 0 */
	int32_t header_version;              /* 8 */
	struct kdump_utsname utsname;        /* 12 */
	char pad[6];                         /* 402 */
	int64_t tv_sec;                      /* 408 */
	int64_t tv_usec;                     /* 416 */
	uint32_t status;                     /* 424 */
	int32_t block_size;                  /* 428 */
	int32_t sub_hdr_size;                /* 432 */
	uint32_t bitmap_blocks;              /* 436 */
	uint32_t max_mapnr;                  /* 440 */
	uint32_t total_ram_blocks;           /* 444 */
	uint32_t device_blocks;              /* 448 */
	uint32_t written_blocks;             /* 452 */
	uint32_t current_cpu;                /* 456 */
	int32_t nr_cpus;                     /* 460 */
};

/* struct kdump_sub_header, 104 bytes on 64-bit, at offset block_size. */
struct kdump_sub_header {
	uint64_t phys_base;                  /* 0 */
	int32_t dump_level;                  /* 8 */
	int32_t split;                       /* 12 */
	uint64_t start_pfn;                  /* 16 */
	uint64_t end_pfn;                    /* 24 */
	uint64_t offset_vmcoreinfo;          /* 32 */
	uint64_t size_vmcoreinfo;            /* 40 */
	uint64_t offset_note;                /* 48 */
	uint64_t size_note;                  /* 56 */
	uint64_t offset_eraseinfo;           /* 64 */
	uint64_t size_eraseinfo;             /* 72 */
	uint64_t start_pfn_64;               /* 80 */
	uint64_t end_pfn_64;                 /* 88 */
	uint64_t max_mapnr_64;               /* 96 */
};

/* struct page_desc, 24 bytes: one per dumpable page, in pfn order. */
struct kdump_page_desc {
	int64_t offset;                      /* of the page's data in the file */
	uint32_t size;                       /* stored bytes */
	uint32_t flags;                      /* 0 raw, else the codec bit */
	uint64_t page_flags;                 /* unused, 0 */
};

_Static_assert(sizeof(struct kdump_header) == 464, "kdump header size");
_Static_assert(sizeof(struct kdump_sub_header) == 104, "kdump sub header size");
_Static_assert(sizeof(struct kdump_page_desc) == 24, "page descriptor size");

/* Each struct between the host's order and the dumped machine's, either
 * way (swapping is its own inverse): readers convert what they read,
 * writers what they are about to write. */
static inline void kdump_header_order(const struct vs_machine *m,
				      struct kdump_header *h)
{
	h->header_version = (int32_t)vs_order32(m, (uint32_t)h->header_version);
	h->tv_sec = (int64_t)vs_order64(m, (uint64_t)h->tv_sec);
	h->tv_usec = (int64_t)vs_order64(m, (uint64_t)h->tv_usec);
	h->status = vs_order32(m, h->status);
	h->block_size = (int32_t)vs_order32(m, (uint32_t)h->block_size);
	h->sub_hdr_size = (int32_t)vs_order32(m, (uint32_t)h->sub_hdr_size);
	h->bitmap_blocks = vs_order32(m, h->bitmap_blocks);
	h->max_mapnr = vs_order32(m, h->max_mapnr);
	h->total_ram_blocks = vs_order32(m, h->total_ram_blocks);
	h->device_blocks = vs_order32(m, h->device_blocks);
	h->written_blocks = vs_order32(m, h->written_blocks);
	h->current_cpu = vs_order32(m, h->current_cpu);
	h->nr_cpus = (int32_t)vs_order32(m, (uint32_t)h->nr_cpus);
}

static inline void kdump_sub_header_order(const struct vs_machine *m,
					  struct kdump_sub_header *sh)
{
	sh->phys_base = vs_order64(m, sh->phys_base);
	sh->dump_level = (int32_t)vs_order32(m, (uint32_t)sh->dump_level);
	sh->split = (int32_t)vs_order32(m, (uint32_t)sh->split);
	sh->start_pfn = vs_order64(m, sh->start_pfn);
	sh->end_pfn = vs_order64(m, sh->end_pfn);
	sh->offset_vmcoreinfo = vs_order64(m, sh->offset_vmcoreinfo);
	sh->size_vmcoreinfo = vs_order64(m, sh->size_vmcoreinfo);
	sh->offset_note = vs_order64(m, sh->offset_note);
	sh->size_note = vs_order64(m, sh->size_note);
	sh->offset_eraseinfo = vs_order64(m, sh->offset_eraseinfo);
	sh->size_eraseinfo = vs_order64(m, sh->size_eraseinfo);
	sh->start_pfn_64 = vs_order64(m, sh->start_pfn_64);
	sh->end_pfn_64 = vs_order64(m, sh->end_pfn_64);
	sh->max_mapnr_64 = vs_order64(m, sh->max_mapnr_64);
}

static inline void kdump_page_desc_order(const struct vs_machine *m,
					 struct kdump_page_desc *pd)
{
	pd->offset = (int64_t)vs_order64(m, (uint64_t)pd->offset);
	pd->size = vs_order32(m, pd->size);
	pd->flags = vs_order32(m, pd->flags);
	pd->page_flags = vs_order64(m, pd->page_flags);
}

/* The byte order a kdump header at H (raw, as read) is written in: the
 * one in which its header_version is a small positive number (1 if
 * big-endian, 0 if little); -1 if neither.  Little is tried first, as
 * libkdumpfile does with its own sanity checks. */
static inline int kdump_header_big_endian(const struct kdump_header *h)
{
	const uint8_t *v = (const uint8_t *)&h->header_version;
	uint32_t le = v[0] | (uint32_t)v[1] << 8 | (uint32_t)v[2] << 16 |
		      (uint32_t)v[3] << 24;
	uint32_t be = __builtin_bswap32(le);

	if (le >= 1 && le < 0x10000)
		return 0;
	if (be >= 1 && be < 0x10000)
		return 1;
	return -1;
}

/* makedumpfile's flattened format (-F): big-endian framing. */
#define FLAT_SIGNATURE         "makedumpfile"
#define FLAT_HEADER_SIZE       4096
#define FLAT_TYPE              1
#define FLAT_VERSION           1

struct flat_record {
	int64_t offset;                      /* big-endian; -1 ends the stream */
	int64_t size;                        /* big-endian; -1 ends the stream */
};

#endif
