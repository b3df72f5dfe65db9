#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check_filter.py - run a makedumpfile-compatible binary on generated vmcores
and compare its filtering with the expectation computed by mkvmcore.py.

    check_filter.py BINARY [--spec NAME|PATH ...] [--levels 2,4,8,16,31]
                           [--reference] [--keep DIR] [-v]

For every spec in specs/ (or the ones given), generate the vmcore into a temp
dir, run

    BINARY -d LEVEL --message-level 31 VMCORE OUT

for each level, parse OUT's kdump-compressed bitmaps and the "Excluded pages"
report, and compare:

  * strict specs: bitmap1 == RAM, bitmap2 bit for bit, every counter;
  * corruption specs (strict=false): exit status 0, bitmap1 == RAM, and no
    page the expectation keeps (doubtful pages included) is excluded; pages
    marked "either" (garbage struct pages) may go either way.

--reference runs only specs marked "makedumpfile ok" (for validating the
generator itself against Debian's makedumpfile 1.7.2, which predates the
6.2+ rules; see README.md).  Exit status is 1 on any mismatch.
Standard library only.
"""

import argparse
import bisect
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mkvmcore  # noqa: E402

REPORT_KEYS = {
    'Pages filled with zero': 'zero',
    'Non-private cache pages': 'cache',
    'Private cache pages': 'private_cache',
    'User process data pages': 'user',
    'Free pages': 'free',
    'Hwpoison pages': 'hwpoison',
    'Offline pages': 'offline',
}


def parse_report(text):
    out = {}
    for line in text.splitlines():
        m = re.match(r'\s*([A-Za-z -]+?)\s*:\s*(0x[0-9a-fA-F]+)\s*$', line)
        if m and m.group(1) in REPORT_KEYS:
            out[REPORT_KEYS[m.group(1)]] = int(m.group(2), 16)
    return out


def read_bitmaps(path):
    with open(path, 'rb') as f:
        hdr = f.read(464)
        if hdr[:8] not in (b'KDUMP   ', b'DISKDUMP'):
            raise ValueError('not a kdump-compressed file (signature %r)'
                             % hdr[:8])
        # the dumped machine's byte order: header_version is small
        e = '<' if struct.unpack_from('<i', hdr, 8)[0] < 0x10000 else '>'
        block_size, sub_hdr_size, bitmap_blocks = \
            struct.unpack_from(e + 'iiI', hdr, 428)
        f.seek(block_size + 96)
        max_mapnr = struct.unpack(e + 'Q', f.read(8))[0]
        half = bitmap_blocks * block_size // 2
        f.seek((1 + sub_hdr_size) * block_size)
        bm1 = f.read(half)
        bm2 = f.read(half)
    if len(bm1) != half or len(bm2) != half:
        raise ValueError('truncated bitmaps')
    return bm1, bm2, max_mapnr


def set_range(bm, s, e, val):
    """Set/clear bits [s, e) in bytearray bm (LSB first)."""
    e = min(e, len(bm) * 8)
    while s < e and s & 7:
        if val:
            bm[s >> 3] |= 1 << (s & 7)
        else:
            bm[s >> 3] &= ~(1 << (s & 7)) & 0xff
        s += 1
    nb = (e - s) >> 3
    if nb > 0:
        bm[s >> 3:(s >> 3) + nb] = (b'\xff' if val else b'\0') * nb
        s += nb << 3
    while s < e:
        if val:
            bm[s >> 3] |= 1 << (s & 7)
        else:
            bm[s >> 3] &= ~(1 << (s & 7)) & 0xff
        s += 1


def diff_bits(a, b):
    """pfns where bitmaps a and b differ (both same length)."""
    out = []
    if a == b:
        return out
    for i in range(len(a)):
        x = a[i] ^ b[i]
        if x:
            for j in range(8):
                if x >> j & 1:
                    out.append(i * 8 + j)
    return out


class Kinds:
    def __init__(self, exp):
        self.r = sorted(exp['kinds'])
        self.starts = [x[0] for x in self.r]
        self.ram = exp['ram']

    def __call__(self, pfn):
        i = bisect.bisect_right(self.starts, pfn) - 1
        if i >= 0 and pfn < self.r[i][1]:
            return self.r[i][2]
        for a, b in self.ram:
            if a <= pfn < b:
                return 'kernel'
        return 'hole'


def runs(pfns, label):
    """Group sorted pfns into runs with the same label(pfn)."""
    out = []
    for p in pfns:
        lab = label(p)
        if out and out[-1][1] == p and out[-1][2] == lab:
            out[-1][1] = p + 1
        else:
            out.append([p, p + 1, lab])
    return out


def fmt_run(r):
    s, e, lab = r
    rng = '%#x' % s if e == s + 1 else '%#x-%#x' % (s, e - 1)
    return 'pfn %s (%d page%s) %s' % (rng, e - s, '' if e == s + 1 else 's',
                                      lab)


def check_level(exp, level, bm1, bm2, report, rc, problems):
    # compare over the expected pfn range; a shorter bitmap reads as zeros
    nbytes = (exp['max_mapnr'] + 7) // 8
    bm1 = bytes(bm1[:nbytes]).ljust(nbytes, b'\0')
    bm2 = bytes(bm2[:nbytes]).ljust(nbytes, b'\0')
    ram = bytearray(nbytes)
    for a, b in exp['ram']:
        set_range(ram, a, b, 1)
    kinds = Kinds(exp)
    lv = exp['levels'][str(level)]
    # excluded-by-expectation map: pfn -> counter
    exc_r = sorted(lv['excluded'])
    exc_s = [x[0] for x in exc_r]

    def exp_reason(p):
        i = bisect.bisect_right(exc_s, p) - 1
        if i >= 0 and p < exc_r[i][1]:
            return exc_r[i][2]
        return None
    def label1(p):
        return '%s: expected %s in bitmap1' % (
            kinds(p), 'present' if ram[p >> 3] >> (p & 7) & 1 else 'absent')
    for r in runs(diff_bits(bytes(ram), bm1), label1)[:20]:
        problems.append('-d %d: %s' % (level, fmt_run(r)))
    expbm = bytearray(ram)
    for s, e, _ in exc_r:
        set_range(expbm, s, e, 0)
    if exp['strict']:
        bad = diff_bits(bytes(expbm), bm2)

        def label(p):
            got = 'kept' if bm2[p >> 3] >> (p & 7) & 1 else 'excluded'
            r = exp_reason(p)
            want = 'excluded(%s)' % r if r else 'kept'
            return '%s: expected %s, got %s' % (kinds(p), want, got)
        for r in runs(bad, label):
            problems.append('-d %d: %s' % (level, fmt_run(r)))
        for c, v in lv['counters'].items():
            if c == 'zero' and not level & 1:
                continue
            got = report.get(c)
            if got is None:
                problems.append('-d %d: counter %s missing from report'
                                % (level, c))
            elif got != v:
                problems.append('-d %d: counter %s: expected %#x (%d), got '
                                '%#x (%d)' % (level, c, v, v, got, got))
    else:
        allowed = bytearray(len(bm2))        # 1 = may be excluded
        for s, e, _ in exc_r:
            set_range(allowed, s, e, 1)
        for s, e, _ in exp['either']:
            set_range(allowed, s, e, 1)
        bad = []
        for i in range(len(bm2)):
            x = ram[i] & ~bm2[i] & ~allowed[i] & 0xff
            if x:
                bad.extend(i * 8 + j for j in range(8) if x >> j & 1)
        doubt = exp['doubtful']

        def label(p):
            d = [w for s, e, w in doubt if s <= p < e]
            return '%s%s: expected kept, got excluded' % (
                kinds(p), ' [doubtful: %s]' % d[0] if d else '')
        for r in runs(bad, label):
            problems.append('-d %d: %s' % (level, fmt_run(r)))


def run_spec(binary, spec_path, levels, tmp, verbose, reference):
    spec = mkvmcore.Spec(spec_path)
    if reference and spec.makedumpfile != 'ok':
        return None, ['skipped (makedumpfile %s)' % spec.makedumpfile]
    b = mkvmcore.Builder(spec)
    b.build()
    vmcore = os.path.join(tmp, spec.name + '.vmcore')
    b.write_elf(vmcore)
    exp = mkvmcore.expectation(b, levels)
    with open(vmcore + '.json', 'w') as f:
        json.dump(exp, f, indent=1)
    problems = []
    for level in levels:
        out = os.path.join(tmp, '%s.d%d' % (spec.name, level))
        if os.path.exists(out):
            os.unlink(out)
        cmd = [binary, '-d', str(level), '--message-level', '31', vmcore, out]
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=120)
        except subprocess.TimeoutExpired:
            problems.append('-d %d: timed out' % level)
            continue
        text = p.stdout.decode(errors='replace')
        with open(out + '.log', 'w') as f:
            f.write(text)
        if verbose > 1:
            print(text)
        if p.returncode != 0:
            tail = ' | '.join(text.strip().splitlines()[-3:])
            problems.append('-d %d: exit status %d: %s'
                            % (level, p.returncode, tail))
            continue
        try:
            bm1, bm2, max_mapnr = read_bitmaps(out)
        except (OSError, ValueError) as ex:
            problems.append('-d %d: cannot read output: %s' % (level, ex))
            continue
        if max_mapnr != exp['max_mapnr'] and (exp['strict'] or
                                              max_mapnr < exp['max_mapnr']):
            problems.append('-d %d: max_mapnr %#x, expected %#x'
                            % (level, max_mapnr, exp['max_mapnr']))
        report = parse_report(text)
        n0 = len(problems)
        check_level(exp, level, bm1, bm2, report, p.returncode, problems)
        if len(problems) - n0 > 12:
            problems[n0 + 12:] = ['-d %d: ... (%d more)'
                                  % (level, len(problems) - n0 - 12)]
    return (not problems), problems


def find_specs(names):
    if not names:
        return sorted(glob.glob(os.path.join(HERE, 'specs', '*.spec')))
    out = []
    for n in names:
        if os.path.exists(n):
            out.append(n)
        else:
            p = os.path.join(HERE, 'specs', n if n.endswith('.spec')
                             else n + '.spec')
            if not os.path.exists(p):
                sys.exit('no such spec: %s' % n)
            out.append(p)
    return out


def main():
    ap = argparse.ArgumentParser(
        description='check a makedumpfile-compatible filter against '
                    'generated vmcores')
    ap.add_argument('binary')
    ap.add_argument('--spec', action='append', default=[],
                    help='spec name or path (repeatable; default: all)')
    ap.add_argument('--levels', default='2,4,8,16,31')
    ap.add_argument('--reference', action='store_true',
                    help='only specs marked "makedumpfile ok"')
    ap.add_argument('--keep', help='keep generated files in this directory')
    ap.add_argument('-v', '--verbose', action='count', default=0)
    a = ap.parse_args()
    levels = [int(x) for x in a.levels.split(',')]
    binary = a.binary
    if os.sep in binary:
        binary = os.path.abspath(binary)
    tmp = a.keep or tempfile.mkdtemp(prefix='vmsift-gen-')
    os.makedirs(tmp, exist_ok=True)
    failed = passed = skipped = 0
    try:
        for sp in find_specs(a.spec):
            name = os.path.splitext(os.path.basename(sp))[0]
            try:
                ok, problems = run_spec(binary, sp, levels, tmp, a.verbose,
                                        a.reference)
            except mkvmcore.SpecError as ex:
                ok, problems = False, ['generator error: %s' % ex]
            if ok is None:
                skipped += 1
                if a.verbose:
                    print('SKIP %s: %s' % (name, problems[0]))
                continue
            if ok:
                passed += 1
                print('PASS %s' % name)
            else:
                failed += 1
                print('FAIL %s' % name)
                for pr in problems:
                    print('    ' + pr)
            sys.stdout.flush()
    finally:
        if not a.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    print('%d passed, %d failed, %d skipped' % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
