# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/debuginfo_arm64_riscv64.sh - -g, -x, --dump-dmesg -x,
# --config with -x and its BTF form on the carried arm64 and riscv64 dumps
# (issue 13; doc/debuginfo.md and doc/erase.md, their arm64 and riscv64
# sections).  Sourced by tests/run.
#
# Needs each kernel's -dbg vmlinux (tests/harness/lib.sh fetch_dbg_vmlinux
# after set_arch: arm64 6.1.0-57, 860 MB; riscv64 6.12.117+deb13 from
# trixie, 1 GB; fetched once into $VMSIFT_CACHE, about a minute each;
# VMSIFT_NO_DBG=1 skips).  The makedumpfile references are carried in
# tests/data/debuginfo-arm64-riscv64/ (README.md there): makedumpfile:arm64 1.7.2
# under qemu-user takes minutes a run, and Debian has none for riscv64.
# arm64 (kdump-arm64-384M, a real /proc/vmcore):
#   -g equals makedumpfile:arm64 1.7.2's (cmp_vmcoreinfo.py; truth: the
#   dump's note and drgn's bound of node_data);
#   -x on the vmcore stripped of its note: -d 1 and 31 bitmaps equal the
#   note's, every page read back, the same --dump-dmesg log; kimage_voffset,
#   PHYS_OFFSET, VA_BITS and SECTION_SIZE_BITS from the dump and the DWARF
#   (lib/debuginfo_arm64.c); makedumpfile cannot do it;
#   -x beside the note, -d 31: makedumpfile -x's bitmaps;
#   -x --config (every construct of makedumpfile.conf(5)): makedumpfile
#   -x --config's pages and eraseinfo, in kdump, and in ELF the same pages
#   and eraseinfo as the kdump; the same on the stripped vmcore.
# arm64 16K (kdump-arm64k16-640M, 6.12 arm64-16k: VA_BITS 52 running 47):
#   -g, -x beside the note, and -x --config arm64.conf (16 KiB pages and
#   eraseinfo; -E the same) equal upstream makedumpfile's; -x without the
#   note as for 4K (PAGESIZE from the DWARF's empty_zero_page); arm64.conf
#   in BTF form writes the -x run's file.
# riscv64 (snapshot-riscv64-256M, QEMU's snapshot: no virtual addresses):
#   -g equals upstream makedumpfile's (no key exempt); -x beside the note
#   and --config likewise against upstream's; the rules in BTF form
#   (SYMBOL:TYPE from the dump's kallsyms and BTF, no -x) write the -x
#   run's file; --dump-dmesg -x the reference log; -x on the stripped
#   snapshot is refused, naming what it lacks.
# VMSIFT_ARCHDBG_MDF=1 runs makedumpfile again (makedumpfile:arm64 under
# qemu-user, 10 to 30 minutes; for riscv64 MDF_RISCV64, upstream built
# TARGET=riscv64; for arm64 16K upstream built for aarch64 and run under
# qemu-user, tests/harness/mdf-upstream --arch arm64 or MDF_ARM64_16K,
# about 9 minutes) and checks it still gives the carried references.

. "$top/tests/suites/lib/carried.sh"
dar_data=$top/tests/data/debuginfo-arm64-riscv64
dar_dir=$work/debuginfo-arm64-riscv64         # the stripped copies, the truths
dar_out=$work/out/debuginfo-arm64-riscv64     # each test's dumps (scrubbed)
mkdir -p "$dar_dir"
# Each kernel: its -dbg version, its Debian flavour, its folder and name in
# tests/data.
declare -A dar_ver=([arm64]=6.1.0-57-arm64 [arm64k16]=6.12.95+deb12-arm64-16k
	[riscv64]=6.12.117+deb13-riscv64)
