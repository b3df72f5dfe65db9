#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""vmcheck - independent checks of vmsift's output, for the test suite.

Reads the input vmcore with its own ELF parser (not vmsift's), reads the
dump back with libkdumpfile (python3-libkdumpfile, an independent reader)
and compares page by page.  Subcommands:

  pages INPUT DUMP [PART...] every page the dump holds equals the input's;
                             every page it leaves out really is absent (a
                             split set: all its files, read together;
                             VMCHECK_ABSENT_EVERY=N: one excluded page in N)
  bitmaps DUMP REF INPUT     bitmap1/bitmap2 of DUMP equal REF's (e.g. a
                             makedumpfile dump), except pages that INPUT
                             covers only in part (vmsift keeps them)
  elf INPUT DUMP LEVEL [KDUMP]  an ELF dump holds every page it must,
                             each equal to the input's; with KDUMP (a kdump
                             of the same level), pages it excludes may go
  normalize QEMU_IN OUT      copy a QEMU-layout vmcore with its program
                             headers moved to offset 64 (for makedumpfile)
  incomplete INPUT DUMP      a dump cut short says so, and every page it
                             still holds equals the input's
  header DUMP                print the kdump header fields as key=value
  readback INPUT DUMP LEVEL  libkdumpfile opens DUMP (kdump or ELF, either
                             byte order) and reads every page the input
                             has data for: equal to the input's, or absent
                             only where LEVEL allows (zero pages at -d 1);
                             prints the byte order libkdumpfile found

