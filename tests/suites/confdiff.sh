# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/confdiff.sh - --config against makedumpfile on configs nobody
# wrote by hand (issue 13; doc/testing.md, "confdiff").  Sourced by
# tests/run.
#
# tests/tools/confgen.py writes random but valid makedumpfile.conf files
# from the 6.1 -dbg vmlinux's DWARF and the carried 6.1 vmcore's values
# (drgn); tests/tools/confdiff-seed runs makedumpfile 1.7.2 -x and vmsift
# -x on one and compares the dumps page by page after decompression and
# in the eraseinfo (tests/tools/confdiff.py), then the same rules in BTF
# form (SYMBOL:TYPE, no -x) against vmsift -x.
#
# Default (the -dbg vmlinux cached, as erase.sh needs it): the fixed seeds
# of tests/data/confdiff/, each carried with makedumpfile's answer as a
# digest (SEED.mdf.dg: makedumpfile takes minutes a seed), the rules
# makedumpfile refused left out (SEED.kept.conf), and its BTF form
# (SEED.btf.conf, SEED.sub.conf; SEED.opts: --erase-ignore-missing where
# a rule meets a wild pointer, which makedumpfile passes over and vmsift
# refuses unless asked to go on); and the parser on mutated seeds: a
# malformed config is refused with its file, line and column, never a
# crash.  VMSIFT_CONFDIFF=FIRST-LAST runs new seeds (makedumpfile, drgn,
# minutes each), cached in $VMSIFT_CACHE/confdiff.

cd_kver=6.1.0-57-amd64
cd_cache=${VMSIFT_CACHE:-$top/tests/work/cache}
cd_vmlinux=$cd_cache/dbg-$cd_kver/vmlinux-$cd_kver
cd_vmcore=$work/kdump-384M.vmcore
cd_data=$top/tests/data/confdiff
cd_py=/usr/bin/python3

# cd_x CONF OUT [OPTIONS]: vmsift -x on the carried vmcore.
cd_x() {
	local conf=$1 out=$2; shift 2
	rm -f "$out"
	vmsift -x "$cd_vmlinux" --config "$conf" -l -d 31 "$@" "$cd_vmcore" "$out" > "$out.log" 2>&1 ||
		{ grep -v '^Copying' "$out.log" | tail -n 5; return 1; }
}

# The fixed seeds: vmsift -x writes the pages and eraseinfo makedumpfile
# wrote (its carried digest).
t_confdiff_fixed() {
	local d=$work/out/confdiff s conf n=0
	mkdir -p "$d"
	for s in "$cd_data"/*.mdf.dg; do
		s=$(basename "$s" .mdf.dg)
		conf=$cd_data/$s.kept.conf
		[ -f "$conf" ] || conf=$cd_data/$s.conf
		cd_x "$conf" "$d/$s.kd" $(cat "$cd_data/$s.opts" 2>/dev/null) ||
			{ echo "seed $s: vmsift -x failed"; return 1; }
		$cd_py "$top/tests/tools/confdiff.py" check "$cd_vmcore" "$d/$s.kd" \
			"$cd_data/$s.mdf.dg" || { echo "seed $s differs from makedumpfile"; return 1; }
		n=$((n + 1))
	done
	[ $n -ge 4 ] || { echo "only $n seeds in $cd_data"; return 1; }
}

# Their BTF form: the same rules with SYMBOL:TYPE, from the dump's own
# BTF, write the same dump as the makedumpfile syntax with -x.
t_confdiff_btf() {
	local d=$work/out/confdiff s n=0 opts
	mkdir -p "$d"
	for s in "$cd_data"/*.btf.conf; do
		s=$(basename "$s" .btf.conf)
		opts=$(cat "$cd_data/$s.opts" 2>/dev/null)
		cd_x "$cd_data/$s.sub.conf" "$d/$s.sub.kd" $opts || return 1
		rm -f "$d/$s.btf.kd"
		vmsift --config "$cd_data/$s.btf.conf" $opts -l -d 31 "$cd_vmcore" "$d/$s.btf.kd" \
			> "$d/$s.btf.log" 2>&1 || { tail -n 5 "$d/$s.btf.log"; return 1; }
		cmp "$d/$s.btf.kd" "$d/$s.sub.kd" || { echo "seed $s: the BTF form differs"; return 1; }
		n=$((n + 1))
	done
	[ $n -ge 4 ] || { echo "only $n seeds in $cd_data"; return 1; }
}

# Malformed configs, made from the seeds by tests/tools/confmut.py (each
# with the line and column the error must name): refused with exit status
# 1 and "FILE:LINE:COL: ...", never a crash or a dump.
t_confdiff_malformed() {
	local d=$work/out/confdiff/mut m want rc n=0 seeds
	mkdir -p "$d"
	rm -f "$d"/*
	seeds=("$cd_data"/[0-9].conf)
	$cd_py "$top/tests/tools/confmut.py" "$d" "${seeds[@]:0:3}" || return 1
	for m in "$d"/*.conf; do
		want=$(head -n 1 "$m" | sed -n 's/^# want \([0-9:]*\).*/\1/p')
		vmsift --config "$m" -d 31 "$cd_vmcore" "$d/out" > "$m.log" 2>&1
		rc=$?
		[ $rc = 1 ] || { echo "$m: exit status $rc"; cat "$m.log"; return 1; }
		! [ -e "$d/out" ] || { echo "$m: a dump was written"; return 1; }
		grep -q "^vmsift: .*$(basename "$m"):$want: " "$m.log" ||
			{ echo "$m: no '$want: ' message"; cat "$m.log"; return 1; }
		n=$((n + 1))
	done
	[ $n -ge 45 ] || { echo "only $n malformed configs"; return 1; }
}

