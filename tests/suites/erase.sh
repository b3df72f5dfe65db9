# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/erase.sh - --config erase rules (doc/erase.md).  Sourced by
# tests/run.
#
# Always: the parser and the evaluator on a hand-made kernel
# (tests/unit/erase_test.c with the typeinfo double tests/unit/ti_spec.h),
# and the command line's errors.
#
# With the 6.1.0-57 -dbg vmlinux in the cache ($VMSIFT_CACHE/dbg-6.1.0-57-amd64,
# where tests/harness/lib.sh fetch_dbg_vmlinux puts it; VMSIFT_ERASE_FULL=1
# fetches it, about 860 MB), on the carried real vmcore: gdb writes the
# kernel's symbols and types as a spec (tests/tools/ti_spec.py) that
# tests/unit/erase_dump gives the library as its type source, until the
# DWARF (-x) and BTF sources land.  Then:
#   - the rules of tests/data/erase/btf.conf (SYMBOL:TYPE, a source that
#     knows no global's type) write the same file as dwarf.conf;
#   - every output (ELF, a split set, 1 and 8 threads, zstd, -F) holds the
#     same erased pages and eraseinfo;
#   - crash opens the erased dump and shows the erased node name;
#   - a rule naming a missing symbol is refused, or skipped when asked.
# vmsift equal to makedumpfile 1.7.2 -x --config (every page after
# decompression, the eraseinfo text): its reference takes makedumpfile
# minutes, so it runs with VMSIFT_ERASE_FULL=1 or when a reference made so
# is cached ($VMSIFT_CACHE/erase-ref).

erase_unit_dir=$top/tests/unit
erase_cache=${VMSIFT_CACHE:-$top/tests/work/cache}
erase_kver=6.1.0-57-amd64
erase_vmlinux=$erase_cache/dbg-$erase_kver/vmlinux-$erase_kver
erase_vmcore=$work/kdump-384M.vmcore
erase_data=$top/tests/data/erase
erase_cmp="$PY $top/tests/tools/erase_cmp.py"

t_erase_unit() {
	rm -f "$erase_unit_dir/erase_test"
	make -s -C "$erase_unit_dir" erase_test || return 1
	timeout 120 "$erase_unit_dir/erase_test"
}

# The CLI: a syntax error is named by file, line and column; without a
# type source (this branch has none) the rules are refused, not ignored.
t_erase_cli() {
	local d=$work/out/erase rc
	mkdir -p "$d"
	printf 'erase init_task.comm\nfor t in init_task.tasks\n\terase u.comm\nendfor\n' > "$d/bad.conf"
	vmsift --config "$d/bad.conf" -d 31 "$erase_vmcore" "$d/o" > "$d/log" 2>&1 && return 1
	grep -q "bad.conf:3:8: 'u.comm' does not start with the loop's variable 't'" "$d/log" ||
		{ cat "$d/log"; return 1; }
	# whatever the source (none, or the dump's BTF), a rule it cannot
	# resolve refuses the dump: no file goes out without its erase
	printf 'erase no_such_secret_anywhere\n' > "$d/ok.conf"
	vmsift --config "$d/ok.conf" -d 31 "$erase_vmcore" "$d/o2" > "$d/log" 2>&1
	rc=$?
	[ $rc -ne 0 ] || { cat "$d/log"; return 1; }
	! [ -s "$d/o2" ] || { echo "a dump was written without its erase"; return 1; }
}

run_test "erase: config parser and rule evaluator: every construct, line:column errors, cycles, missing names, SYMBOL:TYPE" \
	t_erase_unit
run_test "erase: vmsift --config: a syntax error named by line and column; no rules silently dropped" \
	t_erase_cli

# The spec of the symbols and types the configs use, from the vmlinux.
erase_syms=init_task,init_uts_ns,saved_command_line,boot_command_line,panic_notifier_list
erase_structs=task_struct,list_head,uts_namespace,new_utsname,cred,atomic_notifier_head,notifier_block,signal_struct,rlimit
erase_spec() {
	local spec off
	spec=$work/erase/spec-$erase_kver-$(echo "$erase_syms $erase_structs" | sha1sum | cut -c1-8)
	mkdir -p "$work/erase"
	if [ ! -s "$spec" ] || [ "$top/tests/tools/ti_spec.py" -nt "$spec" ]; then
		off=$(grep -a -m1 -o 'KERNELOFFSET=[0-9a-f]*' "$erase_vmcore" | cut -d= -f2)
		[ -n "$off" ] || { echo "no KERNELOFFSET in $erase_vmcore" >&2; return 1; }
		gdb -batch -nx -ex "python import sys; sys.argv = ['$spec.tmp', '$off', '$erase_syms', '$erase_structs']" \
			-x "$top/tests/tools/ti_spec.py" "$erase_vmlinux" >&2 || return 1
		mv "$spec.tmp" "$spec"
	fi
	echo "$spec"
}

