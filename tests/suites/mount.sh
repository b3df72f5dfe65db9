# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/mount.sh - vmsift mount, umount and cat (doc/mount.md).
# Every kind of input is mounted (kdump with each codec, a split set, a
# flattened file, an encrypted (age) dump, ELF) and its vmcore read back through the mount point
# by tests/tools/mountcheck.py, whose ELF and kdump parsers are not
# vmsift's: every page the dump holds equals the source vmcore's, every
# other page reads as zeros.  readelf -l of the mount lists the segments
# of vmsift -E's file of the same input.  Bad input: a damaged page is
# EIO and a logged pfn while the mount lives on; a missing split part is
# refused at mount time; a reader killed mid-read leaves the mount
# serving.  With the -dbg vmlinux in the cache (or VMSIFT_MOUNT_FULL=1,
# which downloads it), drgn and crash read the mount as they read the
# original dump.  Every test unmounts what it mounted on exit (a trap).
# Sourced by tests/run.

mcheck="$PY $top/tests/tools/mountcheck.py"
# shellcheck source=tests/suites/lib/carried.sh
. "$top/tests/suites/lib/carried.sh"

# mnt_up DIR ARGS...: mount ARGS (dumps) on DIR, in the background, read
# errors logged to DIR.log; DIR is unmounted when the test's shell exits.
mnt_up() {
	local dir=$1; shift
	mkdir -p "$dir"
	mnt_dirs+=("$dir")
	trap mnt_down_all EXIT
	vmsift mount --log "$dir.log" "$@" "$dir" || return 1
	mountpoint -q "$dir" || { echo "vmsift mount returned, no mount on $dir"; return 1; }
}

mnt_down_all() {
	local d
	for d in "${mnt_dirs[@]}"; do
		mountpoint -q "$d" 2>/dev/null || continue
		vmsift umount "$d" || fusermount3 -u -z "$d"
	done
}
mnt_dirs=()

# t_mount_kdump INPUT FLAG: a kdump with FLAG's codec, mounted.
t_mount_kdump() {
	local in=$1 flag=$2 d=$work/out/mnt
	vmsift "$flag" -d 31 --message-level 0 "$in" "$d.dump" || return 1
	mnt_up "$d" "$d.dump" || return 1
	$mcheck kdump "$in" "$d/vmcore" "$d.dump" || return 1
	$mcheck vmcoreinfo "$in" "$d/vmcoreinfo" || return 1
	grep -qx "codec: ${3:-}.*" "$d/info" || { cat "$d/info"; return 1; }
	vmsift umount "$d" && ! mountpoint -q "$d"
}

# t_mount_split INPUT: the three files of a split set, mounted together.
t_mount_split() {
	local in=$1 d=$work/out/mnt
	vmsift --split --splitblock-size 4096 -z -d 31 --message-level 0 "$in" \
		"$d.1" "$d.2" "$d.3" || return 1
	mnt_up "$d" "$d.3" "$d.1" "$d.2" || return 1
	$mcheck kdump "$in" "$d/vmcore" "$d.1" && grep -qx 'split_parts: 3' "$d/info"
}

# t_mount_flat INPUT: a flattened file, mounted; the direct dump of the
# same options holds its bitmaps.
t_mount_flat() {
	local in=$1 d=$work/out/mnt
	vmsift -F -l -d 31 --message-level 0 "$in" > "$d.flat" || return 1
	vmsift -l -d 31 --message-level 0 "$in" "$d.direct" || return 1
	mnt_up "$d" "$d.flat" || return 1
	$mcheck kdump "$in" "$d/vmcore" "$d.direct" && grep -q 'flattened' "$d/info"
}

# t_mount_age INPUT: an encrypted dump (--encrypt-to, an age file of the
# flattened stream) mounted with --identity: every page the source's or
# zeros, as the unencrypted direct dump holds them; without the identity
# (or with another key) it does not mount.
t_mount_age() {
	local in=$1 d=$work/out/mnt k=$work/out/mnt.key
	age-keygen -o "$k" 2>/dev/null && age-keygen -o "$k.other" 2>/dev/null || return 1
	vmsift -l -d 31 --message-level 0 --encrypt-to "$(age-keygen -y "$k")" \
		"$in" "$d.age" || return 1
	vmsift -l -d 31 --message-level 0 "$in" "$d.direct" || return 1
	if vmsift mount --identity "$k.other" "$d.age" "$d" 2>"$d.err"; then
		vmsift umount "$d"; echo "mounted with the wrong identity"; return 1
	fi
	mnt_up "$d" --identity "$k" "$d.age" || return 1
	$mcheck kdump "$in" "$d/vmcore" "$d.direct" &&
		$mcheck vmcoreinfo "$in" "$d/vmcoreinfo"
}

