# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/erase_modules.sh - [module] sections of --config (issue 13,
# doc/erase.md).  Always: lib/modules.c on the hand-made kernel of
# tests/unit/module_world.h (tests/unit/module_test.c).  Then on a real
# Debian 6.1 x86_64 kdump with dm_mod and dm_crypt loaded: the carried
# secrets vmcore of tests/harness/kdump-test --secrets
# (tests/data/secrets/kdump-secrets-384M.vmcore.zst, decompressed once
# under $work/secrets), the -dbg vmlinux erase.sh uses, and dm-mod.ko and
# dm-crypt.ko with their DWARF from the same -dbg package, extracted once
# beside the vmlinux (its usr/lib/debug/lib/modules tree; VMSIFT_ERASE_FULL=1
# extracts them, about 4 minutes).  Sourced by tests/run after erase.sh.
#
#   - vmsift -x --config tests/data/erase/modules.conf (module globals,
#     char * by length, size N, size SYMBOL, nullify, an array loop, a
#     'within' loop across modules, vmlinux rules around the sections)
#     equals makedumpfile 1.7.2 -x --config, every page after decompression
#     and the eraseinfo; makedumpfile finds the debug files through
#     /lib/modules and /usr/lib/debug, bind-mounted in a private mount
#     namespace (the kernel package's modules, the -dbg tree).  Its
#     reference takes minutes: made with VMSIFT_ERASE_FULL=1 (root), cached
#     in $VMSIFT_CACHE/erase-ref;
#   - crash opens the erased dump and, with the modules' debug files
#     loaded (mod -s), reads the erased and nullified module data;
#   - modules-btf.conf (SYMBOL:TYPE) from the modules' own BTF, no -x,
#     writes the same file as with -x (the :TYPEs checked against DWARF);
#   - a module not loaded skips its section (the same file as without
#     it); no debug file, or a symbol the module lacks, refuses the dump,
#     naming them; --erase-ignore-missing goes on without the section.
# By default (when the vmcore, the debug files and makedumpfile's
# reference are cached) the makedumpfile and BTF comparisons, about a
# minute; the error cases and crash with VMSIFT_ERASE_FULL=1, two more.

# shellcheck source=tests/suites/lib/carried.sh
. "$top/tests/suites/lib/carried.sh"
emod_kver=6.1.0-57-amd64
emod_vmcore=$(carried_input secrets kdump-secrets-384M) || emod_vmcore=/nonexistent
emod_dbg=$(dirname "${erase_vmlinux:-/nonexistent/x}")
emod_kodir=$emod_dbg/usr/lib/debug/lib/modules/$emod_kver
emod_md=$emod_kodir/kernel/drivers/md
emod_conf=$top/tests/data/erase/modules.conf
emod_btf=$top/tests/data/erase/modules-btf.conf

# The two modules' debug files, out of the cached -dbg package once.
emod_fetch_modules() {
	local deb
	[ -f "$emod_md/dm-crypt.ko" ] && [ -f "$emod_md/dm-mod.ko" ] && return 0
	[ "${VMSIFT_ERASE_FULL:-0}" = 1 ] || return 1
	deb=$(ls "${VMSIFT_CACHE:-$top/tests/work/cache}"/debs/linux-image-$emod_kver-dbg_*.deb 2>/dev/null | head -n1)
	[ -n "$deb" ] || return 1
	dpkg-deb --fsys-tarfile "$deb" | (cd "$emod_dbg" && tar -x \
		"./usr/lib/debug/lib/modules/$emod_kver/kernel/drivers/md/dm-crypt.ko" \
		"./usr/lib/debug/lib/modules/$emod_kver/kernel/drivers/md/dm-mod.ko")
}

# emod_x CONF OUT [OPTIONS...]: vmsift -x on the secrets vmcore.
emod_x() {
	local conf=$1 out=$2; shift 2
	"$top/vmsift" -x "$erase_vmlinux" --config "$conf" -l -d 31 "$@" \
		"$emod_vmcore" "$out" > /dev/null
}

