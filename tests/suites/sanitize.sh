# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/sanitize.sh - vmsift built under ASan+UBSan and under TSan
# (clang, separate build directories under $work), run on the first real
# vmcore: each codec, -d 0/1/31, ELF output, flattened out and back, 1 and
# 4 threads.  A test fails on a non-zero exit or on any sanitizer report.
# Without clang the build tests fail (reported, not skipped silently).
# Sourced by tests/run; about 2-3 minutes on 2 cores.

san_cc=${SAN_CC:-clang}
# The feature macros, includes, warnings and libraries of every other build
# (vmsift.mk).
san_mk() { make -s --no-print-directory -C "$top" "print-$1"; }
san_cppflags=$(san_mk VMSIFT_CPPFLAGS)
san_std=$(san_mk VMSIFT_STD)
san_warn=$(san_mk VMSIFT_WARN)
san_ldlibs=$(san_mk VMSIFT_LDLIBS)
san_asan=$work/asan
san_tsan=$work/tsan

# san_build DIR FLAGS...: DIR/vmsift from lib/*.c and cli/*.c, two
# compilers at a time; kept while its key (the sources, the headers, the
# compiler and the flags: san_key) is the same, so that only a change
# rebuilds it.
san_build() {
	local dir=$1; shift
	local srcs half pid1 rc=0 cflags key
	command -v "$san_cc" >/dev/null || { echo "$san_cc not found: sanitizer runs skipped"; return 1; }
	cflags="-g -O1 -fno-omit-frame-pointer $san_std $san_cppflags $san_warn $*"
	key=$(san_key "$cflags $san_ldlibs") || return 1
	if [ -x "$dir/vmsift" ] && [ "$(cat "$dir/key" 2>/dev/null)" = "$key" ]; then
		echo "$dir/vmsift: built from these sources and flags (key $key)"
		return 0
	fi
	rm -rf "$dir" && mkdir -p "$dir/obj" || return 1
	srcs=("$top"/lib/*.c "$top"/cli/*.c)
	half=$(( ${#srcs[@]} / 2 ))
	san_compile "$dir" "$cflags" "${srcs[@]:0:half}" & pid1=$!
	san_compile "$dir" "$cflags" "${srcs[@]:half}" || rc=1
	wait $pid1 || rc=1
	[ $rc -eq 0 ] || return 1
	# shellcheck disable=SC2086
	"$san_cc" "$@" -o "$dir/vmsift" "$dir"/obj/*.o $san_ldlibs || return 1
	echo "$key" > "$dir/key"
}

# san_key FLAGS: a digest of every file a sanitizer build reads from the
# tree (names and contents), the compiler's version and FLAGS.
san_key() {
	{
		(cd "$top" && sha256sum lib/*.c lib/*.h cli/*.c cli/*.h include/*.h) &&
		"$san_cc" --version && printf '%s\n' "$1"
	} | sha256sum | cut -c1-16
}

# san_compile DIR CFLAGS FILES...: one object per file into DIR/obj.
san_compile() {
	local dir=$1 cflags=$2 f; shift 2
	for f in "$@"; do
		# shellcheck disable=SC2086
		"$san_cc" $cflags -c -o "$dir/obj/$(basename "$(dirname "$f")")_$(basename "$f" .c).o" "$f" || return 1
	done
}

# san_clean LOG: fail, showing it, if LOG holds a sanitizer report.
san_clean() {
	if grep -qE 'runtime error:|ERROR: (Address|Leak)Sanitizer|WARNING: ThreadSanitizer|SUMMARY: [A-Za-z]+Sanitizer' "$1"; then
		grep -m1 -A30 -E 'runtime error:|Sanitizer' "$1"
		return 1
	fi
}

# san_run BIN NAME ARGS...: BIN [ARGS] on the first vmcore into NAME.
san_run() {
	local bin=$1 name=$2; shift 2
	local out=$work/out/san.$name log=$work/out/san.$name.log rc
	rm -f "$out"
	"$bin" "$@" --message-level 0 "${vmcores[0]}" "$out" 2>"$log"
	rc=$?
	san_clean "$log" || return 1
	[ $rc -eq 0 ] || { tail -5 "$log"; echo "exit status $rc"; return 1; }
	rm -f "$out"
}

# san_flat BIN NAME ARGS...: BIN -F [ARGS] | BIN -R, both sanitized.
san_flat() {
	local bin=$1 name=$2; shift 2
	local out=$work/out/san.$name log=$work/out/san.$name.log
	rm -f "$out"
	{ "$bin" -F "$@" --message-level 0 "${vmcores[0]}" | "$bin" -R "$out"; } 2>"$log" \
		|| { san_clean "$log"; tail -5 "$log"; return 1; }
	san_clean "$log" || return 1
	rm -f "$out"
}

export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

run_test "sanitize: build vmsift under ASan+UBSan" san_build "$san_asan" \
	-fsanitize=address,undefined -fno-sanitize-recover=all
run_test "sanitize: build vmsift under TSan" san_build "$san_tsan" -fsanitize=thread

# By default each output kind, mmap and not, 1 and 4 threads, -d 0 and
# -d 31 once under ASan+UBSan, and the kdump and flattened writers under
# TSan; VMSIFT_FULL=1 adds the other codecs and levels (the same code
# around another codec's call) and TSan's zlib and ELF runs.
if [ ${#vmcores[@]} -gt 0 ]; then
	a=$san_asan/vmsift
	run_test "asan: zlib -d 0, 1 thread" san_run "$a" zlib-d0 -c -d 0 --num-threads 1
	full && run_test "asan: lzo -d 1, 4 threads" san_run "$a" lzo-d1 -l -d 1 --num-threads 4
	run_test "asan: snappy -d 31, 4 threads" san_run "$a" snappy-d31 -p -d 31 --num-threads 4
	run_test "asan: zstd -d 31, 1 thread, no mmap" san_run "$a" zstd-d31 -z -d 31 --num-threads 1 --non-mmap
	full && run_test "asan: uncompressed -d 1, 4 threads" san_run "$a" none-d1 --compression-level=0 -d 1 --num-threads 4
	full && run_test "asan: zstd -d 1, 4 threads" san_run "$a" zstd-d1 -z -d 1 --num-threads 4
	full && run_test "asan: ELF -d 0, 1 thread" san_run "$a" elf-d0 -E -d 0 --num-threads 1
	run_test "asan: ELF -d 31, 4 threads" san_run "$a" elf-d31 -E -d 31 --num-threads 4
	run_test "asan: -F | -R, zstd -d 31, 4 threads" san_flat "$a" flat-d31 -z -d 31 --num-threads 4
	t=$san_tsan/vmsift
	run_test "tsan: kdump zstd -d 31, 4 threads" san_run "$t" tsan-kdump -z -d 31 --num-threads 4
	full && run_test "tsan: kdump zlib -d 1, 4 threads" san_run "$t" tsan-kdump-d1 -c -d 1 --num-threads 4
	full && run_test "tsan: ELF -d 31, 4 threads" san_run "$t" tsan-elf -E -d 31 --num-threads 4
	run_test "tsan: -F | -R, lzo -d 31, 4 threads" san_flat "$t" tsan-flat -l -d 31 --num-threads 4
fi