# t_mount_elf INPUT: an ELF dump (vmsift -E -d 31) and the source vmcore
# itself, mounted: the same bytes as the file, the program headers of
# vmsift -E's file of the same input (readelf -l and our parser).
t_mount_elf() {
	local in=$1 d=$work/out/mnt e=$work/out/mnt.elf
	vmsift -E -d 31 --message-level 0 "$in" "$e" || return 1
	vmsift -E --message-level 0 "$e" "$e.again" || return 1
	vmsift -E --message-level 0 "$in" "$e.src" || return 1
	mnt_up "$d" "$e" || return 1
	mnt_up "$d.src" "$in" || return 1
	$mcheck elf "$e" "$d/vmcore" || return 1
	$mcheck phdrs "$e.again" "$d/vmcore" || return 1
	$mcheck phdrs "$e.src" "$d.src/vmcore" || return 1
	diff <(readelf -lW "$e.again" | grep -E '^ +(LOAD|NOTE)') \
	     <(readelf -lW "$d/vmcore" | grep -E '^ +(LOAD|NOTE)') || return 1
	diff <(readelf -lW "$e.src" | grep -E '^ +(LOAD|NOTE)') \
	     <(readelf -lW "$d.src/vmcore" | grep -E '^ +(LOAD|NOTE)')
}

# t_mount_damaged INPUT: one page's data spoiled: reading it is EIO and a
# logged line naming its pfn; the rest of the mount still reads.
t_mount_damaged() {
	local in=$1 d=$work/out/mnt pfn off
	vmsift -l -d 31 --message-level 0 "$in" "$d.dump" || return 1
	mnt_up "$d" "$d.dump" || return 1
	read -r pfn off < <($mcheck damage "$d.dump" "$d/vmcore") || return 1
	[ -n "$off" ] || return 1
	if dd if="$d/vmcore" of=/dev/null bs=4096 iflag=skip_bytes skip="$off" count=1 2>"$d.err"; then
		echo "pfn $pfn read without an error"; return 1
	fi
	grep -q 'Input/output error' "$d.err" || { cat "$d.err"; return 1; }
	grep -q "pfn $pfn" "$d.log" || { echo "log lacks pfn $pfn:"; cat "$d.log"; return 1; }
	mountpoint -q "$d" || { echo "the mount died"; return 1; }
	# Every other page still reads: only the spoiled one fails.
	$mcheck eio "$d/vmcore" "$pfn" && mountpoint -q "$d"
}

# t_mount_missing_part INPUT: a split set without its middle file is
# refused before anything is mounted, the gap named.
t_mount_missing_part() {
	local in=$1 d=$work/out/mnt msg
	vmsift --split --splitblock-size 4096 -z -d 31 --message-level 0 "$in" \
		"$d.1" "$d.2" "$d.3" || return 1
	mkdir -p "$d"
	mnt_dirs+=("$d")
	trap mnt_down_all EXIT
	if msg=$(vmsift mount "$d.1" "$d.3" "$d" 2>&1); then
		echo "mounted an incomplete set"; return 1
	fi
	echo "$msg"
	! mountpoint -q "$d" && [[ $msg == *"gap at pfn"* ]] && [[ $msg == *"$d.3"* ]]
}

# t_mount_killed_reader INPUT: a reader killed in the middle of a long
# read; the mount serves the next reader whole.
t_mount_killed_reader() {
	local in=$1 d=$work/out/mnt pid
	vmsift -c -d 1 --message-level 0 "$in" "$d.dump" || return 1
	mnt_up "$d" --cache-size 1M "$d.dump" || return 1
	dd if="$d/vmcore" of=/dev/null bs=1M 2>/dev/null &
	pid=$!
	sleep 0.5
	kill -KILL $pid
	wait $pid 2>/dev/null
	mountpoint -q "$d" || { echo "the mount died"; return 1; }
	$mcheck kdump "$in" "$d/vmcore" "$d.dump"
}

