# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/oldkernel.sh - vmsift on an older real kernel than the
# harness's default 6.1: Debian bullseye's 5.10 (issue #13, "kernels
# beyond those in the repo"; doc/testing.md).  Sourced by tests/run.
#
# Only with VMSIFT_OLD_KERNEL=1: it downloads the kernel (56 MB) and its
# -dbg package (800 MB) and boots two guests, all once into the cache
# ($VMSIFT_CACHE); a rerun costs minutes of host work.  For each x86_64
# kernel of VMSIFT_OLD_KERNEL_SUITES (default "bullseye"):
#   - a real kdump (tests/harness/kdump-test --kernel-suite S): the
#     capture kernel runs ./vmsift-static (-l -d 31, -E -d 31, -c -d 1)
#     and, in a second guest, Debian's makedumpfile 1.7.2 (-l -d 31) on
#     /proc/vmcore; kdump-test's own checks (pages against the raw copy,
#     bitmaps against makedumpfile on it) must pass, and the raw copy is
#     kept as $VMSIFT_CACHE/vmcore-KVER.raw;
#   - on that raw vmcore, against Debian's makedumpfile 1.7.2 (its runs
#     cached in $VMSIFT_CACHE/oldkernel-ref/KVER): -l -d 1, -l -d 31 and
#     -c -d 1 bitmaps and pages, -E -d 31 ranges and pages,
#     --dump-dmesg byte for byte (and -x on the vmcore without its
#     note), -g -x VMLINUX (tests/tools/
#     cmp_vmcoreinfo.py, the dump's note as truth), -x on the vmcore
#     stripped of its note gives the note's bitmaps (-d 1, 2, 4, 8, 16,
#     31), --config
#     with -x (tests/data/erase/dwarf.conf: every construct of
#     makedumpfile.conf(5)) every page and the eraseinfo as
#     makedumpfile's, data/erase/secrets-dwarf.conf with -x erases what
#     drgn says the entropy keys are, -e -d 31 bitmaps as
#     makedumpfile -e --work-dir's (and only pages of struct pages of
#     excluded pfns left out: tests/suites/lib/e_dump.sh);
#   - libkdumpfile and drgn read init_uts_ns.name.release out of every
#     output (tests/tools/uts_release.py --drgn), and crash (the host's
#     8.0.2, with the -dbg vmlinux) opens every output;
#   - BTF mode (no -x): 5.10's VMCOREINFO has no SYMBOL(kallsyms_*)
#     (Linux 6.0+), so --config is refused with the missing symbol named
#     and no file written (doc/btf.md);
#   - --mem-usage's DUMP_SIZE lines within 10% of the real dumps, levels
#     1 and 31, every codec.

# shellcheck source=tests/suites/lib/e_dump.sh
. "$top/tests/suites/lib/e_dump.sh"
# shellcheck source=tests/suites/lib/crash_source.sh
. "$top/tests/suites/lib/crash_source.sh"

oldk_dir=$work/oldkernel
oldk_cache=${VMSIFT_CACHE:-$top/tests/work/cache}
oldk_suites=${VMSIFT_OLD_KERNEL_SUITES:-bullseye}
oldk_data=$top/tests/data/erase
oldk_cmp="$PY $top/tests/tools/erase_cmp.py"

