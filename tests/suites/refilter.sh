# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/refilter.sh - a kdump-compressed dump as input: written
# again at a higher level or with another codec, equal to filtering the
# original; damaged kdump inputs refused with a message naming the page.
# Sourced by tests/run.

# t_refilter INPUT: vmsift -l -d 1, then that re-filtered to -z -d 31,
# equals makedumpfile -d 31 on the original, page for page.
t_refilter() {
	local in=$1 base=$work/out/$(basename "$1").refilter ref
	rm -f "$base".*
	vmsift -l -d 1 --message-level 0 "$in" "$base.d1" || return 1
	vmsift -z -d 31 --message-level 0 "$base.d1" "$base.d31" || return 1
	$check header "$base.d31" | grep -qx 'dump_level=31' || { echo "dump level not recorded"; return 1; }
	ref=$(reference 31 "$in") || { echo "makedumpfile failed"; return 1; }
	$check bitmaps "$base.d31" "$ref" "$in" && $check pages "$in" "$base.d31"
}

# t_refilter_cpus INPUT: a re-filtered dump says it has as many CPUs as
# the dump it was made from (their count taken from the notes once).
t_refilter_cpus() {
	local in=$1 base=$work/out/$(basename "$1").refcpus a b
	rm -f "$base".*
	vmsift -c -d 1 --message-level 0 "$in" "$base.d1" || return 1
	vmsift -l -d 31 --message-level 0 "$base.d1" "$base.d31" || return 1
	a=$($check header "$base.d1" | grep '^nr_cpus=') || return 1
	b=$($check header "$base.d31" | grep '^nr_cpus=') || return 1
	echo "original $a, re-filtered $b"
	[ "$a" = "$b" ]
}

# t_read_pages INPUT: the input side's page reader (tests/unit/input_read,
# one side opened by descriptor) says the same of every page of INPUT,
# of its -d 0 kdump dump and of that dump's flattened stream; a -d 31
# dump holds a subset, equal byte for byte, and excludes pages.
t_read_pages() {
	local in=$1 base=$work/out/$(basename "$1").readpages out
	rm -f "$base".*
	make -s -C "$top/tests/unit" >/dev/null || return 1
	vmsift -c -d 0 --message-level 0 "$in" "$base.d0" || return 1
	vmsift -F -l -d 0 --message-level 0 "$in" > "$base.d0.flat" || return 1
	vmsift -z -d 31 --message-level 0 "$in" "$base.d31" || return 1
	"$top/tests/unit/input_read" "$in" "$base.d0" || return 1
	"$top/tests/unit/input_read" "$base.d0" "$base.d0.flat" || return 1
	out=$("$top/tests/unit/input_read" -s "$in" "$base.d31") || return 1
	echo "$out"
	[[ $out =~ B:\ [0-9]+\ absent,\ [1-9][0-9]*\ excluded ]] || { echo "-d 31 excluded nothing"; return 1; }
}

# t_refilter_mdf INPUT: makedumpfile's own -c -d 1 dump, re-filtered by
# vmsift and by makedumpfile at -d 31: the same bitmaps; every page equal
# to the original input's.
t_refilter_mdf() {
	local in=$1 base=$work/out/$(basename "$1").refmdf
	rm -f "$base".*
	makedumpfile -c -d 1 "$(makedumpfile_input "$in")" "$base.mdf1" >/dev/null 2>&1 || return 1
	makedumpfile -l -d 31 "$base.mdf1" "$base.mdf31" >/dev/null 2>&1 || return 1
	vmsift -p -d 31 --num-threads 2 --message-level 0 "$base.mdf1" "$base.vs31" || return 1
	$check bitmaps "$base.vs31" "$base.mdf31" "$in" && $check pages "$in" "$base.vs31"
}

for in in "${vmcores_each[@]}"; do
	name=$(basename "$in" .vmcore)
	run_test "refilter $name: vmsift -d 1 to -d 31 equals makedumpfile -d 31" t_refilter "$in"
	run_test "refilter $name: makedumpfile's dump re-filtered equals makedumpfile's" t_refilter_mdf "$in"
	run_test "refilter $name: nr_cpus of the re-filtered dump equals the original's" t_refilter_cpus "$in"
	run_test "read pages $name: ELF, kdump and flattened inputs (one by descriptor) agree page by page" t_read_pages "$in"
done

