# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/mkbig.sh - the generator of bench/mkscale's terabyte series
# (tests/gen/mkbig.c, issue #17), at 4 GiB so that it cannot rot: the
# vmcore it makes is read by makedumpfile 1.7.2 and by vmsift, their
# bitmaps must be equal, every page of vmsift's dump must equal the
# input's (libkdumpfile), and the excluded-page counters of both tools
# must be the generator's own count of each kind of page it wrote.
# About 20 s; 200 MB on disk.  Sourced by tests/run.
#
# VMSIFT_MKBIG_SIZES="64 256 1024" (GiB) adds the series' big members, one
# test each, made in VMSIFT_MKBIG_DIR (default tests/work/mkbig) unless
# there already and removed after their test (VMSIFT_KEEP=1 keeps them):
# vmsift's -l -d 31 dump byte for byte makedumpfile's (so both bitmaps
# and every kept page), the counters the generator's; at 64 GiB and below
# also -d 1; at -d 31 and up to 64 GiB every kept page read back by
# libkdumpfile (its Python loop over every pfn takes 3 minutes at 64 GiB,
# an hour at 1 TiB).
# Each dump's wall and CPU seconds go to tests/work/mkbig/results.  The
# 1 TiB member takes 21.4 GiB of disk and about 35 minutes on 2 vCPUs
# (doc/performance.md, "The terabyte series").

mkbig_in=$work/mkbig/big-4G.vmcore

mkbig_input() {
	[ -f "$mkbig_in" ] && [ "$mkbig_in" -nt "$top/tests/gen/mkbig.c" ] && return 0
	make -s -C "$top" tests/gen/mkbig || return 1
	mkdir -p "$work/mkbig"
	"$top/tests/gen/mkbig" "$mkbig_in.tmp" 4 > "$work/mkbig/counts" || return 1
	mv "$mkbig_in.tmp" "$mkbig_in"
}

# "NAME COUNT" lines of a --message-level 31 report's excluded counters.
mkbig_counters() {
	sed -n 's/^ *\(Pages filled with zero\|Non-private cache pages\|Private cache pages\|User process data pages\|Free pages\) *: *0x\([0-9a-f]*\)$/\1 \2/p' "$1" |
		while read -r line; do
			echo "${line% *} $((16#${line##* }))"
		done
}

# vmsift's RATE lines (vmsift_rates) against what is known of the dump:
# the scan read the struct pages of every present section (the pages the
# generator filled with them, plus at most 1 % read twice at batch ends),
# the codec got every page with data in the dump, and no more than the
# file's size was written.
mkbig_rates() {
	$PY - "$1" "$2" "$3" <<'EOF'
import os, re, sys
log, counts, dump = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
def rate(name):
    m = re.search(r'^RATE \[%s *\] : (\d+) bytes' % re.escape(name), log, re.M)
    if not m:
        sys.exit('no RATE line for %s' % name)
    return int(m.group(1))
memmap = int(re.search(r'struct page array +(\d+)', counts).group(1)) * 4096
# "Remaining pages" (makedumpfile's report) counts the pages beyond a
# PT_LOAD's p_filesz, which no dump holds
nodata = re.search(r'no-data free +(\d+)', counts)
remaining = int(re.search(r'Remaining pages +: 0x([0-9a-f]+)', log).group(1), 16) - \
    (int(nodata.group(1)) if nodata else 0)
scan, codec, write = rate('struct page scan'), rate('codec'), rate('write')
print('scan %d bytes (struct pages %d), codec %d (%d pages), write %d (file %d)'
      % (scan, memmap, codec, remaining, write, os.path.getsize(dump)))
bad = not memmap <= scan <= memmap * 1.01 or codec != remaining * 4096 or \
    not 0 < write <= os.path.getsize(dump)
sys.exit(1 if bad else 0)
EOF
}

# Both tools' excluded-page counters (LOG and REF) are the same.
mkbig_same_counters() {
	local got
	got=$(mkbig_counters "$1")
	[ -n "$got" ] && [ "$got" = "$(mkbig_counters "$2")" ] ||
		{ echo "counters differ from makedumpfile's:"; echo "$got"; mkbig_counters "$2"; return 1; }
}

