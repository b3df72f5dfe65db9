# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/build.sh - the build itself: a change of flags rebuilds
# (vmsift.mk's flags stamp), so that tests/run's WERROR=1 build compiles
# everything with -Werror even after a plain `make`; every build sees
# vmsift.mk's feature macros.  Sourced by tests/run, after its build.

# A scratch Makefile that uses vmsift.mk as the top one does, on a file
# with a warning: the plain build passes, the WERROR=1 one must rebuild
# and fail, the plain one after it must rebuild and pass again.
t_build_stamp() {
	local d=$work/stamp
	rm -rf "$d" && mkdir -p "$d" || return 1
	printf 'int f(void);\nint f(void)\n{\n\tint unused;\n\treturn 0;\n}\n' > "$d/w.c"
	cat > "$d/Makefile" <<MK
include $top/vmsift.mk
CFLAGS = \$(VMSIFT_WARN)
VMSIFT_FLAGS_TEXT = \$(CC) \$(CFLAGS)
w.o: w.c cc.flags
	\$(CC) \$(CFLAGS) -c -o \$@ w.c
MK
	WERROR= make -s -C "$d" w.o 2>/dev/null || { echo "the plain build failed"; return 1; }
	WERROR=1 make -s -C "$d" w.o 2>/dev/null && { echo "WERROR=1 did not rebuild w.o"; return 1; }
	WERROR= make -s -C "$d" w.o 2>/dev/null || { echo "the plain build after WERROR=1 failed"; return 1; }
	rm -rf "$d"
}
run_test "build: a change of flags rebuilds (the -Werror build is never stale)" t_build_stamp

