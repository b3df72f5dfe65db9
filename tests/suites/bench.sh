# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/bench.sh - the benchmark's own arithmetic (issue #17):
# bench/run's timing under the machine-wide lock (BENCH_MEASURE, timed
# inside it by bench/timed) and its model of the 2 TB and 16 TB machines,
# each input traceable to a --scale row.  A few seconds.  Sourced by
# tests/run.

# t_bench_timed: bench/run's run_once under a BENCH_MEASURE that waits
# 1.5 s before it runs the command (as /work/bin/measure waits for the
# lock): the wall time is the command's (0.3 s of sleep), not the wait;
# the CPU time and peak RSS are the command's (a busy child of 64 MiB),
# not bench/timed's; and the measure command did run.
t_bench_timed() {
	local d=$work/bench-timed
	rm -rf "$d" && mkdir -p "$d"
	printf '#!/bin/sh\necho ran >> %s/measured\nsleep 1.5\nexec "$@"\n' "$d" > "$d/measure"
	chmod +x "$d/measure"
	BENCH_MEASURE=$d/measure BENCH_DIR=$d $PY - "$top/bench/run" > "$d/out" 2>&1 <<-'EOF' ||
		import importlib.machinery, importlib.util, sys
		loader = importlib.machinery.SourceFileLoader('benchrun', sys.argv[1])
		spec = importlib.util.spec_from_loader('benchrun', loader)
		b = importlib.util.module_from_spec(spec)
		loader.exec_module(b)
		wall, cpu, rss = b.run_once(['sh', '-c', 'sleep 0.3'])
		print('sleep', wall, cpu, rss)
		busy = ('import time; b = bytearray(64 << 20)\n'
		        'for i in range(0, len(b), 4096): b[i] = 1\n'
		        't = time.process_time()\n'
		        'while time.process_time() - t < 0.4: pass')
		wall, cpu, rss = b.run_once([sys.executable, '-c', busy])
		print('busy', wall, cpu, rss)
	EOF
		{ echo "run_once failed:"; cat "$d/out"; return 1; }
	awk '$1 == "sleep" && !($2 >= 0.3 && $2 < 1.2) { bad = 1 }
	     $1 == "busy" && !($3 >= 0.35 && $4 >= 65536) { bad = 1 }
	     END { exit bad }' "$d/out" ||
		{ echo "wall, CPU s, RSS KiB not the command's alone:"; cat "$d/out"; return 1; }
	[ "$(grep -c ran "$d/measured")" = 2 ] ||
		{ echo "BENCH_MEASURE did not run each command"; return 1; }
	rm -rf "$d"
}