# erase_run CONF OUT... [-- OPTIONS]: erase_dump with the spec.
erase_run() {
	local spec conf=$1; shift
	spec=$(erase_spec) || return 1
	make -s -C "$erase_unit_dir" erase_dump >&2 || return 1
	"$erase_unit_dir/erase_dump" $ERASE_OPTS "$spec" "$erase_vmcore" "$conf" "$@"
}

t_erase_btf_same() {
	local d=$work/out/erase
	mkdir -p "$d"
	ERASE_OPTS="-l -d 31" erase_run "$erase_data/dwarf.conf" "$d/dwarf.kd" || return 1
	ERASE_OPTS="-l -d 31 --btf" erase_run "$erase_data/btf.conf" "$d/btf.kd" || return 1
	# makedumpfile's syntax needs the declared types
	ERASE_OPTS="-l -d 31 --btf" erase_run "$erase_data/dwarf.conf" "$d/x.kd" 2>"$d/log" && return 1
	grep -q "no type for 'init_uts_ns' (name it: init_uts_ns:TYPE" "$d/log" || { cat "$d/log"; return 1; }
	cmp "$d/dwarf.kd" "$d/btf.kd" && $erase_cmp kdump "$erase_vmcore" "$d/btf.kd" "$d/dwarf.kd"
}

t_erase_formats() {
	local d=$work/out/erase
	mkdir -p "$d"
	ERASE_OPTS="-l -d 31 --threads 1" erase_run "$erase_data/dwarf.conf" "$d/t1.kd" || return 1
	ERASE_OPTS="-l -d 31 --threads 8" erase_run "$erase_data/dwarf.conf" "$d/t8.kd" || return 1
	cmp "$d/t1.kd" "$d/t8.kd" || return 1
	ERASE_OPTS="-z -d 31" erase_run "$erase_data/dwarf.conf" "$d/z.kd" || return 1
	$erase_cmp kdump "$erase_vmcore" "$d/z.kd" "$d/t1.kd" || return 1
	ERASE_OPTS="-l -d 31 -F" erase_run "$erase_data/dwarf.conf" "$d/flat" || return 1
	vmsift -R "$d/rebuilt.kd" < "$d/flat" && cmp "$d/rebuilt.kd" "$d/t1.kd" || return 1
	ERASE_OPTS="-l -d 31 --splitblock 4096" erase_run "$erase_data/dwarf.conf" \
		"$d/s1" "$d/s2" "$d/s3" || return 1
	$erase_cmp kdump "$erase_vmcore" "$d/s1" "$d/t1.kd" "$d/s2" "$d/s3" || return 1
	ERASE_OPTS="-E -d 31" erase_run "$erase_data/dwarf.conf" "$d/e.elf" || return 1
	$erase_cmp elfkd "$erase_vmcore" "$d/e.elf" "$d/t1.kd"
}

t_erase_crash() {
	local d=$work/out/erase
	mkdir -p "$d"
	ERASE_OPTS="-l -d 31" erase_run "$erase_data/dwarf.conf" "$d/c.kd" || return 1
	VMSIFT_CACHE=$erase_cache KERNEL_VERSION=$erase_kver \
		"$top/tests/harness/crash-check" "$d/c.kd" || return 1
	# crash reads init_uts_ns itself: the node name is the erased one
	grep -qE 'NODENAME: X{8}' "$d/c.kd.crash.log" ||
		{ grep NODENAME "$d/c.kd.crash.log"; return 1; }
}

t_erase_missing() {
	local d=$work/out/erase
	mkdir -p "$d"
	{ cat "$erase_data/dwarf.conf"; printf 'erase no_such_secret.key\n'; } > "$d/missing.conf"
	ERASE_OPTS="-l -d 31" erase_run "$d/missing.conf" "$d/m.kd" 2>"$d/log" && return 1
	grep -q "rule at line 19: 'no_such_secret.key': no symbol 'no_such_secret'" "$d/log" ||
		{ cat "$d/log"; return 1; }
	ERASE_OPTS="-l -d 31" erase_run "$erase_data/dwarf.conf" "$d/want.kd" || return 1
	ERASE_OPTS="-l -d 31 --ignore-missing" erase_run "$d/missing.conf" "$d/m.kd" || return 1
	cmp "$d/m.kd" "$d/want.kd"
}

