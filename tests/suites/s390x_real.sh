# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/s390x_real.sh - vmsift on a real s390x (big-endian) kernel.
# Sourced by tests/run.
#
# The carried vmcore tests/data/s390x/snapshot-s390x-512M.vmcore.zst is a
# QMP dump-guest-memory snapshot of Debian bookworm's 6.1 s390x kernel
# under qemu-system-s390x -M s390-ccw-virtio (TCG), with the kernel's own
# VMCOREINFO note added from the lowcore (tests/harness/mkvmcore --arch
# s390x; see tests/data/README.md and doc/s390x.md: Debian's s390x kernels
# have no CONFIG_CRASH_DUMP, so no real kdump).  The reference is Debian's
# makedumpfile:s390x 1.7.2 run under qemu-s390x-static (a big-endian
# machine reading the big-endian dump natively; tests/harness/mdf-debian):
# the digests of its -l -d N bitmaps, the header and bitmap blocks of its
# -l -d 31 dump, the program headers of its -E -d 31 dump and its
# --dump-dmesg output are carried next to the vmcore.  By default, on it:
#   - vmsift -l -d 1, 2, 4, 8, 16, 31: the reference's bitmaps, every page
#     equal to the input's, read back by libkdumpfile;
#   - -E -d 31: every page it must hold, and the memory ranges of the
#     reference's -E -d 31 (its program headers are carried);
#   - --dump-dmesg byte-identical to the reference's;
#   - libkdumpfile translates init_uts_ns through vmsift's -d 31 dump;
#   - vmsift-static.s390x (make vmsift-static.s390x) under
#     qemu-s390x-static, a big-endian host, writes byte for byte what this
#     host's vmsift writes: kdump (lzo, zlib), ELF, flattened, --dump-dmesg.
# About 3 1/2 minutes on a busy 2-core machine, most of it under
# qemu-s390x-static.
#
# VMSIFT_S390X_FULL=1 adds, unless VMSIFT_NO_QEMU=1 (about 4 minutes):
#   - makedumpfile:s390x, run now, gives the carried digests;
#   - a fresh snapshot of the s390x guest (mkvmcore --arch s390x) filtered
#     at -d 31 as makedumpfile:s390x filters it, pages equal;
#   - vmsift-static.s390x run natively in the s390x guest on that snapshot
#     (tests/harness/native-run): every output byte-identical to this
#     host's vmsift's;
#   - makedumpfile:s390x run natively in the guest on the carried vmcore:
#     byte-identical to makedumpfile:s390x under qemu-s390x-static.

. "$top/tests/suites/lib/carried.sh"
s3r_name=snapshot-s390x-512M
s3r_mdf=$top/tests/harness/mdf-debian

# t_s3r_kvaddr ARGS: libkdumpfile, reading vmsift's dump made with ARGS,
# translates init_uts_ns through the dumped page tables and finds the
# release VMCOREINFO names; drgn opens the same dump as an s390x one and
# reads the same bytes.
t_s3r_kvaddr() {
	local in out=$work/out/s390x.kv
	in=$(carried_input s390x "$s3r_name") || { echo "$in"; return 1; }
	rm -f "$out"
	# shellcheck disable=SC2086
	vmsift $1 --message-level 0 "$in" "$out" || return 1
	$PY "$top/tests/tools/uts_release.py" "$out" --arch s390x --drgn
}

# s3r_ref NAME: a carried reference file (NAME.zst beside the vmcore),
# decompressed (path on stdout).
s3r_ref() {
	local z=$top/tests/data/s390x/$s3r_name.$1.zst out=$work/s390x/$s3r_name.ref.$1
	[ -f "$z" ] || { echo "missing $z"; return 1; }
	mkdir -p "$work/s390x"
	zstd -q -d -f -o "$out" "$z" || return 1
	echo "$out"
}

# t_s3r_elf: vmsift -E -d 31 holds every page it must, each equal to the
# input's (what -d 31 may leave out: the reference's carried bitmaps), and
# the same memory ranges as makedumpfile:s390x -E -d 31 (its carried
# program headers).
t_s3r_elf() {
	local in ref refe out=$work/out/s390x.elf.d31
	in=$(carried_input s390x "$s3r_name") || { echo "$in"; return 1; }
	ref=$(s3r_ref d31.head) || { echo "$ref"; return 1; }
	refe=$(s3r_ref E31.phdrs) || { echo "$refe"; return 1; }
	rm -f "$out"
	vmsift -E -d 31 --message-level 0 "$in" "$out" || return 1
	$check elf "$in" "$out" 31 "$ref" &&
		(cd "$top/tests/harness" && $PY cmp_elf.py "$out" "$refe" "$in")
}

