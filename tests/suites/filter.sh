# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/filter.sh - page filtering for every kernel generation,
# memory model and paging mode, on synthetic vmcores (tests/gen), and
# chunk-order independence of the filter on the real vmcores.  Sourced by
# tests/run.

for spec in "$top"/tests/gen/specs/*.spec; do
	name=$(basename "$spec" .spec)
	run_test "filter rules: $name" \
		$PY "$top/tests/gen/check_filter.py" "$top/vmsift" --spec "$name"
done

# The filter decides each chunk on its own: tiny chunks, in reverse
# order, on 4 threads, give makedumpfile's bitmap all the same.
t_filter_chunks() {
	local in=$1 level=$2 ref
	make -s -C "$top/tests/unit" >/dev/null || return 1
	ref=$(reference "$level" "$in") || { echo "makedumpfile failed"; return 1; }
	"$top/tests/unit/filter_scan" -r -c 6 -t 4 "$level" "$in" "$ref"
}
for in in "${vmcores_each[@]}"; do
	run_test "filter chunks: $(basename "$in" .vmcore) 64-pfn chunks reversed, 4 threads" \
		t_filter_chunks "$in" 31
done

# Damaged metadata is reported with the pfns and addresses it concerns.
t_doubts_reported() {
	local d=$work/out/doubts msg
	mkdir -p "$d"
	$PY "$top/tests/gen/mkvmcore.py" "$top/tests/gen/specs/corrupt-pte.spec" \
		"$d/v.vmcore" >/dev/null || return 1
	msg=$(vmsift -l -d 31 --message-level 7 "$d/v.vmcore" "$d/out" 2>&1) || return 1
	echo "$msg"
	[[ $msg == *"damaged page metadata, pages kept"* ]] &&
		[[ $msg == *"pfns 0x"*"struct pages at 0x"*unreadable* ]]
}
run_test "filter: damaged struct pages reported with their pfns and addresses" t_doubts_reported
