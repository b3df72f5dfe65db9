#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""uts_release - read init_uts_ns.name.release out of a dump through the
dead kernel's page tables, and check it is the OSRELEASE its VMCOREINFO
names: a kernel-image address only a right translation reaches.

Usage: uts_release.py DUMP [--arch NAME] [--drgn]

libkdumpfile reads it always; --arch NAME also wants libkdumpfile's
arch.name to be NAME; --drgn also opens DUMP with drgn (for --arch, as
that architecture) and wants the same bytes.  Used by the real-kernel
suites (arm64_real.sh, ppc64le_real.sh, s390x_real.sh).  Exit 0 and one
"ok:" line, or 1 and a "FAIL:" line.
"""
import argparse
import sys

import kdumpfile

# struct uts_namespace starts with struct new_utsname (6.1 has no kref
# before it): sysname[65], nodename[65], release[65].
LEN = 65


def release_of(raw):
    return bytes(raw[2 * LEN:3 * LEN]).split(b'\0')[0].decode(errors='replace')


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dump')
    ap.add_argument('--arch')
    ap.add_argument('--drgn', action='store_true')
    a = ap.parse_args()

    k = kdumpfile.kdumpfile(a.dump)
    k.attr['addrxlat.ostype'] = 'linux'
    if a.arch and k.attr['arch.name'] != a.arch:
        fail('libkdumpfile sees arch %s, not %s' % (k.attr['arch.name'], a.arch))
    info = k.attr['linux.vmcoreinfo.lines']
    release = info['OSRELEASE']
    addr = int(info['SYMBOL(init_uts_ns)'], 16)
    got = release_of(k.read(kdumpfile.KDUMP_KVADDR, addr, 3 * LEN))
    if got != release:
        fail('libkdumpfile: init_uts_ns.name.release %r, VMCOREINFO OSRELEASE %r'
             % (got, release))
    readers = 'libkdumpfile'
    if a.drgn:
        import drgn
        prog = drgn.Program()
        prog.set_core_dump(a.dump)
        arch = prog.platform.arch.name.lower()   # drgn names them as libkdumpfile does
        if a.arch and arch != a.arch:
            fail('drgn sees %s, not %s' % (arch, a.arch))
        got2 = release_of(prog.read(addr, 3 * LEN))
        if got2 != release:
            fail('drgn: init_uts_ns.name.release %r, VMCOREINFO OSRELEASE %r'
                 % (got2, release))
        readers += ' and drgn'
    print('ok: %s read at %#x by %s' % (got, addr, readers))


if __name__ == '__main__':
    main()
