# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/behost.sh - vmsift on a big-endian host: vmsift-static.s390x
# (make vmsift-static.s390x) run under qemu-s390x-static on the carried
# little-endian vmcores (x86_64, arm64) must write, byte for byte, what
# the native x86_64 vmsift writes: kdump-compressed with zlib, lzo and
# zstd, ELF, flattened, --split, a kdump file re-filtered (snappy pages
# among them), --reassemble, -R, --dump-dmesg, --num-threads 2.
#
# Snappy compression is left out: Debian's libsnappy 1.1.9 for s390x,
# run under qemu-s390x-static 7.2, does not round-trip a page by itself
# (compress, then uncompress with the same library: most pages differ),
# so its pages can be neither equal nor right; snappy decompression on
# the big-endian host is tested (a native -p dump re-filtered).  Every header field, descriptor and
# bitmap is then in the dumped machine's byte order, never the host's.
# qemu-user is no guest: VMSIFT_NO_QEMU=1 does not skip it.
#
# By default a short list (a few minutes); VMSIFT_BEHOST_FULL=1 runs every
# codec at -d 1 and -d 31 on both vmcores, and every output kind on the
# arm64 one too.  Sourced by tests/run.

# shellcheck source=tests/suites/lib/carried.sh
. "$top/tests/suites/lib/carried.sh"
be_dir=$work/behost
be_bin=$top/vmsift-static.s390x
mkdir -p "$be_dir"

# be_vmsift ARGS...: the big-endian vmsift, made afresh if the sources
# changed (a test picked alone by VMSIFT_TESTS never runs a stale one).
be_vmsift() {
	make -s -C "$top" vmsift-static.s390x >"$be_dir/make.log" 2>&1 ||
		{ cat "$be_dir/make.log" >&2; return 1; }
	qemu-s390x-static "$be_bin" "$@"
}

# be_input x86_64|arm64|s390x|s390x-gen: the carried vmcore, decompressed
# once; s390x: bedump.sh's big-endian synthetic one; s390x-gen: a real
# s390x layout (tests/gen/s390x/s390x-r2-vr), generated once.
be_input() {
	local z raw
	case $1 in
	s390x) bed_input; return ;;
	s390x-gen)
		raw=$be_dir/s390x-r2-vr.vmcore
		if [ ! -f "$raw" ] || [ "$top/tests/gen/mkvmcore.py" -nt "$raw" ] ||
			[ "$top/tests/gen/s390x/s390x-r2-vr.spec" -nt "$raw" ]; then
			$PY "$top/tests/gen/mkvmcore.py" "$top/tests/gen/s390x/s390x-r2-vr.spec" \
				"$raw.tmp" >/dev/null || return 1
			mv "$raw.tmp" "$raw"
		fi
		echo "$raw"; return ;;
	x86_64) z=$top/tests/data/kdump-384M.vmcore.zst
		# tests/run's own copy, when it made one
		raw=$work/$(basename "$z" .zst)
		[ -f "$raw" ] && ! [ "$z" -nt "$raw" ] && { echo "$raw"; return; } ;;
	arm64) carried_input arm64 kdump-arm64-384M; return ;;
	esac
	raw=$be_dir/$(basename "$z" .zst)
	if [ ! -f "$raw" ] || [ "$z" -nt "$raw" ]; then
		zstd -q -d --long=31 -f -o "$raw.tmp" "$z" || return 1
		mv "$raw.tmp" "$raw"
	fi
	echo "$raw"
}

# make brings it up to date (its rule depends on every source and header,
# its flags stamp and its sysroot), once for build.sh's and s390x_real.sh's
# tests too.
t_behost_build() {
	make -s -C "$top" vmsift-static.s390x >"$be_dir/build.log" 2>&1 ||
		{ tail -n 15 "$be_dir/build.log"; return 1; }
	readelf -h "$be_bin" | grep -Eq 'Data: +2.s complement, big endian' ||
		{ echo "vmsift-static.s390x is not big-endian"; return 1; }
	be_vmsift --version | grep -q "compiled in: zlib lzo snappy zstd"
}

# be_level ARCH: the level the helpers below filter at: 31, but 1 for the
# s390x dump (its memory is x86_64's: nothing s390x translation can use).
be_level() {
	if [ "$1" = s390x ]; then echo 1; else echo 31; fi
}

# t_behost_same ARCH ARGS...: vmsift ARGS VMCORE OUT, native and big-endian:
# the same file.
t_behost_same() {
	local in out=$work/out/behost
	in=$(be_input "$1") || return 1
	shift
	rm -f "$out".*
	vmsift "$@" --message-level 0 "$in" "$out.le" || return 1
	be_vmsift "$@" --message-level 0 "$in" "$out.be" || { echo "big-endian vmsift failed"; return 1; }
	cmp "$out.le" "$out.be" || { echo "vmsift $* differs on a big-endian host"; return 1; }
}

