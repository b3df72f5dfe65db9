#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""uts_release - read init_uts_ns.name.release out of a dump through the
dead kernel's page tables, and check it is the OSRELEASE its VMCOREINFO
names: a kernel-image address only a right translation reaches.

Usage: uts_release.py DUMP [--arch NAME] [--drgn] [--drgn-only] [--name-offset N]

libkdumpfile reads it (unless --drgn-only); --arch NAME also wants
libkdumpfile's arch.name to be NAME; --drgn also opens DUMP with drgn (for
--arch, as that architecture) and wants the same bytes.  --drgn-only: drgn
alone, taking the release and address from VMCOREINFO itself, for an
architecture libkdumpfile cannot translate (riscv64 with 0.5.1): an ELF
file whose PT_LOADs carry the kernel's vaddrs, which drgn reads through
when it has no page-table walker for the architecture.  Used by the real-kernel
suites (arm64_real.sh, ppc64le_real.sh, s390x_real.sh).  Exit 0 and one
"ok:" line, or 1 and a "FAIL:" line.
"""
import argparse
import sys

import kdumpfile

# struct new_utsname: sysname[65], nodename[65], release[65].  It lies
# at OFFSET(uts_namespace.name) in struct uts_namespace (0 from 5.11,
# which exports that key; 5.10 and earlier have a struct kref before it
# and no key: --name-offset, e.g. from makedumpfile -g -x's text).
LEN = 65


def name_offset(info, given):
    if given is not None:
        return given
    return int(info.get('OFFSET(uts_namespace.name)', '0'))


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
    ap.add_argument('--drgn-only', action='store_true')
    ap.add_argument('--name-offset', type=int)
    a = ap.parse_args()
    if a.drgn_only:
        return drgn_only(a.dump, a.name_offset)

    k = kdumpfile.kdumpfile(a.dump)
    k.attr['addrxlat.ostype'] = 'linux'
    if a.arch and k.attr['arch.name'] != a.arch:
        fail('libkdumpfile sees arch %s, not %s' % (k.attr['arch.name'], a.arch))
    info = k.attr['linux.vmcoreinfo.lines']
    release = info['OSRELEASE']
    addr = int(info['SYMBOL(init_uts_ns)'], 16) + name_offset(info, a.name_offset)
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


def drgn_only(dump, offset):
    import drgn
    prog = drgn.Program()
    prog.set_core_dump(dump)
    info = vmcoreinfo_of_elf(dump)
    release = info['OSRELEASE']
    addr = int(info['SYMBOL(init_uts_ns)'], 16) + name_offset(info, offset)
    try:
        got = release_of(prog.read(addr, 3 * LEN))
    except drgn.FaultError as e:
        fail('drgn cannot read init_uts_ns at %#x: %s' % (addr, e))
    if got != release:
        fail('drgn: init_uts_ns.name.release %r, VMCOREINFO OSRELEASE %r'
             % (got, release))
    print('ok: %s read at %#x by drgn' % (got, addr))


def vmcoreinfo_of_elf(path):
    """VMCOREINFO's lines (KEY=VALUE) from the ELF core file's notes."""
    import struct
    with open(path, 'rb') as f:
        head = f.read(64)
        phoff, = struct.unpack_from('<Q', head, 32)
        phentsize, phnum = struct.unpack_from('<HH', head, 54)
        f.seek(phoff)
        phdrs = f.read(phentsize * phnum)
        for i in range(phnum):
            ptype, _, off, _, _, filesz = struct.unpack_from('<IIQQQQ', phdrs,
                                                             i * phentsize)
            if ptype != 4:
                continue
            f.seek(off)
            notes = f.read(filesz)
            at = 0
            while at + 12 <= len(notes):
                namesz, descsz, _ = struct.unpack_from('<III', notes, at)
                name = notes[at + 12:at + 12 + namesz].rstrip(b'\0')
                desc_at = at + 12 + (namesz + 3) // 4 * 4
                desc = notes[desc_at:desc_at + descsz]
                at = desc_at + (descsz + 3) // 4 * 4
                if name == b'VMCOREINFO':
                    return dict(l.split('=', 1) for l in
                                desc.decode(errors='replace').splitlines()
                                if '=' in l)
    fail('%s: no VMCOREINFO note' % path)


if __name__ == '__main__':
    main()