# The -d 31 counters of LOG are the generator's count (COUNTS) of each
# kind; zero includes the kernel image's empty pages, and free pages
# beyond a PT_LOAD's p_filesz (the last sixteenth of each node, in whole
# sections: none at 4 GiB) are in no counter: both tools drop pages
# without data first.
mkbig_generator_counts() {
	local got want
	got=$(mkbig_counters "$1" | sort)
	want=$(awk '$1 == "zero" { print "Pages filled with zero", $2 }
		$1 == "cache" { print "Non-private cache pages", $2 }
		$1 == "private" { print "Private cache pages", $3 }
		$1 == "anon" { print "User process data pages", $2 }
		$1 == "free" { free = $2 }
		$1 == "no-data" { nodata = $3 }
		END { print "Free pages", free - nodata }' "$2" | sort)
	[ "$got" = "$want" ] ||
		{ echo "counters differ from what mkbig wrote:"; echo "$got"; echo "$want"; return 1; }
}

t_mkbig() {
	local out=$work/out/mkbig ref=$work/mkbig/ref.mdf-l-d31
	mkbig_input || return 1
	rm -f "$out" "$ref"
	vmsift -l -d 31 --message-level 31 "$mkbig_in" "$out" > "$out.log" 2>&1 ||
		{ tail -5 "$out.log"; return 1; }
	makedumpfile -l -d 31 --message-level 31 "$mkbig_in" "$ref" > "$ref.log" 2>&1 ||
		{ tail -5 "$ref.log"; echo "makedumpfile failed"; return 1; }
	$check bitmaps "$out" "$ref" "$mkbig_in" || return 1
	mkbig_same_counters "$out.log" "$ref.log" || return 1
	mkbig_generator_counts "$out.log" "$work/mkbig/counts" || return 1
	mkbig_rates "$out.log" "$work/mkbig/counts" "$out" || return 1
	# every kept page; one excluded page in 64 tried (all: a minute)
	VMCHECK_ABSENT_EVERY=64 $check pages "$mkbig_in" "$out"
}

run_test "mkbig 4 GiB: makedumpfile's bitmaps and counters, the generator's counts, pages" t_mkbig

# --- the big members (VMSIFT_MKBIG_SIZES) ---

mkbig_dir=${VMSIFT_MKBIG_DIR:-$work/mkbig}

# Make the GIB GiB member (and its counts) unless it is there, newer
# than the generator.
mkbig_member() {
	local f=$mkbig_dir/big-$1G.vmcore
	[ -f "$f" ] && [ -f "$f.counts" ] && [ "$f" -nt "$top/tests/gen/mkbig.c" ] &&
		return 0
	make -s -C "$top" tests/gen/mkbig || return 1
	mkdir -p "$mkbig_dir"
	"$top/tests/gen/mkbig" "$f.tmp" "$1" > "$f.counts" || return 1
	mv "$f.tmp" "$f"
}

# Run CMD..., appending "LABEL wall W s, CPU C s" to the results file.
mkbig_timed() {
	local label=$1 pid=$BASHPID t0 c0 t1 c1 ret=0
	shift
	t0=$(date +%s.%N) c0=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$pid/stat)
	"$@" || ret=$?
	t1=$(date +%s.%N) c1=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$pid/stat)
	echo "$label wall $(echo "$t1 - $t0" | bc) s, CPU $(echo "($c1 - $c0) / $(getconf CLK_TCK)" | bc -l | cut -c1-6) s" \
		>> "$work/mkbig/results"
	return $ret
}

# One member at one level: vmsift's dump byte for byte makedumpfile's
# (lzo is deterministic, the layout is makedumpfile's), their bitmaps and
# counters equal (named when the bytes differ); at -d 31 the counters the
# generator's and, up to VMSIFT_MKBIG_PAGES_MAX GiB (default 64), every
# kept page read back by libkdumpfile equal to the input's (at -d 1 every
# page is kept: 50 minutes at 64 GiB; the bytes equal makedumpfile's).
mkbig_level() {
	local gib=$1 level=$2 in=$mkbig_dir/big-$1G.vmcore
	local out=$work/out/mkbig-$1G-d$2 ref=$work/out/mkbig-$1G-d$2.mdf
	rm -f "$out" "$ref"
	mkbig_timed "big-${gib}G -l -d $level vmsift" vmsift -l -d "$level" \
		--message-level 31 "$in" "$out" > "$out.log" 2>&1 ||
		{ tail -5 "$out.log"; return 1; }
	mkbig_timed "big-${gib}G -l -d $level makedumpfile" makedumpfile -l \
		-d "$level" --message-level 31 "$in" "$ref" > "$ref.log" 2>&1 ||
		{ tail -5 "$ref.log"; echo "makedumpfile failed"; return 1; }
	$check bitmaps "$out" "$ref" "$in" || return 1
	mkbig_same_counters "$out.log" "$ref.log" || return 1
	cmp "$out" "$ref" || { echo "big-${gib}G -d $level: not makedumpfile's bytes"; return 1; }
	echo "big-${gib}G -l -d $level: $(stat -c %s "$out") bytes, equal to makedumpfile's" \
		>> "$work/mkbig/results"
	if [ "$level" = 31 ]; then
		mkbig_generator_counts "$out.log" "$in.counts" || return 1
		mkbig_rates "$out.log" "$in.counts" "$out" ||
			{ echo "big-${gib}G: the RATE lines do not account for the dump"; return 1; }
	fi
	if [ "$level" = 31 ] && [ "$gib" -le "${VMSIFT_MKBIG_PAGES_MAX:-64}" ]; then
		VMCHECK_ABSENT_EVERY=4096 $check pages "$in" "$out" ||
			{ echo "big-${gib}G -d $level: pages check failed ($?)"; return 1; }
	fi
	rm -f "$out" "$ref"
}

t_mkbig_member() {
	local gib=$1 ret=0
	mkdir -p "$work/mkbig" "$work/out"
	mkbig_member "$gib" || return 1
	mkbig_level "$gib" 31 || ret=1
	if [ $ret = 0 ] && [ "$gib" -le 64 ]; then
		mkbig_level "$gib" 1 || ret=1
	fi
	[ "${VMSIFT_KEEP:-0}" = 1 ] ||
		rm -f "$mkbig_dir/big-${gib}G.vmcore" "$mkbig_dir/big-${gib}G.vmcore.counts"
	return $ret
}

for gib in ${VMSIFT_MKBIG_SIZES:-}; do
	run_test "mkbig $gib GiB: vmsift's dump makedumpfile's bytes, the generator's counts" \
		t_mkbig_member "$gib"
done
