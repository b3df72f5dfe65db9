#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""crash_cmp.py [--erased] [--kdump] [--vmemmap] [--no-kmem] REF OUT - crash's answers on a dump
(OUT, a transcript) equal its answers on the dump's source (REF, the
same commands on the un-erased vmcore), but for the bytes the dump erased.

Both transcripts are crash runs of one command script whose commands are
each preceded by "gdb echo ==NAME==\\n" (tests/suites/crash_cross.sh), so
that each answer is a section.  What comes before the first section is
crash's start-up (its warnings); the rest is compared section by section
and line by line:

- every section of REF is in OUT, neither is empty, and OUT's has as many
  lines as REF's;
- a line is REF's, or differs from it only where the dump is erased: each
  whitespace-separated word of OUT that is not REF's reads as erased
  memory, as crash and gdb print makedumpfile's erase byte 'X' (0x58): a
  run of X (quoted or not), a hex byte 58 or a hex word of 58s, a word
  of REF's length that differs only where it holds an X (rd's ASCII
  column), or X's followed by a word of REF's section (a string erased
  with its NUL runs into the next field: sys's NODENAME into RELEASE); a
  word of REF's missing from OUT does not pass;
- sys's DUMPFILE line names another file (DUMPFILES, a split set's,
  one a line); with --kdump (a kdump-compressed dump) each of OUT's has
  crash's "[PARTIAL DUMP]" (a filtered dump), with --vmemmap also
  "[EXCLUDED VMEMMAP]" (an -e dump, as crash reads its header);
- with --vmemmap, kmem -i's SHARED line counts no more pages than REF's:
  crash counts the struct pages whose page count is above 1, and an -e
  dump lacks the struct pages of the pages it left out (-d 31's user
  and cache pages, most shared pages among them; that every struct page
  left out describes only pages left out is vmemmap_check.py's check,
  tests/suites/memusage.sh); crash:s390x 8.0.2 also says "WARNING:
  mem_map[] from A to B not accessible" there for each page of struct
  pages the dump left out, lines left out of the comparison.
