#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""kva_patch.py IN OUT EDIT...: copy the 64-bit little-endian ELF vmcore
IN to OUT with its memory changed at kernel virtual addresses, each
found through the PT_LOADs' p_vaddr (the kernel-image segments of a
/proc/vmcore, or of vmsift -E's copy of one).  EDIT is

  zero:LO-HI           zeros over [LO, HI) where the file holds data
  set:ADDR:SIZE=VALUE  the SIZE-byte (1, 2, 4 or 8) number VALUE at ADDR
  str:ADDR=TEXT        the bytes of TEXT at ADDR

with addresses and values in hex (0x optional), an address possibly a
sum (ADDR+OFF).  Headers and
notes are copied as they are.  A set or str address that no PT_LOAD
holds in its file data fails (exit 1).  For the riscv64 -x tests
(tests/suites/debuginfo_riscv64_kdump.sh): the carried kdump's text
zeroed so that it compresses, and the planted inconsistencies.
"""
import struct
import sys


def loads(d):
    if d[:4] != b'\x7fELF' or d[4] != 2 or d[5] != 1:
        sys.exit('kva_patch: not a 64-bit little-endian ELF file')
    phoff, = struct.unpack_from('<Q', d, 32)
    phnum, = struct.unpack_from('<H', d, 56)
    for i in range(phnum):
        t, _, off, va, _, fsz, _, _ = struct.unpack_from('<IIQQQQQQ', d,
                                                         phoff + 56 * i)
        if t == 1:
            yield off, va, fsz


def zero(d, lo, hi):
    for off, va, fsz in loads(d):
        a, b = max(lo, va), min(hi, va + fsz)
        if a < b:
            d[off + a - va:off + b - va] = bytes(b - a)


def put(d, addr, data):
    for off, va, fsz in loads(d):
        if va <= addr and addr + len(data) <= va + fsz:
            d[off + addr - va:off + addr - va + len(data)] = data
            return
    sys.exit('kva_patch: no PT_LOAD holds 0x%x+%d in its file data'
             % (addr, len(data)))


def num(s):
    return sum(int(t, 16) for t in s.split('+'))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    d = bytearray(open(sys.argv[1], 'rb').read())
    for e in sys.argv[3:]:
        kind, _, arg = e.partition(':')
        if kind == 'zero':
            lo, hi = arg.split('-')
            zero(d, num(lo), num(hi))
        elif kind == 'set':
            where, value = arg.split('=')
            addr, size = where.split(':')
            fmt = {'1': '<B', '2': '<H', '4': '<I', '8': '<Q'}[size]
            put(d, num(addr), struct.pack(fmt, num(value)))
        elif kind == 'str':
            addr, text = arg.split('=', 1)
            put(d, num(addr), text.encode())
        else:
            sys.exit('kva_patch: unknown edit %r' % e)
    open(sys.argv[2], 'wb').write(d)


if __name__ == '__main__':
    main()