# t_cat INPUT: vmsift cat by pfn, physical and kernel virtual address,
# against the input's bytes; an excluded page is an error naming it, or
# zeros with --zeros.
t_cat() {
	local in=$1 d=$work/out/cat
	mkdir -p "$work/out"
	vmsift -z -d 31 --message-level 0 "$in" "$d.dump" || return 1
	$mcheck cat "$in" "$d.dump"
}

# t_cat_options INPUT: the read options cat shares with mount
# (cli/opendump.c): an encrypted dump read with --identity, with and
# without --cache-size, gives the bytes cat gives of the same dump
# unencrypted; without the identity, with a bad cache size or with
# --num-threads (mount's alone) cat writes nothing and fails, where the
# same command with good values succeeds.
t_cat_options() {
	local in=$1 d=$work/out/catopt k=$work/out/catopt.key r
	mkdir -p "$work/out"
	age-keygen -o "$k" 2>/dev/null || return 1
	vmsift -z -d 31 --message-level 0 "$in" "$d.dump" || return 1
	vmsift -z -d 31 --message-level 0 --encrypt-to "$(age-keygen -y "$k")" \
		"$in" "$d.age" || return 1
	for r in "--phys 0x100000+0x40000" "--pfn 0x1234" "--phys 0x1000+0x2000"; do
		# shellcheck disable=SC2086
		vmsift cat --zeros $r "$d.dump" > "$d.plain" || return 1
		[ -s "$d.plain" ] || { echo "cat $r: no bytes"; return 1; }
		# shellcheck disable=SC2086
		vmsift cat --zeros --identity "$k" $r "$d.age" | cmp - "$d.plain" || return 1
		# shellcheck disable=SC2086
		vmsift cat --zeros --cache-size 1M --identity "$k" $r "$d.age" |
			cmp - "$d.plain" || return 1
	done
	cat_refused() {
		if vmsift cat "$@" > "$d.out" 2>"$d.err"; then
			echo "cat $* succeeded"; return 1
		fi
		[ ! -s "$d.out" ] || { echo "cat $* wrote bytes"; return 1; }
	}
	cat_refused --pfn 0x1234 "$d.age" || return 1
	cat_refused --cache-size 1Q --pfn 0x1234 "$d.dump" || return 1
	vmsift cat --cache-size 1K --pfn 0x1234 "$d.dump" | cmp -s - <(vmsift cat --pfn 0x1234 "$d.dump") || return 1
	cat_refused --num-threads 2 --pfn 0x1234 "$d.dump"
}

# t_mount_options INPUT: mount parses the shared read options as cat
# does: bad --cache-size or --num-threads values mount nothing, the same
# mount with good ones serves every page.
t_mount_options() {
	local in=$1 d=$work/out/mnt bad
	vmsift -z -d 31 --message-level 0 "$in" "$d.dump" || return 1
	mkdir -p "$d"
	mnt_dirs+=("$d")
	trap mnt_down_all EXIT
	for bad in "--num-threads 0" "--num-threads 4x" "--num-threads 1025" \
		   "--cache-size 1Q" "--cache-size" ; do
		# shellcheck disable=SC2086
		if vmsift mount $bad "$d.dump" "$d" 2>"$d.err"; then
			vmsift umount "$d"; echo "mounted with $bad"; return 1
		fi
		! mountpoint -q "$d" || { echo "$bad left a mount"; return 1; }
	done
	mnt_up "$d" --num-threads 2 --cache-size 1M "$d.dump" || return 1
	$mcheck kdump "$in" "$d/vmcore" "$d.dump"
}