# t_bench_model: bench/run --model on a made-up --scale table: each
# input of the model names the row it was read from (the largest member
# with the case), a term equals the arithmetic done here with awk (2 TB
# at -d 1, one core: 2e12 bytes over the -d 1 row's read+zero rate), and
# the measured dumps are scaled from the right rows, vmsift and
# makedumpfile, at -d 31 (lzo and zlib) and at -d 1.
t_bench_model() {
	local d=$work/bench-model
	rm -rf "$d" && mkdir -p "$d"
	local h='| row | vmcore | codec | -d | tool, threads | wall s | CPU s | peak RSS MiB | output MB | scan GB/s (wall) | scan GB/s (CPU) | read+zero GB/s (CPU) | codec MB/s in (CPU) | codec in/out MB | write MB/s | mdf wall / this wall | load (1 min) |'
	{
		echo "$h"
		echo '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|'
		echo '| scale/big-64G/lzo/d31/t1 | big-64G | lzo | 31 | vmsift, 1 | 9.00 | 4.00 | 14.0 | 289 | 0.50 | 0.90 | 0.70 | 1200 | 1472 / 275 | 400 | 1.00 | 2.00 |'
		echo '| scale/big-1024G/lzo/d31/t1 | big-1024G | lzo | 31 | vmsift, 1 | 300.00 | 100.00 | 14.0 | 4361 | 0.30 | 0.80 | 0.60 | 1100 | 22983 / 4158 | 400 | 1.10 | 2.00 |'
		echo '| scale/big-1024G/lzo/d31/mdf | big-1024G | lzo | 31 | makedumpfile 1.7.2, 1 | 330.00 | 120.00 | 39.0 | 4361 | 0.10 | — | — | — | — | — | 1.00 | 2.00 |'
		echo '| scale/big-256G/zlib/d31/t1 | big-256G | zlib | 31 | vmsift, 1 | 60.00 | 30.00 | 14.0 | 900 | 0.30 | 0.80 | 0.60 | 250 | 5758 / 936 | 400 | 2.00 | 2.00 |'
		echo '| scale/big-64G/lzo/d1/t1 | big-64G | lzo | 1 | vmsift, 1 | 80.00 | 64.00 | 14.0 | 660 | 0.30 | 0.80 | 1.25 | 1100 | 1472 / 275 | 400 | 1.00 | 2.00 |'
		echo '| scale/big-64G/lzo/d1/t2 | big-64G | lzo | 1 | vmsift, 2 | 45.00 | 70.00 | 14.0 | 660 | 0.30 | 0.80 | 1.20 | 1100 | 1472 / 275 | 400 | 1.80 | 2.00 |'
		echo '| scale/big-64G/lzo/d1/mdf | big-64G | lzo | 1 | makedumpfile 1.7.2, 1 | 81.00 | 70.00 | 39.0 | 660 | 0.10 | — | — | — | — | — | 1.00 | 2.00 |'
	} > "$d/table"
	$PY "$top/bench/run" --model "$d/table" > "$d/model" 2>&1 ||
		{ echo "bench/run --model failed:"; cat "$d/model"; return 1; }
	local want
	for want in 'scan 0.80 GB/s (`scale/big-1024G/lzo/d31/t1`)' \
		'1.25 GB/s at -d 1 (`scale/big-64G/lzo/d1/t1`)' \
		'zlib 250 MB/s in, 6.15:1 (`scale/big-256G/zlib/d31/t1`)'; do
		grep -qF -- "$want" "$d/model" ||
			{ echo "the model does not name its input '$want':"; cat "$d/model"; return 1; }
	done
	want=$(awk 'BEGIN { printf "%.0f", 2e12 / 1.25e9 }')
	grep -q "^| 2 TB | 1 | lzo | 1 | [0-9]* | $want |" "$d/model" ||
		{ echo "2 TB -d 1 lzo, one core: read+zero is not $want s:"; cat "$d/model"; return 1; }
	want=$(awk 'BEGIN { k = 2e12 / (64 * 2^30); printf "| `scale/big-64G/lzo/d1/mdf` | %.0f | %.0f |", 81 * k, 70 * k }')
	grep -qF -- "$want" "$d/model" ||
		{ echo "no row '$want':"; cat "$d/model"; return 1; }
	want=$(awk 'BEGIN { k = 2e12 / (256 * 2^30); printf "| `scale/big-256G/zlib/d31/t1` | %.0f | %.0f |", 60 * k, 30 * k }')
	grep -qF -- "$want" "$d/model" ||
		{ echo "no row '$want':"; cat "$d/model"; return 1; }
	want=$(awk 'BEGIN { k = 16e12 / 2^40; printf "| `scale/big-1024G/lzo/d31/t1` | %.0f | %.0f | %.0f | %.0f |", 300 * 2 / 16 * k, 100 * 2 / 16 * k, 300 * k, 100 * k }')
	grep -qF -- "$want" "$d/model" ||
		{ echo "no row '$want':"; cat "$d/model"; return 1; }
	rm -rf "$d"
}

