# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/secnew.sh - the shipped secrets rules (data/erase/secrets.conf,
# BTF; secrets-dwarf.conf, -x) on Debian's newer x86_64 kernels: 6.12
# (trixie) and 7.x (trixie-backports) (issue #13; doc/btf.md).  Sourced by
# tests/run.
# prebuild: none
#
# Only with VMSIFT_SECRETS_NEW=1: it boots the secrets guest
# (tests/harness/kdump-test --secrets --kernel-suite S, 1 to 8 minutes of
# TCG each) once per kernel and keeps its raw /proc/vmcore in the cache
# ($VMSIFT_CACHE/secrets-v6-KVER.vmcore); a rerun costs seconds.  Per
# kernel of VMSIFT_SECRETS_NEW_SUITES (default "trixie trixie-backports"):
#   - every known secret of lib.sh (SECRET_*) is in the raw vmcore, and
#     secrets.conf, resolved from the dump's own kallsyms and BTF (no -x,
#     no debug package), leaves none of them, nor the SHA-256 of the essiv
#     key, nor the kTLS keys' GHASH key H (where the vmcore holds it as
#     such: 6.12), in the -l -d 31 dump read back by libkdumpfile
#     (tests/tools/page_grep.py);
# and where the kernel's -dbg vmlinux is in the cache (tests/suites/
# dbgnew.sh or fetch_dbg_vmlinux put it there; not downloaded here):
#   - the encrypted key's random payload (drgn reads it from the raw
#     vmcore) is gone too, and drgn's places of base_crng, input_pool,
#     each CPU's crngs, the user, logon, fscrypt and encrypted keys' payloads are
#     'X' in the BTF and the DWARF dumps (tests/tools/erased_check.py);
#   - secrets-dwarf.conf with -x leaves none of the known secrets, and the
#     two files' [dm_mod] and kTLS rules write the same dump from BTF as
#     from DWARF, eraseinfo included;
#   - crash opens the erased dump, when Debian's crash opens the raw one
#     (remembered in the cache as dbgnew.sh does).

secnew_dir=$work/secnew
secnew_cache=${VMSIFT_CACHE:-$top/tests/work/cache}
secnew_suites=${VMSIFT_SECRETS_NEW_SUITES:-trixie trixie-backports}
secnew_py=/usr/bin/python3          # Debian's python: has drgn
# shellcheck source=tests/suites/lib/crash_source.sh
. "$top/tests/suites/lib/crash_source.sh"

# secnew_vmcore SUITE: "KVER VMCORE" of SUITE's secrets guest, made once
# into the cache.
secnew_vmcore() {
	( set -e
	  export VMSIFT_CACHE=$secnew_cache
	  # shellcheck source=/dev/null
	  . "$top/tests/harness/lib.sh"
	  set_arch x86_64
	  set_ksuite "$1"
	  KVER=$(kernel_version)
	  # -v6: kTLS over AES-GCM-128, AES-CCM-128 and ChaCha20-Poly1305 and
	  # an fscrypt-provisioning key, which -v5 lacks
	  v=$VMSIFT_CACHE/secrets-v6-$KVER.vmcore
	  if [ ! -s "$v" ]; then
		T_CAPTURE=${T_CAPTURE:-900} "$top/tests/harness/kdump-test" --quick \
			--secrets --smp 2 --kernel-suite "$1" \
			--dump-tool "$top/vmsift" --dump-args '-l -d 31' --no-check \
			--out "$work/secnew-$1" --save-raw "$v.tmp" >&2
		mv "$v.tmp" "$v"
	  fi
	  echo "$KVER $v" )
}

# secnew_texts: the known secrets page_grep.py looks for (lib.sh's):
# the key payloads (user, logon, master, fscrypt-provisioning), each
# dm-crypt key and half, the SHA-256 of each essiv key (the ESSIV
# cipher's key), the kTLS keys of every cipher (and the essiv mapping's
# and kTLS connections' made after AES-NI and the other late modules);
# one a line.
secnew_texts() {
	# shellcheck source=/dev/null
	. "$top/tests/harness/lib.sh"
	printf '%s\n' "$SECRET_USER_KEY" "$SECRET_LOGON_KEY" "$SECRET_KMK_KEY" \
		"$SECRET_DM_KEY" "$SECRET_DM_XTS_KEY1" "$SECRET_DM_XTS_KEY2" \
		"$SECRET_DM_ESSIV_KEY" \
		"hex:$(printf '%s' "$SECRET_DM_ESSIV_KEY" | sha256sum | cut -c1-64)" \
		"$SECRET_DM_AESNI_KEY1" "$SECRET_DM_AESNI_KEY2" \
		"$SECRET_KTLS_TX_KEY" "$SECRET_KTLS_RX_KEY" \
		"$SECRET_DM_ESSIV_NI_KEY" \
		"hex:$(printf '%s' "$SECRET_DM_ESSIV_NI_KEY" | sha256sum | cut -c1-64)" \
		"$SECRET_KTLS_NI_TX_KEY" "$SECRET_KTLS_NI_RX_KEY" "$SECRET_FSCRYPT_KEY" \
		"$SECRET_KTLS_GCM128_TX_KEY" "$SECRET_KTLS_GCM128_RX_KEY" \
		"$SECRET_KTLS_CCM_TX_KEY" "$SECRET_KTLS_CCM_RX_KEY" \
		"$SECRET_KTLS_CHACHA_TX_KEY" "$SECRET_KTLS_CHACHA_RX_KEY" \
		"$SECRET_KTLS_GCM128_NI_TX_KEY" "$SECRET_KTLS_GCM128_NI_RX_KEY" \
		"$SECRET_KTLS_CCM_NI_TX_KEY" "$SECRET_KTLS_CCM_NI_RX_KEY" \
		"$SECRET_KTLS_CHACHA_NI_TX_KEY" "$SECRET_KTLS_CHACHA_NI_RX_KEY"
}

