# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/harness.sh - vmsift in a real capture kernel: a Debian
# kernel under QEMU (TCG) panics, its capture kernel runs vmsift-static on
# /proc/vmcore (mmap and --non-mmap, kdump, ELF and flattened), and the
# host checks every page against a raw copy, the bitmaps against
# makedumpfile's, and the ELF layout against makedumpfile's.  About a
# minute.  Sourced by tests/run.  VMSIFT_NO_QEMU=1 skips it, visibly.

# t_harness_static: make static, failing when make fails (an old
# vmsift-static left from an earlier build proves nothing).  glibc's
# warnings about static getpwnam and the like are dropped from the log.
t_harness_static() {
	local log rc
	log=$(make -s -C "$top" static 2>&1)
	rc=$?
	grep -v "statically linked applications" <<<"$log"
	[ $rc -eq 0 ] || { echo "make static failed (exit status $rc)"; return 1; }
	[ -x "$top/vmsift-static" ] || { echo "make static left no vmsift-static"; return 1; }
}

# The step limits of suites/arm64_real.sh (420 s to the first kernel's
# /init, 300 s to the capture kernel's), whose guest missed kdump-test's
# default 120 s on the loaded 2-core machine with tests/run's other job
# beside it.
t_harness_quick() {
	t_harness_static || return 1
	T_BOOT=${T_BOOT:-420} T_CAPTURE=${T_CAPTURE:-300} \
		timeout 1500 "$top/tests/harness/kdump-test" --quick
}

# The static build runs without QEMU too.
run_test "harness: make static builds vmsift-static" t_harness_static
if [ "${VMSIFT_NO_QEMU:-0}" = 1 ]; then
	log "# skipped: the real-kernel kdump test (VMSIFT_NO_QEMU=1)"
else
	run_test "real kdump: vmsift in a capture kernel, checked against the raw vmcore and makedumpfile" \
		t_harness_quick
fi

# t_snapshot5: a live snapshot of a guest with 5-level paging (QEMU's
# dump-guest-memory layout), filtered at -d 31: bitmaps equal
# makedumpfile's, every kept page equal to the snapshot's.
t_snapshot5() {
	local d=$work/snap5 ref
	rm -rf "$d" && mkdir -p "$d"
	timeout 300 "$top/tests/harness/mkvmcore" --mem 384 --paging 5 \
		--work "$d/mk" "$d/snap5.vmcore" || return 1
	grep -a -q 'NUMBER(pgtable_l5_enabled)=1' "$d/snap5.vmcore" ||
		{ echo "the guest did not run with 5-level paging"; return 1; }
	$check normalize "$d/snap5.vmcore" "$d/snap5.norm" || return 1
	makedumpfile -l -d 31 "$d/snap5.norm" "$d/ref" >/dev/null 2>&1 ||
		{ echo "makedumpfile failed"; return 1; }
	vmsift -z -d 31 --message-level 0 "$d/snap5.vmcore" "$d/out" || return 1
	$check bitmaps "$d/out" "$d/ref" "$d/snap5.vmcore" &&
		$check pages "$d/snap5.vmcore" "$d/out"
	local rc=$?
	rm -rf "$d"
	return $rc
}

# A second guest: with VMSIFT_FULL=1 (5-level paging is in the default run
# through tests/gen's paging5 specs, suites/filter.sh).
if [ "${VMSIFT_NO_QEMU:-0}" != 1 ] && full; then
	run_test "5-level paging: a QEMU snapshot filtered as makedumpfile filters it" t_snapshot5
elif [ "${VMSIFT_NO_QEMU:-0}" != 1 ]; then
	log "# skipped: the 5-level paging QEMU snapshot (VMSIFT_FULL=1 runs it)"
fi
