#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""page_grep.py DUMP TEXT... - how often each TEXT occurs in the memory a
dump holds, after decompression.

DUMP is a kdump-compressed file (its stored pages from its bitmap, parsed
by tests/tools/vmcheck.py, each page read and decompressed by
libkdumpfile, not by vmsift) or an ELF vmcore (its PT_LOAD segments).  A
TEXT across two consecutive stored pages counts too.  Prints "N TEXT"
per TEXT, in order (N: occurrences, one may count twice where chunks
overlap); exit 0.  A TEXT "hex:HEX" is the bytes HEX spells (a key that
is not text: a hash, random bytes).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vmcheck  # noqa: E402  pylint: disable=wrong-import-position

PAGE = 4096


def kdump_chunks(path):
    """Runs of consecutive stored pages, as bytes."""
    kd = vmcheck.Kdump(path)
    k, kmod = vmcheck.open_kdumpfile(path)
    run, last = [], None
    for pfn in range(kd.max_mapnr_64):
        if not vmcheck.Kdump.bit(kd.bitmap2, pfn):
            continue
        try:
            page = k.read(kmod.KDUMP_MACHPHYSADDR, pfn * PAGE, PAGE)
        except Exception:  # pylint: disable=broad-except
            continue
        if last is not None and pfn != last + 1 and run:
            yield b''.join(run)
            run = []
        run.append(page)
        last = pfn
        if len(run) >= 256:      # keep the tail for a TEXT across pages
            yield b''.join(run)
            run = [run[-1]]
    if run:
        yield b''.join(run)


def elf_chunks(path):
    elf = vmcheck.Elf(path)
    with open(path, 'rb') as f:
        for seg in elf.loads:
            off, size = seg[3], seg[2]
            f.seek(off)
            left = size
            tail = b''
            while left > 0:
                buf = f.read(min(left, 1 << 24))
                if not buf:
                    break
                left -= len(buf)
                yield tail + buf
                tail = buf[-PAGE:]


def count(chunks, texts):
    """Occurrences per TEXT (one in the page a chunk repeats from the one
    before may count twice: the tests ask for 0 or not)."""
    n = [0] * len(texts)
    for c in chunks:
        for i, t in enumerate(texts):
            n[i] += c.count(t)
    return n


def main():
    path, args = sys.argv[1], sys.argv[2:]
    texts = [bytes.fromhex(t[4:]) if t.startswith('hex:') else t.encode()
             for t in args]
    with open(path, 'rb') as f:
        magic = f.read(8)
    chunks = kdump_chunks(path) if magic == b'KDUMP   ' else elf_chunks(path)
    for n, t in zip(count(chunks, texts), args):
        print(n, t)


main()
