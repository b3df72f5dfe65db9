# SPDX-License-Identifier: GPL-2.0-or-later
"""ti_spec.py - run inside gdb on a -dbg vmlinux: write the symbols and
types an erase config needs as a tests/unit/ti_spec.h spec, so that the
suite can run --config on a real dump before vmsift has its own DWARF
reader (the dwarf branch).  gdb reads the DWARF: an independent source.

    gdb -batch -nx -ex 'python import sys; sys.argv = [ARGS...]' \\
        -x tests/tools/ti_spec.py VMLINUX

ARGS: OUT KASLR_OFFSET_HEX SYMBOLS,... STRUCTS,...
Every symbol's address has KASLR_OFFSET added (VMCOREINFO KERNELOFFSET);
the members of each struct in STRUCTS are written (anonymous members
flattened into their parent, as typeinfo.h's member() finds them); other
types are written without members.
"""
import sys

import gdb  # pylint: disable=import-error

KINDS = {
    gdb.TYPE_CODE_INT: 'int', gdb.TYPE_CODE_CHAR: 'int',
    gdb.TYPE_CODE_BOOL: 'int', gdb.TYPE_CODE_ENUM: 'int',
    gdb.TYPE_CODE_PTR: 'ptr', gdb.TYPE_CODE_ARRAY: 'array',
    gdb.TYPE_CODE_STRUCT: 'struct', gdb.TYPE_CODE_UNION: 'union',
    gdb.TYPE_CODE_FUNC: 'func',
}


class Spec:
    def __init__(self, expand):
        self.ids = {}
        self.lines = []
        self.expand = set(expand)
        self.expanded = set()
        self.todo = []

    def key(self, t):
        code = t.code
        if code == gdb.TYPE_CODE_PTR:
            return ('ptr', self.tid(t.target()))
        if code == gdb.TYPE_CODE_ARRAY:
            return ('array', self.tid(t.target()), t.sizeof)
        return (code, t.tag or t.name or str(t), t.sizeof)

    def tid(self, t):
        t = t.strip_typedefs().unqualified()
        if t.code == gdb.TYPE_CODE_VOID:
            return 0
        k = self.key(t)
        if k in self.ids:
            return self.ids[k]
        i = len(self.ids) + 1
        self.ids[k] = i
        kind = KINDS.get(t.code, 'other')
        nelem = target = 0
        if t.code == gdb.TYPE_CODE_PTR:
            target = k[1]
        if t.code == gdb.TYPE_CODE_ARRAY:
            lo, hi = t.range()
            nelem = max(hi - lo + 1, 0)
            target = k[1]
        name = t.tag if t.code in (gdb.TYPE_CODE_STRUCT,
                                   gdb.TYPE_CODE_UNION) else t.name
        size = t.sizeof if t.code != gdb.TYPE_CODE_FUNC else 1
        self.lines.append('type %d %s %d %d %d %s' %
                          (i, kind, size, nelem, target, name or '-'))
        if t.code == gdb.TYPE_CODE_STRUCT and t.tag in self.expand:
            self.todo.append((i, t))
        return i

    def members(self, sid, t, base):
        for f in t.fields():
            off = base + f.bitpos // 8
            ft = f.type.strip_typedefs().unqualified()
            if not f.name and ft.code in (gdb.TYPE_CODE_STRUCT,
                                          gdb.TYPE_CODE_UNION):
                self.members(sid, ft, off)
                continue
            self.lines.append('member %d %s %d %d' %
                              (sid, f.name, off, self.tid(f.type)))

    def run(self):
        while self.todo:
            sid, t = self.todo.pop()
            if sid in self.expanded:
                continue
            self.expanded.add(sid)
            self.members(sid, t, 0)


def lookup(name):
    s = gdb.lookup_global_symbol(name) or gdb.lookup_static_symbol(name)
    if s is None:
        raise SystemExit('ti_spec: no symbol %s in the vmlinux' % name)
    return s


def main():
    out, offset, syms, structs = sys.argv[:4]
    spec = Spec([s for s in structs.split(',') if s])
    for name in [s for s in syms.split(',') if s]:
        s = lookup(name)
        addr = int(s.value().address) + int(offset, 16)
        spec.lines.append('sym %s %#x %d' % (name, addr & (2**64 - 1),
                                             spec.tid(s.type)))
    for name in spec.expand:
        spec.tid(gdb.lookup_type('struct ' + name))
    spec.run()
    with open(out, 'w') as f:
        f.write('\n'.join(spec.lines) + '\n')


main()
