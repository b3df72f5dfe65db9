# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/encrypt.sh - encrypted dumps in the age format (issue #15,
# doc/encryption.md), with Debian's `age` as the oracle both ways: what
# vmsift encrypts, `age -d` decrypts into a stream that `vmsift -R`
# rebuilds into the very file an unencrypted run writes; what `age -r`
# encrypts, vmsift reads with --identity (-R, re-filtering, --dump-dmesg).
# Tampering (header, a chunk, the last chunk), truncation, a wrong
# identity and malformed recipients fail with exit 1 and a message naming
# the chunk, never with unauthenticated plaintext in the output.  No
# plaintext: strings of the vmcore are absent from the encrypted file.
# Fresh keys each run (age-keygen).  Sourced by tests/run; about 75 s of
# CPU (user+sys), a few minutes of wall time on a loaded machine.

enc_dir=$work/enc
enc_in=$work/kdump-384M.vmcore

# enc_keys: two identities and their recipients in $enc_dir.
enc_keys() {
	[ -s "$enc_dir/rcpt2" ] && return 0
	mkdir -p "$enc_dir" || return 1
	command -v age >/dev/null || { echo "age is not installed (tools/install-deps)"; return 1; }
	age-keygen -o "$enc_dir/key1" 2>/dev/null && age-keygen -o "$enc_dir/key2" 2>/dev/null || return 1
	age-keygen -y "$enc_dir/key1" > "$enc_dir/rcpt1" && age-keygen -y "$enc_dir/key2" > "$enc_dir/rcpt2"
}

# enc_flip FILE OFFSET OUT: OUT is FILE with byte OFFSET changed (a
# base64 character into another one, so that a header stays parseable).
enc_flip() {
	$PY - "$@" <<'EOF'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
o = int(sys.argv[2])
b64 = b'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
if d[o] in b64:
    d[o] = ord('A') if d[o] != ord('A') else ord('B')
else:
    d[o] ^= 0x10
open(sys.argv[3], 'wb').write(d)
EOF
}

# enc_payload FILE: the offset of the first payload chunk (after the text
# header and the 16-byte nonce), found independently of vmsift's parser.
enc_payload() {
	$PY -c "
import sys
d = open(sys.argv[1], 'rb').read(1 << 20)
mac = d.index(b'\n--- ') + 1
print(d.index(b'\n', mac) + 1 + 16)" "$1"
}

# enc_prefix GOOD PARTIAL: every byte of PARTIAL past the header block is
# GOOD's or zero (a hole not yet written): no byte came from a chunk that
# did not authenticate.
enc_prefix() {
	$PY - "$1" "$2" <<'EOF'
import sys
good = open(sys.argv[1], 'rb').read()
part = open(sys.argv[2], 'rb').read()
if len(part) > len(good):
    sys.exit('partial output longer than the whole one')
for i in range(4096, len(part), 4096):
    a, b = part[i:i + 4096], good[i:i + 4096]
    if a != b and a != bytes(len(a)):
        for j in range(len(a)):
            if a[j] != b[j] and a[j] != 0:
                sys.exit('byte %#x: %#x is neither the dump\'s (%#x) nor a hole' % (i + j, a[j], b[j]))
EOF
}

