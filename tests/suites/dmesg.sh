# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/dmesg.sh - --dump-dmesg [--partial-dmesg]: the log file is
# byte-identical to Debian makedumpfile 1.7.2's on every real vmcore (the
# 5.10+ lockless ringbuffer) and on synthetic vmcores in the 3.5-5.9 record
# and pre-3.5 plain layouts (tests/dmesg/mkdmesg.py); a corrupt log fails
# with exit status 1 and a message naming what was wrong, in bounded time,
# leaving no log file.  Sourced by tests/run.

dm_dir=$work/dmesg
rm -rf "$dm_dir"
mkdir -p "$dm_dir"
dm_gen="$PY $top/tests/dmesg/mkdmesg.py"
dm_corrupt="$PY $top/tests/dmesg/corrupt.py"

# dm_ref IN OUT [--partial-dmesg]: makedumpfile's log of IN, made with a
# time and size limit (it loops forever on some corrupt logs).
dm_ref() {
	local in=$1 out=$2 mdin; shift 2
	rm -f "$out"
	mdin=$(makedumpfile_input "$in") || return 1
	(ulimit -f 200000; timeout 60 makedumpfile --dump-dmesg "$@" \
		"$mdin" "$out" >/dev/null 2>&1) ||
		{ echo "makedumpfile failed on $mdin"; return 1; }
}

# t_dmesg_same IN [--partial-dmesg]: vmsift's log equals makedumpfile's.
t_dmesg_same() {
	local in=$1 base; shift
	base=$dm_dir/$(basename "$in")${1:-}
	dm_ref "$in" "$base.ref" "$@" || return 1
	rm -f "$base.out"
	timeout 60 vmsift --dump-dmesg "$@" --message-level 0 "$in" "$base.out" ||
		return 1
	[ -s "$base.ref" ] || { echo "makedumpfile wrote an empty log"; return 1; }
	cmp "$base.ref" "$base.out"
}

# t_dmesg_fails IN FRAGMENT: exit 1 within 20 s, a message holding
# FRAGMENT, no log file left.
t_dmesg_fails() {
	local in=$1 out=$dm_dir/fail.out msg rc
	rm -f "$out"
	msg=$(timeout 20 vmsift --dump-dmesg --message-level 4 "$in" "$out" 2>&1)
	rc=$?
	echo "$msg"
	[ $rc -eq 1 ] || { echo "exit status $rc, expected 1"; return 1; }
	[[ $msg == *"$2"* ]] || { echo "message lacks '$2'"; return 1; }
	[ ! -e "$out" ] || { echo "a log file was left behind"; return 1; }
}

# t_dmesg_cleared COPY: after a "dmesg --clear" at seq 300 (clear_seq
# written into the copy), --partial-dmesg keeps only the later records,
# as makedumpfile does; without it, all of them.
t_dmesg_cleared() {
	local copy=$1 saved=$dm_dir/saved.clear rc=0
	$dm_corrupt "$copy" clear_seq 300 > "$saved" || return 1
	t_dmesg_same "$copy" --partial-dmesg || rc=1
	t_dmesg_same "$copy" || rc=1
	$dm_corrupt "$copy" restore < "$saved"
	[ "$(wc -l < "$dm_dir/$(basename "$copy")--partial-dmesg.out")" -lt \
	  "$(wc -l < "$dm_dir/$(basename "$copy").out")" ] ||
		{ echo "--partial-dmesg kept every record"; rc=1; }
	return $rc
}

# t_dmesg_corrupt COPY FIELD VALUE FRAGMENT: one field of the copy's
# ringbuffer overwritten, vmsift fails cleanly; the copy is put back.
t_dmesg_corrupt() {
	local copy=$1 saved=$dm_dir/saved.$2 rc
	$dm_corrupt "$copy" "$2" "$3" > "$saved" || return 1
	t_dmesg_fails "$copy" "$4"
	rc=$?
	$dm_corrupt "$copy" restore < "$saved"
	return $rc
}

