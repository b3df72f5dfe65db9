#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""xmod_check.py RAW VMLINUX KO... -- DUMP... - the rules of
tests/data/erase/modules-decl.conf (structs a module's debug information
only declares, completed by vmsift from another module or the vmlinux)
erased the bytes drgn says they name, in every DUMP.

drgn, with the vmlinux and the modules' debug files (KO: aesni-intel.ko,
crypto_simd.ko, cryptd.ko), finds each place in RAW by its own means:
aesni_intel's aesni_simd_xctr (a struct simd_skcipher_alg *, a struct
that crypto_simd defines), the string its ialg_name points to and the
whole struct; cryptd's cryptd_wq (a struct workqueue_struct *, the
kernel's) and its name[].  Each must be all 'X' in every DUMP and the
bytes around it RAW's (erased_check.py's check_places)."""
import os
import sys

import drgn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from erased_check import check_places  # noqa: E402


def places(prog):
    """(what, address, size) of each erased place, from drgn alone."""
    alg = drgn.cast("struct simd_skcipher_alg *", prog["aesni_simd_xctr"])
    name = alg.ialg_name.string_()
    wq = drgn.cast("struct workqueue_struct *", prog["cryptd_wq"])
    out = [("aesni_simd_xctr->ialg_name", alg.ialg_name.value_(), len(name)),
           ("*aesni_simd_xctr", alg.value_(),
            drgn.sizeof(alg.type_.type)),
           ("cryptd_wq->name", wq.name.address_, drgn.sizeof(wq.name.type_))]
    for what, addr, size in out:
        if not addr or size < 8:
            sys.exit("%s: at 0x%x, %d bytes: not a place" % (what, addr, size))
    return out


def main():
    args = sys.argv[1:]
    if "--" not in args or args.index("--") < 3 or args[-1] == "--":
        sys.exit(__doc__)
    cut = args.index("--")
    raw, vmlinux, kos, dumps = args[0], args[1], args[2:cut], args[cut + 1:]
    prog = drgn.Program()
    prog.set_core_dump(raw)
    prog.load_debug_info([vmlinux] + kos)
    sys.exit(1 if check_places(prog, raw, places(prog), dumps) else 0)


if __name__ == "__main__":
    main()
