#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mkseeds.py - write the fuzz targets' seed inputs (small and valid).

    mkseeds.py OUTDIR [VMCORE]

Writes OUTDIR/<target>/seed-*: compact ELF vmcores (elf), VMCOREINFO texts
(vmcoreinfo; the one of VMCORE too, when given), flattened streams made by
../../vmsift -F from the compact vmcores (flat; needs `make` at the top),
kdump-compressed files of them, one per codec (kdump),
patch lists for the filter target (filter), vmcoreinfo text and memory for
the dmesg target from ../dmesg/mkdmesg.py's vmcores and a small lockless
ring built here (dmesg), split sets of VMCORE made by ../../vmsift --split
(reassemble; needs VMCORE, e.g. ../work/bad/good.vmcore from
../tools/mkbad.py) and the flattened streams of flat again, with one of
VMCORE, as input files (flatin).  The committed corpus
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


# dmesg: the layout of fuzz_dmesg.c and mkdmesg.py
KTEXT = 0xffffffff80000000
VARS = 0x3000
MESSAGES = [(0, b'Linux version 6.1.0 (synthetic)'), (1500, b'multi\nline'),
            (2000001, b'tab\there \x01\x7f caf\xc3\xa9'), (3000000, b''),
            (123456789012345, b'late')]


def dmesg_of(path, partial):
    """A fuzz_dmesg input from a mkdmesg.py vmcore: its VMCOREINFO text
    and its memory from VARS on, trailing zeros cut."""
    with open(path, 'rb') as f:
        img = f.read()
    vi = vmcoreinfo_of(path)
    off = struct.unpack_from('<Q', img, 64 + 56 + 8)[0]
    mem = img[off + VARS:].rstrip(b'\0')
    return bytes([partial]) + vi + b'\0' + mem


def prb(wrap, partial):
    """A 5.10+ lockless ring: printk_ringbuffer at VARS + 0x10, the
    descriptors at 0x3400, the printk_infos at 0x3600, clear_seq (a
    latched_seq) at 0x3100, the text ring (2^9 bytes) at 0x4000.  WRAP:
    the first block starts near the ring's end and wraps to its start."""
    mem = bytearray(0x4000 - VARS + 512)
    rb, descs, infos, clear, data = 0x3010, 0x3400, 0x3600, 0x3100, 0x4000
    tail = 0x100
    lpos = 512 - 24 if wrap else 0
    ids = []
    for i, (ts, text) in enumerate(MESSAGES + [(4000000, b'reserved')]):
        did = tail + i
        idx = did & 15
        size = (8 + len(text) + 7) & ~7
        begin = lpos
        if text == b'':
            begin = nxt = 1              # a data-less block
        else:
            if lpos % 512 + size > 512:  # wraps: data at the next start
                lpos = (lpos | 511) + 1
            at = lpos % 512
            struct.pack_into('<Q', mem, data - VARS + at, did)
            mem[data - VARS + at + 8:data - VARS + at + 8 + len(text)] = text
            lpos += size
            nxt = lpos
        state = 0 if text == b'reserved' else 2   # reserved: not printed
        struct.pack_into('<QQQ', mem, descs - VARS + idx * 24,
                         state << 62 | did, begin, nxt)
        struct.pack_into('<QQH', mem, infos - VARS + idx * 24, 40 + i, ts,
                         len(text))
        ids.append(did)
    struct.pack_into('<Q', mem, 0, KTEXT + rb)
    struct.pack_into('<IxxxxQQQQ', mem, rb - VARS, 4, KTEXT + descs,
                     KTEXT + infos, ids[-1], tail)
    struct.pack_into('<IxxxxQ', mem, rb - VARS + 40, 9, KTEXT + data)
    struct.pack_into('<QQQ', mem, clear - VARS, 1, 0, 42)
    vi = ['OSRELEASE=6.1.0', 'SYMBOL(prb)=%x' % (KTEXT + VARS),
          'SYMBOL(clear_seq)=%x' % (KTEXT + clear),
          'SIZE(printk_ringbuffer)=64', 'OFFSET(printk_ringbuffer.desc_ring)=0',
          'OFFSET(printk_ringbuffer.text_data_ring)=40',
          'OFFSET(prb_desc_ring.count_bits)=0', 'OFFSET(prb_desc_ring.descs)=8',
          'OFFSET(prb_desc_ring.infos)=16', 'OFFSET(prb_desc_ring.head_id)=24',
          'OFFSET(prb_desc_ring.tail_id)=32', 'SIZE(prb_desc)=24',
          'OFFSET(prb_desc.state_var)=0', 'OFFSET(prb_desc.text_blk_lpos)=8',
          'OFFSET(prb_data_blk_lpos.begin)=0', 'OFFSET(prb_data_blk_lpos.next)=8',
          'SIZE(printk_info)=24', 'OFFSET(printk_info.seq)=0',
          'OFFSET(printk_info.ts_nsec)=8', 'OFFSET(printk_info.text_len)=16',
          'OFFSET(prb_data_ring.size_bits)=0', 'OFFSET(prb_data_ring.data)=8',
          'OFFSET(atomic_long_t.counter)=0', 'SIZE(latched_seq)=24',
          'OFFSET(latched_seq.val)=8']
    return bytes([partial]) + ('\n'.join(vi) + '\n').encode() + b'\0' + \
        bytes(mem).rstrip(b'\0')


