# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/lib/gen.sh - what the per-architecture suites on synthetic
# vmcores (arm64_gen.sh, ppc64_gen.sh, riscv64_gen.sh, s390x_gen.sh)
# share: generate a spec's vmcore with extra spec lines, check a dump
# against upstream makedumpfile's digests, and the filter-rules test of
# one spec.  Sourced by those suites (not a suite: tests/run sources
# tests/suites/*.sh only); uses tests/run's $top, $work, $PY and $check.

gen_levels=(1 2 4 8 16 31)
gen_digest="$PY $top/tests/gen/arm64/digest.py"

# gen_vmcore DIR NAME OUT [SPEC-LINE...]: generate DIR/NAME.spec's vmcore
# into OUT, with SPEC-LINEs (e.g. "vmcoreinfo del NUMBER(VA_BITS)")
# added.
gen_vmcore() {
	local dir=$1 name=$2 out=$3; shift 3
	cp "$dir/$name.spec" "$out.spec" || return 1
	[ $# -eq 0 ] || printf '%s\n' "$@" >> "$out.spec"
	$PY "$top/tests/gen/mkvmcore.py" "$out.spec" "$out" >/dev/null
}

# gen_digest_is EXPECTED NAME.dLEVEL DUMP: DUMP kept and excluded what
# upstream makedumpfile's dump NAME.dLEVEL did (its digest in EXPECTED).
gen_digest_is() {
	local expected=$1 key=$2 dump=$3 d=$work/out/gen-digest
	mkdir -p "$d" && ln -sf "$dump" "$d/$key" &&
		$gen_digest --check "$expected" "$d/$key"
}

# t_gen_rules DIR NAME: DIR/NAME.spec's rules at every level of
# gen_levels (check_filter.py), upstream makedumpfile's bitmaps where
# DIR/expected.txt has them, every page of the -d 31 dump read back.
t_gen_rules() {
	local dir=$1 name=$2 d=$work/out/gen-$2 l dumps=()
	local expected=$1/expected.txt
	mkdir -p "$d"
	$PY "$top/tests/gen/check_filter.py" "$top/vmsift" --keep "$d" \
		--spec "$dir/$name.spec" --levels "$(IFS=,; echo "${gen_levels[*]}")" ||
		return 1
	if [ -f "$expected" ] && grep -q "^$name\.d" "$expected"; then
		for l in "${gen_levels[@]}"; do dumps+=("$d/$name.d$l"); done
		$gen_digest --check "$expected" "${dumps[@]}" || return 1
	fi
	$check pages "$d/$name.vmcore" "$d/$name.d31"
}

# gen_rules_tests ARCH DIR: one t_gen_rules test for each spec of DIR
# (makedumpfile's bitmaps named in the test where DIR/expected.txt holds
# the reference's digests).
gen_rules_tests() {
	local arch=$1 dir=$2 spec name what="filter rules, pages"
	[ -f "$dir/expected.txt" ] && what="filter rules, makedumpfile's bitmaps, pages"
	for spec in "$dir"/*.spec; do
		name=$(basename "$spec" .spec)
		run_test "$arch gen: $name $what" t_gen_rules "$dir" "$name"
	done
}
