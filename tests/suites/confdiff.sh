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
# [MODULE] sections: the carried secrets vmcore (dm_mod, dm_crypt, tls,
# the crypto templates, libceph, rxrpc loaded) and the modules' debug
# files beside the -dbg vmlinux, as the harness extracts them
# (tests/harness/lib.sh's DBG_MODULE_FILES)
# shellcheck source=tests/suites/lib/carried.sh
. "$top/tests/suites/lib/carried.sh"
cm_data=$cd_data/modules
cm_dbg=$cd_cache/dbg-$cd_kver
cm_kodir=$cm_dbg/usr/lib/debug/lib/modules/$cd_kver/kernel
cm_vmcore=$(carried_input secrets kdump-secrets-384M) || cm_vmcore=/nonexistent

# cd_x CONF OUT [OPTIONS]: vmsift -x on the carried vmcore.
cd_x() {
	local conf=$1 out=$2; shift 2
	rm -f "$out"
	vmsift -x "$cd_vmlinux" --config "$conf" -l -d 31 "$@" "$cd_vmcore" "$out" > "$out.log" 2>&1 ||
		{ grep -v '^Copying' "$out.log" | tail -n 5; return 1; }
}



# cd_fixed DATA VMCORE MIN: the fixed seeds of DATA (at least MIN): vmsift
# -x on VMCORE writes the pages and eraseinfo makedumpfile wrote (its
# carried digest).
cd_fixed() {
	local data=$1 vmcore=$2 min=$3 d s conf n=0
	d=$work/out/confdiff/$(basename "$data")
	mkdir -p "$d"
	for s in "$data"/*.mdf.dg; do
		s=$(basename "$s" .mdf.dg)
		conf=$data/$s.kept.conf
		[ -f "$conf" ] || conf=$data/$s.conf
		cd_vmcore=$vmcore cd_x "$conf" "$d/$s.kd" $(cat "$data/$s.opts" 2>/dev/null) ||
			{ echo "$data seed $s: vmsift -x failed"; return 1; }
		$cd_py "$top/tests/tools/confdiff.py" check "$vmcore" "$d/$s.kd" \
			"$data/$s.mdf.dg" || { echo "$data seed $s differs from makedumpfile"; return 1; }
		n=$((n + 1))
	done
	[ $n -ge "$min" ] || { echo "only $n seeds in $data"; return 1; }
}

# cd_btf DATA VMCORE MIN [sections]: their BTF form (SYMBOL:TYPE from the
# dump's own BTF, the modules' too, no -x) writes the dump vmsift -x
# writes of the same rules; with "sections" each BTF form must keep a
# [module] section.
cd_btf() {
	local data=$1 vmcore=$2 min=$3 sections=${4:-} d s n=0 opts
	d=$work/out/confdiff/$(basename "$data")
	mkdir -p "$d"
	for s in "$data"/*.btf.conf; do
		s=$(basename "$s" .btf.conf)
		if [ -n "$sections" ] && ! grep -v '^\[vmlinux\]$' "$data/$s.btf.conf" | grep -q '^\['; then
			echo "$data seed $s: no [module] section in its BTF form"
			return 1
		fi
		opts=$(cat "$data/$s.opts" 2>/dev/null)
		cd_vmcore=$vmcore cd_x "$data/$s.sub.conf" "$d/$s.sub.kd" $opts || return 1
		rm -f "$d/$s.btf.kd"
		vmsift --config "$data/$s.btf.conf" $opts -l -d 31 "$vmcore" "$d/$s.btf.kd" \
			> "$d/$s.btf.log" 2>&1 || { tail -n 5 "$d/$s.btf.log"; return 1; }
		cmp "$d/$s.btf.kd" "$d/$s.sub.kd" || { echo "$data seed $s: the BTF form differs"; return 1; }
		n=$((n + 1))
	done
	[ $n -ge "$min" ] || { echo "only $n seeds in $data"; return 1; }
}

t_confdiff_fixed() { cd_fixed "$cd_data" "$cd_vmcore" 9; }
t_confdiff_btf() { cd_btf "$cd_data" "$cd_vmcore" 9; }
t_confdiff_modules() { cm_same_vmcore && cd_fixed "$cm_data" "$cm_vmcore" 4; }
t_confdiff_modules_btf() { cd_btf "$cm_data" "$cm_vmcore" 4 sections; }

# Malformed configs, made from the seeds by tests/tools/confmut.py (each
# with the line and column the error must name): three of generator
# version 1 and those of version 2 (seeds 500 and up: rules over lines,
# loops on one line, comment lines), refused with exit status 1 and
# "FILE:LINE:COL: ...", never a crash or a dump.
t_confdiff_malformed() {
	local d=$work/out/confdiff/mut m want rc n=0 seeds
	mkdir -p "$d"
	rm -f "$d"/*
	seeds=("$cd_data"/[0-9].conf)
	seeds=("${seeds[@]:0:3}" "$cd_data"/5[0-9][0-9].conf)
	$cd_py "$top/tests/tools/confmut.py" "$d" "${seeds[@]}" || return 1
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
	[ $n -ge 75 ] || { echo "only $n malformed configs"; return 1; }
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

# Two rules where makedumpfile 1.7.2 (and upstream 1.7.9) is wrong
# (doc/erase.md): vmsift reads 'size ID' as ID's value (policy_str's
# strings' first chars), not as the size 'erase ID' would take (their
# lengths), and erases a global array of function pointers
# (compound_page_dtors), where makedumpfile resolves nothing; drgn gives
# the bytes.
t_confdiff_mdf_wrong() {
	local d=$work/out/confdiff want got
	mkdir -p "$d"
	printf 'for ox in policy_str\n\terase ox size ox\nendfor\nerase compound_page_dtors\n' > "$d/wrong.conf"
	cd_x "$d/wrong.conf" "$d/wrong.kd" || return 1
	want=$($cd_py - "$cd_vmlinux" "$cd_vmcore" <<-'EOF'
		import sys
		import drgn
		p = drgn.Program()
		p.set_core_dump(sys.argv[2])
		p.load_debug_info([sys.argv[1]])
		for s in p['policy_str']:
		    print('erase ox size %d' % s[0].value_())
		print('erase compound_page_dtors size %d' % drgn.sizeof(p['compound_page_dtors']))
	EOF
	) || return 1
	got=$($cd_py "$top/tests/tools/erase_cmp.py" text "$d/wrong.kd") || return 1
	[ "$got" = "$want" ] || { printf 'vmsift:\n%s\ndrgn:\n%s\n' "$got" "$want"; return 1; }
}

# The debug file of every module the carried module seeds name, beside
# the -dbg vmlinux; with VMSIFT_ERASE_FULL=1, those of DBG_MODULE_FILES
# extracted from the cached -dbg package when one is missing (as
# erase_modules.sh does for dm_mod and dm_crypt).
cm_have_modules() {
	local n
	for n in $(sed -n 's/^\[\(.*\)\]$/\1/p' "$cm_data"/*.conf | sort -u); do
		[ "$n" = vmlinux ] ||
			[ -n "$(find "$cm_kodir" -name "$n.ko" -o -name "${n//_/-}.ko" 2>/dev/null | head -n1)" ] ||
			return 1
	done
}
cm_fetch_modules() {
	local deb files
	cm_have_modules && return 0
	[ "${VMSIFT_ERASE_FULL:-0}" = 1 ] || return 1
	deb=$(ls "$cd_cache"/debs/linux-image-$cd_kver-dbg_*.deb 2>/dev/null | head -n1)
	[ -n "$deb" ] || return 1
	files=$(sed -n '/^DBG_MODULE_FILES="/,/"$/{s/^DBG_MODULE_FILES="//; s/"$//; p}' "$top/tests/harness/lib.sh")
	dpkg-deb --fsys-tarfile "$deb" | (cd "$cm_dbg" && tar -x \
		$(for m in $files; do echo "./usr/lib/debug/lib/modules/$cd_kver/kernel/$m"; done)) &&
		cm_have_modules
}

# The carried module seeds were made on the carried secrets vmcore whose
# sha256 (of the raw file) tests/data/confdiff/modules/vmcore.sha256
# names: another one fails here, naming both and the command that remakes
# the digests (makedumpfile 1.7.2, minutes a seed).
cm_same_vmcore() {
	local want got
	want=$(cut -d' ' -f1 "$cm_data/vmcore.sha256")
	got=$(sha256sum "$cm_vmcore" | cut -d' ' -f1)
	[ "$want" = "$got" ] || {
		echo "tests/data/confdiff/modules: makedumpfile's digests were made on the secrets vmcore of sha256 $want, the carried one is $got: remake them with tests/tools/confdiff-seed --regen-modules"
		return 1
	}
}



# VMSIFT_CONFDIFF_MODULES=FIRST-LAST: new module seeds end to end (root:
# makedumpfile finds the modules in a private mount namespace).
t_confdiff_modules_seeds() {
	local dir s first=${VMSIFT_CONFDIFF_MODULES%-*} last=${VMSIFT_CONFDIFF_MODULES#*-} bad=0
	dir=$cd_cache/confdiff/modules-$(sha1sum < "$top/tests/tools/confgen.py" | cut -c1-8)-$(sha256sum "$cm_vmcore" | cut -c1-8)
	for s in $(seq "$first" "$last"); do
		"$top/tests/tools/confdiff-seed" --modules "$dir" "$cd_vmlinux" "$cm_vmcore" "$s" ||
			{ echo "not ok: module seed $s (in $dir)"; bad=$((bad + 1)); }
	done
	[ $bad = 0 ]
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
	run_test "confdiff: 'size ID' is ID's value and an array of function pointers is erased, where makedumpfile erases otherwise" \
		t_confdiff_mdf_wrong
	if [ -n "${VMSIFT_CONFDIFF:-}" ]; then
		run_test "confdiff: seeds $VMSIFT_CONFDIFF against makedumpfile 1.7.2 -x and in BTF form" \
			t_confdiff_seeds
	fi
elif [ -n "${VMSIFT_CONFDIFF:-}" ]; then
	run_test "confdiff: VMSIFT_CONFDIFF has $cd_vmlinux and $cd_vmcore" false
else
	log "# skipped: confdiff on the real vmcore (needs $cd_vmlinux; VMSIFT_ERASE_FULL=1 fetches it)"
fi
if [ -f "$cd_vmlinux" ] && [ -f "$cm_vmcore" ] && cm_fetch_modules; then
	run_test "confdiff: fixed random configs with [module] sections: vmsift -x writes makedumpfile 1.7.2's erased pages and eraseinfo" \
		t_confdiff_modules
	run_test "confdiff: fixed random configs with [module] sections in BTF form (the modules' own BTF, no -x) write vmsift -x's dump" \
		t_confdiff_modules_btf
	if [ -n "${VMSIFT_CONFDIFF_MODULES:-}" ]; then
		run_test "confdiff: module seeds $VMSIFT_CONFDIFF_MODULES against makedumpfile 1.7.2 -x and in BTF form" \
			t_confdiff_modules_seeds
	fi
elif [ -n "${VMSIFT_CONFDIFF_MODULES:-}" ]; then
	run_test "confdiff: VMSIFT_CONFDIFF_MODULES has $cd_vmlinux, $cm_vmcore and the modules' debug files" false
elif [ -f "$cd_vmlinux" ] && [ -f "$cm_vmcore" ]; then
	log "# skipped: confdiff [module] seeds (needs the modules' debug files beside $cd_vmlinux; VMSIFT_ERASE_FULL=1 extracts them)"
fi
