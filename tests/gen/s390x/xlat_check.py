#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""xlat_check.py - vmsift's s390x translation against the generator's
own mapping, on a generated vmcore.

    xlat_check.py SPEC OUT.vmcore XLAT

Builds SPEC (tests/gen/mkvmcore.py's Builder), writes the vmcore to OUT,
and has XLAT (tests/unit/s390x_xlat: lib/arch_s390x.c behind a reader of
its own) translate: the struct page of every 61st pfn and of each
section's first and last, the symbols of VMCOREINFO, the identity map's
ends, the lowcore and amode31 (6.10+), and addresses nothing maps.  Each
must give the address the generator put there (a corrupted one: fail or
any other address), and the last byte of each span must translate to
the last byte of the same run.  Exit 0 when all agree.
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..'))
import mkvmcore as MK  # noqa: E402


def run(xlat, out, vas):
    p = subprocess.run([xlat, out], input=''.join('%x\n' % v for v in vas),
                       capture_output=True, text=True)
    if p.returncode:
        sys.exit('xlat: %s' % p.stderr.strip())
    res = {}
    for line in p.stdout.splitlines():
        w = line.split(' ', 2)
        va = int(w[0], 16)
        res[va] = None if w[1] == 'fail' else (int(w[1], 16), int(w[2], 16))
    return res


def expectations(b):
    """{va: pa, None (must fail) or 'changed' (corrupt)}."""
    A, want = b.A, {}
    doubt = [(s, t) for s, t, _ in getattr(b, 'doubtful_pfns', [])]
    for p0, p1, va in b.memmap_ranges:
        for pfn in sorted(set(range(p0, p1, 61)) | {p0, p1 - 1}):
            sva = va + (pfn - p0) * b.psize
            if any(s <= pfn < t for s, t in doubt):
                want[sva] = 'changed'
            else:
                want[sva] = b.va2pa(sva)
    for k, v in b.vi.items():
        if k.startswith('SYMBOL('):
            want[int(v, 16)] = b.va2pa(int(v, 16))
    for a, c in b.mem.ranges:
        want[A.lva(a)] = a
        want[A.lva(c - 1)] = c - 1
    if A.layout == 'vr':
        want[0x100] = 0x100
        want[S390_AMODE31[0]] = S390_AMODE31[0]
        if not A.os_info:
            want[A.lva(A.ram_end)] = None     # past the identity map
    if not A.os_info:                 # os_info: identity up to vmemmap
        want[A.vmemmap_start - 4096] = None
    want[A.vmemmap_start + (8 << 30)] = None     # past every leaf
    return want


S390_AMODE31 = MK.S390.AMODE31


def main(argv):
    spec, out, xlat = argv
    b = MK.Builder(MK.Spec(spec))
    b.build()
    b.write_elf(out)
    want = expectations(b)
    got = run(xlat, out, sorted(want))
    bad = 0
    ends = {}
    for va, w in sorted(want.items()):
        g = got.get(va)
        ok = (g is None if w is None else
              (g is None or g[0] != b.va2pa(va)) if w == 'changed' else
              g is not None and g[0] == w)
        if not ok:
            bad += 1
            print('%#x: got %s, want %s' % (va, g and hex(g[0]), w if
                                            w in (None, 'changed') else
                                            hex(w)))
        elif g is not None and w != 'changed':
            ends[(va + g[1] - 1) & MK.A64.M64] = \
                (g[0] + g[1] - 1) & MK.A64.M64
    got = run(xlat, out, sorted(ends))
    for va, pa in sorted(ends.items()):
        if got.get(va) is None or got[va][0] != pa:
            bad += 1
            print('span end %#x: got %s, want %#x' % (va, got.get(va), pa))
    print('%s: %d addresses, %d span ends, %d wrong' %
          (b.s.name, len(want), len(ends), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
