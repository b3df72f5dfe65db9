#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# /init of the harness's initramfs.  One script for four roles:
#   snapshot  run the workload, print its ready line, wait for QMP's dump
#   kdump     load the capture kernel (kexec -p), run the workload, panic
#   capture   (when /proc/vmcore exists) run the dump tool on /proc/vmcore
#             with each argument set in /dump-args, copy /proc/vmcore raw,
#             store everything on the virtio disk, power off
#   native    the same on the disk's in/vmcore, without the raw copy (a
#             dump tool run natively on the guest's architecture)
# Settings come from /harness.conf (written by the host scripts).
#   kcore     run the workload, stop it (SIGSTOP), run vmsift, makedumpfile
#             and vmsift again with --mem-usage /proc/kcore, store the
#             outputs on the virtio disk (out/), power off
# Every step prints "HARNESS: ..." on the console; failures print
# "HARNESS: FAIL <step>" and power off, so the host can say what broke.
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
. /harness.conf

say() { echo "HARNESS: $*"; }
off() { sync; poweroff -f; echo o > /proc/sysrq-trigger; sleep 60; }
fail() { say "FAIL $*"; off; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }

for m in $(cat /modules.order); do
	insmod "$m" 2>/dev/null   # crc32c-intel may refuse a CPU; ext4 has a fallback
done
# mount_when_ready DEV DIR WHAT: mount the ext4 on DEV at DIR once the
# block device DEV appears (10 s at most; WHAT names it in the failure).
mount_when_ready() {
	i=0
	while [ ! -b "$1" ]; do
		i=$((i + 1))
		[ $i -le 100 ] || fail "$3 $1 never appeared"
		sleep 0.1
	done
	mkdir -p "$2"
	mount -t ext4 "$1" "$2" || fail "mount $1"
}
mount_when_ready /dev/vda /mnt/disk "virtio disk"

