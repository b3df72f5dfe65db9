# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/debuginfo.sh - a debug vmlinux: -x VMLINUX and -g
# (doc/debuginfo.md).  Sourced by tests/run.
#
# Always (a second or two each), on small vmlinux files gcc builds from
# tests/debuginfo/fake-vmlinux.c:
#   -g equals Debian makedumpfile 1.7.2's -g, new and old kernel names;
#   a vmlinux of another build id or release is refused with exit 2,
#   naming both, with and without the dump's VMCOREINFO note; a file
#   without DWARF, exit 1; the build without libdw says so.
# With the real -dbg vmlinux of the carried vmcore's kernel (6.1.0-57,
# fetched once into $VMSIFT_CACHE by tests/harness/lib.sh, 860 MB; about
# 30 s of CPU, 2-3 minutes wall on 2 shared cores, when makedumpfile's
# runs are cached in tests/work/ref):
#   typeinfo.h's DWARF source answers as drgn does (typeinfo_query);
#   -g equals makedumpfile 1.7.2's but for doc/debuginfo.md's keys;
#   -x with the note: -d 31 bitmaps equal makedumpfile -x's;
#   -x on the vmcore stripped of its note (tests/tools/strip_vmcoreinfo.py):
#   bitmaps equal those of the dump with its note at -d 1, 2, 4, 8, 16, 31,
#   every page read back, and the same --dump-dmesg log; with the shared
#   fixtures beside the checkout (not under VMSIFT_QUICK=1), kdump-512M
#   likewise at -d 31 and QEMU's qemu-256M refused (no virtual addresses).
# MDF_UPSTREAM=PATH (an upstream makedumpfile, built from its git) adds
# -g against it, with no key exempt.

di_dir=$work/debuginfo
mkdir -p "$di_dir"
di_fake_src=$top/tests/debuginfo/fake-vmlinux.c
di_ver=6.1.0-57-amd64
di_carried=$work/kdump-384M.vmcore

# di_fake OUT [CFLAGS...]: a small vmlinux with DWARF.
di_fake() {
	local out=$1; shift
	gcc -g -O0 -nostdlib -static -Wl,-e,_stext "$@" -o "$out" "$di_fake_src"
}

# di_mdf_g VMLINUX OUT: makedumpfile's -g text (cached beside VMLINUX's
# cache entry when CACHE is given as $3).
di_mdf_g() {
	local vmlinux=$1 out=$2 cache=${3:-}
	if [ -n "$cache" ] && [ -s "$cache" ]; then
		cp "$cache" "$out"
		return 0
	fi
	rm -f "$out"
	timeout 300 makedumpfile -g "$out" -x "$vmlinux" >/dev/null 2>&1 ||
		{ echo "makedumpfile -g failed on $vmlinux"; return 1; }
	[ -z "$cache" ] || cp "$out" "$cache"
}

# t_di_g_fake NAME [CFLAGS...]: vmsift -g of a fake vmlinux equals
# makedumpfile's; LENGTH(node_data)'s truth from drgn.
t_di_g_fake() {
	local name=$1 base; shift
	base=$di_dir/fake-$name
	di_fake_truth "$base" "$@" || return 1
	di_mdf_g "$base" "$base.mdf" || return 1
	rm -f "$base.vs"
	vmsift -g "$base.vs" -x "$base" >/dev/null || return 1
	$PY "$top/tests/tools/cmp_vmcoreinfo.py" "$base.mdf" "$base.vs" "$base.truth"
}

# di_fake_truth BASE [CFLAGS...]: the fake vmlinux BASE and BASE.truth,
# its LENGTH(node_data) as drgn reads it.
di_fake_truth() {
	local base=$1; shift
	di_fake "$base" "$@" || return 1
	echo "vartype node_data" | $PY "$top/tests/tools/typeinfo_oracle.py" "$base" |
		sed -n 's/.*nelem=\([0-9]*\).*/LENGTH(node_data)=\1/p' > "$base.truth"
	[ -s "$base.truth" ] || { echo "drgn gave no node_data bound"; return 1; }
}

t_di_g_upstream_fake() {
	di_fake_truth "$di_dir/fake-up" || return 1
	t_di_g_upstream "$di_dir/fake-up" "$di_dir/fake-up.truth"
}

