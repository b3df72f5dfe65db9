# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/scripts.sh - the project's own shell scripts, read as text.
# Under `set -o pipefail` a pipeline `WRITER | grep -q PATTERN` fails when
# grep exits at its first match while WRITER is still writing: WRITER dies
# of SIGPIPE and the pipeline's status is 141.  dpkg
# --print-foreign-architectures writes a line at a time, and CI lost the
# arm64 capture-kernel test to exactly that race on a loaded machine.
# Every script that sets pipefail for its whole body, and each script it
# sources from the tree, must let grep read to the end (grep >/dev/null).
# A second of work.  Sourced by tests/run.
# prebuild: none

# pipefail_scripts: the tree's shell scripts with a top-level `set -...o
# pipefail`, then the tree's files they source (tests/harness/lib.sh and
# the like), one path per line relative to $top.
pipefail_scripts() {
	local f s
	git -C "$top" ls-files -z | xargs -0 -n 64 grep -lE '^set -[a-z]*o pipefail' -- 2>/dev/null |
	while read -r f; do
		echo "$f"
		# `. "$here/lib.sh"`, `source "$(dirname "$0")/lib.sh"` and the
		# like: their basename, looked up beside the script.
		sed -nE 's/^[[:space:]]*(\.|source)[[:space:]]+"?[^"[:space:]]*\/([A-Za-z0-9_.-]+)"?.*/\2/p' \
			"$top/$f" | while read -r s; do
			[ -f "$top/$(dirname "$f")/$s" ] && echo "$(dirname "$f")/$s"
		done
	done | sort -u
}

# t_scripts_pipefail_grep: no `| grep -q` (or --quiet) in those scripts,
# and the list is not empty (the harness's scripts set pipefail).
t_scripts_pipefail_grep() {
	local files bad n
	files=$(pipefail_scripts)
	n=$(grep -c . <<<"$files")
	[ "$n" -ge 5 ] || { echo "only $n scripts found setting pipefail: the scan is broken"; return 1; }
	grep -qx 'tests/harness/lib.sh' <<<"$files" ||
		{ echo "tests/harness/lib.sh (sourced under pipefail) not scanned"; return 1; }
	# shellcheck disable=SC2086
	bad=$(cd "$top" && grep -nE '\|[[:space:]]*grep([[:space:]]+-[a-zA-Z]+)*[[:space:]]+(-[a-zA-Z]*q|--quiet)' $files)
	[ -z "$bad" ] || { echo "grep -q at the end of a pipeline under pipefail (use grep >/dev/null):"; echo "$bad"; return 1; }
	echo "$n scripts under pipefail, none ends a pipeline in grep -q"
}

run_test "scripts: no pipeline ends in grep -q under pipefail (SIGPIPE fails the writer)" t_scripts_pipefail_grep
