# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/distro.sh - the distributions' kdump scripts' own command
# lines, run against vmsift on the real vmcores, the way the scripts run
# them (doc/dropin.md has the script text this follows):
#
#   Debian/Ubuntu kdump-tools (kdump-config savecore): first
#     makedumpfile --dump-dmesg /proc/vmcore $dir/dmesg.$stamp
#   then, with MAKEDUMP_ARGS (default "-F -c -d 31"; -F appended when
#   missing), to a file, over ssh or ftp, always flattened:
#     timeout 3600 makedumpfile $MAKEDUMP_ARGS /proc/vmcore | compress > $dir/dump-incomplete
#   Fedora/RHEL kdump-utils (99kdumpbase/kdump.sh dump_fs): core_collector
#   "makedumpfile -l --message-level 7 -d 31", -F stripped, and
#   "--num-threads=$(nproc)" appended when more than one CPU:
#     $CORE_COLLECTOR /proc/vmcore $dir/vmcore-incomplete
#   and, to ssh or a raw disk, the same with -F into a pipe.
#   SUSE kdump: makedumpfile -F with the KDUMP_DUMPFORMAT codec and
#   --num-threads KDUMP_CPUS, stored flattened.
#
# None of these scripts reads makedumpfile's messages: they act on its
# exit status alone (and Debian greps the saved dmesg for fatal hardware
# errors).  So each case checks exit status 0, that the output reads back
# page for page through libkdumpfile (tests/tools/vmcheck.py; flattened
# output rebuilt with -R first), that a flattened stdout holds nothing but
# the stream, and that vmsift's own closing lines are there at message
# level 7.  Sourced by tests/run.

distro_dir=$work/distro

# d_pages VMCORE DUMP: libkdumpfile reads every kept page equal to VMCORE.
d_pages() {
	$check pages "$1" "$2"
}

# d_flat_pages VMCORE STREAM: rebuild a flattened STREAM, then d_pages.
d_flat_pages() {
	local in=$1 stream=$2
	rm -f "$stream.rebuilt"
	vmsift -R "$stream.rebuilt" < "$stream" || { echo "-R failed"; return 1; }
	d_pages "$in" "$stream.rebuilt"
}

# --- Debian / Ubuntu kdump-tools ---------------------------------------

# kdump-config's dump_dmesg, then its hardware-error grep on the file.
t_debian_dmesg() {
	local in=$1 d=$distro_dir/debian-dmesg-$(basename "$1") rc
	rm -rf "$d" && mkdir -p "$d"
	vmsift --dump-dmesg "$in" "$d/dmesg.202601011200"
	rc=$?
	[ $rc -eq 0 ] || { echo "exit status $rc"; return 1; }
	[ -s "$d/dmesg.202601011200" ] || { echo "empty dmesg file"; return 1; }
	grep -q '^\[ *[0-9]*\.[0-9]\{6\}\] Linux version ' "$d/dmesg.202601011200" ||
		{ echo "no '[ 0.000000] Linux version' line"; head -3 "$d/dmesg.202601011200"; return 1; }
	# kdump-config skips the vmcore when this grep matches: it must run
	# on a readable text file (status 0 or 1, never 2).
	grep -e "Fatal hardware error" -e "Fatal machine check" \
	     -e "\[Hardware Error\]: event severity: fatal" "$d/dmesg.202601011200" >/dev/null
	[ $? -le 1 ] || { echo "grep could not read the dmesg file"; return 1; }
}

# kdump_save_core: MAKEDUMP_ARGS, flattened to a file through
# compress() (cat without KDUMP_COMPRESSION), then mv into place.
# ARGS: the MAKEDUMP_ARGS words.
t_debian_file() {
	local in=$1; shift
	local d=$distro_dir/debian-file-$(basename "$in") st
	rm -rf "$d" && mkdir -p "$d"
	timeout 3600 vmsift "$@" "$in" 2>"$d/stderr" | cat > "$d/dump-incomplete"
	st=("${PIPESTATUS[@]}")
	[ "${st[0]}" -eq 0 ] || { echo "vmsift exit status ${st[0]}"; cat "$d/stderr"; return 1; }
	mv "$d/dump-incomplete" "$d/dump.202601011200" || return 1
	head -c 16 "$d/dump.202601011200" | grep -q "makedumpfile" ||
		{ echo "the file is not a flattened stream"; return 1; }
	grep -q "vmsift Completed." "$d/stderr" || { echo "no 'vmsift Completed.' on stderr"; cat "$d/stderr"; return 1; }
	d_flat_pages "$in" "$d/dump.202601011200"
}

