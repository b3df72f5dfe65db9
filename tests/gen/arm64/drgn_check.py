#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""drgn_check.py - drgn, an independent reader with its own aarch64 page
table walker, reads a generated arm64 vmcore and vmsift's dumps of it.

    drgn_check.py [--phys-only] SPEC VMCORE [DUMP...] [--phys DUMP...]

Builds SPEC again in memory (the generator is deterministic), checks
that VMCORE is that build, then in VMCORE and in each DUMP (kdump or ELF,
made by vmsift from VMCORE) reads through drgn:
  * kernel virtual addresses: init_uts_ns in the image, the struct pages
    of every 61st pfn through vmemmap, and linear-map addresses, each
    equal to what the generator placed at the physical address its own
    tables map them to;
  * physical pages (every 13th): equal to the input's, or absent from a
    kdump (excluded), or zero in an ELF dump (excluded).
Dumps after --phys get the physical reads only: libkdumpfile 0.5.1, which
drgn reads kdump files with, cannot walk 16K/52-bit tables (it fails the
same on makedumpfile's dump).  --phys-only: every file, for a vmcore
without TCR_EL1_T1SZ on which drgn 0.0.22 takes vabits_actual for
VA_BITS (it lacks makedumpfile's mem_section guess).  Needs `kernel ptload=yes` in the spec: drgn finds swapper_pg_dir through
the kernel-image PT_LOAD.  Exit status 1 with a message on a mismatch.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..'))
import drgn  # noqa: E402
import mkvmcore  # noqa: E402


def virtual_reads(b, doubtful):
    """(label, va) pairs drgn must translate as the generator does; not
    the struct pages of DOUBTFUL pfns (their tables are corrupt)."""
    out = [('init_uts_ns', b.sym_init_uts_ns)]
    for a, c in b.ram_pfns:
        for pfn in range(a, c, 61):
            if any(s <= pfn < e for s, e in doubtful):
                continue
            va = b.spage_va(pfn)
            if va is not None:
                out.append(('struct page of pfn %#x' % pfn, va))
        out.append(('linear %#x' % (a << mkvmcore.PAGE_SHIFT),
                    b.dva(a << mkvmcore.PAGE_SHIFT) + 0x88))
    return out


def check(path, b, doubtful, is_input, virtual=True):
    page = mkvmcore.PAGE
    p = drgn.Program()
    p.set_core_dump(path)
    nv = 0
    for label, va in virtual_reads(b, doubtful) if virtual else ():
        pa = b.va2pa(va)
        if pa is None:
            continue
        try:
            got = p.read(va, 64)
        except drgn.FaultError as ex:
            sys.exit('%s: %s at %#x: %s' % (path, label, va, ex))
        if got != b.mem.read(pa, 64):
            sys.exit('%s: %s at %#x (pa %#x) differs' % (path, label, va, pa))
        nv += 1
    np_ = 0
    for a, c in b.ram_pfns:
        for pfn in range(a, c, 13):
            want = b.mem.read(pfn * page, page)
            try:
                got = p.read(pfn * page, page, True)
            except drgn.FaultError:
                if is_input:
                    sys.exit('%s: pfn %#x unreadable' % (path, pfn))
                continue
            if got != want and (is_input or any(got)):
                sys.exit('%s: pfn %#x differs from the input' % (path, pfn))
            np_ += 1
    if (virtual and not nv) or not np_:
        sys.exit('%s: drgn read nothing' % path)
    print('%s: %d virtual and %d physical reads equal' % (path, nv, np_))


def main(argv):
    phys_only = argv[:1] == ['--phys-only']
    if phys_only:
        argv = argv[1:]
    spec, vmcore, dumps = argv[0], argv[1], argv[2:]
    phys = []
    if '--phys' in dumps:
        i = dumps.index('--phys')
        dumps, phys = dumps[:i], dumps[i + 1:]
    b = mkvmcore.Builder(mkvmcore.Spec(spec))
    b.build()
    tmp = vmcore + '.drgn-rebuilt'
    b.write_elf(tmp)
    same = open(tmp, 'rb').read() == open(vmcore, 'rb').read()
    os.unlink(tmp)
    if not same:
        sys.exit('%s is not what %s builds' % (vmcore, spec))
    if not b.s.kernel['ptload']:
        sys.exit('%s: drgn needs "kernel ptload=yes"' % spec)
    doubtful = [(s, e) for s, e, _ in getattr(b, 'doubtful_pfns', [])]
    check(vmcore, b, doubtful, True, not phys_only)
    for d in dumps:
        check(d, b, doubtful, False, not phys_only)
    for d in phys:
        check(d, b, doubtful, False, virtual=False)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