# bench (kdump-test --bench): each case of /bench-specs (CASE|TOOL|THREADS|
# ACCESS|BINARY|ARGS) on /proc/vmcore and on a copy of it on the disk,
# with CPU 1 online and offline, BENCH_REPEAT rounds, every other round in
# reverse order (/bench-specs.rev; the file pass's cases are /bench-specs-file
# where the harness wrote it, BENCH_FILE_SPECS); /bin/benchrun appends a row a run to
# out/bench.tsv (WHERE|CPUS|ROUND|CASE|TOOL|THREADS|ACCESS, then exit
# status, wall, user, sys, RSS, output bytes), and prints it on the console
# ("HARNESS: row ...": the host keeps the rows of a run it had to stop).
# Outputs are removed after each run, the page cache dropped before it.
# BENCH_RAW_MB: the raw read rates on the first MB MiB only (0: whole);
# BENCH_TIMEOUT: seconds after which a run is ended (0: none).
row() { say "row: $(tail -n1 $out/bench.tsv)"; }
bench_pass() {  # INPUT WHERE ROUND CPUS
	list=/bench-specs
	[ "$2" = file ] && [ -e /bench-specs-file ] && list=/bench-specs-file
	[ $(($3 % 2)) = 0 ] && list=$list.rev
	while IFS='|' read -r case tool threads access bin args; do
		[ -n "$case" ] || continue
		[ "$threads" -le "$4" ] || continue
		rm -f /mnt/disk/bench.out
		sync
		echo 3 > /proc/sys/vm/drop_caches
		BENCHRUN_TIMEOUT=${BENCH_TIMEOUT:-0} /bin/benchrun $out/bench.tsv "$2|$4|$3|$case|$tool|$threads|$access" \
			-- /bin/$bin $args "$1" /mnt/disk/bench.out \
			< /dev/null > /dev/null 2>> $out/bench.log
		say "bench: $2 cpus=$4 round $3: $tool $args -> exit $? ($(tail -n1 $out/bench.tsv | cut -f3) s)"
		row
	done < $list
	rm -f /mnt/disk/bench.out
}
bench_cpus() {  # N: CPUs 1 .. N-1 online, the others offline
	for c in /sys/devices/system/cpu/cpu[1-9]*; do
		[ -e $c/online ] || continue
		i=${c##*/cpu}
		if [ "$i" -lt "$1" ]; then echo 1 > $c/online; else echo 0 > $c/online; fi
	done
	say "bench: $(grep -c ^processor /proc/cpuinfo) CPU(s) online"
}
bench() {
	say "bench: $(grep -c ^processor /proc/cpuinfo) CPU(s), $BENCH_REPEAT round(s), $(grep MemTotal /proc/meminfo)"
	for how in read mmap; do
		echo 3 > /proc/sys/vm/drop_caches
		BENCHRUN_MAX_MB=${BENCH_RAW_MB:-0} /bin/benchrun $out/bench.tsv "vmcore|0|0|raw|$how|0|$how" --$how /proc/vmcore 2>> $out/bench.log
		say "bench: $how /proc/vmcore -> $(tail -n1 $out/bench.tsv | cut -f3,7)"
		row
	done
	# The copy on ext4 on /dev/pmem0 (BENCH_FILE=pmem: virtio-pmem, host
	# memory mapped into the guest) or on the virtio disk; through mmap:
	# read() takes each page through its own ioremap.
	copy=/mnt/disk/vmcore.copy
	if [ "$BENCH_FILE" = pmem ]; then
		mount_when_ready /dev/pmem0 /mnt/pmem virtio-pmem
		copy=/mnt/pmem/vmcore.copy
	fi
	/bin/benchrun $out/bench.tsv "file|0|0|raw|copy|0|mmap" --mmap /proc/vmcore \
		$copy 2>> $out/bench.log || fail "copy /proc/vmcore"
	say "bench: copy of /proc/vmcore to $copy -> $(tail -n1 $out/bench.tsv | cut -f3,7)"
	row
	for how in read mmap; do
		echo 3 > /proc/sys/vm/drop_caches
		BENCHRUN_MAX_MB=${BENCH_RAW_MB:-0} /bin/benchrun $out/bench.tsv "file|0|0|raw|$how|0|$how" --$how $copy 2>> $out/bench.log
		say "bench: $how the copy -> $(tail -n1 $out/bench.tsv | cut -f3,7)"
		row
	done
	ncpu=$(grep -c ^processor /proc/cpuinfo)
	r=0
	while [ $r -lt "$BENCH_REPEAT" ]; do
		r=$((r + 1))
		for cpus in $ncpu 1; do
			bench_cpus $cpus
			bench_pass /proc/vmcore vmcore $r $cpus
			# the file with all CPUs only: the time the guest has
			[ "$cpus" = 1 ] && [ "$ncpu" -gt 1 ] ||
				bench_pass $copy file $r $cpus
			[ "$ncpu" -gt 1 ] || break
		done
		bench_cpus $ncpu
	done
	rm -f $copy
	[ "$BENCH_FILE" != pmem ] || umount /mnt/pmem
	cat /proc/cmdline > $out/capture.cmdline
}

# native: the dump tool on a vmcore the host put on the disk (in/vmcore),
# run as in a capture kernel; no raw copy.
VMCORE=/proc/vmcore
[ "$ROLE" = native ] && VMCORE=/mnt/disk/in/vmcore
if [ -e /proc/vmcore ] || [ "$ROLE" = native ]; then
	say "capture kernel init ($(uname -r), $(uptime_s)s)"
	out=/mnt/disk/out
	mkdir -p $out
	# The kernel's random pool as the dumps start (encrypted dumps draw
	# their file key from getrandom, which must not block here).
	say "random: entropy_avail $(cat /proc/sys/kernel/random/entropy_avail 2>/dev/null || echo '?'), $(dmesg | grep -m1 -o 'crng init done' || echo 'crng not initialised yet')"
	if [ -s /bench-specs ]; then
		bench
		umount /mnt/disk || fail "umount"
		say "dumps done"
		off
	fi
	n=0
	while read -r args; do
		[ -n "$args" ] || continue
		n=$((n + 1))
		echo "$args" > $out/dump$n.args
		t0=$(uptime_s)
		case " $args " in
		*" -F "*)  # flattened stream on stdout
			/bin/dumptool $args $VMCORE > $out/dump$n 2> $out/dump$n.stderr ;;
		*)
			/bin/dumptool $args $VMCORE $out/dump$n > $out/dump$n.stdout 2> $out/dump$n.stderr ;;
		esac
		rc=$?
		t1=$(uptime_s)
		echo $rc > $out/dump$n.rc
		echo "$t0 $t1" > $out/dump$n.time
		say "dump $n: dumptool $args -> exit $rc ($t0 .. $t1 s)"
	done < /dump-args
	if [ "$ROLE" != native ]; then
		t0=$(uptime_s)
		cp /proc/vmcore $out/vmcore.raw || fail "cp /proc/vmcore"
		say "raw copy of /proc/vmcore done ($t0 .. $(uptime_s) s)"
	fi
	cat /proc/cmdline > $out/capture.cmdline
	umount /mnt/disk || fail "umount"
	say "dumps done"
	off
fi

say "first kernel init ($(uname -r), $(uptime_s)s)"
mkdir -p /mnt/huge
huge=/mnt/huge
if ! mount -t hugetlbfs none /mnt/huge; then
	# No huge page size under TCG for s390x (no EDAT in QEMU's CPU) and
	# ppc64le's hash MMU: the kernel has no hugetlbfs (HUGETLB_OPTIONAL=1
	# where it may still list it).
	if grep -q hugetlbfs /proc/filesystems && [ "${HUGETLB_OPTIONAL:-0}" != 1 ]; then
		fail "mount hugetlbfs"
	fi
	say "no hugetlbfs in this kernel; the workload runs without hugetlb pages"
	huge=
