# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/bedump.sh - big-endian dumps: an s390x ELF vmcore
# (ELFDATA2MSB, EM_S390) is read, and written in the dumped machine's byte
# order, as makedumpfile running on s390x writes it: the kdump header,
# sub header and page descriptors big-endian, ELF output ELFDATA2MSB.
# libkdumpfile (an independent reader, which tells a diskdump file's byte
# order by itself) reads every output page by page equal to the input.
#
# The vmcore is tests/gen/mkvmcore.py's gen-6.1 image written with
# --elf-order big --elf-machine 22: a big-endian ELF container (header,
# program headers, notes) around memory that vmsift does not interpret at
# -d 0 and -d 1.  Its memory is an x86_64 kernel's, so s390x address
# translation (lib/arch_s390x.c; real s390x images: s390x_gen.sh) must
# refuse it at higher levels with a message naming the architecture.
# Sourced by tests/run.

bed_dir=$work/bedump
mkdir -p "$bed_dir"

# bed_input: the big-endian vmcore, made once (path on stdout).
bed_input() {
	local in=$bed_dir/s390x-gen-6.1.vmcore
	if [ ! -f "$in" ] || [ "$top/tests/gen/mkvmcore.py" -nt "$in" ]; then
		$PY "$top/tests/gen/mkvmcore.py" "$top/tests/gen/specs/gen-6.1.spec" "$in.tmp" \
			--elf-order big --elf-machine 22 >/dev/null || return 1
		mv "$in.tmp" "$in"
	fi
	echo "$in"
}

# bed_kdump_be DUMP: the kdump header is big-endian: header_version 6 at
# offset 8 reads 00 00 00 06, and libkdumpfile found big-endian.
bed_kdump_be() {
	local v
	v=$(od -An -tx1 -j 8 -N 4 "$1" | tr -d ' ')
	[ "$v" = 00000006 ] || { echo "header_version at offset 8 is $v, not big-endian 6"; return 1; }
}

# t_bedump_kdump FLAG LEVEL: a kdump-compressed dump of the big-endian
# vmcore: big-endian header, bitmaps and pages right (vmcheck pages,
# libkdumpfile), every page read back equal.
t_bedump_kdump() {
	local in out=$work/out/bedump r
	in=$(bed_input) || return 1
	rm -f "$out".*
	vmsift "$1" -d "$2" --message-level 0 "$in" "$out" || return 1
	bed_kdump_be "$out" || return 1
	$check header "$out" | grep -qx "dump_level=$2" || { echo "dump level not read back"; return 1; }
	# Two CORE/NT_PRSTATUS notes, their headers big-endian.
	$check header "$out" | grep -qx "nr_cpus=2" || { echo "nr_cpus is not 2"; return 1; }
	$check pages "$in" "$out" || return 1
	r=$($check readback "$in" "$out" "$2") || { echo "$r"; return 1; }
	echo "$r"
	[[ $r == *byte_order=big ]] || { echo "libkdumpfile did not find a big-endian dump"; return 1; }
}

# t_bedump_elf LEVEL: ELF output is ELFDATA2MSB, EM_S390, and every page
# equals the input's (vmcheck elf; libkdumpfile).
t_bedump_elf() {
	local in out=$work/out/bedump r hdr
	in=$(bed_input) || return 1
	rm -f "$out".*
	vmsift -E -d "$1" --message-level 0 "$in" "$out" || return 1
	hdr=$(readelf -h "$out") || return 1
	grep -Eq 'Data: +2.s complement, big endian' <<<"$hdr" &&
		grep -Eq 'Machine: +IBM S/390' <<<"$hdr" ||
		{ echo "not a big-endian s390x ELF:"; grep -E 'Data|Machine' <<<"$hdr"; return 1; }
	readelf -n "$out" | grep -q VMCOREINFO || { echo "readelf finds no VMCOREINFO note"; return 1; }
	$check elf "$in" "$out" "$1" || return 1
	r=$($check readback "$in" "$out" "$1") || { echo "$r"; return 1; }
	echo "$r"
	[[ $r == *byte_order=big ]] || { echo "libkdumpfile did not find a big-endian dump"; return 1; }
}

# t_bedump_refilter: a big-endian kdump file as input: -c -d 0 re-filtered
# to -z -d 1 is the file -z -d 1 of the ELF vmcore gives.
t_bedump_refilter() {
	local in out=$work/out/bedump
	in=$(bed_input) || return 1
	rm -f "$out".*
	vmsift -c -d 0 --message-level 0 "$in" "$out.d0" || return 1
	vmsift -z -d 1 --message-level 0 "$out.d0" "$out.re" || return 1
	vmsift -z -d 1 --message-level 0 "$in" "$out.direct" || return 1
	bed_kdump_be "$out.re" && $check pages "$in" "$out.re" || return 1
	cmp "$out.direct" "$out.re" || { echo "re-filtered differs from the direct dump"; return 1; }
}

