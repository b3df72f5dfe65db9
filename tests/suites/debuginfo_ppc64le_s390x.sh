# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/debuginfo_ppc64le_s390x.sh - -x VMLINUX, -g and --config
# with -x on the carried ppc64le (little-endian, 64K pages, radix and
# hash MMU) and s390x (big-endian) vmcores, with the -dbg vmlinux of
# their kernels (issue #13; doc/debuginfo.md and doc/erase.md, "Other
# architectures").  Sourced by tests/run.
#
# The -dbg vmlinux of each kernel (Debian's 6.1.0-57-powerpc64le and
# 6.1.0-50-s390x) is fetched once into $VMSIFT_CACHE (tests/harness/
# lib.sh's fetch_dbg_vmlinux: about 1 minute each on a clean checkout).
# The reference is Debian's makedumpfile 1.7.2 of that architecture under
# qemu-user (tests/harness/mdf-debian: minutes a run), carried as text and
# digests in tests/data/debuginfo-ppc64le-s390x/ (its README.md says how each was
# made).  For each architecture:
#   -g equals makedumpfile:ARCH -g but for doc/debuginfo.md's keys
#   (tests/tools/cmp_vmcoreinfo.py, the dump's own note as the truth);
#   -x beside the note, -d 31: the bitmaps of makedumpfile:ARCH -x;
#   -x on the vmcore stripped of its note (tests/tools/strip_vmcoreinfo.py):
#   the bitmaps of the dump with its note at -d 1 and 31, every page read
#   back, and --dump-dmesg gives the carried log;
#   --config tests/data/debuginfo-ppc64le-s390x/ARCH.conf with -x, kdump (-l) and
#   ELF (-E) output: every page after decompression and the eraseinfo
#   equal to makedumpfile:ARCH's (tests/tools/confdiff.py digests);
#   the BTF form of a rule is refused, naming why (the kernels have no
#   BTF reachable from kallsyms), and a vmlinux of the other machine is
#   refused with exit status 2.
# About 1 minute per architecture once the -dbg vmlinux is extracted.
# VMSIFT_ARCHDBG_MDF=1 runs makedumpfile:ARCH now (about 15 minutes per
# architecture on 2 shared cores; cached in tests/work/ref) and checks
# that it still gives the carried text and digests.

dps_dir=$work/dbgarch
dps_data=$top/tests/data/debuginfo-ppc64le-s390x
dps_cache=${VMSIFT_CACHE:-$top/tests/work/cache}
mkdir -p "$dps_dir" "$work/ref"
# shellcheck source=tests/suites/lib/carried.sh
. "$top/tests/suites/lib/carried.sh"

# dps_vmlinux DEBARCH KVER: the -dbg vmlinux of KVER, fetched once.
dps_vmlinux() {
	( set -e
	  export VMSIFT_CACHE=$dps_cache
	  # shellcheck source=/dev/null
	  . "$top/tests/harness/lib.sh"
	  set_arch "$1"
	  fetch_dbg_vmlinux "$2" >&2
	  echo "$DBG_VMLINUX" )
}

# t_dps_g SUB NAME ARCH VMLINUX: vmsift -g equals makedumpfile:ARCH's
# carried -g text; the dump's note is the truth for the exempt keys.
t_dps_g() {
	local in out=$dps_dir/$3.g
	in=$(carried_input "$1" "$2") || { echo "$in"; return 1; }
	rm -f "$out"
	vmsift -g "$out" -x "$4" > /dev/null || return 1
	$PY "$top/tests/tools/strip_vmcoreinfo.py" --note "$in" > "$out.note" || return 1
	$PY "$top/tests/tools/cmp_vmcoreinfo.py" "$dps_data/$3.mdf.g" "$out" "$out.note"
}

# t_dps_x_note SUB NAME VMLINUX: -x beside the note, -d 31: the digest of
# makedumpfile:ARCH -x -l -d 31's bitmaps (NAME.x31 in ARCH's .expected).
t_dps_x_note() {
	local in out=$dps_dir/$2.x31
	in=$(carried_input "$1" "$2") || { echo "$in"; return 1; }
	rm -f "$out"
	vmsift -l -d 31 --message-level 0 -x "$3" "$in" "$out" || return 1
	$PY "$top/tests/gen/arm64/digest.py" --check "$dps_data/x31.expected" "$out"
}

# t_dps_x_stripped SUB NAME VMLINUX LEVEL: -x on the vmcore without its
# note: the bitmaps of the dump with the note, every page read back.
t_dps_x_stripped() {
	local in nonote with=$dps_dir/$2.with$4 without=$dps_dir/$2.without$4
	in=$(carried_input "$1" "$2") || { echo "$in"; return 1; }
	nonote=$(carried_in "$1" "$2" "$dps_dir" nonote) || { echo "$nonote"; return 1; }
	rm -f "$with" "$without"
	vmsift -l -d "$4" --message-level 0 "$in" "$with" || return 1
	vmsift -l -d "$4" --message-level 0 -x "$3" "$nonote" "$without" || return 1
	$check pages "$in" "$without" && $check bitmaps "$without" "$with" "$in"
}

