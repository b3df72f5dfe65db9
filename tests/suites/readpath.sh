# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/readpath.sh - the read paths of the kept pages (--read-path,
# issue #17): through 2 MiB mmap windows, one pread per run of kept pages,
# the default (runs on a file), and both under --non-mmap (1 MiB pread
# windows, or runs).  Every path must write the same file byte for byte,
# and that file is checked page by page against the input (libkdumpfile)
# and its bitmaps against makedumpfile's.  On the carried vmcore
# (kdump -l -d 31, -c -d 1 whose zero test reads every page, ELF -E -d 31,
# and re-filtering a kdump file, whose pages are read compressed) and on
# a 4 GiB mkbig vmcore (sparse: few kept pages among holes).  The read
# errors of the runs path are faults.sh's.  Sourced by tests/run.

readpath_paths="windows runs auto nonmmap-windows nonmmap-runs"

# readpath_dump IN OUT PATH ARGS...: vmsift ARGS through read path PATH.
readpath_dump() {
	local in=$1 out=$2 path=$3; shift 3
	case $path in
	nonmmap-*) set -- "$@" --non-mmap --read-path "${path#nonmmap-}" ;;
	*) set -- "$@" --read-path "$path" ;;
	esac
	rm -f "$out"
	vmsift "$@" --num-threads 2 --message-level 0 "$in" "$out"
}

# t_readpath IN ORIG LEVEL ARGS...: the dump of IN (ARGS, then -d LEVEL)
# through every path; all equal; the runs one has every page of ORIG (the
# ELF vmcore IN was made from, or IN) and makedumpfile's bitmaps of it.
t_readpath() {
	local in=$1 orig=$2 level=$3 base p ref; shift 3
	base=$work/out/readpath.$(basename "$in").$(echo "$*" | tr -d ' -')$level
	for p in $readpath_paths; do
		readpath_dump "$in" "$base.$p" "$p" "$@" -d "$level" ||
			{ echo "path $p failed"; return 1; }
	done
	for p in $readpath_paths; do
		cmp "$base.windows" "$base.$p" || { echo "path $p differs from windows"; return 1; }
	done
	echo "$readpath_paths: the same $(stat -c %s "$base.runs") bytes"
	ref=$(reference "$level" "$orig") || { echo "makedumpfile failed"; return 1; }
	if [ "$1" = -E ]; then
		$check elf "$orig" "$base.runs" "$level" "$ref"
		return
	fi
	VMCHECK_ABSENT_EVERY=64 $check pages "$orig" "$base.runs" &&
		$check bitmaps "$base.runs" "$ref" "$orig"
}

# t_readpath_refilter IN: a kdump file re-filtered (its pages read
# compressed, through the same windows or runs) through every path.
t_readpath_refilter() {
	local in=$1 src=$work/out/readpath.src
	rm -f "$src"
	vmsift -l -d 1 --message-level 0 "$in" "$src" || return 1
	t_readpath "$src" "$in" 31 -z
}

readpath_in=${vmcores[0]:-}
if [ -n "$readpath_in" ]; then
	run_test "read paths: windows, runs, auto, --non-mmap equal, pages and bitmaps (kdump -l -d 31)" \
		t_readpath "$readpath_in" "$readpath_in" 31 -l
	run_test "read paths: windows, runs, auto, --non-mmap equal, pages and bitmaps (-c -d 1)" \
		t_readpath "$readpath_in" "$readpath_in" 1 -c
	run_test "read paths: windows, runs, auto, --non-mmap equal, ELF checked (-E -d 31)" \
		t_readpath "$readpath_in" "$readpath_in" 31 -E
	run_test "read paths: re-filtering a kdump file, every path equal, pages and bitmaps" \
		t_readpath_refilter "$readpath_in"
fi

# t_readpath_mkbig: the sparse series' shape.
t_readpath_mkbig() {
	mkbig_input || return 1
	t_readpath "$mkbig_in" "$mkbig_in" 31 -l
}
run_test "read paths: windows, runs, auto, --non-mmap equal on a 4 GiB mkbig vmcore, pages and bitmaps" \
	t_readpath_mkbig
