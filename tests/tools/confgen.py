#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""confgen.py - random but valid makedumpfile.conf files for a real dump.

    confgen.py [--modules KO:KO...] VMLINUX VMCORE SEED [RULES] > seed.conf
    confgen.py --btf [--modules KO:KO...] VMLINUX VMCORE SEED.conf BTF.conf SUB.conf
    confgen.py --drop SEED.conf LINE... > KEPT.conf

Reads the kernel's symbols and types (the -dbg VMLINUX's DWARF) and the
dead kernel's values (VMCOREINFO's KASLR offset, pointers, list heads)
with drgn (Debian's python3-drgn; run with /usr/bin/python3), and writes
RULES (default 12) filter commands drawn from the whole of
makedumpfile.conf(5): erase SYM, SYM.member..., size N, size NK, size
SYMBOL.member, nullify, and the three loops (an array, "via" a next
member, "within" a list_head) with bodies of one to three erases.  The
draws lean on the edge cases: members beside (and on) bit-fields, char
arrays, char * strings, pointers that are NULL in the dump, sizes that
cross a page, a rule erasing bytes another rule erases, empty lists.

Seeds from V2 (500) on draw version 2's constructs too, from a random
stream of their own (the seeds below V2 write the files they wrote):
'size ID.member' in a loop's body (the member's value in every element
a plausible size), 'size 1M' (or 1m) from a global of the kernel image
whose mebibyte the dump stores, and more layouts (a loop of one erase on
one line, 'erase' and 'for ... in' ending a line, comment lines with
keywords in them, blank lines, a comment after 'endfor'); they also
write the size of a whole non-static array, struct or union, and walk
no such array (makedumpfile types those from their first declaration).