# t_bench_scale_rows: bench/run --scale on a 4 GiB member of the series
# (tests/gen/mkbig, 3 s, 155 MiB on disk), every case: the rows are
# named for the model, vmsift's lzo dumps are makedumpfile's bytes ("yes"
# in the column, which compares sha256 of the outputs) and its zlib
# dumps are not (libdeflate: "no"), and the load column holds a number;
# --case runs the one case given, and --repeat 2 gives each wall and CPU
# cell its range; makedumpfile failing leaves vmsift's rows, saying so.
# About 45 s.
t_bench_scale_rows() {
	local d=$work/bench-scale
	rm -rf "$d" && mkdir -p "$d"
	make -s -C "$top" tests/gen/mkbig || return 1
	"$top/tests/gen/mkbig" "$d/big-4G.vmcore" 4 > /dev/null || return 1
	BENCH_DIR=$d VMSIFT=$top/vmsift $PY "$top/bench/run" --scale --repeat 1 \
		--full-up-to 4 "$d/big-4G.vmcore" > "$d/out" 2> "$d/err" ||
		{ echo "bench/run --scale failed:"; cat "$d/err"; return 1; }
	local t
	for t in lzo/d31/t1:yes lzo/d31/t2:yes lzo/d1/t1:yes zlib/d31/t1:no zlib/d31/t2:no; do
		grep -Eq "^\| scale/big-4G/${t%:*} \|.*\| ${t#*:} \| [0-9.]+ \|$" "$d/out" ||
			{ echo "no ${t%:*} row saying '${t#*:}' for the same bytes as makedumpfile's:"; cat "$d/out"; return 1; }
	done
	grep -Eq '^\| scale/big-4G/lzo/d31/mdf \|.*\| — \| [0-9.]+ \|$' "$d/out" ||
		{ echo "no makedumpfile row:"; cat "$d/out"; return 1; }
	# --case: that case alone on the member (no lzo rows, -d 1 neither),
	# and with --repeat 2 each wall and CPU cell "median (min-max)"
	BENCH_DIR=$d VMSIFT=$top/vmsift $PY "$top/bench/run" --scale --repeat 2 \
		--case zlib/d31 "$d/big-4G.vmcore" > "$d/case" 2> "$d/err" ||
		{ echo "bench/run --scale --case failed:"; cat "$d/err"; return 1; }
	[ "$(grep -c '^| scale/' "$d/case")" = 3 ] &&
		[ "$(grep -c '^| scale/big-4G/zlib/d31/' "$d/case")" = 3 ] ||
		{ echo "--case zlib/d31: not its three rows alone:"; cat "$d/case"; return 1; }
	awk -F'|' '/^\| scale\// { for (c = 7; c <= 8; c++) {
		if (split($c, v, /[ ()-]+/) != 5 || !(v[3] <= v[2] && v[2] <= v[4])) bad = 1 }
		n++ } END { exit bad || n != 3 }' "$d/case" ||
		{ echo "wall and CPU cells not 'median (min-max)' with min <= median <= max:"; cat "$d/case"; return 1; }
	# makedumpfile failing (here: an option it does not know) costs its
	# own row only: vmsift's rows stay, say so, and its message is shown
	printf '#!/bin/sh\nexec makedumpfile --no-such-option "$@"\n' > "$d/mdf-fails"
	chmod +x "$d/mdf-fails"
	MAKEDUMPFILE=$d/mdf-fails BENCH_DIR=$d VMSIFT=$top/vmsift $PY "$top/bench/run" --scale \
		--repeat 1 --case lzo/d31 "$d/big-4G.vmcore" > "$d/fail" 2> "$d/err" ||
		{ echo "bench/run --scale stopped when makedumpfile failed:"; cat "$d/err"; return 1; }
	[ "$(grep -c '^| scale/big-4G/lzo/d31/t[12] |.*| mdf failed | mdf failed | [0-9.]* |$' "$d/fail")" = 2 ] &&
		! grep -q '^| scale/.*/mdf |' "$d/fail" ||
		{ echo "makedumpfile failed: not vmsift's two rows saying so and none of its own:"; cat "$d/fail"; return 1; }
	grep -q 'no-such-option' "$d/err" ||
		{ echo "makedumpfile's failure not shown:"; cat "$d/err"; return 1; }
	BENCH_DIR=$d $PY "$top/bench/run" --scale --case zlib/d1 "$d/big-4G.vmcore" > "$d/out" 2>&1 &&
		{ echo "--case zlib/d1 (no such case) accepted:"; cat "$d/out"; return 1; }
	grep -q 'no --scale case zlib/d1' "$d/out" ||
		{ echo "--case zlib/d1 refused without saying why:"; cat "$d/out"; return 1; }
	rm -rf "$d"
}

