#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""cmp_elf.py DUMP REFERENCE RAW_VMCORE

Compare an ELF dump (-E) with Debian makedumpfile's ELF output made from
RAW_VMCORE with the same -d level:
  - memory: the pages covered by the PT_LOADs' p_memsz must be the same, so
    readers such as crash find excluded pages as zeros, not as holes;
  - data: every page the dump holds in the file (within p_filesz) must be
    held by makedumpfile's too.  makedumpfile also keeps short runs of
    excluded pages, so the dump may hold fewer.
Pages only partly covered by a PT_LOAD of RAW_VMCORE are left out of both
comparisons (vmsift keeps them whole).  One summary line; exit 1 on a
difference."""
import sys

from elfcore import PAGE, partial_pfns, pt_loads


def pages(segs, size):
    out = set()
    for s in segs:
        out.update(range(s.paddr // PAGE, (s.paddr + getattr(s, size) + PAGE - 1) // PAGE))
    return out


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    dump, ref = pt_loads(sys.argv[1]), pt_loads(sys.argv[2])
    partial = partial_pfns(pt_loads(sys.argv[3]))
    problems = []
    mem_d, mem_r = pages(dump, "memsz") - partial, pages(ref, "memsz") - partial
    if mem_d != mem_r:
        problems.append(f"memory ranges differ: {len(mem_r - mem_d)} pages only in makedumpfile's "
                        f"(first {[hex(p) for p in sorted(mem_r - mem_d)[:6]]}), "
                        f"{len(mem_d - mem_r)} only in the dump "
                        f"(first {[hex(p) for p in sorted(mem_d - mem_r)[:6]]})")
    data_d, data_r = pages(dump, "filesz") - partial, pages(ref, "filesz") - partial
    extra = sorted(data_d - data_r)
    if extra:
        problems.append(f"{len(extra)} pages held that makedumpfile excludes "
                        f"(first {[hex(p) for p in extra[:6]]})")
    if problems:
        print("FAIL " + "; ".join(problems))
        sys.exit(1)
    print(f"ok {len(mem_d)} pages of memory as makedumpfile's, {len(data_d)} held in the file "
          f"(makedumpfile holds {len(data_r)}, keeping short excluded runs)")


if __name__ == "__main__":
    main()