# t_behost_flat ARCH: -F to stdout is the same stream; -R of it on the
# big-endian host rebuilds the same file.
t_behost_flat() {
	local in out=$work/out/behost lv
	in=$(be_input "$1") || return 1
	lv=$(be_level "$1")
	rm -f "$out".*
	vmsift -F -c -d "$lv" --message-level 0 "$in" > "$out.le" || return 1
	be_vmsift -F -c -d "$lv" --message-level 0 "$in" > "$out.be" || return 1
	cmp "$out.le" "$out.be" || { echo "-F differs on a big-endian host"; return 1; }
	vmsift -R "$out.le.r" < "$out.le" >/dev/null || return 1
	be_vmsift -R "$out.be.r" < "$out.le" >/dev/null || return 1
	cmp "$out.le.r" "$out.be.r" || { echo "-R differs on a big-endian host"; return 1; }
}

# t_behost_split ARCH: --split into 2 files, each the same; the native
# parts reassembled on the big-endian host give the native reassembly.
t_behost_split() {
	local in out=$work/out/behost lv i
	in=$(be_input "$1") || return 1
	lv=$(be_level "$1")
	rm -f "$out".*
	vmsift --split --splitblock-size 4096 -l -d "$lv" --message-level 0 "$in" "$out.le1" "$out.le2" || return 1
	be_vmsift --split --splitblock-size 4096 -l -d "$lv" --message-level 0 "$in" "$out.be1" "$out.be2" || return 1
	for i in 1 2; do
		cmp "$out.le$i" "$out.be$i" || { echo "--split file $i differs on a big-endian host"; return 1; }
	done
	vmsift --reassemble "$out.le1" "$out.le2" "$out.le" >/dev/null || return 1
	be_vmsift --reassemble "$out.le1" "$out.le2" "$out.be" >/dev/null || return 1
	cmp "$out.le" "$out.be" || { echo "--reassemble differs on a big-endian host"; return 1; }
}

# t_behost_refilter ARCH FLAG: a native FLAG -d 1 (s390x: -d 0) kdump
# file re-filtered to -z -d 31 (s390x: -d 1) on both hosts: the same file.
t_behost_refilter() {
	local in out=$work/out/behost lv
	in=$(be_input "$1") || return 1
	lv=$(be_level "$1")
	rm -f "$out".*
	vmsift "$2" -d $((lv == 1 ? 0 : 1)) --message-level 0 "$in" "$out.d1" || return 1
	vmsift -z -d "$lv" --message-level 0 "$out.d1" "$out.le" || return 1
	be_vmsift -z -d "$lv" --message-level 0 "$out.d1" "$out.be" || return 1
	cmp "$out.le" "$out.be" || { echo "re-filtering differs on a big-endian host"; return 1; }
}

# t_behost_dmesg ARCH: --dump-dmesg writes the same log.
t_behost_dmesg() {
	local in out=$work/out/behost
	in=$(be_input "$1") || return 1
	rm -f "$out".*
	vmsift --dump-dmesg "$in" "$out.le" >/dev/null || return 1
	be_vmsift --dump-dmesg "$in" "$out.be" >/dev/null || return 1
	[ -s "$out.le" ] || { echo "empty log"; return 1; }
	cmp "$out.le" "$out.be" || { echo "--dump-dmesg differs on a big-endian host"; return 1; }
}

