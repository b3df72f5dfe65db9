#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""typeinfo_oracle.py VMLINUX < QUERIES: answer the queries of
tests/unit/typeinfo_query.c from the same vmlinux with drgn (an independent
DWARF reader), in the same form, so that the two outputs must be equal.

  sym NAME            the ELF symbol's address
  vartype NAME        the declared type of a global variable
  type NAME           a type by name ("struct page", "pgd_t", "task_struct*")
  member TYPE MEMBER  its offset (anonymous members searched) and type
  enum NAME           an enumerator's value
Types are described with typedefs and qualifiers followed: kind, size,
array elements (dimensions multiplied, as typeinfo.h counts them), name,
and for pointers and arrays what they point to / hold, two levels deep.
Base type names are written in one spelling (drgn writes "unsigned long"
where the DWARF says "long unsigned int"): `--canon` rewrites the other
side's answers, read on stdin, the same way.
"""
import re
import sys

import drgn

KIND = {
    drgn.TypeKind.INT: "int", drgn.TypeKind.BOOL: "int",
    drgn.TypeKind.ENUM: "int", drgn.TypeKind.POINTER: "ptr",
    drgn.TypeKind.ARRAY: "array", drgn.TypeKind.STRUCT: "struct",
    drgn.TypeKind.UNION: "union", drgn.TypeKind.FUNCTION: "func",
}


def strip(t):
    t = t.unqualified()
    while t.kind == drgn.TypeKind.TYPEDEF:
        t = t.type.unqualified()
    return t


def size_of(t):
    try:
        return drgn.sizeof(t)
    except (TypeError, ValueError):
        return 0


def describe(t, depth=0):
    t = strip(t)
    kind = KIND.get(t.kind, "other")
    out = "%s size=%d" % (kind, size_of(t) if t.kind != drgn.TypeKind.VOID else 0)
    target = None
    if t.kind == drgn.TypeKind.ARRAY:
        n, e = 1, t
        while e.kind == drgn.TypeKind.ARRAY:
            n = n * e.length if e.length is not None else 0
            e = strip(e.type)
        out += " nelem=%d" % n
        target = e
    elif t.kind == drgn.TypeKind.POINTER:
        target = t.type
    elif t.kind == drgn.TypeKind.VOID:
        out += " name=void"
    else:
        name = getattr(t, "tag", None) if t.kind in (
            drgn.TypeKind.STRUCT, drgn.TypeKind.UNION,
            drgn.TypeKind.ENUM) else getattr(t, "name", None)
        if name:
            out += " name=" + name
    if kind in ("ptr", "array") and depth < 2:
        if strip(target).kind == drgn.TypeKind.VOID:
            out += " of (void)"
        else:
            out += " of (" + describe(target, depth + 1) + ")"
    return out


def type_named(prog, name):
    name = name.strip()
    depth = 0
    while name.endswith("*"):
        depth += 1
        name = name[:-1].strip()
    t = None
    for n in ([name] if " " in name else [name, "struct " + name,
                                          "union " + name, "enum " + name]):
        try:
            t = prog.type(n)
            break
        except LookupError:
            continue
    if t is None:
        raise LookupError(name)
    for _ in range(depth):
        t = prog.pointer_type(t)
    return t


def answer(prog, op, arg):
    if op == "sym":
        return hex(prog.symbol(arg).address)
    if op == "enum":
        return str(prog.constant(arg).value_())
    if op == "type":
        return describe(type_named(prog, arg))
    if op == "vartype":
        return describe(prog.variable(arg).type_)
    if op == "member":
        tname, member = arg.rsplit(" ", 1)
        t = strip(type_named(prog, tname))
        return "off=%d %s" % (drgn.offsetof(t, member),
                              describe(t.member(member).type))
    raise LookupError(op)


def canon_name(name):
    """'long unsigned int' and 'unsigned long' alike: sorted words, 'int'
    dropped beside others."""
    words = name.split()
    if len(words) > 1 and "int" in words:
        words.remove("int")
    return " ".join(sorted(words))


def canon_line(line):
    return re.sub(r"name=((?:(?:unsigned|signed|long|short|int|char) ?)+)",
                  lambda m: "name=" + canon_name(m.group(1)) +
                  (" " if m.group(1).endswith(" ") else ""), line)


def main():
    if sys.argv[1:] == ["--canon"]:
        for line in sys.stdin:
            sys.stdout.write(canon_line(line))
        return
    prog = drgn.Program(drgn.host_platform)
    prog.load_debug_info([sys.argv[1]])
    for line in sys.stdin:
        parts = line.split(None, 1)
        if len(parts) != 2:
            continue
        op, arg = parts[0], parts[1].strip()
        try:
            res = answer(prog, op, arg)
        except (LookupError, ValueError, TypeError):
            res = "none"
        print(canon_line("%s %s -> %s" % (op, arg, res)))


if __name__ == "__main__":
    main()
