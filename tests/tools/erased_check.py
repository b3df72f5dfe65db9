#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""erased_check.py RAW VMLINUX DUMP... - the shipped secrets rules
(data/erase/secrets.conf) applied to RAW gave each DUMP the right bytes.

Where the secrets are comes from drgn and the kernel's DWARF (VMLINUX),
not from vmsift: base_crng.key and input_pool.hash.  In RAW they hold
data (not all zeros, not all 'X'); in every DUMP, read back by
libkdumpfile, they are all 'X' (makedumpfile's erase byte) and the 64
bytes on either side are RAW's.  Exit 0, or 1 with what differed.
"""
import sys

import drgn
import kdumpfile

PAD = 64


def secrets(prog):
    out = []
    for sym, member in (("base_crng", "key"), ("input_pool", "hash")):
        obj = prog[sym]
        m = obj.member_(member)
        out.append(("%s.%s" % (sym, member), m.address_, drgn.sizeof(m.type_)))
    return out


def main():
    raw, vmlinux, dumps = sys.argv[1], sys.argv[2], sys.argv[3:]
    prog = drgn.Program()
    prog.set_core_dump(raw)
    prog.load_debug_info([vmlinux])
    bad = 0
    for name, addr, size in secrets(prog):
        ref = prog.read(addr - PAD, size + 2 * PAD)
        secret = ref[PAD:PAD + size]
        if secret in (b"\0" * size, b"X" * size):
            print("%s in %s holds no data: %r" % (name, raw, secret[:16]))
            bad += 1
        for path in dumps:
            k = kdumpfile.kdumpfile(path)
            k.attr["addrxlat.ostype"] = "linux"
            got = k.read(kdumpfile.KDUMP_KVADDR, addr - PAD, size + 2 * PAD)
            if got[PAD:PAD + size] != b"X" * size:
                print("%s: %s at 0x%x (%d bytes) not erased: %r"
                      % (path, name, addr, size, got[PAD:PAD + 16]))
                bad += 1
            if got[:PAD] != ref[:PAD] or got[PAD + size:] != ref[PAD + size:]:
                print("%s: bytes around %s changed" % (path, name))
                bad += 1
        print("%s at 0x%x, %d bytes: checked in %d dump(s)"
              % (name, addr, size, len(dumps)), file=sys.stderr)
    sys.exit(1 if bad else 0)


main()
