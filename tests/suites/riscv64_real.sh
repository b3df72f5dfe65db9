# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/riscv64_real.sh - vmsift on a real riscv64 kernel.  Sourced
# by tests/run.
#
# The carried vmcore tests/data/riscv64/snapshot-riscv64-256M.vmcore.zst (a
# QMP dump-guest-memory snapshot of Debian trixie's 6.12 riscv64 kernel
# under qemu-system-riscv64 -M virt, Sv57; see tests/data/README.md) sits
# in a subfolder so that tests/run's x86_64 loop leaves it alone.  The
# reference is upstream makedumpfile built for riscv64 dumps, run once by
# hand: the digests of its -l -d N bitmaps and its --dump-dmesg output are
# carried next to the vmcore.  On it, vmsift's kdump output (lzo) at
# -d 1, 2, 4, 8, 16 and 31 has the reference's bitmaps, every page equal
# to the input's, read back by libkdumpfile; --dump-dmesg is the
# reference's log less its caller-id column.  About half a minute.
# The helpers (carried_*) are tests/suites/lib/carried.sh's.

. "$top/tests/suites/lib/carried.sh"
rvr_name=snapshot-riscv64-256M

run_test "riscv64 real: carried vmcore decompresses to the sha256 tests/data/README.md names" \
	carried_sha riscv64 "$rvr_name"
for rvr_level in 1 2 4 8 16 31; do
	run_test "riscv64 real $rvr_name -l -d $rvr_level: bitmaps equal upstream's, pages equal the input" \
		carried_level riscv64 "$rvr_name" "$rvr_level"
done
# The caller-id column ("[      T0] ", which upstream prints and vmsift,
# modelled on makedumpfile 1.7.2, does not) is taken out of the reference.
run_test "riscv64 real $rvr_name --dump-dmesg: upstream's log less its caller id" \
	carried_dmesg riscv64 "$rvr_name" 's/^(\[ *[0-9]+\.[0-9]+\]) \[ *[TC][0-9]+\] /\1 /'
