# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/arm64_real.sh - vmsift on real arm64 kernels.  Sourced by
# tests/run.
#
# The carried vmcore tests/data/arm64/kdump-arm64-384M.vmcore.zst (a real
# /proc/vmcore of Debian's 6.1 arm64 kernel, 4K pages, 48-bit VA; see
# tests/data/README.md) sits in a subfolder so that tests/run's x86_64 loop
# leaves it alone.  On it, vmsift's kdump output (lzo) at -d 1, 2, 4, 8, 16
# and 31 has the bitmaps of Debian's makedumpfile for arm64 (1.7.2, run here
# under qemu-aarch64-static by tests/harness/mdf-arm64, each reference made
# once and cached in tests/work/ref), every page equal to the input's, read
# back by libkdumpfile; -E matches makedumpfile -E's ranges and holds every
# page it must; --dump-dmesg is byte-identical to makedumpfile's; and
# libkdumpfile translates a kernel virtual address through vmsift's dump.
# About a minute and a half.
#
# Unless VMSIFT_NO_QEMU=1: a real kdump of the arm64 kernel under
# qemu-system-aarch64 (TCG), vmsift-static.aarch64 on /proc/vmcore in the
# capture kernel, mmap and --non-mmap, every dump checked on the host
# against a raw copy of /proc/vmcore and makedumpfile:arm64's bitmaps
# (tests/harness/kdump-test --arch arm64).  About three minutes.
# VMSIFT_ARM64_FULL=1 makes that run the x86_64 harness's four argument
# sets (kdump mmap/--non-mmap, ELF, flattened) plus -d 1, in a 512 MiB guest
# (about 4 1/2 minutes), and adds a live QMP snapshot of the arm64 guest
# (tests/harness/mkvmcore --arch arm64) filtered at -d 31 as makedumpfile:arm64
# filters it (about a minute).
#
# At the end: the same cases on a carried 16K-page vmcore (Debian's 6.12
# arm64-16k kernel), against upstream makedumpfile's carried bitmaps; see
# the section there.

# The helpers (carried_*) are tests/suites/lib/carried.sh's.
# shellcheck source=tests/suites/lib/carried.sh
. "$top/tests/suites/lib/carried.sh"

a64_dir=$work/arm64
a64_mdf=$top/tests/harness/mdf-arm64
mkdir -p "$a64_dir" "$work/ref"

# a64_input: the carried arm64 vmcore, decompressed once (path on stdout).
a64_input() {
	carried_input arm64 kdump-arm64-384M
}

# a64_ref ARGS...: makedumpfile:arm64's output for ARGS on the carried
# vmcore, made under qemu-user once and cached (path on stdout).
a64_ref() {
	local in ref
	in=$(a64_input) || return 1
	ref=$work/ref/$(basename "$in").mdf-arm64$(printf '%s' "$*" | tr -c 'a-zA-Z0-9' _)
	if [ ! -f "$ref" ]; then
		rm -f "$ref.tmp"
		timeout 300 "$a64_mdf" "$@" "$in" "$ref.tmp" > "$ref.log" 2>&1 ||
			{ echo "makedumpfile:arm64 $* failed:"; tail -n 5 "$ref.log"; return 1; }
		mv "$ref.tmp" "$ref"
	fi
	echo "$ref"
}

# t_a64_sha: the carried file decompresses to the raw vmcore README names.
t_a64_sha() {
	carried_sha arm64 kdump-arm64-384M
}

# t_a64_level LEVEL: vmsift -l -d LEVEL; bitmaps equal makedumpfile:arm64's,
# every page equal to the input's (libkdumpfile reads the dump).
t_a64_level() {
	local level=$1 in ref out
	in=$(a64_input) || return 1
	ref=$(a64_ref -l -d "$level") || { echo "$ref"; return 1; }
	out=$work/out/arm64.l.d$level
	rm -f "$out"
	vmsift -l -d "$level" --message-level 0 "$in" "$out" || return 1
	$check bitmaps "$out" "$ref" "$in" && $check pages "$in" "$out"
}

# t_a64_elf: vmsift -E -d 31 holds every page it must, byte-exact, and the
# same memory ranges as makedumpfile:arm64 -E -d 31.
t_a64_elf() {
	local in ref refe out
	in=$(a64_input) || return 1
	ref=$(a64_ref -l -d 31) || { echo "$ref"; return 1; }
	refe=$(a64_ref -E -d 31) || { echo "$refe"; return 1; }
	out=$work/out/arm64.elf.d31
	rm -f "$out"
	vmsift -E -d 31 --message-level 0 "$in" "$out" || return 1
	$check elf "$in" "$out" 31 "$ref" &&
		(cd "$top/tests/harness" && $PY cmp_elf.py "$out" "$refe" "$in")
}