# vmsift -x of modules.conf, made once per run ($work/emod outlives the
# tests' scrub of $work/out).
emod_dump() {
	local d=$work/emod
	mkdir -p "$d"
	if ! [ -s "$d/x.kd" ] || ! [ "$d/x.kd" -nt "$top/vmsift" ] || ! [ "$d/x.kd" -nt "$emod_conf" ]; then
		rm -f "$d/x.kd"
		emod_x "$emod_conf" "$d/x.kd" >&2 || { rm -f "$d/x.kd"; return 1; }
	fi
	echo "$d/x.kd"
}

# makedumpfile's dump of modules.conf.  It finds a module's debug file as
# elfutils does: the installed module under /lib/modules/RELEASE (the
# kernel package's, stripped, cached by the harness), its DWARF beside it
# under /usr/lib/debug (the -dbg package's); a private mount namespace
# puts both there.
emod_reference() {
	local ref made= rc mods=${VMSIFT_CACHE:-$top/tests/work/cache}/kernel-$emod_kver/lib/modules
	# keyed by the rules and the vmcore (the carried secrets guest's, by
	# its compressed file's hash: a regenerated vmcore makes a new one)
	ref=${VMSIFT_CACHE:-$top/tests/work/cache}/erase-ref/$(sha1sum "$emod_conf" | cut -c1-12)-modules-$(sha1sum "$top/tests/data/secrets/kdump-secrets-384M.vmcore.zst" | cut -c1-12)-$emod_kver.kd
	if [ ! -s "$ref" ]; then
		[ "${VMSIFT_ERASE_FULL:-0}" = 1 ] && [ "$(id -u)" = 0 ] && [ -d "$mods" ] || return 1
		mkdir -p "$(dirname "$ref")" /usr/lib/debug
		[ -d /lib/modules ] || { mkdir /lib/modules && made=1; }
		rm -f "$ref.tmp"
		unshare -m sh -c "mount --bind '$mods' /lib/modules &&
			mount --bind '$emod_dbg/usr/lib/debug' /usr/lib/debug &&
			makedumpfile -x '$erase_vmlinux' --config '$emod_conf' -l -d 31 \
			'$emod_vmcore' '$ref.tmp'" >&2
		rc=$?
		[ -z "$made" ] || rmdir /lib/modules
		[ $rc = 0 ] || return 1
		mv "$ref.tmp" "$ref"
	fi
	echo "$ref"
}

t_emod_makedumpfile() {
	local ref x
	ref=$(emod_reference) || { echo "makedumpfile -x --config failed"; return 1; }
	x=$(emod_dump) || return 1
	$erase_cmp kdump "$emod_vmcore" "$x" "$ref"
}

# crash, with the modules' debug files, reads the module data the rules
# erased: the 'X' bytes and the NULL pointers, where DWARF says they are.
t_emod_crash() {
	local x log
	x=$(emod_dump) || return 1
	log=$work/emod/crash.log
	printf '%s\n' sys "mod -s dm_mod $emod_md/dm-mod.ko" "mod -s dm_crypt $emod_md/dm-crypt.ko" \
		'p/x crypt_target.version' 'p crypt_target.module' 'p _dm_misc.fops' \
		'p/x linear_target.version' 'p/x dm_crypt_pages_per_client' quit |
		timeout 300 crash -s "$erase_vmlinux" "$x" > "$log" 2>&1 ||
		{ tail "$log"; return 1; }
	grep -q "RELEASE: $emod_kver" "$log" &&
		[ "$(grep -c '{0x58585858, 0x58585858, 0x58585858}' "$log")" = 2 ] &&
		grep -q '^\$[0-9]* = (struct module \*) 0x0$' "$log" &&
		grep -q '^\$[0-9]* = (const struct file_operations \*) 0x0$' "$log" &&
		grep -q '^\$[0-9]* = 0x5858585858585858$' "$log" ||
		{ cat "$log"; return 1; }
}

