#!/usr/bin/python3
"""mkseeds.py - write the fuzz targets' seed inputs (small and valid).

    mkseeds.py OUTDIR [VMCORE]

Writes OUTDIR/<target>/seed-*: compact ELF vmcores (elf), VMCOREINFO texts
(vmcoreinfo; the one of VMCORE too, when given), flattened streams made by
../../vmsift -F from the compact vmcores (flat; needs `make` at the top),
kdump-compressed files of them, one per codec (kdump),
and patch lists for the filter target (filter).  The committed corpus
(corpus/) started as these, minimized with libFuzzer's -merge=1.
"""
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VMSIFT = os.path.join(HERE, '..', '..', 'vmsift')
VI = (b'OSRELEASE=6.1.0-fuzz\nPAGESIZE=%d\nCRASHTIME=1700000000\n'
      b'SYMBOL(init_uts_ns)=ffffffff82a0f000\nSIZE(page)=64\n'
      b'OFFSET(page.flags)=0\nNUMBER(PG_lru)=4\nKERNELOFFSET=0\n')


def note(name, ntype, desc):
    name = name + b'\0'
    pad = lambda b: b + b'\0' * (-len(b) % 4)
    return struct.pack('<III', len(name), len(desc), ntype) + pad(name) + pad(desc)


def elf(segments, vmcoreinfo, page=4096, cpus=2):
    """SEGMENTS: (paddr, memsz pages, filesz pages).  Data right after
    the notes, no alignment: the smallest file the reader accepts."""
    blob = b''.join(note(b'CORE', 1, bytes(336)) for _ in range(cpus))
    if vmcoreinfo is not None:
        blob += note(b'VMCOREINFO', 0, vmcoreinfo)
    phnum = 1 + len(segments)
    off = 64 + 56 * phnum
    ph = [struct.pack('<IIQQQQQQ', 4, 0, off, 0, 0, len(blob), len(blob), 0)]
    off += len(blob)
    body = b''
    for paddr, mem, fil in segments:
        ph.append(struct.pack('<IIQQQQQQ', 1, 7, off, 0xffff888000000000 + paddr,
                              paddr, mem * page, fil * page, 0))
        for i in range(fil):
            body += bytes(page) if i % 2 else struct.pack('<Q', paddr + i) * (page // 8)
        off += fil * page
    eh = b'\x7fELF\x02\x01\x01' + bytes(9) + struct.pack(
        '<HHIQQQIHHHHHH', 4, 62, 1, 0, 64, 0, 0, 64, 56, phnum, 0, 0, 0)
    return eh + b''.join(ph) + blob + body


def vmcoreinfo_of(path):
    with open(path, 'rb') as f:
        head = f.read(1 << 20)
    i = head.find(b'VMCOREINFO\0')
    if i < 0:
        return None
    namesz, descsz = struct.unpack_from('<II', head, i - 12)
    start = i + (namesz + 3) // 4 * 4
    return head[start:start + descsz]


def write(d, name, data):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


def main():
    out = sys.argv[1]
    real = vmcoreinfo_of(sys.argv[2]) if len(sys.argv) > 2 else None
    elfs = {
        'good': elf([(0x1000, 2, 2), (0x100000, 3, 3)], VI % 4096),
        'no-vmcoreinfo': elf([(0x1000, 1, 1)], None),
        'memsz-gt-filesz': elf([(0x1000, 4, 1), (0x8000, 2, 2)], VI % 4096),
        'pagesize-512': elf([(0x200, 2, 2), (0x1000, 1, 1)], VI % 512, page=512),
        'one-cpu': elf([(0, 1, 1)], VI % 4096, cpus=1),
    }
    if real:
        elfs['real-vmcoreinfo'] = elf([(0x1000, 2, 2)], real)
    for name, data in elfs.items():
        write(os.path.join(out, 'elf'), 'seed-' + name, data)
    write(os.path.join(out, 'vmcoreinfo'), 'seed-small', VI % 4096)
    if real:
        write(os.path.join(out, 'vmcoreinfo'), 'seed-kdump-512M', real)
    base = os.path.join(HERE, 'build', 'base.vmcore')
    if os.path.exists(base):
        write(os.path.join(out, 'vmcoreinfo'), 'seed-base', vmcoreinfo_of(base))
    tmp = os.path.join(out, 'good.tmp')
    with open(tmp, 'wb') as f:
        f.write(elfs['good'])
    for name, args in (('kdump-zlib-d1', ['-c', '-d', '1']),
                       ('kdump-none-d0', ['--compression-level=0', '-d', '0']),
                       ('elf-d0', ['-E', '-d', '0'])):
        stream = subprocess.run([VMSIFT, '-F', '--message-level', '0'] + args
                                + [tmp], check=True, capture_output=True).stdout
        write(os.path.join(out, 'flat'), 'seed-' + name, stream)
    for name, args in (('zlib-d0', ['-c', '-d', '0']), ('lzo-d1', ['-l', '-d', '1']),
                       ('snappy-d0', ['-p', '-d', '0']), ('zstd-d1', ['-z', '-d', '1']),
                       ('none-d0', ['--compression-level=0', '-d', '0'])):
        dump = os.path.join(out, 'kdump.tmp')
        if os.path.exists(dump):
            os.unlink(dump)
        subprocess.run([VMSIFT, '--message-level', '0'] + args + [tmp, dump],
                       check=True)
        with open(dump, 'rb') as f:
            write(os.path.join(out, 'kdump'), 'seed-' + name, f.read())
        os.unlink(dump)
    os.unlink(tmp)
    # filter: level byte, then (u16 offset/4, u8 length, bytes) records.
    for name, data in (('d31', b'\x1f'), ('d31-dump', b'\x3f'),
                       ('d2-pread', b'\x42'), ('d16', b'\x10'),
                       ('d8-ones', b'\x08' + struct.pack('<HB', 0, 8) + b'\xff' * 8),
                       ('d31-mid', b'\x1f' + struct.pack('<HB', 0x2000, 16)
                        + bytes(range(16)))):
        write(os.path.join(out, 'filter'), 'seed-' + name, data)


if __name__ == '__main__':
    main()