declare -A dar_flavour=([arm64k16]=arm64-16k)
declare -A dar_sub=([arm64]=arm64 [arm64k16]=arm64 [riscv64]=riscv64)
declare -A dar_conf=([arm64k16]=arm64)  # its rules, when another's
declare -A dar_name=([arm64]=kdump-arm64-384M [arm64k16]=kdump-arm64k16-640M
	[riscv64]=snapshot-riscv64-256M)
declare -A dar_vmlinux=()
# The real kdumps of VMSIFT_ARM64_FULL=1, no carried file: the raw
# /proc/vmcore t_dar_kdump makes, dar_raw.  arm64k16lpa2: the same 16K
# kernel on a CPU with LPA2, running VA_BITS 52 (4 levels); arm64trixie:
# trixie's 6.12 4K kernel (dar_suite), built VA_BITS 52, running 48.
dar_ver[arm64k16lpa2]=${dar_ver[arm64k16]} dar_flavour[arm64k16lpa2]=arm64-16k
dar_ver[arm64trixie]=6.12.117+deb13-arm64
dar_sub[arm64k16lpa2]=arm64 dar_sub[arm64trixie]=arm64
dar_conf[arm64k16lpa2]=arm64 dar_conf[arm64trixie]=arm64
declare -A dar_suite=([arm64trixie]=trixie)
declare -A dar_raw=([arm64k16lpa2]=$dar_dir/kdump-arm64k16-lpa2.raw
	[arm64trixie]=$dar_dir/kdump-arm64-trixie.raw)

# dar_fetch ARCH: the -dbg vmlinux of ARCH's carried kernel, in
# dar_vmlinux[ARCH].
dar_fetch() {
	local v
	[ -n "${dar_vmlinux[$1]:-}" ] && return 0
	v=$(. "$top/tests/harness/lib.sh" && set_arch "${dar_sub[$1]}" &&
		set_flavour "${dar_flavour[$1]:-}" && set_ksuite "${dar_suite[$1]:-}" && fetch_dbg_vmlinux "${dar_ver[$1]}" >&2 && echo "$DBG_VMLINUX") ||
		{ echo "cannot fetch the $1 -dbg vmlinux"; return 1; }
	dar_vmlinux[$1]=$v
}

# dar_in ARCH [nonote]: the carried vmcore, or dar_raw's (or its copy
# without the VMCOREINFO note), path on stdout.
dar_in() {
	local in=${dar_raw[$1]:-}
	if [ -z "$in" ]; then
		carried_in "${dar_sub[$1]}" "${dar_name[$1]}" "$dar_dir" "${2:-}"
		return
	fi
	[ -s "$in" ] || { echo "no $in: the kdump that makes it failed or did not run"; return 1; }
	if [ "${2:-}" = nonote ]; then
		strip_note "$in" "$dar_dir/$1.nonote"
	else
		echo "$in"
	fi
}

# dar_truth ARCH: the dump's note and drgn's LENGTH(node_data).
dar_truth() {
	local in n
	in=$(dar_in "$1") || return 1
	$PY "$top/tests/tools/strip_vmcoreinfo.py" --note "$in" > "$dar_dir/$1.truth" || return 1
	n=$(echo "vartype node_data" | $PY "$top/tests/tools/typeinfo_oracle.py" "${dar_vmlinux[$1]}" |
		sed -n 's/.*nelem=\([0-9]*\).*/\1/p')
	[ -n "$n" ] || { echo "drgn gave no node_data bound"; return 1; }
	echo "LENGTH(node_data)=$n" >> "$dar_dir/$1.truth"
}

# t_dar_g ARCH [--upstream]: -g equals the carried makedumpfile -g text.
t_dar_g() {
	local out=$dar_dir/$1.g
	mkdir -p "$dar_out"
	dar_fetch "$1" && dar_truth "$1" || return 1
	rm -f "$out"
	vmsift -g "$out" -x "${dar_vmlinux[$1]}" > /dev/null || return 1
	$PY "$top/tests/tools/cmp_vmcoreinfo.py" ${2:-} "$dar_data/$1.mdf.g" "$out" \
		"$dar_dir/$1.truth"
}

