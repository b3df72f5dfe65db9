#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""s390x_vmcoreinfo.py IN OUT - give an s390x QEMU snapshot its VMCOREINFO.

QEMU's dump-guest-memory has no VMCOREINFO note on s390x: -device
vmcoreinfo needs fw_cfg, which the s390-ccw-virtio machine lacks.  The
kernel publishes its note anyway: at boot (CONFIG_CRASH_CORE) it stores
the physical address of its VMCOREINFO ELF note in the absolute lowcore,
8 bytes big-endian at absolute address 0xe0c (struct lowcore's
vmcore_info), which is where s390 dump tools find it.

This reads that pointer and the note it points at from IN's memory (an
ELF64 big-endian core file, EM_S390) and writes OUT: the same file with
the note appended to the PT_NOTE segment, laid out as /proc/vmcore is
(program headers after the ELF header, notes, then the PT_LOAD contents in
order, offsets updated; no section headers).  Memory is copied unchanged.
"""
import struct
import sys

EHDR = struct.Struct('>16sHHIQQQIHHHHHH')
PHDR = struct.Struct('>IIQQQQQQ')
PT_LOAD, PT_NOTE = 1, 4
EM_S390 = 22
LC_VMCORE_INFO = 0xe0c
NOTE_NAME = b'VMCOREINFO'


def read_paddr(f, phdrs, paddr, size):
    """size bytes of memory at physical address paddr (one PT_LOAD)."""
    for ph in phdrs:
        if ph[0] == PT_LOAD and ph[4] <= paddr and paddr + size <= ph[4] + ph[5]:
            f.seek(ph[2] + paddr - ph[4])
            return f.read(size)
    sys.exit('physical %#x (+%d) is in no PT_LOAD' % (paddr, size))


def align4(n):
    return (n + 3) & ~3


def main(src, dst):
    with open(src, 'rb') as f:
        eh = list(EHDR.unpack(f.read(EHDR.size)))
        ident, machine, phoff, phentsize, phnum = eh[0], eh[2], eh[5], eh[9], eh[10]
        if ident[:4] != b'\x7fELF' or ident[4] != 2 or ident[5] != 2 or machine != EM_S390:
            sys.exit('%s: not an ELF64 big-endian s390 core file' % src)
        if phentsize != PHDR.size or phnum == 0xffff:
            sys.exit('%s: unexpected program header size or count' % src)
        f.seek(phoff)
        phdrs = [list(PHDR.unpack(f.read(PHDR.size))) for _ in range(phnum)]
        notes = [ph for ph in phdrs if ph[0] == PT_NOTE]
        if len(notes) != 1:
            sys.exit('%s: %d PT_NOTE segments, expected one' % (src, len(notes)))
        note = notes[0]
        f.seek(note[2])
        old_notes = f.read(note[5])
        if NOTE_NAME + b'\0' in old_notes:
            sys.exit('%s: already has a VMCOREINFO note' % src)

        ptr = struct.unpack('>Q', read_paddr(f, phdrs, LC_VMCORE_INFO, 8))[0]
        if ptr == 0:
            sys.exit('%s: lowcore vmcore_info (0xe0c) is 0: kernel without CRASH_CORE?' % src)
        namesz, descsz, ntype = struct.unpack('>III', read_paddr(f, phdrs, ptr, 12))
        if namesz != len(NOTE_NAME) + 1 or not 0 < descsz < 1 << 20:
            sys.exit('%s: no VMCOREINFO note at %#x (namesz %d, descsz %d)'
                     % (src, ptr, namesz, descsz))
        size = 12 + align4(namesz) + align4(descsz)
        vmci = read_paddr(f, phdrs, ptr, size)
        if vmci[12:12 + namesz] != NOTE_NAME + b'\0':
            sys.exit('%s: note at %#x is named %r' % (src, ptr, vmci[12:12 + namesz]))
        desc = vmci[12 + align4(namesz):12 + align4(namesz) + descsz]
        if not desc.startswith(b'OSRELEASE='):
            sys.exit('%s: VMCOREINFO at %#x does not start with OSRELEASE=' % (src, ptr))

        new_notes = old_notes + vmci
        eh[5] = EHDR.size                # e_phoff
        eh[6] = 0                        # e_shoff
        eh[11] = eh[12] = eh[13] = 0     # e_shentsize, e_shnum, e_shstrndx
        off = EHDR.size + PHDR.size * phnum
        note[2], note[5], note[6] = off, len(new_notes), len(new_notes)
        off += len(new_notes)
        copies = []
        for ph in phdrs:
            if ph[0] == PT_NOTE:
                continue
            copies.append((ph[2], ph[5]))
            ph[2] = off
            off += ph[5]
        with open(dst, 'wb') as out:
            out.write(EHDR.pack(*eh))
            for ph in phdrs:
                out.write(PHDR.pack(*ph))
            out.write(new_notes)
            for old, left in copies:
                f.seek(old)
                while left:
                    buf = f.read(min(left, 1 << 24))
                    if not buf:
                        sys.exit('%s: segment at %#x truncated' % (src, old))
                    out.write(buf)
                    left -= len(buf)
    print('VMCOREINFO note at %#x, %d bytes, %s' % (ptr, descsz, desc.split(b'\n')[0].decode()))


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
