#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mountcheck - independent checks of vmsift mount's vmcore, for the suite.

Reads the ELF file at the mount point with vmcheck's own ELF parser
(following its program headers, not vmsift's code) and the source vmcore
the same way, and the dump's bitmaps with vmcheck's own kdump parser.
Subcommands:

  kdump INPUT VMCORE DUMP  VMCORE is the mount of DUMP, a kdump of INPUT
                           (DUMP may be any file of a split set, or the
                           direct dump with the same bitmaps as a
                           flattened one): every page DUMP holds (bitmap
                           2) is in VMCORE's data and equals INPUT's;
                           every other page of VMCORE reads as zeros;
                           VMCORE covers the memory bitmap 1 says exists
  elf ELFDUMP VMCORE       VMCORE is the mount of ELFDUMP: every page of
                           memory reads the same from both
  phdrs A B                the PT_LOADs and PT_NOTE of A and B are equal
  vmcoreinfo INPUT FILE    FILE holds INPUT's VMCOREINFO note, exactly
  cat INPUT DUMP           vmsift cat of DUMP (a kdump of INPUT): --pfn
                           and --phys give INPUT's bytes for held pages;
                           an excluded page fails naming its pfn, or is
                           zeros with --zeros; --virt of init_uts_ns gives
                           the release VMCOREINFO names
  drgn A B VMLINUX         drgn opens A and B with VMLINUX: the same
                           init_uts_ns release and task list (pid, comm)
  eio VMCORE PFN           read VMCORE page by page with pread(), not
                           mmap: only the pages of PFN fail, with EIO
  damage DUMP VMCORE       spoil the compressed data of one page DUMP
                           holds (in place); print its pfn and the offset
                           of its data in VMCORE (the mount of DUMP)

Exit status 0 when the check passes; 1 with a message naming the pfn.
"""
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vmcheck import Elf, Kdump, PAGE, fail  # noqa: E402

ZERO = bytes(PAGE)


def check_kdump(input_path, vmcore_path, dump_path):
    src, view, kd = Elf(input_path), Elf(vmcore_path), Kdump(dump_path)
    held = zeros = 0
    for pfn in range(kd.max_mapnr_64):
        mem, data = view.cover(pfn)
        b1, b2 = Kdump.bit(kd.bitmap1, pfn), Kdump.bit(kd.bitmap2, pfn)
        if b1 and not mem:
            fail('pfn %#x: present in the dump, not in the view' % pfn)
        page = view.read(pfn * PAGE, PAGE)
        if b2:
            if data < min(PAGE, src.cover(pfn)[1]):
                fail('pfn %#x: held by the dump, no data in the view' % pfn)
            if page != src.read(pfn * PAGE, PAGE):
                fail('pfn %#x: the view differs from the input' % pfn)
            held += 1
        elif page != ZERO:
            fail('pfn %#x: excluded by the dump, not zeros in the view' % pfn)
        else:
            zeros += 1
    if held == 0:
        fail('the view holds no page')
    print('ok: %d pages equal to the input, %d excluded pages zeros' %
          (held, zeros))


def check_elf(elf_path, vmcore_path):
    dump, view = Elf(elf_path), Elf(vmcore_path)
    n = max(dump.max_pfn(), view.max_pfn())
    nonzero = 0
    for pfn in range(n):
        if dump.cover(pfn)[0] != view.cover(pfn)[0]:
            fail('pfn %#x: memory covered differently' % pfn)
        a, b = dump.read(pfn * PAGE, PAGE), view.read(pfn * PAGE, PAGE)
        if a != b:
            fail('pfn %#x: the view differs from the ELF dump' % pfn)
        nonzero += a != ZERO
    if nonzero == 0:
        fail('the view holds no page')
    print('ok: %d pfns equal, %d of them not zeros' % (n, nonzero))


def check_phdrs(a_path, b_path):
    a, b = Elf(a_path), Elf(b_path)
    if a.loads != b.loads:
        for i, (x, y) in enumerate(zip(a.loads, b.loads)):
            if x != y:
                fail('PT_LOAD %d differs: %s vs %s' % (i, x, y))
        fail('%d PT_LOADs vs %d' % (len(a.loads), len(b.loads)))
    if a.notes != b.notes or a.machine != b.machine:
        fail('the notes or the machine differ')
    print('ok: %d PT_LOADs equal' % len(a.loads))


def damage(dump_path, vmcore_path):
    kd, view = Kdump(dump_path), Elf(vmcore_path)
    held = [p for p in range(kd.max_mapnr_64) if Kdump.bit(kd.bitmap2, p)]
    desc_off = (1 + kd.sub_hdr_size + kd.bitmap_blocks) * kd.block_size
    for i in range(len(held) // 2, len(held)):
        with open(dump_path, 'r+b') as f:
            f.seek(desc_off + 24 * i)
            off, size, flags = struct.unpack(kd.order + 'qII', f.read(16))
            if not flags or size < 16:
                continue
            f.seek(off)
            f.write(b'\xff' * size)
        pfn = held[i]
        for paddr, _memsz, filesz, foff, _vaddr in view.loads:
            if paddr <= pfn * PAGE < paddr + filesz:
                print('%#x %d' % (pfn, foff + pfn * PAGE - paddr))
                return
        fail('pfn %#x is in no PT_LOAD of the view' % pfn)
    fail('no compressed page to damage')


def vmcoreinfo_of(src):
    for off, size in src.notes:
        pos = off
        while pos + 12 <= off + size:
            namesz, descsz, _type = struct.unpack_from(src.order + 'III',
                                                       src.m, pos)
            name = src.m[pos + 12:pos + 12 + namesz].rstrip(b'\0')
            desc = pos + 12 + (namesz + 3) // 4 * 4
            if name == b'VMCOREINFO':
                return bytes(src.m[desc:desc + descsz])
            pos = desc + (descsz + 3) // 4 * 4
    fail('the input has no VMCOREINFO note')


def check_vmcoreinfo(input_path, path):
    want = vmcoreinfo_of(Elf(input_path)).rstrip(b'\0')
    with open(path, 'rb') as f:
        got = f.read().rstrip(b'\0')
    if got != want or not want:
        fail('%s: %d bytes, the note %d, not the same' %
             (path, len(got), len(want)))
    print('ok: %d bytes of VMCOREINFO' % len(got))


def vmsift_cat(args):
    return subprocess.run(['vmsift', 'cat'] + args, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)


def vi_value(vi, key):
    for line in vi.decode().splitlines():
        if line.startswith(key + '='):
            return line[len(key) + 1:]
    fail('VMCOREINFO lacks %s' % key)


def check_cat(input_path, dump_path):
    src, kd = Elf(input_path), Kdump(dump_path)
    held = [p for p in range(kd.max_mapnr_64) if Kdump.bit(kd.bitmap2, p)]
    gone = [p for p in range(kd.max_mapnr_64)
            if Kdump.bit(kd.bitmap1, p) and not Kdump.bit(kd.bitmap2, p)]
    for pfn in held[::max(1, len(held) // 40)]:
        r = vmsift_cat(['--pfn', hex(pfn), dump_path])
        if r.returncode or r.stdout != src.read(pfn * PAGE, PAGE):
            fail('cat --pfn %#x: not the input\'s page: %s' % (pfn, r.stderr))
    # A range across two held pages, from the middle of the first.
    pfn = next(p for p in held if p + 1 in set(held))
    addr = pfn * PAGE + 1000
    r = vmsift_cat(['--phys', '%#x+%d' % (addr, PAGE), dump_path])
    if r.returncode or r.stdout != src.read(addr, PAGE):
        fail('cat --phys %#x+%d: not the input\'s bytes' % (addr, PAGE))
    pfn = gone[len(gone) // 2]
    r = vmsift_cat(['--pfn', hex(pfn), dump_path])
    if r.returncode == 0 or ('pfn %#x' % pfn).encode() not in r.stderr:
        fail('cat --pfn %#x (excluded): %d, %s' % (pfn, r.returncode, r.stderr))
    r = vmsift_cat(['--zeros', '--pfn', hex(pfn), dump_path])
    if r.returncode or r.stdout != ZERO:
        fail('cat --zeros --pfn %#x: not a page of zeros' % pfn)
    vi = vmcoreinfo_of(src)
    uts = int(vi_value(vi, 'SYMBOL(init_uts_ns)'), 16) + \
        int(vi_value(vi, 'OFFSET(uts_namespace.name)'))
    r = vmsift_cat(['--virt', '%#x+65' % (uts + 2 * 65), dump_path])
    release = vi_value(vi, 'OSRELEASE').encode()
    if r.returncode or r.stdout.split(b'\0')[0] != release:
        fail('cat --virt init_uts_ns: %r, not %r (%s)' %
             (r.stdout[:65], release, r.stderr))
    print('ok: cat by pfn, physical and virtual address')


def drgn_view(path, vmlinux):
    import drgn
    from drgn.helpers.linux.pid import for_each_task
    prog = drgn.Program()
    prog.set_core_dump(path)
    prog.load_debug_info([vmlinux])
    release = prog['init_uts_ns'].name.release.string_()
    tasks = [(int(t.pid), t.comm.string_()) for t in for_each_task(prog)]
    return release, tasks


def check_drgn(a_path, b_path, vmlinux):
    a, b = drgn_view(a_path, vmlinux), drgn_view(b_path, vmlinux)
    if a != b:
        fail('drgn reads %r and %d tasks from %s, %r and %d from %s' %
             (a[0], len(a[1]), a_path, b[0], len(b[1]), b_path))
    if len(a[1]) < 10:
        fail('only %d tasks' % len(a[1]))
    print('ok: release %s, %d tasks' % (a[0].decode(), len(a[1])))


def loads_of(head):
    """The PT_LOADs of the ELF64 file that starts with HEAD (bytes)."""
    o = '>' if head[5] == 2 else '<'
    phoff, = struct.unpack_from(o + 'Q', head, 32)
    phentsize, phnum = struct.unpack_from(o + 'HH', head, 54)
    loads = []
    for i in range(phnum):
        p_type, _f, off, vaddr, paddr, filesz, memsz, _a = struct.unpack_from(
            o + 'IIQQQQQQ', head, phoff + i * phentsize)
        if p_type == 1:
            loads.append((paddr, memsz, filesz, off, vaddr))
    return loads


def check_eio(vmcore_path, pfn_text):
    """The kernel reads a FUSE file by its own (file) pages: a failing
    page of memory fails the file pages its data touches, no others."""
    import errno
    pfn = int(pfn_text, 0)
    with open(vmcore_path, 'rb') as f:
        head = f.read(1 << 20)
    want = set()
    for paddr, _memsz, filesz, off, _vaddr in loads_of(head):
        if paddr <= pfn * PAGE < paddr + filesz:
            at = off + pfn * PAGE - paddr
            want.update(range(at // PAGE, (at + PAGE - 1) // PAGE + 1))
    fd = os.open(vmcore_path, os.O_RDONLY)
    size = os.fstat(fd).st_size
    got = set()
    for block in range(0, (size + PAGE - 1) // PAGE):
        try:
            n = min(PAGE, size - block * PAGE)
            if len(os.pread(fd, n, block * PAGE)) != n:
                fail('short read of file page %#x' % block)
        except OSError as e:
            if e.errno != errno.EIO:
                raise
            got.add(block)
    os.close(fd)
    if not want or got != want:
        fail('file pages failing: %s, expected %s (pfn %#x)' %
             (sorted(got)[:8], sorted(want), pfn))
    print('ok: %d file pages read, the %d of pfn %#x failed with EIO' %
          ((size + PAGE - 1) // PAGE, len(got), pfn))


def main():
    cmds = {'kdump': (check_kdump, 3), 'elf': (check_elf, 2),
            'phdrs': (check_phdrs, 2), 'damage': (damage, 2),
            'vmcoreinfo': (check_vmcoreinfo, 2), 'cat': (check_cat, 2),
            'drgn': (check_drgn, 3), 'eio': (check_eio, 2)}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds or \
            len(sys.argv) != 2 + cmds[sys.argv[1]][1]:
        sys.exit(__doc__)
    cmds[sys.argv[1]][0](*sys.argv[2:])


if __name__ == '__main__':
    main()