# t_dar_x_stripped ARCH LEVEL: -x without the note gives the note's
# bitmaps, every page read back.
t_dar_x_stripped() {
	local in bare with=$dar_out/$1.with.d$2 without=$dar_out/$1.without.d$2
	mkdir -p "$dar_out"
	dar_fetch "$1" && in=$(dar_in "$1") && bare=$(dar_in "$1" nonote) || return 1
	rm -f "$with" "$without"
	vmsift -l -d "$2" --message-level 0 "$in" "$with" || return 1
	vmsift -l -d "$2" --message-level 0 -x "${dar_vmlinux[$1]}" "$bare" "$without" ||
		return 1
	$check pages "$in" "$without" && $check bitmaps "$without" "$with" "$in"
}

# t_dar_dmesg_stripped ARCH: --dump-dmesg -x without the note writes the
# log the note gives.
t_dar_dmesg_stripped() {
	local in bare with=$dar_out/$1.log.with without=$dar_out/$1.log.without
	mkdir -p "$dar_out"
	dar_fetch "$1" && in=$(dar_in "$1") && bare=$(dar_in "$1" nonote) || return 1
	rm -f "$with" "$without"
	vmsift --dump-dmesg --message-level 0 "$in" "$with" || return 1
	vmsift --dump-dmesg --message-level 0 -x "${dar_vmlinux[$1]}" "$bare" "$without" ||
		return 1
	[ -s "$with" ] || { echo "empty log"; return 1; }
	cmp "$with" "$without"
}

# t_dar_x_note ARCH: -x beside the note, -d 31: makedumpfile -x's bitmaps
# (the carried digest of its dump, named x.d31).
t_dar_x_note() {
	local in d=$dar_out/$1-x
	mkdir -p "$dar_out"
	dar_fetch "$1" && in=$(dar_in "$1") || return 1
	mkdir -p "$d"
	rm -f "$d/x.d31"
	vmsift -l -d 31 --message-level 0 -x "${dar_vmlinux[$1]}" "$in" "$d/x.d31" || return 1
	$PY "$top/tests/gen/arm64/digest.py" --check "$dar_data/$1.expected" "$d/x.d31"
}

# dar_dg ARCH: the digest of makedumpfile's -x --config dump, carried
# (ARCH.mdf.dg), or for a kdump of this run the one t_dar_mdf_config made.
dar_dg() {
	if [ -n "${dar_raw[$1]:-}" ]; then echo "$dar_dir/$1.mdf.dg"; else echo "$dar_data/$1.mdf.dg"; fi
}

# t_dar_config ARCH [nonote]: -x --config with ARCH's rules (ARCH.conf, or
# dar_conf's) writes the pages and eraseinfo of makedumpfile's dump (its
# digest, dar_dg); -E the same pages and eraseinfo as the kdump file.
# Pages of the dump's own size (16K for arm64k16).
t_dar_config() {
	local in src d=$dar_out/$1-conf${2:+-$2} c=$dar_data/${dar_conf[$1]:-$1}.conf
	mkdir -p "$dar_out"
	dar_fetch "$1" && src=$(dar_in "$1") && in=$(dar_in "$1" ${2:-}) || return 1
	mkdir -p "$d"
	rm -f "$d/c.kd" "$d/c.elf"
	vmsift -x "${dar_vmlinux[$1]}" --config "$c" -l -d 31 \
		--message-level 0 "$in" "$d/c.kd" || return 1
	$PY "$top/tests/tools/confdiff.py" check "$src" "$d/c.kd" "$(dar_dg "$1")" ||
		return 1
	vmsift -x "${dar_vmlinux[$1]}" --config "$c" -E -d 31 \
		--message-level 0 "$in" "$d/c.elf" || return 1
	$PY "$top/tests/tools/erase_cmp.py" elfkd "$src" "$d/c.elf" "$d/c.kd"
}