# t_behost_unit: the unit tests that need no input (machine_load,
# pipeline_test, vmcoreinfo_test, s390x_test: s390x translation with no
# byte swapping), built for s390x against
# tools/cross-sysroot's libraries with the library's flags (-Werror), run
# under qemu-s390x-static; and input_read, the input side's page reader,
# on the x86_64 vmcore against native kdump dumps of it.
t_behost_unit() {
	local d=$be_dir/unit sys flags in t key
	sys=$(VMSIFT_CACHE=${VMSIFT_CACHE:-$top/tests/work/cache} "$top/tools/cross-sysroot" s390x) || return 1
	flags="-O1 $(make -s --no-print-directory -C "$top" print-VMSIFT_WARN) -Werror
		$(make -s --no-print-directory -C "$top" print-VMSIFT_STD)
		-I$sys/usr/include -I$sys/usr/include/s390x-linux-gnu -I$sys/usr/include/lzo
		$(make -s --no-print-directory -C "$top" print-VMSIFT_CPPFLAGS)
		-DVMSIFT_NO_DWARF -DVMSIFT_NO_BTF"
	# The programs are kept while the key (the sources, headers, compiler
	# and flags) is the same: only a change rebuilds them.
	key=$({ (cd "$top" && sha256sum lib/*.c lib/*.h include/*.h tests/unit/*.h \
		tests/unit/{machine_load,pipeline_test,vmcoreinfo_test,s390x_test,input_read}.c) &&
		s390x-linux-gnu-gcc --version && echo "$flags" && ls -l "$sys"/usr/lib/s390x-linux-gnu/*.a; } |
		sha256sum | cut -c1-16) || return 1
	if [ "$(cat "$d/key" 2>/dev/null)" != "$key" ]; then
		rm -rf "$d" && mkdir -p "$d/obj" || return 1
		# shellcheck disable=SC2086
		(cd "$d/obj" && s390x-linux-gnu-gcc $flags -c "$top"/lib/*.c) || return 1
		s390x-linux-gnu-ar rcs "$d/libvmsift.a" "$d"/obj/*.o || return 1
		for t in machine_load pipeline_test vmcoreinfo_test s390x_test input_read; do
			# shellcheck disable=SC2086
			s390x-linux-gnu-gcc $flags -static -o "$d/$t" "$top/tests/unit/$t.c" "$d/libvmsift.a" \
				-L"$sys/usr/lib/s390x-linux-gnu" -lz -llzo2 -lsnappy -lzstd -ldeflate \
				-lcrypto -lstdc++ -lm 2>&1 | grep -v "statically linked" >&2
			[ -x "$d/$t" ] || { echo "$t did not build for s390x"; return 1; }
		done
		echo "$key" > "$d/key"
	fi
	for t in machine_load pipeline_test vmcoreinfo_test s390x_test; do
		timeout 300 qemu-s390x-static "$d/$t" >"$d/$t.log" 2>&1 ||
			{ tail -n 10 "$d/$t.log"; echo "$t fails on a big-endian host"; return 1; }
	done
	in=$(be_input x86_64) || return 1
	vmsift -l -d 0 --message-level 0 "$in" "$d/d0" || return 1
	vmsift -z -d 31 --message-level 0 "$in" "$d/d31" || return 1
	timeout 300 qemu-s390x-static "$d/input_read" "$in" "$d/d0" || return 1
	timeout 300 qemu-s390x-static "$d/input_read" -s "$in" "$d/d31" || return 1
	rm -f "$d/d0" "$d/d31"
}

run_test "behost: make vmsift-static.s390x (big-endian, runs under qemu-s390x-static)" t_behost_build
run_test "behost: unit tests and the page reader built for s390x pass under qemu" t_behost_unit
be_arches=x86_64
[ "${VMSIFT_BEHOST_FULL:-0}" = 1 ] && be_arches="x86_64 arm64"
for be_arch in $be_arches; do
	run_test "behost $be_arch: -l -d 31 equals the little-endian host's" t_behost_same $be_arch -l -d 31
	run_test "behost $be_arch: -z -d 1 equals the little-endian host's" t_behost_same $be_arch -z -d 1
	run_test "behost $be_arch: -E -d 31 equals the little-endian host's" t_behost_same $be_arch -E -d 31
	run_test "behost $be_arch: -z -d 31 --num-threads 2 equals the little-endian host's" \
		t_behost_same $be_arch -z -d 31 --num-threads 2
	run_test "behost $be_arch: -F and -R equal the little-endian host's" t_behost_flat $be_arch
	run_test "behost $be_arch: --split into 2 and --reassemble equal the little-endian host's" t_behost_split $be_arch
	run_test "behost $be_arch: re-filtering a zlib kdump file equals the little-endian host's" t_behost_refilter $be_arch -c
	run_test "behost $be_arch: re-filtering a snappy kdump file equals the little-endian host's" t_behost_refilter $be_arch -p
	run_test "behost $be_arch: --dump-dmesg equals the little-endian host's" t_behost_dmesg $be_arch
done
# A big-endian dump on a big-endian host (no swapping at all) and on a
# little-endian one: the same files.
run_test "behost s390x dump: -z -d 1 equals the little-endian host's" t_behost_same s390x -z -d 1
run_test "behost s390x dump: -E -d 0 equals the little-endian host's" t_behost_same s390x -E -d 0
run_test "behost s390x dump: -F and -R equal the little-endian host's" t_behost_flat s390x
run_test "behost s390x dump: --split and --reassemble equal the little-endian host's" t_behost_split s390x
run_test "behost s390x dump: re-filtering a big-endian kdump file equals the little-endian host's" \
	t_behost_refilter s390x -l
# s390x translation (the DAT walk of vmemmap, os_info, big-endian struct
# pages) with the host's order and against it: the same -d 31 dump.
run_test "behost s390x gen: -l -d 31 of s390x-r2-vr equals the little-endian host's" \
	t_behost_same s390x-gen -l -d 31
if [ "${VMSIFT_BEHOST_FULL:-0}" = 1 ]; then
	for be_arch in x86_64 arm64; do
		for be_flag in -c -l -z; do
			for be_level in 1 31; do
				run_test "behost $be_arch full: $be_flag -d $be_level equals the little-endian host's" \
					t_behost_same $be_arch $be_flag -d $be_level
			done
		done
		run_test "behost $be_arch full: -E -d 0 equals the little-endian host's" t_behost_same $be_arch -E -d 0
		run_test "behost $be_arch full: -c -d 31 --num-threads 2 --non-mmap equals the little-endian host's" \
			t_behost_same $be_arch -c -d 31 --num-threads 2 --non-mmap
	done
else
	run_test "behost arm64: -z -d 31 equals the little-endian host's" t_behost_same arm64 -z -d 31
	run_test "behost arm64: --dump-dmesg equals the little-endian host's" t_behost_dmesg arm64
fi
