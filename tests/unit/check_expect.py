#!/usr/bin/env python3
"""check_expect.py - run filter_scan on a synthetic vmcore and compare its
bitmap and counts with mkvmcore.py's expectation JSON.

    check_expect.py VMCORE EXPECT.json [LEVEL ...]

Zero pages are not the filter's business (found while copying), so the
'zero' counter and zero exclusions are ignored.  Pfns listed under
'either' may go either way; 'doubtful' pfns must be kept.  For corruption specs (strict false) only
wrongly excluded pages count.
Exit status 0 when every level agrees.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIELDS = {'Non-private cache pages': 'cache', 'Private cache pages': 'private_cache',
          'User process data pages': 'user', 'Free pages': 'free',
          'Hwpoison pages': 'hwpoison', 'Offline pages': 'offline',
          'Doubtful pages': 'doubtful'}


def pfnset(ranges):
    s = set()
    for r in ranges:
        s.update(range(r[0], r[1]))
    return s


def run_level(vmcore, exp, level):
    with tempfile.NamedTemporaryFile() as t:
        p = subprocess.run([os.path.join(HERE, 'filter_scan'), '-w', t.name,
                            str(level), vmcore], capture_output=True, text=True)
        if p.returncode:
            return ['filter_scan failed: ' + p.stderr.strip()]
        data = open(t.name, 'rb').read()
    ours = {}
    for line in p.stdout.splitlines():
        m = re.match(r'(.+?)\s*: 0x([0-9a-f]+)$', line)
        if m and m.group(1) in FIELDS:
            ours[FIELDS[m.group(1)]] = int(m.group(2), 16)
    lev = exp['levels'][str(level)]
    excl = {}
    for a, b, why in lev['excluded']:
        if why != 'zero':
            for pfn in range(a, b):
                excl[pfn] = why
    either = pfnset(exp.get('either', []))
    present = pfnset(exp['ram'])
    errs = []
    for pfn in sorted(present):
        bit = (data[pfn // 8] >> (pfn % 8)) & 1 if pfn // 8 < len(data) else 0
        want = 0 if pfn in excl else 1
        if not exp.get('strict', True) and (bit or pfn in either):
            continue   # corruption spec: only wrongly excluded pages count
        if bit != want and pfn not in either:
            errs.append('pfn 0x%x: ours %s, expected %s' %
                        (pfn, 'kept' if bit else 'excluded',
                         'excluded (%s)' % excl[pfn] if pfn in excl else 'kept'))
    for k, v in lev['counters'].items():
        if k != 'zero' and ours.get(k, 0) != v and not either and \
                exp.get('strict', True):
            errs.append('counter %s: ours %d, expected %d' % (k, ours.get(k, 0), v))
    want_doubt = len(pfnset(exp.get('doubtful', [])))
    if want_doubt and ours.get('doubtful', 0) < 1:
        errs.append('expected doubtful pages, none reported')
    return errs


def main():
    vmcore, expf = sys.argv[1], sys.argv[2]
    exp = json.load(open(expf))
    levels = [int(x) for x in sys.argv[3:]] or [int(x) for x in exp['levels']]
    bad = 0
    for level in levels:
        errs = run_level(vmcore, exp, level)
        print('%s -d %d: %s' % (exp.get('gen'), level,
                                'ok' if not errs else '%d problems' % len(errs)))
        for e in errs[:10]:
            print('   ' + e)
        bad += bool(errs)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
