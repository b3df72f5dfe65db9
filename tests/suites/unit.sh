# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/unit.sh - the unit tier (tests/unit): one C binary per area
# of the library, built with the library's own flags (vmsift.mk, -Werror
# under tests/run) and run here.  pipeline_test, vmcoreinfo_test,
# s390x_test and bound_test (util.h's binary search) test internal modules through lib/'s headers; api_test tests the public
# contract through include/vmsift.h alone, linked against libvmsift.so,
# on a small generated vmcore and the first real one.  Each run has a
# time limit: a hang (a lost wake-up in the pipeline) fails.  Sourced by
# tests/run.

unit_dir=$top/tests/unit

# Built afresh each run: a failed build never leaves an old binary to run.
t_unit_build() {
	rm -f "$unit_dir"/*_test
	make -s -C "$unit_dir" all api_test
}

# t_unit NAME ARGS...: run tests/unit/NAME_test ARGS.
t_unit() {
	local name=$1; shift
	[ -x "$unit_dir/${name}_test" ] || { echo "${name}_test not built"; return 1; }
	timeout 300 "$unit_dir/${name}_test" "$@"
}

# t_bound_type: VS_LOWER_BOUND on a uint64_t member compiles, on a
# uint32_t one it does not (a narrower key would be read 8 bytes wide).
t_bound_type() {
	local d=$work/unit type flags
	mkdir -p "$d"
	flags=$(make -s -C "$top" print-VMSIFT_CPPFLAGS)
	for type in uint64_t uint32_t; do
		printf '%s\n' '#include "util.h"' "struct s { $type k; };" \
			'size_t f(const struct s *a, size_t n);' \
			'size_t f(const struct s *a, size_t n) { return VS_LOWER_BOUND(a, n, k, 1); }' \
			> "$d/bound_$type.c"
	done
	# shellcheck disable=SC2086
	${CC:-cc} -std=gnu11 $flags -fsyntax-only "$d/bound_uint64_t.c" ||
		{ echo "a uint64_t key does not compile"; return 1; }
	# shellcheck disable=SC2086
	! ${CC:-cc} -std=gnu11 $flags -fsyntax-only "$d/bound_uint32_t.c" 2>/dev/null ||
		{ echo "a uint32_t key compiles"; return 1; }
}

# t_layout: tests/unit/layout_test on struct bf in four objects gcc
# writes (a: lo:3, hi:5; b: hi two bits later; c: hi 4 bits wide; d: a's
# again; struct anon in a, b, d, b's different inside an anonymous
# struct in an anonymous union), a's also with DWARF 4, a's struct many of 4000 members, and
# nest.o's struct nest9 (5^9 anonymous members deep down), and odd1.o to
# odd3.o, DWARF 4 bit offsets no compiler writes.
t_layout() {
	local d=$work/unit/layout n=4000 i
	rm -rf "$d" && mkdir -p "$d" || return 1
	{
		echo 'struct bf { unsigned int lo : 3; unsigned int hi : 5; int after; } *bf;'
		printf 'struct many {'
		for ((i = 0; i < n; i++)); do printf ' int m%d;' "$i"; done
		echo ' } *many;'
	} > "$d/a.c"
	echo 'struct bf { unsigned int lo : 3; unsigned int : 2; unsigned int hi : 5; int after; } *bf;' > "$d/b.c"
	echo 'struct bf { unsigned int lo : 3; unsigned int hi : 4; int after; } *bf;' > "$d/c.c"
	echo 'struct bf { unsigned int lo : 3; unsigned int hi : 5; int after; } *bf, *other;' > "$d/d.c"
	# struct anon: b's differs from a's two anonymous levels down only
	echo 'struct anon { int x; union { int i; struct { short lo, hi; }; }; } *anon;' |
		tee -a "$d/a.c" >> "$d/d.c"
	echo 'struct anon { int x; union { int i; struct { short hi, lo; }; }; } *anon;' >> "$d/b.c"
	for i in a b c d; do
		${CC:-cc} -g -c "$d/$i.c" -o "$d/$i.o" || return 1
	done
	${CC:-cc} -gdwarf-4 -c "$d/a.c" -o "$d/a4.o" || return 1
	# anonymous members of one type, over and over (GNU C allows a
	# tagged one with -fms-extensions; empty structs keep names unique)
	{
		echo 'struct nest0 { };'
		for ((i = 1; i <= 9; i++)); do
			printf 'struct nest%d {' "$i"
			[ "$i" = 9 ] && printf ' int top;'
			printf ' struct nest%d;' $((i - 1)) $((i - 1)) $((i - 1)) $((i - 1)) $((i - 1))
			echo ' };'
		done
		echo 'struct nest9 *nest;'
	} > "$d/nest.c"
	${CC:-cc} -g -fms-extensions -c "$d/nest.c" -o "$d/nest.o" || return 1
	# odd1.o, odd2.o, odd3.o: DWARF 4 whose hi has a DW_AT_bit_offset
	# that does not fit its 32-bit unit (30, 31, 30 for 5 bits), which
	# no compiler writes: gcc's assembly of struct bf edited (hi's 24)
	echo 'struct bf { unsigned int lo : 3; unsigned int hi : 5; int after; } *bf;' > "$d/odd.c"
	${CC:-cc} -gdwarf-4 -dA -S "$d/odd.c" -o "$d/odd.s" || return 1
	for i in 1:0x1e 2:0x1f 3:0x1e; do
		sed "s/0x18\t# DW_AT_bit_offset/${i#*:}\t# DW_AT_bit_offset/" \
			"$d/odd.s" > "$d/odd${i%%:*}.s"
		! cmp -s "$d/odd.s" "$d/odd${i%%:*}.s" ||
			{ echo "odd.s: no DW_AT_bit_offset 0x18 to edit"; return 1; }
		${CC:-cc} -c "$d/odd${i%%:*}.s" -o "$d/odd${i%%:*}.o" || return 1
	done
	t_unit layout "$d" "$n"
}

# A small vmcore for the API test (mkbad.py's good one).
unit_small_vmcore() {
	local d=$work/unit
	mkdir -p "$d"
	[ -f "$d/good.vmcore" ] ||
		$PY "$top/tests/tools/mkbad.py" "$d" >/dev/null || return 1
	echo "$d/good.vmcore"
}

run_test "unit: build the unit tests (-Werror)" t_unit_build
run_test "unit: ordered pipeline: order, in-flight bound, worker failure, consumer stop" \
	t_unit pipeline
run_test "unit: VMCOREINFO parsing: kinds, hex and decimal, missing, malformed, overlong" \
	t_unit vmcoreinfo
run_test "unit: s390x translation: identity map, DAT walks of 3 to 5 levels, large pages, 6.10+ layout" \
	t_unit s390x
run_test "unit: --mem-usage's sample: bounded, evenly spread, every seed" \
	t_unit sample
run_test "unit: binary search (util.h): lower and upper bounds against a linear scan; empty, all below, all above, equal keys" \
	t_unit bound
run_test "unit: binary search (util.h): a key member of another type than uint64_t does not compile" \
	t_bound_type
run_test "unit: kallsyms decoding: relative, absolute per-CPU, absolute 8/4, both orders, long names, corrupt tables" \
	t_unit kallsyms
run_test "unit: small-read blocks (file.c): block boundaries, the file's end, a read past it refused, LRU eviction, random reads against pread, mmap on and off" \
	t_unit smallread
run_test "unit: struct layouts (typeinfo_complete.c): bit-fields' first bit and width from DWARF 5, DWARF 4 and BTF; layouts differing in one bit-field or inside anonymous members refused, identical accepted; a digest linear in the members; a member lookup bounded (DWARF, BTF)" \
	t_layout
if unit_small=$(unit_small_vmcore) && [ ${#vmcores[@]} -gt 0 ]; then
	run_test "unit: API contract: a session dumps twice, dry run, cancel" \
		t_unit api "$unit_small" "${vmcores[0]}"
else
	run_test "unit: API contract: a small and a real vmcore to test on" false
fi