# t_di_refused EXIT FRAGMENT... -- ARGS: vmsift ARGS exits EXIT, writes
# no dump, and its message holds every FRAGMENT.
t_di_refused() {
	local want=$1 frags=() msg rc out=$di_dir/refused.kd; shift
	while [ "$1" != -- ]; do frags+=("$1"); shift; done
	shift
	rm -f "$out"
	msg=$(timeout 60 vmsift -l -d 31 --message-level 4 "$@" "$out" 2>&1)
	rc=$?
	echo "$msg"
	[ $rc -eq "$want" ] || { echo "exit status $rc, expected $want"; return 1; }
	for f in "${frags[@]}"; do
		[[ $msg == *"$f"* ]] || { echo "message lacks '$f'"; return 1; }
	done
	[ ! -e "$out" ] || { echo "a dump was left behind"; return 1; }
}

# di_stripped [VMCORE]: VMCORE (the carried one) without its note, as
# $di_dir/nonote.vmcore or $di_dir/BASENAME.nonote.
di_stripped() {
	local in=${1:-$di_carried} out=$di_dir/nonote.vmcore
	[ -n "${1:-}" ] && out=$di_dir/$(basename "$1").nonote
	[ -f "$out" ] && [ "$out" -nt "$in" ] ||
		$PY "$top/tests/tools/strip_vmcoreinfo.py" "$in" "$out"
}

t_di_mismatch_id() {
	local fake=$di_dir/fake-otherid note id
	di_fake "$fake" -Wl,--build-id=sha1 || return 1
	note=$($PY "$top/tests/tools/strip_vmcoreinfo.py" --note "$di_carried" |
		sed -n 's/^BUILD-ID=//p')
	id=$(readelf -n "$fake" | sed -n 's/.*Build ID: //p')
	[ -n "$note" ] && [ -n "$id" ] || { echo "no build ids to compare"; return 1; }
	t_di_refused 2 "$note" "$id" "build id" -- -x "$fake" "$di_carried"
}

t_di_mismatch_rel() {
	local fake=$di_dir/fake-otherrel
	di_fake "$fake" -Wl,--build-id=none '-DREL="6.1.0-99-amd64"' || return 1
	t_di_refused 2 6.1.0-99-amd64 6.1.0-57-amd64 -- -x "$fake" "$di_carried"
}

t_di_mismatch_nonote() {
	local fake=$di_dir/fake-nonote
	di_stripped || return 1
	di_fake "$fake" || return 1
	t_di_refused 2 "$fake" 6.1.0-57-amd64 "holds no utsname" -- \
		-x "$fake" "$di_dir/nonote.vmcore"
}

# t_di_nodwarf: a build without libdw refuses -x with its reason.
t_di_nodwarf() {
	local bin=$di_dir/typeinfo_query.nodwarf msg
	# shellcheck disable=SC2046
	gcc -DVMSIFT_NO_DWARF $(make -s -C "$top" print-VMSIFT_CPPFLAGS) \
		-o "$bin" "$top/tests/unit/typeinfo_query.c" \
		"$top/lib/typeinfo_dwarf.c" "$top/lib/error.c" || return 1
	msg=$("$bin" /bin/true < /dev/null 2>&1) && { echo "opened: $msg"; return 1; }
	echo "$msg"
	[[ $msg == *"built without DWARF (libdw)"* ]]
}

run_test "debuginfo: -g of a small vmlinux equals makedumpfile 1.7.2's" \
	t_di_g_fake new
run_test "debuginfo: -g of a small old-kernel vmlinux (_count, PG_compound, printk_log) equals makedumpfile's" \
	t_di_g_fake old -DOLD '-DREL="4.4.0-1-amd64"'
run_test "debuginfo: -x of another build id: exit 2, both ids named" \
	t_di_mismatch_id
run_test "debuginfo: -x of another release: exit 2, both releases named" \
	t_di_mismatch_rel
run_test "debuginfo: -x of another kernel on a vmcore without VMCOREINFO: exit 2" \
	t_di_mismatch_nonote
run_test "debuginfo: -x of a file without DWARF: exit 1, named" \
	t_di_refused 1 "/bin/true" "no DWARF" -- -x /bin/true "$di_carried"
run_test "debuginfo: a build without libdw refuses -x: built without DWARF (libdw)" \
	t_di_nodwarf

# ---- the real -dbg vmlinux ----

