#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""elf_phdrs_first.py IN OUT - rewrite an ELF64 little-endian core file
with its program headers right after the ELF header and no section
headers, the segments' contents unchanged (copied in order, offsets
updated).

QEMU 10's dump-guest-memory writes its section headers at offset 64 and
the program headers after them (e_phoff 192); upstream makedumpfile reads
program header i at 64 + i * 56 whatever e_phoff says, so it finds no
PT_LOAD there.  mkvmcore --arch riscv64 (bookworm-backports' QEMU 10)
lays its snapshot out as older QEMUs and the kernel's /proc/vmcore do.
"""
import shutil
import struct
import sys

EHDR = struct.Struct('<16sHHIQQQIHHHHHH')
PHDR = struct.Struct('<IIQQQQQQ')


def main(src, dst):
    with open(src, 'rb') as f:
        eh = list(EHDR.unpack(f.read(EHDR.size)))
        ident, phoff, phentsize, phnum = eh[0], eh[5], eh[9], eh[10]
        if ident[:4] != b'\x7fELF' or ident[4] != 2 or ident[5] != 1:
            sys.exit('%s: not an ELF64 little-endian file' % src)
        if phentsize != PHDR.size or phnum == 0xffff:
            sys.exit('%s: unexpected program header size or count' % src)
        f.seek(phoff)
        phdrs = [list(PHDR.unpack(f.read(PHDR.size))) for _ in range(phnum)]
        eh[5] = EHDR.size            # e_phoff
        eh[6] = 0                    # e_shoff
        eh[11] = eh[12] = eh[13] = 0  # e_shentsize, e_shnum, e_shstrndx
        off = EHDR.size + PHDR.size * phnum
        new = []
        for ph in phdrs:
            new.append((ph[2], ph[5], off))   # old offset, filesz, new offset
            ph[2] = off
            off += ph[5]
        with open(dst, 'wb') as out:
            out.write(EHDR.pack(*eh))
            for ph in phdrs:
                out.write(PHDR.pack(*ph))
            for old, size, _ in new:
                f.seek(old)
                left = size
                while left:
                    buf = f.read(min(left, 1 << 24))
                    if not buf:
                        sys.exit('%s: segment at %#x truncated' % (src, old))
                    out.write(buf)
                    left -= len(buf)


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