# t_dar_btf ARCH: the same rules in BTF form (ARCH.btf.conf, no -x) write
# the -x run's file byte for byte, which erased something, and only there.
t_dar_btf() {
	local in d=$dar_out/$1-btf c=${dar_conf[$1]:-$1}
	mkdir -p "$dar_out"
	dar_fetch "$1" && in=$(dar_in "$1") || return 1
	mkdir -p "$d"
	rm -f "$d/x.kd" "$d/b.kd"
	vmsift -x "${dar_vmlinux[$1]}" --config "$dar_data/$c.conf" -l -d 31 \
		--message-level 0 "$in" "$d/x.kd" || return 1
	vmsift --config "$dar_data/$c.btf.conf" -l -d 31 --message-level 0 "$in" "$d/b.kd" ||
		return 1
	cmp "$d/x.kd" "$d/b.kd" && $PY "$top/tests/tools/erase_cmp.py" kdump "$in" "$d/x.kd" "$d/b.kd"
}

# t_dar_mdf_config KEY: upstream makedumpfile (mdf-upstream --arch arm64)
# -l -d 31 -x --config with KEY's rules on dar_raw's vmcore, its digest
# into dar_dg for t_dar_config (about 3 minutes under qemu-user).
t_dar_mdf_config() {
	local in mdf d=$dar_out/$1-mdfconf dg
	dar_fetch "$1" && in=$(dar_in "$1") && dg=$(dar_dg "$1") || return 1
	mdf=$("$top/tests/harness/mdf-upstream" --arch arm64) || return 1
	mkdir -p "$d"
	rm -f "$d/ref.kd" "$dg"
	"$mdf" -l -d 31 -x "${dar_vmlinux[$1]}" --config "$dar_data/${dar_conf[$1]:-$1}.conf" \
		"$in" "$d/ref.kd" > "$d/log" 2>&1 || { tail -n 3 "$d/log"; return 1; }
	$PY "$top/tests/tools/confdiff.py" digest "$in" "$d/ref.kd" > "$dg.tmp" && mv "$dg.tmp" "$dg"
}

# t_dar_kdump KEY T1SZ PAGESIZE KDUMP-TEST-ARGS...: a real kdump of KEY's
# kernel (tests/harness/kdump-test --arch arm64 ARGS: vmsift-static.aarch64
# -l -d 31 in the capture kernel, its pages equal to the raw
# /proc/vmcore's, its bitmaps to upstream makedumpfile's, which must be
# there (mdf-upstream --arch arm64) but for the LPA2 kernel, which it
# cannot read), whose note says it ran with TCR_EL1_T1SZ T1SZ and
# PAGESIZE: the raw copy is dar_raw[KEY].
t_dar_kdump() {
	local key=$1 t1sz=$2 ps=$3 raw=${dar_raw[$1]} note
	shift 3
	rm -f "$raw" "$dar_dir/$key.nonote"
	[ "$key" = arm64k16lpa2 ] || "$top/tests/harness/mdf-upstream" --arch arm64 > /dev/null ||
		{ echo "no upstream makedumpfile for aarch64 to check the bitmaps"; return 1; }
	T_BOOT=${T_BOOT:-420} T_CAPTURE=${T_CAPTURE:-300} timeout 1500 \
		"$top/tests/harness/kdump-test" --arch arm64 "$@" --dump-args "-l -d 31" \
		--save-raw "$raw" --out "$work/kdump-$key" || return 1
	note=$($PY "$top/tests/tools/strip_vmcoreinfo.py" --note "$raw") || return 1
	grep -qx "NUMBER(TCR_EL1_T1SZ)=$t1sz" <<< "$note" && grep -qx "PAGESIZE=$ps" <<< "$note" ||
		{ grep -E 'T1SZ|PAGESIZE|VA_BITS' <<< "$note"; echo "not T1SZ $t1sz and pages of $ps"; return 1; }
}

