# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/harness.sh - vmsift in a real capture kernel: a Debian
# kernel under QEMU (TCG) panics, its capture kernel runs vmsift-static on
# /proc/vmcore (mmap and --non-mmap, kdump, ELF and flattened), and the
# host checks every page against a raw copy, the bitmaps against
# makedumpfile's, and the ELF layout against makedumpfile's.  About a
# minute.  Sourced by tests/run.  VMSIFT_NO_QEMU=1 skips it, visibly.

# t_harness_static: make static, failing when make fails (an old
# vmsift-static left from an earlier build proves nothing).  glibc's
# warnings about static getpwnam and the like are dropped from the log.
t_harness_static() {
	local log rc
	log=$(make -s -C "$top" static 2>&1)
	rc=$?
	grep -v "statically linked applications" <<<"$log"
	[ $rc -eq 0 ] || { echo "make static failed (exit status $rc)"; return 1; }
	[ -x "$top/vmsift-static" ] || { echo "make static left no vmsift-static"; return 1; }
}

# The step limits of suites/arm64_real.sh (420 s to the first kernel's
# /init, 300 s to the capture kernel's), whose guest missed kdump-test's
# default 120 s on the loaded 2-core machine with tests/run's other job
# beside it.
t_harness_quick() {
	t_harness_static || return 1
	T_BOOT=${T_BOOT:-420} T_CAPTURE=${T_CAPTURE:-300} \
		timeout 1500 "$top/tests/harness/kdump-test" --quick
}

# The static build runs without QEMU too.
run_test "harness: make static builds vmsift-static" t_harness_static
if [ "${VMSIFT_NO_QEMU:-0}" = 1 ]; then
	log "# skipped: the real-kernel kdump test (VMSIFT_NO_QEMU=1)"
else
	run_test "real kdump: vmsift in a capture kernel, checked against the raw vmcore and makedumpfile" \
		t_harness_quick
fi

# t_snapshot5: a live snapshot of a guest with 5-level paging (QEMU's
# dump-guest-memory layout), filtered at -d 31: bitmaps equal
# makedumpfile's, every kept page equal to the snapshot's.
t_snapshot5() {
	local d=$work/snap5 ref
	rm -rf "$d" && mkdir -p "$d"
	timeout 300 "$top/tests/harness/mkvmcore" --mem 384 --paging 5 \
		--work "$d/mk" "$d/snap5.vmcore" || return 1
	grep -a -q 'NUMBER(pgtable_l5_enabled)=1' "$d/snap5.vmcore" ||
		{ echo "the guest did not run with 5-level paging"; return 1; }
	$check normalize "$d/snap5.vmcore" "$d/snap5.norm" || return 1
	makedumpfile -l -d 31 "$d/snap5.norm" "$d/ref" >/dev/null 2>&1 ||
		{ echo "makedumpfile failed"; return 1; }
	vmsift -z -d 31 --message-level 0 "$d/snap5.vmcore" "$d/out" || return 1
	$check bitmaps "$d/out" "$d/ref" "$d/snap5.vmcore" &&
		$check pages "$d/snap5.vmcore" "$d/out"
	local rc=$?
	rm -rf "$d"
	return $rc
}

# A second guest: with VMSIFT_FULL=1 (5-level paging is in the default run
# through tests/gen's paging5 specs, suites/filter.sh).
if [ "${VMSIFT_NO_QEMU:-0}" != 1 ] && full; then
	run_test "5-level paging: a QEMU snapshot filtered as makedumpfile filters it" t_snapshot5
elif [ "${VMSIFT_NO_QEMU:-0}" != 1 ]; then
	log "# skipped: the 5-level paging QEMU snapshot (VMSIFT_FULL=1 runs it)"
fi

