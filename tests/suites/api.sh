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

# t_vmcoreinfo_file INPUT: -i (vmsift_set_vmcoreinfo_file) reads the
# whole file: the input's own VMCOREINFO after 1.2 MiB of padding lines
# gives the same dump as without the padding; a file of 64 MiB or more
# is refused, never cut.
t_vmcoreinfo_file() {
	local in=$1 d=$work/out/vmci
	mkdir -p "$d"
	$PY - "$in" "$d" <<'PY' || return 1
import sys
data = open(sys.argv[1], 'rb').read(64 << 20)
at = data.find(b'OSRELEASE=')
if at < 0:
    sys.exit('no VMCOREINFO text in the input')
text = data[at:data.index(b'\0', at)]
open(sys.argv[2] + '/plain', 'wb').write(text)
open(sys.argv[2] + '/padded', 'wb').write(b'VMSIFT_PAD=0\n' * 100000 + text)
PY
	[ "$(stat -c %s "$d/padded")" -gt $((1 << 20)) ] || { echo "padding too short"; return 1; }
	vmsift -d 31 -i "$d/plain" --message-level 0 "$in" "$d/plain.kdump" || return 1
	vmsift -d 31 -i "$d/padded" --message-level 0 "$in" "$d/padded.kdump" ||
		{ echo "the padded VMCOREINFO file was refused"; return 1; }
	cmp "$d/plain.kdump" "$d/padded.kdump" || return 1
	truncate -s 64M "$d/huge"
	vmsift -d 31 -i "$d/huge" --message-level 0 "$in" "$d/huge.kdump" 2>"$d/huge.err" &&
		{ echo "a 64 MiB VMCOREINFO file was accepted"; return 1; }
	[ ! -e "$d/huge.kdump" ] || { echo "a dump was left after the refusal"; return 1; }
	cat "$d/huge.err"
}

if [ -f "$api_in" ]; then
	run_test "api: vmsift_set_vmcoreinfo_file reads a file past 1 MiB, refuses one of 64 MiB" \
		t_vmcoreinfo_file "$api_in"
fi

# t_machine_load: values of the dump are read in the dumped machine's
# byte order (lib/machine.h), big-endian ones too.
t_machine_load() {
	make -s -C "$top/tests/unit" machine_load >/dev/null || return 1
	"$top/tests/unit/machine_load"
}

run_test "api: loads from the dump follow its byte order, not the host's" t_machine_load

# t_x86_page_size INPUT: an x86_64 dump whose VMCOREINFO claims 16 KiB
# pages cannot be translated with 4 KiB page tables: -d 31 is refused,
# not written from pfns of the wrong size.
t_x86_page_size() {
	local in=$1 d=$work/out/ps16k
	mkdir -p "$d"
	$PY - "$in" "$d/vmcoreinfo" <<'PY' || return 1
import re, sys
data = open(sys.argv[1], 'rb').read(64 << 20)
at = data.find(b'OSRELEASE=')
text = data[at:data.index(b'\0', at)]
open(sys.argv[2], 'wb').write(re.sub(rb'PAGESIZE=\d+', b'PAGESIZE=16384', text))
PY
	vmsift -d 31 -i "$d/vmcoreinfo" --message-level 0 "$in" "$d/out" 2>"$d/err" &&
		{ echo "a 16 KiB page size on x86_64 was accepted"; return 1; }
	[ ! -e "$d/out" ] || { echo "a dump was left after the refusal"; return 1; }
	cat "$d/err"
}

if [ -f "$api_in" ]; then
	run_test "api: an x86_64 dump claiming 16 KiB pages is refused, not misread" \
		t_x86_page_size "$api_in"
fi
