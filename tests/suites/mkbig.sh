# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/mkbig.sh - the generator of bench/mkscale's terabyte series
# (tests/gen/mkbig.c, issue #17), at 4 GiB so that it cannot rot: the
# vmcore it makes is read by makedumpfile 1.7.2 and by vmsift, their
# bitmaps must be equal, every page of vmsift's dump must equal the
# input's (libkdumpfile), and the excluded-page counters of both tools
# must be the generator's own count of each kind of page it wrote.
# About 20 s; 200 MB on disk.  Sourced by tests/run.

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
remaining = int(re.search(r'Remaining pages +: 0x([0-9a-f]+)', log).group(1), 16)
scan, codec, write = rate('struct page scan'), rate('codec'), rate('write')
print('scan %d bytes (struct pages %d), codec %d (%d pages), write %d (file %d)'
      % (scan, memmap, codec, remaining, write, os.path.getsize(dump)))
bad = not memmap <= scan <= memmap * 1.01 or codec != remaining * 4096 or \
    not 0 < write <= os.path.getsize(dump)
sys.exit(1 if bad else 0)
EOF
}

t_mkbig() {
	local out=$work/out/mkbig ref=$work/mkbig/ref.mdf-l-d31 got want
	mkbig_input || return 1
	rm -f "$out" "$ref"
	vmsift -l -d 31 --message-level 31 "$mkbig_in" "$out" > "$out.log" 2>&1 ||
		{ tail -5 "$out.log"; return 1; }
	makedumpfile -l -d 31 --message-level 31 "$mkbig_in" "$ref" > "$ref.log" 2>&1 ||
		{ tail -5 "$ref.log"; echo "makedumpfile failed"; return 1; }
	$check bitmaps "$out" "$ref" "$mkbig_in" || return 1
	got=$(mkbig_counters "$out.log")
	[ "$got" = "$(mkbig_counters "$ref.log")" ] ||
		{ echo "counters differ from makedumpfile's:"; echo "$got"; mkbig_counters "$ref.log"; return 1; }
	# the generator's count of each kind; zero includes the kernel
	# image's empty pages
	want=$(awk '$1 == "zero" { print "Pages filled with zero", $2 }
		$1 == "cache" { print "Non-private cache pages", $2 }
		$1 == "private" { print "Private cache pages", $3 }
		$1 == "anon" { print "User process data pages", $2 }
		$1 == "free" { print "Free pages", $2 }' "$work/mkbig/counts" |
		sort)
	[ "$(sort <<< "$got")" = "$want" ] ||
		{ echo "counters differ from what mkbig wrote:"; echo "$got"; echo "$want"; return 1; }
	mkbig_rates "$out.log" "$work/mkbig/counts" "$out" || return 1
	# every kept page; one excluded page in 64 tried (all: a minute)
	VMCHECK_ABSENT_EVERY=64 $check pages "$mkbig_in" "$out"
}

run_test "mkbig 4 GiB: makedumpfile's bitmaps and counters, the generator's counts, pages" t_mkbig