# oldk_kernel SUITE: "KVER VMLINUX RAW" of SUITE's kernel, each fetched
# or made once into the cache (the two guests' logs kept beside the
# references); for a listing "KVER - -".
oldk_kernel() {
	( set -e
	  export VMSIFT_CACHE=$oldk_cache
	  # shellcheck source=/dev/null
	  . "$top/tests/harness/lib.sh"
	  set_arch x86_64
	  set_ksuite "$1"
	  KVER=${KERNEL_VERSION:-$(kernel_version)}
	  # a listing (VMSIFT_LIST=1) fetches no package and boots no guest:
	  # the names need KVER only
	  [ "${VMSIFT_LIST:-0}" != 1 ] || { echo "$KVER - -"; exit 0; }
	  fetch_dbg_vmlinux "$KVER" >&2
	  refs=$VMSIFT_CACHE/oldkernel-ref/$KVER
	  raw=$VMSIFT_CACHE/vmcore-$KVER.raw
	  mkdir -p "$refs"
	  if [ ! -s "$raw" ]; then
		T_CAPTURE=${T_CAPTURE:-600} nice "$top/tests/harness/kdump-test" --quick --kernel-suite "$1" \
			--dump-args '-l -d 31;-E -d 31;-c -d 1' --out "$work/oldk-$1" \
			--save-raw "$raw.tmp" > "$refs/kdump-test-vmsift.log" 2>&1 ||
			{ tail -n 20 "$refs/kdump-test-vmsift.log" >&2; exit 1; }
		mv "$raw.tmp" "$raw"
	  fi
	  if [ ! -s "$refs/kdump-test-makedumpfile.log" ]; then
		T_CAPTURE=${T_CAPTURE:-600} nice "$top/tests/harness/kdump-test" --quick --kernel-suite "$1" \
			--dump-tool makedumpfile --dump-args '-l -d 31' \
			--out "$work/oldk-$1" > "$refs/kdump-test-makedumpfile.log.tmp" 2>&1 ||
			{ tail -n 20 "$refs/kdump-test-makedumpfile.log.tmp" >&2; exit 1; }
		mv "$refs/kdump-test-makedumpfile.log.tmp" "$refs/kdump-test-makedumpfile.log"
	  fi
	  rm -rf "$work/oldk-$1"
	  echo "$KVER $DBG_VMLINUX $raw" )
}

# oldk_ref NAME ARGS...: Debian's makedumpfile ARGS, whose output (its
# last argument, named NAME in the cache) is made once; --dump-dmesg's
# too.
oldk_ref() {
	local name=$1 ref; shift
	ref=$oldk_cache/oldkernel-ref/$ok_ver/$name
	if [ ! -s "$ref" ]; then
		rm -f "$ref.tmp"
		timeout 1200 makedumpfile "$@" "$ref.tmp" > "$ref.log" 2>&1 ||
			{ echo "makedumpfile $* failed:" >&2; tail -n 5 "$ref.log" >&2; return 1; }
		mv "$ref.tmp" "$ref"
	fi
	echo "$ref"
}

# t_oldk_dump NAME CODEC LEVEL: vmsift CODEC -d LEVEL on the raw vmcore,
# every page read back, the bitmaps equal makedumpfile -l -d LEVEL's.
t_oldk_dump() {
	local name=$1 ref
	ref=$(oldk_ref "l-d$3" -l -d "$3" "$ok_raw") || return 1
	rm -f "$ok_out.$name"
	vmsift "$2" -d "$3" --message-level 0 "$ok_raw" "$ok_out.$name" || return 1
	$check pages "$ok_raw" "$ok_out.$name" || return 1
	$check bitmaps "$ok_out.$name" "$ref" "$ok_raw"
}

t_oldk_elf() {
	local ref
	ref=$(oldk_ref E-d31 -E -d 31 "$ok_raw") || return 1
	rm -f "$ok_out.E31"
	vmsift -E -d 31 --message-level 0 "$ok_raw" "$ok_out.E31" || return 1
	$check elf "$ok_raw" "$ok_out.E31" 31 "$(oldk_ref l-d31 -l -d 31 "$ok_raw")" || return 1
	(cd "$top/tests/harness" && $PY cmp_elf.py "$ok_out.E31" "$ref" "$ok_raw")
}

t_oldk_dmesg() {
	local ref=$oldk_cache/oldkernel-ref/$ok_ver/dmesg
	if [ ! -s "$ref" ]; then
		rm -f "$ref.tmp"
		makedumpfile --dump-dmesg "$ok_raw" "$ref.tmp" > "$ref.log" 2>&1 || return 1
		mv "$ref.tmp" "$ref"
	fi
	rm -f "$ok_out.dmesg"
	vmsift --dump-dmesg "$ok_raw" "$ok_out.dmesg" > /dev/null || return 1
	cmp "$ok_out.dmesg" "$ref"
}

