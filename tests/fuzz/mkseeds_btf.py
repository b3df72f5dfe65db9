#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mkseeds_btf.py CORPUS_DIR: seeds of the kallsyms and btf targets.

kallsyms: small tables in the kernel's layout (fuzz_kallsyms.c's header,
then the image): one-byte tokens, names with one- and two-byte (ULEB128)
lengths, base-relative offsets with and without absolute per-CPU
values, absolute addresses, little- and big-endian.
btf: raw BTF with an int, a struct with an anonymous union and a
bitfield, a pointer, a typedef, an enum, an array and a per-CPU DATASEC;
seed-nest, anonymous members repeating a type 26 levels deep (2^27
members: a lookup and the layout digest stop at 65536).
"""
import os
import struct
import sys


def kallsyms_image(big, absolute, percpu):
    e = ">" if big else "<"
    syms = [("Tschedule", 0x1000), ("Dinit_task", 0x2000),
            ("d" + "x" * 200, 0x3000), ("Bjiffies", 0x4000)]
    if percpu:
        syms.append(("Arunqueues", 0x40))
    tokens = b"".join(bytes([i if 0x21 <= i < 0x7f else 0x78]) + b"\0"
                      for i in range(256))
    index = b"".join(struct.pack(e + "H", 2 * i) for i in range(256))
    names = b""
    for n, _ in syms:
        ln = len(n)
        names += bytes([ln]) if ln < 0x80 else bytes([(ln & 0x7f) | 0x80, ln >> 7])
        names += n.encode()
    base = 0xffffffff81000000
    img = bytearray(4096)
    lay = {}

    def put(key, blob):
        lay[key] = len(img)
        img.extend(blob + b"\0" * (-len(blob) % 8))

    put("names", names)
    put("num", struct.pack(e + "I", len(syms)))
    put("tt", tokens)
    put("ti", index)
    if absolute:
        put("off", b"".join(struct.pack(e + "Q", base + a) for _, a in syms))
        put("rb", b"")
    else:
        vals = []
        for n, a in syms:
            vals.append(a if n[0] == "A" else
                        (-(a + 1) if percpu else a) & 0xffffffff)
        put("off", b"".join(struct.pack(e + "I", v) for v in vals))
        put("rb", struct.pack(e + "Q", base))
    put("look", b"init_task\0")
    flags = (1 if big else 0) | (2 if absolute else 0)
    hdr = struct.pack("<8I", flags, lay["names"], lay["num"], lay["tt"],
                      lay["ti"], lay["off"], lay["rb"], lay["look"])
    return hdr + bytes(img)


def btf_blob(fwd):
    strs = b"\0"
    def s(name):
        nonlocal strs
        off = len(strs)
        strs += name.encode() + b"\0"
        return off
    types = b""
    def t(name_off, kind, vlen, kflag, size_type, extra=b""):
        nonlocal types
        types += struct.pack("<III", name_off, kind << 24 | vlen | kflag << 31,
                             size_type) + extra
    t(s("int"), 1, 0, 0, 4, struct.pack("<I", 32 | 1 << 24))          # 1 int
    t(0, 5, 2, 0, 8, struct.pack("<III", s("c"), 1, 0) +
      struct.pack("<III", s("d"), 1, 0))                                # 2 union
    t(s("s"), 4, 3, 1, 16, struct.pack("<III", s("a"), 1, 0) +
      struct.pack("<III", 0, 2, 32) +
      struct.pack("<III", s("b"), 1, 3 << 24 | 96))                     # 3 struct
    t(0, 2, 0, 0, 3)                                                    # 4 ptr
    t(s("t"), 8, 0, 0, 3)                                               # 5 typedef
    t(s("e"), 6, 1, 0, 4, struct.pack("<Ii", s("E1"), 5))               # 6 enum
    t(0, 3, 0, 0, 0, struct.pack("<III", 1, 1, 4))                      # 7 array
    t(s("v"), 14, 0, 0, 3, struct.pack("<I", 1))                        # 8 var
    t(s(".data..percpu"), 15, 1, 0, 16, struct.pack("<III", 8, 0, 16)) # 9 datasec
    if fwd:                         # declarations where structs are meant
        t(s("f"), 7, 0, 0, 0)                                           # 10 fwd
        t(s("w"), 7, 0, 1, 0)                                           # 11 fwd union
        t(0, 2, 0, 0, 10)                                               # 12 ptr
        t(s("g"), 4, 3, 0, 16, struct.pack("<III", s("a"), 10, 0) +
          struct.pack("<III", s("b"), 12, 0) +
          struct.pack("<III", s("c"), 11, 64))                          # 13 struct
    return btf_raw(types, strs)


def btf_raw(types, strs):
    hdr = struct.pack("<HBBIIIII", 0xeb9f, 1, 0, 24, 0, len(types),
                      len(types), len(strs))
    return hdr + types + strs


def btf_nest(levels):
    """struct nest0 { int b, c; }, then LEVELS structs each of two
    anonymous members of the one before, the last one struct s: 2^LEVELS
    members for a member lookup or a layout digest to stop at 65536."""
    strs = b"\0int\0nest0\0b\0c\0s\0"
    types = struct.pack("<IIII", 1, 1 << 24, 4, 32 | 1 << 24)        # 1 int
    types += struct.pack("<III", 5, 4 << 24 | 2, 8) + \
        struct.pack("<III", 11, 1, 0) + struct.pack("<III", 13, 1, 32)
    for k in range(1, levels + 1):                                    # 3..
        size = 8 << k
        types += struct.pack("<III", 15 if k == levels else 0,
                             4 << 24 | 2, size) + \
            struct.pack("<III", 0, k + 1, 0) + \
            struct.pack("<III", 0, k + 1, size // 2 * 8)
    return btf_raw(types, strs)


def main():
    out = sys.argv[1]
    for d in ("kallsyms", "btf"):
        os.makedirs(os.path.join(out, d), exist_ok=True)
    for big in (0, 1):
        for absolute in (0, 1):
            for percpu in ((0, 1) if not absolute else (0,)):
                name = "seed-%s-%s%s" % ("be" if big else "le",
                                         "abs" if absolute else "rel",
                                         "-percpu" if percpu else "")
                with open(os.path.join(out, "kallsyms", name), "wb") as f:
                    f.write(kallsyms_image(big, absolute, percpu))
    with open(os.path.join(out, "btf", "seed-small"), "wb") as f:
        f.write(btf_blob(0))
    with open(os.path.join(out, "btf", "seed-fwd"), "wb") as f:
        f.write(btf_blob(1))
    with open(os.path.join(out, "btf", "seed-nest"), "wb") as f:
        f.write(btf_nest(26))


main()