# dbg_vmlinux INPUT: the -dbg vmlinux of INPUT's kernel when the cache
# has it (VMSIFT_MOUNT_FULL=1: download it, 860 MB); else nothing.
dbg_vmlinux() {
	local ver v
	ver=$($PY -c 'import sys; sys.path.insert(0, sys.argv[1])
from mountcheck import Elf, vmcoreinfo_of, vi_value
print(vi_value(vmcoreinfo_of(Elf(sys.argv[2])), "OSRELEASE"))' "$top/tests/tools" "$1") || return 0
	v=${VMSIFT_CACHE:-$top/tests/work/cache}/dbg-$ver/vmlinux-$ver
	if [ ! -f "$v" ] && [ "${VMSIFT_MOUNT_FULL:-0}" = 1 ]; then
		(. "$top/tests/harness/lib.sh" && fetch_dbg_vmlinux "$ver") >&2 || return 0
	fi
	[ -f "$v" ] && echo "$v"
}

# t_mount_drgn INPUT VMLINUX: drgn reads the same kernel and tasks from
# the mount of a kdump as from INPUT.
t_mount_drgn() {
	local in=$1 vmlinux=$2 d=$work/out/mnt
	vmsift -z -d 31 --message-level 0 "$in" "$d.dump" || return 1
	mnt_up "$d" "$d.dump" || return 1
	$mcheck drgn "$in" "$d/vmcore" "$vmlinux"
}

# t_mount_crash INPUT VMLINUX: crash's sys, log, bt -a and kmem -i on
# the mount of a kdump print what they print on INPUT (its transcript
# kept in tests/work/ref), but for the file's name.
t_mount_crash() {
	local in=$1 vmlinux=$2 d=$work/out/mnt ref
	ref=$work/ref/$(basename "$in").crash
	crash_run() {
		printf 'sys\nlog\nbt -a\nkmem -i\nquit\n' |
			timeout 600 crash -s "$vmlinux" "$1" 2>&1 | grep -v '^ *DUMPFILE:'
	}
	if [ ! -s "$ref" ]; then
		crash_run "$in" > "$ref.tmp" && mv "$ref.tmp" "$ref" || return 1
	fi
	grep -q 'TOTAL MEM' "$ref" && grep -qE '^PID: +[0-9]+' "$ref" ||
		{ echo "crash failed on $in:"; tail "$ref"; rm -f "$ref"; return 1; }
	vmsift -l -d 31 --message-level 0 "$in" "$d.dump" || return 1
	mnt_up "$d" "$d.dump" || return 1
	diff "$ref" <(crash_run "$d/vmcore")
}

# t_mount_arm64: a zstd kdump of the carried arm64 vmcore (decompressed
# where arm64_real.sh puts it), mounted: its vmcore has a kernel-image
# load and the linear map's vaddrs, so drgn, with no debug info, reads
# init_uts_ns through the page tables at a kernel-image address, as
# libkdumpfile does (uts_release.py).
t_mount_arm64() {
	local raw d=$work/out/mnt
	raw=$(carried_input arm64 kdump-arm64-384M) || { echo "$raw"; return 1; }
	vmsift -z -d 31 --message-level 0 "$raw" "$d.dump" || return 1
	mnt_up "$d" "$d.dump" || return 1
	$PY "$top/tests/tools/uts_release.py" "$d/vmcore" --arch aarch64 --drgn
}

# t_mount_carried SUBDIR NAME ARCH: a zstd kdump of a carried vmcore of
# another architecture (tests/data/SUBDIR/NAME.vmcore.zst), mounted: its
# vmcore has the memory runs at their linear-map vaddrs (and riscv64 a
# kernel-image load), so a reader with no page-table walker of its own
# finds a kernel address in the PT_LOADs: drgn (and, for ppc64,
# libkdumpfile through the page tables) reads init_uts_ns there
# (uts_release.py).
t_mount_carried() {
	local sub=$1 name=$2 arch=$3 raw d=$work/out/mnt
	. "$top/tests/suites/lib/carried.sh"
	raw=$(carried_input "$sub" "$name") || { echo "$raw"; return 1; }
	vmsift -z -d 31 --message-level 0 "$raw" "$d.dump" || return 1
	mnt_up "$d" "$d.dump" || return 1
	readelf -lW "$d/vmcore" | grep -E '^ +LOAD' | head -3
	case $arch in
	riscv64) $PY "$top/tests/tools/uts_release.py" "$d/vmcore" --drgn-only ;;
	*) $PY "$top/tests/tools/uts_release.py" "$d/vmcore" --arch "$arch" --drgn ;;
	esac
}