# Every object of the top Makefile depends on the stamp: after tests/run's
# build, make -n with other flags would recompile every lib/ and cli/ file.
t_build_objects_stamped() {
	local plan f missing=0
	plan=$(WERROR= make -n -C "$top" vmsift lib/libvmsift.so vmsift-static 2>&1) || return 1
	for f in "$top"/lib/*.c "$top"/cli/*.c; do
		f=${f#"$top"/}
		grep -q -- "-c -o ${f%.c}.o $f" <<<"$plan" ||
			{ echo "$f is not rebuilt when the flags change"; missing=1; }
	done
	grep -q -- "-static -o vmsift-static" <<<"$plan" ||
		{ echo "vmsift-static is not rebuilt when the flags change"; missing=1; }
	[ $missing = 0 ]
}
run_test "build: every object, the libraries and vmsift-static depend on the flags" t_build_objects_stamped

# The fuzz, unit and sanitizer builds take their feature macros from
# vmsift.mk (qsort_r and friends need _GNU_SOURCE).
t_build_flags_shared() {
	local want mk
	want=$(make -s --no-print-directory -C "$top" print-VMSIFT_CPPFLAGS) || return 1
	[[ $want == *-D_GNU_SOURCE* && $want == *-D_FILE_OFFSET_BITS=64* ]] ||
		{ echo "vmsift.mk lacks the feature macros: $want"; return 1; }
	for mk in tests/fuzz tests/unit; do
		[ "$(make -s --no-print-directory -C "$top/$mk" print-VMSIFT_CPPFLAGS)" = "$want" ] ||
			{ echo "$mk sees other flags than the top Makefile"; return 1; }
		make -n -C "$top/$mk" 2>/dev/null | grep -- ' -c ' | grep -v -- '-D_GNU_SOURCE' &&
			{ echo "$mk compiles without vmsift.mk's feature macros"; return 1; }
	done
	return 0
}
run_test "build: the fuzz and unit builds use vmsift.mk's flags" t_build_flags_shared

# lib/libvmsift.a holds exactly lib/'s objects: a member left from a file
# since removed could satisfy a call the library no longer provides.
t_build_archive_members() {
	local want got
	make -s -C "$top" lib/libvmsift.a || return 1
	want=$(cd "$top/lib" && ls *.c | sed 's/\.c$/.o/' | sort)
	got=$(ar t "$top/lib/libvmsift.a" | sort)
	[ "$want" = "$got" ] || { echo "lib/libvmsift.a members differ from lib/*.c (< sources, > archive):"; diff <(echo "$want") <(echo "$got"); return 1; }
}
run_test "build: lib/libvmsift.a holds exactly the objects of lib/*.c" t_build_archive_members

# make vmsift-static.ARCH: one rule for every architecture, a cross gcc and
# the codec libraries of tools/cross-sysroot's sysroot.  Each binary must
# build, be static, be for ARCH's machine (readelf's header), and run:
# --version under qemu-ARCH-static lists every codec.
# make rebuilds a binary when a source, a header, its flags stamp or its
# sysroot changed (an earlier suite, behost.sh, may have made one).  The
# first of these tests makes every selected one, two compilers at a time
# (each build is one compiler over all the sources); each test then runs
# make for its own (up to date, or failing again with its log) and checks
# the binary.
t_build_cross_static() {
	local arch=$1 machine=$2 class=$3 bin=$top/vmsift-static.$1 hdr ver a
	# (a test runs in a subshell of tests/run: $$ is tests/run's own pid)
	if [ "$(cat "$work/cross-built" 2>/dev/null)" != $$ ]; then
		echo $$ > "$work/cross-built"
		# the sysroots one at a time (apt-get), then the builds
		for a in $build_cross_archs; do
			VMSIFT_CACHE=${VMSIFT_CACHE:-$top/tests/work/cache} "$top/tools/cross-sysroot" \
				"$(case $a in aarch64) echo arm64;; ppc64le) echo ppc64el;; *) echo "$a";; esac)" \
				>/dev/null 2>&1
		done
		# shellcheck disable=SC2046
		make -s -j2 -k -C "$top" $(printf 'vmsift-static.%s ' $build_cross_archs) \
			>/dev/null 2>&1
	fi
	make -s -C "$top" "vmsift-static.$arch" >"$work/cross-$arch.log" 2>&1 ||
		{ tail -n 15 "$work/cross-$arch.log"; echo "make vmsift-static.$arch failed"; return 1; }
	[ -x "$bin" ] || { echo "make vmsift-static.$arch left no binary"; return 1; }
	hdr=$(readelf -h "$bin") || return 1
	grep -Eq "Machine: +$machine\$" <<<"$hdr" ||
		{ echo "vmsift-static.$arch is not for $machine:"; grep Machine <<<"$hdr"; return 1; }
	grep -Eq "Data: +$class" <<<"$hdr" ||
		{ echo "vmsift-static.$arch is not $class:"; grep Data <<<"$hdr"; return 1; }
	readelf -l "$bin" | grep -q INTERP && { echo "vmsift-static.$arch asks for a dynamic loader"; return 1; }
	readelf -d "$bin" | grep -q NEEDED && { echo "vmsift-static.$arch needs shared libraries"; return 1; }
	ver=$("qemu-$arch-static" "$bin" --version) || { echo "vmsift-static.$arch --version failed under qemu-$arch-static"; return 1; }
	grep -q "^vmsift: version" <<<"$ver" && grep -q "compiled in: zlib lzo snappy zstd" <<<"$ver" ||
		{ echo "vmsift-static.$arch --version: $ver"; return 1; }
	rm -f "$work/cross-$arch.log"
}
# The builds the first of the tests below makes (those VMSIFT_TESTS picks).
build_cross_archs=
for a in "aarch64:AArch64" "ppc64le:PowerPC64 LE" "s390x:S/390 big-endian" "riscv64:RISC-V"; do
	[ -z "${VMSIFT_TESTS:-}" ] ||
		[[ "build: make vmsift-static.${a%%:*} is static, ${a#*:}, runs under qemu" =~ $VMSIFT_TESTS ]] &&
		build_cross_archs+=" ${a%%:*}"
done
run_test "build: make vmsift-static.aarch64 is static, AArch64, runs under qemu" \
	t_build_cross_static aarch64 AArch64 "2's complement, little endian"
run_test "build: make vmsift-static.ppc64le is static, PowerPC64 LE, runs under qemu" \
	t_build_cross_static ppc64le "PowerPC64" "2's complement, little endian"
run_test "build: make vmsift-static.s390x is static, S/390 big-endian, runs under qemu" \
	t_build_cross_static s390x "IBM S/390" "2's complement, big endian"
run_test "build: make vmsift-static.riscv64 is static, RISC-V, runs under qemu" \
	t_build_cross_static riscv64 "RISC-V" "2's complement, little endian"
