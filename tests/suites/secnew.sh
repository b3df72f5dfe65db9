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
# ($VMSIFT_CACHE/secrets-v9-KVER.vmcore); a rerun costs seconds.  Per
# kernel of VMSIFT_SECRETS_NEW_SUITES (default "trixie trixie-backports"):
#   - every known secret of lib.sh (SECRET_*; the IPsec SAs' keys and
#     their HMAC keys' ipad states among them) is in the raw vmcore, and
#     secrets.conf, resolved from the dump's own kallsyms and BTF (no -x,
#     no debug package), leaves none of them, nor the SHA-256 of the essiv
#     key, nor the kTLS keys' GHASH key H (where the vmcore holds it as
#     such: 6.12; the rfc4106 SAs' likewise), in the -l -d 31 dump read
#     back by libkdumpfile (tests/tools/page_grep.py);
# and where the kernel's -dbg vmlinux is in the cache (tests/suites/
# dbgnew.sh or fetch_dbg_vmlinux put it there; not downloaded here):
#   - the encrypted key's random payload (drgn reads it from the raw
#     vmcore) is gone too, and drgn's places of base_crng, input_pool,
#     each CPU's crngs, the user, logon, fscrypt and encrypted keys'
#     payloads, the dm-crypt mappings' keys, contexts and key schedules
#     (authenc's HMAC states, gcm's and lrw's tables included), the
#     asymmetric (PKCS#8), IMA-queued, rxrpc and ceph keys' secrets and
#     the kTLS sockets' keys, and the IPsec SAs' keys and transforms
#     (tests/tools/xfrm_keys.py's places, with authenc.ko's and
#     seqiv.ko's DWARF) are 'X' in every erased dump: BTF (kdump, ELF,
#     flattened rebuilt with -R, a --split set reassembled, -e) and DWARF
#     (-x secrets-dwarf.conf) (tests/tools/erased_check.py, run by
#     Debian trixie's drgn 0.0.31 with the modules' DWARF:
#     tests/harness/trixie-tools; bookworm's 0.0.22 cannot load 6.4+
#     modules' debug info);
#   - secrets-dwarf.conf with -x leaves none of the known secrets, and the
#     two files' [dm_mod], kTLS and IPsec rules write the same dump from BTF as
#     from DWARF, eraseinfo included;
#   - crash opens every erased dump (those above, the --split set as
#     such), when it opens the raw vmcore (remembered in the cache as
#     dbgnew.sh does): tests/harness/crash-check runs trixie's crash
#     8.0.6 for these kernels (bookworm's 8.0.2 opens neither), on 7.x
#     with --no_kmem_cache --no_modules;
#   - the oracles are not blind: a dump erased without the user-key rule,
#     and one without the dm-crypt key rule, fail erased_check.py naming
#     the place left; a dump cut after its first MiB fails crash-check.

secnew_dir=$work/secnew
secnew_cache=${VMSIFT_CACHE:-$top/tests/work/cache}
secnew_suites=${VMSIFT_SECRETS_NEW_SUITES:-trixie trixie-backports}
secnew_py=/usr/bin/python3          # Debian's python: has libkdumpfile
secnew_drgn="$top/tests/harness/trixie-tools python3"   # drgn 0.0.31
# shellcheck source=tests/suites/lib/crash_source.sh
. "$top/tests/suites/lib/crash_source.sh"
# shellcheck source=tests/suites/lib/known_secrets.sh
. "$top/tests/suites/lib/known_secrets.sh"

