# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/dbgnew.sh - -x, -g, --config and -e on the newer kernels'
# real -dbg vmlinux (issue #13; doc/debuginfo.md).  Sourced by tests/run.
#
# Only with VMSIFT_DBG_NEW=1: it downloads about 1.1 GB per kernel (the
# -dbg package, 1.0 GB for 6.12, 1.2 GB for 7.3) and boots a guest per
# kernel, all cached in $VMSIFT_CACHE.  For each x86_64 kernel of
# dbgnew_suites (Debian trixie's 6.12, trixie-backports' 7.x):
#   - the kernel and its -dbg vmlinux (tests/harness/lib.sh, set_ksuite,
#     fetch_dbg_vmlinux), and a real kdump of it (kdump-test
#     --kernel-suite, --save-raw: $VMSIFT_CACHE/vmcore-KVER.raw);
#   - the reference: upstream makedumpfile (tests/harness/mdf-upstream,
#     built once from a checkout of its git into the cache), whose runs
#     are cached in $VMSIFT_CACHE/dbgnew-ref/KVER (minutes each);
#   - -g text equal to upstream's (tests/tools/cmp_vmcoreinfo.py
#     --upstream, the dump's own note as the truth for its LENGTH bug);
#   - -x beside the note, -d 31: bitmaps equal upstream's -x;
#   - -x on the vmcore stripped of its note: the note's bitmaps at
#     -d 1, 2, 4, 8, 16, 31 (6.12 and 7.x have their page types in
#     DWARF: free pages are found without the note), every page read back;
#   - --config tests/data/erase/dwarf.conf with -x: every page after
#     decompression and the eraseinfo equal to upstream's -x --config;
#     btf.conf without -x (the dump's BTF) writes the very same file;
#   - -e -d 31: only pages of struct pages of excluded pfns left out
#     (tests/tools/vmemmap_check.py), bitmaps equal upstream's -e
#     --work-dir, or where upstream's walk is wrong (KASLR: e_dump.sh)
#     as many pages left out as it counts;
#   - data/erase/secrets.conf (BTF) and secrets-dwarf.conf (-x) resolve
#     and erase the bytes drgn says the secrets are (erased_check.py);
#   - crash, with the -dbg vmlinux, opens the -e dump and the erased
#     dumps: tests/harness/crash-check runs Debian trixie's crash 8.0.6
#     for these kernels (bookworm's 8.0.2 opens neither; on 7.x with
#     --no_kmem_cache --no_modules), once it opened the raw kdump.
# Times (2 busy cores): doc/debuginfo.md.

dbgnew_dir=$work/dbgnew
dbgnew_cache=${VMSIFT_CACHE:-$top/tests/work/cache}
dbgnew_suites=${VMSIFT_DBG_NEW_SUITES:-trixie trixie-backports}
dbgnew_data=$top/tests/data/erase
dbgnew_cmp="$PY $top/tests/tools/erase_cmp.py"
dbgnew_mdf=''
# shellcheck source=tests/suites/lib/crash_source.sh
. "$top/tests/suites/lib/crash_source.sh"
# shellcheck source=tests/suites/lib/e_dump.sh
. "$top/tests/suites/lib/e_dump.sh"

# dbgnew_kernel SUITE: "KVER VMLINUX VMCORE" of SUITE's kernel, each
# fetched or made once into the cache; for a listing "KVER - -".
dbgnew_kernel() {
	( set -e
	  export VMSIFT_CACHE=$dbgnew_cache
	  # shellcheck source=/dev/null
	  . "$top/tests/harness/lib.sh"
	  set_arch x86_64
	  set_ksuite "$1"
	  KVER=${KERNEL_VERSION:-$(kernel_version)}
	  # a listing (VMSIFT_LIST=1) fetches no package and boots no guest:
	  # the names need KVER only
	  [ "${VMSIFT_LIST:-0}" != 1 ] || { echo "$KVER - -"; exit 0; }
	  fetch_dbg_vmlinux "$KVER" >&2
	  raw=$VMSIFT_CACHE/vmcore-$KVER.raw
	  if [ ! -s "$raw" ]; then
		"$top/tests/harness/kdump-test" --kernel-suite "$1" \
			--dump-tool "$top/vmsift" --dump-args '-l -d 31' --no-check \
			--out "$work/kdump-$1" --save-raw "$raw.tmp" >&2
		mv "$raw.tmp" "$raw"
	  fi
	  echo "$KVER $DBG_VMLINUX $raw" )
}

