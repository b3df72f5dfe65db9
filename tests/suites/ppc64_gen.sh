# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/ppc64_gen.sh - ppc64le on synthetic vmcores (tests/gen/ppc64,
# doc/ppc64.md): for every configuration (radix and hash, 4K and 64K
# pages, corrupt tables) the filter's decisions at -d 1,2,4,8,16,31 equal
# the generator's expectation and upstream makedumpfile's bitmaps
# (carried as digests in expected.txt), every page reads back through
# libkdumpfile equal to the input; drgn reads the Debian configuration's
# vmcore and dumps; a missing key, a fallback, a big-endian vmcore,
# --dump-dmesg and the kdump header.  Sourced by tests/run.
# prebuild: none

ppc_gen=$top/tests/gen/ppc64
ppc_expected=$ppc_gen/expected.txt
. "$top/tests/suites/lib/gen.sh"

# ppc_vmcore NAME OUT [SPEC-LINE...], ppc_digest_is NAME.dLEVEL DUMP:
# lib/gen.sh's, on ppc_gen's specs and digests.
ppc_vmcore() { gen_vmcore "$ppc_gen" "$@"; }
ppc_digest_is() { gen_digest_is "$ppc_expected" "$@"; }

gen_rules_tests ppc64 "$ppc_gen"

# t_ppc_drgn NAME: drgn reads the vmcore, vmsift's kdump and ELF dumps as
# the generator laid them out (linear-map and physical reads: drgn 0.0.22
# has no ppc64 page-table walker).
t_ppc_drgn() {
	local name=$1 in=$work/out/ppc-$1.vmcore
	ppc_vmcore "$name" "$in" || return 1
	vmsift -z -d 31 --message-level 0 "$in" "$in.kd" || return 1
	vmsift -E -d 31 --message-level 0 "$in" "$in.elf" || return 1
	$PY "$ppc_gen/drgn_check.py" "$in.spec" "$in" "$in.kd" "$in.elf"
}
run_test "ppc64 gen: ppc64le-64k-radix read by drgn, vmcore and dumps" \
	t_ppc_drgn ppc64le-64k-radix

# t_ppc_missing KEY: without KEY, -d 1 still dumps every page and -d 31
# fails with a message naming KEY.
t_ppc_missing() {
	local key=$1 in=$work/out/ppc-missing.vmcore msg
	ppc_vmcore ppc64le-4k-hash "$in" "vmcoreinfo del $key" || return 1
	vmsift -l -d 1 --message-level 0 "$in" "$in.d1" || return 1
	$check pages "$in" "$in.d1" || return 1
	if msg=$(vmsift -l -d 31 --message-level 4 "$in" "$in.d31" 2>&1); then
		echo "-d 31 succeeded without $key"
		return 1
	fi
	echo "$msg"
	[[ $msg == *"'$key'"* ]]
}
run_test "ppc64 gen: no swapper_pg_dir: -d 1 dumps, -d 31 names it" \
	t_ppc_missing "SYMBOL(swapper_pg_dir)"

# Without NUMBER(RADIX_MMU) (and cur_cpu_spec), a hash vmcore's tables
# (no index size in their entries) say hash, as upstream assumes: it
# filters the same.
t_ppc_no_radix_key() {
	local in=$work/out/ppc-noradix.vmcore
	ppc_vmcore ppc64le-4k-hash "$in" "vmcoreinfo del NUMBER(RADIX_MMU)" ||
		return 1
	vmsift -l -d 31 --message-level 0 "$in" "$in.d31" || return 1
	ppc_digest_is ppc64le-4k-hash.d31 "$in.d31"
}
run_test "ppc64 gen: no RADIX_MMU: the hash MMU from the tables" t_ppc_no_radix_key

# A little-endian ppc64 vmcore whose EI_DATA says big-endian: its header
# read big-endian makes no sense (e_type 0x400), so it is refused, saying
# where, before anything is written.  (Big-endian dumps themselves are
# read: tests/suites/bedump.sh.)
t_ppc_big_endian() {
	local in=$work/out/ppc-be.vmcore msg
	ppc_vmcore ppc64le-4k-hash "$in" || return 1
	printf '\002' | dd of="$in" bs=1 seek=5 conv=notrunc status=none
	if msg=$(vmsift -l -d 1 "$in" "$in.out" 2>&1); then
		echo "a vmcore with a wrong EI_DATA was dumped"
		return 1
	fi
	echo "$msg"
	[[ $msg == *"ELF type 1024 at offset 0x10"* ]] && [ ! -e "$in.out" ]
}
run_test "ppc64 gen: a vmcore whose EI_DATA lies is refused" t_ppc_big_endian