# oldk_g_ref: makedumpfile -g -x's VMCOREINFO text, made once.
oldk_g_ref() {
	local ref=$oldk_cache/oldkernel-ref/$ok_ver/g
	if [ ! -s "$ref" ]; then
		rm -f "$ref.tmp"
		timeout 600 makedumpfile -g "$ref.tmp" -x "$ok_vml" > "$ref.log" 2>&1 ||
			{ echo "makedumpfile -g failed" >&2; return 1; }
		mv "$ref.tmp" "$ref"
	fi
	echo "$ref"
}

t_oldk_g() {
	local ref
	ref=$(oldk_g_ref) || return 1
	rm -f "$ok_out.g"
	vmsift -g "$ok_out.g" -x "$ok_vml" > /dev/null || return 1
	$PY "$top/tests/tools/strip_vmcoreinfo.py" --note "$ok_raw" > "$ok_out.note" || return 1
	$PY "$top/tests/tools/cmp_vmcoreinfo.py" "$ref" "$ok_out.g" "$ok_out.note"
}

# oldk_nonote: the raw vmcore without its VMCOREINFO note, made once.
oldk_nonote() {
	local nonote=$oldk_dir/$ok_ver.nonote
	[ -s "$nonote" ] && [ "$nonote" -nt "$ok_raw" ] && return 0
	$PY "$top/tests/tools/strip_vmcoreinfo.py" "$ok_raw" "$nonote"
}

# t_oldk_dmesg_stripped: --dump-dmesg -x without the note: makedumpfile's
# log of the vmcore with it.
t_oldk_dmesg_stripped() {
	oldk_nonote || return 1
	t_oldk_dmesg || return 1
	rm -f "$ok_out.dmesg-x"
	vmsift --dump-dmesg -x "$ok_vml" "$oldk_dir/$ok_ver.nonote" "$ok_out.dmesg-x" \
		> /dev/null || return 1
	cmp "$ok_out.dmesg-x" "$oldk_cache/oldkernel-ref/$ok_ver/dmesg"
}

# t_oldk_x_stripped LEVEL: -x on the vmcore without its note gives the
# note's bitmaps.
t_oldk_x_stripped() {
	local nonote=$oldk_dir/$ok_ver.nonote with=$ok_out.with$1 without=$ok_out.without$1
	oldk_nonote || return 1
	rm -f "$with" "$without"
	vmsift -l -d "$1" --message-level 0 "$ok_raw" "$with" || return 1
	vmsift -l -d "$1" --message-level 0 -x "$ok_vml" "$nonote" "$without" || return 1
	$check pages "$ok_raw" "$without" || return 1
	$check bitmaps "$without" "$with" "$ok_raw"
}

# t_oldk_config NAME CONF: -x --config CONF equals makedumpfile's.
t_oldk_config() {
	local ref
	ref=$(oldk_ref "x-$1" -l -d 31 -x "$ok_vml" --config "$2" "$ok_raw") || return 1
	rm -f "$ok_out.x-$1"
	vmsift -l -d 31 --message-level 4 -x "$ok_vml" --config "$2" \
		"$ok_raw" "$ok_out.x-$1" || return 1
	$oldk_cmp kdump "$ok_raw" "$ok_out.x-$1" "$ref"
}

# t_oldk_secrets: the shipped rules with -x.  makedumpfile reads only
# their first two (the loops are vmsift's syntax) and erases nothing
# with them: base_crng and input_pool are of anonymous struct types,
# whose members 1.7.2 does not find (its --message-level 31 log: "Type
# Name: (null)", an empty eraseinfo).  The oracle is drgn
# (erased_check.py: base_crng.key, input_pool.hash, each CPU's
# crngs.key).  5.10 has no encrypted keys (CONFIG_ENCRYPTED_KEYS off)
# and no IMA key queue: the file's optional symbols (&key_type_encrypted?,
# ima_keys?) let it resolve whole, with no rule skipped.
t_oldk_secrets() {
	rm -f "$ok_out.x-secrets"
	vmsift -l -d 31 --message-level 4 -x "$ok_vml" \
		--config "$top/data/erase/secrets-dwarf.conf" "$ok_raw" "$ok_out.x-secrets" || return 1
	$PY "$top/tests/tools/erased_check.py" "$ok_raw" "$ok_vml" "$ok_out.x-secrets"
}

