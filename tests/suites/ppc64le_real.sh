# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/ppc64le_real.sh - vmsift on a real ppc64le kernel.  Sourced
# by tests/run.
#
# Two carried vmcores, tests/data/ppc64le/kdump-ppc64le-{radix,hash}-768M
# .vmcore.zst: real /proc/vmcores of Debian's 6.1 powerpc64le kernel (64K
# pages) under qemu-system-ppc64 -M pseries, one with the radix MMU (-cpu
# POWER9; vmsift walks its radix tables for the struct pages), one with the
# hash MMU (-cpu POWER8; vmemmap through vmemmap_list); see
# tests/data/README.md.  The reference is Debian's makedumpfile:ppc64el
# (1.7.2): the digests of its -l -d N bitmaps (tests/gen/arm64/digest.py)
# and its --dump-dmesg output are carried next to each vmcore, and one live
# run of it under qemu-ppc64le-static (tests/harness/mdf-ppc64el, cached in
# tests/work/ref) proves the carried digests and log.  On each vmcore,
# vmsift's kdump output (lzo) at -d 1, 2, 4, 8, 16 and 31 has the
# reference's bitmaps, every page equal to the input's, read back by
# libkdumpfile; -E -d 31 holds what makedumpfile -E holds; --dump-dmesg is
# byte-identical to makedumpfile's; libkdumpfile translates a kernel
# address through vmsift's dump and drgn reads it.  About 1 1/2 minutes
# (3 1/2 before the live references are cached in tests/work/ref).
#
# VMSIFT_PPC64_FULL=1 (and not VMSIFT_NO_QEMU=1) adds two real kdumps
# under qemu-system-ppc64 -M pseries (TCG), one with the radix MMU
# (-cpu POWER9), one with the hash MMU (-cpu POWER8): vmsift-static.ppc64le
# on /proc/vmcore in the ppc64le capture kernel at -d 1 to 31, mmap and
# --non-mmap, kdump, ELF and flattened, every dump checked on the host
# against the raw /proc/vmcore and makedumpfile:ppc64el's bitmaps
# (tests/harness/kdump-test --arch ppc64le).  About 6 1/2 minutes for both.

p64_data=$top/tests/data/ppc64le
p64_mdf=$top/tests/harness/mdf-ppc64el
mkdir -p "$work/ppc64le" "$work/ref"
. "$top/tests/suites/lib/carried.sh"

# p64_ref NAME ARGS...: makedumpfile:ppc64el's output for ARGS on the
# carried vmcore NAME, made under qemu-user once and cached (path on stdout).
p64_ref() {
	local name=$1 in ref
	shift
	in=$(carried_input ppc64le "$name") || { echo "$in"; return 1; }
	ref=$work/ref/$name.mdf-ppc64el$(printf '%s' "$*" | tr -c 'a-zA-Z0-9' _)
	if [ ! -f "$ref" ]; then
		rm -f "$ref.tmp"
		timeout 300 "$p64_mdf" "$@" "$in" "$ref.tmp" > "$ref.log" 2>&1 ||
			{ echo "makedumpfile:ppc64el $* failed:"; tail -n 5 "$ref.log"; return 1; }
		mv "$ref.tmp" "$ref"
	fi
	echo "$ref"
}

# t_p64_live_ref NAME: makedumpfile:ppc64el, run now under qemu-user, writes the
# -d 31 bitmaps and the log whose digest and text are carried.
t_p64_live_ref() {
	local name=$1 ref dmesg d=$work/out/p64-live
	ref=$(p64_ref "$name" -l -d 31) || { echo "$ref"; return 1; }
	dmesg=$(p64_ref "$name" --dump-dmesg) || { echo "$dmesg"; return 1; }
	mkdir -p "$d"
	cp "$ref" "$d/$name.d31"
	carried_digest "$p64_data/$name.expected" "$d/$name.d31" || return 1
	zstd -q -d -c "$p64_data/$name.dmesg.zst" | cmp - "$dmesg"
}

# t_p64_level NAME LEVEL: vmsift -l -d LEVEL; the bitmaps' digest equals the
# reference's, every page equal to the input's (libkdumpfile reads it).
t_p64_level() {
	local name=$1 level=$2 in d=$work/out/p64-digest
	in=$(carried_input ppc64le "$name") || { echo "$in"; return 1; }
	mkdir -p "$d"
	rm -f "$d/$name.d$level"
	vmsift -l -d "$level" --message-level 0 "$in" "$d/$name.d$level" || return 1
	carried_digest "$p64_data/$name.expected" "$d/$name.d$level" &&
		$check pages "$in" "$d/$name.d$level"
}

# t_p64_live_bitmaps NAME: vmsift -l -d 31's bitmaps equal those of the live
# reference run, compared bit by bit (cmp_bitmap.py names the first pfns
# that differ, which a digest cannot).
t_p64_live_bitmaps() {
	local name=$1 in ref out=$work/out/p64.l.d31
	in=$(carried_input ppc64le "$name") || { echo "$in"; return 1; }
	ref=$(p64_ref "$name" -l -d 31) || { echo "$ref"; return 1; }
	vmsift -l -d 31 --message-level 0 "$in" "$out" || return 1
	(cd "$top/tests/harness" && $PY cmp_bitmap.py "$out" "$ref" "$in")
}

