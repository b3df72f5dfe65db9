#!/usr/bin/python3
"""hide_key.py - hide one VMCOREINFO key of a generated vmcore in place.

    hide_key.py VMCORE KEY

Renames the first "KEY=" in VMCORE's first MiB (where the notes are) to a
key no reader knows: the last character before the closing ')' (or the
last one) becomes '_'.  The note keeps its size and every other byte its
value: cheaper than generating the vmcore again with `vmcoreinfo del KEY`.
Exit 1 when KEY= is not there.
"""
import sys


def main(argv):
    path, key = argv
    with open(path, 'r+b') as f:
        at = f.read(1 << 20).find(key.encode() + b'=')
        if at < 0:
            print('%s: no %s= in the first MiB' % (path, key))
            return 1
        f.seek(at + len(key) - (2 if key.endswith(')') else 1))
        f.write(b'_')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
