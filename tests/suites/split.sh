# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/split.sh - --split into 2, 3 and 8 files and --reassemble:
# the set reads back page-exact through libkdumpfile, its ranges are
# makedumpfile's, reassembling gives the direct dump byte for byte, and
# sets that do not belong together are refused.  Sourced by tests/run.

split_dir=$work/split
mkdir -p "$split_dir"

# t_split INPUT N: split, read the set, compare ranges, reassemble.
t_split() {
	local in=$1 n=$2 base=$split_dir/$(basename "$1").$2 i parts=() mparts=()
	rm -f "$base".*
	for i in $(seq 1 "$n"); do parts+=("$base.part$i"); mparts+=("$base.mdf$i"); done
	vmsift --split --splitblock-size 4096 -l -d 31 --message-level 0 "$in" "${parts[@]}" || return 1
	$check pages "$in" "${parts[@]}" || return 1
	# The same ranges as makedumpfile's split of the same input.
	makedumpfile --split --splitblock-size 4096 -l -d 31 "$(makedumpfile_input "$in")" \
		"${mparts[@]}" >/dev/null 2>&1 || { echo "makedumpfile --split failed"; return 1; }
	for i in $(seq 1 "$n"); do
		[ "$(od -An -t x8 -j $((4096 + 80)) -N 16 "$base.part$i")" = \
		  "$(od -An -t x8 -j $((4096 + 80)) -N 16 "$base.mdf$i")" ] ||
			{ echo "file $i: range differs from makedumpfile's"; return 1; }
	done
	vmsift -l -d 31 --message-level 0 "$in" "$base.direct" || return 1
	vmsift --reassemble "${parts[@]}" "$base.joined" --message-level 0 || return 1
	cmp "$base.direct" "$base.joined"
}

# t_split_threads INPUT: the files are the same at 1 and 4 threads.
t_split_threads() {
	local in=$1 base=$split_dir/$(basename "$1").thr
	rm -f "$base".*
	vmsift --split --splitblock-size 8192 -z -d 1 --num-threads 1 --message-level 0 \
		"$in" "$base.1a" "$base.1b" "$base.1c" || return 1
	vmsift --split --splitblock-size 8192 -z -d 1 --num-threads 4 --message-level 0 \
		"$in" "$base.4a" "$base.4b" "$base.4c" || return 1
	cmp "$base.1a" "$base.4a" && cmp "$base.1b" "$base.4b" && cmp "$base.1c" "$base.4c"
}

# t_reassemble_mdf INPUT: makedumpfile's split files, reassembled by
# vmsift, give the file makedumpfile's --reassemble gives.
t_reassemble_mdf() {
	local in=$1 base=$split_dir/$(basename "$1").mre
	rm -f "$base".*
	makedumpfile --split --splitblock-size 4096 -c -d 31 "$(makedumpfile_input "$in")" \
		"$base.1" "$base.2" "$base.3" >/dev/null 2>&1 || return 1
	makedumpfile --reassemble "$base.1" "$base.2" "$base.3" "$base.mdf" >/dev/null 2>&1 || return 1
	vmsift --reassemble "$base.1" "$base.2" "$base.3" "$base.vs" --message-level 0 || return 1
	cmp "$base.mdf" "$base.vs"
}

# t_reassemble_bad INPUT: a missing part, parts of two dumps, parts out
# of order, a truncated part: exit 1, a message, no output left.
t_reassemble_bad() {
	local in=$1 b=$split_dir/$(basename "$1").bad msg
	rm -f "$b".*
	vmsift --split --splitblock-size 4096 -l -d 31 --message-level 0 "$in" "$b.1" "$b.2" "$b.3" || return 1
	vmsift --split --splitblock-size 4096 -l -d 1 --message-level 0 "$in" "$b.o1" "$b.o2" "$b.o3" || return 1
	head -c 20000 "$b.2" > "$b.cut2"
	for set in "$b.1 $b.3" "$b.1 $b.o2 $b.3" "$b.2 $b.1 $b.3" "$b.1 $b.cut2 $b.3"; do
		# shellcheck disable=SC2086
		msg=$(vmsift --reassemble $set "$b.out" 2>&1) && { echo "accepted: $set"; return 1; }
		echo "$msg"
		[ ! -e "$b.out" ] || { echo "left an output for: $set"; return 1; }
	done
}

for in in "${vmcores_each[@]}"; do
	name=$(basename "$in" .vmcore)
	for n in 2 3 8; do
		run_test "split $name into $n: read as a set, makedumpfile's ranges, reassembles to the direct dump" t_split "$in" "$n"
	done
	run_test "split $name: same files at 1 and 4 threads" t_split_threads "$in"
	run_test "reassemble $name: makedumpfile's split files, as makedumpfile joins them" t_reassemble_mdf "$in"
	run_test "reassemble $name: bad sets refused" t_reassemble_bad "$in"
done