# t_benchrun_limits: the capture benchmark's timer (tests/harness/benchrun.c)
# reads the first BENCHRUN_MAX_MB MiB only when asked (the raw rates of a
# large /proc/vmcore), always all of a copy, and ends a run that outlives
# BENCHRUN_TIMEOUT with exit status 142 in its row.  Seconds.
t_benchrun_limits() {
	local d=$work/benchrun rc
	rm -rf "$d" && mkdir -p "$d"
	gcc -O2 -Wall -Wextra -Werror -o "$d/benchrun" "$top/tests/harness/benchrun.c" ||
		{ echo "benchrun.c does not build"; return 1; }
	head -c $((10 << 20)) /dev/urandom > "$d/in"
	BENCHRUN_MAX_MB=3 "$d/benchrun" "$d/tsv" "read3" --read "$d/in" &&
		BENCHRUN_MAX_MB=3 "$d/benchrun" "$d/tsv" "mmap3" --mmap "$d/in" &&
		"$d/benchrun" "$d/tsv" "mmap" --mmap "$d/in" &&
		BENCHRUN_MAX_MB=3 "$d/benchrun" "$d/tsv" "copy" --mmap "$d/in" "$d/copy" ||
		{ echo "benchrun --read/--mmap failed"; return 1; }
	cmp -s "$d/in" "$d/copy" || { echo "benchrun's copy differs from its input"; return 1; }
	printf '#!/bin/sh\nexec sleep 30\n' > "$d/slow" && chmod +x "$d/slow"
	BENCHRUN_TIMEOUT=1 "$d/benchrun" "$d/tsv" "slow" -- "$d/slow" "$d/none"
	rc=$?
	[ $rc = 142 ] || { echo "a run past BENCHRUN_TIMEOUT: exit status $rc, not 142"; return 1; }
	local want got
	want=$(printf '%s\t%s\n' read3 $((3 << 20)) mmap3 $((3 << 20)) mmap $((10 << 20)) copy $((10 << 20)) slow -1)
	got=$(cut -f1,7 "$d/tsv")
	[ "$got" = "$want" ] || { printf 'rows (label, bytes):\n%s\nwanted:\n%s\n' "$got" "$want"; return 1; }
	[ "$(awk -F'\t' '$1 == "slow" { print $2 }' "$d/tsv")" = 142 ] ||
		{ echo "the stopped run's row does not say 142"; return 1; }
	rm -rf "$d"
}

# t_capture_tables: bench/run --capture --reuse on a made-up bench.tsv of
# three rounds: each case's median, min and max and the ratio of the
# medians, computed here by sort/awk from the same rows, appear in its
# table row; the rows of a stopped run are taken from the console
# ("HARNESS: row: ...") and give the same table.  Seconds.
t_capture_tables() {
	local d=$work/capture-tables r
	rm -rf "$d" && mkdir -p "$d/a/results" "$d/b"
	# where|cpus|round|case|tool|threads|access, rc, wall, user, sys, RSS KiB, bytes
	for r in 1 2 3; do
		printf '%s\t0\t%s\t1.0\t0.5\t2048\t1048576\n' \
			"vmcore|2|$r|-c -d 1|vmsift|1|mmap" "$(sed -n ${r}p <<< $'10.0\n14.0\n11.0')" \
			"vmcore|2|$r|-c -d 1|makedumpfile|1|mmap" "$(sed -n ${r}p <<< $'22.0\n30.0\n25.0')"
	done > "$d/a/results/bench.tsv"
	printf 'vmcore|2|4|-c -d 1|vmsift|1|mmap\t1\t99.0\t1\t1\t1\t1\n' >> "$d/a/results/bench.tsv"
	sed 's/^/HARNESS: row: /; s/$/\r/' "$d/a/results/bench.tsv" > "$d/b/serial.log"
	local vm mm ratio want
	vm=$(awk -F'\t' '$1 ~ /vmsift/ && $2 == 0 { print $3 }' "$d/a/results/bench.tsv" | sort -n | sed -n 2p)
	mm=$(awk -F'\t' '$1 ~ /makedumpfile/ && $2 == 0 { print $3 }' "$d/a/results/bench.tsv" | sort -n | sed -n 2p)
	ratio=$(awk "BEGIN { printf \"%.2f\", $mm / $vm }")
	want="| -c -d 1 | /proc/vmcore | mmap | 2 | 1 / 1 | $(printf '%.1f' "$vm") (10.0–14.0) | $(printf '%.1f' "$mm") (22.0–30.0) | **${ratio}×** |"
	for r in a b; do
		"$top/bench/run" --capture --reuse --capture-out "$d/$r" > "$d/$r.md" 2> "$d/$r.err" ||
			{ echo "bench/run --capture --reuse failed on $r:"; cat "$d/$r.err"; return 1; }
		grep -qF -- "$want" "$d/$r.md" ||
			{ echo "no row starting '$want' in the table of $r:"; cat "$d/$r.md"; return 1; }
		grep -q 'failed (exit 1, bench.tsv line 7)' "$d/$r.err" ||
			{ echo "the failed run (line 7) is not named:"; cat "$d/$r.err"; return 1; }
	done
	rm -rf "$d"
}

