# tests/suites/api.sh - the library's contract as a caller sees it,
# through C drivers in tests/unit.  Sourced by tests/run.

# t_machine_load: values of the dump are read in the dumped machine's
# byte order (lib/machine.h), big-endian ones too.
t_machine_load() {
	make -s -C "$top/tests/unit" machine_load >/dev/null || return 1
	"$top/tests/unit/machine_load"
}

run_test "api: loads from the dump follow its byte order, not the host's" t_machine_load