# t_a64_dmesg: --dump-dmesg is byte-identical to makedumpfile:arm64's.
t_a64_dmesg() {
	local in ref out
	in=$(a64_input) || return 1
	ref=$(a64_ref --dump-dmesg) || { echo "$ref"; return 1; }
	[ -s "$ref" ] || { echo "makedumpfile:arm64 wrote an empty log"; return 1; }
	out=$work/out/arm64.dmesg
	rm -f "$out"
	timeout 60 vmsift --dump-dmesg --message-level 0 "$in" "$out" || return 1
	cmp "$ref" "$out"
}

# t_a64_kvaddr: libkdumpfile, reading vmsift's -d 31 dump, translates
# init_uts_ns (a kernel-image address) through the dumped page tables and
# finds the release VMCOREINFO names; drgn reads the same bytes.
t_a64_kvaddr() {
	local in out
	in=$(a64_input) || return 1
	out=$work/out/arm64.kv.d31
	rm -f "$out"
	vmsift -l -d 31 --message-level 0 "$in" "$out" || return 1
	$PY "$top/tests/tools/uts_release.py" "$out" --arch aarch64 --drgn
}

run_test "arm64 carried vmcore: decompresses to the sha256 tests/data/README.md names" t_a64_sha
for a64_level in 1 2 4 8 16 31; do
	# -d 1 and -d 31 by default; each page type alone (-d 2, 4, 8, 16:
	# the filter's own code, every level on x86_64 and tests/gen) with
	# VMSIFT_FULL=1
	[ $a64_level = 1 ] || [ $a64_level = 31 ] || full || continue
	run_test "arm64 kdump-arm64-384M -l -d $a64_level: bitmaps equal makedumpfile:arm64's, pages equal the input" \
		t_a64_level "$a64_level"
done
run_test "arm64 kdump-arm64-384M -E -d 31: ranges of makedumpfile:arm64 -E, pages equal the input" t_a64_elf
run_test "arm64 kdump-arm64-384M --dump-dmesg: byte-identical to makedumpfile:arm64's" t_a64_dmesg
run_test "arm64 kdump-arm64-384M -d 31: libkdumpfile and drgn translate init_uts_ns through the dump" t_a64_kvaddr

# t_a64_kdump: the real kdump (see the header).  Its step limits are
# those of suites/ppc64le_real.sh: on the 2-core machine at a load of 20,
# with tests/run's other job beside it, the capture kernel had not reached
# /init after kdump-test's default 120 s (T_CAPTURE; the first kernel's
# /init came at 43 s of guest time, its panic at 122 s).
t_a64_kdump() {
	local args
	export T_BOOT=${T_BOOT:-420} T_CAPTURE=${T_CAPTURE:-300}
	make -s -C "$top" vmsift-static.aarch64 2>&1 | grep -v "statically linked applications"
	[ -x "$top/vmsift-static.aarch64" ] || { echo "make vmsift-static.aarch64 failed"; return 1; }
	if [ "${VMSIFT_ARM64_FULL:-0}" = 1 ]; then
		timeout 1500 "$top/tests/harness/kdump-test" --arch arm64 --mem 512 \
			--dump-args "-l -d 31;--non-mmap -z -d 31;-E -d 31;-F -l -d 1;-l -d 1" \
			--out "$work/kdump-arm64"
	else
		timeout 1500 "$top/tests/harness/kdump-test" --arch arm64 --mem 512 \
			--dump-args "-l -d 31;--non-mmap -l -d 31" --out "$work/kdump-arm64"
	fi
}

if [ "${VMSIFT_NO_QEMU:-0}" = 1 ]; then
	log "# skipped: the real arm64 kdump test (VMSIFT_NO_QEMU=1)"
else
	run_test "arm64 real kdump: vmsift-static.aarch64 in a capture kernel, mmap and --non-mmap, checked against the raw vmcore and makedumpfile:arm64" \
		t_a64_kdump
fi

