# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/golden.sh - every output format of the carried vmcore is
# byte for byte what the build before the library's refactor wrote
# (tests/data/golden.sha256, made by tests/tools/golden).  A change meant
# only to move code cannot pass it by accident; a change meant to change
# output regenerates the file and says why in its commit.  Sourced by
# tests/run.
# prebuild: none

t_golden() {
	local in=$1 d=$work/out/golden
	"$top/tests/tools/golden" "$in" "$d" > "$d.sums" || return 1
	diff -u "$top/tests/data/golden.sha256" "$d.sums"
}

golden_in=$work/kdump-384M.vmcore
if [ -f "$golden_in" ]; then
	run_test "golden: every output format of the carried vmcore unchanged" t_golden "$golden_in"
fi
