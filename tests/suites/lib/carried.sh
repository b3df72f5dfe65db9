# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/lib/carried.sh - helpers for the suites on a carried real-
# kernel vmcore whose reference is carried next to it (tests/data/ARCH/NAME.*:
# NAME.vmcore.zst, NAME.expected with the reference's bitmap digests,
# NAME.dmesg.zst with its --dump-dmesg output; see tests/data/README.md).
# Sourced by those suites (arm64_real.sh, ppc64le_real.sh, riscv64_real.sh,
# s390x_real.sh, the debuginfo_*.sh of those kernels), inside tests/run: uses $top, $work, $PY, $check.  SUBDIR
# is the folder under tests/data (arm64, ppc64le, riscv64, s390x), NAME
# the file name without suffix.

# carried_input SUBDIR NAME: the vmcore, decompressed once under
# $work/SUBDIR (path on stdout).
carried_input() {
	local z=$top/tests/data/$1/$2.vmcore.zst raw=$work/$1/$2.vmcore
	[ -f "$z" ] || { echo "missing $z"; return 1; }
	mkdir -p "$work/$1"
	if [ ! -f "$raw" ] || [ "$z" -nt "$raw" ]; then
		zstd -q -d --long=31 -f -o "$raw.tmp" "$z" || return 1
		mv "$raw.tmp" "$raw"
	fi
	echo "$raw"
}

# carried_in SUBDIR NAME DIR [nonote]: the vmcore (carried_input), or
# with nonote its copy without the VMCOREINFO note
# (tests/tools/strip_vmcoreinfo.py), made once as DIR/NAME.nonote and
# again when the vmcore is newer, checked to hold no such note: the input
# of the -x suites, whose DWARF must give what the note said (path on
# stdout).
carried_in() {
	local in
	in=$(carried_input "$1" "$2") || { echo "$in"; return 1; }
	[ "${4:-}" = nonote ] || { echo "$in"; return 0; }
	mkdir -p "$3"
	strip_note "$in" "$3/$2.nonote"
}

# strip_note VMCORE OUT: OUT, VMCORE without its VMCOREINFO note, made
# when missing or older than VMCORE and checked to hold no such note
# (carried_in's, and the -x suites' for a vmcore of a kdump of the run;
# path on stdout).
strip_note() {
	local in=$1 out=$2
	if [ ! -s "$out" ] || [ "$in" -nt "$out" ]; then
		$PY "$top/tests/tools/strip_vmcoreinfo.py" "$in" "$out.tmp" >&2 ||
			{ echo "cannot strip $in"; return 1; }
		# the premise of every test on it: no note left to fall back on
		! $PY "$top/tests/tools/strip_vmcoreinfo.py" --note "$out.tmp" > /dev/null 2>&1 ||
			{ echo "$out.tmp still holds a VMCOREINFO note"; return 1; }
		mv "$out.tmp" "$out"
	fi
	echo "$out"
}

# carried_sha SUBDIR NAME: the vmcore decompresses to the raw file whose
# sha256 tests/data/README.md names (in the section "## `SUBDIR/NAME...").
carried_sha() {
	local in want got
	in=$(carried_input "$1" "$2") || { echo "$in"; return 1; }
	want=$(sed -n "/^## \`$1\/$2/,/^## /s/^| sha256 of the raw file | \`\([0-9a-f]*\)\`.*/\1/p" \
		"$top/tests/data/README.md")
	got=$(sha256sum "$in" | cut -d' ' -f1)
	[ -n "$want" ] || { echo "no sha256 for $1/$2 in tests/data/README.md"; return 1; }
	[ "$want" = "$got" ] || { echo "sha256 $got, README says $want"; return 1; }
}

# carried_level SUBDIR NAME LEVEL: vmsift -l -d LEVEL; the bitmaps' digest
# (tests/gen/arm64/digest.py) equals the carried reference's, every page
# equal to the input's (libkdumpfile reads the dump).
carried_level() {
	local in d=$work/out/$1-digest
	in=$(carried_input "$1" "$2") || { echo "$in"; return 1; }
	mkdir -p "$d"
	rm -f "$d/$2.d$3"
	vmsift -l -d "$3" --message-level 0 "$in" "$d/$2.d$3" || return 1
	$PY "$top/tests/gen/arm64/digest.py" --check "$top/tests/data/$1/$2.expected" \
		"$d/$2.d$3" && $check pages "$in" "$d/$2.d$3"
}

# carried_dmesg SUBDIR NAME [SED]: vmsift --dump-dmesg equals the carried
# reference log, passed through sed SED first when given.
carried_dmesg() {
	local in ref=$work/$1/$2.ref.dmesg out=$work/out/$1.dmesg
	in=$(carried_input "$1" "$2") || { echo "$in"; return 1; }
	zstd -q -d -f -o "$ref" "$top/tests/data/$1/$2.dmesg.zst" || return 1
	rm -f "$out"
	timeout 60 vmsift --dump-dmesg --message-level 0 "$in" "$out" || return 1
	[ -s "$out" ] || { echo "empty log"; return 1; }
	sed -E "${3:-}" "$ref" | cmp - "$out"
}

# carried_digest EXPECTED DUMP: DUMP's digest (max_mapnr and both bitmaps,
# tests/gen/arm64/digest.py) equals EXPECTED's line of its name.
carried_digest() {
	$PY "$top/tests/gen/arm64/digest.py" --check "$1" "$2"
}

# carried_dmesg_cmp REF OUT: OUT equals the reference log REF less its
# caller-id column ("[      T0] " after the time stamp, which upstream
# makedumpfile prints and 1.7.2, vmsift's model, does not).
carried_dmesg_cmp() {
	[ -s "$2" ] || { echo "empty log"; return 1; }
	sed -E 's/^(\[ *[0-9]+\.[0-9]+\]) \[ *[TC][0-9]+\] /\1 /' "$1" | cmp - "$2"
}