di_dbg=""
di_fetch() {
	[ -n "$di_dbg" ] && return 0
	di_dbg=$(. "$top/tests/harness/lib.sh" && fetch_dbg_vmlinux "$di_ver" >&2 &&
		echo "$DBG_VMLINUX") || { di_dbg=""; echo "cannot fetch the -dbg vmlinux"; return 1; }
}

t_di_typeinfo() {
	local q=$top/tests/data/typeinfo-queries.txt
	di_fetch || return 1
	make -s -C "$top/tests/unit" typeinfo_query || return 1
	"$top/tests/unit/typeinfo_query" "$di_dbg" < "$q" |
		$PY "$top/tests/tools/typeinfo_oracle.py" --canon > "$di_dir/q.vs" ||
		return 1
	$PY "$top/tests/tools/typeinfo_oracle.py" "$di_dbg" < "$q" > "$di_dir/q.drgn" ||
		return 1
	[ "$(wc -l < "$di_dir/q.vs")" -eq "$(grep -c . "$q")" ] ||
		{ echo "typeinfo_query answered $(wc -l < "$di_dir/q.vs") queries"; return 1; }
	diff "$di_dir/q.drgn" "$di_dir/q.vs"
}

t_di_g_real() {
	di_fetch || return 1
	di_mdf_g "$di_dbg" "$di_dir/real.mdf" \
		"$work/ref/vmlinux-$di_ver.makedumpfile-$(makedumpfile -v | sed -n 's/.*version \([^ ]*\).*/\1/p').g" ||
		return 1
	rm -f "$di_dir/real.vs"
	vmsift -g "$di_dir/real.vs" -x "$di_dbg" >/dev/null || return 1
	$PY "$top/tests/tools/strip_vmcoreinfo.py" --note "$di_carried" > "$di_dir/real.note" ||
		return 1
	$PY "$top/tests/tools/cmp_vmcoreinfo.py" "$di_dir/real.mdf" "$di_dir/real.vs" \
		"$di_dir/real.note"
}

# t_di_g_upstream VMLINUX TRUTH: -g equals upstream makedumpfile's
# ($MDF_UPSTREAM, built from makedumpfile's git: no key exempt).
t_di_g_upstream() {
	local vmlinux=$1 truth=$2 base=$di_dir/upstream
	rm -f "$base.mdf" "$base.vs"
	timeout 300 "$MDF_UPSTREAM" -g "$base.mdf" -x "$vmlinux" >/dev/null 2>&1 ||
		{ echo "$MDF_UPSTREAM -g failed"; return 1; }
	vmsift -g "$base.vs" -x "$vmlinux" >/dev/null || return 1
	$PY "$top/tests/tools/cmp_vmcoreinfo.py" --upstream "$base.mdf" "$base.vs" "$truth"
}

t_di_g_upstream_real() {
	di_fetch || return 1
	$PY "$top/tests/tools/strip_vmcoreinfo.py" --note "$di_carried" > "$di_dir/real.note" ||
		return 1
	t_di_g_upstream "$di_dbg" "$di_dir/real.note"
}

# t_di_x_note: -x beside the note, -d 31, against makedumpfile -x (cached).
t_di_x_note() {
	local ref=$work/ref/kdump-384M.vmcore.ref-x-d31 out=$di_dir/x-note.d31
	di_fetch || return 1
	if [ ! -f "$ref" ]; then
		timeout 600 makedumpfile -l -d 31 -x "$di_dbg" "$di_carried" "$ref.tmp" \
			>/dev/null 2>&1 || { echo "makedumpfile -x failed"; return 1; }
		mv "$ref.tmp" "$ref"
	fi
	rm -f "$out"
	vmsift -l -d 31 --message-level 0 -x "$di_dbg" "$di_carried" "$out" || return 1
	$check bitmaps "$out" "$ref" "$di_carried"
}

# t_di_x_stripped LEVEL: -x on the vmcore without its note gives the
# bitmaps of the dump with its note, every page read back.
t_di_x_stripped() {
	local level=$1 with=$di_dir/with.d$1 without=$di_dir/without.d$1
	di_fetch && di_stripped || return 1
	rm -f "$with" "$without"
	vmsift -l -d "$level" --message-level 0 "$di_carried" "$with" || return 1
	vmsift -l -d "$level" --message-level 0 -x "$di_dbg" \
		"$di_dir/nonote.vmcore" "$without" || return 1
	$check pages "$di_carried" "$without" || return 1
	$check bitmaps "$without" "$with" "$di_carried"
}

