#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""erase_cmp - check dumps written with --config erase rules.

  kdump INPUT DUMP REF [PARTS...]  DUMP (a kdump file, or with PARTS a
                      split set read together) and REF (makedumpfile's,
                      or another vmsift run's) hold the same pages with
                      the same bytes after decompression (read with
                      libkdumpfile); the pages that differ from INPUT
                      differ only by bytes 'X' (0x58) or 0; at least one
                      does; the eraseinfo texts of DUMP and REF are equal
  text DUMP           print the eraseinfo text of a kdump file or the
                      ERASEINFO note of an ELF file
  elf INPUT DUMP REF  the same for two ELF dumps (-E): equal pages (read
                      by physical address), equal ERASEINFO notes
  elfkd INPUT ELF KDUMP  an ELF dump and a kdump dump of the same rules:
                      the kdump's pages equal in both, the ERASEINFO note
                      (less its zero padding) equal to the eraseinfo

Pages are of the input's VMCOREINFO PAGESIZE (vmcheck.use_page_size_of:
16K and 64K on arm64 and ppc64le), pfns counted in them.  Exit status 0
when the check passes; 1 with a message naming the pfn.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vmcheck  # noqa: E402  pylint: disable=wrong-import-position


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def kdump_text(path):
    kd = vmcheck.Kdump(path)
    with open(path, 'rb') as f:
        f.seek(kd.block_size + 64)
        off, size = struct.unpack(kd.order + 'QQ', f.read(16))
        if not size:
            return b''
        f.seek(off)
        return f.read(size)


def elf_text(path):
    e = vmcheck.Elf(path)
    o = e.order
    for off, size in e.notes:
        end = off + size
        while off + 12 <= end:
            namesz, descsz, _ = struct.unpack_from(o + 'III', e.m, off)
            name = e.m[off + 12:off + 12 + namesz]
            desc = off + 12 + (namesz + 3) // 4 * 4
            if name.rstrip(b'\0') == b'ERASEINFO':
                return bytes(e.m[desc:desc + descsz])
            off = desc + (descsz + 3) // 4 * 4
    return b''


def text_of(path):
    with open(path, 'rb') as f:
        magic = f.read(4)
    return elf_text(path) if magic == b'\x7fELF' else kdump_text(path)


def check_erased(pfn, got, orig):
    """Bytes that differ from the input are erase bytes: 'X' or 0."""
    if got == orig:
        return 0
    for i in range(vmcheck.PAGE):
        if got[i] != orig[i] and got[i] not in (0x58, 0):
            fail('pfn %#x byte %#x: %#x, the input %#x: not an erase byte' %
                 (pfn, i, got[i], orig[i]))
    return 1


def compare(read_a, read_b, pfns, inp, zero_may_go=False):
    """ZERO_MAY_GO: A is an ELF dump, which leaves zero pages out at -d 1
    where a kdump file keeps them as zero descriptors."""
    changed = same = 0
    for pfn in pfns:
        # vmsift keeps a page the input covers only in part, makedumpfile
        # does not (vmcheck.py's bitmaps check): such pages are not compared
        if inp.cover(pfn)[0] < vmcheck.PAGE:
            continue
        a, b = read_a(pfn), read_b(pfn)
        if zero_may_go and a is None and b == bytes(vmcheck.PAGE):
            continue
        if (a is None) != (b is None):
            fail('pfn %#x: in %s only' % (pfn, 'DUMP' if b is None else 'REF'))
        if a is None:
            continue
        if a != b:
            first = next(i for i in range(vmcheck.PAGE) if a[i] != b[i])
            fail('pfn %#x: DUMP and REF differ at byte %#x (%#x, %#x)' %
                 (pfn, first, a[first], b[first]))
        changed += check_erased(pfn, a, inp.read(pfn * vmcheck.PAGE, vmcheck.PAGE))
        same += 1
    if not changed:
        fail('no page differs from the input: nothing was erased')
    return same, changed


