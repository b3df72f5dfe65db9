/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kdump_format.h - the kdump-compressed ("diskdump") format on disk, as
 * makedumpfile writes it and crash and libkdumpfile read it: one header,
 * shared by the writer and the reader so that they cannot disagree.
 * Layout for 64-bit little-endian dumps (x86_64, arm64); doc/format.md
 * describes the whole file.  Included by kdump_input.c, kdump_writer.c,
 * reassemble.c, and for the flattened framing by flat.c, flat_reader.c,
 * file.c and sink.c.
 */
#ifndef VMSIFT_KDUMP_FORMAT_H
#define VMSIFT_KDUMP_FORMAT_H

#include <stdint.h>

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
