# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/memusage.sh - -e (leave out the struct pages of excluded
# pages) and --mem-usage, on the real vmcores.  Sourced by tests/run.
#
# -e on x86_64: the bitmaps equal Debian's makedumpfile -e --work-dir, the
# pages kept equal the input's, the header says DUMP_DH_EXCLUDED_VMEMMAP,
# the output is the same at any thread count, flattened or split; crash
# opens it when the -dbg vmlinux is in the cache (tests/harness/crash-check).
# -e on the other carried vmcores (arm64 4K and 16K, ppc64le hash and
# radix, riscv64, s390x; makedumpfile has no -e there):
# tests/tools/vmemmap_check.py checks, with drgn, libkdumpfile or its own
# walk, that every page left out holds only struct pages of pfns the plain
# dump leaves out.

mu_dir=$work/memusage
mkdir -p "$mu_dir" "$work/ref"

# The carried vmcores of the other architectures are decompressed once,
# where the other suites find them too (lib/carried.sh's carried_input).
# shellcheck source=tests/suites/lib/carried.sh
. "$top/tests/suites/lib/carried.sh"

# mu_carried TEST Z [ARGS...]: TEST (a function of one vmcore, then ARGS)
# on the carried vmcore Z (tests/data/SUBDIR/NAME.vmcore.zst).
mu_carried() {
	local in
	in=$(carried_input "$(basename "$(dirname "$2")")" "$(basename "$2" .vmcore.zst)") ||
		{ echo "$in"; return 1; }
	"$1" "$in" "${@:3}"
}

# mu_ref_e LEVEL INPUT: makedumpfile -e's dump of INPUT, cached.
mu_ref_e() {
	local level=$1 in=$2 ref
	ref=$work/ref/$(basename "$in").ref-d$level-e
	if [ ! -f "$ref" ]; then
		rm -f "$ref.tmp"
		makedumpfile -l -d "$level" -e --work-dir "$mu_dir" \
			"$(makedumpfile_input "$in")" "$ref.tmp" >/dev/null 2>&1 || return 1
		mv "$ref.tmp" "$ref"
	fi
	echo "$ref"
}

# mu_has_flag DUMP: the kdump header's status has DUMP_DH_EXCLUDED_VMEMMAP.
mu_has_flag() {
	local st
	st=$($check header "$1" | sed -n 's/^status=//p')
	[ -n "$st" ] && (( st & 0x10 ))
}

# t_vmemmap_mdf INPUT LEVEL: -e decides as makedumpfile -e does.
t_vmemmap_mdf() {
	local in=$1 level=$2 out=$mu_dir/e.kd ref
	rm -f "$out"
	vmsift -l -d "$level" -e --message-level 0 "$in" "$out" || return 1
	ref=$(mu_ref_e "$level" "$in") || { echo "makedumpfile -e failed"; return 1; }
	mu_has_flag "$out" || { echo "no DUMP_DH_EXCLUDED_VMEMMAP in the header"; return 1; }
	$check bitmaps "$out" "$ref" "$in" && $check pages "$in" "$out"
}

# t_vmemmap_same INPUT: -e gives the same file at 1, 2 and 8 threads,
# through -F | -R, and as a split set reassembled.
t_vmemmap_same() {
	local in=$1 b=$mu_dir/same n
	rm -f "$b".*
	for n in 1 2 8; do
		vmsift -z -d 31 -e --num-threads $n --message-level 0 "$in" "$b.$n" || return 1
	done
	vmsift -F -z -d 31 -e --message-level 0 "$in" | vmsift -R "$b.flat" || return 1
	vmsift --split -z -d 31 -e --message-level 0 "$in" "$b.s1" "$b.s2" "$b.s3" || return 1
	vmsift --reassemble --message-level 0 "$b.s1" "$b.s2" "$b.s3" "$b.re" || return 1
	cmp "$b.1" "$b.2" && cmp "$b.1" "$b.8" && cmp "$b.1" "$b.flat" && cmp "$b.1" "$b.re"
}

