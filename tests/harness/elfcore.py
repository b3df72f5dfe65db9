# SPDX-License-Identifier: GPL-2.0-or-later
"""Minimal readers for the harness's checks: an ELF64 vmcore's PT_LOADs and
a kdump-compressed file's bitmaps.  Written for /usr/bin/python3 (Debian)."""
import struct

PAGE = 4096
PT_LOAD = 1


class Segment:
    __slots__ = ("paddr", "vaddr", "offset", "filesz", "memsz")

    def __init__(self, paddr, vaddr, offset, filesz, memsz):
        self.paddr, self.vaddr = paddr, vaddr
        self.offset, self.filesz, self.memsz = offset, filesz, memsz


def pt_loads(path):
    """The PT_LOAD program headers of an ELF64 core file of either byte
    order (s390x's is big-endian), following e_phoff (and PN_XNUM) rather
    than assuming offset 64."""
    with open(path, "rb") as f:
        ehdr = f.read(64)
        if ehdr[:4] != b"\x7fELF" or ehdr[4] != 2 or ehdr[5] not in (1, 2):
            raise ValueError(f"{path}: not an ELF64 file")
        bo = "<" if ehdr[5] == 1 else ">"
        phoff, shoff = struct.unpack_from(bo + "QQ", ehdr, 32)
        phentsize, phnum = struct.unpack_from(bo + "HH", ehdr, 54)
        if phnum == 0xFFFF:  # PN_XNUM: the real count is section 0's sh_info
            f.seek(shoff)
            phnum = struct.unpack_from(bo + "I", f.read(64), 44)[0]
        f.seek(phoff)
        table = f.read(phentsize * phnum)
    segs = []
    for i in range(phnum):
        p_type, _flags, off, vaddr, paddr, filesz, memsz = struct.unpack_from(
            bo + "IIQQQQQ", table, i * phentsize)
        if p_type == PT_LOAD:
            segs.append(Segment(paddr, vaddr, off, filesz, memsz))
    return segs


def coverage(segs):
    """pfn -> bytes of that page covered by some PT_LOAD (union of segments,
    counted by p_memsz; pages not covered at all are absent)."""
    ranges = sorted((s.paddr, s.paddr + s.memsz) for s in segs if s.memsz)
    merged = []
    for lo, hi in ranges:
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    cov = {}
    for lo, hi in merged:
        first, last = lo // PAGE, (hi - 1) // PAGE
        for pfn in (first, last):
            a, b = max(lo, pfn * PAGE), min(hi, (pfn + 1) * PAGE)
            cov[pfn] = cov.get(pfn, 0) + (b - a)
        for pfn in range(first + 1, last):
            cov[pfn] = PAGE
    return cov


def partial_pfns(segs):
    """pfns whose page is only partly covered by the PT_LOADs."""
    return {pfn for pfn, n in coverage(segs).items() if n < PAGE}


class KdumpHeader:
    """The fields of a kdump-compressed file the checks need (64-bit layout)."""

    def __init__(self, path):
        with open(path, "rb") as f:
            head = f.read(440)
            if head[:8] != b"KDUMP   ":
                raise ValueError(f"{path}: not a kdump-compressed file "
                                 f"(signature {head[:8]!r})")
            # the dumped machine's byte order: header_version is small
            bo = "<" if struct.unpack_from("<I", head, 8)[0] < 0x10000 else ">"
            self.block_size, self.sub_hdr_size, self.bitmap_blocks = \
                struct.unpack_from(bo + "iiI", head, 428)
            half = self.bitmap_blocks * self.block_size // 2
            f.seek((1 + self.sub_hdr_size) * self.block_size)
            self.bitmap1 = f.read(half)
            self.bitmap2 = f.read(half)
        if len(self.bitmap2) != half:
            raise ValueError(f"{path}: truncated bitmaps")


def set_bits(bitmap):
    """pfns whose bit is set (LSB first within each byte)."""
    out = []
    for i, byte in enumerate(bitmap):
        if byte:
            base = i * 8
            for b in range(8):
                if byte >> b & 1:
                    out.append(base + b)
    return out


def file_kind(path):
    with open(path, "rb") as f:
        magic = f.read(16)
    if magic[:8] == b"KDUMP   ":
        return "kdump"
    if magic[:4] == b"\x7fELF":
        return "elf"
    if magic.startswith(b"makedumpfile"):
        return "flattened"
    return "unknown"