t_oldk_e() {
	local ref plain
	mkdir -p "$oldk_dir/wd"
	ref=$(oldk_ref e-d31 -l -d 31 -e --work-dir "$oldk_dir/wd" "$ok_raw") || return 1
	plain=$(oldk_ref l-d31 -l -d 31 "$ok_raw") || return 1
	e_dump_check "$ref" "$plain" "$ok_raw" "$ok_out.e"
}

# t_oldk_btf: without -x the rules need kallsyms' addresses, which 5.10
# does not export: refused, naming the missing symbol, no file written.
t_oldk_btf() {
	rm -f "$ok_out.btf"
	vmsift --config "$top/data/erase/secrets.conf" -l -d 31 "$ok_raw" "$ok_out.btf" \
		> "$ok_out.btf.log" 2>&1 && { echo "BTF mode accepted 5.10"; return 1; }
	! [ -e "$ok_out.btf" ] || { echo "a dump was written without its erase"; return 1; }
	grep -F "VMCOREINFO lacks SYMBOL(kallsyms_names) (exported since Linux 6.0)" "$ok_out.btf.log" ||
		{ cat "$ok_out.btf.log"; return 1; }
}

# t_oldk_readers: libkdumpfile and drgn read the release out of every
# output; crash opens each.
# (5.10 exports no OFFSET(uts_namespace.name): the offset is the one
# makedumpfile -g reads from the DWARF.)
t_oldk_readers() {
	local f ref off
	ref=$(oldk_g_ref) || return 1
	off=$(sed -n 's/^OFFSET(uts_namespace.name)=//p' "$ref")
	[ -n "$off" ] || { echo "no OFFSET(uts_namespace.name) in $ref"; return 1; }
	for f in "$ok_out".{d1,d31,c1,E31,e,x-dwarf,x-secrets}; do
		[ -s "$f" ] || { echo "no $f (an earlier test failed)"; return 1; }
		$PY "$top/tests/tools/uts_release.py" "$f" --drgn --name-offset "$off" || return 1
	done
}

# (-d 1's kdump file is -c -d 1's but for the codec: left out, two
# minutes each on a loaded host)
t_oldk_crash() {
	crash_opens_erased "$oldk_cache" "$ok_ver" "$ok_out.e" "$ok_out.x-dwarf" \
		"$ok_out".{d31,c1,E31,e,x-dwarf,x-secrets}
}

# t_oldk_memusage: DUMP_SIZE within 10% of each real dump's size.
t_oldk_memusage() {
	local l c est real bad=0
	vmsift --mem-usage "$ok_raw" > "$ok_out.mu" || return 1
	for l in 1 31; do
		for c in zlib:-c lzo:-l snappy:-p zstd:-z; do
			rm -f "$ok_out.mu.kd"
			vmsift "${c#*:}" -d $l --message-level 0 "$ok_raw" "$ok_out.mu.kd" || return 1
			real=$(stat -c %s "$ok_out.mu.kd")
			est=$(sed -n "s/^DUMP_SIZE level=$l codec=${c%%:*} bytes=\([0-9]*\)$/\1/p" "$ok_out.mu")
			[ -n "$est" ] || { echo "no DUMP_SIZE line for level $l ${c%%:*}"; return 1; }
			echo "level $l ${c%%:*}: estimated $est, dump $real"
			(( est * 10 >= real * 9 && est * 10 <= real * 11 )) || bad=1
		done
	done
	[ $bad = 0 ]
}