Exit status 0 when the check passes; 1 with a message naming the pfn
when it does not.
"""
import mmap
import os
import struct
import sys

PAGE = 4096


class Elf:
    """A minimal ELF64 core reader: PT_LOADs and notes, following e_phoff."""

    def __init__(self, path):
        self.f = open(path, 'rb')
        self.m = mmap.mmap(self.f.fileno(), 0, access=mmap.ACCESS_READ)
        if self.m[:4] != b'\x7fELF':
            raise SystemExit('%s: not an ELF file' % path)
        # EI_DATA: 2 is big-endian (s390x), 1 little-endian.
        o = self.order = '>' if self.m[5] == 2 else '<'
        (self.phoff,) = struct.unpack_from(o + 'Q', self.m, 32)
        self.machine, = struct.unpack_from(o + 'H', self.m, 18)
        self.flags, = struct.unpack_from(o + 'I', self.m, 48)
        phentsize, phnum = struct.unpack_from(o + 'HH', self.m, 54)
        if phnum == 0xffff:
            shoff, = struct.unpack_from(o + 'Q', self.m, 40)
            phnum, = struct.unpack_from(o + 'I', self.m, shoff + 44)
        self.loads = []
        self.notes = []
        for i in range(phnum):
            (p_type, _flags, off, vaddr, paddr, filesz,
             memsz, _align) = struct.unpack_from(o + 'IIQQQQQQ', self.m,
                                                 self.phoff + i * phentsize)
            if p_type == 1:
                self.loads.append((paddr, memsz, filesz, off, vaddr))
            elif p_type == 4:
                self.notes.append((off, filesz))
        self.loads_sorted = sorted(self.loads)

    def max_pfn(self):
        return max((p + m + PAGE - 1) // PAGE for p, m, _, _, _ in self.loads)

    def cover(self, pfn):
        """(bytes of memory, bytes of data) the input has in page PFN."""
        start, end = pfn * PAGE, (pfn + 1) * PAGE
        mem = data = 0
        for paddr, memsz, filesz, _, _ in self.loads_sorted:
            a = max(start, paddr)
            m = min(end, paddr + memsz)
            d = min(end, paddr + filesz)
            if m > a:
                mem = max(mem, m - a)
            if d > a:
                data = max(data, d - a)
        return mem, data

    def read(self, paddr, size):
        """SIZE bytes at PADDR; zeros where no segment has data."""
        out = bytearray(size)
        for seg_paddr, memsz, filesz, off, _ in self.loads_sorted:
            a = max(paddr, seg_paddr)
            b = min(paddr + size, seg_paddr + filesz)
            if b > a:
                out[a - paddr:b - paddr] = self.m[off + a - seg_paddr:
                                                 off + b - seg_paddr]
        return bytes(out)


class Kdump:
    """The kdump-compressed header and bitmaps, parsed here (not by vmsift)."""

    def __init__(self, path):
        with open(path, 'rb') as f:
            hdr = f.read(4096)
            if hdr[:8] != b'KDUMP   ':
                raise SystemExit('%s: no KDUMP signature' % path)
            # The dumped machine's byte order: the one in which the
            # header version is a small number (as libkdumpfile tells it).
            v, = struct.unpack_from('<i', hdr, 8)
            o = self.order = '<' if 0 < v < 0x10000 else '>'
            self.version, = struct.unpack_from(o + 'i', hdr, 8)
            (self.status, self.block_size, self.sub_hdr_size,
             self.bitmap_blocks, self.max_mapnr) = struct.unpack_from(
                 o + 'IiiII', hdr, 424)
            self.nr_cpus, = struct.unpack_from(o + 'i', hdr, 460)
            self.release = hdr[12 + 65 * 2:12 + 65 * 3].split(b'\0')[0]
            f.seek(self.block_size)
            sub = f.read(104)
            (self.phys_base, self.dump_level) = struct.unpack_from(o + 'Qi', sub, 0)
            (self.off_vmcoreinfo, self.size_vmcoreinfo, self.off_note,
             self.size_note) = struct.unpack_from(o + 'QQQQ', sub, 32)
            self.max_mapnr_64, = struct.unpack_from(o + 'Q', sub, 96)
            half = self.bitmap_blocks * self.block_size // 2
            f.seek((1 + self.sub_hdr_size) * self.block_size)
            self.bitmap1 = f.read(half)
            self.bitmap2 = f.read(half)

    @staticmethod
    def bit(bm, pfn):
        return (bm[pfn >> 3] >> (pfn & 7)) & 1 if (pfn >> 3) < len(bm) else 0


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def open_kdumpfile(path):
    import kdumpfile
    k = kdumpfile.kdumpfile(path)
    return k, kdumpfile


class FdSet:
    """A split set opened together by libkdumpfile's C API (the Python
    binding opens one file only), with the binding's read() signature."""

    def __init__(self, paths):
        import ctypes
        import os
        self.ct = ctypes
        lib = ctypes.CDLL('libkdumpfile.so.10')
        lib.kdump_new.restype = ctypes.c_void_p
        lib.kdump_open_fdset.argtypes = [ctypes.c_void_p, ctypes.c_uint,
                                         ctypes.POINTER(ctypes.c_int)]
        lib.kdump_read.argtypes = [ctypes.c_void_p, ctypes.c_int,
                                   ctypes.c_uint64, ctypes.c_void_p,
                                   ctypes.POINTER(ctypes.c_size_t)]
        lib.kdump_get_err.restype = ctypes.c_char_p
        lib.kdump_get_err.argtypes = [ctypes.c_void_p]
        self.lib = lib
        self.ctx = lib.kdump_new()
        fds = (ctypes.c_int * len(paths))(*[os.open(p, os.O_RDONLY)
                                             for p in paths])
        if lib.kdump_open_fdset(self.ctx, len(paths), fds) != 0:
            fail('libkdumpfile cannot open the set: %s' %
                 lib.kdump_get_err(self.ctx))
        self.buf = ctypes.create_string_buffer(PAGE)

    def read(self, space, addr, size):
        n = self.ct.c_size_t(size)
        if self.lib.kdump_read(self.ctx, space, addr, self.buf,
                               self.ct.byref(n)) != 0 or n.value != size:
            raise IOError(self.lib.kdump_get_err(self.ctx))
        return self.buf.raw[:size]


def check_pages(input_path, dump_path, *more_parts):
    """With MORE_PARTS, DUMP_PATH and they are a split set, read as one."""
    elf = Elf(input_path)
    kd = Kdump(dump_path)
    k, kmod = open_kdumpfile(dump_path)
    if more_parts:
        k = FdSet((dump_path,) + more_parts)
    # max_mapnr may end before the input does: like makedumpfile, vmsift
    # stops at the last memory section with struct pages (the bitmaps
    # check compares that value with makedumpfile's).
    if kd.max_mapnr_64 > elf.max_pfn() or kd.max_mapnr_64 == 0:
        fail('max_mapnr %#x, the input spans %#x pfns' %
             (kd.max_mapnr_64, elf.max_pfn()))
    kept = absent = 0
    # VMCHECK_ABSENT_EVERY=N tries to read only one excluded page in N
    # (a big, mostly free vmcore: tests/suites/mkbig.sh)
    every = int(os.environ.get('VMCHECK_ABSENT_EVERY', '1'))
    for pfn in range(kd.max_mapnr_64):
        mem, data = elf.cover(pfn)
        b1, b2 = Kdump.bit(kd.bitmap1, pfn), Kdump.bit(kd.bitmap2, pfn)
        # A partly covered page may be absent from bitmap 1 of a dump that
        # descends from makedumpfile's (see check_bitmaps).
        if b1 != (1 if mem else 0) and not (0 < mem < PAGE and not b1):
            fail('pfn %#x: bitmap1 is %d, the input %s memory there' %
                 (pfn, b1, 'has' if mem else 'has no'))
        if b2 and not data:
            fail('pfn %#x: bitmap2 set but the input has no data there' % pfn)
        if not b2:
            if mem and b1 and pfn % every == 0:
                try:
                    k.read(kmod.KDUMP_MACHPHYSADDR, pfn * PAGE, PAGE)
                    fail('pfn %#x: excluded in bitmap2 yet readable' % pfn)
                except Exception:
                    absent += 1
            continue
        got = k.read(kmod.KDUMP_MACHPHYSADDR, pfn * PAGE, PAGE)
        want = elf.read(pfn * PAGE, PAGE)
        if got != want:
            first = next(i for i in range(PAGE) if got[i] != want[i])
            fail('pfn %#x: page differs from the input at byte %#x' %
                 (pfn, first))
        kept += 1
    print('ok: %d pages equal to the input, %d excluded pages absent' %
          (kept, absent))