# The BTF form: the same file without -x and with it (its :TYPEs checked
# against the modules' DWARF), and the eraseinfo of makedumpfile's syntax
# less the array loop it leaves out.
t_emod_btf() {
	local d=$work/out/emod x
	mkdir -p "$d"
	x=$(emod_dump) || return 1
	"$top/vmsift" --config "$emod_btf" -l -d 31 "$emod_vmcore" "$d/b.kd" > /dev/null || return 1
	emod_x "$emod_btf" "$d/bx.kd" || return 1
	cmp "$d/b.kd" "$d/bx.kd" && $erase_cmp kdump "$emod_vmcore" "$d/b.kd" "$d/bx.kd" || return 1
	$erase_cmp text "$x" | grep -v '^erase a\.name ' > "$d/want.txt"
	$erase_cmp text "$d/b.kd" | diff "$d/want.txt" -
}

t_emod_errors() {
	local d=$work/out/emod x
	mkdir -p "$d/nodbg"
	x=$(emod_dump) || return 1
	# a module the dump does not have: its section is skipped
	{ cat "$emod_conf"; printf '[no_such_module]\nerase no_such_symbol\n'; } > "$d/absent.conf"
	emod_x "$d/absent.conf" "$d/a.kd" || return 1
	cmp "$d/a.kd" "$x" || return 1
	# a symbol the module lacks (dm_mod's, asked of dm_crypt)
	printf '[dm_crypt]\nerase _dm_misc.name\n' > "$d/sym.conf"
	emod_x "$d/sym.conf" "$d/s.kd" 2> "$d/log" && return 1
	grep -q "rule at line 2: '_dm_misc.name': no symbol '_dm_misc' in module 'dm_crypt'" "$d/log" ||
		{ cat "$d/log"; return 1; }
	"$top/vmsift" --config "$d/sym.conf" -l -d 31 "$emod_vmcore" "$d/sb.kd" > /dev/null 2> "$d/log" && return 1
	grep -q "no symbol '_dm_misc' in module 'dm_crypt'" "$d/log" || { cat "$d/log"; return 1; }
	# no debug file: a vmlinux alone in its folder (and none under
	# /lib/modules or /usr/lib/debug here) refuses the dump
	ln -sf "$erase_vmlinux" "$d/nodbg/vmlinux"
	[ ! -d "/lib/modules/$emod_kver" ] && [ ! -d "/usr/lib/debug/lib/modules/$emod_kver" ] || return 0
	"$top/vmsift" -x "$d/nodbg/vmlinux" --config "$emod_conf" -l -d 31 \
		"$emod_vmcore" "$d/n.kd" > /dev/null 2> "$d/log" && return 1
	! [ -s "$d/n.kd" ] || { echo "a dump was written without its erase"; return 1; }
	grep -q "module section \[dm_mod\]: no debug information for module 'dm_mod': no dm_mod.ko or dm_mod.ko.debug ('-' or '_') in $d/nodbg" "$d/log" ||
		{ cat "$d/log"; return 1; }
	# asked to go on: the module sections are left out, the rest erased,
	# and each skipped rule is named by its line: the rules that open in
	# a module section (erase and for at the top level), no others
	"$top/vmsift" -x "$d/nodbg/vmlinux" --config "$emod_conf" -l -d 31 --erase-ignore-missing \
		"$emod_vmcore" "$d/n.kd" > /dev/null 2> "$d/log" || { cat "$d/log"; return 1; }
	local want said
	want=$(awk '/^\[/ { mod = ($0 != "[vmlinux]") } /^(erase|for) / && mod { print NR }' "$emod_conf")
	said=$(sed -n 's/^rule at line \([0-9]*\): module section \[.*/\1/p' "$d/log")
	[ -n "$want" ] && [ "$want" = "$said" ] ||
		{ echo "skipped rules named: [$said], want the module sections' [$want]"; cat "$d/log"; return 1; }
	sed -n '/^\[/q; /^erase/p' "$emod_conf" > "$d/vml.conf"
	echo 'erase init_task.comm' >> "$d/vml.conf"
	emod_x "$d/vml.conf" "$d/v.kd" && cmp "$d/n.kd" "$d/v.kd"
}