# t_a64_snapshot: a live snapshot (QEMU's dump-guest-memory layout, no
# kernel-virtual PT_LOADs) filtered at -d 31: bitmaps equal
# makedumpfile:arm64's, every kept page equal to the snapshot's.
t_a64_snapshot() {
	local d=$work/snap-arm64 rc
	rm -rf "$d" && mkdir -p "$d"
	timeout 300 "$top/tests/harness/mkvmcore" --arch arm64 --mem 256 \
		--work "$d/mk" "$d/snap.vmcore" || return 1
	grep -a -q 'NUMBER(kimage_voffset)=' "$d/snap.vmcore" ||
		{ echo "the snapshot has no arm64 VMCOREINFO"; return 1; }
	$check normalize "$d/snap.vmcore" "$d/snap.norm" || return 1
	"$a64_mdf" -l -d 31 "$d/snap.norm" "$d/ref" > "$d/ref.log" 2>&1 ||
		{ echo "makedumpfile:arm64 failed"; tail -n 5 "$d/ref.log"; return 1; }
	vmsift -l -d 31 --message-level 0 "$d/snap.vmcore" "$d/out" || return 1
	$check bitmaps "$d/out" "$d/ref" "$d/snap.vmcore" &&
		$check pages "$d/snap.vmcore" "$d/out"
	rc=$?
	rm -rf "$d"
	return $rc
}

if [ "${VMSIFT_NO_QEMU:-0}" != 1 ] && [ "${VMSIFT_ARM64_FULL:-0}" = 1 ]; then
	run_test "arm64 snapshot: a QEMU snapshot of the arm64 guest filtered as makedumpfile:arm64 filters it" \
		t_a64_snapshot
fi

# ---------------------------------------------------------------------------
# The carried 16K-page vmcore, tests/data/arm64/kdump-arm64k16-640M.vmcore.zst:
# a real /proc/vmcore of Debian's 6.12 arm64-16k kernel (bookworm-backports;
# VA_BITS=52 built, run on a CPU without LPA2, so 47-bit VA, 3 levels, and a
# PHYS_OFFSET the kernel has moved by 2^52 - 2^47; see tests/data/README.md).
# Debian's makedumpfile 1.7.2 refuses it ("PAGE SIZE 0x4000 and VA Bits 52
# not supported"), so the reference is upstream makedumpfile (1.7.9++, git
# b7587f1) built on x86_64 with TARGET=aarch64, run once by hand: the header
# and bitmap blocks of its -l -d N dumps and its --dump-dmesg output are
# carried in tests/data/arm64/kdump-arm64k16-640M.ref/.  Every case checks
# what vmsift writes for 16 KiB pages: block_size 16384 in the header, the
# bitmaps, the page descriptors (every page read back by libkdumpfile equal
# to the input's).  About a minute.

k16_name=kdump-arm64k16-640M
k16_refdir=$top/tests/data/arm64/$k16_name.ref

# k16_input: the carried 16K vmcore, decompressed once (path on stdout).
k16_input() {
	carried_input arm64 "$k16_name"
}

# k16_ref NAME: a carried reference file, decompressed (path on stdout).
k16_ref() {
	local z=$k16_refdir/$1.zst out=$a64_dir/$k16_name.ref.$1
	[ -f "$z" ] || { echo "missing $z"; return 1; }
	zstd -q -d -f -o "$out" "$z" || return 1
	echo "$out"
}

# k16_header DUMP: a kdump-compressed file written for 16 KiB pages: block
# size 16384, and the max_mapnr of the 0x1a000 16 KiB frames the input spans.
k16_header() {
	$PY - "$1" <<'PY'
import sys
import os; sys.path.insert(0, os.environ['K16_TOOLS'])
from vmcheck import Kdump
k = Kdump(sys.argv[1])
if k.block_size != 16384:
    print('FAIL: block_size %d, want 16384' % k.block_size); sys.exit(1)
if k.max_mapnr_64 != 0x1a000:
    print('FAIL: max_mapnr %#x, want 0x1a000' % k.max_mapnr_64); sys.exit(1)
PY
}
export K16_TOOLS=$top/tests/tools

# t_k16_sha: the carried file decompresses to the raw vmcore README names.
t_k16_sha() {
	carried_sha arm64 "$k16_name"
}