def check_readback(input_path, dump_path, level):
    """Every page, through libkdumpfile alone (any format it reads)."""
    elf = Elf(input_path)
    k, kmod = open_kdumpfile(dump_path)
    # kdump_byte_order_t: KDUMP_BIG_ENDIAN 0, KDUMP_LITTLE_ENDIAN 1 (the
    # binding exports no name for them).
    order = {0: 'big', 1: 'little'}[k.attr['arch.byte_order']]
    kept = zero = 0
    for pfn in range(elf.max_pfn()):
        mem, data = elf.cover(pfn)
        if data < PAGE:
            continue
        want = elf.read(pfn * PAGE, PAGE)
        try:
            got = k.read(kmod.KDUMP_MACHPHYSADDR, pfn * PAGE, PAGE)
        except Exception:
            if level & 1 and want == bytes(PAGE):
                zero += 1
                continue
            fail('pfn %#x: libkdumpfile cannot read it' % pfn)
        if got != want:
            fail('pfn %#x: page differs from the input' % pfn)
        kept += 1
    print('ok: %d pages equal to the input, %d zero pages left out; '
          'byte_order=%s' % (kept, zero, order))


def check_incomplete(input_path, dump_path):
    """A dump cut short: flagged incomplete, opened by libkdumpfile, every
    page with data equal to the input's, the lost ones all after them."""
    elf = Elf(input_path)
    kd = Kdump(dump_path)
    if not kd.status & 0x8:
        fail('the dump is not marked incomplete (status %#x)' % kd.status)
    k, kmod = open_kdumpfile(dump_path)
    desc_off = (1 + kd.sub_hdr_size + kd.bitmap_blocks) * kd.block_size
    with open(dump_path, 'rb') as f:
        data = f.read()
    index = intact = lost = 0
    for pfn in range(kd.max_mapnr_64):
        if not Kdump.bit(kd.bitmap2, pfn):
            continue
        rec = data[desc_off + 24 * index:desc_off + 24 * index + 24]
        index += 1
        off = struct.unpack_from(kd.order + 'q', rec)[0] if len(rec) == 24 else 0
        if off == 0:
            lost += 1
            continue
        if lost:
            fail('pfn %#x has data after lost pages' % pfn)
        got = k.read(kmod.KDUMP_MACHPHYSADDR, pfn * PAGE, PAGE)
        if got != elf.read(pfn * PAGE, PAGE):
            fail('pfn %#x: page differs from the input' % pfn)
        intact += 1
    print('ok: incomplete dump, %d pages intact, %d lost after them' %
          (intact, lost))


def check_bitmaps(dump_path, ref_path, input_path):
    elf = Elf(input_path)
    ours, ref = Kdump(dump_path), Kdump(ref_path)
    if ours.max_mapnr_64 != ref.max_mapnr_64:
        fail('max_mapnr %#x, reference %#x' % (ours.max_mapnr_64,
                                               ref.max_mapnr_64))
    partial = 0
    for name, a, b in (('bitmap1', ours.bitmap1, ref.bitmap1),
                       ('bitmap2', ours.bitmap2, ref.bitmap2)):
        if a == b:
            continue
        for byte in range(max(len(a), len(b))):
            x = a[byte] if byte < len(a) else 0
            y = b[byte] if byte < len(b) else 0
            if x == y:
                continue
            for bit in range(8):
                if ((x ^ y) >> bit) & 1:
                    pfn = byte * 8 + bit
                    mem, _ = elf.cover(pfn)
                    # The known exception: a page only partly covered by a
                    # PT_LOAD; makedumpfile 1.7.2 drops it, vmsift keeps it.
                    # (1.7.2 marks it present in bitmap 1 when it keeps its
                    # bitmaps in a file, not when it keeps them in memory:
                    # that choice follows the machine's free memory.)
                    if 0 < mem < PAGE and (x >> bit) & 1:
                        partial += 1
                        continue
                    fail('%s differs at pfn %#x: ours %d, reference %d' %
                         (name, pfn, (x >> bit) & 1, (y >> bit) & 1))
    print('ok: bitmaps equal (%d partly covered pages kept)' % partial)


