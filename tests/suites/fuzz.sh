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

# t_fuzz_replay TARGET: replay its corpus; any sanitizer report fails,
# and so does a replay past 300 s (each takes 2 s or less: a seed that
# a lost bound makes endless, corpus/btf/seed-nest, fails, not hangs).
t_fuzz_replay() {
	local log
	log=$(timeout 300 make -s -C "$fuzz_dir" "replay-$1" 2>&1) ||
		{ echo "$log"; echo "replay-$1 failed or ran past 300 s"; return 1; }
	if grep -qE 'runtime error:|Sanitizer' <<<"$log"; then
		echo "$log"
		return 1
	fi
	echo "$log" | tail -1
}

# t_fuzz_erase_seeds: corpus/erase/seed-N are, byte for byte and all of
# them, what tests/unit/erase_test --seeds writes now (its configs over
# the memory of the hand-made kernel, ../unit/erase_world.h and
# module_decl.h): an edit of either that leaves the seeds behind fails,
# naming them and the command that rewrites them.
t_fuzz_erase_seeds() {
	local d=$work/fuzz/erase-seeds f n bad
	rm -rf "$d" && mkdir -p "$d" || return 1
	make -s -C "$top/tests/unit" erase_test || return 1
	"$top/tests/unit/erase_test" --seeds "$d" || return 1
	bad=$(for f in "$d"/seed-* "$fuzz_dir"/corpus/erase/seed-[0-9]*; do
		n=$(basename "$f")
		cmp -s "$d/$n" "$fuzz_dir/corpus/erase/$n" || echo "$n"
	done | sort -u | tr '\n' ' ')
	[ -z "$bad" ] || { echo "stale or missing in tests/fuzz/corpus/erase: $bad(rewrite them:" \
		"tests/unit/erase_test --seeds tests/fuzz/corpus/erase)"; return 1; }
}

run_test "fuzz: build the replay drivers (clang, ASan+UBSan)" t_fuzz_build
run_test "fuzz: the erase target's seeds are what erase_test --seeds writes now" t_fuzz_erase_seeds
for fuzz_target in $(make -s -C "$fuzz_dir" targets); do
	run_test "fuzz replay: $fuzz_target corpus" t_fuzz_replay "$fuzz_target"
done