# t_k16_level LEVEL: vmsift -l -d LEVEL: a 16K header, bitmaps equal the
# reference's, every page equal to the input's.
t_k16_level() {
	local level=$1 in ref out
	in=$(k16_input) || return 1
	ref=$(k16_ref "d$level.head") || { echo "$ref"; return 1; }
	out=$work/out/k16.l.d$level
	rm -f "$out"
	vmsift -l -d "$level" --message-level 0 "$in" "$out" || return 1
	k16_header "$out" && $check bitmaps "$out" "$ref" "$in" && $check pages "$in" "$out"
}

# t_k16_elf: vmsift -E -d 31 holds every page it must, byte-exact, and
# the same 16 KiB frames, in memory and in the file, as the reference's
# -E -d 31 (its program headers are carried).
t_k16_elf() {
	local in ref refe out
	in=$(k16_input) || return 1
	ref=$(k16_ref d31.head) || { echo "$ref"; return 1; }
	refe=$(k16_ref E31.phdrs) || { echo "$refe"; return 1; }
	out=$work/out/k16.elf.d31
	rm -f "$out"
	vmsift -E -d 31 --message-level 0 "$in" "$out" || return 1
	$check elf "$in" "$out" 31 "$ref" &&
		(cd "$top/tests/harness" && $PY cmp_elf.py "$out" "$refe" "$in")
}

# t_k16_split: --split --splitblock-size 4096 into 3 files: 16K headers,
# the reference's pfn ranges (carried in split3.ranges), each page equal to
# the input's; --reassemble gives the file a direct -l -d 31 gives, whose
# bitmaps equal the reference's.
t_k16_split() {
	local in ref base=$work/split/k16 parts i start end want
	in=$(k16_input) || return 1
	ref=$(k16_ref d31.head) || { echo "$ref"; return 1; }
	parts=("$base.1" "$base.2" "$base.3")
	rm -f "$base".*
	vmsift --split --splitblock-size 4096 -l -d 31 --message-level 0 "$in" "${parts[@]}" || return 1
	for i in 0 1 2; do
		k16_header "${parts[$i]}" || return 1
		read -r start end < <(od -An -t u8 -j $((16384 + 80)) -N 16 "${parts[$i]}")
		want=$(sed -n "$((i + 1))p" "$k16_refdir/split3.ranges")
		[ "$start $end" = "$want" ] ||
			{ echo "file $((i + 1)): pfns $start $end, the reference's $want"; return 1; }
	done
	$check pages "$in" "${parts[@]}" || return 1
	vmsift -l -d 31 --message-level 0 "$in" "$base.direct" || return 1
	vmsift --reassemble "${parts[@]}" "$base.joined" --message-level 0 || return 1
	cmp "$base.direct" "$base.joined" && $check bitmaps "$base.joined" "$ref" "$in"
}

# t_k16_refilter: -l -d 1, re-filtered to -z -d 31: bitmaps equal the
# reference's -d 31, every page equal to the input's.
t_k16_refilter() {
	local in ref base=$work/out/k16.refilter
	in=$(k16_input) || return 1
	ref=$(k16_ref d31.head) || { echo "$ref"; return 1; }
	rm -f "$base".*
	vmsift -l -d 1 --message-level 0 "$in" "$base.d1" || return 1
	vmsift -z -d 31 --message-level 0 "$base.d1" "$base.d31" || return 1
	k16_header "$base.d31" && $check bitmaps "$base.d31" "$ref" "$in" &&
		$check pages "$in" "$base.d31"
}

# t_k16_dmesg: --dump-dmesg equals the reference's log with its caller-id
# column ("[     T0] ", which upstream prints for a PRINTK_CALLER kernel
# and 1.7.2, vmsift's model, does not) taken out.
t_k16_dmesg() {
	local in ref out
	in=$(k16_input) || return 1
	ref=$(k16_ref dmesg) || { echo "$ref"; return 1; }
	out=$work/out/k16.dmesg
	rm -f "$out"
	timeout 60 vmsift --dump-dmesg --message-level 0 "$in" "$out" || return 1
	[ -s "$out" ] || { echo "empty log"; return 1; }
	sed -E 's/^(\[ *[0-9]+\.[0-9]+\]) \[ *[TC][0-9]+\] /\1 /' "$ref" | cmp - "$out"
}

run_test "arm64 16K carried vmcore: decompresses to the sha256 tests/data/README.md names" t_k16_sha
for a64_level in 1 2 4 8 16 31; do
	# -d 1 and -d 31 by default; each page type alone (-d 2, 4, 8, 16:
	# the filter's own code, every level on x86_64 and tests/gen) with
	# VMSIFT_FULL=1
	[ $a64_level = 1 ] || [ $a64_level = 31 ] || full || continue
	run_test "arm64 16K $k16_name -l -d $a64_level: 16K header, bitmaps equal the reference's, pages equal the input" \
		t_k16_level "$a64_level"