# t_di_dmesg_stripped: --dump-dmesg -x of the stripped vmcore gives the
# log of the vmcore with its note, byte for byte.
t_di_dmesg_stripped() {
	local with=$di_dir/log.with without=$di_dir/log.without
	di_fetch && di_stripped || return 1
	rm -f "$with" "$without"
	vmsift --dump-dmesg --message-level 0 "$di_carried" "$with" || return 1
	vmsift --dump-dmesg --message-level 0 -x "$di_dbg" "$di_dir/nonote.vmcore" \
		"$without" || return 1
	[ -s "$with" ] || { echo "empty log"; return 1; }
	cmp "$with" "$without"
}

# t_di_x_fixture VMCORE LEVEL: the same on a shared fixture of the same
# kernel (another KASLR offset: 0x30e00000, past 512 MiB).
t_di_x_fixture() {
	local in=$1 level=$2 base
	base=$di_dir/$(basename "$in")
	di_fetch && di_stripped "$in" || return 1
	rm -f "$base.with" "$base.without"
	vmsift -l -d "$level" --message-level 0 "$in" "$base.with" || return 1
	vmsift -l -d "$level" --message-level 0 -x "$di_dbg" "$base.nonote" \
		"$base.without" || return 1
	$check bitmaps "$base.without" "$base.with" "$in"
}

# t_di_x_novaddr VMCORE: QEMU's dump (no virtual addresses) without its
# note: -x is refused with exit 1, saying what it needs.
t_di_x_novaddr() {
	di_fetch && di_stripped "$1" || return 1
	t_di_refused 1 "no segment of the kernel image" -- -x "$di_dbg" \
		"$di_dir/$(basename "$1").nonote"
}

if [ ! -f "$di_carried" ]; then
	run_test "debuginfo: the carried vmcore is there" false
elif [ "${VMSIFT_NO_DBG:-0}" = 1 ]; then
	log "# skipped: debuginfo tests with the -dbg vmlinux (VMSIFT_NO_DBG=1)"
else
	run_test "debuginfo: typeinfo.h's DWARF source answers as drgn does (6.1 -dbg vmlinux)" \
		t_di_typeinfo
	run_test "debuginfo: -g of the 6.1 -dbg vmlinux equals makedumpfile 1.7.2's but for upstream's keys" \
		t_di_g_real
	run_test "debuginfo: -x beside the VMCOREINFO note, -d 31: bitmaps equal makedumpfile -x's" \
		t_di_x_note
	if [ -n "${MDF_UPSTREAM:-}" ]; then
		run_test "debuginfo: -g of the 6.1 -dbg vmlinux equals upstream makedumpfile's (MDF_UPSTREAM)" \
			t_di_g_upstream_real
	fi
	run_test "debuginfo: --dump-dmesg -x on the vmcore stripped of VMCOREINFO equals the log with the note" \
		t_di_dmesg_stripped
	if [ -f "$work/kdump-512M.vmcore" ] && [ "${VMSIFT_QUICK:-0}" != 1 ]; then
		run_test "debuginfo: -x on kdump-512M (shared fixture) stripped of VMCOREINFO, -d 31: bitmaps equal the note's" \
			t_di_x_fixture "$work/kdump-512M.vmcore" 31
	fi
	if [ -f "$work/qemu-256M.vmcore" ] && [ "${VMSIFT_QUICK:-0}" != 1 ]; then
		run_test "debuginfo: -x on QEMU's qemu-256M (shared fixture) stripped of VMCOREINFO: refused, no virtual addresses" \
			t_di_x_novaddr "$work/qemu-256M.vmcore"
	fi
	# -d 31 (every page type -x decides; free pages from the free lists:
	# doc/debuginfo.md) by default; each type alone (-d 1, 2, 4, 8, 16)
	# with VMSIFT_FULL=1.
	for di_level in 1 2 4 8 16 31; do
		[ $di_level = 31 ] || full || continue
		run_test "debuginfo: -x on the vmcore stripped of VMCOREINFO, -d $di_level: bitmaps equal the note's, pages read back" \
			t_di_x_stripped "$di_level"
	done
fi
if [ -n "${MDF_UPSTREAM:-}" ]; then
	run_test "debuginfo: -g of a small vmlinux equals upstream makedumpfile's (MDF_UPSTREAM)" \
		t_di_g_upstream_fake
fi