# The carried vmcore (listed first) gets every test; the fixtures, when
# present, the zstd kdump and the ELF ones.  Without FUSE (no /dev/fuse,
# no fusermount3: a container) only vmsift cat runs, and the log says so.
mount_first=1
if [ ! -c /dev/fuse ] || ! command -v fusermount3 >/dev/null; then
	log "# skipped: vmsift mount tests (no /dev/fuse or fusermount3 here)"
	if [ ${#vmcores[@]} -gt 0 ]; then
		run_test "cat $(basename "${vmcores[0]}" .vmcore) --pfn --phys --virt --zeros" t_cat "${vmcores[0]}"
		run_test "cat $(basename "${vmcores[0]}" .vmcore) read options: --identity, --cache-size as mount's; bad ones refused" \
			t_cat_options "${vmcores[0]}"
	fi
	vmcores_mount=()
else
	vmcores_mount=("${vmcores[@]}")
fi
for in in "${vmcores_mount[@]}"; do
	name=$(basename "$in" .vmcore)
	run_test "mount $name kdump zstd: every page the source's or zeros" \
		t_mount_kdump "$in" -z zstd
	run_test "mount $name ELF: the file's bytes, vmsift -E's program headers" t_mount_elf "$in"
	if [ $mount_first = 1 ]; then
		mount_first=0
		for flag in -c -l -p; do
			codec=$(case $flag in -c) echo zlib;; -l) echo lzo;; -p) echo snappy;; esac)
			run_test "mount $name kdump $codec: every page the source's or zeros" \
				t_mount_kdump "$in" "$flag" "$codec"
		done
		run_test "mount $name split set of 3: every page the source's or zeros" t_mount_split "$in"
		run_test "mount $name flattened: every page the source's or zeros" t_mount_flat "$in"
		run_test "mount $name encrypted (age) with --identity: every page the source's or zeros" \
			t_mount_age "$in"
		run_test "mount $name damaged page: EIO, pfn logged, mount lives" t_mount_damaged "$in"
		run_test "mount $name split set missing a part: refused, gap named" t_mount_missing_part "$in"
		run_test "mount $name reader killed mid-read: mount serves on" t_mount_killed_reader "$in"
		run_test "cat $name --pfn --phys --virt --zeros" t_cat "$in"
		run_test "cat $name read options: --identity, --cache-size as mount's; bad ones refused" \
			t_cat_options "$in"
		run_test "mount $name read options: bad --num-threads, --cache-size mount nothing; good ones serve" \
			t_mount_options "$in"
		[ -f "$top/tests/data/arm64/kdump-arm64-384M.vmcore.zst" ] &&
			run_test "mount kdump-arm64-384M kdump zstd: drgn and libkdumpfile read init_uts_ns" t_mount_arm64
		[ -f "$top/tests/data/ppc64le/kdump-ppc64le-radix-768M.vmcore.zst" ] &&
			run_test "mount kdump-ppc64le-radix-768M kdump zstd: linear-map vaddrs, drgn and libkdumpfile read init_uts_ns" \
				t_mount_carried ppc64le kdump-ppc64le-radix-768M ppc64
		[ -f "$top/tests/data/riscv64/snapshot-riscv64-256M.vmcore.zst" ] &&
			run_test "mount snapshot-riscv64-256M kdump zstd: kernel-image and linear-map vaddrs, drgn reads init_uts_ns" \
				t_mount_carried riscv64 snapshot-riscv64-256M riscv64
		vmlinux=$(dbg_vmlinux "$in")
		if [ -n "$vmlinux" ]; then
			run_test "mount $name: drgn reads the kernel and its tasks" t_mount_drgn "$in" "$vmlinux"
			# crash, two sessions on the 860 MB vmlinux: VMSIFT_MOUNT_FULL=1
			if [ "${VMSIFT_MOUNT_FULL:-0}" = 1 ]; then
				run_test "mount $name: crash sys, log, bt -a, kmem -i as on the source" \
					t_mount_crash "$in" "$vmlinux"
			else
				log "# skipped: crash on the mount (VMSIFT_MOUNT_FULL=1 runs it)"
			fi
		else
			log "# skipped: drgn and crash on the mount (no -dbg vmlinux cached; VMSIFT_MOUNT_FULL=1 fetches it)"
		fi
	fi
	[ "${VMSIFT_QUICK:-0}" = 1 ] && break
done
