#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""cmp_vmcoreinfo.py MDF VMSIFT [TRUTH]: vmsift -g's VMCOREINFO text
(VMSIFT) against Debian makedumpfile 1.7.2's -g text for the same vmlinux
(MDF), line for line, with only the differences doc/debuginfo.md lists:

- keys current upstream makedumpfile writes and 1.7.2 does not
  (UPSTREAM_ONLY): vmsift writes them where the vmlinux has them, in
  upstream's place; a key TRUTH also has must have TRUTH's value;
- LENGTH(ARRAY) where 1.7.2 writes 2^63-2 (its value for an array whose
  bound it does not find): vmsift's must be TRUTH's value.

TRUTH is VMCOREINFO text known right: the kernel's own note from a dump
of that kernel, or lines an independent reader (drgn) gave.  Without
TRUTH, no difference of value is accepted.  Prints what differs, exits 1.
"""
import sys

UPSTREAM_ONLY = {
    "OFFSET(folio._folio_dtor)", "OFFSET(folio._folio_order)",
    "OFFSET(printk_info.caller_id)", "OFFSET(printk_log.caller_id)",
    "NUMBER(PG_hugetlb)", "NUMBER(PAGE_UNACCEPTED_MAPCOUNT_VALUE)",
}
UNBOUNDED = str(2**63 - 2)


def parse(path):
    out = []
    with open(path, encoding="ascii", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n").rstrip("\0")
            if "=" in line:
                out.append(tuple(line.split("=", 1)))
    return out


def main():
    mdf, ours = parse(sys.argv[1]), parse(sys.argv[2])
    truth = dict(parse(sys.argv[3])) if len(sys.argv) > 3 else {}
    bad = []
    kept = []
    for key, val in ours:
        if key in UPSTREAM_ONLY:
            if key in truth and truth[key] != val:
                bad.append("%s=%s, the kernel says %s" % (key, val, truth[key]))
            continue
        kept.append((key, val))
    if [k for k, _ in kept] != [k for k, _ in mdf]:
        bad.append("keys differ: makedumpfile %s, vmsift %s" %
                   ([k for k, _ in mdf], [k for k, _ in kept]))
    for (key, theirs), (_, val) in zip(mdf, kept):
        if theirs == val:
            continue
        if key.startswith("LENGTH(") and theirs == UNBOUNDED and \
                truth.get(key) == val:
            continue
        bad.append("%s: makedumpfile %s, vmsift %s, truth %s" %
                   (key, theirs, val, truth.get(key, "(none)")))
    for b in bad:
        print(b)
    if bad:
        sys.exit(1)
    print("ok: %d lines agree (%d upstream-only)" %
          (len(kept), len(ours) - len(kept)))


if __name__ == "__main__":
    main()
