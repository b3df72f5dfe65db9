# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/erase_btf.sh - the real BTF source against DWARF for the
# erase rules (issue 13: "the BTF rules give the same bytes as the DWARF
# rules").  Sourced by tests/run after erase.sh, whose settings it uses:
# tests/data/erase/btf.conf (SYMBOL:TYPE rules: single, pointer with size,
# nullify, array, "via" and "within" loops) run by vmsift itself, its
# types from the dump's own kallsyms and BTF (lib/typeinfo_btf.c), must
# give the pages and eraseinfo of tests/data/erase/dwarf.conf (the same
# rules in makedumpfile's syntax) resolved by vmsift -x from the -dbg
# vmlinux's DWARF (lib/typeinfo_dwarf.c).  Runs when erase.sh's real-dump
# tests run (the -dbg vmlinux cached); about 20 s.

t_erase_btf_real() {
	local d=$work/out/erase_btf
	mkdir -p "$d"
	"$top/vmsift" -x "$erase_vmlinux" --config "$erase_data/dwarf.conf" -l -d 31 \
		"$erase_vmcore" "$d/dwarf.kd" > /dev/null || return 1
	"$top/vmsift" --config "$erase_data/btf.conf" -l -d 31 "$erase_vmcore" \
		"$d/btf.kd" > /dev/null || return 1
	$erase_cmp kdump "$erase_vmcore" "$d/btf.kd" "$d/dwarf.kd"
}

if [ -n "${erase_cmp:-}" ] && [ -f "${erase_vmlinux:-}" ] && [ -f "${erase_vmcore:-}" ]; then
	run_test "erase_btf: btf.conf resolved from the dump's own BTF equals dwarf.conf with -x (DWARF)" \
		t_erase_btf_real
else
	log "# skipped: erase_btf (needs the -dbg vmlinux cached: VMSIFT_ERASE_FULL=1 fetches it)"
fi
