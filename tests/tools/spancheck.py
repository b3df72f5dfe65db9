#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""spancheck - independent checks of a dump whose physical address span
is far larger than its memory (tests/gen/mkspan.py: max_mapnr > 2^32).

vmcheck.py walks every pfn below max_mapnr: 2^32 of them here.  These
checks walk the input's pages and the bitmaps' data extents only (the
file's holes, found with SEEK_DATA, are zeros), so they cost what the
memory costs, not what the span does.

  kdump INPUT LEVEL DUMP [PART...]
      the kdump header's 64-bit fields (header version >= 6,
      max_mapnr_64 the input's span, the 32-bit max_mapnr and a split
      file's start_pfn/end_pfn saturated as makedumpfile writes them,
      start_pfn_64/end_pfn_64 tiling [0, max_mapnr_64)); bitmap 1 set
      exactly on the input's pages, bitmap 2 inside it and holding every
      page with data (at LEVEL 1: every non-zero one); libkdumpfile
      (one file, or the split set through kdump_open_fdset) reads each
      kept page equal to the input's, finds the excluded ones absent,
      pages in the holes absent, and says max_pfn is the span
  fields INPUT LEVEL DUMP [PART...]
      the same without libkdumpfile: headers and bitmaps only (a few
      seconds less a file: libkdumpfile reads both bitmaps whole)
  elf INPUT LEVEL DUMP
      an ELF dump: libkdumpfile reads every input page with data equal
      to the input's (zero pages at LEVEL 1 may read as zeros), and the
      PT_LOADs reach the input's highest address

Exit status 0 when the check passes; 1 with a message naming the pfn.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vmcheck  # noqa: E402  (its ELF reader and libkdumpfile helpers)

PAGE = 4096
U32 = 0xffffffff
fail = vmcheck.fail