# Damaged kdump inputs: a descriptor pointing outside the file, one with
# unknown flags, a bitmap claiming more pages than descriptors.
t_bad_kdump() {
	local what=$1 src=$work/bad/good.vmcore d=$work/badkdump msg rc hdr
	mkdir -p "$d" && rm -f "$d/$what".*
	vmsift -c -d 0 --message-level 0 "$src" "$d/$what.kdump" || return 1
	$PY - "$d/$what.kdump" "$what" <<'PY' || return 1
import struct, sys
path, what = sys.argv[1], sys.argv[2]
b = bytearray(open(path, 'rb').read())
bs, sub = struct.unpack_from('<ii', b, 428)
bmblocks, = struct.unpack_from('<I', b, 436)
desc = (1 + sub) * bs + bmblocks * bs
if what == 'desc-outside':
    struct.pack_into('<q', b, desc + 24 * 3, len(b) + 12345)
elif what == 'desc-flags':
    struct.pack_into('<I', b, desc + 24 * 3 + 12, 0x40)
elif what == 'bitmap-overclaims':
    half = bmblocks * bs // 2
    b[(1 + sub) * bs + half:(1 + sub) * bs + 2 * half] = b'\xff' * half
    b = b[:desc + 24 * 4]
elif what == 'truncated-header':
    b = b[:300]
open(path, 'wb').write(b)
PY
	msg=$(timeout 20 vmsift -l -d 1 --message-level 4 "$d/$what.kdump" "$d/$what.out" 2>&1)
	rc=$?
	echo "$msg"
	[ $rc -eq 1 ] || { echo "exit status $rc"; return 1; }
	[[ $msg == *"$d/$what.kdump"* ]] || { echo "message does not name the file"; return 1; }
	case $what in
	desc-*) [[ $msg == *"pfn 0x"* ]] || { echo "message does not name the page"; return 1; } ;;
	*) [[ $msg == *"offset"* ]] || { echo "message does not name the offset"; return 1; } ;;
	esac
	# No output, or one that reads as a kdump dump marked incomplete (an
	# unreadable one fails too).
	[ -e "$d/$what.out" ] || return 0
	hdr=$($check header "$d/$what.out") || { echo "the output left is unreadable"; return 1; }
	grep -Eq '^status=(8|10|12|40)$' <<<"$hdr" || { echo "output left looking complete"; echo "$hdr"; return 1; }
}
for what in desc-outside desc-flags bitmap-overclaims truncated-header; do
	run_test "bad kdump input: $what" t_bad_kdump "$what"
done

# t_flat_input INPUT: flattened files read directly, without -R: vmsift's
# and makedumpfile's kdump streams and vmsift's ELF stream, filtered to
# -d 31, equal makedumpfile -d 31 on the original.
t_flat_input() {
	local in=$1 base=$work/out/$(basename "$1").flatin ref
	rm -f "$base".*
	ref=$(reference 31 "$in") || { echo "makedumpfile failed"; return 1; }
	vmsift -F -l -d 1 --message-level 0 "$in" > "$base.vs.flat" || return 1
	makedumpfile -F -c -d 1 "$(makedumpfile_input "$in")" > "$base.mdf.flat" 2>/dev/null || return 1
	vmsift -F -E -d 0 --message-level 0 "$in" > "$base.elf.flat" || return 1
	for f in vs mdf elf; do
		vmsift -z -d 31 --message-level 0 "$base.$f.flat" "$base.$f.d31" || return 1
		$check bitmaps "$base.$f.d31" "$ref" "$in" || return 1
		$check pages "$in" "$base.$f.d31" || return 1
	done
}

# The flattened extent map and record parser (lib/flat.c) against a
# model: random overlapping records, every read equal to what -R would
# have written; records ending past INT64_MAX refused.
t_flat_map() {
	make -s -C "$top/tests/unit" >/dev/null || return 1
	"$top/tests/unit/flat_map" 1 && "$top/tests/unit/flat_map" 2
}
run_test "flattened extent map: random records read as -R writes them, bad records refused" t_flat_map

# A flattened input cut short is refused, naming where it stops.
t_flat_input_cut() {
	local in=$1 base=$work/out/$(basename "$1").flatcut msg
	rm -f "$base".*
	vmsift -F -l -d 31 --message-level 0 "$in" > "$base.flat" || return 1
	head -c $(( $(stat -c %s "$base.flat") / 2 )) "$base.flat" > "$base.cut"
	msg=$(vmsift -l -d 31 "$base.cut" "$base.out" 2>&1) && { echo "accepted"; return 1; }
	echo "$msg"
	[[ $msg == *"without its end marker"* || $msg == *"bad record"* ]] && [ ! -e "$base.out" ]
}

