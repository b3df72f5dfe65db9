# tests/suites/harness.sh - vmsift in a real capture kernel: a Debian
# kernel under QEMU (TCG) panics, its capture kernel runs vmsift-static on
# /proc/vmcore (mmap and --non-mmap, kdump, ELF and flattened), and the
# host checks every page against a raw copy, the bitmaps against
# makedumpfile's, and the ELF layout against makedumpfile's.  About a
# minute.  Sourced by tests/run.  VMSIFT_NO_QEMU=1 skips it, visibly.

t_harness_quick() {
	make -s -C "$top" static 2>&1 | grep -v "statically linked applications" || true
	[ -x "$top/vmsift-static" ] || { echo "make static failed"; return 1; }
	timeout 900 "$top/tests/harness/kdump-test" --quick
}

if [ "${VMSIFT_NO_QEMU:-0}" = 1 ]; then
	log "# skipped: the real-kernel kdump test (VMSIFT_NO_QEMU=1)"
else
	run_test "real kdump: vmsift in a capture kernel, checked against the raw vmcore and makedumpfile" \
		t_harness_quick
fi