# t_vmemmap_arch INPUT: -e leaves out only pages of struct pages of
# excluded pages (independent check), and every page kept is the input's.
t_vmemmap_arch() {
	local in=$1 b=$mu_dir/arch
	rm -f "$b".*
	vmsift -l -d 31 --message-level 0 "$in" "$b.plain" || return 1
	vmsift -l -d 31 -e --message-level 0 "$in" "$b.e" || return 1
	$PY "$top/tests/tools/vmemmap_check.py" "$in" "$b.plain" "$b.e" &&
		$check pages "$in" "$b.e"
}

# t_vmemmap_crash INPUT: crash opens an -e dump (and calls it one).
t_vmemmap_crash() {
	local in=$1 out=$mu_dir/crash.kd
	rm -f "$out"
	vmsift -l -d 31 -e --message-level 0 "$in" "$out" || return 1
	KERNEL_VERSION=$($check header "$out" | sed -n 's/^release=//p') \
		"$top/tests/harness/crash-check" "$out" || return 1
	grep -q 'EXCLUDED VMEMMAP' "$out.crash.log" ||
		{ echo "crash did not see an -e dump"; return 1; }
}

# t_vmemmap_refused INPUT: -e with ELF output is refused, with a message.
t_vmemmap_refused() {
	local in=$1 msg
	if msg=$(vmsift -E -e -d 31 "$in" "$mu_dir/refused.elf" 2>&1); then
		echo "-E -e was accepted"
		return 1
	fi
	echo "$msg"
	[[ $msg == *"-e"*"kdump-compressed"* ]] && [ ! -s "$mu_dir/refused.elf" ]
}

for in in "${vmcores[@]}"; do
	name=$(basename "$in" .vmcore)
	for level in 1 31; do
		run_test "vmemmap: $name -e -d $level equals makedumpfile -e" \
			t_vmemmap_mdf "$in" "$level"
	done