# t_bench_capture_console: bench/run --capture --reuse on a made-up run
# whose console (serial.log) has bench/capture/4G-irq/mkspecs' lines: each
# dump row gets the TLB, CAL and RES counts its own run added (after
# minus before, summed over the CPUs: 400, 20, 6 for the two-thread row,
# line 3 of bench.tsv), not its neighbour's; the two-reader kread row sums
# both readers' system time (3 + 5 s over 2 x 0.5 GB: 8.00 s/GB, TLB
# 1000/GB); a row without console lines (the raw read, line 1) gets none.
# QEMU's vCPU threads' host times come from the samples around each run;
# bench/run's sampler finds the right process.  And CAPTURE_NICE reaches
# the harness as --nice (absent when unset).
t_bench_capture_console() {
	local d=$work/bench-capture
	rm -rf "$d" && mkdir -p "$d/c/results"
	echo 'qemu-system-x86_64 -m 4096M,slots=1,maxmem=8704M -smp 2 -append crashkernel=256M' > "$d/c/serial.cmdline"
	local r1='vmcore|0|0|raw|read|0|read	0	5.0	0.2	4.8	1500	536870912'
	local r2='vmcore|2|1|-l -d 1|vmsift|1|auto	0	20.0	15.0	5.0	3000	1000'
	local r3='vmcore|2|1|-l -d 1|vmsift|2|auto	0	30.0	25.0	24.0	9000	1000'
	local r4='vmcore|2|1|kread 1024 MiB|2 readers|1|read	0	9.0	2.0	8.0	1600	-1'
	printf '%s\n' "$r1" "$r2" "$r3" "$r4" > "$d/c/results/bench.tsv"
	{
		printf 'HARNESS: row: %s\r\n' "$r1"
		printf 'capture4g-irq:run:a:2\ncapture4g-irq:TLB:  10  20  TLB shootdowns\ncapture4g-irq:CAL: 1 1 Function call interrupts\ncapture4g-irq:RES: 0 0 Rescheduling interrupts\n'
		printf 'capture4g-irq:run:a:2\ncapture4g-irq:TLB:  11  20  TLB shootdowns\ncapture4g-irq:CAL: 1 2 Function call interrupts\ncapture4g-irq:RES: 0 1 Rescheduling interrupts\n'
		printf 'HARNESS: row: %s\n' "$r2"
		printf 'capture4g-irq:run:b:2\ncapture4g-irq:RES: 1 1 x\ncapture4g-irq:CAL: 10 10 x\ncapture4g-irq:TLB: 100 200 x\n'
		echo '[   12.3] a kernel line between'
		printf 'capture4g-irq:run:b:2\ncapture4g-irq:RES: 4 4 x\ncapture4g-irq:CAL: 20 20 x\ncapture4g-irq:TLB: 300 400 x\n'
		printf 'HARNESS: row: %s\n' "$r3"
		printf 'capture4g-irq:run:k:2\ncapture4g-irq:TLB: 0 0 x\ncapture4g-irq:CAL: 0 0 x\ncapture4g-irq:RES: 0 0 x\n'
		printf 'capture4g-irq:run:k:2\ncapture4g-irq:TLB: 500 500 x\ncapture4g-irq:CAL: 0 100 x\ncapture4g-irq:RES: 0 0 x\n'
		printf 'capture4g-kread:kread-read-2-idle:2\t0\t8.5\t1.0\t3.0\t1500\t500000000\n'
		printf 'capture4g-kread:kread-read-2-idle:2\t0\t8.9\t1.0\t5.0\t1500\t500000000\n'
		printf 'HARNESS: row: %s\n' "$r4"
	} > "$d/c/serial.log"
	$PY "$top/bench/run" --capture --reuse --capture-out "$d/c" > "$d/out" 2> "$d/err" ||
		{ echo "bench/run --capture --reuse failed:"; cat "$d/err"; return 1; }
	grep -Fq '| -l -d 1 | vmsift | 2 | 2 | /proc/vmcore | 30.0 | 25.00 | 24.00 | 400 | 20 | 6 | 1 | 3 |' "$d/out" &&
		grep -Fq '| -l -d 1 | vmsift | 1 | 2 | /proc/vmcore | 20.0 | 15.00 | 5.00 | 1 | 1 | 1 | 1 | 2 |' "$d/out" ||
		{ echo "the dumps' interrupt counts not their own runs':"; cat "$d/out"; return 1; }
	grep -Fq '| read() | 2 readers | 2 | 9.0 | 2.00 | 8.00 | **8.00** | 1000 | 100 | 0 | 1 | 4 |' "$d/out" ||
		{ echo "the two readers' row not their summed user/sys per GB:"; cat "$d/out"; return 1; }
	! grep -q '| raw |' "$d/out" && ! grep -q '| kread.*| 2 readers |.*×' "$d/out" ||
		{ echo "raw or kread rows in the dump tables:"; cat "$d/out"; return 1; }
	# qemu-sched.tsv (bench/run's sampler of QEMU's threads): the run of
	# bench.tsv line 3 lies between serial.log lines 12 and 21 (its row);
	# samples at lines 13 and 21: thread 7 (the busiest: vCPU thread A) on
	# CPU 12.5 s and waiting 5.0 s of the 20 s between them, asleep 2.5;
	# thread 8 on CPU 2.0, waiting 1.0; the waiting share 6 / 20.5.  Line
	# 2's run began before the first sample: no host times for it.
	{
		printf '100.00\t1\t7\tqemu\t0\t0\t1\t0\t0\n100.00\t1\t8\tqemu\t0\t0\t1\t0\t0\n'
		printf '100.00\t1\t1\tqemu\t0\t0\t1\t0\t0\n'
		printf '110.00\t13\t7\tqemu\t1000000000\t1000000000\t1\t0\t0\n110.00\t13\t8\tqemu\t0\t0\t1\t0\t0\n'
		printf '110.00\t13\t1\tqemu\t5000000\t0\t1\t0\t0\n'
		printf '130.00\t21\t7\tqemu\t13500000000\t6000000000\t1\t0\t0\n130.00\t21\t8\tqemu\t2000000000\t1000000000\t1\t0\t0\n'
		printf '130.00\t21\t1\tqemu\t10000000\t0\t1\t0\t0\n'
		printf '140.00\t30\t7\tqemu\t20000000000\t6000000000\t1\t0\t0\n140.00\t30\t8\tqemu\t3000000000\t1000000000\t1\t0\t0\n'
		printf '140.00\t30\t1\tqemu\t10000000\t0\t1\t0\t0\n'
	} > "$d/c/qemu-sched.tsv"
	$PY "$top/bench/run" --capture --reuse --capture-out "$d/c" > "$d/out" 2> "$d/err" ||
		{ echo "bench/run --capture --reuse with qemu-sched.tsv failed:"; cat "$d/err"; return 1; }
	grep -Fq '| -l -d 1 | vmsift | 2 | 2 | 30.0 | 49.0 | 20.0 | 12.5 / 5.0 / 2.5 | 2.0 / 1.0 / 17.0 | **0.29** | 1 | 3 |' "$d/out" ||
		{ echo "the vCPU threads' host times not those between the run's samples:"; cat "$d/out"; return 1; }
	! grep -Fq '| -l -d 1 | vmsift | 1 | 2 | 20.0 | 20.0 |' "$d/out" ||
		{ echo "host times for a run whose start the samples missed (bench.tsv line 2):"; cat "$d/out"; return 1; }
	# the sampler finds the QEMU that writes OUT/serial.log (here a
	# process named qemu-system-test with it in its arguments) and writes
	# its schedstat with serial.log's line count
	: > "$d/c/qemu-sched.tsv"
	(exec -a qemu-system-test $PY -c 'import time; time.sleep(4)' "$d/c/serial.log") &
	local qpid=$!
	$PY - "$top/bench/run" "$d/c" > "$d/sample" 2>&1 <<-'EOF' ||
		import importlib.machinery, importlib.util, sys, threading
		loader = importlib.machinery.SourceFileLoader('benchrun', sys.argv[1])
		spec = importlib.util.spec_from_loader('benchrun', loader)
		b = importlib.util.module_from_spec(spec)
		loader.exec_module(b)
		stop = threading.Event()
		threading.Timer(2.5, stop.set).start()
		b.qemu_sample(sys.argv[2], stop, period=0.5)
	EOF
		{ echo "qemu_sample failed:"; cat "$d/sample"; kill $qpid; return 1; }
	kill $qpid 2>/dev/null; wait $qpid 2>/dev/null
	awk -F'\t' -v p=$qpid -v n="$(grep -c '' "$d/c/serial.log")" '$3 == p && $2 == n && $5 > 0 && $6 ~ /^[0-9]+$/ { k++ } END { exit k < 2 }' "$d/c/qemu-sched.tsv" ||
		{ echo "no samples of the process writing serial.log (pid $qpid):"; cat "$d/c/qemu-sched.tsv"; return 1; }
	local nice
	for nice in 5 ''; do
		CAPTURE_NICE=$nice $PY - "$top/bench/run" "$d/c" > "$d/argv" 2>&1 <<-'EOF' ||
			import argparse, importlib.machinery, importlib.util, subprocess, sys
			loader = importlib.machinery.SourceFileLoader('benchrun', sys.argv[1])
			spec = importlib.util.spec_from_loader('benchrun', loader)
			b = importlib.util.module_from_spec(spec)
			loader.exec_module(b)
			subprocess.run = lambda argv, **kw: print(' '.join(argv))
			b.capture_run(argparse.Namespace(capture_out=[sys.argv[2]],
			                                 reuse=False, repeat=3))
		EOF
			{ echo "capture_run failed:"; cat "$d/argv"; return 1; }
		if [ -n "$nice" ]; then
			grep -q 'kdump-test --bench 3 .* --nice 5$' "$d/argv"
		else
			grep -q 'kdump-test --bench 3 ' "$d/argv" && ! grep -q -- '--nice' "$d/argv"
		fi || { echo "CAPTURE_NICE='$nice': not the harness's --nice:"; cat "$d/argv"; return 1; }
	done
	rm -rf "$d"
}

run_test "bench: bench/run --scale names its rows and tells whether vmsift's dump is makedumpfile's bytes (lzo yes, zlib no)" t_bench_scale_rows
run_test "bench: bench/run times a command inside BENCH_MEASURE (the lock's wait not counted), its CPU and RSS alone" t_bench_timed
run_test "bench: bench/run --model names the row of each input and scales the measured dumps from them" t_bench_model
run_test "bench: bench/run --capture counts each run's cross-CPU interrupts, the raw readers' system time per GB and QEMU's vCPU threads' host time, and passes CAPTURE_NICE to the harness" t_bench_capture_console
