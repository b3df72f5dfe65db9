# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/faults.sh - a dump always comes out: a full disk at any
# write, a size limit with and without retry levels, SIGTERM/SIGINT in the
# middle.  Each time: exit 1, and what is left is readable, says it is
# incomplete, and holds intact every page written before the cut.
# Sourced by tests/run.

fault_dir=$work/faults
mkdir -p "$fault_dir"
shim=$fault_dir/writefail.so
cc -shared -fPIC -O2 -o "$shim" "$top/tests/faults/writefail.c" -ldl 2>&1 || shim=

# count_writes ARGS...: how many writes a dump makes (through the shim).
count_writes() {
	rm -f "$fault_dir/count" "$fault_dir/count.out"
	LD_PRELOAD=$shim WRITEFAIL_COUNT=$fault_dir/count \
		vmsift "$@" --message-level 0 "$fault_dir/count.out" >/dev/null || return 1
	cat "$fault_dir/count"
}

# t_enospc_every INPUT FORMAT: fail the K-th write for every K.
t_enospc_every() {
	local in=$1 fmt=$2 n k out rc
	[ -n "$shim" ] || { echo "cannot build the write-failure shim"; return 1; }
	n=$(count_writes $fmt -d 1 --num-threads 2 "$in") || return 1
	[ "$n" -gt 3 ] || { echo "only $n writes?"; return 1; }
	for k in $(seq 1 "$n"); do
		out=$fault_dir/enospc.$k
		rm -f "$out"
		LD_PRELOAD=$shim WRITEFAIL_AT=$k vmsift $fmt -d 1 --num-threads 2 \
			--message-level 0 "$in" "$out" 2>"$out.err"
		rc=$?
		[ $rc -eq 1 ] || { echo "write $k of $n: exit $rc"; cat "$out.err"; return 1; }
		grep -q "No space left" "$out.err" || { echo "write $k: no ENOSPC message"; cat "$out.err"; return 1; }
		[ -e "$out" ] || continue      # cut before the bitmaps: no dump
		if [ "$fmt" = -E ]; then
			$PY - "$out" <<'PY' || { echo "write $k: ELF not marked incomplete"; return 1; }
import struct, sys
d = open(sys.argv[1], 'rb').read(64)
sys.exit(0 if len(d) < 64 or struct.unpack_from('<I', d, 48)[0] & 1 else 1)
PY
		else
			$check incomplete "$in" "$out" >/dev/null || { echo "write $k of $n:"; $check incomplete "$in" "$out"; return 1; }
		fi
	done
	echo "failed each of $n writes: every result readable and marked incomplete"
}

# t_enospc_points INPUT: a full disk at 8 points through a real dump.
t_enospc_points() {
	local in=$1 n k i out kept=0
	[ -n "$shim" ] || { echo "cannot build the write-failure shim"; return 1; }
	n=$(count_writes -z -d 31 "$in") || return 1
	for i in 1 2 3 4 5 6 7 8; do
		k=$(( (n * i) / 9 + 1 ))
		out=$fault_dir/points.$i
		rm -f "$out"
		LD_PRELOAD=$shim WRITEFAIL_AT=$k vmsift -z -d 31 --message-level 0 \
			"$in" "$out" 2>/dev/null && { echo "write $k: exit 0"; return 1; }
		# Cut before the bitmaps were out: no dump is left at all.
		[ -e "$out" ] || continue
		$check incomplete "$in" "$out" || return 1
		kept=$((kept + 1))
	done
	[ $kept -ge 6 ] || { echo "only $kept of 8 cut dumps were kept"; return 1; }
}

