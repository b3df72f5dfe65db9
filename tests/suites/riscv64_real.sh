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

rvr_name=snapshot-riscv64-256M
rvr_data=$top/tests/data/riscv64
rvr_dir=$work/riscv64
mkdir -p "$rvr_dir"
. "$top/tests/tools/carried.sh"

# t_rvr_level LEVEL: vmsift -l -d LEVEL; the bitmaps' digest equals the
# reference's, every page equal to the input's (libkdumpfile reads it).
t_rvr_level() {
	local level=$1 in d=$work/out/rvr-digest
	in=$(carried_input riscv64 "$rvr_name") || { echo "$in"; return 1; }
	mkdir -p "$d"
	rm -f "$d/$rvr_name.d$level"
	vmsift -l -d "$level" --message-level 0 "$in" "$d/$rvr_name.d$level" || return 1
	carried_digest "$rvr_data/$rvr_name.expected" "$d/$rvr_name.d$level" &&
		$check pages "$in" "$d/$rvr_name.d$level"
}

# t_rvr_dmesg: --dump-dmesg equals the reference's log with its caller-id
# column taken out (carried_dmesg_cmp).
t_rvr_dmesg() {
	local in ref=$rvr_dir/$rvr_name.ref.dmesg out=$work/out/rvr.dmesg
	in=$(carried_input riscv64 "$rvr_name") || { echo "$in"; return 1; }
	zstd -q -d -f -o "$ref" "$rvr_data/$rvr_name.dmesg.zst" || return 1
	rm -f "$out"
	timeout 60 vmsift --dump-dmesg --message-level 0 "$in" "$out" || return 1
	carried_dmesg_cmp "$ref" "$out"
}

run_test "riscv64 real: carried vmcore decompresses to the sha256 tests/data/README.md names" carried_sha riscv64 "$rvr_name"
for rvr_level in 1 2 4 8 16 31; do
	run_test "riscv64 real $rvr_name -l -d $rvr_level: bitmaps equal upstream's, pages equal the input" \
		t_rvr_level "$rvr_level"
done
run_test "riscv64 real $rvr_name --dump-dmesg: upstream's log less its caller id" t_rvr_dmesg
