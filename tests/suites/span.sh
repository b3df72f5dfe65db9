# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/span.sh - a machine of more than 16 TiB (issue #17):
# max_mapnr above 2^32, where the kdump header's 32-bit fields overflow.
# tests/gen/mkspan.py makes a 16 MiB vmcore with 4 pages straddling pfn
# 2^32 and 4 more at 17 TiB (12 MiB on disk); every format vmsift writes
# of it is checked by tests/tools/spancheck.py (its own header parser,
# the bitmaps' data extents, libkdumpfile page by page, holes absent)
# and compared with makedumpfile's own dump of it.  The outputs are
# sparse files: their 1.1 GB of bitmaps are mostly holes.  With the
# -dbg vmlinux in the cache (tests/harness/crash-check fetches it), crash
# reads the 17 TiB pages of the carried real vmcore grown the same way.
# Sourced by tests/run.

span_dir=$work/span
span_in=$span_dir/span-17T.vmcore
spancheck="$PY $top/tests/tools/spancheck.py"

# The input, made once: RAM 0-16M, 4 pages from pfn 2^32 - 2, 4 at 17T.
span_input() {
	[ -f "$span_in" ] && [ "$span_in" -nt "$top/tests/gen/mkspan.py" ] && return 0
	mkdir -p "$span_dir"
	$PY "$top/tests/gen/mkspan.py" "$span_in.tmp" --ram 16 \
		--high 0xFFFFFFFE000:4 --high 17T:4 >/dev/null || return 1
	mv "$span_in.tmp" "$span_in"
}

# makedumpfile's -l -d 1 dump of it, kept (holes dug: 1.1 GB long, a
# few MiB on disk); 30-40 s once.
span_reference() {
	local ref=$work/ref/span-17T.mdf-l-d1
	if [ ! -f "$ref" ]; then
		makedumpfile -l -d 1 "$span_in" "$ref.tmp" >/dev/null 2>&1 || return 1
		fallocate --dig-holes "$ref.tmp" && mv "$ref.tmp" "$ref" || return 1
	fi
	echo "$ref"
}

# Too big a file on disk means the bitmaps' zeros were written out.
span_small() {
	local f kib
	for f in "$@"; do
		kib=$(du -k "$f" | cut -f1)
		[ "$kib" -lt 65536 ] || { echo "$f takes $kib KiB on disk"; return 1; }
	done
}

t_span_kdump() {
	local out=$work/out/span ref
	span_input || return 1
	vmsift -l -d 1 --message-level 0 "$span_in" "$out.l1" || return 1
	vmsift -c -d 0 --num-threads 2 --message-level 0 "$span_in" "$out.c0" || return 1
	span_small "$out.l1" "$out.c0" || return 1
	$spancheck kdump "$span_in" 1 "$out.l1" || return 1
	$spancheck fields "$span_in" 0 "$out.c0" || return 1
	ref=$(span_reference) || { echo "makedumpfile failed"; return 1; }
	cmp "$out.l1" "$ref" && echo "byte for byte makedumpfile's -l -d 1 dump"
}

# -F through a pipe into -R: the same file as the direct dump.
t_span_flat() {
	local out=$work/out/span
	span_input || return 1
	vmsift -z -d 1 --message-level 0 "$span_in" "$out.direct" || return 1
	vmsift -F -z -d 1 --message-level 0 "$span_in" |
		vmsift -R "$out.rebuilt" || return 1
	span_small "$out.rebuilt" || return 1
	$spancheck fields "$span_in" 1 "$out.rebuilt" || return 1
	cmp "$out.direct" "$out.rebuilt"
}

t_span_split() {
	local out=$work/out/span
	span_input || return 1
	vmsift --split -l -d 1 --message-level 0 "$span_in" "$out.s1" "$out.s2" || return 1
	span_small "$out.s1" "$out.s2" || return 1
	$spancheck kdump "$span_in" 1 "$out.s1" "$out.s2"
}

# A -d 0 dump re-filtered to -d 1 with another codec is the direct -d 1
# dump byte for byte; re-filtered again to snappy, libkdumpfile reads it.
t_span_refilter() {
	local out=$work/out/span
	span_input || return 1
	vmsift -c -d 0 --message-level 0 "$span_in" "$out.c0" || return 1
	vmsift -l -d 1 --message-level 0 "$out.c0" "$out.l1" || return 1
	vmsift -l -d 1 --message-level 0 "$span_in" "$out.direct" || return 1
	vmsift -p -d 1 --message-level 0 "$out.l1" "$out.p1" || return 1
	span_small "$out.l1" "$out.p1" || return 1
	cmp "$out.l1" "$out.direct" || return 1
	$spancheck kdump "$span_in" 1 "$out.p1"
}

t_span_elf() {
	local out=$work/out/span
	span_input || return 1
	vmsift -E -d 1 --message-level 0 "$span_in" "$out.elf" || return 1
	$spancheck elf "$span_in" 1 "$out.elf"
}

