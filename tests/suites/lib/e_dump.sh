# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/lib/e_dump.sh - sourced by the suites that check -e
# against makedumpfile's -e --work-dir on a real vmcore (dbgnew.sh,
# oldkernel.sh).

# e_dump_check REF RAW OUT: vmsift -l -d 31 -e of RAW into OUT reads back
# RAW's pages and has the bitmaps of REF, makedumpfile's -e dump of RAW.
e_dump_check() {
	local ref=$1 raw=$2 out=$3
	rm -f "$out"
	vmsift -l -d 31 -e --message-level 0 "$raw" "$out" || return 1
	$check pages "$raw" "$out" || return 1
	$check bitmaps "$out" "$ref" "$raw"
}
