#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""confdiff.py - what an erase config did to a dump, as a small text.

  digest INPUT DUMP      print DUMP's digest against INPUT (the vmcore it
                         was made from): the pfns DUMP stores (as ranges;
                         DUMP kdump-compressed or ELF),
                         each stored page that differs from INPUT (the
                         runs of changed bytes and their new value: 'X',
                         '00' or hex), and DUMP's eraseinfo text
  cmp A B                two digests (files) equal; else the first
                         differences, each page with its physical address
  check INPUT DUMP REF   DUMP's digest equals the digest file REF

Pages are read after decompression by libkdumpfile (python3-libkdumpfile),
an independent reader, or from an ELF dump's PT_LOADs, in pages of the
input's VMCOREINFO PAGESIZE (64K on ppc64le); a page the input covers
only in part is left out
(vmsift keeps it, makedumpfile not: vmcheck.py's bitmaps check).  Two
dumps of one input have equal digests exactly when they store the same
pfns with the same bytes and the same eraseinfo, so a digest of
makedumpfile's dump carried in the tree stands for that dump
(tests/data/confdiff/, tests/suites/confdiff.sh).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vmcheck  # noqa: E402  pylint: disable=wrong-import-position
from erase_cmp import elf_text, kdump_text  # noqa: E402  pylint: disable=wrong-import-position

def runs(new, old):
    """'OFF:LEN:VAL' for each run of bytes NEW changed from OLD."""
    out = []
    i = 0
    page = len(new)
    while i < page:
        if new[i] == old[i]:
            i += 1
            continue
        j = i
        while j < page and new[j] != old[j] and new[j] == new[i]:
            j += 1
        if new[i] == 0x58:
            val = 'X'
        elif new[i] == 0:
            val = '00'
        else:
            j = i
            while j < page and new[j] != old[j] and new[j] not in (0, 0x58):
                j += 1
            val = new[i:j].hex()
        out.append('%x:%x:%s' % (i, j - i, val))
        i = j
    return out


def kdump_pages(dump_path):
    """(pfns stored, read(pfn) -> bytes, eraseinfo) of a kdump file."""
    kd = vmcheck.Kdump(dump_path)
    k, kmod = vmcheck.open_kdumpfile(dump_path)
    page = vmcheck.PAGE
    pfns = [pfn for pfn in range(kd.max_mapnr_64)
            if vmcheck.Kdump.bit(kd.bitmap2, pfn)]
    return pfns, lambda pfn: k.read(kmod.KDUMP_MACHPHYSADDR, pfn * page,
                                    page), kdump_text(dump_path)


def elf_pages(dump_path):
    """The same of an ELF dump: the pages its PT_LOADs hold whole."""
    e = vmcheck.Elf(dump_path)
    page = vmcheck.PAGE
    pfns = sorted({pfn for paddr, _, filesz, _, _ in e.loads
                   for pfn in range(paddr // page,
                                    (paddr + filesz) // page)
                   if e.cover(pfn)[1] == page})
    return pfns, lambda pfn: e.read(pfn * page, page), elf_text(dump_path)


def digest(inp_path, dump_path):
    vmcheck.use_page_size_of(inp_path)
    page = vmcheck.PAGE
    inp = vmcheck.Elf(inp_path)
    with open(dump_path, 'rb') as f:
        is_elf = f.read(4) == b'\x7fELF'
    pfns, read, text = (elf_pages if is_elf else kdump_pages)(dump_path)
    lines = []
    present = []
    for pfn in pfns:
        if inp.cover(pfn)[0] < page:
            continue
        present.append(pfn)
        try:
            new = read(pfn)
        except Exception:  # pylint: disable=broad-except
            lines.append('unreadable %x' % pfn)
            continue
        old = inp.read(pfn * page, page)
        if new != old:
            lines.append('page %x %s' % (pfn, ' '.join(runs(new, old))))
    out = []
    start = prev = None
    for pfn in present:
        if start is None:
            start = prev = pfn
        elif pfn == prev + 1:
            prev = pfn
        else:
            out.append('pfns %x-%x' % (start, prev))
            start = prev = pfn
    if start is not None:
        out.append('pfns %x-%x' % (start, prev))
    info = ['eraseinfo ' + l for l in text.decode(errors='replace').split('\n')]
    return '\n'.join(out + lines + info) + '\n'


def compare(a, b, name_a='A', name_b='B'):
    la, lb = a.splitlines(), b.splitlines()
    if la == lb:
        return True
    sa, sb = set(la), set(lb)
    only_a = [l for l in la if l not in sb]
    only_b = [l for l in lb if l not in sa]
    for tag, ls in ((name_a, only_a), (name_b, only_b)):
        print('--- only in %s (%d lines)' % (tag, len(ls)))
        for l in ls[:20]:
            if l.startswith('page '):
                pfn = int(l.split()[1], 16)
                l += '   (paddr %#x)' % (pfn * vmcheck.PAGE)
            print(l[:300])
    return False


def main():
    if len(sys.argv) == 4 and sys.argv[1] == 'digest':
        sys.stdout.write(digest(sys.argv[2], sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == 'cmp':
        with open(sys.argv[2]) as fa, open(sys.argv[3]) as fb:
            sys.exit(0 if compare(fa.read(), fb.read(), sys.argv[2],
                                  sys.argv[3]) else 1)
    elif len(sys.argv) == 5 and sys.argv[1] == 'check':
        with open(sys.argv[4]) as f:
            want = f.read()
        got = digest(sys.argv[2], sys.argv[3])
        if not compare(got, want, sys.argv[3], sys.argv[4]):
            sys.exit(1)
        n = sum(1 for l in want.splitlines() if l.startswith('page '))
        print('ok: the same pfns, %d changed pages and eraseinfo as %s' %
              (n, os.path.basename(sys.argv[4])))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