# t_capture_paths: bench/run's read-path table (issue #17: what makes two
# threads slower on /proc/vmcore) from a made-up bench.tsv of three rounds
# of vmsift with --read-path windows and runs at 1 and 2 threads, each
# round with its own wall, user and system time: the row of runs at 2
# threads gives the medians of the three (system time apart from user
# time), the ratios to windows at 2 threads and to runs at 1 thread, and
# the range of those ratios round by round, each computed here by awk
# from the same rows; and makedumpfile's mmap row is paired with
# vmsift's windows rows in the dump table.  Seconds.
t_capture_paths() {
	local d=$work/capture-paths
	rm -rf "$d" && mkdir -p "$d/a/results"
	# threads access: wall, user, sys for rounds 1, 2, 3
	local -A runs=([1 windows]="10 9 1 12 10 2 11 9 3" [2 windows]="30 10 18 40 11 25 35 10 22"
		[1 runs]="9 8 1 11 9 2 10 8 1" [2 runs]="6 9 2 9 10 3 7 9 2")
	local k r v
	for r in 1 2 3; do
		for k in "1 windows" "2 windows" "1 runs" "2 runs"; do
			read -ra v <<< "${runs[$k]}"
			printf 'vmcore|2|%s|-l -d 1|vmsift|%s|%s\t0\t%s\t%s\t%s\t2048\t1048576\n' \
				"$r" "${k% *}" "${k#* }" "${v[(r - 1) * 3]}" "${v[(r - 1) * 3 + 1]}" "${v[(r - 1) * 3 + 2]}"
		done
		printf 'vmcore|2|%s|-l -d 1|makedumpfile|1|mmap\t0\t20\t19\t1\t1024\t1048576\n' "$r"
	done > "$d/a/results/bench.tsv"
	# median and min-max of column C over the rows matching RE; the
	# per-round ratios A / B (two row patterns) as "median min-max"
	col() { awk -F'\t' -v re="$1" -v c="$2" '$1 ~ re { print $c }' "$d/a/results/bench.tsv" | sort -n | sed -n 2p; }
	rat() {
		awk -F'\t' -v a="$1" -v b="$2" '$1 ~ a { split($1, f, "|"); x[f[3]] = $3 }
			$1 ~ b { split($1, f, "|"); y[f[3]] = $3 }
			END { lo = 1e9; hi = 0; for (r in x) { q = x[r] / y[r]; if (q < lo) lo = q; if (q > hi) hi = q }
			      printf "%.2f–%.2f", lo, hi }' "$d/a/results/bench.tsv"
	}
	local t2r='\|vmsift\|2\|runs$' t2w='\|vmsift\|2\|windows$' t1r='\|vmsift\|1\|runs$' want
	want=$(printf '| -l -d 1 | /proc/vmcore | 2 | 2 | runs | %.1f (6.0–9.0) | %.2f | %.2f | **%.2f** (%s) | **%.2f** (%s) | 3 |' \
		"$(col "$t2r" 3)" "$(col "$t2r" 4)" "$(col "$t2r" 5)" \
		"$(awk "BEGIN { print $(col "$t2r" 3) / $(col "$t2w" 3) }")" "$(rat "$t2r" "$t2w")" \
		"$(awk "BEGIN { print $(col "$t2r" 3) / $(col "$t1r" 3) }")" "$(rat "$t2r" "$t1r")")
	"$top/bench/run" --capture --reuse --capture-out "$d/a" > "$d/a.md" 2> "$d/a.err" ||
		{ echo "bench/run --capture --reuse failed:"; cat "$d/a.err"; return 1; }
	grep -qF -- "$want" "$d/a.md" ||
		{ echo "no row starting '$want' in:"; cat "$d/a.md"; return 1; }
	grep -qF -- '| -l -d 1 | /proc/vmcore | windows | 2 | 2 / 1 | 35.0 (30.0–40.0) | 20.0 (20.0–20.0) | **0.57×** |' "$d/a.md" ||
		{ echo "makedumpfile's mmap rows are not beside vmsift's windows rows:"; cat "$d/a.md"; return 1; }
	rm -rf "$d"
}

run_test "capture bench: benchrun reads a prefix when asked, copies whole, stops a run at its timeout" t_benchrun_limits
run_test "capture bench: the read-path table gives wall, user and system medians, against windows and 1 thread, per round" t_capture_paths
run_test "capture bench: bench/run's capture tables give medians, min-max and ratios of medians, also from the console" t_capture_tables
