# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/lib/crash_source.sh - whether the crash that
# tests/harness/crash-check runs for a newer kernel opens a raw vmcore
# of it at all, for the suites that check crash on the dumps made from
# it (dbgnew.sh, secnew.sh); and the check that crash opens the -e and
# erased dumps of a kernel (oldkernel.sh, dbgnew.sh).  Sourced inside
# tests/run: uses $top.

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

# crash_opens_erased CACHE KVER E CFG DUMP...: crash-check (KVER's -dbg
# vmlinux from CACHE) opens every DUMP; in E's transcript (an -e dump)
# crash saw the excluded vmemmap, in CFG's (a dump whose config erases
# init_uts_ns's nodename) the nodename is X's.  E and CFG are among the
# DUMPs.  For oldkernel.sh and dbgnew.sh.
crash_opens_erased() {
	local cache=$1 kver=$2 e=$3 cfg=$4 f
	shift 4
	for f in "$@"; do
		[ -s "$f" ] || { echo "no $f (an earlier test failed)"; return 1; }
		VMSIFT_CACHE=$cache KERNEL_VERSION=$kver \
			"$top/tests/harness/crash-check" "$f" || return 1
	done
	grep -q 'EXCLUDED VMEMMAP' "$e.crash.log" ||
		{ echo "crash did not see an -e dump"; return 1; }
	grep -qE 'NODENAME: X{8}' "$cfg.crash.log" ||
		{ grep NODENAME "$cfg.crash.log"; return 1; }
}