# t_dar_dmesg_x ARCH SED: --dump-dmesg -x beside the note equals the
# carried reference log (passed through sed SED).
t_dar_dmesg_x() {
	local in ref=$dar_out/$1.ref.dmesg out=$dar_out/$1.x.dmesg
	mkdir -p "$dar_out"
	dar_fetch "$1" && in=$(dar_in "$1") || return 1
	zstd -q -d -f -o "$ref" "$top/tests/data/${dar_sub[$1]}/${dar_name[$1]}.dmesg.zst" || return 1
	rm -f "$out"
	vmsift --dump-dmesg --message-level 0 -x "${dar_vmlinux[$1]}" "$in" "$out" || return 1
	sed -E "$2" "$ref" | cmp - "$out"
}

# t_dar_refused ARCH: -x on the snapshot stripped of its note: exit 1,
# naming what it needs, no file.
t_dar_refused() {
	local bare out=$dar_out/$1.refused msg
	mkdir -p "$dar_out"
	dar_fetch "$1" && bare=$(dar_in "$1" nonote) || return 1
	rm -f "$out"
	msg=$(vmsift -l -d 31 --message-level 4 -x "${dar_vmlinux[$1]}" "$bare" "$out" 2>&1)
	[ $? = 1 ] || { echo "$msg"; echo "exit status not 1"; return 1; }
	[[ $msg == *"no VMCOREINFO and no segment of the kernel image"* ]] ||
		{ echo "$msg"; return 1; }
	[ ! -e "$out" ] || { echo "a dump was left behind"; return 1; }
}

# t_dar_btf_refused ARCH: a kernel whose BTF kallsyms cannot reach
# (Debian's arm64 6.1: no data symbols): the BTF form is refused, exit 1,
# naming why, no file.
t_dar_btf_refused() {
	local in out=$dar_out/$1.btf-refused msg
	mkdir -p "$dar_out"
	in=$(dar_in "$1") || return 1
	rm -f "$out"
	msg=$(vmsift --config "$dar_data/$1.btf.conf" -l -d 31 --message-level 4 "$in" "$out" 2>&1)
	[ $? = 1 ] || { echo "$msg"; echo "exit status not 1"; return 1; }
	[[ $msg == *"without -x VMLINUX"*"symbol '__start_BTF' is not in the kernel's kallsyms"* ]] ||
		{ echo "$msg"; return 1; }
	[ ! -e "$out" ] || { echo "a dump was left behind"; return 1; }
}