def dmesg_seeds(out):
    gen = os.path.join(HERE, '..', 'dmesg', 'mkdmesg.py')
    tmp = os.path.join(out, 'dmesg.tmp')
    for kind in ('records', 'records-log', 'records-wrap', 'plain',
                 'plain-wrap', 'plain-2.6.24', 'records-loop',
                 'records-overrun', 'records-badidx'):
        subprocess.run([sys.executable, gen, kind, tmp], check=True)
        for partial in (0, 1) if kind == 'records-wrap' else (0,):
            name = 'seed-%s%s' % (kind, '-partial' if partial else '')
            write(os.path.join(out, 'dmesg'), name, dmesg_of(tmp, partial))
        os.unlink(tmp)
    for name, wrap, partial in (('prb', 0, 0), ('prb-wrap', 1, 0),
                                ('prb-partial', 0, 1)):
        write(os.path.join(out, 'dmesg'), 'seed-' + name, prb(wrap, partial))


def split_seeds(out, vmcore):
    """reassemble: VMCORE split in 2 and 3 (64-page blocks), in
    fuzz_reassemble.c's framing; flatin: VMCORE flattened, -c -d 1."""
    for n, args in ((2, ['-c', '-d', '1']), (3, ['-c', '-d', '1']),
                    (3, ['-l', '-d', '0'])):
        parts = [os.path.join(out, 'part%d.tmp' % i) for i in range(n)]
        for p in parts:
            if os.path.exists(p):
                os.unlink(p)
        subprocess.run([VMSIFT, '--message-level', '0', '--split',
                        '--splitblock-size', '64'] + args + [vmcore] + parts,
                       check=True)
        blobs = []
        for p in parts:
            with open(p, 'rb') as f:
                blobs.append(f.read())
            os.unlink(p)
        data = bytes([n == 3])
        for b in blobs[:-1]:
            data += struct.pack('<I', len(b)) + b
        write(os.path.join(out, 'reassemble'), 'seed-%d%s' % (
            n, ''.join(args).replace('-', '')), data + blobs[-1])
    stream = subprocess.run([VMSIFT, '-F', '--message-level', '0', '-c', '-d',
                             '1', vmcore], check=True,
                            capture_output=True).stdout
    write(os.path.join(out, 'flatin'), 'seed-vmcore-zlib-d1', stream)


def write(d, name, data):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


def main():
    out = sys.argv[1]
    real = vmcoreinfo_of(sys.argv[2]) if len(sys.argv) > 2 else None
    os.makedirs(out, exist_ok=True)
    dmesg_seeds(out)
    if real:
        split_seeds(out, sys.argv[2])
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
        write(os.path.join(out, 'flatin'), 'seed-' + name, stream)
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
