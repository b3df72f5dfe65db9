#!/usr/bin/python3
"""drgn_walks.py - does this drgn translate riscv64 kernel addresses that
no PT_LOAD covers (a page-table walk)?

    drgn_walks.py SPEC VMCORE

Builds SPEC in memory (the generator is deterministic) and reads the
struct page of the first RAM pfn, in vmemmap, through drgn.  Exit 0 and
"walks" when drgn reads it equal to what the generator placed there; exit
2 and a line naming drgn's version when drgn has no riscv64 page-table
walker (drgn 0.0.22 reads riscv64 cores only through their PT_LOADs);
exit 1 when drgn reads something else.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..'))
import drgn  # noqa: E402
import mkvmcore  # noqa: E402


def main(argv):
    b = mkvmcore.Builder(mkvmcore.Spec(argv[0]))
    b.build()
    p = drgn.Program()
    p.set_core_dump(argv[1])
    va = b.spage_va(b.ram_pfns[0][0])
    try:
        got = p.read(va, 64)
    except drgn.FaultError as ex:
        print('drgn %s cannot walk riscv64 page tables (%s)'
              % (drgn.__version__, ex))
        return 2
    if got != b.mem.read(b.va2pa(va), 64):
        print('drgn reads vmemmap %#x differently from the generator' % va)
        return 1
    print('drgn %s walks riscv64 page tables' % drgn.__version__)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
