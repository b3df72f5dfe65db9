# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/runner.sh - tests/run itself: a copy of it in a scratch
# tree whose suites are small shell scripts (one passes, one fails, one
# exits 3 half-way, two check that their scratch folders are their own,
# one marked early and one not check when they start against the
# prebuild) and whose Makefile builds only a slow stand-in for the
# prebuild.  Side by side (VMSIFT_JOBS=2) the failure, the exit and the
# kill are counted, the run exits non-zero, each job's lines come out
# whole, two jobs writing $work/out/f at once do not see each other's
# file, the early job runs during the prebuild and the other after it;
# one after the other (VMSIFT_JOBS=1) the exit still fails the run.  About
# 15 seconds.  Sourced by tests/run.
# prebuild: none

# runner_tree DIR: the scratch tree (tests/run, lib/carried.sh, a fake
# vmcore whose program headers sit at 64, eight suites).  Its prebuild's
# make static writes DIR/prebuilt half, waits (30 s at most) until the
# early suite e has read it, then 5 s (or until w has read it: w started
# during the prebuild, a break), then writes it whole: e passes when it
# reads it unfinished (it ran during the prebuild), w when it reads it
# whole (it waited for the prebuild's end).
runner_tree() {
	local d=$1
	local s o
	rm -rf "$d" && mkdir -p "$d/tests/suites/lib" "$d/tests/data" "$d/tests/unit" \
		"$d/tests/fuzz" "$d/sync" || return 1
	cp "$top/tests/run" "$d/tests/run" &&
		cp "$top/tests/suites/lib/carried.sh" "$d/tests/suites/lib/" || return 1
	printf 'all:\n%%:\n\t@:\n' | tee "$d/Makefile" "$d/tests/unit/Makefile" > "$d/tests/fuzz/Makefile"
	# (a here-document without <<-: make wants the recipe's tabs)
	cat >> "$d/Makefile" <<MAKE
static:
	@printf half > $d/prebuilt; \\
	for i in \$\$(seq 60); do [ -f $d/sync/e ] && break; sleep 0.5; done; \\
	for i in \$\$(seq 10); do [ -f $d/sync/w ] && break; sleep 0.5; done; \\
	printf made > $d/prebuilt
MAKE
	$PY -c 'import struct,sys; sys.stdout.buffer.write(bytes(32) + struct.pack("<Q", 64) + bytes(24))' |
		zstd -q -o "$d/tests/data/fake.vmcore.zst" || return 1
	cat > "$d/tests/suites/a.sh" <<-'SUITE'
	run_test "runner a1" true
	run_test "runner a2" sleep 1
	SUITE
	cat > "$d/tests/suites/b.sh" <<-'SUITE'
	run_test "runner b1" false
	SUITE
	cat > "$d/tests/suites/c.sh" <<-'SUITE'
	run_test "runner c1" true
	exit 3
	run_test "runner c2" true
	SUITE
	cat > "$d/tests/suites/k.sh" <<-'SUITE'
	run_test "runner k1" true
	kill -KILL $BASHPID
	run_test "runner k2" true
	SUITE
	cat > "$d/tests/suites/e.sh" <<-SUITE
	# prebuild: none
	run_test "runner early: started during the prebuild" sh -c \\
		's=\$(cat $d/prebuilt 2>/dev/null); touch $d/sync/e; [ "\$s" != made ]'
	SUITE
	cat > "$d/tests/suites/w.sh" <<-SUITE
	run_test "runner waits: started after the prebuild" sh -c \\
		's=\$(cat $d/prebuilt 2>/dev/null); touch $d/sync/w; [ "\$s" = made ]'
	SUITE
	# x and y each write out/f, then wait (30 s at most) until the other
	# has written its own before reading theirs back: with one out/ for
	# both, one of them reads the other's.
	for s in x y; do
		o=$([ $s = x ] && echo y || echo x)
		cat > "$d/tests/suites/$s.sh" <<-SUITE
		run_test "runner iso $s" sh -c 'echo $s > "\$1/out/f" && touch $d/sync/$s &&
			for i in \$(seq 60); do [ -f $d/sync/$o ] && break; sleep 0.5; done &&
			[ -f $d/sync/$o ] && grep -qx $s "\$1/out/f"' - "\$work"
		SUITE
	done
}

# runner_run JOBS: a fresh scratch tree ($work/runner) run with JOBS jobs;
# its output printed and left in $work/runner/out.txt, "rc N" last (the
# exit status); false unless that is 1, as both tests' runs must end.
runner_run() {
	local d=$work/runner rc
	runner_tree "$d" || return 1
	VMSIFT_JOBS=$1 VMSIFT_TESTS='^runner' VMSIFT_LIST=0 VMSIFT_KEEP=0 \
		"$d/tests/run" > "$d/out.txt" 2>&1
	rc=$?
	echo "rc $rc" >> "$d/out.txt"
	cat "$d/out.txt"
	[ $rc = 1 ] || { echo "exit status not 1"; return 1; }
}

# t_runner_parallel: 2 jobs: 8 passed (a1, a2, c1, k1, iso x, iso y,
# early, waits), 3 failed (b1, the jobs of c.sh and k.sh), exit status 1,
# a.sh's lines together.
t_runner_parallel() {
	local out
	runner_run 2 || return 1
	out=$(< "$work/runner/out.txt")
	grep -qx '8 passed, 3 failed' <<<"$out" || { echo "wrong sums"; return 1; }
	grep -q '^not ok - job c ended before its end (exit status 3)' <<<"$out" ||
		{ echo "the exit of c.sh is not a failure"; return 1; }
	grep -q '^not ok - job k ended before its end (exit status 137)' <<<"$out" ||
		{ echo "the SIGKILL of k.sh's shell is not a failure"; return 1; }
	grep -q '^# failed: .*runner b1' <<<"$out" || { echo "b1 not in the failures"; return 1; }
	grep -A1 '^ok - runner a1 ' <<<"$out" | grep -q '^ok - runner a2 ' ||
		{ echo "a.sh's lines are not together"; return 1; }
	grep -q '^ok - runner early' <<<"$out" ||
		{ echo "the early job did not run during the prebuild"; return 1; }
	grep -q '^ok - runner waits' <<<"$out" ||
		{ echo "the job that waits for the prebuild ran during it"; return 1; }
	grep -q '^ok - runner iso x' <<<"$out" && grep -q '^ok - runner iso y' <<<"$out"
}

# t_runner_serial: 1 job: the exit of c.sh ends the run with a failure.
t_runner_serial() {
	local out
	runner_run 1 || return 1
	out=$(< "$work/runner/out.txt")
	grep -q '^not ok - the run ended early' <<<"$out" ||
		{ echo "the exit of c.sh is not a failure"; return 1; }
	! grep -q 'runner c2' <<<"$out"
}

run_test "runner: 2 jobs side by side: failures, a suite's exit 3, a killed suite, sums, exit status, own scratch folders, early and waiting jobs" \
	t_runner_parallel
run_test "runner: VMSIFT_JOBS=1: a suite's exit 3 fails the run" t_runner_serial