done
if [ ${#vmcores[@]} -gt 0 ]; then
	run_test "vmemmap: -e same at 1/2/8 threads, flattened, split" \
		t_vmemmap_same "${vmcores[0]}"
	run_test "vmemmap: -e with -E refused" t_vmemmap_refused "${vmcores[0]}"
	# crash needs the 860 MB -dbg package: only when it is cached.
	mu_cache=${VMSIFT_CACHE:-$top/tests/work/cache}
	if ls "$mu_cache"/debs/linux-image-6.1.0-57-amd64-dbg_*.deb >/dev/null 2>&1 ||
	   [ -f "$mu_cache/dbg-6.1.0-57-amd64/vmlinux-6.1.0-57-amd64" ]; then
		run_test "vmemmap: crash opens an -e dump" t_vmemmap_crash "${vmcores[0]}"
	else
		log "# skipped: crash on an -e dump (linux-image-6.1.0-57-amd64-dbg not cached)"
	fi
fi
for z in "$top"/tests/data/{arm64,ppc64le,riscv64,s390x}/*.vmcore.zst; do
	[ -f "$z" ] || continue
	name=$(basename "$z" .vmcore.zst)
	run_test "vmemmap: $name -e leaves out only unused struct pages" \
		mu_carried t_vmemmap_arch "$z"
done

# --mem-usage --exact-zero's table: each row makedumpfile's -d 31 report
# counts (makedumpfile refuses --mem-usage on a vmcore, its dump's report
# is the same decisions): the page types exactly, the zero pages up to the
# pages only partly covered by a PT_LOAD (vmsift keeps and tests them);
# KERN_DATA is what remains of the pages vmsift's bitmap1 holds.
mu_report() {
	local in=$1 rep
	rep=$work/ref/$(basename "$in").report-d31
	if [ ! -f "$rep" ]; then
		rm -f "$rep.kd"
		makedumpfile -l -d 31 --message-level 16 "$(makedumpfile_input "$in")" \
			"$rep.kd" > "$rep.tmp" 2>&1 || return 1
		rm -f "$rep.kd"
		mv "$rep.tmp" "$rep"
	fi
	echo "$rep"
}
t_usage_table() {
	local in=$1 out=$mu_dir/usage rep row mine theirs partial
	vmsift --mem-usage --exact-zero "$in" > "$out" || return 1
	! grep -q '(estimated)' "$out" || { echo "--exact-zero's ZERO marked estimated"; return 1; }
	rep=$(mu_report "$in") || { echo "makedumpfile failed"; return 1; }
	cat "$out"
	partial=$($PY -c "import sys; sys.path.insert(0, '$top/tests/harness')
from elfcore import partial_pfns, pt_loads
print(len(partial_pfns(pt_loads('$in'))))")
	for row in "ZERO:Pages filled with zero" "NON_PRI_CACHE:Non-private cache pages" \
		   "PRI_CACHE:Private cache pages" "USER:User process data pages" \
		   "FREE:Free pages"; do
		mine=$(awk -v t="${row%%:*}" '$1 == t { print $2 }' "$out")
		theirs=$(( $(sed -n "s/^ *${row#*:} *: *//p" "$rep") ))
		if [ "${row%%:*}" = ZERO ]; then
			(( mine >= theirs && mine <= theirs + partial )) && continue
		else
			[ "$mine" = "$theirs" ] && continue
		fi
		echo "${row%%:*}: $mine, makedumpfile's report: $theirs"
		return 1
	done
	mine=$(awk '$1 == "KERN_DATA" { print $2 }' "$out")
	theirs=$(awk '/^TYPE/ { on = 1; next } on && NF >= 3 && $1 != "KERN_DATA" &&
		$1 ~ /^[A-Z_]+$/ { s += $2 } /^Total pages on system/ { t = $5 }
		END { print t - s }' "$out")
	[ "$mine" = "$theirs" ] || { echo "KERN_DATA $mine is not the rest, $theirs"; return 1; }
}

# Without --exact-zero, on a vmcore: ZERO is marked estimated and lies
# within 3% of the pages kept at -d 31 (ZERO + KERN_DATA) of the exact
# count; every other row and total is the exact run's.
# mu_row ROW FILE: the pages of ROW in --mem-usage's table FILE.
mu_row() { awk -v t="$1" '$1 == t { print $2 }' "$2"; }
t_usage_zero_estimate() {
	local in=$1 est=$mu_dir/zero.est exact=$mu_dir/zero.exact a b kept
	vmsift --mem-usage "$in" > "$est" || return 1
	vmsift --mem-usage --exact-zero "$in" > "$exact" || return 1
	grep -q '^ZERO.*Pages filled with zero (estimated)$' "$est" ||
		{ echo "ZERO not marked estimated"; return 1; }
	diff <(grep -v -e '^ZERO' -e '^KERN_DATA' -e '^DUMP_SIZE' "$est") \
	     <(grep -v -e '^ZERO' -e '^KERN_DATA' -e '^DUMP_SIZE' "$exact") || return 1
	a=$(mu_row ZERO "$est") b=$(mu_row ZERO "$exact")
	kept=$(( b + $(mu_row KERN_DATA "$exact") ))
	echo "ZERO estimated $a, counted $b, of $kept pages kept at -d 31"
	(( (a - b) * 100 <= kept * 3 && (b - a) * 100 <= kept * 3 ))
}

# mu_size LEVEL CODEC FILE: the DUMP_SIZE bytes of LEVEL and CODEC in FILE.
mu_size() { sed -n "s/^DUMP_SIZE level=$1 codec=$2 bytes=\([0-9]*\)$/\1/p" "$3"; }

# --mem-usage's DUMP_SIZE lines: within 10% of the size of the real dump,
# at levels 1 and 31, with each codec (with those of CODECS, e.g. zstd:-z,
# when given), for each of four phases of the sample (VMSIFT_SAMPLE_SEED:
# the dumps are the cost, a --mem-usage run is a fraction of a second).
# (With the sample of 256 pages of 64 KiB of before, bench/memusage
# --spread found level 31 zstd 11% over the dump on ppc64le radix at the
# phase 47514; doc/mem-usage.md.)
mu_seeds=(0 15838 31676 47514)
t_usage_sizes() {
	local in=$1 out=$mu_dir/sizes l c s est real bad=0 codecs=("${@:2}")
	[ ${#codecs[@]} -gt 0 ] || codecs=(zlib:-c lzo:-l snappy:-p zstd:-z)
	for s in "${mu_seeds[@]}"; do
		VMSIFT_SAMPLE_SEED=$s vmsift --mem-usage "$in" > "$out.$s" || return 1
	done
	for l in 1 31; do
		for c in "${codecs[@]}"; do
			rm -f "$mu_dir/size.kd"
			vmsift "${c#*:}" -d $l --message-level 0 "$in" "$mu_dir/size.kd" || return 1
			real=$(stat -c %s "$mu_dir/size.kd")
			for s in "${mu_seeds[@]}"; do
				est=$(mu_size "$l" "${c%%:*}" "$out.$s")
				[ -n "$est" ] || { echo "no DUMP_SIZE line for level $l ${c%%:*}"; return 1; }
				echo "level $l ${c%%:*} seed $s: estimated $est, dump $real"
				(( est * 10 >= real * 9 && est * 10 <= real * 11 )) || bad=1
			done
		done
	done
	[ $bad = 0 ]
}

# Every codec's estimate on the carried x86_64 vmcore; on the other
# vmcores zstd's, every codec's with VMSIFT_FULL=1 (the estimate of a
# codec is the same code whatever the architecture).
mu_codecs=(zlib:-c lzo:-l snappy:-p zstd:-z)
for in in "${vmcores[@]}"; do
	name=$(basename "$in" .vmcore)
	run_test "mem-usage: $name table equals makedumpfile's report" t_usage_table "$in"
	run_test "mem-usage: $name estimated ZERO within 3% of the count" t_usage_zero_estimate "$in"
	run_test "mem-usage: $name DUMP_SIZE within 10% of the dumps" t_usage_sizes "$in" "${mu_codecs[@]}"
	full || mu_codecs=(zstd:-z)
done
for z in "$top"/tests/data/{arm64,ppc64le,riscv64,s390x}/*.vmcore.zst; do
	[ -f "$z" ] || continue
	name=$(basename "$z" .vmcore.zst)
	run_test "mem-usage: $name DUMP_SIZE within 10% of the dumps" \
		mu_carried t_usage_sizes "$z" "${mu_codecs[@]}"
done

# /proc/kcore.  Without a guest: the carried vmcore reshaped as kcore lays
# itself out (tests/tools/mkkcore.py: direct-map p_vaddr, p_paddr all
# ones, the kernel-text segment to be dropped) gives the vmcore's own
# output with --exact-zero, table and DUMP_SIZE lines, byte for byte: on
# kcore the ZERO row is always counted, as makedumpfile's.
t_usage_kcore_shape() {
	local in=$1 k=$mu_dir/shape.kcore
	$PY "$top/tests/tools/mkkcore.py" "$in" "$k" || return 1
	vmsift --mem-usage --exact-zero "$in" > "$mu_dir/shape.vmcore.out" || return 1
	vmsift --mem-usage "$k" > "$mu_dir/shape.kcore.out" || { rm -f "$k"; return 1; }
	rm -f "$k"
	grep -q '^DUMP_SIZE level=31 codec=zstd bytes=[1-9]' "$mu_dir/shape.kcore.out" &&
		diff "$mu_dir/shape.vmcore.out" "$mu_dir/shape.kcore.out"
}

# With VMSIFT_KCORE=1, a live guest (tests/harness/kcore-test): vmsift,
# Debian's makedumpfile, vmsift again on /proc/kcore, the workload
# stopped.  Each excludable row of makedumpfile's table is within D + T of
# the first vmsift's: D how much the two vmsift runs differ (the idle
# system moving meanwhile), T 1% of the pages (each tool's own process is
# in the table it prints: its anonymous memory counts as USER, its
# buffers' fresh pages as ZERO; vmsift's is about 2 MiB larger).
# KERN_DATA likewise, once the two totals' difference is taken off
# makedumpfile's (its total counts pfns it does not read: see
# doc/mem-usage.md).  Every DUMP_SIZE line is there, level 31 below level
# 1 and both below the memory's size.
t_usage_kcore_live() {
	local d=$mu_dir/kcore o f row a b c tol total mt
	"$top/tests/harness/kcore-test" --work "$d" || return 1
	o=$d/out
	for f in vmsift makedumpfile vmsift2; do
		[ "$(cat "$o/$f.rc")" = 0 ] || { echo "$f failed:"; cat "$o/$f.out" "$o/$f.err"; return 1; }
	done
	paste "$o/makedumpfile.out" "$o/vmsift.out" "$o/vmsift2.out"
	total=$(awk '/^Total pages on system/ { print $5 }' "$o/vmsift.out")
	mt=$(awk '/^Total pages on system/ { print $5 }' "$o/makedumpfile.out")
	[ -n "$total" ] && [ -n "$mt" ] || { echo "no total"; return 1; }
	for row in ZERO NON_PRI_CACHE PRI_CACHE USER FREE KERN_DATA; do
		a=$(mu_row $row "$o/vmsift.out") b=$(mu_row $row "$o/makedumpfile.out")
		c=$(mu_row $row "$o/vmsift2.out")
		[ -n "$a" ] && [ -n "$b" ] && [ -n "$c" ] || { echo "no $row row"; return 1; }
		[ $row != KERN_DATA ] || b=$((b - (mt - total)))
		tol=$(( (a > c ? a - c : c - a) + total / 100 ))
		echo "$row: vmsift $a, makedumpfile $b, vmsift again $c, tolerance $tol"
		(( a - b <= tol && b - a <= tol )) || { echo "$row out of tolerance"; return 1; }
	done
	for c in zlib lzo snappy zstd; do
		a=$(mu_size 1 $c "$o/vmsift.out") b=$(mu_size 31 $c "$o/vmsift.out")
		echo "DUMP_SIZE $c: level 1 $a, level 31 $b"
		[ -n "$a" ] && [ -n "$b" ] && (( b > 0 && b <= a && a < total * 4096 )) ||
			{ echo "DUMP_SIZE $c not sane"; return 1; }
	done
}

if [ ${#vmcores[@]} -gt 0 ]; then
	run_test "mem-usage: a kcore-shaped ELF gives the vmcore's output" \
		t_usage_kcore_shape "${vmcores[0]}"
fi

# bench/memusage --cold: its drop_cache() takes a file's pages out of the
# page cache (fincore: a 16 MiB file read whole, then none of it
# resident), and its summary row gains the cold times and ratios.
t_usage_bench_cold() {
	local in=$1 d=$mu_dir/cold f res
	rm -rf "$d" && mkdir -p "$d"
	f=$d/file
	head -c 16777216 /dev/urandom > "$f" && cat "$f" > /dev/null || return 1
	res=$(fincore --bytes --noheadings --output RES "$f")
	(( ${res:-0} > 0 )) || { echo "16 MiB file not cached after a read ($res)"; return 1; }
	$PY - "$top/bench/memusage" "$f" <<-'EOF' || return 1
		import importlib.machinery, importlib.util, sys
		loader = importlib.machinery.SourceFileLoader('memusage', sys.argv[1])
		spec = importlib.util.spec_from_loader('memusage', loader)
		m = importlib.util.module_from_spec(spec)
		loader.exec_module(m)
		m.drop_cache(sys.argv[2])
	EOF
	res=$(fincore --bytes --noheadings --output RES "$f")
	(( ${res:-1} == 0 )) || { echo "drop_cache left $res bytes resident"; return 1; }
	VMSIFT=$top/vmsift $PY "$top/bench/memusage" --cold --repeat 1 --dumps 31:lzo \
		"$in" > "$d/out" 2>&1 || { cat "$d/out"; return 1; }
	cat "$d/out"
	grep -Eq "^\| $(basename "$in") \|.* -d 31 lzo \|.*\| [0-9.]+ \([0-9.]+\), [0-9.]+ \([0-9.]+\) \| [0-9.]+ \([0-9.]+\) \|$" \
		"$d/out" || { echo "no cold columns in the summary row"; return 1; }
	rm -rf "$d"
}
if [ ${#vmcores[@]} -gt 0 ]; then
	run_test "mem-usage: bench/memusage --cold drops the vmcore's pages, reports the cold ratio" \
		t_usage_bench_cold "${vmcores[0]}"
fi
if [ "${VMSIFT_KCORE:-0}" = 1 ]; then
	run_test "mem-usage: /proc/kcore in a live guest, as makedumpfile's" t_usage_kcore_live
else
	log "# skipped: --mem-usage /proc/kcore in a live guest (VMSIFT_KCORE=1 boots one)"
fi

# Bad input: no VMCOREINFO refuses -e and --mem-usage, naming what is
# missing, and leaves no file; every broken vmcore of mkbad.py gives
# --mem-usage and -e an exit status of 0 or 1, never a crash or a hang;
# damaged page tables (the translation of struct pages fails) keep the
# pages -e cannot place, and the dump is still right.
t_usage_bad() {
	local d=$mu_dir/bad f msg rc
	rm -rf "$d" && mkdir -p "$d"
	$PY "$top/tests/tools/mkbad.py" "$d" >/dev/null || return 1
	msg=$(vmsift -e -d 1 "$d/no-vmcoreinfo.vmcore" "$d/out" 2>&1) && return 1
	[[ $msg == *"(-e) needs VMCOREINFO"* ]] && [ ! -e "$d/out" ] ||
		{ echo "-e without VMCOREINFO: $msg"; return 1; }
	msg=$(vmsift --mem-usage "$d/no-vmcoreinfo.vmcore" 2>&1) && return 1
	[[ $msg == *"needs VMCOREINFO"* ]] || { echo "--mem-usage: $msg"; return 1; }
	for f in "$d"/*.vmcore; do
		rc=0
		timeout 60 vmsift --mem-usage "$f" >/dev/null 2>&1 || rc=$?
		[ $rc -le 1 ] || { echo "--mem-usage $(basename "$f"): exit $rc"; return 1; }
		rc=0
		rm -f "$d/out"
		timeout 60 vmsift -e -d 31 "$f" "$d/out" >/dev/null 2>&1 || rc=$?
		[ $rc -le 1 ] || { echo "-e $(basename "$f"): exit $rc"; return 1; }
	done
}
t_vmemmap_damaged() {
	local v=$mu_dir/cpte.vmcore
	$PY "$top/tests/gen/mkvmcore.py" "$top/tests/gen/specs/corrupt-pte.spec" "$v" >/dev/null || return 1
	rm -f "$v.e"
	vmsift -l -d 31 -e --message-level 0 "$v" "$v.e" || return 1
	mu_has_flag "$v.e" && $check pages "$v" "$v.e"
}
run_test "mem-usage, -e: bad input refused or survived, never a crash" t_usage_bad
run_test "vmemmap: -e with damaged page tables keeps what it cannot place" t_vmemmap_damaged