def kreader(path, parts):
    k, kmod = vmcheck.open_kdumpfile(path)
    if parts:
        k = vmcheck.FdSet((path,) + tuple(parts))

    def read(pfn):
        try:
            return k.read(kmod.KDUMP_MACHPHYSADDR, pfn * vmcheck.PAGE, vmcheck.PAGE)
        except Exception:  # pylint: disable=broad-except
            return None
    return read


def check_kdump(inp_path, dump, ref, *parts):
    vmcheck.use_page_size_of(inp_path)
    inp = vmcheck.Elf(inp_path)
    kd, kr = vmcheck.Kdump(dump), vmcheck.Kdump(ref)
    pfns = [p for p in range(max(kd.max_mapnr_64, kr.max_mapnr_64))
            if vmcheck.Kdump.bit(kd.bitmap2, p) or
            vmcheck.Kdump.bit(kr.bitmap2, p)]
    same, changed = compare(kreader(dump, parts), kreader(ref, ()), pfns, inp)
    text = b''.join(kdump_text(p) for p in (dump,) + parts)
    want = kdump_text(ref)
    if parts:
        # each file of a split set lists the rules it erased, one line per
        # range of the rule, and (makedumpfile's quirk, kept) a range that
        # another file stored repeats the size of the line before it: the
        # rules named are the single file's
        text = b'\n'.join(sorted(set(l.rsplit(b' size ', 1)[0].rsplit(
            b' nullify', 1)[0] for l in text.splitlines()))) + b'\n'
        want = b'\n'.join(sorted(set(l.rsplit(b' size ', 1)[0].rsplit(
            b' nullify', 1)[0] for l in want.splitlines()))) + b'\n'
    if text != want:
        fail('eraseinfo differs:\n--- DUMP\n%s--- REF\n%s' %
             (text.decode(errors='replace')[:2000],
              want.decode(errors='replace')[:2000]))
    print('ok: %d pages equal, %d erased; eraseinfo of %d bytes equal' %
          (same, changed, len(text)))


def elf_reader(path):
    e = vmcheck.Elf(path)

    def read(pfn):
        mem, data = e.cover(pfn)
        return e.read(pfn * vmcheck.PAGE, vmcheck.PAGE) if data == vmcheck.PAGE else None
    return read, e


def check_elf(inp_path, dump, ref):
    vmcheck.use_page_size_of(inp_path)
    inp = vmcheck.Elf(inp_path)
    ra, ea = elf_reader(dump)
    rb, _ = elf_reader(ref)
    same, changed = compare(ra, rb, range(ea.max_pfn()), inp)
    a, b = elf_text(dump), elf_text(ref)
    if a != b:
        fail('ERASEINFO notes differ:\n--- DUMP\n%r\n--- REF\n%r' %
             (a[:2000], b[:2000]))
    print('ok: %d pages equal, %d erased; ERASEINFO of %d bytes equal' %
          (same, changed, len(a)))


def check_elf_kdump(inp_path, elf, kdump):
    """An ELF dump against a kdump one of the same rules and level."""
    vmcheck.use_page_size_of(inp_path)
    inp = vmcheck.Elf(inp_path)
    ra, _ = elf_reader(elf)
    rk = kreader(kdump, ())
    kd = vmcheck.Kdump(kdump)
    pfns = [p for p in range(kd.max_mapnr_64) if vmcheck.Kdump.bit(kd.bitmap2, p)]
    same, changed = compare(ra, rk, pfns, inp, zero_may_go=True)
    a, b = elf_text(elf).rstrip(b'\0'), kdump_text(kdump)
    if a != b:
        fail('ERASEINFO note and eraseinfo differ:\n%r\n%r' % (a[:2000], b[:2000]))
    print('ok: %d pages equal, %d erased; ERASEINFO of %d bytes equal' %
          (same, changed, len(a)))


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == 'kdump':
        check_kdump(*sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == 'elf':
        check_elf(*sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == 'elfkd':
        check_elf_kdump(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == 'text':
        sys.stdout.write(text_of(sys.argv[2]).decode(errors='replace'))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