# secnew_ghash: each kTLS key's GHASH key H = AES_K(0) (ktls_keys.py),
# "hex:..." one a line: gcm.ko's ghash-generic keeps H itself at the
# start of its table (6.1, 6.12), 6.1's AES-NI GCM as such too; 7.x's
# AES library and 6.12's AES-NI GCM keep it in other forms, so it may
# be missing from a vmcore.
secnew_ghash() {
	# shellcheck source=/dev/null
	. "$top/tests/harness/lib.sh"
	(cd "$top/tests/tools" && "$secnew_py" -c 'import sys, ktls_keys
for k in sys.argv[1:]:
    print("hex:" + ktls_keys.ghash_h(k.encode()).hex())' \
		"$SECRET_KTLS_TX_KEY" "$SECRET_KTLS_RX_KEY" "$SECRET_KTLS_NI_TX_KEY" \
		"$SECRET_KTLS_NI_RX_KEY" "$SECRET_KTLS_GCM128_TX_KEY" \
		"$SECRET_KTLS_GCM128_RX_KEY" "$SECRET_KTLS_GCM128_NI_TX_KEY" \
		"$SECRET_KTLS_GCM128_NI_RX_KEY")
}

# secnew_grep RAW DUMP [TEXT...]: each known secret (and each TEXT) is in
# RAW and in no page of DUMP; each GHASH key H in RAW is in no page of
# DUMP (one not in RAW is said on stdout).
secnew_grep() {
	local raw=$1 dump=$2 texts=() h=()
	shift 2
	mapfile -t texts < <(secnew_texts)
	mapfile -t h < <(secnew_ghash)
	[ ${#h[@]} = 8 ] || { echo "no GHASH keys computed"; return 1; }
	texts+=("$@")
	"$secnew_py" "$top/tests/tools/page_grep.py" "$raw" "${texts[@]}" "${h[@]}" > "$dump.in.n" || return 1
	"$secnew_py" "$top/tests/tools/page_grep.py" "$dump" "${texts[@]}" "${h[@]}" > "$dump.n" || return 1
	awk -v n=${#texts[@]} '$1 == 0 && FNR <= n { print "not in the unerased vmcore: " $0; bad = 1 }
	     $1 == 0 && FNR > n { print "GHASH key not in the vmcore as such: " $2 }
	     END { exit bad }' "$dump.in.n" || return 1
	awk '$1 != 0 { print "left after the erase: " $0; bad = 1 }
	     END { exit bad }' "$dump.n"
}

# t_secnew_btf RAW: secrets.conf without -x leaves no known secret.
t_secnew_btf() {
	local o=$sn_out.btf
	rm -f "$o" "$o".*
	vmsift --config "$top/data/erase/secrets.conf" -l -d 31 --message-level 0 \
		"$1" "$o" || return 1
	secnew_grep "$1" "$o"
}

# secnew_encrypted RAW VMLINUX: "hex:..." of each encrypted key's payload.
secnew_encrypted() {
	local k enc
	enc=$("$secnew_py" "$top/tests/tools/erased_check.py" --print-encrypted "$1" "$2") || return 1
	[ -n "$enc" ] || { echo "no encrypted key in $1" >&2; return 1; }
	for k in $enc; do echo "hex:$k"; done
}

# t_secnew_drgn RAW VMLINUX: the encrypted payload is gone from the BTF
# dump, and drgn's places of every secret it knows are erased in the BTF
# and the DWARF (-x secrets-dwarf.conf) dumps; the DWARF one leaves no
# known secret either.
t_secnew_drgn() {
	local raw=$1 vml=$2 enc=()
	# shellcheck source=/dev/null
	. "$top/tests/harness/lib.sh"
	rm -f "$sn_out.x" "$sn_out.x".*
	[ -s "$sn_out.btf" ] || t_secnew_btf "$raw" > /dev/null || return 1
	mapfile -t enc < <(secnew_encrypted "$raw" "$vml") || return 1
	[ ${#enc[@]} -gt 0 ] || { echo "no encrypted key payload"; return 1; }
	secnew_grep "$raw" "$sn_out.btf" "${enc[@]}" || return 1
	vmsift -x "$vml" --config "$top/data/erase/secrets-dwarf.conf" -l -d 31 \
		--message-level 0 "$raw" "$sn_out.x" || return 1
	secnew_grep "$raw" "$sn_out.x" "${enc[@]}" || return 1
	"$secnew_py" "$top/tests/tools/erased_check.py" --key "$SECRET_USER_KEY" \
		--key "$SECRET_LOGON_KEY" --key "$SECRET_KMK_KEY" \
		--key "$SECRET_FSCRYPT_KEY" --encrypted --tfm-neighbours \
		"$raw" "$vml" "$sn_out.btf" "$sn_out.x"
}

# t_secnew_same RAW VMLINUX: the files' [dm_mod] rules, and their kTLS
# rules, are the same lines, and each set writes the same dump from the
# dump's BTF as from DWARF (-x: the vmlinux and the modules' .ko beside
# it), eraseinfo included.
t_secnew_same() {
	local raw=$1 vml=$2 d=$top/data/erase o=$sn_out.same part sel
	for part in dm ktls; do
		case $part in
		dm) sel='/^\[dm_mod\]/,/^\[vmlinux\]/p' ;;
		ktls) sel='/^for b in tcp_hashinfo/,/^# end of the kTLS rules/p' ;;
		esac
		rm -f "$o.$part".*
		sed -n "$sel" "$d/secrets.conf" > "$o.$part.conf"
		sed -n "$sel" "$d/secrets-dwarf.conf" | diff "$o.$part.conf" - ||
			{ echo "the files' $part rules differ"; return 1; }
		[ "$(wc -l < "$o.$part.conf")" -gt 10 ] || { echo "no $part rules"; return 1; }
		vmsift --config "$o.$part.conf" -l -d 31 --message-level 0 \
			"$raw" "$o.$part.btf" || return 1
		vmsift -x "$vml" --config "$o.$part.conf" -l -d 31 --message-level 0 \
			"$raw" "$o.$part.x" || return 1
		cmp "$o.$part.btf" "$o.$part.x" || return 1
	done
}

# t_secnew_crash RAW KVER: crash opens the erased (BTF) dump.
t_secnew_crash() {
	[ -s "$sn_out.btf" ] || t_secnew_btf "$1" > /dev/null || return 1
	VMSIFT_CACHE=$secnew_cache KERNEL_VERSION=$2 \
		"$top/tests/harness/crash-check" "$sn_out.btf"
}

t_secnew_failed() {
	tail -n 20 "$1"
	return 1
}

secnew_one() {
	local suite=$1 k kver raw vml
	if ! k=$(secnew_vmcore "$suite" 2> "$secnew_dir/$suite.log"); then
		run_test "secnew $suite: the secrets guest's vmcore" \
			t_secnew_failed "$secnew_dir/$suite.log"
		return
	fi
	read -r kver raw <<< "$k"
	sn_out=$work/out/secnew-$kver
	run_test "secnew $kver: secrets.conf (BTF, no -x): every known secret in the vmcore, none in the dump" \
		t_secnew_btf "$raw"
	vml=$secnew_cache/dbg-$kver/vmlinux-$kver
	if [ ! -f "$vml" ]; then
		log "# skipped: secnew $kver: drgn, -x and crash checks (no -dbg vmlinux in $secnew_cache/dbg-$kver: VMSIFT_DBG_NEW=1 fetches it)"
		return
	fi
	run_test "secnew $kver: drgn's places erased, the encrypted key's payload gone (BTF and -x)" \
		t_secnew_drgn "$raw" "$vml"
	run_test "secnew $kver: [dm_mod] and kTLS rules write the same dump from BTF as from DWARF" \
		t_secnew_same "$raw" "$vml"
	if crash_opens_raw "$raw" "$kver" "$secnew_cache" "$secnew_dir"; then
		run_test "secnew $kver: crash opens the erased dump" t_secnew_crash "$raw" "$kver"
	else
		log "# skipped: secnew $kver: crash on the erased dump: $(crash --version 2>/dev/null | grep -m1 .) does not open the raw vmcore itself ($secnew_cache/dbgnew-ref/$kver/crash-*.log)"
	fi
}

if [ "${VMSIFT_SECRETS_NEW:-0}" = 1 ]; then
	mkdir -p "$secnew_dir"
	for secnew_s in $secnew_suites; do
		secnew_one "$secnew_s"
	done
else
	log "# skipped: the secrets rules on 6.12 and 7.x (VMSIFT_SECRETS_NEW=1; a secrets guest per kernel, cached)"
fi