# t_dps_dmesg SUB NAME VMLINUX: --dump-dmesg -x on the vmcore without its
# note is the carried log (makedumpfile:ARCH's, with the note).
t_dps_dmesg() {
	local nonote out=$dps_dir/$2.dmesg
	nonote=$(carried_in "$1" "$2" "$dps_dir" nonote) || { echo "$nonote"; return 1; }
	rm -f "$out"
	timeout 60 vmsift --dump-dmesg --message-level 0 -x "$3" "$nonote" "$out" || return 1
	[ -s "$out" ] || { echo "empty log"; return 1; }
	zstd -q -d -c "$top/tests/data/$1/$2.dmesg.zst" | cmp - "$out"
}

# t_dps_config SUB NAME ARCH VMLINUX FORMAT: --config ARCH.conf with -x,
# -l (FORMAT kd) or -E (elf), -d 31: the pages and eraseinfo of
# makedumpfile:ARCH's dump (its carried digest NAME.cfg.FORMAT.mdf.dg).
t_dps_config() {
	local in out=$dps_dir/$2.cfg.$5 fmt=-l
	in=$(carried_input "$1" "$2") || { echo "$in"; return 1; }
	[ "$5" = elf ] && fmt=-E
	rm -f "$out"
	vmsift $fmt -d 31 --message-level 0 -x "$4" --config "$dps_data/$3.conf" "$in" "$out" ||
		return 1
	$PY "$top/tests/tools/confdiff.py" check "$in" "$out" "$dps_data/$2.cfg.$5.mdf.dg"
}

# t_dps_refused SUB NAME OTHER-VMLINUX: a BTF-form rule without -x is
# refused, naming the missing BTF; the other machine's vmlinux, exit 2.
t_dps_refused() {
	local in nonote out=$dps_dir/$2.refused rc
	in=$(carried_input "$1" "$2") || { echo "$in"; return 1; }
	nonote=$(carried_in "$1" "$2" "$dps_dir" nonote) || { echo "$nonote"; return 1; }
	printf 'erase init_uts_ns:uts_namespace.name.nodename\n' > "$out.conf"
	rm -f "$out"
	vmsift --config "$out.conf" -l -d 31 "$in" "$out" > "$out.log" 2>&1
	rc=$?
	[ $rc = 1 ] && ! [ -e "$out" ] || { echo "BTF rule: exit status $rc"; return 1; }
	grep -q "cannot find the kernel's BTF.*'__start_BTF' is not in the kernel's kallsyms" "$out.log" ||
		{ cat "$out.log"; return 1; }
	vmsift -x "$3" -l -d 31 "$nonote" "$out" > "$out.log" 2>&1
	rc=$?
	[ $rc = 2 ] && ! [ -e "$out" ] || { echo "other machine: exit status $rc"; return 1; }
	grep -q "does not match the dump: its ELF machine is" "$out.log" || { cat "$out.log"; return 1; }
}

# t_dps_moved SUB NAME VMLINUX: the vmcore without its note and with its
# utsname at the linked init_uts_ns spoilt (as if the kernel ran
# elsewhere, relocated): refused with exit status 2, naming the segment
# read, never a guess.
t_dps_moved() {
	local in nonote out=$dps_dir/$2.moved uts rc
	in=$(carried_input "$1" "$2") || { echo "$in"; return 1; }
	nonote=$(carried_in "$1" "$2" "$dps_dir" nonote) || { echo "$nonote"; return 1; }
	uts=$($PY "$top/tests/tools/strip_vmcoreinfo.py" --note "$in" |
		sed -n 's/^SYMBOL(init_uts_ns)=//p')
	$PY - "$nonote" "$out.vmcore" "$uts" "$top/tests/tools" <<-'EOF' || return 1
		import shutil, sys
		sys.path.insert(0, sys.argv[4])
		import vmcheck
		src, dst, va = sys.argv[1], sys.argv[2], int(sys.argv[3], 16)
		off = next(o + va - v for _, _, f, o, v in vmcheck.Elf(src).loads
		           if v <= va < v + f)
		shutil.copyfile(src, dst)
		with open(dst, 'r+b') as f:
		    f.seek(off)
		    f.write(b'X')
	EOF
	rm -f "$out"
	vmsift -x "$3" -l -d 31 "$out.vmcore" "$out" > "$out.log" 2>&1
	rc=$?
	rm -f "$out.vmcore"
	[ $rc = 2 ] && ! [ -e "$out" ] || { echo "exit status $rc"; cat "$out.log"; return 1; }
	grep -q "does not match the dump: .*kernel image (at 0x[0-9a-f]*) holds no utsname" "$out.log" ||
		{ cat "$out.log"; return 1; }
}

# dps_mdf DEBARCH OUT ARGS...: makedumpfile:DEBARCH ARGS with the output
# file last, run once into tests/work/ref/dbgarch-OUT (path on stdout).
dps_mdf() {
	local debarch=$1 ref=$work/ref/dbgarch-$2
	shift 2
	if [ ! -s "$ref" ]; then
		rm -f "$ref.tmp"
		timeout 1800 "$top/tests/harness/mdf-debian" "$debarch" "$@" "$ref.tmp" > "$ref.log" 2>&1 ||
			{ echo "makedumpfile:$debarch $* failed:" >&2; tail -n 5 "$ref.log" >&2; return 1; }
		mv "$ref.tmp" "$ref"
	fi
	echo "$ref"
}

