#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""layers.py - the library's layering, checked: no circle among lib/'s
files, and every file opens with a comment.  Run by tests/suites/layers.sh
(while VMSIFT_LAYERS=1 enables it); usable by hand.

    layers.py [-v] [LIBDIR]        (LIBDIR defaults to lib/ beside tests/)

Two graphs are built from the sources alone (comments and strings
stripped, no compiler needed):

  the include graph: FILE -> HEADER for each #include "HEADER" found in
    LIBDIR (headers outside LIBDIR, such as vmsift.h, are left out);

  the module graph: A.c -> B.c when A.c includes a header (directly or
    through another header) that declares a function or object which B.c
    defines and A.c names.  A header's
    declarations are thus charged to the file that defines them, so
    "a.c calls b.c through b.h while b.c calls a.c through a.h" is a
    circle even though no header includes another.

Either graph having a circle fails, and each circle is printed once, as
FILE -> FILE -> ... -> FILE.  A file whose first comment (after an
optional SPDX line) is missing or says nothing fails too.  Exit status 0
when all is well, 1 otherwise; -v also prints the module graph's arrows.
"""
import os
import re
import sys

IDENT = re.compile(r'[A-Za-z_]\w*')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# A top-level declaration in a header: "... name(" or "extern ... name;"
# or "extern ... name[...];", ending in ';' (prototypes and objects).
DECL_FUNC = re.compile(r'\b([A-Za-z_]\w*)\s*\([^;{}]*\)\s*;', re.S)
DECL_OBJ = re.compile(r'\bextern\b[^;(){}]*?\b([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*;')
ATTRIBUTE = re.compile(r'__attribute__\s*\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)')
SPDX = re.compile(r'^\s*(/\*\s*SPDX-License-Identifier:.*?\*/|//\s*SPDX-License-Identifier:.*)\s*\n?')


def strip(text):
    """TEXT with comments, string and character literals blanked (newlines
    kept, so that line-based patterns still work)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def top_level(code):
    """CODE with everything inside braces blanked: what is left are the
    file-scope declarations and definitions' heads."""
    out, depth = [], 0
    for c in code:
        if c == '{':
            depth += 1
            out.append(' ')
        elif c == '}':
            depth -= 1
            out.append(';' if depth == 0 else ' ')
        else:
            out.append(c if depth == 0 or c == '\n' else ' ')
    return ''.join(out)


def no_preprocessor(code):
    """CODE without preprocessor lines (continuations included) and
    without __attribute__((...))."""
    code = re.sub(r'^\s*#(?:[^\n]*\\\n)*[^\n]*', '', code, flags=re.M)
    return ATTRIBUTE.sub(' ', code)


def declared(header_code):
    """The names a header declares without defining: prototypes and extern
    objects (static inline functions and macros are the header's own)."""
    top = no_preprocessor(top_level(header_code))
    names = set()
    for stmt in top.split(';'):
        stmt = stmt.strip()
        if not stmt or re.match(r'(typedef|static)\b', stmt):
            continue
        m = DECL_FUNC.search(stmt + ';')
        if m and not re.search(r'\(\s*\*', stmt):
            names.add(m.group(1))
            continue
        m = DECL_OBJ.search(stmt + ';')
        if m:
            names.add(m.group(1))
    return names


def defined(c_code):
    """The names a .c file defines with external linkage: functions
    (a head followed by a body) and objects (with an initializer or
    none) at file scope, not static."""
    code = no_preprocessor(c_code)
    names = set()
    depth = 0
    stmt = []
    for c in code:
        if depth == 0 and c in ';{':
            head = ''.join(stmt).strip()
            stmt = []
            if c == '{':
                depth = 1
            if not head or re.match(r'(static|typedef|extern)\b', head):
                continue
            if c == '{' and re.match(r'(struct|union|enum)\s+\w+\s*$', head):
                continue
            m = re.search(r'\b([A-Za-z_]\w*)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*$', head)
            if c == '{' and m:
                names.add(m.group(1))
                continue
            m = re.search(r'\b([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*(?:=.*)?$', head, re.S)
            if m and '(' not in head.split('=')[0]:
                names.add(m.group(1))
        elif depth > 0:
            if c == '{':
                depth += 1
            elif c == '}':
                depth -= 1
                if depth == 0:
                    stmt = []
        else:
            stmt.append(c)
    return names


def opening_comment(text):
    """The file's opening comment's words, '' when it has none."""
    text = SPDX.sub('', text, count=1)
    m = re.match(r'\s*/\*(.*?)\*/', text, re.S)
    if not m:
        return ''
    return ' '.join(m.group(1).replace('*', ' ').split())


def cycles(graph):
    """The strongly connected components (Tarjan) that hold a circle:
    more than one node, or one node with an arrow to itself."""
    index, low, on, stack, comps = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph.get(v, ()):
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return comps


def a_circle(graph, comp):
    """One circle inside the component COMP, as a list of nodes."""
    start = comp[0]
    members = set(comp)
    path, seen = [start], {start}

    def walk(v):
        for w in sorted(graph.get(v, ())):
            if w == start and len(path) > 1:
                return True
            if w in members and w not in seen:
                seen.add(w)
                path.append(w)
                if walk(w):
                    return True
                path.pop()
        return False

    walk(start)
    return path + [start]


def reachable(includes, f):
    """The headers F includes, directly or through other headers."""
    seen, todo = set(), list(includes[f])
    while todo:
        h = todo.pop()
        if h not in seen:
            seen.add(h)
            todo.extend(includes.get(h, ()))
    return seen


def build(libdir):
    files = sorted(f for f in os.listdir(libdir) if f.endswith(('.c', '.h')))
    text = {f: open(os.path.join(libdir, f), encoding='utf-8',
                    errors='replace').read() for f in files}
    code = {f: strip(t) for f, t in text.items()}
    includes = {f: sorted(set(h for h in INCLUDE.findall(text[f])
                              if h in text)) for f in files}
    definer = {}
    for f in files:
        if f.endswith('.c'):
            for name in defined(code[f]):
                definer.setdefault(name, set()).add(f)
    modules = {}
    for f in files:
        if not f.endswith('.c'):
            continue
        used = set(IDENT.findall(no_preprocessor(code[f])))
        edges = set()
        for h in reachable(includes, f):
            for name in declared(code[h]) & used:
                edges.update(definer.get(name, set()) - {f})
        modules[f] = edges
    return files, text, includes, modules


def main(argv):
    verbose = '-v' in argv
    argv = [a for a in argv if a != '-v']
    here = os.path.dirname(os.path.abspath(__file__))
    libdir = argv[0] if argv else os.path.join(here, '..', '..', 'lib')
    files, text, includes, modules = build(libdir)
    problems = []
    for f in files:
        words = opening_comment(text[f]).split()
        if len(words) < 4:
            problems.append('%s: no opening comment saying what the file is '
                            'and who uses it' % f)
    for name, graph in (('include', includes), ('module', modules)):
        for comp in cycles(graph):
            problems.append('%s circle among %s: %s' % (
                name, ', '.join(comp), ' -> '.join(a_circle(graph, comp))))
    if verbose:
        for f in sorted(modules):
            for g in sorted(modules[f]):
                print('%s -> %s' % (f, g))
    for p in problems:
        print(p)
    if not problems:
        print('ok: %d files, no include or module circle, every file opens '
              'with a comment' % len(files))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
