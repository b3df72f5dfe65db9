# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/riscv64_gen.sh - riscv64 on synthetic vmcores
# (tests/gen/riscv64, doc/riscv64.md): Sv39, Sv48 and Sv57, with leaves
# at the levels the kernel uses; for every configuration the filter's
# decisions at -d 1,2,4,8,16,31 equal the generator's expectation and
# upstream makedumpfile's bitmaps (digests in expected.txt), every page
# reads back through libkdumpfile equal to the input, drgn reads the
# dumps; corrupt page tables, missing VMCOREINFO keys and makedumpfile's
# fallbacks.  Sourced by tests/run.
# prebuild: none

rv_gen=$top/tests/gen/riscv64
rv_expected=$rv_gen/expected.txt
. "$top/tests/suites/lib/gen.sh"

# rv_vmcore NAME OUT [SPEC-LINE...], rv_digest_is NAME.dLEVEL DUMP:
# lib/gen.sh's, on rv_gen's specs and digests.
rv_vmcore() { gen_vmcore "$rv_gen" "$@"; }
rv_digest_is() { gen_digest_is "$rv_expected" "$@"; }

gen_rules_tests riscv64 "$rv_gen"

# t_rv_dmesg NAME: --dump-dmesg writes the log upstream makedumpfile
# wrote (its sha256 in expected.txt).
t_rv_dmesg() {
	local name=$1 in=$work/out/rv-$1.vmcore want got
	rv_vmcore "$name" "$in" || return 1
	vmsift --dump-dmesg --message-level 0 "$in" "$in.log" || return 1
	want=$(awk -v k="$name.dmesg" '$1 == k { print $2 }' "$rv_expected")
	got=$(sha256sum < "$in.log" | cut -d' ' -f1)
	[ -n "$want" ] && [ "$got" = "$want" ] ||
		{ echo "log sha256 $got, expected '$want'"; return 1; }
}
run_test "riscv64 gen: riscv64-sv39 --dump-dmesg as makedumpfile's" \
	t_rv_dmesg riscv64-sv39

# t_rv_outputs NAME: a zlib kdump and an ELF dump at -d 31 read back
# page for page; the kdump decides as makedumpfile did.
t_rv_outputs() {
	local name=$1 in=$work/out/rv-out-$1.vmcore
	rv_vmcore "$name" "$in" || return 1
	vmsift -c -d 31 --message-level 0 "$in" "$in.c" || return 1
	$check pages "$in" "$in.c" || return 1
	rv_digest_is "$name.d31" "$in.c" || return 1
	vmsift -l -d 31 --message-level 0 "$in" "$in.kd" || return 1
	vmsift -E -d 31 --message-level 0 "$in" "$in.elf" || return 1
	$check elf "$in" "$in.elf" 31 "$in.kd"
}
run_test "riscv64 gen: riscv64-sv57 zlib and ELF outputs" t_rv_outputs riscv64-sv57

# t_rv_drgn NAME: drgn reads the vmcore and vmsift's ELF dump of it:
# physical pages always; kernel virtual addresses only where this drgn
# walks riscv64 page tables (0.0.22 does not).  drgn cannot open a riscv64
# kdump file at all (libkdumpfile 0.5.1 gives it no architecture name,
# makedumpfile's dump alike): vmcheck reads those through libkdumpfile.
# Each limit is said, not hidden.
t_rv_drgn() {
	local name=$1 in=$work/out/rv-drgn-$1.vmcore rc=0
	rv_vmcore "$name" "$in" "kernel ptload=yes" || return 1
	vmsift -E -d 31 --message-level 0 "$in" "$in.elf" || return 1
	echo "# skipped: drgn on riscv64 kdump files (libkdumpfile names no architecture)" > "$rv_drgn_skips"
	$PY "$rv_gen/drgn_walks.py" "$in.spec" "$in" || rc=$?
	case $rc in
	0) $PY "$top/tests/gen/arm64/drgn_check.py" "$in.spec" "$in" "$in.elf" ;;
	2) echo "# skipped: drgn's virtual reads of riscv64 dumps (no riscv64 page-table walker)" >> "$rv_drgn_skips"
	   $PY "$top/tests/gen/arm64/drgn_check.py" --phys-only "$in.spec" "$in" "$in.elf" ;;
	*) return 1 ;;
	esac
}
rv_drgn_skips=$work/rv-drgn-skips
rm -f "$rv_drgn_skips"
run_test "riscv64 gen: riscv64-sv48 read by drgn, vmcore and ELF dump" \
	t_rv_drgn riscv64-sv48