# s3r_static: vmsift-static.s390x, built once per run (path on stdout).
s3r_static() {
	if [ -z "${s3r_built:-}" ]; then
		make -s -C "$top" vmsift-static.s390x >&2 ||
			{ echo "make vmsift-static.s390x failed (tools/cross-sysroot s390x, s390x-linux-gnu-gcc)"; return 1; }
		s3r_built=1
	fi
	echo "$top/vmsift-static.s390x"
}

# t_s3r_behost ARGS...: vmsift-static.s390x under qemu-s390x-static (a
# big-endian host) and this host's vmsift, same ARGS on the carried
# vmcore: byte-identical outputs (a flattened stream compared as such).
t_s3r_behost() {
	local in be base=$work/out/s390x.behost rc
	in=$(carried_input s390x "$s3r_name") || { echo "$in"; return 1; }
	be=$(s3r_static) || { echo "$be"; return 1; }
	command -v qemu-s390x-static >/dev/null || { echo "no qemu-s390x-static (qemu-user-static)"; return 1; }
	rm -f "$base".*
	case " $* " in
	*" -F "*)
		vmsift "$@" --message-level 0 "$in" > "$base.le" || return 1
		qemu-s390x-static "$be" "$@" --message-level 0 "$in" > "$base.be" || return 1 ;;
	*)
		vmsift "$@" --message-level 0 "$in" "$base.le" || return 1
		qemu-s390x-static "$be" "$@" --message-level 0 "$in" "$base.be" || return 1 ;;
	esac
	[ -s "$base.le" ] || { echo "empty output"; return 1; }
	cmp "$base.le" "$base.be"
	rc=$?
	[ $rc = 0 ] && case " $* " in
	*" -F "*|*" --dump-dmesg "*) ;;
	*" -E "*) $check elf "$in" "$base.be" 31 "$(s3r_ref d31.head)" || rc=1 ;;
	*) $check pages "$in" "$base.be" || rc=1 ;;
	esac
	return $rc
}

run_test "s390x real: carried vmcore decompresses to the sha256 tests/data/README.md names" \
	carried_sha s390x "$s3r_name"
for s3r_level in 1 2 4 8 16 31; do
	# -d 1 and -d 31 by default; each page type alone (-d 2, 4, 8, 16:
	# the filter's own code, every level on x86_64 and tests/gen) with
	# VMSIFT_FULL=1
	[ $s3r_level = 1 ] || [ $s3r_level = 31 ] || full || continue
	run_test "s390x real $s3r_name -l -d $s3r_level: bitmaps equal makedumpfile:s390x's, pages equal the input" \
		carried_level s390x "$s3r_name" "$s3r_level"
done
run_test "s390x real $s3r_name -E -d 31: ranges of makedumpfile:s390x -E, pages equal the input" t_s3r_elf
run_test "s390x real $s3r_name --dump-dmesg: byte-identical to makedumpfile:s390x's" \
	carried_dmesg s390x "$s3r_name"
run_test "s390x real $s3r_name -l -d 31: libkdumpfile and drgn translate init_uts_ns through the dump" \
	t_s3r_kvaddr "-l -d 31"
run_test "s390x real $s3r_name -E -d 31: libkdumpfile and drgn translate init_uts_ns through the dump" \
	t_s3r_kvaddr "-E -d 31"
run_test "s390x real $s3r_name -l -d 31 on a big-endian host (qemu-s390x-static): byte-identical to x86_64's" \
	t_s3r_behost -l -d 31
# The other outputs on the big-endian host (suites/behost.sh writes each
# by default from the generated s390x layout) with VMSIFT_S390X_FULL=1.
if [ "${VMSIFT_S390X_FULL:-0}" = 1 ]; then
	run_test "s390x real $s3r_name -c -d 1 on a big-endian host: byte-identical to x86_64's" \
		t_s3r_behost -c -d 1
	run_test "s390x real $s3r_name -E -d 31 on a big-endian host: byte-identical to x86_64's" \
		t_s3r_behost -E -d 31
	run_test "s390x real $s3r_name -F -z -d 16 on a big-endian host: byte-identical to x86_64's" \
		t_s3r_behost -F -z -d 16
fi
run_test "s390x real $s3r_name --dump-dmesg on a big-endian host: byte-identical to x86_64's" \
	t_s3r_behost --dump-dmesg

# --- VMSIFT_S390X_FULL=1 ---------------------------------------------------

