#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""confmut.py - malformed configs from good ones, each with the place its
error must be reported at.

    confmut.py OUTDIR CONF...

For each CONF (a generator seed, tests/data/confdiff/) writes
OUTDIR/NAME-K.conf, one syntax error each, deterministic: a rule cut
short, a keyword where a symbol must be, a bad size, a loop without its
endfor or its list, an unknown word, a stray endfor, a broken section, an
empty member, a loop body that does not start with the loop's variable,
control bytes.  Its first line is "# want LINE:COL" (or "# want LINE" for
an error at the end of the file): the position vmsift's message must
name, as "FILE:LINE:COL: ...".  tests/suites/confdiff.sh runs them.
"""
import os
import sys


def lines_of(path):
    with open(path) as f:
        return f.read().split('\n')


def find(lines, pred):
    for i, l in enumerate(lines):
        if pred(l.split('#', 1)[0]):
            return i
    return None


def col_of(line, word, start=0):
    return line.index(word, start) + 1


def words_of(line):
    return line.split('#', 1)[0].split()


def loop_head(lines):
    """The first loop whose head ('for ID in LIST ...') is a line of its
    own with its first body erase on the next, as the mutations below
    expect (generator version 2 also writes loops on one line and heads
    over two: those are passed over)."""
    for i in range(len(lines) - 1):
        w, b = words_of(lines[i]), words_of(lines[i + 1])
        if w[:1] == ['for'] and len(w) >= 4 and 'erase' not in w and \
                b[:1] == ['erase'] and len(b) >= 2:
            return i
    return None


def mutations(lines):
    """(description, new lines, want) for LINES (the first is the header
    the want line replaces, so line numbers are unchanged)."""
    out = []
    e = find(lines, lambda l: l.strip().startswith('erase ') and len(l.split()) >= 2)
    if e is not None:
        l = lines[e]
        w = l.split()[1]
        # a keyword where the symbol must be
        m = l.replace(' ' + w, ' size', 1)
        out.append(('keyword as symbol', lines[:e] + [m] + lines[e + 1:],
                    '%d:%d' % (e + 1, col_of(m, 'size', col_of(m, 'erase')))))
        # an empty member, a trailing dot
        m = l.replace(w, w + '..x', 1)
        out.append(('empty member', lines[:e] + [m] + lines[e + 1:],
                    '%d:%d' % (e + 1, col_of(m, w + '..x'))))
        # a bad size
        base = l.split('#', 1)[0].rstrip()
        if ' size ' in base or ' nullify' in base:
            base = base.split(' size ')[0].split(' nullify')[0]
        m = base + ' size 12Q'
        out.append(('bad size', lines[:e] + [m] + lines[e + 1:],
                    '%d:%d' % (e + 1, col_of(m, '12Q'))))
        m = base + ' size 0x'
        out.append(('bad size 0x', lines[:e] + [m] + lines[e + 1:],
                    '%d:%d' % (e + 1, col_of(m, '0x', len(base)))))
        # nullify then size
        m = base + ' nullify size 8'
        out.append(('nullify size', lines[:e] + [m] + lines[e + 1:],
                    '%d:%d' % (e + 1, col_of(m, 'size', len(base)))))
        # an unknown word before the rule
        m = 'frobnicate ' + l.lstrip()
        out.append(('unknown word', lines[:e] + [m] + lines[e + 1:],
                    '%d:1' % (e + 1)))
        # a control byte inside the symbol
        m = l.replace(w, w[:1] + '\x01' + w[1:], 1)
        out.append(('control byte', lines[:e] + [m] + lines[e + 1:],
                    '%d:%d' % (e + 1, col_of(m, w[:1] + '\x01'))))
        # a stray endfor
        out.append(('stray endfor', lines[:e] + ['endfor'] + lines[e:],
                    '%d:1' % (e + 1)))
        # a broken section header
        out.append(('broken section', lines[:e] + ['[vmlinux'] + lines[e:],
                    '%d:1' % (e + 1)))
        # the file ends after 'erase'
        out.append(('erase at the end', lines[:e + 1] + ['erase'],
                    '%d' % (e + 2)))
    f = loop_head(lines)
    end = None
    if f is not None:
        end = next((i for i in range(f + 1, len(lines))
                    if lines[i].split('#', 1)[0].strip() == 'endfor'), None)
    if f is not None and end is not None:
        l = lines[f]
        # the loop never ends: the file ends in its body (its last line
        # named)
        out.append(('no endfor', lines[:end], '%d' % end))
        # no list after 'in'
        words = l.split('#', 1)[0].split()
        m = 'for %s in' % words[1]
        out.append(('no list', lines[:f] + [m] + ['\terase x'] + lines[end:],
                    '%d:%d' % (f + 2, col_of('\terase x', 'erase'))))
        # 'in' missing
        m = 'for %s %s' % (words[1], ' '.join(words[3:]))
        out.append(('no in', lines[:f] + [m] + lines[f + 1:],
                    '%d:%d' % (f + 1, len('for %s ' % words[1]) + 1)))
        # a body rule that does not start with the loop's variable
        b = lines[f + 1]
        bw = b.split()[1]
        m = b.replace(bw, 'zz' + bw, 1)
        out.append(('wrong variable', lines[:f + 1] + [m] + lines[f + 2:],
                    '%d:%d' % (f + 2, col_of(m, 'zz' + bw))))
        # 'via' with no member
        m = ' '.join(words[:4]) + ' via'
        out.append(('via nothing', lines[:f] + [m] + lines[f + 1:],
                    '%d:%d' % (f + 2, col_of(lines[f + 1], 'erase'))))
        # 'within' with no struct
        m = ' '.join(words[:4]) + ' within'
        out.append(('within nothing', lines[:f] + [m] + lines[f + 1:],
                    '%d:%d' % (f + 2, col_of(lines[f + 1], 'erase'))))
        # 'within STRUCT:' with no member
        m = ' '.join(words[:4]) + ' within task_struct:'
        out.append(('within no member', lines[:f] + [m] + lines[f + 1:],
                    '%d:%d' % (f + 1, col_of(m, 'task_struct:'))))
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    outdir = sys.argv[1]
    for conf in sys.argv[2:]:
        name = os.path.basename(conf).replace('.', '-')
        lines = lines_of(conf)
        if lines and lines[0].startswith('#'):
            lines = lines[1:]
        lines = [''] + lines
        for k, (desc, new, want) in enumerate(mutations(lines)):
            new = ['# want %s (%s)' % (want, desc)] + new[1:]
            with open(os.path.join(outdir, '%s-%d.conf' % (name, k)), 'w') as f:
                f.write('\n'.join(new))


main()
