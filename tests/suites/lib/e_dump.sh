# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/lib/e_dump.sh - sourced by the suites that check -e
# against makedumpfile's -e --work-dir on a real vmcore (dbgnew.sh,
# oldkernel.sh).

# e_dump_check REF PLAIN RAW OUT: vmsift -l -d 31 -e of RAW into OUT
# reads back RAW's pages, leaves out only pages of struct pages of
# excluded pfns (tests/tools/vmemmap_check.py: drgn, nothing of vmsift's)
# and has the bitmaps of REF, makedumpfile's -e dump of RAW (its log
# REF.log; PLAIN its -l -d 31 dump without -e).
#
# makedumpfile's x86_64 vmemmap walk (find_vmemmap_x86_64 of upstream at
# b7587f1; Debian's 1.7.2 source not read) starts at the first populated PUD of the vmemmap's PGD
# slot, not at vmemmap_base's own: where KASLR put vmemmap_base after
# another populated PUD of that slot, it reads that PUD's PMDs and drops
# the wrong pages (7.3.4's kdump of 4 December 2026: vmemmap_base
# 0xfffff27bc0000000, pud 495, walked from pud 108; pfns 0x5-0x3f and 90
# more of low memory left out, the true struct pages kept).  Where the
# bitmaps differ and REF fails vmemmap_check.py itself (against PLAIN),
# the test says so and holds OUT to the count of struct-page pages REF's
# log says it excluded (counted from the pfns they describe, which it
# finds right) instead.
e_dump_check() {
	local ref=$1 plain=$2 raw=$3 out=$4 ours theirs
	rm -f "$out" "$out.plain"
	vmsift -l -d 31 -e --message-level 0 "$raw" "$out" || return 1
	vmsift -l -d 31 --message-level 0 "$raw" "$out.plain" || return 1
	$check pages "$raw" "$out" || return 1
	ours=$($PY "$top/tests/tools/vmemmap_check.py" "$raw" "$out.plain" "$out") ||
		{ echo "$ours"; return 1; }
	echo "$ours"
	$check bitmaps "$out" "$ref" "$raw" > "$out.bitmaps" && { cat "$out.bitmaps"; return 0; }
	cat "$out.bitmaps"
	$PY "$top/tests/tools/vmemmap_check.py" "$raw" "$plain" "$ref" > "$out.refcheck" &&
		{ echo "makedumpfile's -e dump passes vmemmap_check.py: the bitmaps must be equal"; return 1; }
	echo "makedumpfile's -e dump is wrong on this vmcore (its vmemmap walk):" \
		"$(cat "$out.refcheck")"
	theirs=$(tr '\r' '\n' < "$ref.log" | sed -n 's/^Excluded \([0-9]*\) unused vmemmap pages$/\1/p')
	[ -n "$theirs" ] || { echo "no 'Excluded N unused vmemmap pages' in $ref.log"; return 1; }
	ours=${ours#ok: }
	[ "${ours%% *}" = "$theirs" ] ||
		{ echo "makedumpfile counted $theirs struct-page pages to leave out"; return 1; }
}
