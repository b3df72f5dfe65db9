#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mkkcore.py VMCORE OUT: an x86_64 ELF vmcore reshaped as /proc/kcore
lays itself out, for --mem-usage's kcore mode without a live system.

OUT is VMCORE with its program headers rewritten: each PT_LOAD of RAM
moves to the direct map of 4-level paging without KASLR (p_vaddr
0xffff888000000000 + physical address) with p_paddr all ones, as kcore
wrote it before Linux 4.13 (and still writes for what is not RAM); the
kernel-text PT_LOAD (p_vaddr at or above __START_KERNEL_map) keeps its
virtual address and gets p_paddr all ones too, so a reader must drop it.
The notes and the data stay where they are: the same pages, read through
kcore's rules instead of p_paddr."""
import shutil
import struct
import sys

PT_LOAD = 1
NO_PADDR = 0xFFFFFFFFFFFFFFFF
KERNEL_MAP = 0xFFFFFFFF80000000
PAGE_OFFSET = 0xFFFF888000000000


def main(src, dst):
    shutil.copyfile(src, dst)
    with open(dst, "r+b") as f:
        ehdr = f.read(64)
        if ehdr[:6] != b"\x7fELF\x02\x01":
            sys.exit(f"{src}: not a little-endian ELF64 file")
        phoff = struct.unpack_from("<Q", ehdr, 32)[0]
        phentsize, phnum = struct.unpack_from("<HH", ehdr, 54)
        for i in range(phnum):
            f.seek(phoff + i * phentsize)
            ph = list(struct.unpack("<IIQQQQQQ", f.read(56)))
            if ph[0] != PT_LOAD:
                continue
            if ph[3] < KERNEL_MAP:      # RAM: into the plain direct map
                ph[3] = PAGE_OFFSET + ph[4]
            ph[4] = NO_PADDR
            f.seek(phoff + i * phentsize)
            f.write(struct.pack("<IIQQQQQQ", *ph))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: mkkcore.py VMCORE OUT")
    main(sys.argv[1], sys.argv[2])