def input_pages(elf):
    """[(first pfn, end pfn, data end pfn)] of the input's PT_LOADs."""
    return [(p // PAGE, (p + m + PAGE - 1) // PAGE, (p + f) // PAGE)
            for p, m, f, _, _ in elf.loads_sorted if m]


class Part:
    """A kdump file's headers, parsed here (not by vmsift or libkdumpfile)."""

    def __init__(self, path):
        self.path = path
        with open(path, 'rb') as f:
            hdr = f.read(464)
            if hdr[:8] != b'KDUMP   ':
                fail('%s: no KDUMP signature' % path)
            self.version, = struct.unpack_from('<i', hdr, 8)
            (self.status, self.bs, self.sub_blocks, self.bitmap_blocks,
             self.max_mapnr) = struct.unpack_from('<IiiII', hdr, 424)
            f.seek(self.bs)
            sub = f.read(104)
        (_pb, self.level, self.split, self.start_pfn, self.end_pfn) = \
            struct.unpack_from('<QiiQQ', sub, 0)
        (self.start_pfn_64, self.end_pfn_64, self.max_mapnr_64) = \
            struct.unpack_from('<QQQ', sub, 80)
        self.half = self.bitmap_blocks * self.bs // 2
        self.bitmap1_off = (1 + self.sub_blocks) * self.bs
        self.bitmap2_off = self.bitmap1_off + self.half

    def set_bits(self, off):
        """The set bits of the bitmap at OFF, from its data extents."""
        pfns = []
        fd = os.open(self.path, os.O_RDONLY)
        try:
            pos, end = off, off + self.half
            while pos < end:
                try:
                    pos = os.lseek(fd, pos, os.SEEK_DATA)
                except OSError:
                    break  # no data after POS
                if pos >= end:
                    break
                stop = min(end, os.lseek(fd, pos, os.SEEK_HOLE))
                buf = os.pread(fd, stop - pos, pos)
                base = (pos - off) * 8
                i = 0
                while True:
                    i = _next_nonzero(buf, i)
                    if i < 0:
                        break
                    for b in range(8):
                        if buf[i] >> b & 1:
                            pfns.append(base + 8 * i + b)
                    i += 1
                pos = stop
        finally:
            os.close(fd)
        return pfns


def _next_nonzero(buf, i):
    """The index of the first non-zero byte of BUF at or after I, or -1."""
    n = len(buf)
    while i < n:
        j = min(n, i + 4096)
        if buf[i:j].count(0) != j - i:
            return next(k for k in range(i, j) if buf[k])
        i = j
    return -1


def check_headers(parts, span):
    for p in parts:
        if p.version < 6:
            fail('%s: header version %d, 6 or more needed for 64-bit '
                 'fields' % (p.path, p.version))
        if p.max_mapnr_64 != span:
            fail('%s: max_mapnr_64 %#x, the input spans %#x pfns' %
                 (p.path, p.max_mapnr_64, span))
        if p.max_mapnr != min(span, U32):
            fail('%s: 32-bit max_mapnr %#x, want %#x' %
                 (p.path, p.max_mapnr, min(span, U32)))
        if p.half * 8 < span:
            fail('%s: bitmaps of %#x bytes cannot hold %#x pfns' %
                 (p.path, p.half, span))
    if len(parts) == 1:
        return
    at = 0
    for p in parts:
        if not p.split:
            fail('%s: not marked as a split file' % p.path)
        if p.start_pfn_64 != at or p.end_pfn_64 < at:
            fail('%s: range %#x-%#x, want it to start at %#x' %
                 (p.path, p.start_pfn_64, p.end_pfn_64, at))
        if (p.start_pfn, p.end_pfn) != (min(p.start_pfn_64, U32),
                                         min(p.end_pfn_64, U32)):
            fail('%s: 32-bit start_pfn/end_pfn %#x/%#x, want %#x/%#x' %
                 (p.path, p.start_pfn, p.end_pfn, min(p.start_pfn_64, U32),
                  min(p.end_pfn_64, U32)))
        at = p.end_pfn_64
    if at != span:
        fail('the split set ends at pfn %#x, not at max_mapnr %#x' %
             (at, span))


def check_bitmaps(parts, elf, level):
    """Every file of a set carries both bitmaps whole: check each."""
    want1 = set()
    for first, end, _ in input_pages(elf):
        want1.update(range(first, end))
    for p in parts:
        b1 = set(p.set_bits(p.bitmap1_off))
        b2 = set(p.set_bits(p.bitmap2_off))
        if b1 != want1:
            extra = sorted(b1 - want1)[:1] or sorted(want1 - b1)[:1]
            fail('%s: bitmap 1 differs from the input at pfn %#x '
                 '(%d set, %d input pages)' % (p.path, extra[0], len(b1),
                                               len(want1)))
        if not b2 <= b1:
            fail('%s: bitmap 2 sets pfn %#x, absent from bitmap 1' %
                 (p.path, min(b2 - b1)))
        for pfn in want1 - b2:
            if not level & 1 or elf.read(pfn * PAGE, PAGE) != bytes(PAGE):
                fail('%s: pfn %#x left out of bitmap 2 at -d %d' %
                     (p.path, pfn, level))
    return want1


def hole_probes(elf, span):
    """pfns in the holes: next to each segment, and about 2^32."""
    pages = input_pages(elf)
    probes = {(1 << 32) - 3, 1 << 32, (1 << 32) + 5}
    for first, end, _ in pages:
        probes.update({first - 1, end, end + 12345})
    inside = lambda q: any(f <= q < e for f, e, _ in pages)
    return sorted(q for q in probes if 0 <= q < span and not inside(q))


def read_or_none(k, kmod, pfn):
    try:
        return k.read(kmod.KDUMP_MACHPHYSADDR, pfn * PAGE, PAGE)
    except Exception:
        return None


def check_kdump(read, input_path, level, dump, *more):
    elf = vmcheck.Elf(input_path)
    span = elf.max_pfn()
    parts = [Part(p) for p in (dump,) + more]
    check_headers(parts, span)
    pages = check_bitmaps(parts, elf, level)
    if not read:
        print('ok: max_mapnr %#x in %d file(s); headers and bitmaps' %
              (span, len(parts)))
        return
    if more:
        k, kmod = vmcheck.FdSet((dump,) + more), __import__('kdumpfile')
    else:
        k, kmod = vmcheck.open_kdumpfile(dump)
    if not more and k.attr['max_pfn'] != span:
        fail('libkdumpfile says max_pfn %#x, the input spans %#x' %
             (k.attr['max_pfn'], span))
    b2 = set(parts[0].set_bits(parts[0].bitmap2_off))
    for pfn in sorted(pages):
        got = read_or_none(k, kmod, pfn)
        if pfn not in b2:
            if got is not None:
                fail('pfn %#x: excluded, yet libkdumpfile reads it' % pfn)
            continue
        if got != elf.read(pfn * PAGE, PAGE):
            fail('pfn %#x: libkdumpfile reads %s' %
                 (pfn, 'nothing' if got is None else 'another page'))
    for pfn in hole_probes(elf, span):
        if read_or_none(k, kmod, pfn) is not None:
            fail('pfn %#x: in a hole, yet libkdumpfile reads it' % pfn)
    high = max(pages)
    print('ok: max_mapnr %#x in %d file(s); %d pages kept, %d excluded, '
          'the highest pfn %#x equal to the input' %
          (span, len(parts), len(b2), len(pages) - len(b2), high))


def check_elf(input_path, level, dump):
    elf = vmcheck.Elf(input_path)
    out = vmcheck.Elf(dump)
    if out.max_pfn() < elf.max_pfn():
        fail('the ELF dump ends at pfn %#x, the input at %#x' %
             (out.max_pfn(), elf.max_pfn()))
    k, kmod = vmcheck.open_kdumpfile(dump)
    n = 0
    for first, _end, data_end in input_pages(elf):
        for pfn in range(first, data_end):
            want = elf.read(pfn * PAGE, PAGE)
            got = read_or_none(k, kmod, pfn)
            if got == want or (level & 1 and want == bytes(PAGE)):
                n += 1
                continue
            fail('pfn %#x: libkdumpfile reads %s from the ELF dump' %
                 (pfn, 'nothing' if got is None else 'another page'))
    print('ok: %d pages up to pfn %#x read back from the ELF dump' %
          (n, elf.max_pfn() - 1))


def main():
    if len(sys.argv) < 5 or sys.argv[1] not in ('kdump', 'fields', 'elf'):
        raise SystemExit(__doc__)
    cmd, inp, level, rest = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
        sys.argv[4:]
    if cmd in ('kdump', 'fields'):
        check_kdump(cmd == 'kdump', inp, level, *rest)
    else:
        check_elf(inp, level, *rest)


if __name__ == '__main__':
    main()
