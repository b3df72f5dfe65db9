#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mkspan.py - an x86_64 ELF vmcore whose physical address span is far
larger than its memory: the >16 TiB case (max_mapnr > 2^32) in a few MiB
of disk.

  mkspan.py OUT [--base VMCORE] [--drop-vmcoreinfo] [--ram MIB]
                [--high ADDR:PAGES]... [--zero-every N]

Without --base: one PT_LOAD of --ram MiB at physical 0, then one PT_LOAD
per --high (PAGES pages at ADDR, which may use the suffixes K M G T).
Every page is stamped with its pfn (16-byte records: pfn ^ magic, pfn),
except one page in --zero-every (default 4), which is zero and left a
hole in the file.  The PT_NOTE holds two CORE/NT_PRSTATUS notes and no
VMCOREINFO, so no struct page array is known: max_mapnr is the span,
and only zero pages are filtered (-d 1).

With --base: the base vmcore (a real kdump, e.g. tests/data's) copied
with its holes kept, the --high pages appended, and a new program header
table (the base's PT_LOADs and the new ones) at the end of the file;
--drop-vmcoreinfo renames the VMCOREINFO note so that readers do not see
it (the dead kernel then has no struct page array to offer either).

Writes OUT and prints one line: the PT_LOADs and max_mapnr.
"""
import argparse
import os
import struct

PAGE = 4096
MAGIC = 0x5350414e5350414e  # "SPANSPAN"
PT_LOAD, PT_NOTE = 1, 4
PAGE_OFFSET = 0xffff888000000000


def parse_addr(text):
    mult = {'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30, 'T': 1 << 40}
    text = text.strip()
    if text[-1].upper() in mult:
        return int(text[:-1], 0) * mult[text[-1].upper()]
    return int(text, 0)


def stamp(pfn):
    rec = struct.pack('<QQ', (pfn ^ MAGIC) & (2**64 - 1), pfn)
    return rec * (PAGE // 16)


def is_zero(pfn, zero_every):
    return zero_every > 0 and pfn % zero_every == zero_every - 1


def write_pages(f, offset, first_pfn, npages, zero_every):
    """Write npages stamped pages at offset; zero pages stay holes."""
    for i in range(npages):
        pfn = first_pfn + i
        if not is_zero(pfn, zero_every):
            f.seek(offset + i * PAGE)
            f.write(stamp(pfn))


def note(name, ntype, desc):
    n = name.encode() + b'\0'
    pad = lambda b: b + b'\0' * (-len(b) % 4)
    return struct.pack('<III', len(n), len(desc), ntype) + pad(n) + pad(desc)


def prstatus(pid):
    desc = bytearray(336)
    struct.pack_into('<I', desc, 32, pid)
    return note('CORE', 1, bytes(desc))


def phdr(p_type, off, paddr, filesz, memsz):
    vaddr = PAGE_OFFSET + paddr if p_type == PT_LOAD else 0
    return struct.pack('<IIQQQQQQ', p_type, 7 if p_type == PT_LOAD else 0,
                       off, vaddr, paddr, filesz, memsz,
                       PAGE if p_type == PT_LOAD else 0)


def ehdr(phoff, phnum):
    ident = b'\x7fELF' + bytes([2, 1, 1, 0]) + b'\0' * 8
    return ident + struct.pack('<HHIQQQIHHHHHH', 4, 62, 1, 0, phoff, 0, 0,
                               64, 56, phnum, 64, 0, 0)


def make_fresh(out, ram_mib, highs, zero_every):
    notes = prstatus(1) + prstatus(2)
    loads = [(0, ram_mib << 20)] + [(a, n * PAGE) for a, n in highs]
    phnum = 1 + len(loads)
    note_off = 64 + 56 * phnum
    data_off = (note_off + len(notes) + PAGE - 1) // PAGE * PAGE
    with open(out, 'wb') as f:
        f.truncate(0)
        hdrs = [phdr(PT_NOTE, note_off, 0, len(notes), len(notes))]
        off = data_off
        for paddr, size in loads:
            hdrs.append(phdr(PT_LOAD, off, paddr, size, size))
            write_pages(f, off, paddr // PAGE, size // PAGE, zero_every)
            off += size
        f.truncate(off)
        f.seek(0)
        f.write(ehdr(64, phnum) + b''.join(hdrs) + notes)
    return loads


def copy_sparse(src, dst):
    """Copy SRC to DST, leaving DST's holes where SRC reads as zeros."""
    block = 1 << 16
    with open(src, 'rb') as fi, open(dst, 'wb') as fo:
        size = os.fstat(fi.fileno()).st_size
        while True:
            buf = fi.read(block)
            if not buf:
                break
            if buf.count(0) != len(buf):
                fo.seek(fi.tell() - len(buf))
                fo.write(buf)
        fo.truncate(size)


def drop_vmcoreinfo(f, note_off, note_size):
    """Rename the VMCOREINFO note in place: same sizes, another name."""
    pos, end = note_off, note_off + note_size
    while pos + 12 <= end:
        f.seek(pos)
        namesz, descsz, _ = struct.unpack('<III', f.read(12))
        name = f.read(namesz)
        if name.rstrip(b'\0') == b'VMCOREINFO':
            f.seek(pos + 12)
            f.write(b'VMCOREINFX')
            return True
        pos += 12 + (namesz + 3) // 4 * 4 + (descsz + 3) // 4 * 4
    return False


def make_from_base(out, base, highs, zero_every, drop):
    copy_sparse(base, out)
    with open(out, 'r+b') as f:
        e = f.read(64)
        phoff, = struct.unpack_from('<Q', e, 32)
        phnum, = struct.unpack_from('<H', e, 56)
        f.seek(phoff)
        old = [f.read(56) for _ in range(phnum)]
        loads = []
        for h in old:
            t, _fl, off, _va, paddr, filesz, memsz, _al = \
                struct.unpack('<IIQQQQQQ', h)
            if t == PT_NOTE and drop and not drop_vmcoreinfo(f, off, filesz):
                raise SystemExit('mkspan: %s has no VMCOREINFO note' % base)
            if t == PT_LOAD:
                loads.append((paddr, memsz))
        f.seek(0, os.SEEK_END)
        off = (f.tell() + PAGE - 1) // PAGE * PAGE
        new = []
        for paddr, n in highs:
            write_pages(f, off, paddr // PAGE, n, zero_every)
            new.append(phdr(PT_LOAD, off, paddr, n * PAGE, n * PAGE))
            loads.append((paddr, n * PAGE))
            off += n * PAGE
        f.truncate(off)
        f.seek(off)
        f.write(b''.join(old + new))
        f.seek(32)
        f.write(struct.pack('<Q', off))
        f.seek(56)
        f.write(struct.pack('<H', phnum + len(new)))
    return loads


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('out')
    ap.add_argument('--base')
    ap.add_argument('--drop-vmcoreinfo', action='store_true')
    ap.add_argument('--ram', type=int, default=64, help='MiB at 0')
    ap.add_argument('--high', action='append', default=[])
    ap.add_argument('--zero-every', type=int, default=4)
    a = ap.parse_args()
    highs = []
    for h in a.high:
        addr, n = h.split(':')
        addr = parse_addr(addr)
        if addr % PAGE:
            raise SystemExit('mkspan: %s is not page aligned' % h)
        highs.append((addr, int(n, 0)))
    if a.base:
        loads = make_from_base(a.out, a.base, highs, a.zero_every,
                               a.drop_vmcoreinfo)
    else:
        loads = make_fresh(a.out, a.ram, highs, a.zero_every)
    end = max(p + s for p, s in loads)
    print('%s: %s; max_mapnr %#x' % (a.out, ', '.join(
        '%#x+%#x' % l for l in loads), (end + PAGE - 1) // PAGE))


if __name__ == '__main__':
    main()