# kdump-config appends -F when MAKEDUMP_ARGS lacks it: "-c -d 31 -F"
# must give the very stream "-F -c -d 31" gives.
t_debian_order() {
	local in=$1 d=$distro_dir/debian-order-$(basename "$1")
	rm -rf "$d" && mkdir -p "$d"
	vmsift -F -c -d 31 --message-level 0 "$in" > "$d/a" || return 1
	vmsift -c -d 31 -F --message-level 0 "$in" > "$d/b" || return 1
	cmp "$d/a" "$d/b"
}

# KDUMP_COMPRESSION=gzip: the flattened stream through gzip -c.
t_debian_gzip() {
	local in=$1 d=$distro_dir/debian-gzip-$(basename "$1") st
	rm -rf "$d" && mkdir -p "$d"
	vmsift -F -c -d 31 --message-level 0 "$in" | gzip -c > "$d/dump.gz"
	st=("${PIPESTATUS[@]}")
	[ "${st[0]}" -eq 0 ] && [ "${st[1]}" -eq 0 ] || { echo "pipeline status ${st[*]}"; return 1; }
	gzip -dc "$d/dump.gz" > "$d/dump" || return 1
	d_flat_pages "$in" "$d/dump"
}

# The ssh target: the stream into a pipe, rebuilt on the other side
# (the README's "| ssh host vmsift -R").
t_debian_pipe() {
	local in=$1 d=$distro_dir/debian-pipe-$(basename "$1") st
	rm -rf "$d" && mkdir -p "$d"
	vmsift -F -c -d 31 "$in" 2>"$d/stderr" | vmsift -R "$d/dump"
	st=("${PIPESTATUS[@]}")
	[ "${st[0]}" -eq 0 ] && [ "${st[1]}" -eq 0 ] || { echo "pipeline status ${st[*]}"; cat "$d/stderr"; return 1; }
	d_pages "$in" "$d/dump"
}

# Without -F (a user running the same options by hand).
t_debian_direct() {
	local in=$1 d=$distro_dir/debian-direct-$(basename "$1")
	rm -rf "$d" && mkdir -p "$d"
	vmsift -c -d 31 "$in" "$d/dump" > "$d/stdout" || return 1
	grep -q "The dumpfile is saved to $d/dump." "$d/stdout" || { cat "$d/stdout"; return 1; }
	d_pages "$in" "$d/dump"
}

# --- Fedora / RHEL kdump-utils -------------------------------------------

# dump_fs: "$CORE_COLLECTOR /proc/vmcore $dir/vmcore-incomplete", exit
# status checked, then mv to vmcore.  ARGS: extra words (the threads).
t_fedora_fs() {
	local in=$1; shift
	local d=$distro_dir/fedora-fs-$(basename "$in") rc
	rm -rf "$d" && mkdir -p "$d"
	vmsift -l --message-level 7 -d 31 "$@" "$in" "$d/vmcore-incomplete" > "$d/out" 2>&1
	rc=$?
	[ $rc -eq 0 ] || { echo "saving vmcore failed, exitcode:$rc"; cat "$d/out"; return 1; }
	mv "$d/vmcore-incomplete" "$d/vmcore" || return 1
	grep -q "The dumpfile is saved to $d/vmcore-incomplete." "$d/out" &&
		grep -q "vmsift Completed." "$d/out" || { cat "$d/out"; return 1; }
	$check header "$d/vmcore" | grep -q '^status=2$' ||
		{ echo "header status is not lzo, complete"; $check header "$d/vmcore"; return 1; }
	d_pages "$in" "$d/vmcore"
}

