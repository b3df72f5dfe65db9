# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/bad_input.sh - broken vmcores get a one-line error naming
# the file and what was wrong, exit status 1, no crash, no hang, and no
# output file; good small ones dump.  Sourced by tests/run.

bad_dir=$work/bad
rm -rf "$bad_dir"
mkdir -p "$bad_dir"

# t_bad NAME FRAGMENT [LEVEL]: vmsift refuses NAME.vmcore at dump level
# LEVEL (default 1) with a message holding the file's name and FRAGMENT,
# exit 1, within 20 s, and leaves no output file.
t_bad() {
	local in=$bad_dir/$1.vmcore out=$bad_dir/$1.out msg rc
	rm -f "$out"
	msg=$(timeout 20 vmsift -d "${3:-1}" --message-level 4 "$in" "$out" 2>&1)
	rc=$?
	echo "$msg"
	[ $rc -eq 1 ] || { echo "exit status $rc, expected 1"; return 1; }
	[[ $msg == *"$in"* ]] || { echo "message does not name the file"; return 1; }
	[[ $msg == *"$2"* ]] || { echo "message lacks '$2'"; return 1; }
	[ ! -e "$out" ] || { echo "an output file was left behind"; return 1; }
}

# t_good NAME LEVEL: a small valid vmcore dumps and reads back.
t_good() {
	local in=$bad_dir/$1.vmcore out=$bad_dir/$1.d$2
	rm -f "$out"
	timeout 20 vmsift -c -d "$2" --message-level 0 "$in" "$out" || return 1
	$check pages "$in" "$out"
}

while IFS=$'\t' read -r name fragment; do
	case $name in
	good|no-vmcoreinfo)
		run_test "bad-input control: $name dumps at -d 0" t_good "$name" 0
		run_test "bad-input control: $name dumps at -d 1" t_good "$name" 1 ;;
	unknown-machine)
		# No address translation is needed at -d 0 and -d 1.
		run_test "unknown ELF machine: dumps at -d 0" t_good "$name" 0
		run_test "unknown ELF machine: dumps at -d 1" t_good "$name" 1
		run_test "unknown ELF machine: -d 31 refused, naming it" \
			t_bad "$name" "$fragment" 31 ;;
	*)
		run_test "bad input: $name" t_bad "$name" "$fragment" ;;
	esac
done < <($PY "$top/tests/tools/mkbad.py" "$bad_dir")

# Output files: 0600, never clobbered or followed through a symlink
# unless -f; -f overwrites.
t_output_safety() {
	local in=$bad_dir/good.vmcore d=$bad_dir/safety
	rm -rf "$d" && mkdir -p "$d"
	vmsift -d 1 --message-level 0 "$in" "$d/dump" || return 1
	[ "$(stat -c %a "$d/dump")" = 600 ] || { echo "mode is not 0600"; return 1; }
	echo precious > "$d/existing"
	vmsift -d 1 --message-level 0 "$in" "$d/existing" 2>/dev/null && { echo "clobbered"; return 1; }
	[ "$(cat "$d/existing")" = precious ] || { echo "existing file changed"; return 1; }
	echo target > "$d/target"
	ln -s "$d/target" "$d/link"
	vmsift -d 1 --message-level 0 "$in" "$d/link" 2>/dev/null && { echo "followed a symlink"; return 1; }
	[ "$(cat "$d/target")" = target ] || { echo "symlink target changed"; return 1; }
	vmsift -f -d 1 --message-level 0 "$in" "$d/existing" || return 1
	cmp "$d/dump" "$d/existing"
}
run_test "output files: 0600, O_EXCL, no symlink following, -f overwrites" t_output_safety

# A flattened stream cut short: -R fails, and the file says incomplete.
t_flat_truncated() {
	local in=$bad_dir/good.vmcore d=$bad_dir/flatcut size
	rm -rf "$d" && mkdir -p "$d"
	vmsift -F -c -d 1 --message-level 0 "$in" > "$d/stream" || return 1
	size=$(stat -c %s "$d/stream")
	head -c $((size / 2)) "$d/stream" > "$d/cut"
	vmsift -R "$d/out" < "$d/cut" 2>"$d/err" && { echo "accepted a cut stream"; return 1; }
	grep -q "ends at byte" "$d/err" || { cat "$d/err"; return 1; }
	$check header "$d/out" | grep -q '^status=9$' || { echo "not marked incomplete"; $check header "$d/out"; return 1; }
}
run_test "flattened stream cut short: -R fails and marks the dump incomplete" t_flat_truncated

# Unknown and unimplemented options are refused, never ignored.
t_options() {
	vmsift --no-such-option a b 2>&1 | grep -q "unknown option" || return 1
	vmsift --eppic x a 2>&1 | grep -q "not implemented" || return 1
	vmsift -d 32 a b 2>&1 | grep -q "invalid dump level" || return 1
	vmsift -E -c a b 2>&1 | grep -q "cannot be combined" || return 1
}
run_test "options: unknown or unimplemented refused" t_options