if [ -s "$rv_drgn_skips" ]; then
	while read -r line; do log "$line"; done < "$rv_drgn_skips"
	rm -f "$rv_drgn_skips"
fi

# t_rv_fallback NAME KEY...: without KEYs the same decisions (phys_ram_base
# from the linear PT_LOAD; the linear map's end from KERNEL_LINK_ADDR).
t_rv_fallback() {
	local name=$1 in=$work/out/rv-fallback.vmcore lines=() k
	shift
	for k in "$@"; do lines+=("vmcoreinfo del $k"); done
	rv_vmcore "$name" "$in" "${lines[@]}" || return 1
	vmsift -l -d 31 --message-level 0 "$in" "$in.d31" || return 1
	rv_digest_is "$name.d31" "$in.d31"
}
run_test "riscv64 gen: phys_ram_base from the linear PT_LOAD" \
	t_rv_fallback riscv64-sv48-2m "NUMBER(phys_ram_base)"
run_test "riscv64 gen: no VMALLOC/VMEMMAP/MODULES bounds" \
	t_rv_fallback riscv64-sv39 "NUMBER(VMALLOC_START)" "NUMBER(VMALLOC_END)" \
	"NUMBER(VMEMMAP_START)" "NUMBER(VMEMMAP_END)" "NUMBER(MODULES_VADDR)" \
	"NUMBER(MODULES_END)"

# t_rv_missing KEY [PAGES]: without KEY (hidden in a copy of one
# generated vmcore), -d 1 still dumps (with PAGES, every page read back)
# and -d 31 fails with a message naming KEY.
rv_missing_base=$work/rv-missing-base.vmcore
rm -f "$rv_missing_base" "$rv_missing_base.spec" "$rv_missing_base.json"
t_rv_missing() {
	local key=$1 in=$work/out/rv-missing.vmcore msg
	if [ ! -s "$rv_missing_base" ]; then
		rv_vmcore riscv64-sv48 "$rv_missing_base" || return 1
	fi
	mkdir -p "$work/out" && cp --sparse=always "$rv_missing_base" "$in" &&
		$PY "$rv_gen/hide_key.py" "$in" "$key" || return 1
	vmsift -l -d 1 --message-level 0 "$in" "$in.d1" || return 1
	if [ "${2:-}" = pages ]; then
		$check pages "$in" "$in.d1" || return 1
	fi
	if msg=$(vmsift -l -d 31 --message-level 4 "$in" "$in.d31" 2>&1); then
		echo "-d 31 succeeded without $key"
		return 1
	fi
	echo "$msg"
	[[ $msg == *"'$key'"* ]]
}
run_test "riscv64 gen: no NUMBER(VA_BITS): -d 1 dumps every page, -d 31 names it" \
	t_rv_missing "NUMBER(VA_BITS)" pages
for key in "NUMBER(PAGE_OFFSET)" "NUMBER(KERNEL_LINK_ADDR)" \
	"NUMBER(va_kernel_pa_offset)" "SYMBOL(swapper_pg_dir)"; do
	run_test "riscv64 gen: no $key: -d 1 dumps, -d 31 names it" \
		t_rv_missing "$key"
done
rm -f "$rv_missing_base" "$rv_missing_base.spec" "$rv_missing_base.json"

# t_rv_header NAME: the kdump header and sub-header vmsift writes at
# -d 31 (phys_base = phys_ram_base, max_mapnr, bitmap blocks, note
# offsets, ...) are those upstream makedumpfile wrote
# (tests/gen/riscv64/headers, made with tests/tools/vmcheck.py header).
t_rv_header() {
	local name=$1 in=$work/out/rv-hdr-$1.vmcore
	rv_vmcore "$name" "$in" || return 1
	vmsift -d 31 --message-level 0 "$in" "$in.d31" || return 1
	$check header "$in.d31" > "$in.header" || return 1
	diff -u "$rv_gen/headers/$name.d31" "$in.header"
}
for h in "$rv_gen"/headers/*.d31; do
	name=$(basename "$h" .d31)
	run_test "riscv64 gen: $name kdump header as makedumpfile's" t_rv_header "$name"
done
