# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/arm64_gen.sh - arm64 on synthetic vmcores (tests/gen/arm64,
# doc/arm64.md): for every configuration the filter's decisions at -d
# 1,2,4,8,16,31 equal the generator's expectation and upstream
# makedumpfile's bitmaps (carried as digests in expected.txt), every page
# reads back through libkdumpfile equal to the input; with 16K and 64K
# pages every codec, ELF output, --split and re-filtering; missing
# VMCOREINFO keys, a vmcore flagged big-endian.  Sourced by tests/run.
# prebuild: none

arm_gen=$top/tests/gen/arm64
arm_expected=$arm_gen/expected.txt
. "$top/tests/suites/lib/gen.sh"

# arm_vmcore NAME OUT [SPEC-LINE...], arm_digest_is NAME.dLEVEL DUMP:
# lib/gen.sh's, on arm_gen's specs and digests.
arm_vmcore() { gen_vmcore "$arm_gen" "$@"; }
arm_digest_is() { gen_digest_is "$arm_expected" "$@"; }

gen_rules_tests arm64 "$arm_gen"

# t_arm_drgn NAME: drgn's own aarch64 page-table walk reads the
# generator's tables as the generator laid them out (a check of the
# generator, the reference where upstream makedumpfile cannot read a
# case), and reads vmsift's kdump and ELF dumps the same.
t_arm_drgn() {
	local name=$1 in=$work/out/$1.vmcore
	arm_vmcore "$name" "$in" "kernel ptload=yes" || return 1
	vmsift -z -d 31 --message-level 0 "$in" "$in.kd" || return 1
	vmsift -E -d 31 --message-level 0 "$in" "$in.elf" || return 1
	if [ "$name" = arm64-64k-52on48 ]; then
		# no TCR_EL1_T1SZ: drgn reads vabits_actual as VA_BITS
		$PY "$arm_gen/drgn_check.py" --phys-only "$in.spec" "$in" "$in.kd" "$in.elf"
	elif [ "$name" = arm64-16k-52 ]; then
		# libkdumpfile 0.5.1 cannot walk 16K/52 tables (nor in
		# makedumpfile's dump): the kdump's pages only
		$PY "$arm_gen/drgn_check.py" "$in.spec" "$in" "$in.elf" --phys "$in.kd"
	else
		$PY "$arm_gen/drgn_check.py" "$in.spec" "$in" "$in.kd" "$in.elf"
	fi
}
# drgn, a second oracle of what the rules tests check on every spec: one
# spec per granule (4K LPA2, 16K and 64K at 52 bits) unless VMSIFT_FULL=1.
for spec in "$arm_gen"/*.spec; do
	name=$(basename "$spec" .spec)
	full || case $name in arm64-4k-52-lpa2|arm64-16k-52|arm64-64k-52) ;; *) continue ;; esac
	run_test "arm64 gen: $name read by drgn, vmcore and dumps" t_arm_drgn "$name"
done

# t_arm_codecs NAME: each codec's dump reads back page for page and
# decides as makedumpfile did.
t_arm_codecs() {
	local name=$1 in=$work/out/$1.vmcore flag
	arm_vmcore "$name" "$in" || return 1
	for flag in -c -l -p -z; do
		vmsift $flag -d 31 --message-level 0 "$in" "$in$flag" || return 1
		$check pages "$in" "$in$flag" || return 1
		arm_digest_is "$name.d31" "$in$flag" || return 1
	done
}

# t_arm_elf NAME: -E at -d 1 and -d 31 holds every page it must.
t_arm_elf() {
	local name=$1 in=$work/out/$1.vmcore l
	arm_vmcore "$name" "$in" || return 1
	for l in 1 31; do
		vmsift -l -d $l --message-level 0 "$in" "$in.kd$l" || return 1
		vmsift -E -d $l --message-level 0 "$in" "$in.elf$l" || return 1
		$check elf "$in" "$in.elf$l" $l "$in.kd$l" || return 1
	done
}

# t_arm_split NAME: three files read together equal the input;
# reassembled, they are the direct dump.
t_arm_split() {
	local name=$1 in=$work/out/$1.vmcore
	arm_vmcore "$name" "$in" || return 1
	vmsift --split --splitblock-size 256 -z -d 31 --message-level 0 "$in" \
		"$in.1" "$in.2" "$in.3" || return 1
	$check pages "$in" "$in.1" "$in.2" "$in.3" || return 1
	vmsift -z -d 31 --message-level 0 "$in" "$in.direct" || return 1
	vmsift --reassemble "$in.1" "$in.2" "$in.3" "$in.joined" --message-level 0 ||
		return 1
	cmp "$in.direct" "$in.joined"
}

# t_arm_refilter NAME: -d 1, then that kdump re-filtered at -d 31,
# decides as makedumpfile did on the ELF input.
t_arm_refilter() {
	local name=$1 in=$work/out/$1.vmcore
	arm_vmcore "$name" "$in" || return 1
	vmsift -l -d 1 --message-level 0 "$in" "$in.d1" || return 1
	vmsift -z -d 31 --message-level 0 "$in.d1" "$in.re31" || return 1
	$check pages "$in" "$in.re31" || return 1
	arm_digest_is "$name.d31" "$in.re31"
}

# t_arm_flat_threads NAME: -F | -R gives the direct dump; 1 and 4
# threads, mmap or not, write the same bytes.
t_arm_flat_threads() {
	local name=$1 in=$work/out/$1.vmcore
	arm_vmcore "$name" "$in" || return 1
	vmsift -z -d 31 --num-threads 1 --message-level 0 "$in" "$in.1" || return 1
	vmsift -z -d 31 --num-threads 4 --message-level 0 "$in" "$in.4" || return 1
	vmsift -z -d 31 --num-threads 2 --non-mmap --message-level 0 "$in" "$in.nm" ||
		return 1
	vmsift -F -z -d 31 --message-level 0 "$in" | vmsift -R "$in.flat" || return 1
	cmp "$in.1" "$in.4" && cmp "$in.1" "$in.nm" && cmp "$in.1" "$in.flat"
}

# 64K pages (a 256 MiB vmcore): the codecs by default; ELF, flattened,
# threads, split and re-filtering (16K's tests) with VMSIFT_FULL=1.
for name in arm64-16k-47 arm64-64k-48; do
	run_test "arm64 gen: $name every codec" t_arm_codecs "$name"
	[ $name = arm64-16k-47 ] || full || continue
	run_test "arm64 gen: $name flattened and threaded outputs identical" \
		t_arm_flat_threads "$name"
	run_test "arm64 gen: $name ELF output" t_arm_elf "$name"
	run_test "arm64 gen: $name --split into 3, reassembled" t_arm_split "$name"
	run_test "arm64 gen: $name re-filtered kdump" t_arm_refilter "$name"
done

# t_arm_fallback KEY...: without KEYs, makedumpfile's fallbacks give the
# same decisions.
t_arm_fallback() {
	local in=$work/out/fallback.vmcore lines=() k
	for k in "$@"; do lines+=("vmcoreinfo del $k"); done
	arm_vmcore arm64-4k-48 "$in" "${lines[@]}" || return 1
	vmsift -l -d 31 --message-level 0 "$in" "$in.d31" || return 1
	arm_digest_is arm64-4k-48.d31 "$in.d31"
}
run_test "arm64 gen: VA_BITS guessed from _stext" t_arm_fallback "NUMBER(VA_BITS)"
run_test "arm64 gen: VA_BITS and layout from swapper_pg_dir without _stext" \
	t_arm_fallback "NUMBER(VA_BITS)" "SYMBOL(_stext)"
run_test "arm64 gen: PHYS_OFFSET from the linear PT_LOAD" t_arm_fallback "NUMBER(PHYS_OFFSET)"
run_test "arm64 gen: vabits_actual = VA_BITS without TCR_EL1_T1SZ" \
	t_arm_fallback "NUMBER(TCR_EL1_T1SZ)"

# t_arm_missing KEY: without KEY, -d 1 still dumps every page and -d 31
# fails with a message naming KEY.
t_arm_missing() {
	local key=$1 in=$work/out/missing.vmcore msg
	arm_vmcore arm64-4k-48 "$in" "vmcoreinfo del $key" || return 1
	vmsift -l -d 1 --message-level 0 "$in" "$in.d1" || return 1
	$check pages "$in" "$in.d1" || return 1
	if msg=$(vmsift -l -d 31 --message-level 4 "$in" "$in.d31" 2>&1); then
		echo "-d 31 succeeded without $key"
		return 1
	fi
	echo "$msg"
	[[ $msg == *"'$key'"* ]]
}
run_test "arm64 gen: no swapper_pg_dir: -d 1 dumps, -d 31 names it" \
	t_arm_missing "SYMBOL(swapper_pg_dir)"
run_test "arm64 gen: no kimage_voffset: -d 1 dumps, -d 31 names it" \
	t_arm_missing "NUMBER(kimage_voffset)"

# A little-endian arm64 vmcore whose EI_DATA says big-endian (ELFDATA2MSB):
# its header read big-endian makes no sense (e_type 0x400), so it is
# refused, saying where, before anything is written.  (Big-endian dumps
# themselves are read: tests/suites/bedump.sh.)
t_arm_big_endian() {
	local in=$work/out/be.vmcore msg
	arm_vmcore arm64-4k-48 "$in" || return 1
	printf '\002' | dd of="$in" bs=1 seek=5 conv=notrunc status=none
	if msg=$(vmsift -l -d 1 "$in" "$in.out" 2>&1); then
		echo "a vmcore with a wrong EI_DATA was dumped"
		return 1
	fi
	echo "$msg"
	[[ $msg == *"ELF type 1024 at offset 0x10"* ]] && [ ! -e "$in.out" ]
}
run_test "arm64 gen: a vmcore whose EI_DATA lies is refused" t_arm_big_endian

# t_arm_dmesg NAME: --dump-dmesg writes the log upstream makedumpfile
# wrote (its sha256 in expected.txt).
t_arm_dmesg() {
	local name=$1 in=$work/out/$1.vmcore want got
	arm_vmcore "$name" "$in" || return 1
	vmsift --dump-dmesg --message-level 0 "$in" "$in.log" || return 1
	want=$(awk -v k="$name.dmesg" '$1 == k { print $2 }' "$arm_expected")
	got=$(sha256sum < "$in.log" | cut -d' ' -f1)
	[ -n "$want" ] && [ "$got" = "$want" ] ||
		{ echo "log sha256 $got, expected '$want'"; return 1; }
}
for spec in "$arm_gen"/*.spec; do
	grep -q '^dmesg ' "$spec" || continue
	name=$(basename "$spec" .spec)
	run_test "arm64 gen: $name --dump-dmesg as makedumpfile's" t_arm_dmesg "$name"
done

# t_arm_header NAME: the kdump header and sub-header vmsift writes at
# -d 31 (block size, bitmap blocks, max_mapnr, phys_base = PHYS_OFFSET,
# note offsets, ...) are those upstream makedumpfile wrote
# (tests/gen/arm64/headers, made with tests/tools/vmcheck.py header).
t_arm_header() {
	local name=$1 in=$work/out/$1.vmcore
	arm_vmcore "$name" "$in" || return 1
	vmsift -d 31 --message-level 0 "$in" "$in.d31" || return 1
	$check header "$in.d31" > "$in.header" || return 1
	diff -u "$arm_gen/headers/$name.d31" "$in.header"
}
for h in "$arm_gen"/headers/*.d31; do
	name=$(basename "$h" .d31)
	run_test "arm64 gen: $name kdump header as makedumpfile's" t_arm_header "$name"
done