# Structs a module's debug information only declares (modules-decl.conf:
# aesni_intel's struct simd_skcipher_alg, crypto_simd's; cryptd's struct
# workqueue_struct, the kernel's), completed from the vmlinux or another
# module: -x and the BTF form (modules-decl-btf.conf, one :TYPE@MODULE)
# write the same file, and drgn, with the modules' debug files, finds
# every place the rules name erased and the bytes around it untouched
# (tests/tools/xmod_check.py).  A config that meets no declaration opens
# no other module's debug file (strace, when installed).
emod_decl_kos="$emod_kodir/kernel/arch/x86/crypto/aesni-intel.ko $emod_kodir/kernel/crypto/crypto_simd.ko $emod_kodir/kernel/crypto/cryptd.ko"
t_emod_decl() {
	local d=$work/out/emod ko
	mkdir -p "$d"
	rm -f "$d/decl-x.kd" "$d/decl-b.kd" "$d/plain.kd"
	emod_x "$top/tests/data/erase/modules-decl.conf" "$d/decl-x.kd" || return 1
	"$top/vmsift" --config "$top/tests/data/erase/modules-decl-btf.conf" -l -d 31 \
		"$emod_vmcore" "$d/decl-b.kd" > /dev/null || return 1
	cmp "$d/decl-x.kd" "$d/decl-b.kd" || return 1
	# shellcheck disable=SC2086
	timeout 300 /usr/bin/python3 "$top/tests/tools/xmod_check.py" "$emod_vmcore" \
		"$erase_vmlinux" $emod_decl_kos -- "$d/decl-x.kd" "$d/decl-b.kd" || return 1
	command -v strace > /dev/null || return 0
	strace -f -e trace=openat -o "$d/open.log" "$top/vmsift" -x "$erase_vmlinux" \
		--config "$emod_conf" -l -d 31 "$emod_vmcore" "$d/plain.kd" > /dev/null 2>&1 || return 1
	ko=$(grep -o '[^/"]*\.ko"' "$d/open.log" | sort -u | tr -d '"' | tr '\n' ' ')
	[ "$ko" = "dm-crypt.ko dm-mod.ko " ] ||
		{ echo "modules.conf opened the debug files [$ko], want dm-crypt.ko and dm-mod.ko alone"; return 1; }
}

t_emod_unit() {
	rm -f "$top/tests/unit/module_test"
	make -s -C "$top/tests/unit" module_test || return 1
	timeout 60 "$top/tests/unit/module_test"
}

run_test "erase_modules: the module list walk and module symbol tables on a hand-made kernel: '-' and '_', not loaded, corrupt lists refused, the list for declarations whole or not at all" \
	t_emod_unit
if [ -n "${erase_cmp:-}" ] && [ -f "${erase_vmlinux:-}" ] && [ -f "$emod_vmcore" ] &&
	emod_fetch_modules; then
	if emod_reference >/dev/null 2>&1; then
		run_test "erase_modules: vmsift -x --config with [dm_mod] and [dm_crypt] equals makedumpfile 1.7.2: every page, the eraseinfo" \
			t_emod_makedumpfile
	else
		log "# skipped: [module] erase vs makedumpfile (VMSIFT_ERASE_FULL=1 as root makes its reference, minutes)"
	fi
	run_test "erase_modules: the BTF form of the [module] rules, from the modules' own BTF, writes the file -x writes" \
		t_emod_btf
	# shellcheck disable=SC2086
	if ls $emod_decl_kos > /dev/null 2>&1; then
		run_test "erase_modules: structs a module only declares, completed from another module or the vmlinux: -x and BTF the same file, drgn's places erased" \
			t_emod_decl
	else
		log "# skipped: erase_modules declarations (aesni-intel.ko, crypto_simd.ko, cryptd.ko: a cache made before fetch_dbg_vmlinux extracted them)"
	fi
	if [ "${VMSIFT_ERASE_FULL:-0}" = 1 ]; then
		run_test "erase_modules: a module not loaded skips its section; a missing symbol or debug file refuses the dump; --erase-ignore-missing goes on" \
			t_emod_errors
		run_test "erase_modules: crash opens the erased dump and reads the erased module data (mod -s)" \
			t_emod_crash
	else
		log "# skipped: erase_modules errors and crash (VMSIFT_ERASE_FULL=1, about 2 minutes)"
	fi
else
	log "# skipped: erase_modules (needs the carried secrets vmcore, and the -dbg vmlinux and modules, VMSIFT_ERASE_FULL=1)"
fi
