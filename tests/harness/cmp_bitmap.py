#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""cmp_bitmap.py DUMP REFERENCE RAW_VMCORE

Compare the dumpable-page bitmap (bitmap2) of two kdump-compressed files:
DUMP, written by the tool under test, and REFERENCE, written by Debian's
makedumpfile from RAW_VMCORE with the same -d level.  They must be equal,
with one allowed difference: a page only partly covered by a PT_LOAD of
RAW_VMCORE (e.g. pfn 0x9f when a segment ends at 0x9fc00) is dropped by
makedumpfile 1.7.2 but kept by vmsift, so it may be set in DUMP and clear in
REFERENCE.  Prints one summary line; exits 0 when equal, 1 otherwise."""
import sys

from elfcore import KdumpHeader, partial_pfns, pt_loads, set_bits


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    dump_path, ref_path, raw_path = sys.argv[1:]
    dump, ref = KdumpHeader(dump_path), KdumpHeader(ref_path)
    partial = partial_pfns(pt_loads(raw_path))
    mine, theirs = set(set_bits(dump.bitmap2)), set(set_bits(ref.bitmap2))
    kept_partial = {p for p in mine - theirs if p in partial}
    only_mine = sorted(mine - theirs - kept_partial)
    only_theirs = sorted(theirs - mine)
    if only_mine or only_theirs:
        print(f"FAIL {len(mine)} pages vs makedumpfile's {len(theirs)}; "
              f"{len(only_mine)} only in the dump (first: {[hex(p) for p in only_mine[:8]]}), "
              f"{len(only_theirs)} only in makedumpfile's (first: {[hex(p) for p in only_theirs[:8]]})")
        sys.exit(1)
    note = ""
    if kept_partial:
        note = f", plus partly covered pfns kept: {[hex(p) for p in sorted(kept_partial)]}"
    if len(dump.bitmap2) != len(ref.bitmap2):
        note += f" (bitmap lengths differ: {len(dump.bitmap2)} vs {len(ref.bitmap2)} bytes)"
    print(f"ok {len(theirs)} pages, equal to makedumpfile's{note}")


if __name__ == "__main__":
    main()