--modules KO:KO... (the debug files of modules, NAME.ko with DWARF, as
the -dbg package has them): drgn loads them beside the vmlinux, and the
config has [MODULE] sections for those the dump has loaded, each with
rules on that module's own globals (erases, members, size SYMBOL of the
module's symbols, nullify, loops over its arrays, 'via' chains and
list heads), with vmlinux rules before, between ([vmlinux]) and after
them.  A module symbol is drawn only when its name is unique among the
kernel's and the modules' symbols and it lies in its module's core
layout (what the dump's module symbol table keeps).

--btf writes the rules of SEED.conf that BTF can name (a global of a
named type) in SYMBOL:TYPE form to BTF.conf and as they are to SUB.conf,
the BTF mode's oracle (vmsift -x).  For a seed from V2 (SEED.conf named
by its number) a struct's type names its source now and then,
SYMBOL:TYPE@SECTION (vmlinux or the section's module), which must give
the same bytes and eraseinfo.

--drop writes SEED.conf less the erases (and loops) with a word on one
of the LINEs: those makedumpfile refused ("Config error at LINE").

The same VMLINUX, VMCORE and SEED give the same file (tests/suites/
confdiff.sh carries a few, with makedumpfile's answers).  Only the C
expression forms makedumpfile's syntax has are written; nothing here is
vmsift-only, so that makedumpfile 1.7.2 is the oracle for every rule.
"""
import collections
import random
import sys
import zlib

import drgn  # pylint: disable=import-error

PAGE = 4096
# the first seed of version 2 (size ID.member in loop bodies, size NM,
# comment and blank lines, words of a rule over several lines, a loop on
# one line); the seeds below it write the configs of version 1
V2 = 500
MAX_OBJ = 16384          # a whole-object erase at most this large
# loops of at most so many elements: makedumpfile resolves each erase of a
# body again for every element, each lookup a walk of the whole DWARF
MAX_LOOP = 12
KERNEL_MIN = 0xffffffff80000000
MODULES_MIN = 0xffffffffc0000000   # x86_64's module space

# list_head lists of the 6.1 kernel and their entries (head, STRUCT:MEMBER);
# each one is checked against the dump before use.
KNOWN_LISTS = [
    ('init_task.tasks', 'task_struct', 'tasks'),
    ('init_task.children', 'task_struct', 'sibling'),
    ('modules', 'module', 'list'),
    ('super_blocks', 'super_block', 's_list'),
    ('crypto_alg_list', 'crypto_alg', 'cra_list'),
    ('net_namespace_list', 'net', 'list'),
    ('slab_caches', 'kmem_cache', 'list'),
    ('key_types_list', 'key_type', 'link'),
    ('init_net.dev_base_head', 'net_device', 'dev_list'),
    ('pernet_list', 'pernet_operations', 'list'),
    ('cgroup_roots', 'cgroup_root', 'root_list'),
]

# the same for the modules' own lists (module, head, STRUCT, MEMBER): the
# non-empty list_head globals of the modules of DBG_MODULE_FILES loaded in
# the secrets guest (the others are empty: any struct of the module's)
KNOWN_MODULE_LISTS = [
    ('dm_mod', '_targets', 'target_type', 'list'),
]


def strip(t):
    while t.kind == drgn.TypeKind.TYPEDEF:
        t = t.type
    return t.unqualified()


def members(t, depth=0):
    """Named members of struct/union T, those of anonymous members too,
    as C finds them: (name, type, bit_offset, bit_field_size)."""
    out = []
    for m in t.members:
        if m.name is None:
            mt = strip(m.type)
            if mt.kind in (drgn.TypeKind.STRUCT, drgn.TypeKind.UNION) and depth < 4:
                out += [(n, ty, m.bit_offset + off, bf)
                        for n, ty, off, bf in members(mt, depth + 1)]
            continue
        out.append((m.name, m.type, m.bit_offset, m.bit_field_size))
    return out


def mdf_find(t, name):
    """The member path makedumpfile 1.7.2 finds NAME at in struct T: it
    looks in every member whose own type is a struct or union (named or
    not) before the members after it, depth first."""
    for m in t.members:
        if m.name == name:
            return [m.name]
        mt = m.type
        if mt.kind in (drgn.TypeKind.STRUCT, drgn.TypeKind.UNION) and \
                not mt.qualifiers and mt.is_complete():
            p = mdf_find(mt, name)
            if p:
                return [m.name] + p
    return None


def mdf_elsewhere(t, name):
    """makedumpfile finds NAME inside a named member of T, not where C
    does (init_task.flags: thread_info.flags)."""
    p = mdf_find(t, name)
    return p is not None and any(n is not None for n in p[:-1])


def anon_typedef(t):
    """A typedef of an anonymous struct (atomic_t): makedumpfile 1.7.2
    finds no type name there and resolves none of its members (a size
    of 0, silently; doc/erase.md)."""
    t = t.unqualified()
    if t.kind == drgn.TypeKind.POINTER:
        t = t.type.unqualified()
    if t.kind != drgn.TypeKind.TYPEDEF:
        return False
    t = strip(t)
    return t.kind in (drgn.TypeKind.STRUCT, drgn.TypeKind.UNION) and not t.tag


def anon_struct(t):
    """A struct or union without a name, or a pointer to one (dm-crypt's
    gcm_zeroes): makedumpfile 1.7.2 finds no type name there either and
    erases nothing through it (doc/erase.md)."""
    t = t.unqualified()
    if t.kind == drgn.TypeKind.POINTER:
        t = t.type.unqualified()
    return t.kind in (drgn.TypeKind.STRUCT, drgn.TypeKind.UNION) and not t.tag


def multi_dim(t):
    """An array of arrays: makedumpfile 1.7.2 erases its first dimension's
    length times the base type's size (doc/erase.md)."""
    t = strip(t)
    return t.kind == drgn.TypeKind.ARRAY and strip(t.type).kind == drgn.TypeKind.ARRAY


def array_typedef(t):
    """A typedef of an array (mce_banks_t): makedumpfile 1.7.2 finds no
    length behind the typedef, 0 elements (doc/erase.md)."""
    t = t.unqualified()
    return t.kind == drgn.TypeKind.TYPEDEF and strip(t).kind == drgn.TypeKind.ARRAY


def size_of(t):
    try:
        return drgn.sizeof(t)
    except (TypeError, ValueError):
        return None


def module_name(ko):
    """The name the kernel gives the module of debug file KO."""
    base = ko.rsplit('/', 1)[-1]
    return base.split('.ko', 1)[0].replace('-', '_')


def loaded_modules(p):
    """{name: (base, size)} of the core layout of each module in the
    dump's list at 'modules'."""
    out = {}
    head = p['modules'].address_of_()
    cur = head.next
    n = 0
    while cur.value_() != head.value_() and n < 65536:
        m = drgn.container_of(cur, 'struct module', 'list')
        out[m.name.string_().decode()] = (m.core_layout.base.value_(),
                                          m.core_layout.size.value_())
        cur = cur.next
        n += 1
    return out


def load(vmlinux, vmcore, kos):
    p = drgn.Program()
    p.set_core_dump(vmcore)
    p.load_debug_info([vmlinux] + list(kos))
    return p


class Gen:
    def __init__(self, vmlinux, vmcore, seed, kos=()):
        self.r = random.Random(seed)
        # seeds from V2 on also draw the constructs of version 2, from a
        # stream of their own, so that the seeds below V2 (the carried
        # ones) still write the files they wrote
        self.r2 = random.Random(seed * 7919 + 2) if seed >= V2 else None
        p = self.p = load(vmlinux, vmcore, kos)
        loaded = loaded_modules(p) if kos else {}
        # the modules of KOS the dump has, in a fixed order
        self.modules = sorted(n for n in map(module_name, kos) if n in loaded)
        ranges = [(loaded[n][0], loaded[n][0] + loaded[n][1], n)
                  for n in self.modules]
        syms = p.symbols()
        count = collections.Counter(s.name for s in syms)
        self.scopes = {n: [] for n in [None] + self.modules}
        for s in sorted(syms, key=lambda s: s.name):
            if (s.kind != drgn.SymbolKind.OBJECT or not s.size or
                    count[s.name] != 1 or s.address < KERNEL_MIN or
                    not s.name.isidentifier() or s.name in KEYWORDS or
                    s.name.startswith(MODULE_NOISE)):
                continue
            owner = next((n for lo, hi, n in ranges if lo <= s.address < hi),
                         None)
            if owner is None and any(lo <= s.address < hi for lo, hi, _ in
                                     [(b, b + z, 0) for b, z in loaded.values()]):
                continue   # a module's not drawn (no debug file given)
            try:
                v = p.variable(s.name)
            except (LookupError, ValueError):
                continue
            if v.address_ != s.address or not self.readable(v):
                continue
            self.scopes[owner].append(s.name)
        self.kinds = {}
        for scope, names in self.scopes.items():
            self.kinds[scope] = collections.defaultdict(list)
            for name in names:
                ty = self.p.variable(name).type_
                # rwlock_t binfmt_lock, mce_banks_t (an array): no oracle
                if anon_typedef(ty) or array_typedef(ty) or anon_struct(ty):
                    continue
                self.kinds[scope][strip(ty).kind].append(name)
        self.modules = [n for n in self.modules if self.kinds[n]]
        self.caches = {}
        self.enter(None)

    def enter(self, scope):
        """Draw the globals of SCOPE (a module's name; None: vmlinux's)
        from now on, as a [MODULE] section names them."""
        self.scope = scope
        self.globals = self.scopes[scope]
        self.by_kind = self.kinds[scope]
        self.cache = self.caches.setdefault(scope, {})

    # --- the dump's values ---------------------------------------------

    def readable(self, v, n=1):
        try:
            self.p.read(v.address_, n)
            return True
        except (drgn.FaultError, ValueError, TypeError):
            return False

    def value(self, expr):
        """The drgn object of a C path SYM.a.b (pointers followed), or
        None when a NULL or unreadable pointer is on the way."""
        parts = expr.split('.')
        try:
            return self.follow(self.p.variable(parts[0]), parts[1:])
        except (LookupError, ValueError):
            return None

    @staticmethod
    def follow(o, parts):
        """O.PARTS (pointers followed), or None as value()."""
        try:
            for m in parts:
                t = strip(o.type_)
                if t.kind == drgn.TypeKind.POINTER:
                    if not o.value_():
                        return None
                    o = o[0]
                o = o.member_(m)
            o.read_()
            return o
        except (drgn.FaultError, LookupError, ValueError, TypeError):
            return None

    # --- expressions ---------------------------------------------------

    def walk(self, start, obj, depth):
        """A member path from OBJ (a struct or a pointer to one) named
        START, DEPTH members at most: (text, object-or-None)."""
        expr, o = start, obj
        for _ in range(depth):
            t = strip(o.type_)
            if t.kind == drgn.TypeKind.POINTER:
                tt = strip(t.type)
                if tt.kind not in (drgn.TypeKind.STRUCT, drgn.TypeKind.UNION) or \
                        not tt.is_complete():
                    break
                if not o.value_():
                    # a NULL pointer on the way: one more member, then stop
                    ms = members(tt)
                    if ms:
                        expr += '.' + self.r.choice(ms)[0]
                    return expr, None
                try:
                    o = o[0]
                    o.read_()
                except (drgn.FaultError, ValueError):
                    return expr, None
                t = tt
            if t.kind not in (drgn.TypeKind.STRUCT, drgn.TypeKind.UNION) or \
                    not t.is_complete() or anon_typedef(o.type_) or \
                    (o.type_.kind != drgn.TypeKind.POINTER and anon_struct(o.type_) and
                     expr == start):
                break
            ms = members(t)
            if not ms:
                break
            m = self.pick_member(t, ms)
            if m is None:
                break
            try:
                o = o.member_(m[0])
            except (LookupError, ValueError):
                break
            expr += '.' + m[0]
            if self.r.random() < 0.25:
                break
        return expr, o

    def pick_member(self, t, ms):
        """A member of T, often one beside a bit-field, or a char array.
        Not a bit-field itself, nor a name makedumpfile finds elsewhere
        (doc/erase.md, "makedumpfile 1.7.2's mistakes"): makedumpfile
        is no oracle for those; the suite tests them by hand."""
        ok = [not m[3] and not mdf_elsewhere(t, m[0]) and
              not (strip(m[1]).kind == drgn.TypeKind.POINTER and anon_struct(strip(m[1])))
              for m in ms]
        r = self.r.random()
        bf = [i for i, m in enumerate(ms) if m[3]]
        if bf and r < 0.3:
            near = [j for i in bf for j in (i - 1, i + 1)
                    if 0 <= j < len(ms) and ok[j]]
            if near:
                return ms[self.r.choice(near)]
        good = [m for m, k in zip(ms, ok) if k]
        if not good:
            return None
        chars = [m for m in good if self.is_char_array(m[1])]
        if chars and r < 0.45:
            return self.r.choice(chars)
        return self.r.choice(good)

    @staticmethod
    def is_char_array(t):
        t = strip(t)
        return t.kind == drgn.TypeKind.ARRAY and \
            strip(t.type).primitive in (drgn.PrimitiveType.C_CHAR,)

    def some_global(self, kinds):
        if self.scope is None and self.r.random() < 0.3:
            fav = [n for n in FAVOURITES if n in self.globals and
                   strip(self.p.variable(n).type_).kind in kinds]
            if fav:
                return self.r.choice(fav)
        names = [n for k in kinds for n in self.by_kind.get(k, ())]
        return self.r.choice(names) if names else None

    def erase_size(self, o):
        """The bytes a plain erase of O would take, roughly (None: a
        pointer's target, unknown here)."""
        if o is None:
            return 0
        t = strip(o.type_)
        if t.kind == drgn.TypeKind.POINTER:
            return None
        return size_of(t)

    def target(self):
        """EXPR for an erase: a global, or a member path from one."""
        for _ in range(50):
            name = self.some_global((drgn.TypeKind.STRUCT,) * 4 +
                                    (drgn.TypeKind.POINTER,) * 3 +
                                    (drgn.TypeKind.ARRAY, drgn.TypeKind.INT,
                                     drgn.TypeKind.UNION))
            if name is None:
                break
            o = self.p.variable(name)
            depth = self.r.choice((0, 1, 1, 2, 2, 3, 4))
            expr, o = self.walk(name, o, depth)
            n = self.erase_size(o)
            if n is not None and n > MAX_OBJ:
                continue
            if o is not None and multi_dim(o.type_):
                continue
            if o is not None and strip(o.type_).kind == drgn.TypeKind.POINTER:
                tt = strip(strip(o.type_).type)
                if o.value_() and size_of(tt) and size_of(tt) > MAX_OBJ:
                    continue
            return expr, o
        # (a module section names its module's symbols only)
        return ('init_task.comm', None) if self.scope is None else (None, None)

    def size_clause(self, o):
        r = self.r.random()
        if r < 0.45:
            return ''
        if r < 0.6:
            if o is not None and o.address_ is not None:
                # a size that crosses the page the object starts in
                off = o.address_ % PAGE
                return ' size %d' % (PAGE - off + self.r.randint(1, 64))
            return ' size %d' % self.r.randint(1, 300)
        if r < 0.7:
            return ' size %d%s' % (self.r.randint(1, 3), self.r.choice('kK'))
        if r < 0.85:
            e = self.size_expr()
            if e:
                return ' size ' + e
            return ' size %d' % self.r.randint(1, 64)
        return ' nullify'

    def size_expr(self):
        """SYM.member..., an integer of at most 8 bytes whose value is a
        plausible size (0 to 8192), or 0 now and then."""
        for _ in range(200):
            name = self.some_global((drgn.TypeKind.STRUCT, drgn.TypeKind.INT,
                                     drgn.TypeKind.POINTER))
            if name is None:
                return None
            expr, o = self.walk(name, self.p.variable(name),
                                self.r.choice((0, 1, 2)))
            if o is None:
                continue
            t = strip(o.type_)
            if t.kind not in (drgn.TypeKind.INT, drgn.TypeKind.ENUM,
                              drgn.TypeKind.BOOL) or size_of(t) > 8:
                continue
            try:
                v = o.value_()
            except (drgn.FaultError, ValueError):
                continue
            if 0 < v <= 8192 or (v == 0 and self.r.random() < 0.2):
                return expr
        return None

    # --- commands ------------------------------------------------------

    def erase(self):
        expr, o = self.target()
        if not expr:
            return []
        clause = self.size_clause(o)
        if self.r2 and self.r2.random() < 0.06:
            mb = self.megabyte_rule()
            if mb:
                return [mb]
        if self.r2 and not clause and self.declared_elsewhere(expr):
            clause = ' size %d' % size_of(o.type_)
        return ['erase %s%s' % (expr, clause)]

    def declared_elsewhere(self, expr):
        """EXPR is a global (no member) array, struct or union that other
        compile units may declare (not static): makedumpfile 1.7.2 takes
        its type from the first declaration it meets, often one without
        bound or without members, and erases or walks nothing
        (doc/erase.md, "A global's type from its first declaration").
        Version 2 gives such an erase its size (both agree there) and
        walks no such array."""
        if '.' in expr:
            return False
        try:
            o = self.p.variable(expr)
            local = self.p.symbol(expr).binding == drgn.SymbolBinding.LOCAL
        except (LookupError, ValueError):
            return False
        return not local and strip(o.type_).kind in (
            drgn.TypeKind.ARRAY, drgn.TypeKind.STRUCT, drgn.TypeKind.UNION) and \
            bool(size_of(o.type_))

    def body(self, var, elem):
        out = []
        for _ in range(self.r.randint(1, 3)):
            if elem is None or self.r.random() < 0.15:
                out.append('\terase %s' % var)
                continue
            expr, o = self.walk(var, elem, self.r.choice((1, 1, 2, 3)))
            n = self.erase_size(o)
            if n is not None and n > MAX_OBJ:
                continue
            clause = self.size_clause(o)
            if self.r2 and self.r2.random() < 0.35:
                size = self.var_size(var, elem)
                clause = ' size ' + size if size else clause
            out.append('\terase %s%s' % (expr, clause))
        return out or ['\terase %s' % var]

    # --- version 2's draws (self.r2: self.r's stream left as it was) ----

    def drawing_v2(self, f, *args):
        """F(*ARGS) with self.r2's draws for self.r's."""
        r, self.r = self.r, self.r2
        try:
            return f(*args)
        finally:
            self.r = r

    def var_size(self, var, elem):
        """VAR.member... (makedumpfile.conf(5)'s <id>.MemberExpression
        size): an integer of at most 8 bytes whose value is a plausible
        size (0 to 8192) in every element of the loop (self.elems), or
        None.  Not VAR alone: makedumpfile 1.7.2 sizes 'size VAR' as it
        sizes 'erase VAR', never reading its value (doc/erase.md)."""
        for _ in range(30):
            expr, o = self.drawing_v2(self.walk, var, elem,
                                      self.r2.choice((1, 1, 2)))
            if o is None or expr == var:
                continue
            t = strip(o.type_)
            if t.kind not in (drgn.TypeKind.INT, drgn.TypeKind.ENUM,
                              drgn.TypeKind.BOOL) or size_of(t) > 8:
                continue
            parts = expr.split('.')[1:]
            vals = [self.follow(e, parts) for e in self.elems or [elem]]
            try:
                if all(v is not None and 0 <= v.value_() <= 8192 for v in vals):
                    return expr
            except (drgn.FaultError, ValueError):
                continue
        return None

    def megabyte_rule(self):
        """'erase SYM size 1M' for a global of the kernel image that
        megabyte() takes, or None."""
        if self.scope is not None:
            return None
        for name in self.r2.sample(self.globals, min(60, len(self.globals))):
            size = self.megabyte(self.p.variable(name))
            if size:
                return 'erase %s%s' % (name, size)
        return None

    def megabyte(self, o):
        """' size 1M' (or 1m) when the mebibyte from O lies in the kernel
        image, each page of it after the first one the dump stores (not
        all zero: -d 31 leaves zero pages out, and makedumpfile stops a
        range at the first page it does not write, doc/erase.md); else
        None."""
        # a type makedumpfile names: not a pointer (an array of function
        # pointers, compound_page_dtors, resolves to nothing, silently,
        # size or not: doc/erase.md), nor what it cannot name
        t = strip(o.type_) if o is not None else None
        while t is not None and t.kind == drgn.TypeKind.ARRAY:
            t = strip(t.type)
        if t is None or t.kind not in NAMED_KINDS or anon_typedef(o.type_) or \
                anon_struct(o.type_) or array_typedef(o.type_):
            return None
        start, n = o.address_, 1 << 20
        if start is None or not KERNEL_MIN <= start or \
                start + n > self.p.symbol('_end').address:
            return None
        try:
            for page in range(start - start % PAGE + PAGE, start + n, PAGE):
                if not any(self.p.read(page, PAGE)):
                    return None
        except (drgn.FaultError, ValueError):
            return None
        return ' size 1' + self.r2.choice('Mm')

    def array_loop(self):
        """for ID in ARRAY: an array of structs or of pointers."""
        for _ in range(100):
            name = self.some_global((drgn.TypeKind.ARRAY, drgn.TypeKind.STRUCT))
            if name is None:
                return []
            expr, o = self.walk(name, self.p.variable(name),
                                self.r.choice((0, 0, 1, 2)))
            if o is None:
                continue
            t = strip(o.type_)
            if t.kind != drgn.TypeKind.ARRAY or not t.length or \
                    t.length > MAX_LOOP * 2 or array_typedef(o.type_):
                continue
            et = strip(t.type)
            if et.kind == drgn.TypeKind.POINTER:
                et = strip(et.type)
                if et.kind not in (drgn.TypeKind.STRUCT, drgn.TypeKind.UNION,
                                   drgn.TypeKind.INT):
                    continue
                elems = [o[i] for i in range(t.length)]
                elem = next((e[0] for e in elems if e.value_()), None)
            else:
                elem = o[0]
            if et.kind not in (drgn.TypeKind.STRUCT, drgn.TypeKind.UNION,
                               drgn.TypeKind.INT) or not size_of(et):
                continue
            if size_of(et) * t.length > 4 * MAX_OBJ:
                continue
            if self.r2 and self.declared_elsewhere(expr):
                continue
            var = self.r.choice('aeiou') + self.r.choice(('', 'x', '1'))
            self.elems = [o[i] for i in range(t.length)]
            if strip(t.type).kind == drgn.TypeKind.POINTER:
                self.elems = [e[0] for e in self.elems if e.value_()]
            return ['for %s in %s' % (var, expr)] + self.body(var, elem) + ['endfor']
        return []

    def via_candidates(self):
        if 'via' in self.cache:
            return self.cache['via']
        out = []
        for name in self.by_kind.get(drgn.TypeKind.POINTER, []) + \
                self.by_kind.get(drgn.TypeKind.STRUCT, []):
            o = self.p.variable(name)
            self.via_from(name, o, out)
            t = strip(o.type_)
            if t.kind == drgn.TypeKind.STRUCT and len(out) < 400:
                for m, mt, _, _ in members(t)[:40]:
                    try:
                        self.via_from(name + '.' + m, o.member_(m), out)
                    except (LookupError, ValueError):
                        pass
        self.cache['via'] = out
        return out

    @staticmethod
    def via_from(expr, o, out):
        t = strip(o.type_)
        st = strip(t.type) if t.kind == drgn.TypeKind.POINTER else t
        if st.kind != drgn.TypeKind.STRUCT or not st.is_complete() or \
                st.tag in (None, 'list_head', 'hlist_node', 'llist_node'):
            return
        for m, mt, _, bf in members(st):
            mt = strip(mt)
            if bf or mt.kind != drgn.TypeKind.POINTER or mdf_elsewhere(st, m):
                continue
            tt = strip(mt.type)
            if tt.kind == drgn.TypeKind.STRUCT and tt.tag == st.tag:
                out.append((expr, m, o))

    def via_loop(self):
        """for ID in STRUCTVAR via NEXT (or the default 'next')."""
        cands = self.via_candidates()
        for _ in range(50):
            if not cands:
                return []
            expr, nxt, o = self.r.choice(cands)
            # the chain's length in the dump: short ones only
            n, cur = 0, o
            try:
                if strip(cur.type_).kind != drgn.TypeKind.POINTER:
                    cur = cur.address_of_()
                first = cur.value_()
                while cur.value_() and n < 300:
                    n += 1
                    cur = cur[0].member_(nxt)
                    if cur.value_() == first:
                        break
            except (drgn.FaultError, ValueError):
                continue
            if n > MAX_LOOP:
                continue
            elem = o[0] if strip(o.type_).kind == drgn.TypeKind.POINTER and \
                o.value_() else (None if strip(o.type_).kind ==
                                 drgn.TypeKind.POINTER else o)
            var = self.r.choice(('n', 'c', 'x', 'p'))
            self.elems = self.chain(o, nxt)
            head = 'for %s in %s' % (var, expr)
            if nxt != 'next' or self.r.random() < 0.6:
                head += ' via ' + nxt
            return [head] + self.body(var, elem) + ['endfor']
        return []

    @staticmethod
    def chain(o, nxt):
        """The structs of a 'via NXT' loop from O (a struct or a pointer)."""
        out = []
        cur = o if strip(o.type_).kind == drgn.TypeKind.POINTER else o.address_of_()
        first = cur.value_()
        while cur.value_() and len(out) < 300:
            out.append(cur[0])
            cur = cur[0].member_(nxt)
            if cur.value_() == first:
                break
        return out

    # --- ranges makedumpfile erases right --------------------------------

    def linear(self, addr):
        """ADDR lies where the kernel maps memory in one physically
        contiguous piece: the kernel image, the direct map."""
        if 'direct' not in self.__dict__:
            try:
                base = self.p['page_offset_base'].value_()
                top = base + (self.p['max_pfn'].value_() << 12)
            except (LookupError, drgn.FaultError):
                base = top = 0
            self.direct = (base, top)
        base, top = self.direct
        return KERNEL_MIN <= addr < MODULES_MIN or base <= addr < top

    def erase_range(self, o, clause, var=None, elem=None):
        """(start, length) of the bytes 'erase O CLAUSE' erases, None
        when nothing (a NULL pointer on the way) or unknown; a size that
        starts with the loop's VAR is read from ELEM."""
        if o is None:
            return None
        words = clause.split()
        try:
            t = strip(o.type_)
            start, n = o.address_, size_of(t)
            if t.kind == drgn.TypeKind.POINTER:
                if words[:1] == ['nullify']:
                    return (o.address_, 8)
                if not o.value_():
                    return None
                start, tt = o.value_(), strip(t.type)
                n = size_of(tt) if tt.kind != drgn.TypeKind.FUNCTION else 8
                if tt.primitive == drgn.PrimitiveType.C_CHAR:
                    data = self.p.read(start, PAGE - start % PAGE)
                    n = data.index(0) + 1 if 0 in data else PAGE
            if words[:1] == ['size']:
                w = words[1]
                if w[-1] in 'kK' and w[:-1].isdigit():
                    n = int(w[:-1]) * 1024
                elif w[-1] in 'mM' and w[:-1].isdigit():
                    n = int(w[:-1]) << 20
                elif w.isdigit():
                    n = int(w)
                elif w.split('.')[0] == var:
                    v = self.follow(elem, w.split('.')[1:])
                    n = v.value_() if v is not None else 0
                else:
                    v = self.value(w)
                    n = v.value_() if v is not None else 0
        except (drgn.FaultError, ValueError, TypeError, LookupError):
            return None
        return (start, n or 0) if start is not None else None

    def one_piece(self, o, clause, var=None, elem=None):
        """makedumpfile 1.7.2 erases a range as physically contiguous
        bytes from its start (doc/erase.md): in module or vmalloc space a
        range crossing a page erases another page than the one mapped
        there.  True when the rule's range has no such crossing."""
        r = self.erase_range(o, clause, var, elem)
        return r is None or self.linear(r[0]) or r[0] % PAGE + r[1] <= PAGE

    def line_ok(self, line, var=None, elems=()):
        """LINE ('erase EXPR [size X | nullify]') is one piece for the
        global EXPR names, or for each of ELEMS when EXPR starts with the
        loop's VAR."""
        words = line.split()
        expr, clause = words[1], ' '.join(words[2:])
        parts = expr.split('.')
        if parts[0] == var:
            return all(self.one_piece(self.follow(e, parts[1:]), clause, var, e)
                       for e in elems)
        return self.one_piece(self.value(expr), clause)

    def list_candidates(self):
        if 'lists' in self.cache:
            return self.cache['lists']
        out = []
        known = KNOWN_LISTS if self.scope is None else \
            [l[1:] for l in KNOWN_MODULE_LISTS if l[0] == self.scope]
        for head, st, m in known:
            if not st:
                continue
            h = self.value(head)
            try:
                t = self.p.type('struct ' + st)
                off = drgn.offsetof(t, m)
            except (LookupError, ValueError, TypeError):
                continue
            if h is None:
                continue
            n, cur, ok = 0, h.next, True
            try:
                while cur.value_() != h.address_ and n < 2000:
                    cur = cur.next
                    n += 1
            except drgn.FaultError:
                ok = False
            if ok and n < 2000:
                first = None
                if n:
                    first = drgn.Object(self.p, t, address=h.next.value_() - off)
                out.append((head, st, m, n, first))
        # empty lists: any list_head global whose next is itself, with any
        # struct of a list_head member
        lh = self.p.type('struct list_head')
        empties = []
        for name in self.by_kind.get(drgn.TypeKind.STRUCT, []):
            o = self.p.variable(name)
            if strip(o.type_) == strip(lh):
                try:
                    if o.next.value_() == o.address_:
                        empties.append(name)
                except drgn.FaultError:
                    pass
        self.cache['lists'] = out
        self.cache['empties'] = empties
        if self.scope is not None:
            self.cache['entries'] = self.module_entries()
        return out

    def module_entries(self):
        """(STRUCT, MEMBER) of this module's struct globals' types with a
        list_head member: the entries an empty list of the module is
        walked as (the module's DWARF has them)."""
        out = []
        for name in self.by_kind.get(drgn.TypeKind.STRUCT, []):
            t = strip(self.p.variable(name).type_)
            if not t.tag:
                continue
            for m, mt, _, bf in members(t):
                if not bf and strip(mt).kind == drgn.TypeKind.STRUCT and \
                        strip(mt).tag == 'list_head':
                    out.append((t.tag, m))
        return sorted(set(out))

    def within_loop(self):
        lists = self.list_candidates()
        var = self.r.choice(('t', 'm', 's', 'k'))
        empties = self.cache['empties']
        if empties and (not lists or self.r.random() < 0.2):
            head = self.r.choice(empties)
            if self.scope is not None and self.cache['entries']:
                st, m = self.r.choice(self.cache['entries'])
            else:
                _, st, m, _, _ = self.r.choice(lists) if lists else \
                    (None, 'module', 'list', 0, None)
            self.elems = []
            return ['for %s in %s within %s:%s' % (var, head, st, m),
                    '\terase %s' % var] + self.body(var, None)[1:] + ['endfor']
        short = [l for l in lists if l[3] <= MAX_LOOP] or lists
        if not short:
            return []
        head, st, m, _, first = self.r.choice(short)
        h = self.value(head)
        cur, self.elems = h.next, []
        while cur.value_() != h.address_ and len(self.elems) < 2000:
            self.elems.append(drgn.container_of(cur, 'struct ' + st, m)[0])
            cur = cur.next
        tail = ':' + m if (m != 'list' or self.r.random() < 0.5) else ''
        return ['for %s in %s within %s%s' % (var, head, st, tail)] + \
            self.body(var, first) + ['endfor']

    def twice(self, prev):
        """A rule erasing bytes an earlier one erases: the same (a larger
        or smaller size), or a member inside an erased object."""
        erases = [l for l in prev if l.startswith('erase ')]
        if not erases:
            return self.erase()
        line = self.r.choice(erases)
        base = line.split()[1]
        r = self.r.random()
        if r < 0.4:
            return ['erase %s size %d' % (base, self.r.randint(1, 200))]
        if r < 0.7:
            return [line]
        o = self.value(base)
        if o is not None:
            expr, o2 = self.walk(base, o, 1)
            return ['erase %s%s' % (expr, self.size_clause(o2))]
        return [line]

    def config(self, n):
        lines = ['# confgen.py seed: random rules over makedumpfile.conf(5)']
        if self.r.random() < 0.7:
            lines.append('[vmlinux]')
        if not self.modules:
            self.rules(lines, n)
            return '\n'.join(lines) + '\n'
        # vmlinux rules, then sections of modules with vmlinux rules
        # between them now and then, and after the last
        self.rules(lines, self.r.randint(0, 2))
        for k, mod in enumerate(self.r.sample(self.modules,
                                              min(len(self.modules),
                                                  self.r.randint(1, 3)))):
            if k and self.r.random() < 0.4:
                lines.append('[vmlinux]')
                self.enter(None)
                self.rules(lines, self.r.randint(1, 2))
            lines.append('[%s]' % mod)
            self.enter(mod)
            self.rules(lines, max(1, n // 3 + self.r.randint(-1, 1)))
        if self.r.random() < 0.6:
            lines.append('[vmlinux]')
            self.enter(None)
            self.rules(lines, self.r.randint(1, 2))
        return '\n'.join(lines) + '\n'

    def rules(self, lines, n):
        """N commands of the current scope appended to LINES."""
        section = len(lines)
        makers = [(self.erase, 10), (self.array_loop, 2), (self.via_loop, 2),
                  (self.within_loop, 2), (lambda: self.twice(lines[section:]), 2)]
        total = sum(w for _, w in makers)
        loops = cmds = tries = 0
        while cmds < n and tries < 50 * (n + 1):
            tries += 1
            x = self.r.uniform(0, total)
            for f, w in makers:
                x -= w
                if x <= 0:
                    break
            if f in (self.array_loop, self.via_loop, self.within_loop):
                if loops >= 3:
                    continue
                loops += 1
            self.elems = []
            cmd = self.one_pieces(f())
            if cmd:
                cmds += 1
                lines += self.layout(cmd)

    def one_pieces(self, cmd):
        """CMD less the erases makedumpfile 1.7.2 would get wrong by
        erasing contiguous physical bytes (one_piece()); a loop left
        without a body, or such an erase alone, is dropped."""
        if not cmd:
            return cmd
        if not cmd[0].startswith('for '):
            return cmd if self.line_ok(cmd[0]) else []
        var = cmd[0].split()[1]
        body = [l for l in cmd[1:-1] if self.line_ok(l, var, self.elems)]
        return [cmd[0]] + body + [cmd[-1]] if body else []

    def layout(self, cmd):
        """makedumpfile's tokens run over lines and blanks: sometimes a
        rule is split or indented oddly, or a comment follows it."""
        r = self.r.random()
        if r < 0.1 and cmd[0].startswith('erase ') and ' size ' in cmd[0]:
            a, b = cmd[0].split(' size ', 1)
            return [a, '    size ' + b] + cmd[1:]
        if r < 0.2:
            return [cmd[0] + '  # ' + self.r.choice(('secret', 'x', 'edge'))] + cmd[1:]
        if r < 0.25:
            cmd = ['\t' + cmd[0].replace(' ', ' \t ', 1)] + cmd[1:]
        return self.layout_v2(cmd) if self.r2 else cmd

    def layout_v2(self, cmd):
        """Version 2's layouts (makedumpfile reads words, whatever the
        lines): a loop of one erase on one line, 'erase' or a loop's
        'in' ending a line, a comment line (keywords in it) or a blank
        line before the command, a comment after 'endfor'."""
        r = self.r2.random()
        loop = cmd[0].lstrip().startswith('for ')
        plain = not any('#' in l for l in cmd)
        if plain and loop and len(cmd) == 3 and r < 0.3:
            cmd = [' '.join(l.strip() for l in cmd)]
        elif plain and loop and r < 0.45:
            head, rest = cmd[0].split(' in ', 1)
            cmd = [head + ' in', '    ' + rest] + cmd[1:]
        elif plain and not loop and r < 0.15:
            cmd = ['erase', '\t' + cmd[0].split(None, 1)[1]] + cmd[1:]
        r = self.r2.random()
        if r < 0.1:
            cmd = [''] + cmd
        elif r < 0.2:
            cmd = ['# erase nothing here: a comment, for x in endfor'] + cmd
        if loop and cmd[-1] == 'endfor' and self.r2.random() < 0.2:
            cmd = cmd[:-1] + ['endfor\t# ' + self.r2.choice(('loop', 'end'))]
        return cmd


# well-known globals, drawn more often than the other 30000
FAVOURITES = ['init_task', 'init_uts_ns', 'init_cred', 'init_mm', 'init_net',
              'saved_command_line', 'boot_command_line', 'init_fs',
              'init_files', 'init_signals', 'init_sighand', 'root_user',
              'init_user_ns', 'init_nsproxy', 'init_pid_ns', 'linux_banner',
              'file_systems', 'panic_notifier_list', 'reboot_notifier_list',
              'init_ipc_ns', 'init_cgroup_ns', 'init_time_ns', 'def_root_domain',
              'runqueues', 'contig_page_data', 'mem_section',
              'vmcoreinfo_data', 'kmalloc_caches', 'zone_names', 'cpu_bit_bitmap']

# a module's compiler-made and modinfo globals: function pointers and
# strings of every module alike, drawn instead of its own data
MODULE_NOISE = ('__UNIQUE_ID', '__initcall', '__exitcall', '__ksymtab',
                '__kstrtab', '__crc_', '__tracepoint_ptr', '__bpf_trace')

# the kinds of object a 'size 1M' rule starts at (megabyte())
NAMED_KINDS = (drgn.TypeKind.STRUCT, drgn.TypeKind.UNION, drgn.TypeKind.INT,
               drgn.TypeKind.BOOL, drgn.TypeKind.ENUM)

KEYWORDS = {'erase', 'size', 'nullify', 'for', 'in', 'via', 'within', 'endfor'}


def tokens(text, lines=False):
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        out += [(n, t) if lines else t for t in line.split('#', 1)[0].split()]
    return out


def render(cmd):
    """A command of commands() as config lines."""
    if cmd[0] != 'for':
        return [' '.join(cmd)]
    i = cmd.index('erase') if 'erase' in cmd else len(cmd) - 1
    out = [' '.join(cmd[:i])]
    body = cmd[i:-1]
    while body:
        j = body.index('erase', 1) if 'erase' in body[1:] else len(body)
        out.append('\t' + ' '.join(body[:j]))
        body = body[j:]
    return out + ['endfor']


def drop(conf, bad):
    """CONF without the erases (and loops) makedumpfile refused at the
    lines BAD ("Config error at N"): the words on those lines."""
    with open(conf) as f:
        toks = tokens(f.read(), lines=True)
    out = []
    for c in commands([t for t in toks]):
        words = [t for _, t in c]
        if c[0][1].startswith('['):
            out.append(c[0][1])
            continue
        if words[0] == 'for':
            head = words.index('erase') if 'erase' in words else len(words)
            if any(n in bad for n, _ in c[:head]):
                continue
            keep = [w for _, w in c[:head]]
            rest = c[head:-1]
            while rest:
                j = next((k for k in range(1, len(rest)) if rest[k][1] == 'erase'),
                         len(rest))
                if not any(n in bad for n, _ in rest[1:j]):
                    keep += [w for _, w in rest[:j]]
                rest = rest[j:]
            if 'erase' in keep:
                out += render(keep + ['endfor'])
            continue
        if not any(n in bad for n, _ in c[1:]):
            out += render(words)
    return '\n'.join(out) + '\n'


def commands(toks):
    """The commands of a config as lists of tokens; a loop is one list,
    its body's erases included."""
    out, i = [], 0

    def word(k):
        return toks[k][1] if isinstance(toks[k], tuple) else toks[k]
    while i < len(toks):
        if word(i).startswith('['):
            out.append([toks[i]])
            i += 1
            continue
        j = i + 1
        if word(i) == 'for':
            while j < len(toks) and word(j) != 'endfor':
                j += 1
            j += 1
        else:
            j = i + 2
            if j < len(toks) and word(j) == 'size':
                j += 2
            elif j < len(toks) and word(j) == 'nullify':
                j += 1
        out.append(toks[i:j])
        i = j
    return out


def type_name(t):
    """T as a rule's :TYPE names it (BTF's spelling); None when it has no
    name (an anonymous struct, void *, a function pointer)."""
    t = t.unqualified()
    if t.kind == drgn.TypeKind.POINTER:
        n = type_name(t.type)
        return n + '*' if n else None
    if t.kind == drgn.TypeKind.ARRAY:
        return type_name(t.type)
    if t.kind == drgn.TypeKind.TYPEDEF:
        return t.name
    if t.kind in (drgn.TypeKind.STRUCT, drgn.TypeKind.UNION, drgn.TypeKind.ENUM):
        return t.tag
    if t.kind in (drgn.TypeKind.INT, drgn.TypeKind.BOOL):
        # a rule's words have no blanks: "unsigned char" by its typedef
        if t.name in ('long', 'unsigned long'):
            return None
        return ONE_WORD.get(t.name, t.name) if ' ' in t.name else t.name
    return None


# drgn's spellings of the integer types whose DWARF and BTF names have
# blanks ("long int"), by a one-word typedef; the others are left out
ONE_WORD = {'unsigned char': 'u8', 'unsigned short': 'u16',
            'unsigned int': 'u32', 'unsigned long long': 'u64',
            'signed char': 's8', 'short': 's16', 'long long': 's64'}


def struct_named(t):
    """T is a struct or union by its tag (a typedef's name is not), or
    an array of or a pointer to one."""
    t = t.unqualified()
    while t.kind in (drgn.TypeKind.ARRAY, drgn.TypeKind.POINTER):
        t = t.type.unqualified()
    return t.kind in (drgn.TypeKind.STRUCT, drgn.TypeKind.UNION) and bool(t.tag)


def btf_form(vmlinux, vmcore, conf, btf_out, sub_out, kos=()):
    """The rules of CONF that BTF can name: in SYMBOL:TYPE form to
    BTF_OUT, as they are to SUB_OUT (one command a line in both).  The
    rules of a [MODULE] section name their module's globals (unique
    names: KOS, the modules' debug files, give their types), typed as
    the module's BTF names them."""
    p = load(vmlinux, vmcore, kos)
    with open(conf) as f:
        cmds = commands(tokens(f.read()))
    btf, sub = [], []
    # version 2 (CONF a seed from V2, named SEED.conf or SEED.kept.conf):
    # a struct's type names its source now and then, SYMBOL:TYPE@SECTION
    # (the section's module, or vmlinux: where the type is looked up
    # anyway), the same bytes and eraseinfo
    name = conf.rsplit('/', 1)[-1].split('.', 1)[0]
    v2 = name.isdigit() and int(name) >= V2
    section = 'vmlinux'
    for c in cmds:
        if c[0].startswith('['):
            btf.append(c[0])
            sub.append(c[0])
            section = c[0][1:-1]
            continue
        var = c[1] if c[0] == 'for' else None
        out, ok = [], True
        for k, tok in enumerate(c):
            prev = c[k - 1] if k else ''
            if prev in ('erase', 'size', 'in') and not tok[0].isdigit():
                sym = tok.split('.')[0]
                if sym != var:
                    try:
                        t = p.variable(sym).type_
                        n = type_name(t)
                    except (LookupError, ValueError):
                        n = None
                    # an array global named by its element's type is that
                    # element: whole (no size), as a loop's list or (an
                    # array of pointers) followed, it is not the array
                    whole = c[0] != 'erase' or 'size' not in c
                    et = strip(t) if n else None
                    while et and et.kind == drgn.TypeKind.ARRAY:
                        et = strip(et.type)
                    if n and strip(t).kind == drgn.TypeKind.ARRAY and (
                            ('.' not in tok and whole) or
                            et.kind == drgn.TypeKind.POINTER):
                        n = None
                    if not n or ' ' in n:
                        ok = False
                        break
                    if v2 and struct_named(t) and zlib.crc32(tok.encode()) % 3 == 0:
                        n = n.replace('*', '@' + section + '*', 1) if '*' in n \
                            else n + '@' + section
                    tok = sym + ':' + n + tok[len(sym):]
            out.append(tok)
        if ok:
            btf.append(' '.join(out))
            sub.append(' '.join(c))
    with open(btf_out, 'w') as f:
        f.write('\n'.join(btf) + '\n')
    with open(sub_out, 'w') as f:
        f.write('\n'.join(sub) + '\n')


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == '--drop':
        sys.stdout.write(drop(sys.argv[2], {int(n) for n in sys.argv[3:]}))
        return
    args = sys.argv[1:]
    btf = args[:1] == ['--btf']
    args = args[btf:]
    kos = []
    if args[:1] == ['--modules'] and len(args) > 1:
        kos = [k for k in args[1].split(':') if k]
        args = args[2:]
    if btf and len(args) == 5:
        btf_form(*args, kos=kos)
        return
    if btf or len(args) not in (3, 4):
        sys.exit(__doc__)
    g = Gen(args[0], args[1], int(args[2]), kos)
    n = int(args[3]) if len(args) == 4 else 12
    sys.stdout.write(g.config(n))


main()