for in in "${vmcores_each[@]}"; do
	name=$(basename "$in" .vmcore)
	run_test "flattened input $name: vmsift's, makedumpfile's and ELF streams read directly" t_flat_input "$in"
	run_test "flattened input $name: a cut stream refused" t_flat_input_cut "$in"
done

# t_vmcoreinfo_file INPUT: a vmcore whose VMCOREINFO note is hidden
# dumps at -d 31 with -i taking VMCOREINFO from a text file (as
# makedumpfile -g writes one), bitmaps equal to makedumpfile's; without -i
# it is refused, naming what is missing.
t_vmcoreinfo_file() {
	local in=$1 d=$work/out/vmcoreinfo ref msg
	mkdir -p "$d"
	$PY - "$in" "$d/hidden.vmcore" "$d/vmcoreinfo.txt" <<'PY' || return 1
import mmap, shutil, subprocess, sys
src, dst, txt = sys.argv[1:]
subprocess.run(['cp', '--sparse=always', src, dst], check=True)
with open(dst, 'r+b') as f:
    m = mmap.mmap(f.fileno(), 0)
    at = m.find(b'VMCOREINFO\0', 0, 1 << 24)
    if at < 0:
        sys.exit('no VMCOREINFO note')
    text_at = m.find(b'OSRELEASE=', at)
    end = m.find(b'\0', text_at)
    open(txt, 'wb').write(m[text_at:end])
    m[at:at + 11] = b'VMCOREINFX\0'
    m.close()
PY
	msg=$(vmsift -l -d 31 "$d/hidden.vmcore" "$d/no-i" 2>&1) && { echo "dumped -d 31 without VMCOREINFO"; return 1; }
	[[ $msg == *VMCOREINFO* ]] || { echo "$msg"; return 1; }
	vmsift -l -d 31 -i "$d/vmcoreinfo.txt" --message-level 0 "$d/hidden.vmcore" "$d/with-i" || return 1
	ref=$(reference 31 "$in") || { echo "makedumpfile failed"; return 1; }
	$check bitmaps "$d/with-i" "$ref" "$in"
}
run_test "-i VMCOREINFO: a vmcore without its note filters from the text file" t_vmcoreinfo_file "${vmcores[0]}"

# t_page_size_of_dump INPUT: without VMCOREINFO the page size is the
# dumped machine's, never the host's: the same vmcore marked as ppc64
# (64 KiB pages) dumps in 64 KiB blocks, as x86_64 in 4 KiB ones.
t_page_size_of_dump() {
	local in=$1 d=$work/out/pagesize m bs
	mkdir -p "$d"
	for m in 62:4096 21:65536; do
		$PY - "$in" "$d/in.vmcore" "${m%%:*}" <<'PY' || return 1
import mmap, struct, subprocess, sys
src, dst, machine = sys.argv[1], sys.argv[2], int(sys.argv[3])
subprocess.run(['cp', '--sparse=always', src, dst], check=True)
with open(dst, 'r+b') as f:
    m = mmap.mmap(f.fileno(), 0)
    at = m.find(b'VMCOREINFO\0', 0, 1 << 24)
    if at < 0:
        sys.exit('no VMCOREINFO note')
    m[at:at + 11] = b'VMCOREINFX\0'
    m[18:20] = struct.pack('<H', machine)
    m.close()
PY
		rm -f "$d/out"
		vmsift -l -d 1 --message-level 0 "$d/in.vmcore" "$d/out" || return 1
		bs=$($check header "$d/out" | sed -n 's/^block_size=//p')
		[ "$bs" = "${m#*:}" ] || { echo "e_machine ${m%%:*}: block_size $bs, not ${m#*:}"; return 1; }
	done
}
run_test "page size: without VMCOREINFO, the dumped machine's (ppc64 64 KiB), not the host's" t_page_size_of_dump "${vmcores[0]}"

# t_dctx INPUT: reading every page of a zlib and of a zstd dump through
# one reader makes one decompression context, not one a page.
t_dctx() {
	local in=$1 d=$work/out/dctx flag
	mkdir -p "$d"
	make -s -C "$top/tests/unit" dctx_count >/dev/null || return 1
	for flag in -c -z; do
		rm -f "$d/dump$flag"
		vmsift $flag -d 1 --message-level 0 "$in" "$d/dump$flag" || return 1
		"$top/tests/unit/dctx_count" "$d/dump$flag" || return 1
	done
}
run_test "decompression: one context a reader, not one a page (zlib, zstd)" t_dctx "${vmcores[0]}"
