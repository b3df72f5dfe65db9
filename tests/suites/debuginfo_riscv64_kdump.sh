# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/debuginfo_riscv64_kdump.sh - -x VMLINUX on a real riscv64
# kdump without its VMCOREINFO note (issue 13; doc/debuginfo.md, "arm64
# and riscv64", lib/debuginfo_riscv64.c).  Sourced by tests/run.
#
# The carried tests/data/riscv64/kdump-riscv64-384M-d31.vmcore.zst is
# vmsift -E -d 31 of the /proc/vmcore of a real kdump of Debian trixie's
# 6.12 riscv64 kernel (Sv39) with the kernel's text, init and read-only
# data zeroed, its note kept (tests/data/README.md).  The note is the
# truth; the tests strip it (tests/tools/strip_vmcoreinfo.py) and take the
# -dbg vmlinux 6.12.117+deb13 (tests/harness/lib.sh fetch_dbg_vmlinux
# after set_arch riscv64; 1 GB, fetched once into $VMSIFT_CACHE;
# VMSIFT_NO_DBG=1 skips):
#   - -x gives the note's eleven riscv64 lines (phys_ram_base, PAGE_OFFSET,
#     VMALLOC_*, VA_BITS, VMEMMAP_*, MODULES_*, KERNEL_LINK_ADDR,
#     va_kernel_pa_offset) byte for byte (tests/unit/di_keys);
#   - -x -l -d 1 and -d 31: the note's bitmaps, and upstream makedumpfile's
#     with the note (the digests carried in $drk_name.expected), every page
#     read back;
#   - each cross-check refuses a copy with one kernel variable changed
#     (tests/tools/kva_patch.py at the address drgn gives): exit 1, the
#     message names the key, no file;
#   - a dump whose utsname says another release: exit 2, no file.
# VMSIFT_ARCHDBG_MDF=1 with MDF_RISCV64 (upstream built TARGET=riscv64)
# runs upstream again and checks it gives the carried digests.
# 13 tests, about 50 s wall at a load average of 5 (30 s of CPU; each vmsift
# run opens the 1 GB vmlinux's DWARF).

# shellcheck source=tests/suites/lib/carried.sh
. "$top/tests/suites/lib/carried.sh"
drk_name=kdump-riscv64-384M-d31
drk_dir=$work/debuginfo-riscv64-kdump           # the stripped copy, addresses
drk_out=$work/out/debuginfo-riscv64-kdump       # dumps, patched copies (scrubbed)
drk_keys="NUMBER(phys_ram_base) NUMBER(PAGE_OFFSET) NUMBER(VMALLOC_START)
	NUMBER(VMALLOC_END) NUMBER(VA_BITS) NUMBER(VMEMMAP_START)
	NUMBER(VMEMMAP_END) NUMBER(MODULES_VADDR) NUMBER(MODULES_END)
	NUMBER(KERNEL_LINK_ADDR) NUMBER(va_kernel_pa_offset)"
mkdir -p "$drk_dir"

# drk_vmlinux: the -dbg vmlinux's path on stdout.
drk_vmlinux() {
	(. "$top/tests/harness/lib.sh" && set_arch riscv64 &&
		fetch_dbg_vmlinux 6.12.117+deb13-riscv64 >&2 && echo "$DBG_VMLINUX") ||
		{ echo "cannot fetch the riscv64 -dbg vmlinux"; return 1; }
}

# drk_in [nonote]: the carried vmcore, or its copy without the note.
drk_in() {
	carried_in riscv64 "$drk_name" "$drk_dir" "${1:-}"
}

# drk_addr NAME VMLINUX: the address of a variable or variable.member
# the refusal tests change, in hex, from drgn (tests/tools/typeinfo_oracle.py:
# the vmlinux's own answer), asked once into $drk_dir/addrs.
drk_addr() {
	local a=$drk_dir/addrs v m
	if [ ! -s "$a" ] || [ "$a" -ot "$2" ]; then
		{ for v in pgtable_l4_enabled kernel_map phys_ram_base vmemmap_start_pfn init_uts_ns; do
			echo "sym $v"; done
		for m in page_offset virt_addr virt_offset va_pa_offset va_kernel_pa_offset; do
			echo "member struct kernel_mapping $m"; done
		echo "member struct uts_namespace name"
		} | $PY "$top/tests/tools/typeinfo_oracle.py" "$2" > "$a.tmp" || return 1
		mv "$a.tmp" "$a"
	fi
	case $1 in
	kernel_map.*) v=kernel_map m="struct kernel_mapping ${1#*.}" ;;
	init_uts_ns.*) v=init_uts_ns m="struct uts_namespace ${1#*.}" ;;
	*) v=$1 m= ;;
	esac
	v=$(sed -n "s/^sym $v -> 0x\([0-9a-f]*\)\$/\1/p" "$a")
	[ -n "$v" ] || return 1
	if [ -n "$m" ]; then
		m=$(sed -n "s/^member $m -> off=\([0-9]*\) .*/\1/p" "$a")
		[ -n "$m" ] || return 1
	fi
	printf '%x\n' $((0x$v + ${m:-0}))
}