# t_limit INPUT: -L cuts, the dump is kept and marked; with -d 1,31 the
# retry at 31 fits and the result equals a plain -d 31 dump.
t_limit() {
	local in=$1 base=$fault_dir/limit size31
	rm -f "$base".*
	vmsift -l -d 31 --message-level 0 "$in" "$base.d31" || return 1
	size31=$(stat -c %s "$base.d31")
	vmsift -l -d 1 -L $((size31 + 4096)) --message-level 0 "$in" "$base.cut" 2>/dev/null &&
		{ echo "-L did not stop the dump"; return 1; }
	[ "$(stat -c %s "$base.cut")" -le $((size31 + 4096)) ] || { echo "file exceeds -L"; return 1; }
	$check incomplete "$in" "$base.cut" || return 1
	vmsift -l -d 1,31 -L $((size31 + 4096)) --message-level 0 "$in" "$base.retry" 2>/dev/null ||
		{ echo "the retry at -d 31 failed"; return 1; }
	cmp "$base.retry" "$base.d31"
}

# signal_and_wait PID SIG: a second after PID started, send it SIG and
# wait up to 10 s for it to exit; its exit status, or 255 (saying so)
# when it is still running, then killed.
signal_and_wait() {
	local pid=$1 sig=$2
	sleep 1
	kill -"$sig" "$pid"
	for _ in $(seq 1 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -9 "$pid"
		wait "$pid"
		echo "still running 10 s after SIG$sig"
		return 255
	fi
	wait "$pid"
}

# t_signal INPUT SIG THREADS: a dump interrupted midway exits 1 promptly,
# leaving a readable dump marked incomplete.
t_signal() {
	local in=$1 sig=$2 threads=$3 out=$fault_dir/signal.$2.$3 pid rc
	[ -n "$shim" ] || { echo "cannot build the write-failure shim"; return 1; }
	rm -f "$out"
	LD_PRELOAD=$shim WRITEFAIL_DELAY_US=20000 vmsift -c -d 1 --num-threads "$threads" \
		--message-level 0 "$in" "$out" 2>"$out.err" &
	pid=$!
	signal_and_wait $pid "$sig"
	rc=$?
	[ $rc -ne 255 ] || return 1
	[ $rc -eq 1 ] || { echo "exit status $rc"; cat "$out.err"; return 1; }
	grep -q interrupted "$out.err" || { cat "$out.err"; return 1; }
	$check incomplete "$in" "$out"
}

# t_signal_split INPUT SIG: the same for --split: a set interrupted
# midway exits 1 promptly, saying so, and leaves no file that claims to
# be complete.
t_signal_split() {
	local in=$1 sig=$2 base=$fault_dir/ssplit.$2 pid rc f
	[ -n "$shim" ] || { echo "cannot build the write-failure shim"; return 1; }
	rm -f "$base".*
	LD_PRELOAD=$shim WRITEFAIL_DELAY_US=20000 vmsift --split -c -d 1 \
		--num-threads 2 --message-level 0 "$in" "$base.1" "$base.2" \
		2>"$base.err" &
	pid=$!
	signal_and_wait $pid "$sig"
	rc=$?
	[ $rc -ne 255 ] || return 1
	[ $rc -eq 1 ] || { echo "exit status $rc"; cat "$base.err"; return 1; }
	grep -q interrupted "$base.err" || { cat "$base.err"; return 1; }
	for f in "$base.1" "$base.2"; do
		[ -e "$f" ] || continue
		$PY - "$f" <<'PY' || { echo "$f is kept but not marked incomplete"; return 1; }
import struct, sys
h = open(sys.argv[1], 'rb').read(428)
sys.exit(0 if len(h) == 428 and h[:8] == b'KDUMP   ' and
         struct.unpack_from('<I', h, 424)[0] & 0x8 else 1)
PY
	done
}

# t_limit_flat INPUT: -L bounds a flattened stream too, its header and
# end marker included: a limit just under the whole stream's size stops
# the dump, and the stream stays within it; the exact size passes.
t_limit_flat() {
	local in=$1 base=$fault_dir/limitflat size
	rm -f "$base".*
	vmsift -F -l -d 31 --message-level 0 "$in" > "$base.full" || return 1
	size=$(stat -c %s "$base.full")
	vmsift -F -l -d 31 -L $((size - 100)) --message-level 0 "$in" \
		> "$base.cut" 2>/dev/null && { echo "-L did not stop the stream"; return 1; }
	[ "$(stat -c %s "$base.cut")" -le $((size - 100)) ] ||
		{ echo "stream of $(stat -c %s "$base.cut") bytes exceeds -L $((size - 100))"; return 1; }
	vmsift -F -l -d 31 -L "$size" --message-level 0 "$in" > "$base.exact" &&
		cmp "$base.full" "$base.exact"
}

fault_in=${vmcores[0]:-}
run_test "faults: full disk at every write (kdump)" t_enospc_every "$work/bad/good.vmcore" -c
run_test "faults: full disk at every write (ELF)" t_enospc_every "$work/bad/good.vmcore" -E
if [ -n "$fault_in" ]; then
	run_test "faults: full disk at 8 points of a real dump" t_enospc_points "$fault_in"
	run_test "faults: -L cuts and marks; -d 1,31 retries and fits" t_limit "$fault_in"
	run_test "faults: -L bounds a flattened stream, header and end marker included" t_limit_flat "$fault_in"
	run_test "faults: SIGTERM mid-dump, 1 thread" t_signal "$fault_in" TERM 1
	run_test "faults: SIGINT mid-dump, 4 threads" t_signal "$fault_in" INT 4
	run_test "faults: SIGTERM mid --split" t_signal_split "$fault_in" TERM
	run_test "faults: SIGINT mid --split" t_signal_split "$fault_in" INT
fi

# Read errors (tests/faults/readfail.c): a pread of the input that fails
# with EIO, or finds the file ending, in the middle of a run of kept
# pages read with one pread (--read-path runs, the default on a file).
readfail=$fault_dir/readfail.so
cc -shared -fPIC -O2 -o "$readfail" "$top/tests/faults/readfail.c" -ldl 2>&1 || readfail=

# fault_kept_offset IN DUMP: "OFFSET PFN": a page that DUMP keeps with
# data, half-way through its kept pages, and the file offset in IN of
# byte 100 of it.
fault_kept_offset() {
	$PY - "$top/tests/tools" "$1" "$2" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import vmcheck
elf, kd = vmcheck.Elf(sys.argv[2]), vmcheck.Kdump(sys.argv[3])
kept = [p for p in range(kd.max_mapnr_64) if vmcheck.Kdump.bit(kd.bitmap2, p)
        and elf.cover(p)[1] == vmcheck.PAGE]
pfn = kept[len(kept) // 2]
for paddr, memsz, filesz, off, _ in elf.loads_sorted:
    if paddr <= pfn * vmcheck.PAGE < paddr + filesz:
        print(off + pfn * vmcheck.PAGE - paddr + 100, pfn)
        break
PY
}

# t_readfail IN MODE: the dump fails (exit 1) with a message that names
# the file, the offset where the failed run starts and that run's first
# pfn, consistent with the page that failed, and the system's reason;
# what is left, if anything, is marked incomplete.
t_readfail() {
	local in=$1 mode=$2 out=$fault_dir/readfail.$2 ref at pfn rc why
	[ -n "$readfail" ] || { echo "cannot build the read-failure shim"; return 1; }
	ref=$(reference 31 "$in") || { echo "makedumpfile failed"; return 1; }
	read -r at pfn <<< "$(fault_kept_offset "$in" "$ref")"
	[ -n "$pfn" ] || { echo "no kept page found in $ref"; return 1; }
	rm -f "$out" "$out.hits"
	LD_PRELOAD=$readfail READFAIL_PATH=$(realpath "$in") READFAIL_AT=$at \
		READFAIL_MODE=$mode READFAIL_HITS=$out.hits vmsift -l -d 31 \
		--read-path runs --num-threads 2 --message-level 4 "$in" "$out" \
		2> "$out.err"
	rc=$?
	cat "$out.err"
	[ $rc -eq 1 ] || { echo "exit status $rc"; return 1; }
	[ "$(cat "$out.hits" 2>/dev/null)" -ge 1 ] 2>/dev/null ||
		{ echo "the shim failed no read"; return 1; }
	case $mode in
	eio) why="Input/output error" ;;
	short) why="unexpected end of file" ;;
	esac
	$PY - "$out.err" "$in" "$at" "$pfn" "$why" <<'PY' || return 1
import re, sys
msg, name, at, pfn, why = open(sys.argv[1]).read(), sys.argv[2], \
    int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
m = re.search(r"pfn 0x([0-9a-f]+).*'%s' at offset 0x([0-9a-f]+): %s" %
              (re.escape(name), why), msg)
if not m:
    sys.exit('no message naming the pfn, %s, the offset and "%s"' % (name, why))
first, off = int(m.group(1), 16), int(m.group(2), 16)
if not (first <= pfn < first + 256 and at - off == (pfn - first) * 4096 + 100):
    sys.exit('pfn %#x at %#x named, but byte %#x of pfn %#x failed' %
             (first, off, at, pfn))
print('ok: run of pfn %#x at offset %#x, failed at pfn %#x' % (first, off, pfn))
PY
	[ -e "$out" ] || return 0
	$check incomplete "$in" "$out"
}
if [ -n "$fault_in" ]; then
	run_test "faults: EIO inside a run of kept pages read with pread (--read-path runs)" t_readfail "$fault_in" eio
	run_test "faults: the input ends inside a run of kept pages (short pread)" t_readfail "$fault_in" short
