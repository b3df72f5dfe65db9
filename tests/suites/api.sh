# tests/suites/api.sh - the library's contract as a caller sees it,
# through C drivers in tests/unit.  Sourced by tests/run.

# t_stats_after_refusal INPUT: a dump the options check refuses leaves
# no stats and no doubts of the dump before it.
t_stats_after_refusal() {
	make -s -C "$top/tests/unit" api_stats >/dev/null || return 1
	"$top/tests/unit/api_stats" "$1"
}

api_in=$work/kdump-384M.vmcore
if [ -f "$api_in" ]; then
	run_test "api: vmsift_get_stats after a refused dump reports no dump" \
		t_stats_after_refusal "$api_in"
fi

# t_machine_load: values of the dump are read in the dumped machine's
# byte order (lib/machine.h), big-endian ones too.
t_machine_load() {
	make -s -C "$top/tests/unit" machine_load >/dev/null || return 1
	"$top/tests/unit/machine_load"
}

run_test "api: loads from the dump follow its byte order, not the host's" t_machine_load
