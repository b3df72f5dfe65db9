# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/lib/crash_source.sh - whether the crash that
# tests/harness/crash-check runs for a newer kernel opens a raw vmcore
# of it at all, for the suites that check crash on the dumps made from
# it (dbgnew.sh, secnew.sh).  Sourced inside tests/run: uses $top.

# crash_opens_raw RAW KVER CACHE LINKDIR: whether crash (crash-check's,
# with KVER's -dbg vmlinux from CACHE) opens RAW itself, remembered per
# crash version in CACHE/dbgnew-ref/KVER/crash-VERSION.{ok,fail,log}
# (minutes to find: Debian bookworm's crash 8.0.2 opens neither 6.12's
# nor 7.x's, trixie's 8.0.6, which crash-check runs for them, opens
# both); CRASH_RAW_LOG is that log.  LINKDIR gets a link KVER.raw to
# RAW, the name crash-check writes its transcript by.
crash_opens_raw() {
	local raw=$1 kver=$2 cache=$3 mark
	mark=$cache/dbgnew-ref/$kver/crash-$(VMSIFT_CACHE=$cache KERNEL_VERSION=$kver \
		"$top/tests/harness/crash-check" --version 2>/dev/null |
		sed -n 's/^crash \([0-9.]*\).*/\1/p')
	# shellcheck disable=SC2034 # read by the suites that source this
	CRASH_RAW_LOG=$mark.log
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