# t_drk_keys: the eleven lines -x gives equal the note's.
t_drk_keys() {
	local v in bare k
	make -s -C "$top/tests/unit" di_keys >/dev/null || return 1
	v=$(drk_vmlinux) && in=$(drk_in) && bare=$(drk_in nonote) || { echo "$v$in"; return 1; }
	mkdir -p "$drk_out"
	$PY "$top/tests/tools/strip_vmcoreinfo.py" --note "$in" > "$drk_out/note" || return 1
	for k in $drk_keys; do
		grep -F -x "$(grep -F "$k=" "$drk_out/note")" "$drk_out/note" > /dev/null ||
			{ echo "the note has no $k"; return 1; }
		grep -F "$k=" "$drk_out/note"
	done > "$drk_out/keys.note" || return 1
	# shellcheck disable=SC2086
	"$top/tests/unit/di_keys" "$bare" "$v" $drk_keys > "$drk_out/keys.x" || return 1
	diff "$drk_out/keys.note" "$drk_out/keys.x"
}

# t_drk_level LEVEL: -x without the note gives the note's bitmaps and
# upstream makedumpfile's with the note (its carried digest), every page
# read back.
t_drk_level() {
	local v in bare with=$drk_out/with.d$1 without=$drk_out/x/$drk_name.d$1
	v=$(drk_vmlinux) && in=$(drk_in) && bare=$(drk_in nonote) || { echo "$v$in"; return 1; }
	mkdir -p "$drk_out/x"
	rm -f "$with" "$without"
	vmsift -l -d "$1" --message-level 0 "$in" "$with" || return 1
	vmsift -l -d "$1" --message-level 0 -x "$v" "$bare" "$without" || return 1
	$check pages "$in" "$without" && $check bitmaps "$without" "$with" "$in" &&
		$PY "$top/tests/gen/arm64/digest.py" --check \
			"$top/tests/data/riscv64/$drk_name.expected" "$without"
}

