#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check_dump.py [--volatile START-END]... DUMP RAW_VMCORE

Open DUMP with libkdumpfile and check that every page it can read equals the
page at the same physical address in RAW_VMCORE (an ELF /proc/vmcore copy,
whose PT_LOADs this script parses itself).  A page only partly covered by
the raw file's PT_LOADs is compared on the covered bytes only.  Pages the
dump holds where the raw file has no memory must be all zeros.  In an ELF
DUMP, excluded pages lie between a PT_LOAD's p_filesz and p_memsz and read
as zeros by ELF rules; those pages must be zero and are not compared.
--volatile names a physical range (hex, end exclusive) of memory that
changes while the capture kernel runs (ppc64le: the RTAS firmware's
instance, which the capture kernel calls): its pages are read but not
compared, and counted apart.

Prints one summary line; exits 0 when every page matches, 1 otherwise."""
import sys

import kdumpfile

from elfcore import PAGE, file_kind, pt_loads

ZERO = bytes(PAGE)


def main():
    args = sys.argv[1:]
    volatile = []
    while len(args) > 2 and args[0] == "--volatile":
        lo, hi = (int(x, 16) for x in args[1].split("-"))
        volatile.append((lo // PAGE, (hi + PAGE - 1) // PAGE))
        args = args[2:]
    if len(args) != 2:
        sys.exit(__doc__)
    dump_path, raw_path = args
    segs = pt_loads(raw_path)
    # pfn -> (file offset of the page start, first covered byte, end of covered bytes)
    # Direct-map and kernel-text segments overlap physically; the first wins.
    raw_pages = {}
    for s in segs:
        end = s.paddr + s.filesz
        for pfn in range(s.paddr // PAGE, (end + PAGE - 1) // PAGE):
            if pfn in raw_pages and raw_pages[pfn][2] - raw_pages[pfn][1] == PAGE:
                continue
            lo, hi = max(s.paddr, pfn * PAGE) - pfn * PAGE, min(end, (pfn + 1) * PAGE) - pfn * PAGE
            raw_pages[pfn] = (s.offset + pfn * PAGE - s.paddr, lo, hi)
    max_pfn = max(raw_pages) + 1

    # ELF dump: the pfns its PT_LOADs hold in the file, wholly or in part
    # (riscv64's kexec-tools ends the kernel-image PT_LOAD, and starts the
    # next, inside a page); the rest is zero fill.
    file_backed = None
    if file_kind(dump_path) == "elf":
        file_backed = set()
        for s in pt_loads(dump_path):
            if s.filesz:
                file_backed.update(range(s.paddr // PAGE, (s.paddr + s.filesz + PAGE - 1) // PAGE))

    kdf = kdumpfile.kdumpfile(dump_path)
    try:
        kdf.attr["addrxlat.ostype"] = "linux"
    except Exception:
        pass
    read = kdf.read
    nodata = (kdumpfile.exceptions.NoDataException,
              kdumpfile.exceptions.AddressTranslationException)
    total = good = partial = extra = zero_fill = skipped = 0
    bad = []
    with open(raw_path, "rb") as raw:
        for pfn in range(max_pfn):
            try:
                page = read(kdumpfile.KDUMP_MACHPHYSADDR, pfn * PAGE, PAGE)
            except nodata:
                continue
            total += 1
            if any(lo <= pfn < hi for lo, hi in volatile):
                skipped += 1
                continue
            if file_backed is not None and pfn not in file_backed:
                if page != ZERO:
                    bad.append((pfn, "ELF zero fill (p_filesz < p_memsz) is not zero"))
                zero_fill += 1
                continue
            where = raw_pages.get(pfn)
            if where is None:
                if page != ZERO:
                    bad.append((pfn, "dump has data where the raw file has no memory"))
                extra += 1
                continue
            off, lo, hi = where
            raw.seek(off + lo)
            ref = raw.read(hi - lo)
            if page[lo:hi] != ref:
                bad.append((pfn, "differs from the raw file"))
            elif hi - lo < PAGE:
                partial += 1
            else:
                good += 1
    if bad or good == 0:
        print(f"FAIL {len(bad)} bad pages of {total} read"
              + "".join(f"; pfn {p:#x}: {why}" for p, why in bad[:8]))
        sys.exit(1)
    print(f"ok {good} pages equal to the raw file's, "
          f"{partial} partly covered pages equal on their covered bytes, "
          f"{extra} zero pages outside the raw file's memory"
          + (f", {zero_fill} ELF zero-fill pages (excluded)" if file_backed is not None else "")
          + (f", {skipped} volatile pages not compared" if volatile else ""))


if __name__ == "__main__":
    main()
