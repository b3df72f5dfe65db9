# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/api.sh - the public API's contract, through small C programs
# in tests/unit built against lib/libvmsift.a: the status beside each
# failure, and the read interface.  Sourced by tests/run.

unit_dir=$top/tests/unit
api_dir=$work/api
mkdir -p "$api_dir"

t_api_build() {
	make -s -C "$top" WERROR=1 lib/libvmsift.a &&
		make -s -C "$unit_dir" WERROR=1 test_status test_read test_pagecache
}

# t_status_nospace INPUT: a dump onto a disk that fills up says NO_SPACE.
t_status_nospace() {
	local in=$1 shim=$api_dir/writefail.so
	cc -shared -fPIC -O2 -o "$shim" "$top/tests/faults/writefail.c" -ldl || return 1
	LD_PRELOAD=$shim WRITEFAIL_AT=40 "$unit_dir/test_status" nospace "$in" "$api_dir/nospace"
}

# t_version: the library's run-time version, the header's, the manual's
# and the CLI's -v are one.
t_version() {
	local hdr man cli
	hdr=$(sed -n 's/^#define VMSIFT_VERSION_STRING "\(.*\)"/\1/p' "$top/include/vmsift.h")
	man=$(sed -n 's/^\.TH .*"vmsift \([^"]*\)".*/\1/p' "$top/doc/vmsift.8")
	cli=$(vmsift -v | sed -n 's/^vmsift: version //p')
	echo "header '$hdr', manual '$man', -v '$cli'"
	[ -n "$hdr" ] && [ "$hdr" = "$man" ] && [ "$hdr" = "$cli" ]
}

# t_read_same INPUT ARGS...: dump INPUT with ARGS at -d 1; every page
# read back through the read interface equals the ELF input's.
t_read_same() {
	local in=$1 out=$work/out/read.kdump; shift
	vmsift "$@" -d 1 --message-level 0 "$in" "$out" || return 1
	"$unit_dir/test_read" same "$in" "$out"
}

t_read_flat() {
	local in=$1 out=$work/out/read.flat
	vmsift -F -z -d 1 --message-level 0 "$in" > "$out" || return 1
	"$unit_dir/test_read" same "$in" "$out"
}

# t_read_split INPUT MODE: a 3-file split set, given out of order.
t_read_split() {
	local in=$1 mode=$2 d=$work/split
	rm -f "$d"/s[123]
	vmsift --split --splitblock-size 4096 -z -d 1 --message-level 0 \
		"$in" "$d/s1" "$d/s2" "$d/s3" || return 1
	"$unit_dir/test_read" "$mode" "$in" "$d/s3" "$d/s1" "$d/s2"
}

t_read_bitmap() {
	local in=$1 out=$work/out/read.d31
	vmsift -l -d 31 --message-level 0 "$in" "$out" || return 1
	"$unit_dir/test_read" bitmap "$out"
}

t_read_threads() {
	local in=$1 out=$work/out/read.z
	vmsift -z -d 1 --message-level 0 "$in" "$out" || return 1
	"$unit_dir/test_read" threads "$in" "$out"
}

t_read_kvirt() {
	local in=$1 d=$work/split
	"$unit_dir/test_read" kvirt "$in" || return 1
	rm -f "$d"/s[12]
	vmsift --split -z -d 31 --message-level 0 "$in" "$d/s1" "$d/s2" || return 1
	"$unit_dir/test_read" kvirt "$d/s1" "$d/s2"
}

t_read_errors() {
	local in=$1 out=$work/out/read.d31
	vmsift -z -d 31 --message-level 0 "$in" "$out" || return 1
	"$unit_dir/test_read" errors "$out" "$work/out"
}

