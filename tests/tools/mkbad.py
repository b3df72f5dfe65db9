#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mkbad - write small vmcores, one good and many broken, for the
bad-input tests.  Usage: mkbad.py DIR; writes DIR/<case>.vmcore and
prints one line per case: NAME EXPECTED-MESSAGE-FRAGMENT.

The good one is a kernel-style ELF64 core: program headers at 64, a
PT_NOTE with two CORE/NT_PRSTATUS notes and VMCOREINFO, two PT_LOADs of
patterned pages (with zero pages among them).  Each broken case changes
one thing.
"""
import os
import struct
import sys

PAGE = 4096
VMCOREINFO = b'OSRELEASE=6.1.0-test\nPAGESIZE=4096\nCRASHTIME=1700000000\n'


def note(name, ntype, desc):
    name = name + b'\0'
    pad = lambda b: b + b'\0' * (-len(b) % 4)
    return struct.pack('<III', len(name), len(desc), ntype) + pad(name) + pad(desc)


def notes(vmcoreinfo=VMCOREINFO):
    n = note(b'CORE', 1, bytes(336)) * 2
    if vmcoreinfo is not None:
        n += note(b'VMCOREINFO', 0, vmcoreinfo)
    return n


def page(pfn):
    if pfn % 5 == 0:
        return bytes(PAGE)
    return struct.pack('<Q', pfn) * (PAGE // 8)


def build(segments=((0x1000, 16), (0x100000, 32)), note_blob=None,
          ei_class=2, phoff=64):
    """Segments as (paddr, pages); returns the file's bytes and the
    offsets of its program headers."""
    note_blob = notes() if note_blob is None else note_blob
    phnum = 1 + len(segments)
    data_off = 0x1000 + (len(note_blob) + PAGE - 1) // PAGE * PAGE
    eh = bytearray(64)
    eh[:16] = b'\x7fELF' + bytes([ei_class, 1, 1]) + bytes(9)
    struct.pack_into('<HHIQQQIHHHHHH', eh, 16, 4, 62, 1, 0, phoff, 0, 0,
                     64, 56, phnum, 0, 0, 0)
    phdrs = [struct.pack('<IIQQQQQQ', 4, 0, 0x1000, 0, 0, len(note_blob),
                         len(note_blob), 0)]
    body = bytearray()
    off = data_off
    for paddr, pages in segments:
        size = pages * PAGE
        phdrs.append(struct.pack('<IIQQQQQQ', 1, 7, off,
                                 0xffff888000000000 + paddr, paddr, size,
                                 size, 0))
        for i in range(pages):
            body += page(paddr // PAGE + i)
        off += size
    out = bytearray(data_off)
    out[:64] = eh
    ph = b''.join(phdrs)
    out[phoff:phoff + len(ph)] = ph
    out[0x1000:0x1000 + len(note_blob)] = note_blob
    return out + body


def set_phdr(blob, index, field, value):
    fields = {'offset': (8, 'Q'), 'paddr': (24, 'Q'), 'filesz': (32, 'Q'),
              'memsz': (40, 'Q')}
    off, fmt = fields[field]
    struct.pack_into('<' + fmt, blob, 64 + 56 * index + off, value)
    return blob


CASES = []


def case(name, expect):
    def reg(fn):
        CASES.append((name, expect, fn))
        return fn
    return reg


@case('good', '')
def good():
    return build()


@case('empty', 'truncated ELF header')
def empty():
    return b''


@case('not-elf', 'not an ELF file')
def not_elf():
    return b'this is not a vmcore\n' * 100


@case('truncated-header', 'truncated ELF header')
def truncated_header():
    return build()[:40]


@case('elf32', 'only ELF64')
def elf32():
    return build(ei_class=1)


@case('phoff-past-end', 'program headers at offset')
def phoff_past_end():
    b = build()
    struct.pack_into('<Q', b, 32, len(b) + 4096)
    return b


@case('load-past-end', 'ends past the end of the file')
def load_past_end():
    return set_phdr(build(), 2, 'offset', 0x7fff0000)


@case('truncated-data', 'ends past the end of the file')
def truncated_data():
    return build()[:-3 * PAGE]


@case('filesz-gt-memsz', 'larger than memory size')
def filesz_gt_memsz():
    return set_phdr(build(), 1, 'memsz', PAGE)


@case('overlap', 'overlap')
def overlap():
    return set_phdr(build(), 2, 'paddr', 0x1000 + 8 * PAGE)


@case('absurd-paddr', 'absurd physical range')
def absurd_paddr():
    return set_phdr(build(), 1, 'paddr', 0xfffffffffffff000)


@case('corrupt-note', 'corrupt ELF note')
def corrupt_note():
    b = build()
    struct.pack_into('<I', b, 0x1000, 0x7fffffff)
    return b


@case('no-pagesize', 'no PAGESIZE')
def no_pagesize():
    return build(note_blob=notes(b'OSRELEASE=6.1.0-test\n'))


@case('bad-pagesize', 'PAGESIZE=3000')
def bad_pagesize():
    return build(note_blob=notes(b'OSRELEASE=6.1\nPAGESIZE=3000\n'))


@case('no-loads', 'no PT_LOAD')
def no_loads():
    b = build()
    struct.pack_into('<H', b, 56, 1)
    return b


@case('flat-offset-overflow',
      'bad record at byte 0x1000 (offset 9223372036854775800, size 16)')
def flat_offset_overflow():
    """A flattened file whose one record ends past INT64_MAX."""
    head = bytearray(4096)
    head[:12] = b'makedumpfile'
    struct.pack_into('>qq', head, 16, 1, 1)
    rec = struct.pack('>qq', (1 << 63) - 8, 16) + bytes(16)
    return bytes(head) + rec + struct.pack('>qq', -1, -1)


@case('unknown-machine', 'ELF machine 8 (mips) is not supported')
def unknown_machine():
    blob = build()
    struct.pack_into('<H', blob, 18, 8)         # e_machine = EM_MIPS
    return blob


@case('no-vmcoreinfo', '')
def no_vmcoreinfo():
    return build(note_blob=notes(None))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, expect, fn in CASES:
        with open(os.path.join(out, name + '.vmcore'), 'wb') as f:
            f.write(fn())
        print('%s\t%s' % (name, expect))


if __name__ == '__main__':
    main()