# dump_ssh: "$CORE_COLLECTOR /proc/vmcore | ssh ... dd of=vmcore-incomplete"
# with -F; the remote file becomes vmcore.flat.
t_fedora_ssh() {
	local in=$1 d=$distro_dir/fedora-ssh-$(basename "$1") st
	rm -rf "$d" && mkdir -p "$d"
	set -o pipefail
	vmsift -l --message-level 7 -d 31 -F "$in" 2>"$d/stderr" | dd bs=512 of="$d/vmcore-incomplete" 2>/dev/null
	st=$?
	set +o pipefail
	[ $st -eq 0 ] || { echo "saving vmcore failed, exitcode:$st"; cat "$d/stderr"; return 1; }
	mv "$d/vmcore-incomplete" "$d/vmcore.flat" || return 1
	d_flat_pages "$in" "$d/vmcore.flat"
}

# --- SUSE kdump -----------------------------------------------------------

# KDUMP_DUMPFORMAT=zstd, KDUMP_CPUS=2: flattened, as kdump-save stores it.
t_suse_flat() {
	local in=$1 d=$distro_dir/suse-$(basename "$1") st
	rm -rf "$d" && mkdir -p "$d"
	vmsift -F -z -d 31 --num-threads 2 "$in" 2>"$d/stderr" > "$d/vmcore"
	st=$?
	[ $st -eq 0 ] || { echo "exit status $st"; cat "$d/stderr"; return 1; }
	d_flat_pages "$in" "$d/vmcore"
}

# The same options to a file directly.
t_suse_direct() {
	local in=$1 d=$distro_dir/suse-direct-$(basename "$1")
	rm -rf "$d" && mkdir -p "$d"
	vmsift -z -d 31 --num-threads 2 --message-level 7 "$in" "$d/vmcore" >/dev/null || return 1
	$check header "$d/vmcore" | grep -q '^status=32$' ||
		{ echo "header status is not zstd, complete"; $check header "$d/vmcore"; return 1; }
	d_pages "$in" "$d/vmcore"
}

# KDUMP_DUMPFORMAT=ELF: -E with the flattened stream.
t_suse_elf() {
	local in=$1 d=$distro_dir/suse-elf-$(basename "$1") ref
	rm -rf "$d" && mkdir -p "$d"
	vmsift -F -E -d 31 --num-threads 2 --message-level 0 "$in" > "$d/vmcore" || return 1
	vmsift -R "$d/vmcore.elf" < "$d/vmcore" || return 1
	ref=$(reference 31 "$in") || { echo "makedumpfile failed"; return 1; }
	$check elf "$in" "$d/vmcore.elf" 31 "$ref"
}

distro_nproc=$(nproc)
[ "$distro_nproc" -gt 1 ] || distro_nproc=2
for in in "${vmcores_each[@]}"; do
	dname=$(basename "$in" .vmcore)
	run_test "distro debian $dname: --dump-dmesg VMCORE dmesg.STAMP" t_debian_dmesg "$in"
	run_test "distro debian $dname: MAKEDUMP_ARGS=\"-F -c -d 31\" | cat > dump" t_debian_file "$in" -F -c -d 31
	run_test "distro debian $dname: MAKEDUMP_ARGS=\"-c -d 31\" + appended -F" t_debian_file "$in" -c -d 31 -F
	run_test "distro debian $dname: -c -d 31 -F equals -F -c -d 31" t_debian_order "$in"
	run_test "distro debian $dname: KDUMP_COMPRESSION=gzip" t_debian_gzip "$in"
	run_test "distro debian $dname: -F -c -d 31 | vmsift -R" t_debian_pipe "$in"
	run_test "distro debian $dname: -c -d 31 VMCORE dump" t_debian_direct "$in"
	run_test "distro fedora $dname: -l --message-level 7 -d 31 (one CPU: no --num-threads)" t_fedora_fs "$in"
	run_test "distro fedora $dname: ... --num-threads=$distro_nproc" t_fedora_fs "$in" "--num-threads=$distro_nproc"
	run_test "distro fedora $dname: ssh target, -F | dd" t_fedora_ssh "$in"
	run_test "distro suse $dname: -F -z -d 31 --num-threads 2" t_suse_flat "$in"
	run_test "distro suse $dname: -z -d 31 --num-threads 2 VMCORE vmcore" t_suse_direct "$in"
	run_test "distro suse $dname: KDUMP_DUMPFORMAT=ELF -F -E" t_suse_elf "$in"
done