# t_doc_example INPUT: doc/api.md's example program, compiled against
# the library with the project's warnings, reads a page and the release.
t_doc_example() {
	local in=$1 src=$api_dir/read_page.c want
	sed -n '/<!-- example: read_page.c -->/,/^```$/p' "$top/doc/api.md" |
		sed '1,2d;$d' > "$src"
	[ -s "$src" ] || { echo "no example in doc/api.md"; return 1; }
	cc -O2 -Wall -Wextra -Werror -std=gnu11 -I"$top/include" -o "$api_dir/read_page" \
		"$src" "$top/lib/libvmsift.a" \
		$(pkg-config --libs zlib lzo2 snappy libzstd libdeflate libcrypto) -pthread || return 1
	want=$(strings -n 8 "$in" | sed -n 's/^OSRELEASE=//p' | head -1)
	"$api_dir/read_page" "$in" 0x1000 > "$api_dir/example.out" || return 1
	cat "$api_dir/example.out"
	grep -q '^pfn 0x1000 of 0x[0-9a-f]*: \(data\|zero\)' "$api_dir/example.out" &&
		grep -qxF "release: $want" "$api_dir/example.out"
}

# t_read_tsan INPUT: the threads test built with TSan (the library and
# the test from source): no data race between 4 readers of a split set.
t_read_tsan() {
	local in=$1 dir=$work/tsan-read d=$work/split log
	command -v clang >/dev/null || { echo "clang not found"; return 1; }
	mkdir -p "$dir" || return 1
	# shellcheck disable=SC2046
	clang -g -O1 -fsanitize=thread -std=gnu11 -pthread \
		$(make -s -C "$top" print-VMSIFT_CPPFLAGS) -o "$dir/test_read" \
		"$top"/lib/*.c "$unit_dir/test_read.c" \
		$(make -s -C "$top" print-VMSIFT_LDLIBS) || return 1
	rm -f "$d"/s[123]
	vmsift --split --splitblock-size 4096 -z -d 1 --message-level 0 \
		"$in" "$d/s1" "$d/s2" "$d/s3" || return 1
	log=$dir/log
	TEST_READ_MAX_PFN=0x6000 TSAN_OPTIONS=halt_on_error=0 \
		"$dir/test_read" threads "$in" "$d/s1" "$d/s2" "$d/s3" > "$log" 2>&1
	local rc=$?
	if grep -q "WARNING: ThreadSanitizer" "$log"; then
		grep -m1 -A30 "WARNING: ThreadSanitizer" "$log"
		return 1
	fi
	cat "$log"
	return $rc
}

api_in=${vmcores[0]:-}
run_test "api: one version in the header, the manual and -v" t_version
run_test "api: build the unit programs" t_api_build
if [ -n "$api_in" ]; then
	run_test "api: status NO_SPACE on a full disk" t_status_nospace "$api_in"
	run_test "api: status CANCELLED after vmsift_cancel" \
		"$unit_dir/test_status" cancel "$api_in" "$api_dir/cancel"
	run_test "api: status BAD_INPUT for cut inputs" \
		"$unit_dir/test_status" truncated "$api_in" "$api_dir"
	run_test "api: status INVALID for bad calls" \
		"$unit_dir/test_status" invalid "$api_in" "$api_dir/invalid"
	run_test "api: version, options struct_size, open by fd" \
		"$unit_dir/test_status" contract "$api_in" "$api_dir/contract"
	for flag in -c -l -p -z; do
		run_test "api read: every page of kdump $flag -d 1 reads as the ELF input's" \
			t_read_same "$api_in" $flag
	done
	run_test "api read: every page of a flattened file reads as the ELF input's" \
		t_read_flat "$api_in"
	run_test "api read: every page of a 3-file split set reads as the ELF input's" \
		t_read_split "$api_in" same
	run_test "api read: -d 31 pages are EXCLUDED exactly where the kdump bitmaps say" \
		t_read_bitmap "$api_in"
	run_test "api read: 4 threads, small cache, same bytes (kdump zstd)" \
		t_read_threads "$api_in"
	run_test "api read: 4 threads, small cache, same bytes (split set)" \
		t_read_split "$api_in" threads
	run_test "api read: init_uts_ns through the page tables holds OSRELEASE" \
		t_read_kvirt "$api_in"
	run_test "api read: statuses of failed reads and opens" t_read_errors "$api_in"
	run_test "api read: the page cache is bounded and gives a second chance (CLOCK)" \
		"$unit_dir/test_pagecache"
	run_test "api read: 4 threads of a split set under TSan: no data race" \
		t_read_tsan "$api_in"
	run_test "api read: doc/api.md's example program reads a page and the release" \
		t_doc_example "$api_in"
fi

# ---- the session's contract (tests/unit/api_stats.c, machine_load.c) ----

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
