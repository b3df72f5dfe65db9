# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/fuzz.sh - every fuzz target's committed corpus
# (tests/fuzz/corpus/<target>/) replayed once under ASan+UBSan, without
# libFuzzer's engine: one test per target, failing on any sanitizer
# report.  Needs clang; without it the build test fails (reported, not
# skipped silently).  Sourced by tests/run.

fuzz_dir=$top/tests/fuzz

t_fuzz_build() {
	command -v clang >/dev/null || { echo "clang not found: fuzz replay skipped"; return 1; }
	make -s -C "$fuzz_dir" replay-build WERROR=1
}

# t_fuzz_replay TARGET: replay its corpus; any sanitizer report fails.
t_fuzz_replay() {
	local log
	log=$(make -s -C "$fuzz_dir" "replay-$1" 2>&1) || { echo "$log"; return 1; }
	if grep -qE 'runtime error:|Sanitizer' <<<"$log"; then
		echo "$log"
		return 1
	fi
	echo "$log" | tail -1
}

run_test "fuzz: build the replay drivers (clang, ASan+UBSan)" t_fuzz_build
for fuzz_target in $(make -s -C "$fuzz_dir" targets); do
	run_test "fuzz replay: $fuzz_target corpus" t_fuzz_replay "$fuzz_target"
done