# dbgnew_ref NAME ARGS...: upstream makedumpfile ARGS (whose last is
# the output, named NAME in the cache), run once.
dbgnew_ref() {
	local name=$1 ref; shift
	ref=$dbgnew_cache/dbgnew-ref/$dn_ver/$name
	if [ ! -s "$ref" ]; then
		mkdir -p "$(dirname "$ref")"
		rm -f "$ref.tmp"
		timeout 1200 "$dbgnew_mdf" "$@" "$ref.tmp" > "$ref.log" 2>&1 ||
			{ echo "upstream makedumpfile $* failed:" >&2; tail -n 5 "$ref.log" >&2; return 1; }
		mv "$ref.tmp" "$ref"
	fi
	echo "$ref"
}

t_dbgnew_g() {
	local ref
	ref=$(dbgnew_ref g -x "$dn_vml" -g) || return 1  # makedumpfile -x VMLINUX -g FILE
	rm -f "$dn_out.g"
	vmsift -g "$dn_out.g" -x "$dn_vml" > /dev/null || return 1
	$PY "$top/tests/tools/strip_vmcoreinfo.py" --note "$dn_raw" > "$dn_out.note" || return 1
	$PY "$top/tests/tools/cmp_vmcoreinfo.py" --upstream "$ref" "$dn_out.g" "$dn_out.note"
}

t_dbgnew_x_note() {
	local ref
	ref=$(dbgnew_ref x-d31 -l -d 31 -x "$dn_vml" "$dn_raw") || return 1
	rm -f "$dn_out.x31"
	vmsift -l -d 31 --message-level 0 -x "$dn_vml" "$dn_raw" "$dn_out.x31" || return 1
	$check bitmaps "$dn_out.x31" "$ref" "$dn_raw"
}

# t_dbgnew_x_stripped LEVEL
t_dbgnew_x_stripped() {
	local nonote=$dbgnew_dir/$dn_ver.nonote with=$dn_out.with$1 without=$dn_out.without$1
	if [ ! -s "$nonote" ] || [ "$dn_raw" -nt "$nonote" ]; then
		$PY "$top/tests/tools/strip_vmcoreinfo.py" "$dn_raw" "$nonote" || return 1
	fi
	rm -f "$with" "$without"
	vmsift -l -d "$1" --message-level 0 "$dn_raw" "$with" || return 1
	vmsift -l -d "$1" --message-level 0 -x "$dn_vml" "$nonote" "$without" || return 1
	$check pages "$dn_raw" "$without" || return 1
	$check bitmaps "$without" "$with" "$dn_raw"
}

t_dbgnew_config() {
	local ref
	ref=$(dbgnew_ref config-d31 -l -d 31 -x "$dn_vml" \
		--config "$dbgnew_data/dwarf.conf" "$dn_raw") || return 1
	rm -f "$dn_out.cfg"
	vmsift -l -d 31 --message-level 4 -x "$dn_vml" --config "$dbgnew_data/dwarf.conf" \
		"$dn_raw" "$dn_out.cfg" || return 1
	$dbgnew_cmp kdump "$dn_raw" "$dn_out.cfg" "$ref"
}

t_dbgnew_btf() {
	rm -f "$dn_out.cfg" "$dn_out.btf"
	vmsift -l -d 31 --message-level 4 -x "$dn_vml" --config "$dbgnew_data/dwarf.conf" \
		"$dn_raw" "$dn_out.cfg" || return 1
	vmsift -l -d 31 --message-level 4 --config "$dbgnew_data/btf.conf" \
		"$dn_raw" "$dn_out.btf" || return 1
	cmp "$dn_out.cfg" "$dn_out.btf" &&
		$dbgnew_cmp kdump "$dn_raw" "$dn_out.btf" "$dn_out.cfg"
}

t_dbgnew_e() {
	local ref plain
	mkdir -p "$dbgnew_dir/wd"
	ref=$(dbgnew_ref e-d31 -l -d 31 -e --work-dir "$dbgnew_dir/wd" "$dn_raw") || return 1
	plain=$(dbgnew_ref l-d31 -l -d 31 "$dn_raw") || return 1
	e_dump_check "$ref" "$plain" "$dn_raw" "$dn_out.e"
}