# t_s3r_mdf: makedumpfile:s390x, run now under qemu-s390x-static, gives
# the carried digests at every level, the carried -l -d 31 head and -E -d
# 31 program headers, and the carried log.
t_s3r_mdf() {
	local in d=$work/out/s390x-mdf level
	in=$(carried_input s390x "$s3r_name") || { echo "$in"; return 1; }
	rm -rf "$d" && mkdir -p "$d"
	for level in 1 2 4 8 16 31; do
		timeout 300 "$s3r_mdf" s390x -l -d "$level" "$in" "$d/$s3r_name.d$level" > "$d/log" 2>&1 ||
			{ echo "makedumpfile:s390x -d $level failed:"; tail -n 3 "$d/log"; return 1; }
	done
	$PY "$top/tests/gen/arm64/digest.py" --check "$top/tests/data/s390x/$s3r_name.expected" \
		"$d/$s3r_name".d{1,2,4,8,16,31} || return 1
	cmp <(zstd -q -d -c "$top/tests/data/s390x/$s3r_name.d31.head.zst") \
		<(head -c "$(zstd -q -d -c "$top/tests/data/s390x/$s3r_name.d31.head.zst" | wc -c)" "$d/$s3r_name.d31") ||
		{ echo "the carried d31.head is not the head of makedumpfile:s390x's -l -d 31"; return 1; }
	timeout 300 "$s3r_mdf" s390x -E -d 31 "$in" "$d/E31" > "$d/log" 2>&1 ||
		{ echo "makedumpfile:s390x -E -d 31 failed"; return 1; }
	cmp <(zstd -q -d -c "$top/tests/data/s390x/$s3r_name.E31.phdrs.zst") \
		<(head -c "$(zstd -q -d -c "$top/tests/data/s390x/$s3r_name.E31.phdrs.zst" | wc -c)" "$d/E31") ||
		{ echo "the carried E31.phdrs are not makedumpfile:s390x's -E -d 31 headers"; return 1; }
	timeout 300 "$s3r_mdf" s390x --dump-dmesg "$in" "$d/dmesg" > "$d/log" 2>&1 ||
		{ echo "makedumpfile:s390x --dump-dmesg failed"; return 1; }
	zstd -q -d -c "$top/tests/data/s390x/$s3r_name.dmesg.zst" | cmp - "$d/dmesg"
}

# t_s3r_snapshot_native: a fresh snapshot of the s390x guest (256 MiB):
# vmsift -l -d 31 has makedumpfile:s390x's bitmaps, every page equal; then
# vmsift-static.s390x in the guest on that snapshot (native-run): each
# output byte-identical to this host's vmsift's.
t_s3r_snapshot_native() {
	local d=$work/snap-s390x be rc
	be=$(s3r_static) || { echo "$be"; return 1; }
	rm -rf "$d" && mkdir -p "$d"
	timeout 300 "$top/tests/harness/mkvmcore" --arch s390x --mem 256 \
		--workload "-a 32 -r 8 -z 8 -t 8 -H 0 -w 4" --cache-mb 8 \
		--work "$d/mk" "$d/snap.vmcore" || return 1
	timeout 300 "$s3r_mdf" s390x -l -d 31 "$d/snap.vmcore" "$d/ref" > "$d/ref.log" 2>&1 ||
		{ echo "makedumpfile:s390x failed"; tail -n 5 "$d/ref.log"; return 1; }
	vmsift -l -d 31 --message-level 0 "$d/snap.vmcore" "$d/out" || return 1
	$check bitmaps "$d/out" "$d/ref" "$d/snap.vmcore" &&
		$check pages "$d/snap.vmcore" "$d/out" &&
		timeout 900 "$top/tests/harness/native-run" --arch s390x --mem 256 --dump-tool "$be" \
			--dump-args "-l -d 31;-c -d 1;-E -d 31;-F -z -d 16;--dump-dmesg" \
			--out "$d/native" "$d/snap.vmcore"
	rc=$?
	[ $rc = 0 ] && rm -rf "$d"
	return $rc
}

# t_s3r_mdf_native: Debian's makedumpfile:s390x run natively in the s390x
# guest on the carried vmcore (native-run --dump-tool makedumpfile) writes
# byte for byte what it writes under qemu-s390x-static: the reference
# does not depend on qemu-user.
t_s3r_mdf_native() {
	local in
	in=$(carried_input s390x "$s3r_name") || { echo "$in"; return 1; }
	timeout 900 "$top/tests/harness/native-run" --arch s390x --dump-tool makedumpfile \
		--dump-args "-l -d 31;-E -d 31;--dump-dmesg" --out "$work/native-mdf-s390x" "$in" &&
		rm -rf "$work/native-mdf-s390x"
}

if [ "${VMSIFT_S390X_FULL:-0}" = 1 ] && [ "${VMSIFT_NO_QEMU:-0}" != 1 ]; then
	run_test "s390x real: makedumpfile:s390x, run now, gives the carried digests and log" t_s3r_mdf
	run_test "s390x real: a fresh s390x snapshot filtered as makedumpfile:s390x filters it; vmsift-static.s390x in the s390x guest byte-identical to x86_64's" \
		t_s3r_snapshot_native
	run_test "s390x real: makedumpfile:s390x in the s390x guest byte-identical to makedumpfile:s390x under qemu-s390x-static" \
		t_s3r_mdf_native
fi