# t_drk_refused STATUS WANT EDIT...: a copy of the stripped vmcore with
# EDIT applied (kva_patch.py; @NAME in an edit is drk_addr NAME; the
# release lies 0x82 bytes into struct new_utsname) is
# refused with exit STATUS, the message holding WANT, no file left.
t_drk_refused() {
	local status=$1 want=$2 v bare e a name edits=() out=$drk_out/refused msg
	shift 2
	v=$(drk_vmlinux) && bare=$(drk_in nonote) || { echo "$v$bare"; return 1; }
	mkdir -p "$drk_out"
	for e in "$@"; do
		if [[ $e == *@* ]]; then
			name=${e#*@}; name=${name%%[:=+]*}
			a=$(drk_addr "$name" "$v") || { echo "no address for $name"; return 1; }
			e=${e/@$name/$a}
		fi
		edits+=("$e")
	done
	$PY "$top/tests/tools/kva_patch.py" "$bare" "$drk_out/patched" "${edits[@]}" || return 1
	rm -f "$out"
	msg=$(vmsift -l -d 31 --message-level 4 -x "$v" "$drk_out/patched" "$out" 2>&1)
	[ $? = "$status" ] || { echo "$msg"; echo "exit status not $status"; return 1; }
	[[ $msg == *"$want"* ]] || { echo "$msg"; echo "no '$want'"; return 1; }
	[ ! -e "$out" ] || { echo "a dump was left behind"; return 1; }
}

# t_drk_mdf_live: upstream makedumpfile (MDF_RISCV64) run again on the
# vmcore with its note gives the carried digests at -d 1 and -d 31.
t_drk_mdf_live() {
	local in l d=$drk_out/mdf
	in=$(drk_in) || { echo "$in"; return 1; }
	mkdir -p "$d"
	for l in 1 31; do
		rm -f "$d/$drk_name.d$l"
		"$MDF_RISCV64" -l -d $l "$in" "$d/$drk_name.d$l" > "$d/log" 2>&1 ||
			{ tail -n 3 "$d/log"; return 1; }
	done
	$PY "$top/tests/gen/arm64/digest.py" --check "$top/tests/data/riscv64/$drk_name.expected" \
		"$d/$drk_name.d1" "$d/$drk_name.d31"
}

if [ "${VMSIFT_NO_DBG:-0}" = 1 ]; then
	log "# skipped: riscv64 -x on a kdump without its note (VMSIFT_NO_DBG=1)"
else
	run_test "debuginfo riscv64 kdump: carried vmcore decompresses to the sha256 tests/data/README.md names" \
		carried_sha riscv64 "$drk_name"
	run_test "debuginfo riscv64 kdump: -x without VMCOREINFO gives the note's eleven riscv64 lines" \
		t_drk_keys
	for drk_level in 1 31; do
		run_test "debuginfo riscv64 kdump: -x without VMCOREINFO, -d $drk_level: bitmaps equal the note's and upstream's, pages read back" \
			t_drk_level $drk_level
	done
	run_test "debuginfo riscv64 kdump: satp_mode against pgtable_l4_enabled: refused, naming VA_BITS" \
		t_drk_refused 1 "cannot give VA_BITS" "set:@pgtable_l4_enabled:1=1"
	run_test "debuginfo riscv64 kdump: kernel_map.page_offset off its PGD: refused, naming PAGE_OFFSET" \
		t_drk_refused 1 "cannot give PAGE_OFFSET" "set:@kernel_map.page_offset:8=ffffffd600001000"
	run_test "debuginfo riscv64 kdump: phys_ram_base against kernel_map.va_pa_offset: refused, naming phys_ram_base" \
		t_drk_refused 1 "cannot give phys_ram_base" "set:@phys_ram_base:8=7fe00000"
	run_test "debuginfo riscv64 kdump: phys_ram_base above the dump's lowest memory: refused, naming phys_ram_base" \
		t_drk_refused 1 "cannot give phys_ram_base" "set:@phys_ram_base:8=80200000" \
		"set:@kernel_map.va_pa_offset:8=ffffffd57fe00000"
	run_test "debuginfo riscv64 kdump: VMEMMAP_START against mem_section's mem_map: refused, naming VMEMMAP_START" \
		t_drk_refused 1 "cannot give VMEMMAP_START" "set:@vmemmap_start_pfn:8=80200"
	run_test "debuginfo riscv64 kdump: kernel_map.virt_addr against _start: refused, naming MODULES_END" \
		t_drk_refused 1 "cannot give MODULES_END" "set:@kernel_map.virt_addr:8=ffffffff80200000"
	run_test "debuginfo riscv64 kdump: kernel_map.virt_offset against the link address: refused, naming KERNEL_LINK_ADDR" \
		t_drk_refused 1 "cannot give KERNEL_LINK_ADDR" "set:@kernel_map.virt_offset:8=200000"
	run_test "debuginfo riscv64 kdump: kernel_map.va_kernel_pa_offset against the image segment: refused, naming va_kernel_pa_offset" \
		t_drk_refused 1 "cannot give va_kernel_pa_offset" \
		"set:@kernel_map.va_kernel_pa_offset:8=fffffffeffc00000"
	run_test "debuginfo riscv64 kdump: a dump of another release (its utsname patched): refused, exit 2" \
		t_drk_refused 2 "does not match the dump: its release is 6.12.117+deb13-riscv64" \
		"str:@init_uts_ns.name+82=6.12.999+deb13-riscv64"
	if [ "${VMSIFT_ARCHDBG_MDF:-0}" = 1 ]; then
		if [ -x "${MDF_RISCV64:-}" ]; then
			run_test "debuginfo riscv64 kdump: upstream makedumpfile (MDF_RISCV64) run again gives the carried digests" \
				t_drk_mdf_live
		else
			run_test "debuginfo riscv64 kdump: VMSIFT_ARCHDBG_MDF=1 needs MDF_RISCV64 (upstream makedumpfile built TARGET=riscv64)" false
		fi
	fi
fi