--no-kmem leaves the kmem sections out (a crash whose kmem cannot read
the vmcore itself).
With --erased, at least one word differs as erased, so that the check
cannot pass on a dump that erased nothing, and with --kdump crash's
start-up says the dump has erased data ("Kernel data has been erased",
read from the kdump header's eraseinfo).  Prints one line per
section; exit status 0 when every section agrees.
"""
import difflib
import re
import sys

MEM_MAP_WARNING = re.compile(r'WARNING: mem_map\[\] from [0-9a-f]+ to [0-9a-f]+ not accessible')
ERASED_WORD = re.compile(r'''["'{(\[]*(X+|(0x)?(58)+)["',})\]]*$''')


def sections(path):
    """The transcript's sections: name -> lines, '' the start-up."""
    out = {'': []}
    name = ''
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = re.fullmatch(r'==(.+)==', line)
            if m:
                name = m.group(1)
                out[name] = []
            else:
                out[name].append(line)
    return out


def erased_word(ref, got, words):
    """Whether got is how ref's memory reads once erased; words: the
    reference section's words (an erased string lost its NUL, and crash
    printed the X's and then the next field, one of those words)."""
    if ERASED_WORD.match(got):
        return True
    m = re.fullmatch(r'X+(.+)', got)
    if m and m.group(1) in words:
        return True
    if len(ref) != len(got):
        return False
    return all(a == b or b == 'X' for a, b in zip(ref, got))


def line_diff(ref, got, words):
    """(ok, words that differ as erased) for one line pair: word by word
    when both have as many, else along difflib's alignment."""
    if ref == got:
        return True, 0
    rw, gw = ref.split(), got.split()
    if len(rw) == len(gw):
        pairs = [(r, g) for r, g in zip(rw, gw) if r != g]
    else:
        pairs = []
        sm = difflib.SequenceMatcher(None, rw, gw, autojunk=False)
        for tag, i1, i2, j1, j2 in sm.get_opcodes():
            if tag == 'delete':
                return False, 0
            if tag == 'equal':
                continue
            for k in range(j1, j2):
                i = i1 + k - j1
                pairs.append((rw[i] if tag == 'replace' and i < i2 else '', gw[k]))
    if not all(erased_word(r, g, words) for r, g in pairs):
        return False, 0
    return True, len(pairs)


def join_dumpfiles(lines):
    """sys's lines with a split set's DUMPFILES (a file a line) in one."""
    out = []
    for line in lines:
        if out and out[-1].lstrip().startswith('DUMPFILES:') and \
                not re.match(r'\s*[A-Z][A-Z ]*: ', line):
            out[-1] += ' ' + line.strip()
        else:
            out.append(line)
    return out


def dumpfile_ok(line, kdump, vmemmap):
    """sys's DUMPFILE line of the dump (DUMPFILES: each file of a split
    set): crash's marks of a filtered dump on each file."""
    marks = ('[PARTIAL', 'DUMP]', '[EXCLUDED', 'VMEMMAP]')
    files = [w for w in line.split()[1:] if w not in marks]
    if kdump and line.count('[PARTIAL DUMP]') != len(files):
        return 'no [PARTIAL DUMP]'
    if vmemmap and line.count('[EXCLUDED VMEMMAP]') != len(files):
        return 'no [EXCLUDED VMEMMAP]'
    return None


def shared_ok(ref, got):
    """kmem -i's SHARED line of an -e dump: no more pages than REF's."""
    r, g = ref.split(), got.split()
    if len(r) < 2 or len(g) < 2 or r[0] != 'SHARED' or g[0] != 'SHARED':
        return False
    return r[1].isdigit() and g[1].isdigit() and int(g[1]) <= int(r[1])


def compare_section(name, ref, got, kdump, vmemmap):
    """(problem or None, erased words) for one section."""
    if not ref:
        return 'empty in the reference', 0
    if got is None:
        return 'missing', 0
    if name == 'sys':
        got = join_dumpfiles(got)
    if vmemmap and name == 'kmem -i':
        got = [g for g in got if not MEM_MAP_WARNING.fullmatch(g)]
    if len(ref) != len(got):
        diff = difflib.unified_diff(ref, got, 'ref', 'dump', n=1, lineterm='')
        return 'lines %d, reference %d:\n%s' % (len(got), len(ref),
                                                '\n'.join(list(diff)[:40])), 0
    erased = 0
    words = {w for line in ref for w in line.split()}
    for r, g in zip(ref, got):
        if name == 'sys' and r.lstrip().startswith('DUMPFILE:'):
            if not g.lstrip().startswith(('DUMPFILE:', 'DUMPFILES:')):
                return 'no DUMPFILE line: %s' % g.strip(), 0
            bad = dumpfile_ok(g, kdump, vmemmap)
            if bad:
                return '%s: %s' % (bad, g.strip()), 0
            continue
        if vmemmap and name == 'kmem -i' and r.split()[:1] == ['SHARED']:
            if not shared_ok(r, g):
                return 'SHARED beyond the reference:\n  ref:  %s\n  dump: %s' % (r, g), 0
            continue
        ok, n = line_diff(r, g, words)
        if not ok:
            return 'differs beyond erased bytes:\n  ref:  %s\n  dump: %s' % (r, g), 0
        erased += n
    return None, erased


def main(argv):
    erased_flag = '--erased' in argv
    vmemmap = '--vmemmap' in argv
    kdump = '--kdump' in argv
    no_kmem = '--no-kmem' in argv
    args = [a for a in argv if not a.startswith('--')]
    if len(args) != 2:
        sys.exit(__doc__)
    ref, got = sections(args[0]), sections(args[1])
    bad = 0
    total = 0
    for name in [n for n in ref if n]:
        if no_kmem and name.startswith('kmem'):
            print('%s: not compared (--no-kmem)' % name)
            continue
        problem, n = compare_section(name, ref[name], got.get(name), kdump, vmemmap)
        total += n
        if problem:
            bad += 1
            print('%s: %s' % (name, problem))
        else:
            print('%s: %d lines as the reference%s' % (
                name, len(ref[name]), ', %d words erased' % n if n else ''))
    if len(ref) < 2:
        print('no section in %s' % args[0])
        bad += 1
    if erased_flag:
        if kdump and not any('Kernel data has been erased' in l for l in got['']):
            print('crash did not find erased data in the dump')
            bad += 1
        if total == 0:
            print('no answer differs as erased bytes')
            bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