# t_p64_elf NAME: vmsift -E -d 31 holds every page it must, byte-exact, and the
# same memory ranges as makedumpfile:ppc64el -E -d 31.
t_p64_elf() {
	local name=$1 in ref refe out=$work/out/p64.elf.d31
	in=$(carried_input ppc64le "$name") || { echo "$in"; return 1; }
	ref=$(p64_ref "$name" -l -d 31) || { echo "$ref"; return 1; }
	refe=$(p64_ref "$name" -E -d 31) || { echo "$refe"; return 1; }
	vmsift -E -d 31 --message-level 0 "$in" "$out" || return 1
	$check elf "$in" "$out" 31 "$ref" &&
		(cd "$top/tests/harness" && $PY cmp_elf.py "$out" "$refe" "$in")
}

# t_p64_dmesg NAME: --dump-dmesg is byte-identical to makedumpfile:ppc64el's
# (the carried log, which t_p64_live_ref proves).
t_p64_dmesg() {
	local name=$1 in ref out=$work/out/p64.dmesg
	ref=$work/ppc64le/$name.ref.dmesg
	in=$(carried_input ppc64le "$name") || { echo "$in"; return 1; }
	zstd -q -d -f -o "$ref" "$p64_data/$name.dmesg.zst" || return 1
	rm -f "$out"
	timeout 60 vmsift --dump-dmesg --message-level 0 "$in" "$out" || return 1
	[ -s "$out" ] || { echo "empty log"; return 1; }
	cmp "$ref" "$out"
}

# t_p64_readers NAME: libkdumpfile, reading vmsift's -d 31 dump of the
# carried vmcore NAME, translates init_uts_ns (in the linear map) and
# finds the release VMCOREINFO names; drgn opens the dump and reads the
# same bytes.
t_p64_readers() {
	local name=$1 in out=$work/out/p64.kv.d31
	in=$(carried_input ppc64le "$name") || { echo "$in"; return 1; }
	vmsift -l -d 31 --message-level 0 "$in" "$out" || return 1
	$PY "$top/tests/tools/uts_release.py" "$out" --arch ppc64 --drgn
}

for p64_name in kdump-ppc64le-radix-768M kdump-ppc64le-hash-768M; do
	run_test "ppc64le real $p64_name: carried vmcore decompresses to the sha256 tests/data/README.md names" \
		carried_sha ppc64le "$p64_name"
	run_test "ppc64le real $p64_name: makedumpfile:ppc64el under qemu-user gives the carried -d 31 digest and log" \
		t_p64_live_ref "$p64_name"
	for p64_level in 1 2 4 8 16 31; do
		# -d 1 and -d 31 by default; each page type alone (-d 2, 4, 8, 16:
		# the filter's own code, every level on x86_64 and tests/gen) with
		# VMSIFT_FULL=1
		[ $p64_level = 1 ] || [ $p64_level = 31 ] || full || continue
		run_test "ppc64le real $p64_name -l -d $p64_level: bitmaps equal makedumpfile:ppc64el's, pages equal the input" \
			t_p64_level "$p64_name" "$p64_level"
	done
	run_test "ppc64le real $p64_name -l -d 31: bitmaps equal the live makedumpfile:ppc64el run's" \
		t_p64_live_bitmaps "$p64_name"
	run_test "ppc64le real $p64_name -E -d 31: ranges of makedumpfile:ppc64el -E, pages equal the input" \
		t_p64_elf "$p64_name"
	run_test "ppc64le real $p64_name --dump-dmesg: byte-identical to makedumpfile:ppc64el's" \
		t_p64_dmesg "$p64_name"
	run_test "ppc64le real $p64_name -d 31: libkdumpfile translates init_uts_ns, drgn reads it" \
		t_p64_readers "$p64_name"
done

# t_p64_kdump MMU: the real kdump, radix or hash (see the header).
t_p64_kdump() {
	local log rc
	log=$(make -s -C "$top" vmsift-static.ppc64le 2>&1)
	rc=$?
	grep -v "statically linked applications" <<<"$log"
	[ $rc -eq 0 ] && [ -x "$top/vmsift-static.ppc64le" ] ||
		{ echo "make vmsift-static.ppc64le failed"; return 1; }
	# The first boot takes 60-110 s under TCG on a quiet machine; on the
	# shared 2-core one (load ~20) the radix guest was still booting
	# (27 s of guest time) at kdump-test's default 120 s: 420 s here.
	T_BOOT=${T_BOOT:-420} T_CAPTURE=${T_CAPTURE:-300} \
	timeout 1800 "$top/tests/harness/kdump-test" --arch ppc64le --mmu "$1" --mem 768 \
		--crashkernel 256M --append init_on_free=1 \
		--dump-args "-l -d 31;--non-mmap -z -d 31;-E -d 31;-F -l -d 1;-l -d 2;-l -d 4;-l -d 8;-l -d 16" \
		--out "$work/kdump-ppc64le-$1"
}

if [ "${VMSIFT_PPC64_FULL:-0}" = 1 ] && [ "${VMSIFT_NO_QEMU:-0}" != 1 ]; then
	run_test "ppc64le real kdump, radix (POWER9): vmsift-static.ppc64le in the capture kernel, -d 1..31, checked against the raw vmcore and makedumpfile:ppc64el" \
		t_p64_kdump radix
	run_test "ppc64le real kdump, hash (POWER8): vmsift-static.ppc64le in the capture kernel, -d 1..31, checked against the raw vmcore and makedumpfile:ppc64el" \
		t_p64_kdump hash
else
	log "# skipped: the real ppc64le kdumps under QEMU (VMSIFT_PPC64_FULL=1 runs them)"
fi