# -v's codec list tells the truth: every codec it names dumps (the
# header's status names that codec, every page reads back equal through
# libkdumpfile), and every codec flag that dumps is named.
# codec_flag NAME / codec_status NAME: its option and kdump header status.
codec_flag() {
	case $1 in zlib) echo -c ;; lzo) echo -l ;; snappy) echo -p ;; zstd) echo -z ;; *) return 1 ;; esac
}
codec_status() {
	case $1 in zlib) echo 1 ;; lzo) echo 2 ;; snappy) echo 4 ;; zstd) echo 32 ;; *) return 1 ;; esac
}
t_codecs_listed() {
	local in=$bad_dir/good.vmcore d=$bad_dir/codecs listed name flag hdr
	rm -rf "$d" && mkdir -p "$d"
	listed=$(vmsift -v | sed -n 's/^compiled in: //p')
	[ -n "$listed" ] || { echo "vmsift -v names no codec"; vmsift -v; return 1; }
	for name in $listed; do
		flag=$(codec_flag "$name") || { echo "-v names an unknown codec '$name'"; return 1; }
		vmsift "$flag" -d 1 --message-level 0 "$in" "$d/$name" ||
			{ echo "-v names $name, but $flag fails"; return 1; }
		hdr=$($check header "$d/$name") || return 1
		grep -qx "status=$(codec_status "$name")" <<<"$hdr" ||
			{ echo "$flag did not write a $name dump"; echo "$hdr"; return 1; }
		$check pages "$in" "$d/$name" || { echo "$name dump differs from the input"; return 1; }
	done
	for name in zlib lzo snappy zstd; do
		[[ " $listed " == *" $name "* ]] && continue
		vmsift "$(codec_flag "$name")" -d 1 --message-level 0 "$in" "$d/x$name" 2>/dev/null &&
			{ echo "$name works but -v does not name it"; return 1; }
	done
	echo "-v: $listed, each dumped and read back"
}
run_test "options: -v names exactly the codecs that dump and read back" t_codecs_listed

# drgn, a third independent reader, opens vmsift's kdump, ELF and
# flattened-rebuilt dumps and reads physical pages equal to the input's.
t_drgn() {
	local in=$1 d=$work/out/drgn
	rm -rf "$d" && mkdir -p "$d"
	vmsift -z -d 31 --message-level 0 "$in" "$d/kdump" || return 1
	vmsift -E -d 31 --message-level 0 "$in" "$d/elf" || return 1
	vmsift -F -l -d 1 --message-level 0 "$in" | vmsift -R "$d/flat" || return 1
	$PY - "$top/tests/tools" "$in" "$d/kdump" "$d/elf" "$d/flat" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import drgn, vmcheck
elf = vmcheck.Elf(sys.argv[2])
kdump_path = sys.argv[3]
ZERO = bytes(4096)


def open_dump(path):
    p = drgn.Program()
    p.set_core_dump(path)
    return p


def read(p, a):
    """The page at A as drgn reads it, None when it is not in the dump."""
    try:
        return p.read(a, 4096, True)
    except drgn.FaultError:
        return None


def elf_expect(out, a, want):
    """What a reader must find at A in the ELF dump OUT: the input's bytes
    inside a PT_LOAD's file data, zeros past p_filesz, None outside."""
    for paddr, memsz, filesz, off, vaddr in out.loads:
        if paddr <= a < paddr + filesz:
            return want
        if paddr <= a < paddr + memsz:
            return ZERO
    return None


# The kdump and flattened dumps omit what they exclude; drgn must read
# every other page equal to the input.  The ELF dump (-d 31, as the
# kdump) holds the input's bytes in its PT_LOADs' file data (short runs
# of excluded pages included, as makedumpfile does), zeros past p_filesz
# and nothing outside; drgn must read exactly that, and a page whose
# input bytes the ELF lacks must be one the kdump excluded.
kd = open_dump(kdump_path)
for path in sys.argv[3:]:
    is_elf = path.endswith('/elf')
    p = kd if path == kdump_path else open_dump(path)
    out = vmcheck.Elf(path) if is_elf else None
    seen = dropped = 0
    for paddr, memsz, filesz, off, vaddr in elf.loads_sorted[:3]:
        for a in range(paddr - paddr % 4096 + 4096, paddr + filesz - 4096, 4096 * 97):
            got = read(p, a)
            want = elf.read(a, 4096)
            if is_elf:
                exp = elf_expect(out, a, want)
                if got != exp:
                    sys.exit('%s: page at %#x: drgn read %s, expected %s' % (
                        path, a, 'nothing' if got is None else
                        'zeros' if got == ZERO else 'other bytes',
                        'nothing' if exp is None else
                        'the input' if exp is want else 'zeros'))
                if exp != want:
                    if read(kd, a) is not None:
                        sys.exit('%s: page at %#x dropped, but kept in the kdump' % (path, a))
                    dropped += 1
                    continue
            elif got is None:
                continue            # excluded page
            elif got != want:
                sys.exit('%s: page at %#x differs from the input' % (path, a))
            seen += 1
    if not seen:
        sys.exit('%s: drgn read no page' % path)
    print('%s: drgn read %d pages equal to the input, %d dropped as expected'
          % (path, seen, dropped))
PY
}
[ ${#vmcores[@]} -gt 0 ] && run_test "drgn reads vmsift's kdump, ELF and rebuilt flattened dumps" t_drgn "${vmcores[0]}"