# t_dbgnew_secrets: the shipped rules resolve (BTF without -x, DWARF
# with it) and erase what drgn says the secrets are.
t_dbgnew_secrets() {
	local conf=$top/data/erase/secrets.conf
	rm -f "$dn_out.sec" "$dn_out.secdw"
	vmsift --config "$conf" -l -d 31 --message-level 4 "$dn_raw" "$dn_out.sec" || return 1
	vmsift -x "$dn_vml" --config "${conf%.conf}-dwarf.conf" -l -d 31 --message-level 4 \
		"$dn_raw" "$dn_out.secdw" || return 1
	$PY "$top/tests/tools/erased_check.py" "$dn_raw" "$dn_vml" "$dn_out.sec" "$dn_out.secdw"
}

# t_dbgnew_crash: crash opens the -e dump and the erased dumps.
t_dbgnew_crash() {
	rm -f "$dn_out".c-*
	vmsift -l -d 31 -e --message-level 0 "$dn_raw" "$dn_out.c-e" || return 1
	vmsift -l -d 31 --message-level 0 -x "$dn_vml" --config "$dbgnew_data/dwarf.conf" \
		"$dn_raw" "$dn_out.c-cfg" || return 1
	vmsift -l -d 31 --message-level 0 --config "$top/data/erase/secrets.conf" \
		"$dn_raw" "$dn_out.c-sec" || return 1
	crash_opens_erased "$dbgnew_cache" "$dn_ver" "$dn_out.c-e" "$dn_out.c-cfg" \
		"$dn_out.c-e" "$dn_out.c-cfg" "$dn_out.c-sec"
}

dbgnew_one() {
	local suite=$1 k lv
	if ! k=$(dbgnew_kernel "$suite" 2> "$dbgnew_dir/$suite.log"); then
		run_test "dbgnew $suite: the kernel, its -dbg vmlinux and a kdump of it" \
			t_failed_step "$dbgnew_dir/$suite.log"
		return
	fi
	read -r dn_ver dn_vml dn_raw <<< "$k"
	dn_out=$work/out/dbgnew-$dn_ver
	run_test "dbgnew $dn_ver: -g equals upstream makedumpfile's" t_dbgnew_g
	run_test "dbgnew $dn_ver: -x beside the note, -d 31: bitmaps equal upstream -x's" \
		t_dbgnew_x_note
	for lv in 1 2 4 8 16 31; do
		run_test "dbgnew $dn_ver: -x without VMCOREINFO, -d $lv: the note's bitmaps, pages read back" \
			t_dbgnew_x_stripped "$lv"
	done
	run_test "dbgnew $dn_ver: -x --config dwarf.conf equals upstream -x --config: every page, eraseinfo" \
		t_dbgnew_config
	run_test "dbgnew $dn_ver: btf.conf without -x writes the same file as dwarf.conf with -x" \
		t_dbgnew_btf
	run_test "dbgnew $dn_ver: -e -d 31: only struct pages of excluded pfns left out (drgn); bitmaps equal upstream -e --work-dir's (its count where its walk is wrong); pages read back" \
		t_dbgnew_e
	run_test "dbgnew $dn_ver: secrets.conf (BTF) and secrets-dwarf.conf (-x) erase the secrets" \
		t_dbgnew_secrets
	if [ "${VMSIFT_LIST:-0}" = 1 ] || crash_opens_raw "$dn_raw" "$dn_ver" "$dbgnew_cache" "$dbgnew_dir"; then
		run_test "dbgnew $dn_ver: crash opens the -e dump and the erased dumps" t_dbgnew_crash
	else
		run_test "dbgnew $dn_ver: crash opens the raw kdump" t_failed_step "$CRASH_RAW_LOG"
	fi
}

if [ "${VMSIFT_DBG_NEW:-0}" = 1 ]; then
	mkdir -p "$dbgnew_dir"
	# (a listing builds no upstream makedumpfile)
	if [ "${VMSIFT_LIST:-0}" = 1 ] ||
		dbgnew_mdf=$(VMSIFT_CACHE=$dbgnew_cache "$top/tests/harness/mdf-upstream" 2> "$dbgnew_dir/mdf.log"); then
		for dbgnew_s in $dbgnew_suites; do
			dbgnew_one "$dbgnew_s"
		done
	else
		run_test "dbgnew: an upstream makedumpfile (tests/harness/mdf-upstream)" \
			t_failed_step "$dbgnew_dir/mdf.log"
	fi
else
	log "# skipped: -x, -g, --config, -e on 6.12 and 7.x (VMSIFT_DBG_NEW=1; 2.3 GB of -dbg packages, two guests)"
fi
