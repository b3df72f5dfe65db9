#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""strip_vmcoreinfo.py IN OUT: copy the ELF vmcore IN to OUT without its
VMCOREINFO note.  strip_vmcoreinfo.py --note IN: print the note's text.

The notes after it move up, the PT_NOTE segment's p_filesz shrinks by the
note's size and the freed bytes become zeros; nothing else changes (every
PT_LOAD keeps its offset).  For the -x tests (tests/suites/debuginfo.sh):
a dump that has to take its symbols and types from a debug vmlinux.
Exits 1 when IN has no VMCOREINFO note or is not a 64-bit ELF core.
"""
import shutil
import struct
import sys


def align4(n):
    return (n + 3) & ~3


def strip_notes(notes, order, text=None):
    """NOTES without the VMCOREINFO note, or None when it has none; its
    text appended to the list TEXT when one is given."""
    out, pos, found = b"", 0, False
    while pos + 12 <= len(notes):
        namesz, descsz, _ = struct.unpack_from(order + "III", notes, pos)
        end = pos + 12 + align4(namesz) + align4(descsz)
        if namesz == 0 and descsz == 0:
            break
        name = notes[pos + 12:pos + 12 + namesz]
        if name.rstrip(b"\0") == b"VMCOREINFO":
            found = True
            if text is not None:
                desc = pos + 12 + align4(namesz)
                text.append(notes[desc:desc + descsz].rstrip(b"\0"))
        else:
            out += notes[pos:end]
        pos = end
    return out if found else None


def print_note(src):
    with open(src, "rb") as f:
        ehdr = f.read(64)
        order = "<" if ehdr[5] == 1 else ">"
        phoff, = struct.unpack_from(order + "Q", ehdr, 32)
        phentsize, phnum = struct.unpack_from(order + "HH", ehdr, 54)
        for i in range(phnum):
            f.seek(phoff + i * phentsize)
            ph = f.read(phentsize)
            if struct.unpack_from(order + "I", ph, 0)[0] != 4:
                continue
            off, = struct.unpack_from(order + "Q", ph, 8)
            filesz, = struct.unpack_from(order + "Q", ph, 32)
            f.seek(off)
            text = []
            strip_notes(f.read(filesz), order, text)
            if text:
                sys.stdout.write(text[0].decode("ascii", "replace"))
                return
    sys.exit(f"{src}: no VMCOREINFO note")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--note":
        print_note(sys.argv[2])
        return
    if len(sys.argv) != 3:
        sys.exit("usage: strip_vmcoreinfo.py IN OUT | --note IN")
    src, dst = sys.argv[1:]
    with open(src, "rb") as f:
        ehdr = f.read(64)
    if ehdr[:4] != b"\x7fELF" or ehdr[4] != 2:
        sys.exit(f"{src}: not a 64-bit ELF file")
    order = "<" if ehdr[5] == 1 else ">"
    phoff, = struct.unpack_from(order + "Q", ehdr, 32)
    phentsize, phnum = struct.unpack_from(order + "HH", ehdr, 54)
    shutil.copyfile(src, dst)
    with open(dst, "r+b") as f:
        for i in range(phnum):
            at = phoff + i * phentsize
            f.seek(at)
            ph = f.read(phentsize)
            p_type, = struct.unpack_from(order + "I", ph, 0)
            if p_type != 4:
                continue
            off, = struct.unpack_from(order + "Q", ph, 8)
            filesz, = struct.unpack_from(order + "Q", ph, 32)
            f.seek(off)
            notes = f.read(filesz)
            kept = strip_notes(notes, order)
            if kept is None:
                continue
            f.seek(off)
            f.write(kept + b"\0" * (filesz - len(kept)))
            f.seek(at + 32)
            f.write(struct.pack(order + "QQ", len(kept), len(kept)))
            return
    sys.exit(f"{src}: no VMCOREINFO note")


if __name__ == "__main__":
    main()
