# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/s390x_gen.sh - s390x on synthetic big-endian vmcores
# (tests/gen/s390x, doc/s390x.md): region-third, region-second and
# region-first tops, 4 KiB pages, large segments and large region-third
# entries, the legacy and the 6.10+ layouts, os_info, corrupt tables.
# For every configuration lib/arch_s390x.c translates as the generator
# mapped (tests/unit/s390x_xlat, a reader of its own), the filter's
# decisions at -d 1,2,4,8,16,31 equal the generator's expectation and
# every page of the -d 31 dump reads back equal to the input; zlib and
# ELF outputs, a re-filtered kdump, doubtful pages behind corrupt tables;
# without swapper_pg_dir -d 1 dumps and -d 31 names it.  No upstream reference:
# Debian's makedumpfile reads s390x dumps only on s390x.  Sourced by
# tests/run.

s390_gen=$top/tests/gen/s390x
. "$top/tests/suites/lib/gen.sh"

s390_vmcore() { gen_vmcore "$s390_gen" "$@"; }

# t_s390_xlat NAME: every struct page, symbol and identity-map end the
# generator placed translates to where it put it; unmapped addresses
# fail; corrupted ones do not reach the old backing.
t_s390_xlat() {
	local name=$1 out=$work/out/s390-xlat-$1.vmcore
	make -s -C "$top/tests/unit" s390x_xlat || return 1
	mkdir -p "$work/out" &&
		$PY "$s390_gen/xlat_check.py" "$s390_gen/$name.spec" "$out" \
			"$top/tests/unit/s390x_xlat"
}
for spec in "$s390_gen"/*.spec; do
	name=$(basename "$spec" .spec)
	run_test "s390x gen: $name translation as the generator mapped it" \
		t_s390_xlat "$name"
done

gen_rules_tests s390x "$s390_gen"

# t_s390_outputs NAME: a zlib kdump and a big-endian ELF dump at -d 31
# read back page for page; a -d 1 kdump re-filtered to -d 31 decides as
# the vmcore did (the arch on a kdump input).
t_s390_outputs() {
	local name=$1 in=$work/out/s390-out-$1.vmcore
	s390_vmcore "$name" "$in" || return 1
	vmsift -c -d 31 --message-level 0 "$in" "$in.c" || return 1
	$check pages "$in" "$in.c" || return 1
	vmsift -l -d 31 --message-level 0 "$in" "$in.d31" || return 1
	vmsift -E -d 31 --message-level 0 "$in" "$in.elf" || return 1
	$check elf "$in" "$in.elf" 31 "$in.d31" || return 1
	vmsift -l -d 1 --message-level 0 "$in" "$in.d1" || return 1
	vmsift -l -d 31 --message-level 0 "$in.d1" "$in.re31" || return 1
	$gen_digest "$in.d31" > "$in.digest" && $gen_digest "$in.re31" > "$in.redigest" &&
		diff <(cut -d' ' -f2- "$in.digest") <(cut -d' ' -f2- "$in.redigest")
}
run_test "s390x gen: s390x-r2-vr zlib and ELF outputs, re-filtered kdump" \
	t_s390_outputs s390x-r2-vr

# t_s390_doubt NAME: the pages whose struct pages a corrupt table hides
# are kept and counted doubtful, as many as the generator's doubtful
# ranges hold in RAM.
t_s390_doubt() {
	local name=$1 in=$work/out/s390-doubt.vmcore out want got
	s390_vmcore "$name" "$in" || return 1
	out=$(vmsift -l -d 31 --message-level 31 "$in" "$in.d31" 2>&1) ||
		{ echo "$out"; return 1; }
	got=$(printf '%s\n' "$out" | sed -n 's/^Doubtful pages *: *\(0x[0-9a-f]*\).*/\1/p')
	want=$($PY -c 'import json, sys
e = json.load(open(sys.argv[1]))
print(hex(sum(max(0, min(t, c) - max(s, a)) for s, t, _ in e["doubtful"]
              for a, c in e["ram"])))' "$in.json") || return 1
	echo "doubtful: $got, expected $want"
	[ -n "$got" ] && [ $((got)) -eq $((want)) ] && [ $((want)) -gt 0 ]
}
run_test "s390x gen: s390x-corrupt-pt: pages behind corrupt tables kept and counted doubtful" \
	t_s390_doubt s390x-corrupt-pt

# t_s390_missing KEY: without KEY, -d 1 still dumps every page and -d 31
# fails with a message naming KEY.
t_s390_missing() {
	local key=$1 in=$work/out/s390-missing.vmcore msg
	s390_vmcore s390x-r3-legacy "$in" "vmcoreinfo del $key" || return 1
	vmsift -l -d 1 --message-level 0 "$in" "$in.d1" || return 1
	$check pages "$in" "$in.d1" || return 1
	if msg=$(vmsift -l -d 31 --message-level 4 "$in" "$in.d31" 2>&1); then
		echo "-d 31 succeeded without $key"
		return 1
	fi
	echo "$msg"
	[[ $msg == *"'$key'"* ]]
}
run_test "s390x gen: no SYMBOL(swapper_pg_dir): -d 1 dumps every page, -d 31 names it" \
	t_s390_missing "SYMBOL(swapper_pg_dir)"

# t_s390_same NAME LINE...: with the spec LINEs added the -d 31 dump
# keeps and excludes what NAME's own does (one source of the layout
# standing in for another).
t_s390_same() {
	local name=$1 a=$work/out/s390-same-a.vmcore b=$work/out/s390-same-b.vmcore
	shift
	s390_vmcore "$name" "$a" || return 1
	s390_vmcore "$name" "$b" "$@" || return 1
	vmsift -l -d 31 --message-level 0 "$a" "$a.d31" || return 1
	vmsift -l -d 31 --message-level 0 "$b" "$b.d31" || return 1
	$gen_digest "$a.d31" > "$a.digest" && $gen_digest "$b.d31" > "$b.digest" &&
		diff <(cut -d' ' -f2- "$a.digest") <(cut -d' ' -f2- "$b.digest")
}
run_test "s390x gen: the 6.10+ layout from os_info as from VMCOREINFO" \
	t_s390_same s390x-r2-vr "vmcoreinfo del IDENTITYBASE" "vmcoreinfo del KERNELOFFPHYS" \
	"vmcoreinfo del KERNELOFFSET"
run_test "s390x gen: legacy without SYMBOL(high_memory): the end of RAM" \
	t_s390_same s390x-r3-legacy "vmcoreinfo del SYMBOL(high_memory)"