fi

# t_memcap INPUT ARGS...: the dump fits in 128 MiB of address space (the
# capture kernel's budget), default thread count.
t_memcap() {
	local in=$1 out=$fault_dir/memcap; shift
	rm -f "$out"
	( ulimit -v 131072 && vmsift "$@" --message-level 4 "$in" "$out" ) || return 1
	[ -s "$out" ]
}
for in in "${vmcores_each[@]}"; do
	name=$(basename "$in" .vmcore)
	run_test "memory cap: $name -z -d 31 under ulimit -v 128 MiB" t_memcap "$in" -z -d 31
	run_test "memory cap: $name -c -d 1 under ulimit -v 128 MiB" t_memcap "$in" -c -d 1
	run_test "memory cap: $name -E -d 31 under ulimit -v 128 MiB" t_memcap "$in" -E -d 31
done

# t_enospc_flat INPUT: -F onto a disk that fills up: exit 1 with the
# error, and what reached the disk rebuilds (-R) into a dump marked
# incomplete whose pages are intact.
t_enospc_flat() {
	local in=$1 n k out=$fault_dir/flat
	[ -n "$shim" ] || { echo "cannot build the write-failure shim"; return 1; }
	rm -f "$fault_dir/count"
	LD_PRELOAD=$shim WRITEFAIL_COUNT=$fault_dir/count vmsift -F -z -d 31 \
		--message-level 0 "$in" > "$out.all" || return 1
	n=$(cat "$fault_dir/count")
	k=$(( n * 2 / 3 ))
	LD_PRELOAD=$shim WRITEFAIL_AT=$k vmsift -F -z -d 31 --message-level 0 \
		"$in" > "$out.cut" 2> "$out.err" && { echo "exit 0 on a full disk"; return 1; }
	grep -q "No space left" "$out.err" || { cat "$out.err"; return 1; }
	rm -f "$out.rebuilt"
	vmsift -R "$out.rebuilt" < "$out.cut" 2>/dev/null && { echo "-R took a cut stream as whole"; return 1; }
	$check incomplete "$in" "$out.rebuilt"
}
[ -n "$fault_in" ] && run_test "faults: full disk under -F: the cut stream rebuilds into a dump marked incomplete" t_enospc_flat "$fault_in"
