#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""corrupt.py - overwrite one field of a vmcore's printk ringbuffer in place.

    corrupt.py VMCORE FIELD VALUE     print what it overwrote
    corrupt.py VMCORE restore < SAVED put it back

FIELD: count_bits, size_bits (u32), head_id, tail_id, descs (u64) of the
printk_ringbuffer SYMBOL(prb) points to, or lpos: the head descriptor's
text_blk_lpos (VALUE "BEGIN,NEXT" relative to the end of the text ring,
e.g. "-10,-9"), or clear_seq: both copies of a latched_seq (5.13+), else
the plain u64 (not a corruption: a "dmesg --clear" for --partial-dmesg).  The field is found with the dump's own VMCOREINFO and
translated as kernel text (phys_base); every PT_LOAD copy of the bytes is
written (/proc/vmcore has the kernel text twice).  Standard library only.
"""
import mmap
import re
import struct
import sys

KTEXT = 0xffffffff80000000


class Core:
    def __init__(self, path):
        self.f = open(path, 'r+b')
        self.m = mmap.mmap(self.f.fileno(), 0)
        phoff, = struct.unpack_from('<Q', self.m, 32)
        phnum, = struct.unpack_from('<H', self.m, 56)
        self.loads, notes = [], []
        for i in range(phnum):
            t, _, off, _, pa, fs, _, _ = struct.unpack_from(
                '<IIQQQQQQ', self.m, phoff + i * 56)
            if t == 1:
                self.loads.append((pa, fs, off))
            elif t == 4:
                notes.append(self.m[off:off + fs])
        self.vi = b''.join(notes).decode('latin1')
        self.phys_base = self.number('phys_base')

    def key(self, pattern):
        found = re.search(pattern, self.vi)
        if not found:
            sys.exit('corrupt.py: VMCOREINFO lacks %s' % pattern)
        return found.group(1)

    def number(self, name):
        return int(self.key(r'NUMBER\(%s\)=(-?\d+)' % name))

    def symbol(self, name):
        return int(self.key(r'SYMBOL\(%s\)=([0-9a-f]+)' % name), 16)

    def offset(self, name):
        return int(self.key(r'OFFSET\(%s\)=(\d+)' % re.escape(name)))

    def offsets(self, vaddr):
        if vaddr < KTEXT:
            sys.exit('corrupt.py: 0x%x is not a kernel-text address' % vaddr)
        pa = (vaddr - KTEXT + self.phys_base) % (1 << 64)
        offs = [off + pa - p for p, fs, off in self.loads if p <= pa < p + fs]
        if not offs:
            sys.exit('corrupt.py: 0x%x is not in the dump' % vaddr)
        return offs

    def read(self, vaddr, fmt):
        return struct.unpack_from(fmt, self.m, self.offsets(vaddr)[0])[0]

    def write(self, vaddr, fmt, value):
        for off in self.offsets(vaddr):
            size = struct.calcsize(fmt)
            print('%d %s' % (off, self.m[off:off + size].hex()))
            struct.pack_into(fmt, self.m, off, value)


def main():
    core = Core(sys.argv[1])
    if sys.argv[2] == 'restore':
        for line in sys.stdin:
            off, data = line.split()
            old = bytes.fromhex(data)
            core.m[int(off):int(off) + len(old)] = old
        return
    field, value = sys.argv[2], sys.argv[3]
    prb = core.read(core.symbol('prb'), '<Q')
    desc = prb + core.offset('printk_ringbuffer.desc_ring')
    text = prb + core.offset('printk_ringbuffer.text_data_ring')
    where = {
        'count_bits': (desc + core.offset('prb_desc_ring.count_bits'), '<I'),
        'descs': (desc + core.offset('prb_desc_ring.descs'), '<Q'),
        'head_id': (desc + core.offset('prb_desc_ring.head_id'), '<Q'),
        'tail_id': (desc + core.offset('prb_desc_ring.tail_id'), '<Q'),
        'size_bits': (text + core.offset('prb_data_ring.size_bits'), '<I'),
    }
    if field in where:
        core.write(where[field][0], where[field][1], int(value, 0))
        return
    if field == 'clear_seq':
        at = core.symbol('clear_seq')
        if 'SIZE(latched_seq)=' in core.vi:
            at += core.offset('latched_seq.val')
            core.write(at + 8, '<Q', int(value, 0))
        core.write(at, '<Q', int(value, 0))
        return
    if field != 'lpos':
        sys.exit(__doc__)
    count = 1 << core.read(where['count_bits'][0], '<I')
    size = 1 << core.read(where['size_bits'][0], '<I')
    head = core.read(where['head_id'][0], '<Q')
    descs = core.read(where['descs'][0], '<Q')
    lpos = (descs + (head % count) * int(core.key(r'SIZE\(prb_desc\)=(\d+)'))
            + core.offset('prb_desc.text_blk_lpos'))
    begin, nxt = (size + int(v) for v in value.split(','))
    core.write(lpos + core.offset('prb_data_blk_lpos.begin'), '<Q', begin)
    core.write(lpos + core.offset('prb_data_blk_lpos.next'), '<Q', nxt)


main()
