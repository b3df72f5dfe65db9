# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/lib/crash_source.sh - whether Debian's crash opens a raw
# vmcore of a newer kernel at all, for the suites that check crash on
# the dumps made from it (dbgnew.sh, secnew.sh).  Sourced inside
# tests/run: uses $top.

# crash_opens_raw RAW KVER CACHE LINKDIR: whether crash (with KVER's -dbg
# vmlinux from CACHE) opens RAW itself, remembered per crash version in
# CACHE/dbgnew-ref/KVER/crash-VERSION.{ok,fail,log} (minutes to find:
# Debian's crash 8.0.2, gdb 10.2, does not open 6.12's); LINKDIR gets a
# link KVER.raw to RAW, the name crash-check writes its transcript by.
crash_opens_raw() {
	local raw=$1 kver=$2 cache=$3 mark
	mark=$cache/dbgnew-ref/$kver/crash-$(crash --version 2>/dev/null |
		sed -n 's/^crash \([0-9.]*\).*/\1/p' | head -n1)
	mkdir -p "$(dirname "$mark")"
	if [ ! -f "$mark.ok" ] && [ ! -f "$mark.fail" ]; then
		ln -sf "$raw" "$4/$kver.raw"
		if VMSIFT_CACHE=$cache KERNEL_VERSION=$kver \
			"$top/tests/harness/crash-check" "$4/$kver.raw" > "$mark.log" 2>&1; then
			touch "$mark.ok"
		else
			touch "$mark.fail"
		fi
	fi
	[ -f "$mark.ok" ]
}