# secnew_vmcore SUITE: "KVER VMCORE" of SUITE's secrets guest, made once
# into the cache (not for a listing).
secnew_vmcore() {
	( set -e
	  export VMSIFT_CACHE=$secnew_cache
	  # shellcheck source=/dev/null
	  . "$top/tests/harness/lib.sh"
	  set_arch x86_64
	  set_ksuite "$1"
	  KVER=$(kernel_version)
	  # -v9: four IPsec SAs (ESP: rfc4106(gcm(aes)), and authenc over
	  # hmac(sha256) and cbc(aes); before and after the late modules),
	  # made with init_on_free=1 as btf.sh's (a freed netlink or key
	  # buffer must not hold a key no rule reaches), which -v8 lacks;
	  # -v8: dm-crypt's AEADs over AES-NI (gcm, rfc4106, authenc over
	  # xts and cbc) and rfc7539(chacha20,poly1305), which -v7 lacks;
	  # -v7: dm-crypt's authenc and gcm over dm-integrity and lrw, an
	  # asymmetric (PKCS#8), an rxrpc and a ceph key, which -v6 lacks;
	  # -v6: kTLS over AES-GCM-128, AES-CCM-128 and ChaCha20-Poly1305 and
	  # an fscrypt-provisioning key, which -v5 lacks
	  v=$VMSIFT_CACHE/secrets-v9-$KVER.vmcore
	  # a listing (VMSIFT_LIST=1) boots no guest: the names need KVER only
	  if [ ! -s "$v" ] && [ "${VMSIFT_LIST:-0}" != 1 ]; then
		T_CAPTURE=${T_CAPTURE:-900} "$top/tests/harness/kdump-test" --quick \
			--secrets --smp 2 --kernel-suite "$1" \
			--append "no_timer_check init_on_free=1" --capture-append no_timer_check \
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
# the authenc, gcm and lrw mappings' keys, the asymmetric (PKCS#8),
# rxrpc and ceph keys' secrets; the v8 AEAD mappings' keys (gcm,
# rfc4106 and authenc over AES-NI, rfc7539 before and after
# chacha-x86_64); one a line.
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
		"$SECRET_KTLS_CHACHA_NI_TX_KEY" "$SECRET_KTLS_CHACHA_NI_RX_KEY" \
		"$SECRET_DM_AUTHENC_XTS1" "$SECRET_DM_AUTHENC_XTS2" \
		"$SECRET_DM_AUTHENC_MAC" "$SECRET_DM_GCM_KEY" "$SECRET_DM_LRW_KEY1" \
		"$SECRET_DM_LRW_KEY2" "$SECRET_PKCS8_KEY" "$SECRET_RXRPC_SESSION_KEY" \
		"$SECRET_RXRPC_TICKET" "$SECRET_CEPH_KEY" \
		"$SECRET_DM_GCM_NI_KEY" "$SECRET_DM_RFC4106_NI_KEY" \
		"$SECRET_DM_AUTHENC_NI_XTS1" "$SECRET_DM_AUTHENC_NI_XTS2" \
		"$SECRET_DM_AUTHENC_NI_MAC" "$SECRET_DM_AUTHENC_CBC_NI_KEY" \
		"$SECRET_DM_AUTHENC_CBC_NI_MAC" "$SECRET_DM_CHACHA_KEY" \
		"$SECRET_DM_CHACHA_NI_KEY"
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
# RAW and in no page of DUMP, the IPsec SAs' keys and HMAC ipad states
# (known_xfrm_texts) among them; each GHASH key H in RAW (the kTLS keys',
# the rfc4106 SAs') is in no page of DUMP (one not in RAW is said on
# stdout).
secnew_grep() {
	local raw=$1 dump=$2 texts=() h=() x=()
	shift 2
	mapfile -t texts < <(secnew_texts)
	mapfile -t h < <(secnew_ghash)
	# shellcheck source=/dev/null
	mapfile -t x < <(. "$top/tests/harness/lib.sh"; known_xfrm_texts "$secnew_py")
	[ ${#h[@]} = 8 ] || { echo "no GHASH keys computed"; return 1; }
	[ ${#x[@]} = 10 ] || { echo "not the IPsec SAs' 6 keys, 2 H and 2 ipad states: ${x[*]}"; return 1; }
	texts+=("${x[@]:0:6}" "${x[@]:8:2}" "$@")
	h+=("${x[@]:6:2}")
	"$secnew_py" "$top/tests/tools/page_grep.py" "$raw" "${texts[@]}" "${h[@]}" > "$dump.in.n" || return 1
	"$secnew_py" "$top/tests/tools/page_grep.py" "$dump" "${texts[@]}" "${h[@]}" > "$dump.n" || return 1
	awk -v n=${#texts[@]} '$1 == 0 && FNR <= n { print "not in the unerased vmcore: " $0; bad = 1 }
	     $1 == 0 && FNR > n { print "GHASH key not in the vmcore as such: " $2 }
	     END { exit bad }' "$dump.in.n" || return 1
	awk '$1 != 0 { print "left after the erase: " $0; bad = 1 }
	     END { exit bad }' "$dump.n"
}

# secnew_btf_dump RAW: $sn_out.btf, RAW erased by secrets.conf without -x.
secnew_btf_dump() {
	rm -f "$sn_out.btf" "$sn_out.btf".*
	vmsift --config "$top/data/erase/secrets.conf" -l -d 31 --message-level 0 \
		"$1" "$sn_out.btf"
}

# t_secnew_btf RAW: secrets.conf without -x leaves no known secret.
t_secnew_btf() {
	secnew_btf_dump "$1" || return 1
	secnew_grep "$1" "$sn_out.btf"
}

# secnew_encrypted RAW VMLINUX: "hex:..." of each encrypted key's payload.
secnew_encrypted() {
	local k enc
	enc=$($secnew_drgn "$top/tests/tools/erased_check.py" --print-encrypted "$1" "$2") || return 1
	[ -n "$enc" ] || { echo "no encrypted key in $1" >&2; return 1; }
	for k in $enc; do echo "hex:$k"; done
}

# secnew_known KVER VMLINUX: erased_check.py's arguments for the
# secrets guest's known secrets (known_secrets: keys, dm-crypt keys and
# schedules, the encrypted key; known_secrets_more: the AEAD and lrw
# mappings' and the asymmetric, rxrpc and ceph keys' secrets, 7.x's
# without gcm's GHASH key, which its AES library keeps in another form;
# known_secrets_aead: the v8 AEAD mappings' keys and schedules),
# with dm-mod.ko, dm-crypt.ko, rxrpc.ko and libceph.ko's DWARF;
# a whole transform context erased beside a place is no change around it
# (--tfm-neighbours: 6.12's dm-crypt cbc(ecb(aes)) context lies beside a
# user key's payload); the kTLS keys with tls.ko's, gcm.ko's, ccm.ko's
# and chacha20poly1305.ko's (the walk reads every socket's transforms,
# CCM and ChaCha20 ones included): 6.12's generic gcm (its AES-NI
# GCM keeps neither the schedule nor H where ktls_keys.py looks: its
# sockets' contexts are still checked erased), 7.x's all four with
# --ktls-lib.
secnew_known() {
	local m=${2%/*}/usr/lib/debug/lib/modules/$1/kernel ko
	for ko in drivers/md/dm-mod.ko drivers/md/dm-crypt.ko net/tls/tls.ko crypto/gcm.ko \
		crypto/ccm.ko crypto/chacha20poly1305.ko crypto/authenc.ko crypto/lrw.ko \
		net/rxrpc/rxrpc.ko net/ceph/libceph.ko crypto/seqiv.ko; do
		[ -f "$m/$ko" ] || { echo "no $m/$ko (fetch_dbg_vmlinux extracts it)" >&2; return 1; }
	done
	known_secrets
	case $1 in
	6.*) known_secrets_more ;;
	*) known_secrets_more lib ;;
	esac
	known_secrets_aead
	printf '%s\n' --ko "$m/net/rxrpc/rxrpc.ko" --ko "$m/net/ceph/libceph.ko"
	known_xfrm_sas | sed 's/^/--xfrm\n/'
	printf '%s\n' --ko "$m/crypto/authenc.ko" --ko "$m/crypto/seqiv.ko"
	printf '%s\n' --tfm-neighbours \
		--ktls-tx "$SECRET_KTLS_TX_KEY" --ktls-rx "$SECRET_KTLS_RX_KEY" \
		--ko "$m/drivers/md/dm-mod.ko" --ko "$m/drivers/md/dm-crypt.ko" \
		--ko "$m/net/tls/tls.ko" --ko "$m/crypto/gcm.ko" \
		--ko "$m/crypto/ccm.ko" --ko "$m/crypto/chacha20poly1305.ko"
	case $1 in
	6.*) ;;
	*) printf '%s\n' --ktls-lib --ktls-tx "$SECRET_KTLS_NI_TX_KEY" \
		--ktls-rx "$SECRET_KTLS_NI_RX_KEY" ;;
	esac
}

# secnew_dumps RAW VMLINUX: the erased dumps of RAW the oracles read,
# $sn_out.{btf,x,elf,rebuilt,s1,s2,merged,e}: secrets.conf (BTF) as
# kdump, ELF, flattened rebuilt with -R, a --split set (and reassembled),
# with -e; secrets-dwarf.conf with -x.
secnew_dumps() {
	local raw=$1 conf=$top/data/erase/secrets.conf o=$sn_out
	[ -s "$o.btf" ] || secnew_btf_dump "$raw" || return 1
	rm -f "$o".{x,elf,rebuilt,s1,s2,merged,e} "$o".{x,elf,rebuilt,s1,merged,e}.*
	vmsift -x "$2" --config "${conf%.conf}-dwarf.conf" -l -d 31 \
		--message-level 0 "$raw" "$o.x" || return 1
	vmsift --config "$conf" -E -d 31 --message-level 0 "$raw" "$o.elf" || return 1
	vmsift --config "$conf" -F -l -d 31 --message-level 0 "$raw" |
		vmsift -R --message-level 0 "$o.rebuilt" || return 1
	vmsift --config "$conf" --split -l -d 31 --message-level 0 "$raw" "$o.s1" "$o.s2" || return 1
	vmsift --reassemble --message-level 0 "$o.s1" "$o.s2" "$o.merged" || return 1
	vmsift --config "$conf" -e -l -d 31 --message-level 0 "$raw" "$o.e"
}

# t_secnew_drgn KVER RAW VMLINUX: the encrypted payload is gone from the
# BTF and DWARF dumps, which leave no known secret; drgn's places of
# every secret it knows (secnew_known) are erased in every dump of
# secnew_dumps.
t_secnew_drgn() {
	local kver=$1 raw=$2 vml=$3 enc=() known=() o=$sn_out
	# shellcheck source=/dev/null
	. "$top/tests/harness/lib.sh"
	mapfile -t enc < <(secnew_encrypted "$raw" "$vml") || return 1
	[ ${#enc[@]} -gt 0 ] || { echo "no encrypted key payload"; return 1; }
	mapfile -t known < <(secnew_known "$kver" "$vml")
	[ ${#known[@]} -gt 20 ] || return 1
	secnew_dumps "$raw" "$vml" || return 1
	secnew_grep "$raw" "$o.btf" "${enc[@]}" || return 1
	secnew_grep "$raw" "$o.x" "${enc[@]}" || return 1
	$secnew_drgn "$top/tests/tools/erased_check.py" "${known[@]}" "$raw" "$vml" \
		"$o.btf" "$o.x" "$o.elf" "$o.rebuilt" "$o.merged" "$o.e" 2> "$o.drgn.log" ||
		{ tail -n 5 "$o.drgn.log"; return 1; }
}

# t_secnew_planted KVER RAW VMLINUX: erased_check.py fails on a dump
# whose config lacks the user keys' rule, and on one lacking the
# dm-crypt key's rule, naming the place left.
t_secnew_planted() {
	local kver=$1 raw=$2 vml=$3 known=() o=$sn_out.planted what sel msg
	# shellcheck source=/dev/null
	. "$top/tests/harness/lib.sh"
	mapfile -t known < <(secnew_known "$kver" "$vml")
	[ ${#known[@]} -gt 20 ] || return 1
	for what in user dm; do
		case $what in
		user) sel='/where k.type == &key_type_user$/,/^endfor/d' ;;
		dm) sel='/erase t.private:crypt_config@dm_crypt\*.key size/d' ;;
		esac
		sed "$sel" "$top/data/erase/secrets.conf" > "$o.$what.conf"
		cmp -s "$o.$what.conf" "$top/data/erase/secrets.conf" &&
			{ echo "no $what rule taken out"; return 1; }
		rm -f "$o.$what"
		vmsift --config "$o.$what.conf" -l -d 31 --message-level 0 \
			"$raw" "$o.$what" || return 1
		if msg=$($secnew_drgn "$top/tests/tools/erased_check.py" "${known[@]}" \
			"$raw" "$vml" "$o.$what" 2> /dev/null); then
			echo "erased_check.py passed a dump without the $what rule"; return 1
		fi
		case $what in
		user) grep -E '^[^ ]+: user key [0-9]+ payload at .* not erased' <<< "$msg" ;;
		dm) grep -E '^[^ ]+: dm vmsift-[a-z-]+ key at .* not erased' <<< "$msg" ;;
		esac || { echo "without the $what rule: $msg"; return 1; }
	done
}

# t_secnew_same RAW VMLINUX: the files' [dm_mod] rules, and their kTLS
# rules, are the same lines, and each set writes the same dump from the
# dump's BTF as from DWARF (-x: the vmlinux and the modules' .ko beside
# it), eraseinfo included.
t_secnew_same() {
	local raw=$1 vml=$2 d=$top/data/erase o=$sn_out.same part sel
	for part in dm ktls xfrm; do
		case $part in
		dm) sel='/^\[dm_mod\]/,/^\[vmlinux\]/p' ;;
		ktls) sel='/^for b in tcp_hashinfo/,/^# end of the kTLS rules/p' ;;
		xfrm) sel=$known_xfrm_sel ;;
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

# t_secnew_crash KVER RAW VMLINUX: crash opens every erased dump
# (secnew_dumps: the --split set as such), and says the -e one is one.
t_secnew_crash() {
	local d o=$sn_out
	[ -s "$o.e" ] || secnew_dumps "$2" "$3" || return 1
	for d in btf x elf rebuilt "s1 $o.s2" merged e; do
		# shellcheck disable=SC2086 # "s1 $o.s2": the two files of the set
		# 7.3's ELF dump took crash 4 minutes at a load of 12 on 2 cores
		T_CRASH=${T_CRASH:-900} VMSIFT_CACHE=$secnew_cache KERNEL_VERSION=$1 \
			"$top/tests/harness/crash-check" $o.$d || return 1
	done
	grep -q 'EXCLUDED VMEMMAP' "$o.e.crash.log" ||
		{ echo "crash did not see an -e dump"; return 1; }
}

# t_secnew_crash_cut KVER RAW: crash-check fails on the erased dump cut
# after its first MiB.
t_secnew_crash_cut() {
	local o=$sn_out.cut
	rm -f "$o" "$o".*
	[ -s "$sn_out.btf" ] || secnew_btf_dump "$2" || return 1
	head -c 1048576 "$sn_out.btf" > "$o" || return 1
	if VMSIFT_CACHE=$secnew_cache KERNEL_VERSION=$1 \
		"$top/tests/harness/crash-check" "$o"; then
		echo "crash-check passed a dump cut after 1 MiB"; return 1
	fi
}

secnew_one() {
	local suite=$1 k kver raw vml
	if ! k=$(secnew_vmcore "$suite" 2> "$secnew_dir/$suite.log"); then
		run_test "secnew $suite: the secrets guest's vmcore" \
			t_failed_step "$secnew_dir/$suite.log"
		return
	fi
	read -r kver raw <<< "$k"
	# the dumps the drgn and crash tests share: kept across tests/run's
	# scrub of $work/out, removed after the kernel's last test
	sn_out=$secnew_dir/out-$kver
	secnew_tests "$kver" "$raw"
	[ "${VMSIFT_KEEP:-0}" = 1 ] || rm -f "$sn_out".*
}

secnew_tests() {
	local kver=$1 raw=$2 vml
	run_test "secnew $kver: secrets.conf (BTF, no -x): every known secret in the vmcore, none in the dump" \
		t_secnew_btf "$raw"
	vml=$secnew_cache/dbg-$kver/vmlinux-$kver
	if [ ! -f "$vml" ]; then
		log "# skipped: secnew $kver: drgn, -x and crash checks (no -dbg vmlinux in $secnew_cache/dbg-$kver: VMSIFT_DBG_NEW=1 fetches it)"
		return
	fi
	run_test "secnew $kver: drgn 0.0.31's places, modules' included, erased in every dump (BTF formats, -e, -x)" \
		t_secnew_drgn "$kver" "$raw" "$vml"
	run_test "secnew $kver: erased_check.py fails on a dump without the user-key rule, or the dm-crypt key rule" \
		t_secnew_planted "$kver" "$raw" "$vml"
	run_test "secnew $kver: [dm_mod], kTLS and IPsec rules write the same dump from BTF as from DWARF" \
		t_secnew_same "$raw" "$vml"
	if [ "${VMSIFT_LIST:-0}" = 1 ] || crash_opens_raw "$raw" "$kver" "$secnew_cache" "$secnew_dir"; then
		run_test "secnew $kver: crash opens every erased dump (kdump, -x, ELF, -R, --split, -e)" \
			t_secnew_crash "$kver" "$raw" "$vml"
		run_test "secnew $kver: crash-check fails on an erased dump cut after 1 MiB" \
			t_secnew_crash_cut "$kver" "$raw"
	else
		run_test "secnew $kver: crash opens the raw vmcore" \
			t_failed_step "$CRASH_RAW_LOG"
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
