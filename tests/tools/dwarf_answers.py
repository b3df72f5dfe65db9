#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""dwarf_answers.py VMCORE VMLINUX < QUESTIONS: drgn's answers, from the
kernel's DWARF (the -dbg vmlinux), to the questions tests/unit/ti_query
asks the dump's own kallsyms and BTF, in ti_query's output format, so
that tests/suites/btf.sh can diff the two.  drgn is the independent
oracle: it reads symbols and types with its own code and the debug file.

  sym NAME              "NAME ADDR" (hex)
  sizeof TYPE           "TYPE SIZE"
  offsetof TYPE M.M     "TYPE M.M OFFSET SIZE"
  symtype NAME          "NAME TYPENAME SIZE"
Anything drgn cannot answer: "NAME error drgn: MESSAGE".
"""
import sys

import drgn


def type_of(prog, name):
    name = name.strip()
    if name.endswith("*"):
        return prog.pointer_type(type_of(prog, name[:-1]))
    for kind in ("struct ", "union ", ""):
        try:
            return prog.type(kind + name)
        except (LookupError, SyntaxError):
            continue
    raise LookupError("no type " + name)


def unwrap(t):
    while t.kind in (drgn.TypeKind.TYPEDEF,) or t.qualifiers:
        t = t.type if t.kind == drgn.TypeKind.TYPEDEF else t.unqualified()
    return t


def size_of(t):
    t = unwrap(t)
    if t.kind == drgn.TypeKind.ARRAY and t.length is None:
        return 0                    # a flexible array: BTF says 0 elements
    return drgn.sizeof(t)


def answer(prog, words):
    verb, a = words[0], words[1]
    if verb == "sym":
        return "%s %x" % (a, prog.symbol(a).address)
    if verb == "sizeof":
        return "%s %d" % (a, size_of(type_of(prog, a)))
    if verb == "offsetof":
        t = type_of(prog, a)
        m = t
        for part in words[2].split("."):
            m = unwrap(m).member(part).type
        return "%s %s %d %d" % (a, words[2], drgn.offsetof(t, words[2]),
                                size_of(m))
    if verb == "symtype":
        t = unwrap(prog[a].type_)
        return "%s %s %d" % (a, t.tag or t.name, size_of(t))
    raise ValueError("unknown question " + verb)


def main():
    prog = drgn.Program()
    prog.set_core_dump(sys.argv[1])
    prog.load_debug_info([sys.argv[2]])
    for line in sys.stdin:
        words = line.split()
        if len(words) < 2:
            continue
        try:
            print(answer(prog, words))
        except Exception as e:  # an answer drgn cannot give is a line too
            print("%s error drgn: %s" % (words[0], e))


main()