# t_dar_mdf_live ARCH MAKEDUMPFILE...: makedumpfile run again gives the
# carried references (-g text, -x -d 31 digest, -x --config digest).
t_dar_mdf_live() {
	local arch=$1 in d=$dar_out/$1-live; shift
	mkdir -p "$dar_out"
	dar_fetch "$arch" && in=$(dar_in "$arch") || return 1
	mkdir -p "$d"
	rm -f "$d"/*
	"$@" -g "$d/g" -x "${dar_vmlinux[$arch]}" > "$d/log" 2>&1 || { tail -n 3 "$d/log"; return 1; }
	cmp "$d/g" "$dar_data/$arch.mdf.g" || return 1
	"$@" -l -d 31 -x "${dar_vmlinux[$arch]}" "$in" "$d/x.d31" > "$d/log" 2>&1 ||
		{ tail -n 3 "$d/log"; return 1; }
	$PY "$top/tests/gen/arm64/digest.py" --check "$dar_data/$arch.expected" "$d/x.d31" || return 1
	[ -f "$dar_data/$arch.mdf.dg" ] || return 0
	"$@" -l -d 31 -x "${dar_vmlinux[$arch]}" --config "$dar_data/${dar_conf[$arch]:-$arch}.conf" \
		"$in" "$d/c.kd" > "$d/log" 2>&1 || { tail -n 3 "$d/log"; return 1; }
	$PY "$top/tests/tools/confdiff.py" check "$in" "$d/c.kd" "$dar_data/$arch.mdf.dg"
}

if [ "${VMSIFT_NO_DBG:-0}" = 1 ]; then
	log "# skipped: arm64 and riscv64 debug info (VMSIFT_NO_DBG=1)"
else
	run_test "debuginfo arm64: -g of the 6.1 -dbg vmlinux equals makedumpfile:arm64 1.7.2's but for upstream's keys" \
		t_dar_g arm64
	for dar_level in 1 31; do
		run_test "debuginfo arm64: -x on the vmcore stripped of VMCOREINFO, -d $dar_level: bitmaps equal the note's, pages read back" \
			t_dar_x_stripped arm64 $dar_level
	done
	run_test "debuginfo arm64: --dump-dmesg -x on the vmcore stripped of VMCOREINFO equals the log with the note" \
		t_dar_dmesg_stripped arm64
	run_test "debuginfo arm64: -x beside the note, -d 31: bitmaps equal makedumpfile:arm64 -x's" \
		t_dar_x_note arm64
	run_test "debuginfo arm64: -x --config (every construct): makedumpfile:arm64's pages and eraseinfo; -E the same" \
		t_dar_config arm64
	run_test "debuginfo arm64: -x --config on the vmcore stripped of VMCOREINFO: makedumpfile:arm64's pages and eraseinfo" \
		t_dar_config arm64 nonote
	run_test "debuginfo arm64: the rules in BTF form are refused on 6.1 (kallsyms without data symbols), naming why" \
		t_dar_btf_refused arm64
	run_test "debuginfo arm64 16K: -g of the 6.12 arm64-16k -dbg vmlinux equals upstream makedumpfile's, no key exempt" \
		t_dar_g arm64k16 --upstream
	for dar_level in 1 31; do
		run_test "debuginfo arm64 16K: -x on the vmcore stripped of VMCOREINFO, -d $dar_level: bitmaps equal the note's, pages read back" \
			t_dar_x_stripped arm64k16 $dar_level
	done
	run_test "debuginfo arm64 16K: --dump-dmesg -x on the vmcore stripped of VMCOREINFO equals the log with the note" \
		t_dar_dmesg_stripped arm64k16
	run_test "debuginfo arm64 16K: -x beside the note, -d 31: bitmaps equal upstream makedumpfile -x's" \
		t_dar_x_note arm64k16
	run_test "debuginfo arm64 16K: -x --config (the arm64 rules): upstream makedumpfile's pages and eraseinfo; -E the same" \
		t_dar_config arm64k16
	run_test "debuginfo arm64 16K: the arm64 rules in BTF form (kallsyms + BTF, no -x) write the -x run's file" \
		t_dar_btf arm64k16
	if [ "${VMSIFT_ARM64_FULL:-0}" = 1 ] && [ "${VMSIFT_NO_QEMU:-0}" != 1 ]; then
		run_test "debuginfo arm64 16K LPA2: a real kdump of the 16K kernel running 52-bit VA (kdump-test --lpa2), pages equal the raw vmcore" \
			t_dar_kdump arm64k16lpa2 0xc 16384 --kernel-flavour arm64-16k --lpa2 \
			--mem 640 --crashkernel 192M
		run_test "debuginfo arm64 trixie: a real kdump of trixie's 6.12 4K kernel (VA_BITS 52 running 48), pages and bitmaps equal the raw vmcore's and upstream makedumpfile's" \
			t_dar_kdump arm64trixie 0x10 4096 --kernel-suite trixie --mem 512
		for dar_key in arm64k16lpa2 arm64trixie; do
			dar_what="arm64 16K LPA2"
			[ $dar_key = arm64trixie ] && dar_what="arm64 trixie"
			for dar_level in 1 31; do
				run_test "debuginfo $dar_what: -x on its vmcore stripped of VMCOREINFO, -d $dar_level: bitmaps equal the note's, pages read back" \
					t_dar_x_stripped $dar_key $dar_level
			done
			run_test "debuginfo $dar_what: -x --config (the arm64 rules) and their BTF form write the same file, erased as the rules say" \
				t_dar_btf $dar_key
			[ $dar_key = arm64trixie ] || continue
			run_test "debuginfo arm64 trixie: upstream makedumpfile -x --config (the arm64 rules) on its vmcore, the reference" \
				t_dar_mdf_config arm64trixie
			run_test "debuginfo arm64 trixie: -x --config (the arm64 rules): upstream makedumpfile's pages and eraseinfo; -E the same" \
				t_dar_config arm64trixie
			run_test "debuginfo arm64 trixie: -x --config on its vmcore stripped of VMCOREINFO: upstream makedumpfile's pages and eraseinfo" \
				t_dar_config arm64trixie nonote
		done
		for dar_key in arm64k16lpa2 arm64trixie; do
			rm -rf "${dar_raw[$dar_key]}" "$dar_dir/$dar_key.nonote" "$dar_dir/$dar_key.mdf.dg" \
				"$work/kdump-$dar_key"
		done
	fi
	run_test "debuginfo riscv64: -g of the 6.12 -dbg vmlinux equals upstream makedumpfile's, no key exempt" \
		t_dar_g riscv64 --upstream
	run_test "debuginfo riscv64: -x beside the note, -d 31: bitmaps equal upstream makedumpfile -x's" \
		t_dar_x_note riscv64
	run_test "debuginfo riscv64: -x --config (every construct): upstream makedumpfile's pages and eraseinfo; -E the same" \
		t_dar_config riscv64
	run_test "debuginfo riscv64: the rules in BTF form (kallsyms + BTF, no -x) write the -x run's file" \
		t_dar_btf riscv64
	run_test "debuginfo riscv64: --dump-dmesg -x equals upstream's log less its caller id" \
		t_dar_dmesg_x riscv64 's/^(\[ *[0-9]+\.[0-9]+\]) \[ *[TC][0-9]+\] /\1 /'
	run_test "debuginfo riscv64: -x on the snapshot stripped of VMCOREINFO: refused, no kernel-image segment" \
		t_dar_refused riscv64
	if [ "${VMSIFT_ARCHDBG_MDF:-0}" = 1 ]; then
		run_test "debuginfo arm64: makedumpfile:arm64 1.7.2 run again gives the carried -g, -x and --config references" \
			t_dar_mdf_live arm64 "$top/tests/harness/mdf-debian" arm64
		# MDF_ARM64_16K, or upstream built for aarch64 and run under
		# qemu-user (tests/harness/mdf-upstream --arch arm64)
		if dar_mdf16=$("$top/tests/harness/mdf-upstream" --arch arm64 2> "$dar_dir/mdf16.log"); then
			run_test "debuginfo arm64 16K: upstream makedumpfile (mdf-upstream --arch arm64) run again gives the carried -g, -x and --config references" \
				t_dar_mdf_live arm64k16 "$dar_mdf16"
		else
			run_test "debuginfo arm64 16K: an upstream makedumpfile for aarch64 (tests/harness/mdf-upstream --arch arm64)" \
				t_failed_step "$dar_dir/mdf16.log"
		fi
		if [ -x "${MDF_RISCV64:-}" ]; then
			run_test "debuginfo riscv64: upstream makedumpfile (MDF_RISCV64) run again gives the carried references" \
				t_dar_mdf_live riscv64 "$MDF_RISCV64"
		else
			run_test "debuginfo riscv64: VMSIFT_ARCHDBG_MDF=1 needs MDF_RISCV64 (upstream makedumpfile built TARGET=riscv64)" false
		fi
	fi
fi
