#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""drgn_check.py - drgn, an independent reader, reads a generated ppc64le
vmcore and vmsift's dumps of it.

    drgn_check.py SPEC VMCORE [DUMP...]

The checks are those of ../arm64/drgn_check.py: kernel virtual reads
(init_uts_ns in the image, linear-map addresses) equal to what the
generator placed at their physical addresses; every 13th physical page
equal to the input's, or excluded.  drgn 0.0.22 has no ppc64 page-table
walker, so the struct pages behind vmemmap are left out (vmsift's walk is
checked against upstream makedumpfile's bitmaps instead); on ppc64 the
image lies in the linear map, whose PT_LOADs drgn reads, so no
kernel-image PT_LOAD is needed.  Exit status 1 with a message on a
mismatch.
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', 'arm64'))
sys.path.insert(0, os.path.join(here, '..'))
import drgn_check as D  # noqa: E402
import mkvmcore  # noqa: E402


all_reads = D.virtual_reads


def linear_reads(b, doubtful):
    """The arm64 check's reads that need no page-table walk."""
    return [(label, va) for label, va in all_reads(b, doubtful)
            if b.A.is_linear(va)]


D.virtual_reads = linear_reads


def main(argv):
    spec, vmcore, dumps = argv[0], argv[1], argv[2:]
    b = mkvmcore.Builder(mkvmcore.Spec(spec))
    b.build()
    tmp = vmcore + '.drgn-rebuilt'
    b.write_elf(tmp)
    same = open(tmp, 'rb').read() == open(vmcore, 'rb').read()
    os.unlink(tmp)
    if not same:
        sys.exit('%s is not what %s builds' % (vmcore, spec))
    doubtful = [(s, e) for s, e, _ in getattr(b, 'doubtful_pfns', [])]
    D.check(vmcore, b, doubtful, True, True)
    for d in dumps:
        D.check(d, b, doubtful, False, True)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