# A bit-field is no range of bytes: both sources refuse it, naming it
# (makedumpfile 1.7.2 erases the 4 bytes before the struct instead:
# doc/erase.md); --erase-ignore-missing skips it.
t_confdiff_bitfield() {
	local d=$work/out/confdiff
	mkdir -p "$d"
	printf 'erase init_task.prio\nerase init_task.sched_reset_on_fork\n' > "$d/bf.conf"
	printf 'erase init_task:task_struct.prio\nerase init_task:task_struct.sched_reset_on_fork\n' > "$d/bf-btf.conf"
	cd_x "$d/bf.conf" "$d/bf.kd" > "$d/bf.out" && return 1
	grep -q "rule at line 2: 'init_task.sched_reset_on_fork': member 'sched_reset_on_fork' is a bitfield" "$d/bf.kd.log" ||
		{ cat "$d/bf.out"; return 1; }
	rm -f "$d/bf-btf.kd"
	vmsift --config "$d/bf-btf.conf" -l -d 31 "$cd_vmcore" "$d/bf-btf.kd" > "$d/bf-btf.log" 2>&1 && return 1
	grep -q "rule at line 2: 'init_task.sched_reset_on_fork': member 'sched_reset_on_fork' is a bitfield" "$d/bf-btf.log" ||
		{ cat "$d/bf-btf.log"; return 1; }
	cd_x "$d/bf.conf" "$d/bf.kd" --erase-ignore-missing || return 1
	rm -f "$d/bf-btf.kd"
	vmsift --config "$d/bf-btf.conf" --erase-ignore-missing -l -d 31 "$cd_vmcore" "$d/bf-btf.kd" \
		> "$d/bf-btf.log" 2>&1 || { cat "$d/bf-btf.log"; return 1; }
	cmp "$d/bf.kd" "$d/bf-btf.kd" &&
		$cd_py "$top/tests/tools/erase_cmp.py" text "$d/bf.kd" | grep -qx 'erase init_task.prio size 4'
}

# VMSIFT_CONFDIFF=FIRST-LAST: new seeds end to end.
t_confdiff_seeds() {
	local dir s first=${VMSIFT_CONFDIFF%-*} last=${VMSIFT_CONFDIFF#*-} bad=0
	dir=$cd_cache/confdiff/$(sha1sum < "$top/tests/tools/confgen.py" | cut -c1-8)
	for s in $(seq "$first" "$last"); do
		"$top/tests/tools/confdiff-seed" "$dir" "$cd_vmlinux" "$cd_vmcore" "$s" ||
			{ echo "not ok: seed $s (in $dir)"; bad=$((bad + 1)); }
	done
	[ $bad = 0 ]
}

if [ -f "$cd_vmcore" ]; then
	run_test "confdiff: mutated generator configs are refused with file:line:column, never a crash" \
		t_confdiff_malformed
fi
if [ -f "$cd_vmlinux" ] && [ -f "$cd_vmcore" ]; then
	run_test "confdiff: fixed random configs: vmsift -x writes makedumpfile 1.7.2's erased pages and eraseinfo" \
		t_confdiff_fixed
	run_test "confdiff: fixed random configs in BTF form (SYMBOL:TYPE, no -x) write vmsift -x's dump" \
		t_confdiff_btf
	run_test "confdiff: a bit-field member is refused by -x and BTF alike, naming it" \
		t_confdiff_bitfield
	if [ -n "${VMSIFT_CONFDIFF:-}" ]; then
		run_test "confdiff: seeds $VMSIFT_CONFDIFF against makedumpfile 1.7.2 -x and in BTF form" \
			t_confdiff_seeds
	fi
elif [ -n "${VMSIFT_CONFDIFF:-}" ]; then
	run_test "confdiff: VMSIFT_CONFDIFF has $cd_vmlinux and $cd_vmcore" false
else
	log "# skipped: confdiff on the real vmcore (needs $cd_vmlinux; VMSIFT_ERASE_FULL=1 fetches it)"
fi