# The options: --partial-dmesg needs --dump-dmesg; LOGFILE is created
# like a dump file (never over an existing one without -f).
t_dmesg_options() {
	local in=$1 d=$dm_dir/opts
	rm -rf "$d" && mkdir -p "$d"
	vmsift --partial-dmesg "$in" "$d/log" 2>&1 | grep -q "requires --dump-dmesg" ||
		return 1
	[ ! -e "$d/log" ] || return 1
	vmsift --dump-dmesg --message-level 0 "$in" "$d/log" || return 1
	[ "$(stat -c %a "$d/log")" = 600 ] || { echo "mode is not 0600"; return 1; }
	echo precious > "$d/existing"
	vmsift --dump-dmesg "$in" "$d/existing" 2>/dev/null && { echo clobbered; return 1; }
	[ "$(cat "$d/existing")" = precious ] || return 1
	vmsift -f --dump-dmesg --message-level 0 "$in" "$d/existing" || return 1
	cmp "$d/log" "$d/existing"
}

run_dmesg_tests() {
	local in name kind copy
	for in in "${vmcores[@]}"; do
		name=$(basename "$in" .vmcore)
		run_test "dmesg $name equals makedumpfile" t_dmesg_same "$in"
		run_test "dmesg $name --partial-dmesg equals makedumpfile" \
			t_dmesg_same "$in" --partial-dmesg
	done
	for kind in records records-log records-wrap plain plain-wrap plain-2.6.24; do
		$dm_gen "$kind" "$dm_dir/$kind.vmcore" || continue
		run_test "dmesg synthetic $kind equals makedumpfile" \
			t_dmesg_same "$dm_dir/$kind.vmcore"
		run_test "dmesg synthetic $kind --partial-dmesg equals makedumpfile" \
			t_dmesg_same "$dm_dir/$kind.vmcore" --partial-dmesg
	done
	run_test "dmesg corrupt records: a loop" t_dmesg_fails \
		"$($dm_gen records-loop "$dm_dir/loop.vmcore" && echo "$dm_dir/loop.vmcore")" \
		"do not reach log_next_idx"
	run_test "dmesg corrupt records: text_len past log_buf" t_dmesg_fails \
		"$($dm_gen records-overrun "$dm_dir/over.vmcore" && echo "$dm_dir/over.vmcore")" \
		"runs past the end of log_buf"
	run_test "dmesg corrupt records: log_first_idx outside log_buf" t_dmesg_fails \
		"$($dm_gen records-badidx "$dm_dir/badidx.vmcore" && echo "$dm_dir/badidx.vmcore")" \
		"lies outside the 8192-byte log_buf"
	[ ${#vmcores[@]} -gt 0 ] || return 0
	run_test "dmesg options: --partial-dmesg alone, 0600, O_EXCL, -f" \
		t_dmesg_options "${vmcores[0]}"
	# One writable copy of a real vmcore; each case patches it and puts
	# the bytes back.
	copy=$dm_dir/ring.vmcore
	if ! cp --reflink=auto "${vmcores[0]}" "$copy" || ! chmod u+w "$copy"; then
		run_test "dmesg ring tests: a writable copy of the vmcore" false
		return 0
	fi
	run_test "dmesg --partial-dmesg after a clear at seq 300 equals makedumpfile" \
		t_dmesg_cleared "$copy"
	run_test "dmesg corrupt ring: count_bits 200" t_dmesg_corrupt "$copy" \
		count_bits 200 "implausible descriptor count"
	run_test "dmesg corrupt ring: count_bits 2" t_dmesg_corrupt "$copy" \
		count_bits 2 "is not within 4 descriptors"
	run_test "dmesg corrupt ring: head_id far from tail_id" t_dmesg_corrupt \
		"$copy" head_id 0x10000000000 "head id 0x10000000000"
	run_test "dmesg corrupt ring: size_bits 40" t_dmesg_corrupt "$copy" \
		size_bits 40 "implausible text ring size"
	run_test "dmesg corrupt ring: descs unmapped" t_dmesg_corrupt "$copy" \
		descs 0x1000 "cannot read the descriptor"
	run_test "dmesg corrupt ring: text block past the ring's end" \
		t_dmesg_corrupt "$copy" lpos -10,-9 "runs past the end of the text ring"
	rm -f "$copy"
}
run_dmesg_tests