# The makedumpfile reference: minutes of makedumpfile -x, cached by the
# config's and the vmcore's names.
erase_reference() {
	local ref=$erase_cache/erase-ref/$(sha1sum "$erase_data/dwarf.conf" | cut -c1-12)-$erase_kver.kd
	if [ ! -s "$ref" ]; then
		[ "${VMSIFT_ERASE_FULL:-0}" = 1 ] || return 1
		mkdir -p "$(dirname "$ref")"
		makedumpfile -x "$erase_vmlinux" --config "$erase_data/dwarf.conf" -l -d 31 \
			"$erase_vmcore" "$ref.tmp" >&2 || return 1
		mv "$ref.tmp" "$ref"
	fi
	echo "$ref"
}

# Through the gdb spec (an independent DWARF reader) and through vmsift's
# own -x (libdw, lib/typeinfo_dwarf.c): both equal makedumpfile's dump.
t_erase_makedumpfile() {
	local d=$work/out/erase ref
	mkdir -p "$d"
	ref=$(erase_reference) || { echo "makedumpfile -x --config failed"; return 1; }
	ERASE_OPTS="-l -d 31" erase_run "$erase_data/dwarf.conf" "$d/v.kd" || return 1
	$erase_cmp kdump "$erase_vmcore" "$d/v.kd" "$ref" || return 1
	vmsift -x "$erase_vmlinux" --config "$erase_data/dwarf.conf" -l -d 31 \
		--message-level 4 "$erase_vmcore" "$d/x.kd" || return 1
	$erase_cmp kdump "$erase_vmcore" "$d/x.kd" "$ref"
}

# -x with the SYMBOL:TYPE rules: each :TYPE checked against DWARF's
# declared type, the same file as makedumpfile's syntax; a wrong one
# refused, naming the declared type.
t_erase_x_types() {
	local d=$work/out/erase
	mkdir -p "$d"
	vmsift -x "$erase_vmlinux" --config "$erase_data/dwarf.conf" -l -d 31 \
		--message-level 4 "$erase_vmcore" "$d/x.kd" || return 1
	vmsift -x "$erase_vmlinux" --config "$erase_data/btf.conf" -l -d 31 \
		--message-level 4 "$erase_vmcore" "$d/xb.kd" || return 1
	cmp "$d/x.kd" "$d/xb.kd" || return 1
	printf '# wrong type\nerase init_task:cred.usage\n' > "$d/wrong.conf"
	vmsift -x "$erase_vmlinux" --config "$d/wrong.conf" -l -d 31 \
		"$erase_vmcore" "$d/xw.kd" > "$d/log" 2>&1 && return 1
	grep -q "rule at line 2: .*'init_task:cred' does not match the declared type of 'init_task' (task_struct)" "$d/log" ||
		{ cat "$d/log"; return 1; }
}

if [ "${VMSIFT_ERASE_FULL:-0}" = 1 ] && [ ! -f "$erase_vmlinux" ]; then
	(export VMSIFT_CACHE=$erase_cache; . "$top/tests/harness/lib.sh" &&
		fetch_dbg_vmlinux "$erase_kver") >&2
fi
if [ -f "$erase_vmlinux" ] && [ -f "$erase_vmcore" ] && command -v gdb >/dev/null; then
	run_test "erase: SYMBOL:TYPE rules with no declared types (BTF mode) write the same dump as makedumpfile's syntax with DWARF" \
		t_erase_btf_same
	run_test "erase: 1 and 8 threads, zstd, -F, a split set and ELF hold the same erased pages and eraseinfo" \
		t_erase_formats
	run_test "erase: a missing symbol refuses the dump, naming it; --ignore-missing skips the rule" \
		t_erase_missing
	run_test "erase: crash opens an erased dump and shows the erased node name" \
		t_erase_crash
	run_test "erase: -x checks SYMBOL:TYPE against DWARF's declared types; both forms write the same dump" \
		t_erase_x_types
	if erase_reference >/dev/null 2>&1; then
		run_test "erase: vmsift -x --config (and the gdb spec) equals makedumpfile 1.7.2 -x --config: every page, the eraseinfo" \
			t_erase_makedumpfile
	else
		log "# skipped: erase vs makedumpfile -x --config (VMSIFT_ERASE_FULL=1 makes its reference, minutes)"
	fi
elif [ "${VMSIFT_ERASE_FULL:-0}" = 1 ]; then
	# asked for: a failed fetch or a missing gdb is a failure, not a skip
	run_test "erase: VMSIFT_ERASE_FULL=1 has gdb, the vmcore and $erase_vmlinux" false
else
	log "# skipped: erase on the real vmcore (needs gdb and $erase_vmlinux; VMSIFT_ERASE_FULL=1 fetches it)"
fi