def check_elf(input_path, dump_path, level, kdump_path=None):
    """KDUMP_PATH: a kdump of the same input and level (makedumpfile's);
    a page may be missing only where its bitmap2 excludes it."""
    elf, out = Elf(input_path), Elf(dump_path)
    ref = Kdump(kdump_path) if kdump_path else None
    if out.flags & 1:
        fail('the ELF dump is marked incomplete')
    checked = 0
    for paddr, memsz, filesz, off, vaddr in out.loads:
        got = out.m[off:off + filesz]
        if got != elf.read(paddr, filesz):
            fail('PT_LOAD at %#x differs from the input' % paddr)
        checked += filesz
    # Every input page that is not zero (at -d 1) must be in the output.
    covered = set()
    for paddr, memsz, filesz, _, _ in out.loads:
        covered.update(range(paddr // PAGE, (paddr + filesz + PAGE - 1) // PAGE))
    for paddr, memsz, filesz, _, _ in elf.loads:
        for pfn in range(paddr // PAGE, (paddr + filesz + PAGE - 1) // PAGE):
            if pfn in covered:
                continue
            if level & 1 and elf.read(pfn * PAGE, PAGE) == bytes(PAGE):
                continue
            if ref and not Kdump.bit(ref.bitmap2, pfn):
                continue
            fail('pfn %#x of the input is missing from the ELF dump' % pfn)
    print('ok: %d bytes of PT_LOAD data equal to the input' % checked)


def normalize(src, dst):
    """Program headers moved to offset 64 (QEMU writes section headers
    there, which makedumpfile 1.7.2 cannot read); data offsets kept.  The
    copy keeps the input's holes, and only its first bytes are rewritten,
    so a 16 GiB vmcore costs little."""
    import shutil
    import subprocess
    e = Elf(src)
    phentsize, phnum = struct.unpack_from('<HH', e.m, 54)
    ph = bytes(e.m[e.phoff:e.phoff + phentsize * phnum])
    if 64 + len(ph) > min([l[3] for l in e.loads] + [n[0] for n in e.notes]):
        raise SystemExit('no room to move the program headers')
    if subprocess.run(['cp', '--sparse=always', src, dst]).returncode != 0:
        shutil.copyfile(src, dst)
    with open(dst, 'r+b') as f:
        f.seek(32)
        f.write(struct.pack('<QQIHHHHHH', 64, 0, 0, 64, phentsize, phnum,
                            0, 0, 0))
        f.seek(64)
        f.write(ph)


def header(dump_path):
    kd = Kdump(dump_path)
    for key in ('version', 'status', 'block_size', 'sub_hdr_size',
                'bitmap_blocks', 'max_mapnr', 'nr_cpus', 'phys_base',
                'dump_level', 'off_vmcoreinfo', 'size_vmcoreinfo',
                'off_note', 'size_note', 'max_mapnr_64'):
        print('%s=%s' % (key, getattr(kd, key)))
    print('release=%s' % kd.release.decode())


def use_page_size_of(input_path):
    """PAGE becomes the dumped machine's page size (VMCOREINFO PAGESIZE
    of the input ELF; 4096 when it has none): arm64 has 16K/64K pages."""
    global PAGE
    e = Elf(input_path)
    for off, size in e.notes:
        text = bytes(e.m[off:off + size])
        i = text.find(b'PAGESIZE=')
        if i >= 0:
            PAGE = int(text[i + 9:].split(b'\n', 1)[0])
            return


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd in ('pages', 'incomplete', 'elf', 'readback'):
        use_page_size_of(args[0])
    elif cmd == 'bitmaps':
        use_page_size_of(args[2])
    if cmd == 'pages':
        check_pages(*args)
    elif cmd == 'incomplete':
        check_incomplete(*args)
    elif cmd == 'bitmaps':
        check_bitmaps(*args)
    elif cmd == 'elf':
        check_elf(args[0], args[1], int(args[2]), *args[3:])
    elif cmd == 'readback':
        check_readback(args[0], args[1], int(args[2]))
    elif cmd == 'normalize':
        normalize(*args)
    elif cmd == 'header':
        header(*args)
    else:
        raise SystemExit(__doc__)


if __name__ == '__main__':
    main()