# t_ppc_dmesg_header NAME: --dump-dmesg writes the log upstream
# makedumpfile wrote (its sha256 in expected.txt); the kdump header at
# -d 31 is the one upstream wrote (headers/, tests/tools/vmcheck.py header).
t_ppc_dmesg_header() {
	local name=$1 in=$work/out/ppc-$1.vmcore want got
	ppc_vmcore "$name" "$in" || return 1
	vmsift --dump-dmesg --message-level 0 "$in" "$in.log" || return 1
	want=$(awk -v k="$name.dmesg" '$1 == k { print $2 }' "$ppc_expected")
	got=$(sha256sum < "$in.log" | cut -d' ' -f1)
	[ -n "$want" ] && [ "$got" = "$want" ] ||
		{ echo "log sha256 $got, expected '$want'"; return 1; }
	vmsift -d 31 --message-level 0 "$in" "$in.d31" || return 1
	$check header "$in.d31" > "$in.header" || return 1
	diff -u "$ppc_gen/headers/$name.d31" "$in.header"
}
run_test "ppc64 gen: ppc64le-64k-radix --dump-dmesg and kdump header as makedumpfile's" \
	t_ppc_dmesg_header ppc64le-64k-radix

# t_ppc_refilter NAME: -d 1, then that kdump re-filtered at -d 31 (the
# machine from its utsname, ppc64le), decides as makedumpfile did on the
# ELF input.
t_ppc_refilter() {
	local name=$1 in=$work/out/ppc-re-$1.vmcore
	ppc_vmcore "$name" "$in" || return 1
	vmsift -l -d 1 --message-level 0 "$in" "$in.d1" || return 1
	vmsift -z -d 31 --message-level 0 "$in.d1" "$in.re31" || return 1
	$check pages "$in" "$in.re31" || return 1
	ppc_digest_is "$name.d31" "$in.re31"
}
run_test "ppc64 gen: ppc64le-64k-radix re-filtered kdump" t_ppc_refilter ppc64le-64k-radix

# Without NUMBER(RADIX_MMU), cur_cpu_spec->mmu_features tells radix: a
# radix vmcore filters as upstream did with the key.  (Upstream means to
# read it too, but compares the missing NUMBER with the symbols' sentinel,
# so it assumes hash and fails on this vmcore.)
t_ppc_cpu_spec() {
	local in=$work/out/ppc-cpuspec.vmcore
	sed 's/^arch ppc64le .*/& cpu_spec=yes/' \
		"$ppc_gen/ppc64le-64k-radix-pte.spec" > "$in.spec" || return 1
	echo "vmcoreinfo del NUMBER(RADIX_MMU)" >> "$in.spec"
	$PY "$top/tests/gen/mkvmcore.py" "$in.spec" "$in" >/dev/null || return 1
	vmsift -l -d 31 --message-level 0 "$in" "$in.d31" || return 1
	ppc_digest_is ppc64le-64k-radix-pte.d31 "$in.d31"
}
run_test "ppc64 gen: no RADIX_MMU: radix from cur_cpu_spec's MMU features" \
	t_ppc_cpu_spec

# Without NUMBER(RADIX_MMU) and cur_cpu_spec (Linux 6.1 exports neither),
# swapper_pg_dir's entries tell radix (they carry an index size in their
# low bits): a radix vmcore filters as upstream did with the key.  The
# real radix vmcore of ppc64le_real.sh is this case too.
t_ppc_pgd_radix() {
	local in=$work/out/ppc-pgdradix.vmcore
	cp "$ppc_gen/ppc64le-64k-radix-pte.spec" "$in.spec" || return 1
	echo "vmcoreinfo del NUMBER(RADIX_MMU)" >> "$in.spec"
	$PY "$top/tests/gen/mkvmcore.py" "$in.spec" "$in" >/dev/null || return 1
	vmsift -l -d 31 --message-level 0 "$in" "$in.d31" || return 1
	ppc_digest_is ppc64le-64k-radix-pte.d31 "$in.d31"
}
run_test "ppc64 gen: no RADIX_MMU, no cur_cpu_spec: radix from swapper_pg_dir's entries" \
	t_ppc_pgd_radix
