#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""digest.py - a digest of a kdump-compressed file's filtering decisions,
for the arm64 fixtures (expected.txt).

    digest.py DUMP...          print "NAME SHA256" for each DUMP
    digest.py --check EXPECTED DUMP...
                               each DUMP's digest equals the line of
                               EXPECTED with its name (exit 1 if not)

The digest covers max_mapnr and both bitmaps up to max_mapnr (bits past it
cleared), so it does not depend on the codec, the block padding of the
bitmaps or anything else in the file: two dumps with equal digests kept
and excluded the same pages.  NAME is the file name without directory.
"""
import hashlib
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..'))
from check_filter import read_bitmaps  # noqa: E402


def digest(path):
    bm1, bm2, max_mapnr = read_bitmaps(path)
    n = (max_mapnr + 7) // 8
    h = hashlib.sha256(struct.pack('<Q', max_mapnr))
    for bm in (bm1, bm2):
        b = bytearray(bm[:n].ljust(n, b'\0'))
        if max_mapnr % 8:
            b[-1] &= (1 << (max_mapnr % 8)) - 1
        h.update(bytes(b))
    return h.hexdigest()


def main(argv):
    if argv[:1] == ['--check']:
        want = dict(line.split() for line in open(argv[1]) if line.strip()
                    and not line.startswith('#'))
        bad = 0
        for p in argv[2:]:
            name, got = os.path.basename(p), digest(p)
            if want.get(name) != got:
                print('%s: digest %s, expected %s' % (name, got,
                                                      want.get(name)))
                bad = 1
        return bad
    for p in argv:
        print(os.path.basename(p), digest(p))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