# t_bedump_flat_split: -F | -R equals the direct file; --split into 2
# files, read as a set by libkdumpfile, reassembled equals the direct file.
t_bedump_flat_split() {
	local in out=$work/out/bedump
	in=$(bed_input) || return 1
	rm -f "$out".*
	vmsift -l -d 1 --message-level 0 "$in" "$out.direct" || return 1
	vmsift -F -l -d 1 --message-level 0 "$in" | vmsift -R "$out.rebuilt" >/dev/null || return 1
	cmp "$out.direct" "$out.rebuilt" || { echo "-F | -R differs from the direct dump"; return 1; }
	vmsift --split --splitblock-size 4096 -l -d 1 --message-level 0 "$in" "$out.s1" "$out.s2" || return 1
	bed_kdump_be "$out.s1" && bed_kdump_be "$out.s2" || return 1
	$check pages "$in" "$out.s1" "$out.s2" || return 1
	vmsift --reassemble "$out.s1" "$out.s2" "$out.joined" >/dev/null || return 1
	cmp "$out.direct" "$out.joined" || { echo "--reassemble differs from the direct dump"; return 1; }
}

# t_bedump_cut: a flattened stream cut short, rebuilt with -R: the kdump
# header's incomplete bit set in the big-endian status (vmcheck reads it
# in the header's order; libkdumpfile reads the pages left), the ELF's
# e_flags bit 0 in big-endian e_flags.
t_bedump_cut() {
	local in out=$work/out/bedump
	in=$(bed_input) || return 1
	rm -f "$out".*
	vmsift -F -l -d 1 --message-level 0 "$in" > "$out.flat" || return 1
	head -c 300000 "$out.flat" > "$out.cut"
	vmsift -R "$out.kd" < "$out.cut" >/dev/null 2>&1 && { echo "-R of a cut stream succeeded"; return 1; }
	bed_kdump_be "$out.kd" && $check incomplete "$in" "$out.kd" || return 1
	vmsift -F -E -d 1 --message-level 0 "$in" > "$out.eflat" || return 1
	head -c 300000 "$out.eflat" > "$out.cut"
	vmsift -R "$out.elf" < "$out.cut" >/dev/null 2>&1 && { echo "-R of a cut ELF stream succeeded"; return 1; }
	[ "$(od -An -tx1 -j 48 -N 4 "$out.elf" | tr -d ' ')" = 00000001 ] ||
		{ echo "e_flags is not big-endian 1"; od -An -tx1 -j 48 -N 4 "$out.elf"; return 1; }
}

# t_bedump_unsupported: -d 31 needs s390x address translation, which this
# x86_64 memory image cannot give: a clear failure naming the
# architecture and what it lacks, no dump left.
t_bedump_unsupported() {
	local in out=$work/out/bedump msg
	in=$(bed_input) || return 1
	rm -f "$out".*
	if msg=$(vmsift -l -d 31 "$in" "$out" 2>&1); then
		echo "-d 31 succeeded without address translation"; return 1
	fi
	echo "$msg"
	grep -q "s390x: SYMBOL(swapper_pg_dir)=.* is neither in the identity map" <<<"$msg" &&
		! ls "$out"* >/dev/null 2>&1
}

# t_bedump_wrong_order: an x86_64 vmcore in a big-endian container (no
# x86_64 kernel is big-endian): -d 1 needs no translation and dumps it,
# big-endian; -d 31 is refused, saying the x86_64 code reads
# little-endian dumps.
t_bedump_wrong_order() {
	local in=$bed_dir/x86-be.vmcore out=$work/out/bedump msg
	$PY "$top/tests/gen/mkvmcore.py" "$top/tests/gen/specs/gen-6.1.spec" "$in" \
		--elf-order big >/dev/null || return 1
	rm -f "$out".*
	vmsift -l -d 1 --message-level 0 "$in" "$out" || return 1
	bed_kdump_be "$out" && $check pages "$in" "$out" || return 1
	if msg=$(vmsift -l -d 31 "$in" "$out.d31" 2>&1); then
		echo "-d 31 of a big-endian x86_64 dump succeeded"; return 1
	fi
	echo "$msg"
	rm -f "$in" "$in.json"
	grep -q "the x86_64 code reads little-endian dumps; this one is big-endian" <<<"$msg"
}

for bed_level in 0 1; do
	run_test "bedump s390x: -l -d $bed_level kdump is big-endian, read back by libkdumpfile" t_bedump_kdump -l $bed_level
	run_test "bedump s390x: -E -d $bed_level is ELFDATA2MSB, read back by libkdumpfile" t_bedump_elf $bed_level
done
run_test "bedump s390x: -c -d 1 kdump is big-endian, read back by libkdumpfile" t_bedump_kdump -c 1
run_test "bedump s390x: -z -d 1 kdump is big-endian, read back by libkdumpfile" t_bedump_kdump -z 1
run_test "bedump s390x: -p -d 0 kdump is big-endian, read back by libkdumpfile" t_bedump_kdump -p 0
run_test "bedump s390x: a big-endian kdump file re-filtered equals the direct dump" t_bedump_refilter
run_test "bedump s390x: -F | -R and --split / --reassemble of a big-endian dump" t_bedump_flat_split
run_test "bedump s390x: a cut stream rebuilt is marked incomplete in big-endian" t_bedump_cut
run_test "bedump x86_64 in a big-endian container: -d 1 dumps, -d 31 refused naming the order" t_bedump_wrong_order
run_test "bedump s390x: -d 31 of an x86_64 image labelled s390x fails, naming the architecture" t_bedump_unsupported
