#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mountcheck - independent checks of vmsift mount's vmcore, for the suite.

Reads the ELF file at the mount point with vmcheck's own ELF parser
(following its program headers, not vmsift's code) and the source vmcore
the same way, and the dump's bitmaps with vmcheck's own kdump parser.
Subcommands:

  kdump INPUT VMCORE DUMP  VMCORE is the mount of DUMP, a kdump of INPUT
                           (DUMP may be any file of a split set, or the
                           direct dump with the same bitmaps as a
                           flattened one): every page DUMP holds (bitmap
                           2) is in VMCORE's data and equals INPUT's;
                           every other page of VMCORE reads as zeros;
                           VMCORE covers the memory bitmap 1 says exists
  elf ELFDUMP VMCORE       VMCORE is the mount of ELFDUMP: every page of
                           memory reads the same from both
  phdrs A B                the PT_LOADs and PT_NOTE of A and B are equal

Exit status 0 when the check passes; 1 with a message naming the pfn.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vmcheck import Elf, Kdump, PAGE, fail  # noqa: E402

ZERO = bytes(PAGE)


def check_kdump(input_path, vmcore_path, dump_path):
    src, view, kd = Elf(input_path), Elf(vmcore_path), Kdump(dump_path)
    held = zeros = 0
    for pfn in range(kd.max_mapnr_64):
        mem, data = view.cover(pfn)
        b1, b2 = Kdump.bit(kd.bitmap1, pfn), Kdump.bit(kd.bitmap2, pfn)
        if b1 and not mem:
            fail('pfn %#x: present in the dump, not in the view' % pfn)
        page = view.read(pfn * PAGE, PAGE)
        if b2:
            if data < min(PAGE, src.cover(pfn)[1]):
                fail('pfn %#x: held by the dump, no data in the view' % pfn)
            if page != src.read(pfn * PAGE, PAGE):
                fail('pfn %#x: the view differs from the input' % pfn)
            held += 1
        elif page != ZERO:
            fail('pfn %#x: excluded by the dump, not zeros in the view' % pfn)
        else:
            zeros += 1
    if held == 0:
        fail('the view holds no page')
    print('ok: %d pages equal to the input, %d excluded pages zeros' %
          (held, zeros))


def check_elf(elf_path, vmcore_path):
    dump, view = Elf(elf_path), Elf(vmcore_path)
    n = max(dump.max_pfn(), view.max_pfn())
    nonzero = 0
    for pfn in range(n):
        if dump.cover(pfn)[0] != view.cover(pfn)[0]:
            fail('pfn %#x: memory covered differently' % pfn)
        a, b = dump.read(pfn * PAGE, PAGE), view.read(pfn * PAGE, PAGE)
        if a != b:
            fail('pfn %#x: the view differs from the ELF dump' % pfn)
        nonzero += a != ZERO
    if nonzero == 0:
        fail('the view holds no page')
    print('ok: %d pfns equal, %d of them not zeros' % (n, nonzero))


def check_phdrs(a_path, b_path):
    a, b = Elf(a_path), Elf(b_path)
    if a.loads != b.loads:
        for i, (x, y) in enumerate(zip(a.loads, b.loads)):
            if x != y:
                fail('PT_LOAD %d differs: %s vs %s' % (i, x, y))
        fail('%d PT_LOADs vs %d' % (len(a.loads), len(b.loads)))
    if a.notes != b.notes or a.machine != b.machine:
        fail('the notes or the machine differ')
    print('ok: %d PT_LOADs equal' % len(a.loads))


def main():
    cmds = {'kdump': (check_kdump, 3), 'elf': (check_elf, 2),
            'phdrs': (check_phdrs, 2)}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds or \
            len(sys.argv) != 2 + cmds[sys.argv[1]][1]:
        sys.exit(__doc__)
    cmds[sys.argv[1]][0](*sys.argv[2:])


if __name__ == '__main__':
    main()