# Peak RSS with the 17 TiB span, against the same memory without it:
# nothing may grow with the span (kdump, flattened, ELF).
t_span_memory() {
	local out=$work/out/span flat
	span_input || return 1
	$PY "$top/tests/gen/mkspan.py" "$out.small.vmcore" --ram 16 >/dev/null || return 1
	$PY - "$out" "$span_in" "$out.small.vmcore" <<'EOF'
import os, subprocess, sys
out, big, small = sys.argv[1:]
def rss(args, stdout=subprocess.DEVNULL):
    p = subprocess.Popen(['vmsift', '--message-level', '0'] + args,
                         stdout=stdout)
    _, st, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(st):
        sys.exit('vmsift %s failed' % ' '.join(args))
    return ru.ru_maxrss
bad = 0
for name, opts in (('kdump', ['-l', '-d', '1']), ('flattened', ['-F', '-l', '-d', '1']),
                   ('ELF', ['-E', '-d', '1'])):
    got = []
    for vmcore in (small, big):
        if name == 'flattened':
            with open(out + '.flat', 'wb') as f:
                got.append(rss(opts + [vmcore], f))
        else:
            dst = out + '.rss'
            if os.path.exists(dst):
                os.unlink(dst)
            got.append(rss(opts + [vmcore, dst]))
    print('%s: peak RSS %d KiB without the span, %d KiB with it' %
          (name, got[0], got[1]))
    bad += got[1] > got[0] + 4096
sys.exit(1 if bad else 0)
EOF
}

# crash, on the carried real vmcore with 4 pages added at 17 TiB and its
# VMCOREINFO hidden (else the kernel's memory map would end max_mapnr
# below them): crash is told the KASLR offset and phys_base.
t_span_crash() {
	local base=${vmcores[0]} out=$work/out/span vi kaslr pb log
	$PY "$top/tests/gen/mkspan.py" "$out.real.vmcore" --base "$base" \
		--drop-vmcoreinfo --high 17T:4 >/dev/null || return 1
	vmsift -l -d 1 --message-level 0 "$out.real.vmcore" "$out.real" || return 1
	vi=$(head -c 1048576 "$base" | strings)
	kaslr=$(sed -n 's/^KERNELOFFSET=//p' <<< "$vi")
	pb=$(sed -n 's/^NUMBER(phys_base)=//p' <<< "$vi")
	[ -n "$kaslr" ] && [ -n "$pb" ] || { echo "no KERNELOFFSET or phys_base in $base"; return 1; }
	log=$(printf 'sys\nrd -p 0x110000000000 2\nrd -p 0x110000002000 2\nrd -p 0x110000004000 1\nquit\n' |
		timeout 300 crash -s --kaslr "0x$kaslr" --machdep "phys_base=$pb" \
			"$span_vmlinux" "$out.real" 2>&1)
	echo "$log" | tail -n 8
	$PY - "$log" <<'EOF' || return 1
import struct, sys
log = sys.argv[1]
def want(pfn):  # tests/gen/mkspan.py's stamp: pfn ^ magic, pfn
    return '%016x %016x' % (pfn ^ 0x5350414e5350414e, pfn)
for addr in (0x110000000000, 0x110000002000):
    line = '%x:  %s' % (addr, want(addr >> 12))
    if line not in log:
        sys.exit('crash does not read %s at %#x' % (want(addr >> 12), addr))
if 'seek error: physical address: 110000004000' not in log:
    sys.exit('crash reads past the last page at 17 TiB')
if 'RELEASE: 6.1.0-57-amd64' not in log:
    sys.exit('crash did not open the dump')
EOF
}

run_test "span >16 TiB: kdump -l -d 1, -c -d 0: 64-bit header fields, bitmaps, libkdumpfile, makedumpfile's file" t_span_kdump
run_test "span >16 TiB: -F | -R equals the direct dump" t_span_flat
run_test "span >16 TiB: --split into 2: 64-bit ranges, read as a set" t_span_split
run_test "span >16 TiB: re-filtered -d 0 to -d 1 and codec to codec" t_span_refilter
run_test "span >16 TiB: -E -d 1 read back by libkdumpfile" t_span_elf
run_test "span >16 TiB: peak RSS does not grow with the span" t_span_memory
span_vmlinux=${VMSIFT_CACHE:-$top/tests/work/cache}/dbg-6.1.0-57-amd64/vmlinux-6.1.0-57-amd64
if ! full; then
	log "# skipped: crash on a 17 TiB span (VMSIFT_FULL=1 runs it when the -dbg vmlinux is cached)"
elif [ -f "$span_vmlinux" ] && command -v crash >/dev/null && [ ${#vmcores[@]} -gt 0 ] &&
	[[ ${vmcores[0]} == */kdump-384M.vmcore ]]; then
	run_test "span >16 TiB: crash reads the pages at 17 TiB" t_span_crash
else
	log "# skipped: crash on a 17 TiB span (needs the -dbg vmlinux: CRASH_CHECK=1 tests/harness/crash-check fetches it)"
fi