fi
# The kernel turns THP off by itself below 512 MiB of RAM; the workload wants it.
echo always > /sys/kernel/mm/transparent_hugepage/enabled
if [ "$ROLE" = kdump ]; then
	[ "$(cat /sys/kernel/kexec_crash_size)" != 0 ] ||
		fail "crashkernel= memory not reserved (no free range that size; more guest memory or a smaller crashkernel=)"
	# arm64: Debian 12's kexec-tools (2.0.25) looks up _text in
	# /proc/kallsyms, which 6.1 no longer lists there; without it the
	# ELF header it builds has a wrong kernel-text PT_LOAD and a zero
	# PAGE_OFFSET.  Give it a kallsyms that has _text: the image starts
	# 64 KiB before _stext, at a 2 MiB boundary.
	if [ "${KALLSYMS_ADD_TEXT:-0}" = 1 ] && ! grep -q ' _text$' /proc/kallsyms; then
		stext=$(awk '$3 == "_stext" { print $1; exit }' /proc/kallsyms)
		case $stext in
		*10000) ;;
		*) fail "kallsyms: _stext ($stext) is not 64 KiB past a 2 MiB boundary" ;;
		esac
		{ cat /proc/kallsyms; echo "${stext%?????}00000 T _text"; } > /tmp/kallsyms
		mount --bind /tmp/kallsyms /proc/kallsyms || fail "bind-mount a kallsyms with _text"
		say "kallsyms: no _text listed; added at ${stext%?????}00000 for kexec"
	fi
	# riscv64: kexec-tools (2.0.32) builds the capture kernel's ELF
	# header from /proc/iomem's System RAM less every other entry in it,
	# and riscv lists each memblock reservation inside System RAM as
	# "Reserved": mem_section, the vmemmap and the page tables would be
	# left out of /proc/vmcore.  Give it an iomem without those lines, so
	# that the vmcore holds all RAM but the crash kernel's, as on x86_64
	# and arm64 (the lines are printed first, "iomem: ...").
	if [ "${IOMEM_UNRESERVE:-0}" = 1 ]; then
		sed 's/^/iomem: /' /proc/iomem
		grep -v '^ .* : Reserved$' /proc/iomem > /tmp/iomem
		n=$(grep -c '^ .* : Reserved$' /proc/iomem)
		mount --bind /tmp/iomem /proc/iomem || fail "bind-mount an iomem without Reserved"
		say "iomem: $n Reserved ranges hidden from kexec"
	fi
	kexec -p /boot/vmlinuz --initrd=/boot/capture.cpio --append="$CAPTURE_CMDLINE" ||
		fail "kexec -p (crashkernel= too small, or no capture kernel)"
	if [ -f /tmp/kallsyms ]; then umount /proc/kallsyms; rm -f /tmp/kallsyms; fi
	if [ -f /tmp/iomem ]; then umount /proc/iomem; rm -f /tmp/iomem; fi
	[ "$(cat /sys/kernel/kexec_crash_loaded)" = 1 ] || fail "kexec -p: capture kernel not loaded"
	say "capture kernel loaded"
	rm -f /boot/vmlinuz /boot/capture.cpio   # loaded now; give the memory back
fi
/bin/workload $WORKLOAD_ARGS ${huge:+-P $huge} -c /mnt/disk/data -W /mnt/disk/written -R /tmp/ready &
i=0
while [ ! -e /tmp/ready ]; do
	kill -0 $! 2>/dev/null || fail "workload exited early"
	i=$((i + 1))
	[ $i -le 1200 ] || fail "workload not ready after 120 s"
	sleep 0.1
done
grep -E 'MemFree|^Cached|AnonPages|AnonHugePages|Shmem:|HugePages_Total' /proc/meminfo
if [ "$ROLE" = kdump ]; then
	say "panic now"
	echo 1 > /proc/sys/kernel/sysrq
	echo c > /proc/sysrq-trigger
	fail "sysrq-c did not panic"
fi
if [ "$ROLE" = kcore ]; then
	kill -STOP $!
	sync
	for t in vmsift makedumpfile vmsift2; do
		b=/bin/${t%2}
		$b --mem-usage /proc/kcore > /tmp/$t.out 2> /tmp/$t.err
		echo $? > /tmp/$t.rc
		say "kcore: $t --mem-usage /proc/kcore -> exit $(cat /tmp/$t.rc)"
	done
	mkdir -p /mnt/disk/out
	cp /tmp/*.out /tmp/*.err /tmp/*.rc /mnt/disk/out/ || fail "copy the outputs"
	umount /mnt/disk || fail "umount"
	say "kcore done"
	off
fi
say "ready for snapshot"
while :; do sleep 3600; done
