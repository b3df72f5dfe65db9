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
	# -d 1 and -d 31 by default; each page type alone (-d 2, 4, 8, 16:
	# the filter's own code, every level on x86_64 and tests/gen) with
	# VMSIFT_FULL=1
	[ $rvr_level = 1 ] || [ $rvr_level = 31 ] || full || continue
	run_test "riscv64 real $rvr_name -l -d $rvr_level: bitmaps equal upstream's, pages equal the input" \
		carried_level riscv64 "$rvr_name" "$rvr_level"
done
# The caller-id column ("[      T0] ", which upstream prints and vmsift,
# modelled on makedumpfile 1.7.2, does not) is taken out of the reference.
run_test "riscv64 real $rvr_name --dump-dmesg: upstream's log less its caller id" \
	carried_dmesg riscv64 "$rvr_name" 's/^(\[ *[0-9]+\.[0-9]+\]) \[ *[TC][0-9]+\] /\1 /'

# ---------------------------------------------------------------------------
# VMSIFT_RISCV64_FULL=1 (and not VMSIFT_NO_QEMU=1): a real kdump of the
# riscv64 kernel (tests/harness/kdump-test --arch riscv64; see
# doc/riscv64.md): a 384 MiB guest booted with crashkernel=128M and no4lvl
# (Sv39, where the carried snapshot is Sv57) loads itself with sid's
# kexec -p, panics, and in the capture kernel vmsift-static.riscv64 (make
# vmsift-static.riscv64) saves /proc/vmcore natively at -l -d 1, 2, 4, 8,
# 16, 31, --non-mmap -z -d 31, -E -d 31 and -F -l -d 1, and copies it raw.
# kdump-test checks every page of each dump against the raw copy and its
# bitmaps (ELF: ranges) against the reference, an upstream makedumpfile
# built TARGET=riscv64 that MDF_RISCV64 names (Debian's misjudges 6.12's
# struct pages); then each dump must be byte-identical to what this
# host's vmsift writes from the raw copy with the same arguments, and
# --dump-dmesg on the raw copy equal to the reference's less its caller
# id.  About five minutes.

rvk_args="-l -d 1;-l -d 2;-l -d 4;-l -d 8;-l -d 16;-l -d 31;--non-mmap -z -d 31;-E -d 31;-F -l -d 1"

# t_rvk_kdump: the kdump and kdump-test's checks.
t_rvk_kdump() {
	[ -x "${MDF_RISCV64:-}" ] ||
		{ echo "VMSIFT_RISCV64_FULL=1 needs MDF_RISCV64: an upstream makedumpfile built TARGET=riscv64"; return 1; }
	make -s -C "$top" vmsift-static.riscv64 2>&1 | grep -v "statically linked applications"
	[ -x "$top/vmsift-static.riscv64" ] || { echo "make vmsift-static.riscv64 failed"; return 1; }
	# 1444 s once with a cold $VMSIFT_CACHE on the loaded 2-core machine
	timeout 2400 "$top/tests/harness/kdump-test" --arch riscv64 --mem 384 --crashkernel 128M \
		--append no4lvl --workload "-a 32 -r 0 -z 8 -t 8 -H 4 -w 4" \
		--dump-args "$rvk_args" --out "$work/kdump-riscv64"
}

# t_rvk_same: each dump from the capture kernel equals, byte for byte,
# this host's vmsift on the raw /proc/vmcore copy with the same arguments.
t_rvk_same() {
	local res=$work/kdump-riscv64/results args n=0 out=$work/out/rvk
	[ -s "$res/vmcore.raw" ] || { echo "no $res/vmcore.raw: the kdump did not run"; return 1; }
	mkdir -p "$out"
	while read -r args; do
		n=$((n + 1))
		rm -f "$out/dump$n"
		case " $args " in
		*" -F "*)
			# shellcheck disable=SC2086
			vmsift $args --message-level 0 "$res/vmcore.raw" > "$out/dump$n" || return 1 ;;
		*)
			# shellcheck disable=SC2086
			vmsift $args --message-level 0 "$res/vmcore.raw" "$out/dump$n" || return 1 ;;
		esac
		cmp "$res/dump$n" "$out/dump$n" || { echo "dump $n ($args) differs from the host's"; return 1; }
	done < <(tr ';' '\n' <<< "$rvk_args")
	[ "$n" = 9 ] || { echo "$n argument sets, want 9"; return 1; }
}

# t_rvk_dmesg: --dump-dmesg on the raw copy: the reference's log less its
# caller-id column.
t_rvk_dmesg() {
	local raw=$work/kdump-riscv64/results/vmcore.raw ref=$work/out/rvk.ref.dmesg out=$work/out/rvk.dmesg
	[ -s "$raw" ] || { echo "no $raw: the kdump did not run"; return 1; }
	rm -f "$ref" "$out"
	"$MDF_RISCV64" --dump-dmesg "$raw" "$ref" > /dev/null 2>&1 || { echo "the reference's --dump-dmesg failed"; return 1; }
	timeout 60 vmsift --dump-dmesg --message-level 0 "$raw" "$out" || return 1
	[ -s "$out" ] || { echo "empty log"; return 1; }
	grep -q 'sysrq: Trigger a crash' "$out" || { echo "the log lacks the panic"; return 1; }
	sed -E 's/^(\[ *[0-9]+\.[0-9]+\]) \[ *[TC][0-9]+\] /\1 /' "$ref" | cmp - "$out"
}

if [ "${VMSIFT_RISCV64_FULL:-0}" != 1 ]; then
	log "# skipped: the real riscv64 kdump (VMSIFT_RISCV64_FULL=1 with MDF_RISCV64 runs it)"
elif [ "${VMSIFT_NO_QEMU:-0}" = 1 ]; then
	log "# skipped: the real riscv64 kdump (VMSIFT_NO_QEMU=1)"
else
	rm -rf "$work/kdump-riscv64"
	run_test "riscv64 real kdump: vmsift-static.riscv64 in a capture kernel (Sv39), checked against the raw vmcore and upstream makedumpfile" \
		t_rvk_kdump
	run_test "riscv64 real kdump: every capture-kernel dump byte-identical to the host's vmsift on the raw /proc/vmcore" \
		t_rvk_same
	run_test "riscv64 real kdump --dump-dmesg: upstream's log less its caller id" t_rvk_dmesg
	[ "${VMSIFT_KEEP:-0}" = 1 ] || rm -rf "$work/kdump-riscv64"
fi
