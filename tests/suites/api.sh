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
		$(pkg-config --libs zlib lzo2 snappy libzstd libdeflate) -pthread || return 1
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