done
run_test "arm64 16K $k16_name -E -d 31: the reference's -E frames, pages equal the input" t_k16_elf
run_test "arm64 16K $k16_name --split 3 and --reassemble: the reference's ranges, pages equal, joined equals direct" t_k16_split
run_test "arm64 16K $k16_name -d 1 re-filtered to -d 31: bitmaps equal the reference's" t_k16_refilter
run_test "arm64 16K $k16_name --dump-dmesg: the reference's log" t_k16_dmesg

# t_k16_kdump: a real kdump of the 16K kernel (tests/harness/kdump-test
# --kernel-flavour arm64-16k, the guest the carried file came from):
# vmsift-static.aarch64 on /proc/vmcore in the 16K capture kernel, mmap
# and --non-mmap, every page equal to the raw /proc/vmcore's.  The bitmap
# checks run when kdump-test finds an upstream makedumpfile for aarch64
# (tests/harness/mdf-upstream --arch arm64: MDF_ARM64_16K, or built from
# $VMSIFT_CACHE/makedumpfile-src; 1.7.2 cannot read this kernel).  About
# 2 minutes; only with VMSIFT_ARM64_FULL=1.
t_k16_kdump() {
	make -s -C "$top" vmsift-static.aarch64 2>&1 | grep -v "statically linked applications"
	[ -x "$top/vmsift-static.aarch64" ] || { echo "make vmsift-static.aarch64 failed"; return 1; }
	timeout 900 "$top/tests/harness/kdump-test" --arch arm64 --kernel-flavour arm64-16k \
		--mem 640 --crashkernel 192M --workload "-a 24 -r 64 -z 8 -t 8 -H 4 -w 4" \
		--append init_on_free=1 \
		--dump-args "-l -d 31;--non-mmap -l -d 31" --out "$work/kdump-arm64k16"
}

if [ "${VMSIFT_NO_QEMU:-0}" != 1 ] && [ "${VMSIFT_ARM64_FULL:-0}" = 1 ]; then
	run_test "arm64 16K real kdump: vmsift-static.aarch64 in a 16K capture kernel, mmap and --non-mmap, pages equal the raw vmcore" \
		t_k16_kdump
fi

# t_k16_snapshot: a live QMP snapshot of the 16K guest (mkvmcore
# --kernel-flavour arm64-16k, 256 MiB) filtered at -d 31: bitmaps equal
# those of the upstream makedumpfile MDF_ARM64_16K names, every kept page
# equal to the snapshot's.  About 40 s; with VMSIFT_ARM64_FULL=1 and
# MDF_ARM64_16K only.
t_k16_snapshot() {
	local d=$work/snap-arm64k16 rc
	rm -rf "$d" && mkdir -p "$d"
	timeout 300 "$top/tests/harness/mkvmcore" --arch arm64 --kernel-flavour arm64-16k \
		--mem 256 --work "$d/mk" "$d/snap.vmcore" || return 1
	grep -a -q 'PAGESIZE=16384' "$d/snap.vmcore" ||
		{ echo "the snapshot has no 16K VMCOREINFO"; return 1; }
	$check normalize "$d/snap.vmcore" "$d/snap.norm" || return 1
	"$MDF_ARM64_16K" -l -d 31 "$d/snap.norm" "$d/ref" > "$d/ref.log" 2>&1 ||
		{ echo "MDF_ARM64_16K failed"; tail -n 5 "$d/ref.log"; return 1; }
	vmsift -l -d 31 --message-level 0 "$d/snap.vmcore" "$d/out" || return 1
	$check bitmaps "$d/out" "$d/ref" "$d/snap.vmcore" &&
		$check pages "$d/snap.vmcore" "$d/out"
	rc=$?
	rm -rf "$d"
	return $rc
}

if [ "${VMSIFT_NO_QEMU:-0}" != 1 ] && [ "${VMSIFT_ARM64_FULL:-0}" = 1 ] &&
	[ -n "${MDF_ARM64_16K:-}" ]; then
	run_test "arm64 16K snapshot: a QEMU snapshot of the 16K guest filtered as upstream makedumpfile filters it" \
		t_k16_snapshot
fi