# t_dps_live SUB ARCH DEBARCH VMLINUX NAME...: makedumpfile:DEBARCH, run
# now, gives the carried -g text, and the -x and --config digests of each
# NAME.
t_dps_live() {
	local sub=$1 arch=$2 debarch=$3 vml=$4 in ref name f fmt
	shift 4
	ref=$(dps_mdf "$debarch" "$arch.g" -x "$vml" -g) || return 1
	cmp "$ref" "$dps_data/$arch.mdf.g" || { echo "-g: not the carried text"; return 1; }
	mkdir -p "$dps_dir/live"
	for name in "$@"; do
		in=$(carried_input "$sub" "$name") || { echo "$in"; return 1; }
		ref=$(dps_mdf "$debarch" "$name.x31" -l -d 31 -x "$vml" "$in") || return 1
		cp "$ref" "$dps_dir/live/$name.x31"
		$PY "$top/tests/gen/arm64/digest.py" --check "$dps_data/x31.expected" \
			"$dps_dir/live/$name.x31" || return 1
		for f in kd elf; do
			fmt=-l
			[ $f = elf ] && fmt=-E
			ref=$(dps_mdf "$debarch" "$name.cfg.$f" $fmt -d 31 -x "$vml" \
				--config "$dps_data/$arch.conf" "$in") || return 1
			$PY "$top/tests/tools/confdiff.py" check "$in" "$ref" \
				"$dps_data/$name.cfg.$f.mdf.dg" ||
				{ echo "$name --config $f: not the carried digest"; return 1; }
		done
	done
}

# dps_arch ARCH DEBARCH KVER OTHER-DEBARCH OTHER-KVER SUB NAME...: the
# tests of ARCH's vmlinux on its carried vmcores NAME... (tests/data/SUB);
# -g's truth and the refusals on the first.
dps_arch() {
	local arch=$1 debarch=$2 kver=$3 other=$4 okver=$5 sub=$6 vml ovml name level
	shift 6
	if ! vml=$(dps_vmlinux "$debarch" "$kver" 2>&1 | tail -n 1) || [ ! -f "$vml" ]; then
		run_test "debuginfo $arch: the -dbg vmlinux $kver is fetched" false
		return
	fi
	run_test "debuginfo $arch: -g of the $kver -dbg vmlinux equals makedumpfile:$debarch 1.7.2's but for upstream's keys" \
		t_dps_g "$sub" "$1" "$arch" "$vml"
	for name in "$@"; do
		run_test "debuginfo $arch $name: -x beside the VMCOREINFO note, -d 31: bitmaps equal makedumpfile:$debarch -x's" \
			t_dps_x_note "$sub" "$name" "$vml"
		for level in 1 31; do
			run_test "debuginfo $arch $name: -x on the vmcore stripped of VMCOREINFO, -d $level: bitmaps equal the note's, pages read back" \
				t_dps_x_stripped "$sub" "$name" "$vml" "$level"
		done
		run_test "debuginfo $arch $name: --dump-dmesg -x on the vmcore stripped of VMCOREINFO equals makedumpfile:$debarch's log" \
			t_dps_dmesg "$sub" "$name" "$vml"
		for level in kd elf; do
			run_test "debuginfo $arch $name: --config $arch.conf with -x ($level): makedumpfile:$debarch's erased pages and eraseinfo" \
				t_dps_config "$sub" "$name" "$arch" "$vml" "$level"
		done
	done
	run_test "debuginfo $arch $1: -x without the note, the utsname at its link address spoilt: refused, exit status 2" \
		t_dps_moved "$sub" "$1" "$vml"
	if ovml=$(dps_vmlinux "$other" "$okver" 2>&1 | tail -n 1) && [ -f "$ovml" ]; then
		run_test "debuginfo $arch $1: a BTF rule is refused (no BTF), the $okver vmlinux with exit status 2" \
			t_dps_refused "$sub" "$1" "$ovml"
	fi
	if [ "${VMSIFT_ARCHDBG_MDF:-0}" = 1 ]; then
		run_test "debuginfo $arch: makedumpfile:$debarch under qemu-user gives the carried -g text and digests (VMSIFT_ARCHDBG_MDF)" \
			t_dps_live "$sub" "$arch" "$debarch" "$vml" "$@"
	fi
}

if [ "${VMSIFT_NO_DBG:-0}" = 1 ]; then
	log "# skipped: debuginfo on ppc64le and s390x (VMSIFT_NO_DBG=1)"
else
	dps_arch ppc64le ppc64el 6.1.0-57-powerpc64le s390x 6.1.0-50-s390x ppc64le \
		kdump-ppc64le-radix-768M kdump-ppc64le-hash-768M
	dps_arch s390x s390x 6.1.0-50-s390x ppc64el 6.1.0-57-powerpc64le s390x \
		snapshot-s390x-512M
fi