# t_enc_out CODEC LEVEL THREADS: vmsift --encrypt-to, then age -d and
# vmsift -R, equals an unencrypted run.
t_enc_out() {
	local d=$enc_dir/out$1$2$3
	enc_keys || return 1
	mkdir -p "$d" && rm -f "$d"/*
	vmsift $1 -d "$2" --num-threads "$3" --message-level 0 "$enc_in" "$d/plain" || return 1
	vmsift $1 -d "$2" --num-threads "$3" --message-level 0 \
		--encrypt-to "$(cat "$enc_dir/rcpt1")" "$enc_in" "$d/enc" || return 1
	head -c 22 "$d/enc" | grep -q '^age-encryption.org/v1$' || { echo "not an age file"; return 1; }
	age -d -i "$enc_dir/key1" -o "$d/stream" "$d/enc" || { echo "age -d failed"; return 1; }
	vmsift -R "$d/rebuilt" < "$d/stream" || return 1
	cmp "$d/plain" "$d/rebuilt"
}

# t_enc_stdout: -F to stdout, two recipients (one from a file with a
# comment), each identity decrypts it.
t_enc_stdout() {
	local d=$enc_dir/stdout k
	enc_keys || return 1
	mkdir -p "$d" && rm -f "$d"/*
	{ echo "# the backup key"; cat "$enc_dir/rcpt2"; echo; } > "$d/recipients"
	vmsift -z -d 31 --message-level 0 "$enc_in" "$d/plain" || return 1
	vmsift -F -z -d 31 --message-level 0 --encrypt-to "$(cat "$enc_dir/rcpt1")" \
		--encrypt-to-file "$d/recipients" "$enc_in" | cat > "$d/enc" || return 1
	for k in key1 key2; do
		rm -f "$d/rebuilt"
		age -d -i "$enc_dir/$k" "$d/enc" | vmsift -R "$d/rebuilt" || { echo "$k"; return 1; }
		cmp "$d/plain" "$d/rebuilt" || return 1
	done
}

# t_enc_split: --split, each part its own age file; decrypted and rebuilt,
# the parts are the unencrypted ones, and they reassemble.
t_enc_split() {
	local d=$enc_dir/split i
	enc_keys || return 1
	mkdir -p "$d" && rm -f "$d"/*
	vmsift --split -l -d 31 --message-level 0 "$enc_in" "$d/p1" "$d/p2" "$d/p3" || return 1
	vmsift --split -l -d 31 --message-level 0 --encrypt-to "$(cat "$enc_dir/rcpt1")" \
		"$enc_in" "$d/e1" "$d/e2" "$d/e3" || return 1
	for i in 1 2 3; do
		age -d -i "$enc_dir/key1" "$d/e$i" | vmsift -R "$d/r$i" || return 1
		cmp "$d/p$i" "$d/r$i" || return 1
	done
	vmsift --reassemble "$d/r1" "$d/r2" "$d/r3" "$d/joined" --message-level 0 || return 1
	vmsift -l -d 31 --message-level 0 "$enc_in" "$d/direct" || return 1
	cmp "$d/direct" "$d/joined" || return 1
	# The encrypted parts reassembled as they are, with the identity.
	vmsift --identity "$enc_dir/key1" --reassemble "$d/e1" "$d/e2" "$d/e3" "$d/joined2" \
		--message-level 0 || return 1
	cmp "$d/direct" "$d/joined2"
}

# t_enc_read_api: the read interface (vmsift_dumpfile_*, what vmsift
# mount uses) on an encrypted file equals it on the plain one, pfn by
# pfn in a scattered order (tests/tools/age_read.c).
t_enc_read_api() {
	enc_keys || return 1
	local d=$enc_dir/api
	mkdir -p "$d" && rm -f "$d"/*
	make -s -C "$top" lib/libvmsift.a || return 1
	cc -O2 -Wall -Wextra -Werror -std=gnu11 -I"$top/include" -o "$d/age_read" \
		"$top/tests/tools/age_read.c" "$top/lib/libvmsift.a" \
		$(pkg-config --libs zlib lzo2 snappy libzstd libdeflate libcrypto) -pthread || return 1
	vmsift -F -z -d 31 --message-level 0 "$enc_in" > "$d/stream" || return 1
	vmsift -R "$d/plain" < "$d/stream" || return 1
	vmsift -z -d 31 --message-level 0 --encrypt-to "$(cat "$enc_dir/rcpt2")" "$enc_in" "$d/enc" || return 1
	"$d/age_read" "$enc_dir/key2" "$d/enc" "$d/plain"
}

# t_enc_in: age -r encrypts a flattened stream; vmsift reads it with
# --identity: -R, re-filtering, --dump-dmesg, as from the plain stream.
t_enc_in() {
	local d=$enc_dir/in
	enc_keys || return 1
	mkdir -p "$d" && rm -f "$d"/*
	vmsift -F -c -d 31 --message-level 0 "$enc_in" > "$d/stream" || return 1
	age -r "$(cat "$enc_dir/rcpt2")" -r "$(cat "$enc_dir/rcpt1")" -o "$d/enc" "$d/stream" || return 1
	vmsift -R "$d/plain" < "$d/stream" || return 1
	vmsift --identity "$enc_dir/key1" -R "$d/rebuilt" < "$d/enc" || return 1
	cmp "$d/plain" "$d/rebuilt" || return 1
	# Read in place: chunks decrypted as the reads touch them.
	vmsift -z -d 31 --message-level 0 "$d/plain" "$d/refilter.plain" || return 1
	vmsift --identity "$enc_dir/key1" -z -d 31 --message-level 0 "$d/enc" "$d/refilter.enc" || return 1
	cmp "$d/refilter.plain" "$d/refilter.enc" || return 1
	$check pages "$enc_in" "$d/refilter.enc" || return 1
	vmsift --dump-dmesg --message-level 0 "$enc_in" "$d/dmesg.plain" || return 1
	vmsift --identity "$enc_dir/key2" --dump-dmesg --message-level 0 "$d/enc" "$d/dmesg.enc" || return 1
	cmp "$d/dmesg.plain" "$d/dmesg.enc" || return 1
	# Without an identity: refused, saying what is missing.
	vmsift -R "$d/noid" < "$d/enc" 2>"$d/err" && { echo "read without identity"; return 1; }
	grep -q -- "--identity" "$d/err" || { cat "$d/err"; return 1; }
}

# enc_bad NAME FRAGMENT MUTATED: vmsift --identity -R of MUTATED fails
# with exit 1, FRAGMENT in the message, and writes only authenticated
# plaintext: what the rebuilt file holds is the good dump's or a hole.
enc_bad() {
	local d=$enc_dir/bad out=$enc_dir/bad/$1.out rc
	rm -f "$out"
	vmsift --identity "$enc_dir/key1" -R "$out" < "$3" 2>"$d/$1.err"
	rc=$?
	cat "$d/$1.err"
	[ $rc -eq 1 ] || { echo "exit status $rc, expected 1"; return 1; }
	grep -qF -- "$2" "$d/$1.err" || { echo "message lacks '$2'"; return 1; }
	enc_prefix "$d/good" "$out"
}

t_enc_tamper() {
	local d=$enc_dir/bad p size mid last
	enc_keys || return 1
	mkdir -p "$d" && rm -f "$d"/*
	vmsift -c -d 31 --message-level 0 --encrypt-to "$(cat "$enc_dir/rcpt1")" "$enc_in" "$d/enc" || return 1
	age -d -i "$enc_dir/key1" "$d/enc" | vmsift -R "$d/good" || return 1
	p=$(enc_payload "$d/enc")
	size=$(stat -c %s "$d/enc")
	last=$(( (size - p - 1) / 65552 ))
	mid=$(( last / 2 ))
	# The header: its MAC line, and the wrapped file key.
	enc_flip "$d/enc" $((p - 16 - 10)) "$d/mac"
	enc_bad header-mac "the age header's MAC does not match" "$d/mac" || return 1
	enc_flip "$d/enc" 100 "$d/stanza"
	enc_bad header-stanza "is not encrypted to the identity" "$d/stanza" || return 1
	# The payload nonce changes every chunk's key.
	enc_flip "$d/enc" $((p - 3)) "$d/nonce"
	enc_bad nonce "age chunk 0 does not authenticate" "$d/nonce" || return 1
	enc_flip "$d/enc" $((p + mid * 65552 + 777)) "$d/chunk"
	enc_bad chunk "age chunk $mid does not authenticate" "$d/chunk" || return 1
	enc_flip "$d/enc" $((size - 3)) "$d/last"
	enc_bad last "age chunk $last (the last) does not authenticate" "$d/last" || return 1
	age -d -i "$enc_dir/key1" "$d/chunk" >/dev/null 2>&1 && { echo "age accepted the flipped chunk"; return 1; }
	return 0
}

# A cut file: -R keeps the authenticated prefix, marked incomplete; cut
# at a chunk boundary too (no last chunk at all).
t_enc_truncated() {
	local d=$enc_dir/bad p
	enc_keys || return 1
	mkdir -p "$d" && rm -f "$d"/*
	vmsift -c -d 31 --message-level 0 --encrypt-to "$(cat "$enc_dir/rcpt1")" "$enc_in" "$d/enc" || return 1
	age -d -i "$enc_dir/key1" "$d/enc" | vmsift -R "$d/good" || return 1
	p=$(enc_payload "$d/enc")
	head -c $((p + 100 * 65552 + 5000)) "$d/enc" > "$d/cut"
	enc_bad cut "age chunk 100 (the last) does not authenticate" "$d/cut" || return 1
	$check incomplete "$enc_in" "$d/cut.out" || return 1
	head -c $((p + 100 * 65552)) "$d/enc" > "$d/cut2"
	enc_bad cut2 "age chunk 99 is whole but the stream ends after it" "$d/cut2" || return 1
	$check incomplete "$enc_in" "$d/cut2.out"
}

# A wrong identity, a key that is not one: refused, nothing written.
t_enc_wrong_key() {
	local d=$enc_dir/bad
	enc_keys || return 1
	mkdir -p "$d" && rm -f "$d"/*
	vmsift -F -c -d 31 --message-level 0 --encrypt-to "$(cat "$enc_dir/rcpt1")" "$enc_in" > "$d/enc" || return 1
	vmsift --identity "$enc_dir/key2" -R "$d/out" < "$d/enc" 2>"$d/err" && { echo "wrong key accepted"; return 1; }
	grep -q "not encrypted to the identity" "$d/err" || { cat "$d/err"; return 1; }
	[ ! -s "$d/out" ] || { echo "output written"; return 1; }
	cp "$enc_dir/rcpt1" "$d/notakey"
	vmsift --identity "$d/notakey" -R "$d/out2" < "$d/enc" 2>"$d/err" && { echo "public key taken as identity"; return 1; }
	grep -q "not an age X25519 identity" "$d/err" || { cat "$d/err"; return 1; }
}

# Malformed recipients: refused before the input is even opened (the
# input does not exist), no output created.
t_enc_bad_recipient() {
	local d=$enc_dir/badrcpt good r swap
	enc_keys || return 1
	mkdir -p "$d" && rm -f "$d"/*
	good=$(cat "$enc_dir/rcpt1")
	swap=q
	[ "${good:10:1}" = q ] && swap=p
	for r in "age1" "${good%?}" "${good:0:20}" "AGE1${good:4}" "${good:0:10}$swap${good:11}" \
		 "ssh-ed25519 AAAA" "$(grep -o 'AGE-SECRET-KEY-1.*' "$enc_dir/key1")" \
		 "${good}qqqqqq" ""; do
		vmsift -c --encrypt-to "$r" "$d/missing.vmcore" "$d/out" 2>"$d/err" &&
			{ echo "accepted '$r'"; return 1; }
		grep -q "recipient" "$d/err" || { echo "for '$r':"; cat "$d/err"; return 1; }
		[ ! -e "$d/out" ] || { echo "output created for '$r'"; return 1; }
	done
	vmsift -E --encrypt-to "$good" "$enc_in" "$d/out" 2>"$d/err" && { echo "-E accepted"; return 1; }
	grep -q -- "-E cannot be encrypted" "$d/err" || { cat "$d/err"; return 1; }
	[ ! -e "$d/out" ]
}

# No plaintext: VMCOREINFO's OSRELEASE line and the kernel's log, which an
# unencrypted uncompressed dump holds, are absent from the encrypted one.
t_enc_no_plaintext() {
	local d=$enc_dir/np rel line
	enc_keys || return 1
	mkdir -p "$d" && rm -f "$d"/*
	rel=$(grep -a -o -m1 'OSRELEASE=[^[:space:]]*' "$enc_in" | head -n1)
	[ -n "$rel" ] || { echo "no OSRELEASE in the vmcore"; return 1; }
	vmsift --dump-dmesg --message-level 0 "$enc_in" "$d/dmesg" || return 1
	line=$(grep -m1 'Linux version' "$d/dmesg" | sed 's/^\[[^]]*\] //')
	vmsift --compression-level=0 -d 31 --message-level 0 "$enc_in" "$d/plain" || return 1
	vmsift --compression-level=0 -d 31 --message-level 0 --encrypt-to "$(cat "$enc_dir/rcpt1")" \
		"$enc_in" "$d/enc" || return 1
	grep -a -q -F "$rel" "$d/plain" && grep -a -q -F "${line:0:40}" "$d/plain" ||
		{ echo "control: the plain dump lacks the strings"; return 1; }
	grep -a -q -F "$rel" "$d/enc" && { echo "OSRELEASE in the encrypted file"; return 1; }
	grep -a -q -F "${line:0:40}" "$d/enc" && { echo "the log in the encrypted file"; return 1; }
	return 0
}

# -L: the encrypted file stays under the limit, decrypts whole, and
# rebuilds into a dump marked incomplete.
t_enc_limit() {
	local d=$enc_dir/limit
	enc_keys || return 1
	mkdir -p "$d" && rm -f "$d"/*
	vmsift -L 4M -c -d 1 --message-level 0 --encrypt-to "$(cat "$enc_dir/rcpt1")" \
		"$enc_in" "$d/enc" 2>"$d/err" && { echo "not cut"; return 1; }
	[ "$(stat -c %s "$d/enc")" -le $((4 << 20)) ] || { echo "over the limit"; return 1; }
	age -d -i "$enc_dir/key1" "$d/enc" | vmsift -R "$d/rebuilt" || return 1
	$check incomplete "$enc_in" "$d/rebuilt" || return 1
	# -d 1,31: -d 1 does not fit in 20M, the retry at 31 starts the
	# file afresh (a new header, a new key) and does.
	vmsift -L 20M -c -d 1,31 --message-level 0 --encrypt-to "$(cat "$enc_dir/rcpt1")" \
		"$enc_in" "$d/retry" 2>/dev/null || return 1
	age -d -i "$enc_dir/key1" "$d/retry" | vmsift -R "$d/retry.kd" || return 1
	vmsift -c -d 31 --message-level 0 "$enc_in" "$d/plain31" || return 1
	cmp "$d/plain31" "$d/retry.kd"
}

# t_enc_lazy_crypto: libcrypto is loaded only when a run encrypts or
# decrypts (lib/crypto.h): the dynamic vmsift does not NEED it, the
# loader (LD_DEBUG=files) maps it for --encrypt-to and --identity but not
# for a plain dump or --mem-usage; where it cannot be loaded (a mount
# namespace puts an empty file in its place: root and unshare needed),
# encryption fails with exit 1 naming the library and its package, and a
# plain dump still works.
# enc_loads CMD...: runs CMD with the loader's trace in a file (a pipe
# into grep -q would let CMD die of SIGPIPE once grep has its line) and
# prints yes or no: did it load libcrypto; fails when CMD fails.
enc_loads() {
	local ld=$enc_dir/lazy/ld.err
	LD_DEBUG=files "$@" 2>"$ld" >/dev/null ||
		{ echo "exit $?: $*"; grep -v '^ *[0-9]*:' "$ld" | tail -5; return 1; }
	if grep -q 'calling init: .*/libcrypto\.so\.3$' "$ld"; then echo yes; else echo no; fi
}
t_enc_lazy_crypto() {
	local d=$enc_dir/lazy rcpt lib msg l
	enc_keys || return 1
	mkdir -p "$d" && rm -f "$d"/*
	rcpt=$(cat "$enc_dir/rcpt1")
	readelf -d "$top/vmsift" | grep -q 'NEEDED.*libcrypto' && { echo "vmsift NEEDs libcrypto"; return 1; }
	l=$(enc_loads vmsift --mem-usage "$enc_in") || { echo "$l"; return 1; }
	[ "$l" = no ] || { echo "--mem-usage loaded libcrypto"; return 1; }
	l=$(enc_loads vmsift -l -d 31 --message-level 0 "$enc_in" "$d/plain") || { echo "$l"; return 1; }
	[ "$l" = no ] || { echo "a plain dump loaded libcrypto"; return 1; }
	l=$(enc_loads vmsift -l -d 31 --message-level 0 --encrypt-to "$rcpt" "$enc_in" "$d/enc") ||
		{ echo "$l"; return 1; }
	[ "$l" = yes ] || { echo "--encrypt-to did not load libcrypto"; return 1; }
	l=$(enc_loads vmsift --identity "$enc_dir/key1" -R "$d/back" < "$d/enc") || { echo "$l"; return 1; }
	[ "$l" = yes ] || { echo "--identity did not load libcrypto"; return 1; }
	cmp "$d/plain" "$d/back" || return 1
	lib=$(ldconfig -p | sed -n 's/.*libcrypto\.so\.3 (libc6,x86-64) => //p' | head -1)
	if [ "$(id -u)" != 0 ] || [ -z "$lib" ] || ! unshare -m true 2>/dev/null; then
		log "# lazy libcrypto: not root, no unshare or no x86-64 libcrypto: absence not tried"
		return 0
	fi
	: > "$d/empty.so"
	rm -f "$d/enc" "$d/plain"
	msg=$(unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh "$d/empty.so" "$lib" \
		vmsift -l -d 31 --message-level 0 --encrypt-to "$rcpt" "$enc_in" "$d/enc" 2>&1)
	[ $? = 1 ] || { echo "no libcrypto: exit not 1: $msg"; return 1; }
	echo "without libcrypto: $msg"
	[[ $msg == *libcrypto.so.3*libssl3* ]] || return 1
	unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh "$d/empty.so" "$lib" \
		vmsift -l -d 31 --message-level 0 "$enc_in" "$d/plain" || return 1
	[ -s "$d/plain" ] && [ ! -s "$d/enc" ]
}

# Fresh keys for each run of the suite, made by the first test to need them.
rm -rf "$enc_dir"
# zlib and zstd (8 threads) by default; lzo, snappy (2 threads) and
# uncompressed, the same encryption of other pages, with VMSIFT_FULL=1.
for enc_args in "-c 31 1" "-l 31 1" "-p 31 2" "-z 31 8" "--compression-level=0 31 1"; do
	case $enc_args in "-c "*|"-z "*) ;; *) full || continue ;; esac
	# shellcheck disable=SC2086
	run_test "encrypt age: vmsift encrypts ($enc_args), age -d | vmsift -R equals plain" \
		t_enc_out $enc_args
done
run_test "encrypt age: -F to stdout, two recipients (--encrypt-to-file), each key" t_enc_stdout
run_test "encrypt age: --split, each part an age file; --reassemble with --identity" t_enc_split
run_test "encrypt age: age -r encrypts, vmsift --identity reads (-R, re-filter, dmesg)" t_enc_in
run_test "encrypt age: the read interface reads an encrypted dump at random" t_enc_read_api
run_test "encrypt age: flipped byte in header, nonce, chunk, last chunk" t_enc_tamper
run_test "encrypt age: truncated file keeps the authenticated prefix, incomplete" t_enc_truncated
run_test "encrypt age: wrong identity refused" t_enc_wrong_key
run_test "encrypt age: malformed recipients refused before the dump" t_enc_bad_recipient
run_test "encrypt age: no plaintext in the encrypted file" t_enc_no_plaintext
run_test "encrypt age: -L cuts an encrypted dump that stays decryptable; -d 1,31 retries" t_enc_limit
run_test "encrypt age: libcrypto loaded only to encrypt or decrypt, named when absent" t_enc_lazy_crypto

# The real thing: a Debian kernel under QEMU panics and its capture kernel
# runs vmsift-static --encrypt-to on /proc/vmcore (kdump-compressed to a
# file, and -F to stdout); the host decrypts with age -d, then checks every
# page against the raw /proc/vmcore and the bitmap against makedumpfile's
# (tests/harness/kdump-test).  The serial log's "random:" line shows the
# capture kernel's entropy as the file key is drawn.  A few minutes under
# TCG: behind VMSIFT_AGE_FULL=1.
t_enc_capture() {
	local log rc
	log=$(make -s -C "$top" static 2>&1) ||
		{ grep -v "statically linked applications" <<<"$log"; return 1; }
	timeout 1500 "$top/tests/harness/kdump-test" --quick --out "$work/enc-kdump" \
		--dump-args "--encrypt-to AGE_RECIPIENT -l -d 31;--encrypt-to AGE_RECIPIENT -F -z -d 31"
	rc=$?
	grep -a -h -o 'HARNESS: random:.*\|HARNESS: dump [0-9]*:.*' "$work/enc-kdump/serial.log"
	return $rc
}
if [ "${VMSIFT_AGE_FULL:-0}" = 1 ] && [ "${VMSIFT_NO_QEMU:-0}" != 1 ]; then
	run_test "encrypt age: capture kernel dumps encrypted, age -d decrypts, pages checked" t_enc_capture
else
	log "# skipped: encrypted dump in a real capture kernel (VMSIFT_AGE_FULL=1 runs it)"
fi
