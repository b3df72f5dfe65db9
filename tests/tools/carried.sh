# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tools/carried.sh - helpers for the suites that check a carried real
# vmcore of another architecture (tests/data/ARCH/NAME.vmcore.zst, which
# tests/run's x86_64 loop leaves alone).  Sourced by those suites, after
# tests/run has set $top, $work and $PY.

# carried_input SUBDIR NAME: tests/data/SUBDIR/NAME.vmcore.zst decompressed
# once into $work/SUBDIR/NAME.vmcore (path on stdout).
carried_input() {
	local z=$top/tests/data/$1/$2.vmcore.zst raw=$work/$1/$2.vmcore
	[ -f "$z" ] || { echo "missing $z"; return 1; }
	if [ ! -f "$raw" ] || [ "$z" -nt "$raw" ]; then
		mkdir -p "$work/$1"
		zstd -q -d --long=31 -f -o "$raw.tmp" "$z" || return 1
		mv "$raw.tmp" "$raw"
	fi
	echo "$raw"
}

# carried_sha SUBDIR NAME: the carried file decompresses to the raw file
# whose sha256 tests/data/README.md gives in NAME's section.
carried_sha() {
	local in want got
	in=$(carried_input "$1" "$2") || { echo "$in"; return 1; }
	want=$(sed -n "/^## \`$1\/$2/,/^## /s/^| sha256 of the raw file | \`\([0-9a-f]*\)\`.*/\1/p" \
		"$top/tests/data/README.md")
	got=$(sha256sum "$in" | cut -d' ' -f1)
	[ -n "$want" ] || { echo "no sha256 for $1/$2 in tests/data/README.md"; return 1; }
	[ "$want" = "$got" ] || { echo "sha256 $got, README says $want"; return 1; }
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