oldk_one() {
	local suite=$1 k lv
	if ! k=$(oldk_kernel "$suite" 2> "$oldk_dir/$suite.log"); then
		run_test "oldkernel $suite: the kernel, its -dbg vmlinux, kdumps by vmsift-static and makedumpfile" \
			t_failed_step "$oldk_dir/$suite.log"
		return
	fi
	read -r ok_ver ok_vml ok_raw <<< "$k"
	# the outputs outlive run_test's scrub of $work/out: the readers'
	# tests read them all; removed after the last
	ok_out=$oldk_dir/out/$ok_ver
	mkdir -p "$oldk_dir/out"
	run_test "oldkernel $ok_ver: -l -d 1: bitmaps equal makedumpfile's, pages read back" \
		t_oldk_dump d1 -l 1
	run_test "oldkernel $ok_ver: -l -d 31: bitmaps equal makedumpfile's, pages read back" \
		t_oldk_dump d31 -l 31
	run_test "oldkernel $ok_ver: -c -d 1: bitmaps equal makedumpfile's, pages read back" \
		t_oldk_dump c1 -c 1
	run_test "oldkernel $ok_ver: -E -d 31: ELF ranges as makedumpfile's, pages read back" t_oldk_elf
	run_test "oldkernel $ok_ver: --dump-dmesg byte for byte as makedumpfile's" t_oldk_dmesg
	run_test "oldkernel $ok_ver: --dump-dmesg -x without VMCOREINFO: makedumpfile's log of the vmcore with it" \
		t_oldk_dmesg_stripped
	run_test "oldkernel $ok_ver: -g -x equals makedumpfile 1.7.2's" t_oldk_g
	# (free pages from the free lists: PAGE_BUDDY_MAPCOUNT_VALUE is a
	# macro, absent from the DWARF; doc/debuginfo.md)
	for lv in 1 2 4 8 16 31; do
		run_test "oldkernel $ok_ver: -x without VMCOREINFO, -d $lv: the note's bitmaps, pages read back" \
			t_oldk_x_stripped "$lv"
	done
	run_test "oldkernel $ok_ver: -x --config dwarf.conf (every construct) equals makedumpfile's: every page, eraseinfo" \
		t_oldk_config dwarf "$oldk_data/dwarf.conf"
	run_test "oldkernel $ok_ver: -x --config secrets-dwarf.conf erases what drgn says the entropy keys are" \
		t_oldk_secrets
	run_test "oldkernel $ok_ver: -e -d 31: only struct pages of excluded pfns left out (drgn); bitmaps equal makedumpfile -e --work-dir's (its count where its walk is wrong); pages read back" \
		t_oldk_e
	run_test "oldkernel $ok_ver: --config without -x: refused, naming the missing kallsyms, no file" \
		t_oldk_btf
	run_test "oldkernel $ok_ver: libkdumpfile and drgn read every output" t_oldk_readers
	run_test "oldkernel $ok_ver: crash 8.0.2 opens every output (but -l -d 1)" t_oldk_crash
	run_test "oldkernel $ok_ver: --mem-usage DUMP_SIZE within 10% of the dumps" t_oldk_memusage
	rm -rf "$oldk_dir/out"
}

# Always: the kdump header's utsname of a kernel before 5.11 (a struct
# kref before init_uts_ns.name, no OFFSET(uts_namespace.name); the
# synthetic tests/gen/specs/uts-5.10.spec) is the one makedumpfile
# writes, with the release VMCOREINFO names: without it libkdumpfile
# cannot translate a 5.10 dump's addresses.
t_oldk_utsname() {
	local d=$work/out/oldk-uts h
	mkdir -p "$d"
	rm -f "$d/v" "$d/m"
	$PY "$top/tests/gen/mkvmcore.py" "$top/tests/gen/specs/uts-5.10.spec" "$d/u.vmcore" \
		> /dev/null || return 1
	vmsift -l -d 31 --message-level 0 "$d/u.vmcore" "$d/v" || return 1
	makedumpfile -l -d 31 "$d/u.vmcore" "$d/m" > /dev/null 2>&1 || return 1
	h=$($check header "$d/v") || return 1
	diff <(echo "$h") <($check header "$d/m") || return 1
	grep -qx "release=$(grep -a -m1 -o 'OSRELEASE=[^[:space:]]*' "$d/u.vmcore" | cut -d= -f2)" <<< "$h" ||
		{ echo "$h"; return 1; }
}
run_test "oldkernel: a pre-5.11 kernel's utsname (kref first, no OFFSET(uts_namespace.name)) in the header as makedumpfile's" \
	t_oldk_utsname

if [ "${VMSIFT_OLD_KERNEL:-0}" = 1 ]; then
	mkdir -p "$oldk_dir"
	for oldk_s in $oldk_suites; do
		oldk_one "$oldk_s"
	done
else
	log "# skipped: Debian bullseye's 5.10 kernel end to end (VMSIFT_OLD_KERNEL=1; 860 MB of packages, two guests)"
fi
