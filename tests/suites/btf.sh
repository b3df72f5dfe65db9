# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/btf.sh - the dead kernel's own kallsyms and BTF as the
# source of symbols and types (lib/kallsyms.c, lib/typeinfo_btf.c; issue
# 13), asked through tests/unit/ti_query.  Sourced by tests/run.
#
# Oracles, none of them vmsift's:
#   drgn with the -dbg vmlinux (x86_64 6.1, fetched once into the cache
#   by tests/harness/lib.sh fetch_dbg_vmlinux; an 860 MB download on a
#   fresh cache): the addresses of fixed symbols and of 300 picked at
#   random, sizes and member offsets from DWARF, a per-CPU variable's type
#   (tests/tools/dwarf_answers.py);
#   the dead kernel's VMCOREINFO, written by the kernel itself: every
#   SYMBOL() that kallsyms holds, on every carried vmcore (x86_64, arm64,
#   riscv64, s390x, ppc64le), and every SIZE() and OFFSET() against BTF
#   where the kernel has BTF reachable (x86_64 6.1, riscv64 6.12).
# Debian's arm64, s390x and ppc64el 6.1 kernels are built without
# CONFIG_KALLSYMS_ALL: their kallsyms has no data symbols, so no
# __start_BTF; the BTF source must refuse them naming what it lacks.
# About 40 s warm (drgn loads the 860 MB vmlinux twice), plus the secrets
# guest's tests: 3.7 minutes measured with the machine at load 19
# (btf_erase_secrets_guest 176 s of it: drgn, six dumps, crash).

btf_dir=$work/btf
btf_q=$top/tests/unit/ti_query
btf_py=/usr/bin/python3          # Debian's python: has drgn
mkdir -p "$btf_dir"

# shellcheck source=tests/suites/lib/carried.sh
. "$top/tests/suites/lib/carried.sh"
# shellcheck source=tests/suites/lib/known_secrets.sh
. "$top/tests/suites/lib/known_secrets.sh"

# btf_vmcore ZST: the carried vmcore ZST decompressed once (path on
# stdout), where tests/run (tests/data/*) or lib/carried.sh's
# carried_input (tests/data/ARCH/*) put it for the other suites.
btf_vmcore() {
	local z=$1 raw=$work/$(basename "${1%.zst}") sub
	[ -f "$z" ] || { echo "missing $z" >&2; return 1; }
	sub=$(basename "$(dirname "$z")")
	if [ "$sub" != data ]; then
		carried_input "$sub" "$(basename "$z" .vmcore.zst)"
		return
	fi
	if [ ! -f "$raw" ] || [ "$z" -nt "$raw" ]; then
		zstd -q -d --long=31 -f -o "$raw.tmp" "$z" || return 1
		mv "$raw.tmp" "$raw"
	fi
	echo "$raw"
}

# btf_vmcoreinfo VMCORE: the VMCOREINFO text of an ELF vmcore.
btf_vmcoreinfo() {
	"$btf_py" - "$1" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read(1 << 24)
i = d.find(b'OSRELEASE=')
sys.stdout.write(d[i:d.find(b'\0', i)].decode('latin1') if i >= 0 else '')
PY
}

# btf_dbg_vmlinux VMCORE: the -dbg vmlinux of VMCORE's x86_64 kernel.
btf_dbg_vmlinux() {
	local rel
	rel=$(btf_vmcoreinfo "$1" | sed -n 's/^OSRELEASE=//p')
	[ -n "$rel" ] || { echo "no OSRELEASE in $1" >&2; return 1; }
	( set -e; VMSIFT_CACHE=${VMSIFT_CACHE:-$top/tests/work/cache}
	  # shellcheck source=/dev/null
	  . "$top/tests/harness/lib.sh"; fetch_dbg_vmlinux "$rel"; echo "$DBG_VMLINUX" )
}

# t_btf_kallsyms_drgn VMCORE: kallsyms addresses equal drgn's from DWARF,
# for the named symbols and 300 others picked with seed BTF_SEED (default
# 1, the same pick every run; BTF_SEED=N another), never 'A' (absolute
# per-CPU offsets, which drgn relocates by the KASLR offset).
t_btf_kallsyms_drgn() {
	local in=$1 vml seed=${BTF_SEED:-1} out=$btf_dir/drgn
	vml=$(btf_dbg_vmlinux "$in") || return 1
	"$btf_q" "$in" kallsyms > "$out.all" || return 1
	[ "$(wc -l < "$out.all")" -gt 50000 ] || { echo "too few symbols"; return 1; }
	{ printf 'sym %s\n' init_task init_uts_ns saved_command_line \
		init_top_pgt _text _stext __start_BTF __stop_BTF jiffies_64 \
		schedule panic start_kernel
	  awk '$3 != "A" && $3 != "a" { n[$1]++; l[$1] = $0 }
	       END { for (k in n) if (n[k] == 1) print k }' "$out.all" |
		sort | shuf -n 300 --random-source=<(yes "$seed") | sed 's/^/sym /'
	} > "$out.q"
	"$btf_q" "$in" query < "$out.q" > "$out.ours" || return 1
	"$btf_py" "$top/tests/tools/dwarf_answers.py" "$in" "$vml" < "$out.q" > "$out.ref" || return 1
	grep -q " error drgn: " "$out.ref" && { echo "drgn could not answer:"; grep " error drgn: " "$out.ref" | head; return 1; }
	[ "$(wc -l < "$out.q")" -ge 300 ] || { echo "too few questions"; return 1; }
	diff "$out.ref" "$out.ours" || { echo "seed $seed (BTF_SEED=$seed repeats it)"; return 1; }
}

# t_btf_types_drgn VMCORE: BTF's sizes and member offsets equal DWARF's.
t_btf_types_drgn() {
	local in=$1 vml out=$btf_dir/types
	vml=$(btf_dbg_vmlinux "$in") || return 1
	cat > "$out.q" <<'Q'
sizeof task_struct
sizeof list_head
sizeof page
sizeof uts_namespace
sizeof key
sizeof user_key_payload
sizeof crng
sizeof mm_struct
sizeof char*
sizeof task_struct*
sizeof u64
offsetof task_struct comm
offsetof task_struct tasks
offsetof task_struct pid
offsetof task_struct mm
offsetof uts_namespace name.nodename
offsetof uts_namespace name.release
offsetof list_head next
offsetof page lru
offsetof page mapping
offsetof page _refcount
offsetof page compound_head
offsetof key payload
offsetof key type
offsetof key datalen
offsetof user_key_payload data
offsetof user_key_payload datalen
offsetof crng key
offsetof mm_struct pgd
offsetof tls_context prot_info
offsetof tls_sw_context_tx aead_send
offsetof net_device name
symtype runqueues
symtype crngs
Q
	"$btf_q" "$in" query < "$out.q" > "$out.ours" || return 1
	"$btf_py" "$top/tests/tools/dwarf_answers.py" "$in" "$vml" < "$out.q" > "$out.ref" || return 1
	grep -q " error drgn: " "$out.ref" && { echo "drgn could not answer:"; grep " error drgn: " "$out.ref"; return 1; }
	diff "$out.ref" "$out.ours"
}

# t_btf_vmcoreinfo VMCORE [types]: every SYMBOL() of VMCOREINFO that
# kallsyms holds has kallsyms' address (SYMBOL(mem_section) is the
# pointer's value, not its address: left out); with "types", every
# SIZE() and OFFSET() equals BTF's.
t_btf_vmcoreinfo() {
	local in=$1 out=$btf_dir/vi n
	btf_vmcoreinfo "$in" > "$out.txt"
	"$btf_q" "$in" kallsyms > "$out.all" || return 1
	[ "$(wc -l < "$out.all")" -gt 20000 ] || { echo "too few symbols"; return 1; }
	awk 'NR == FNR { a[$1] = a[$1] " " $2; next }
	     /^SYMBOL\(/ { n = $0; sub(/^SYMBOL\(/, "", n); sub(/\).*/, "", n)
			   v = $0; sub(/.*=/, "", v); sub(/^0+/, "", v)
			   if (n == "mem_section" || !(n in a)) next
			   seen++
			   if (index(a[n] " ", " " v " ") == 0) { print "SYMBOL(" n ")=" v " but kallsyms:" a[n]; bad++ } }
	     END { print seen + 0 " symbols checked" > "/dev/stderr"; exit bad > 0 || seen == 0 }' \
		"$out.all" FS='\n' "$out.txt" || return 1
	[ "${2:-}" = types ] || return 0
	sed -n 's/^SIZE(\([^)]*\))=.*/sizeof \1/p; s/^OFFSET(\([^.)]*\)\.\([^)]*\))=.*/offsetof \1 \2/p' \
		"$out.txt" > "$out.q"
	n=$(wc -l < "$out.q")
	[ "$n" -gt 20 ] || { echo "only $n SIZE/OFFSET keys"; return 1; }
	"$btf_q" "$in" query < "$out.q" > "$out.ours" || return 1
	sed -n 's/^SIZE(\([^)]*\))=\(.*\)/\1 \2/p; s/^OFFSET(\([^.)]*\)\.\([^)]*\))=\(.*\)/\1 \2 \3/p' \
		"$out.txt" > "$out.ref"
	# ours has the member's size after its offset: compare the offset only
	awk 'NF == 4 { print $1, $2, $3; next } { print }' "$out.ours" | diff "$out.ref" -
}

# t_btf_refused VMCORE: a kernel whose kallsyms lacks __start_BTF is
# refused by the BTF source, naming the symbol (exit 1, no crash).
t_btf_refused() {
	local in=$1 msg rc=0
	msg=$(echo "sym _text" | "$btf_q" "$in" query 2>&1) || rc=$?
	[ "$rc" = 1 ] || { echo "exit $rc: $msg"; return 1; }
	case $msg in *"'__start_BTF'"*) ;; *) echo "message: $msg"; return 1 ;; esac
}

# btf_dm_ko VMLINUX: the -dbg package's dm-mod.ko, dm-crypt.ko,
# rxrpc.ko and libceph.ko beside VMLINUX (their DWARF, for drgn), as
# "--ko PATH" pairs.  The modules whose symbols or types
# secrets-dwarf.conf's rules name (xts, ecb, essiv, cryptd, aesni_intel,
# ctr, ccm, chacha20poly1305, authenc, lrw, seqiv, echainiv, rxrpc, libceph: -x looks
# each one's .ko up) must be there too (btf_crypto_ko).
btf_dm_ko() {
	local rel=${1##*/vmlinux-} d
	d=$(dirname "$1")/usr/lib/debug/lib/modules/$rel/kernel
	[ -f "$d/drivers/md/dm-mod.ko" ] && [ -f "$d/drivers/md/dm-crypt.ko" ] ||
		{ echo "no dm-mod.ko, dm-crypt.ko in $d/drivers/md" >&2; return 1; }
	btf_crypto_ko "$1" || return 1
	echo "--ko $d/drivers/md/dm-mod.ko --ko $d/drivers/md/dm-crypt.ko" \
		"--ko $d/net/rxrpc/rxrpc.ko --ko $d/net/ceph/libceph.ko"
}

# btf_crypto_ko VMLINUX: the crypto modules' .ko (their DWARF, for -x)
# under VMLINUX's -dbg tree, out of the cached -dbg package once
# (VMSIFT_ERASE_FULL=1 extracts them, about 4 minutes).
btf_crypto_ko() {
	local rel=${1##*/vmlinux-} dbg k deb missing=()
	dbg=$(dirname "$1")
	for k in crypto/xts.ko crypto/ecb.ko crypto/essiv.ko crypto/cryptd.ko \
		crypto/crypto_simd.ko arch/x86/crypto/aesni-intel.ko crypto/ctr.ko \
		crypto/ccm.ko crypto/chacha20poly1305.ko crypto/authenc.ko crypto/lrw.ko \
		crypto/seqiv.ko crypto/echainiv.ko net/rxrpc/rxrpc.ko net/ceph/libceph.ko; do
		[ -f "$dbg/usr/lib/debug/lib/modules/$rel/kernel/$k" ] ||
			missing+=("./usr/lib/debug/lib/modules/$rel/kernel/$k")
	done
	[ ${#missing[@]} = 0 ] && return 0
	if [ "${VMSIFT_ERASE_FULL:-0}" != 1 ]; then
		echo "no ${missing[*]} under $dbg (VMSIFT_ERASE_FULL=1 extracts them)" >&2
		return 1
	fi
	deb=$(ls "${VMSIFT_CACHE:-$top/tests/work/cache}"/debs/"linux-image-$rel-dbg_"*.deb 2>/dev/null | head -n1)
	[ -n "$deb" ] || return 1
	dpkg-deb --fsys-tarfile "$deb" | (cd "$dbg" && tar -x "${missing[@]}")
}


# btf_ktls_names: the middles of lib.sh's kTLS key pairs
# (SECRET_KTLS<middle>TX_KEY, _RX_KEY), one connection each: AES-GCM-256
# over gcm.ko and over AES-NI, AES-GCM-128, AES-CCM-128 and
# ChaCha20-Poly1305 over the generic drivers and over AES-NI and
# chacha-x86_64 (workload -S, -G, -C, -D).
btf_ktls_names="_ _NI_ _GCM128_ _CCM_ _CHACHA_ _GCM128_NI_ _CCM_NI_ _CHACHA_NI_"

# btf_ktls_keys PREFIX: "PREFIX-tx KEY PREFIX-rx KEY" (one a line) for
# each kTLS connection's known keys (lib.sh, sourced).
btf_ktls_keys() {
	local n tx rx
	for n in $btf_ktls_names; do
		tx=SECRET_KTLS${n}TX_KEY rx=SECRET_KTLS${n}RX_KEY
		[ -n "${!tx:-}" ] && [ -n "${!rx:-}" ] || { echo "no $tx or $rx in lib.sh" >&2; return 1; }
		printf '%s\n' "$1-tx" "${!tx}" "$1-rx" "${!rx}"
	done
}

# t_btf_erase_secrets VMCORE [keys]: the shipped rules
# (data/erase/secrets.conf) resolved from the dump's own kallsyms and BTF
# (no -x) erase what drgn and DWARF say the secrets are (base_crng,
# input_pool, each possible CPU's crngs.key, every user, logon and
# fscrypt-provisioning key's payload; with "keys", the secrets guest's
# known user, logon, master and fscrypt key payloads of lib.sh must be
# among them, and its dm-crypt mappings'
# keys, cipher contexts and AES key schedules (cbc, xts, essiv, AES-NI's
# xts), found by drgn with dm-mod.ko and dm-crypt.ko's DWARF, the known
# keys among them, and the encrypted key's decrypted payload; and its
# kTLS sockets' tls_context crypto_send and crypto_recv and the places of
# each direction's transforms (ktls_keys.py: AES-GCM, AES-CCM and
# ChaCha20 schedules and contexts, GHASH tables), found by drgn with the
# DWARF of tls.ko, gcm.ko, ccm.ko and chacha20poly1305.ko
# (btf_ktls_modules), the known TX and RX keys there), in every
# format: kdump (lzo), ELF, flattened rebuilt with -R, a split set
# reassembled (byte for byte the kdump one, eraseinfo included);
# secrets-dwarf.conf with -x (DWARF) erases the same bytes;
# crash still opens the kdump one (tests/harness/crash-check, the -dbg
# vmlinux).
t_btf_erase_secrets() {
	local in=$1 vml o=$work/out/sec conf=$top/data/erase/secrets.conf
	local keys=() ko kdir
	vml=$(btf_dbg_vmlinux "$in") || return 1
	if [ "${2:-}" = keys ]; then
		# shellcheck source=/dev/null
		. "$top/tests/harness/lib.sh"
		ko=$(btf_dm_ko "$vml") || return 1
		kdir=$(btf_ktls_modules "$vml") ||
			{ echo "no tls.ko, gcm.ko beside $vml (VMSIFT_ERASE_FULL=1 extracts them)"; return 1; }
		mapfile -t keys < <(known_secrets; known_secrets_more; known_secrets_aead; btf_ktls_keys --ktls; btf_ktls_ko_args "$kdir")
		# shellcheck disable=SC2206 # two "--ko PATH" pairs, no blanks
		keys+=($ko)
	fi
	mkdir -p "$work/out"
	rm -f "$o".*
	"$top/vmsift" --config "$conf" -l -d 31 "$in" "$o.kdump" > /dev/null || return 1
	"$top/vmsift" --config "$conf" -E -d 31 "$in" "$o.elf" > /dev/null || return 1
	"$top/vmsift" --config "$conf" -F -z -d 31 "$in" 2> /dev/null |
		"$top/vmsift" -R "$o.rebuilt" > /dev/null || return 1
	"$top/vmsift" -x "$vml" --config "${conf%.conf}-dwarf.conf" -l -d 31 "$in" \
		"$o.dwarf" > /dev/null || return 1
	"$top/vmsift" --config "$conf" --split -l -d 31 "$in" "$o.s1" "$o.s2" > /dev/null || return 1
	"$top/vmsift" --reassemble "$o.s1" "$o.s2" "$o.merged" > /dev/null || return 1
	# the eraseinfo too: the direct file, byte for byte
	cmp "$o.kdump" "$o.merged" ||
		{ echo "the erased split set reassembled is not the direct dump"; return 1; }
	"$btf_py" "$top/tests/tools/erased_check.py" "${keys[@]}" "$in" "$vml" \
		"$o.kdump" "$o.elf" "$o.rebuilt" "$o.merged" "$o.dwarf" || return 1
	VMSIFT_CACHE=${VMSIFT_CACHE:-$top/tests/work/cache} \
		"$top/tests/harness/crash-check" "$o.kdump"
}

# The secrets vmcore: a guest holding a known dm-crypt key, user key,
# logon key and kTLS connection (tests/harness/kdump-test --secrets; two
# CPUs: the per-CPU crng keys of more than one CPU).  By default the one
# the repo carries (tests/data/secrets/, 384 MiB guest filtered -E -d 31 by
# makedumpfile, tests/data/README.md), decompressed once under
# $work/secrets.  VMSIFT_SECRETS=1: the unfiltered /proc/vmcore of a
# 512 MiB guest instead, made once into the cache (2 to 8 minutes of
# QEMU).  Either way the path on stdout.
btf_secrets_vmcore() {
	if [ "${VMSIFT_SECRETS:-0}" != 1 ]; then
		carried_input secrets kdump-secrets-384M
		return
	fi
	# -v9: with IPsec SAs (ESP: rfc4106(gcm(aes)) and authenc over
	# hmac(sha256) and cbc(aes), generic and over AES-NI), made with
	# init_on_free=1 as the carried one (-v8 has no SA);
	# -v8: with dm-crypt's AEADs over AES-NI (gcm, rfc4106, authenc over
	# xts and cbc) and rfc7539(chacha20,poly1305), generic and over
	# chacha-x86_64 (-v7 has none of them);
	# -v7: with dm-crypt's authenc(hmac(sha256),xts(aes)) and gcm(aes)
	# over dm-integrity and lrw(aes), an asymmetric key from PKCS#8, an
	# rxrpc key and a ceph key (-v6 has none of them);
	# -v6: with kTLS over AES-GCM-128, AES-CCM-128 and ChaCha20-Poly1305,
	# generic and over AES-NI and chacha-x86_64 (-v5 has none of them);
	# -v5: with the essiv mapping and kTLS connection over AES-NI (-v4 has
	# neither, -v3 no xts, essiv, AES-NI mapping or encrypted key, -v2 no
	# kTLS, the first no logon key)
	btf_secrets_v9
}

# btf_secrets_v9: the path of the unfiltered /proc/vmcore of the
# 512 MiB secrets guest (-v9 above), made once into the cache when it is
# missing (about a minute of TCG on an idle machine, up to 8 busy; a
# second try when the first fails: the guest's "HARNESS: panic now" line
# was once lost on the serial console as sysrq-c panicked, and
# kdump-test waits for it); fails when it cannot be made.
btf_secrets_v9() {
	local c=${VMSIFT_CACHE:-$top/tests/work/cache} v try
	v=$c/secrets-v9-6.1.0-57-amd64.vmcore
	for try in 1 2; do
		[ ! -f "$v" ] || break
		[ "$try" = 1 ] || echo "the secrets guest failed: trying it once more" >&2
		VMSIFT_CACHE=$c T_CAPTURE=${T_CAPTURE:-900} \
			"$top/tests/harness/kdump-test" --quick --secrets --smp 2 \
			--append "no_timer_check init_on_free=1" --capture-append no_timer_check \
			--dump-args '-l -d 31' --no-check --out "$work/secrets-run" \
			--save-raw "$v.tmp" >&2 && mv "$v.tmp" "$v"
	done
	[ -f "$v" ] && echo "$v"
}

# btf_more_texts: the known secrets of the authenc, gcm and lrw mappings
# and of the asymmetric (PKCS#8), rxrpc and ceph keys, and (v8) of the
# AEAD mappings over AES-NI and ChaCha20 (lib.sh, sourced by the
# callers), each text a grep finds as is (rfc4106's 4-byte salt is only
# checked by erased_check.py, in its mapping's key).
btf_more_texts=()
btf_more() {
	btf_more_texts=("$SECRET_DM_AUTHENC_XTS1" "$SECRET_DM_AUTHENC_XTS2"
		"$SECRET_DM_AUTHENC_MAC" "$SECRET_DM_GCM_KEY" "$SECRET_DM_LRW_KEY1"
		"$SECRET_DM_LRW_KEY2" "$SECRET_PKCS8_KEY" "$SECRET_RXRPC_SESSION_KEY"
		"$SECRET_RXRPC_TICKET" "$SECRET_CEPH_KEY"
		"$SECRET_DM_GCM_NI_KEY" "$SECRET_DM_RFC4106_NI_KEY"
		"$SECRET_DM_AUTHENC_NI_XTS1" "$SECRET_DM_AUTHENC_NI_XTS2"
		"$SECRET_DM_AUTHENC_NI_MAC" "$SECRET_DM_AUTHENC_CBC_NI_KEY"
		"$SECRET_DM_AUTHENC_CBC_NI_MAC" "$SECRET_DM_CHACHA_KEY"
		"$SECRET_DM_CHACHA_NI_KEY")
}

# t_btf_secrets_present VMCORE: the vmcore holds every known secret's
# bytes (btf_more_texts too): the dm-crypt keys (cbc, the halves of xts and AES-NI xts, essiv),
# the user, logon and master key payloads, the kTLS TX and RX keys, the
# essiv and kTLS keys set over AES-NI (they reached the guest's kernel only as hex or as binary the
# workload wiped: these copies are the kernel's own).
t_btf_secrets_present() {
	local in=$1 k ktls
	# shellcheck source=/dev/null
	. "$top/tests/harness/lib.sh"
	mapfile -t ktls < <(btf_ktls_keys - | sed -n 'n;p')
	[ ${#ktls[@]} = 16 ] || { echo "not 16 kTLS keys: ${#ktls[@]}"; return 1; }
	btf_more
	[ ${#btf_more_texts[@]} = 19 ] || { echo "not 19 more keys: ${#btf_more_texts[@]}"; return 1; }
	for k in "$SECRET_DM_KEY" "$SECRET_USER_KEY" "$SECRET_LOGON_KEY" \
		"$SECRET_DM_XTS_KEY1" \
		"$SECRET_DM_XTS_KEY2" "$SECRET_DM_ESSIV_KEY" "$SECRET_DM_AESNI_KEY1" \
		"$SECRET_DM_AESNI_KEY2" "$SECRET_KMK_KEY" "$SECRET_DM_ESSIV_NI_KEY" \
		"$SECRET_FSCRYPT_KEY" "${ktls[@]}" "${btf_more_texts[@]}"; do
		grep -c -a -F -- "$k" "$in" > /dev/null || { echo "'$k' is not in $in"; return 1; }
	done
}

# btf_grep_erased IN VMLINUX OUT TEXT...: IN dumped at -d 31 with the
# shipped secrets file in BTF form (OUT.btf) and with -x (OUT.x); every
# TEXT (page_grep.py's forms) must be in IN and in no page of either dump.
btf_grep_erased() {
	local in=$1 vml=$2 o=$3 f
	shift 3
	local texts=("$@")
	"$top/vmsift" --config "$top/data/erase/secrets.conf" -l -d 31 "$in" \
		"$o.btf" > /dev/null || return 1
	"$top/vmsift" -x "$vml" --config "$top/data/erase/secrets-dwarf.conf" \
		-l -d 31 "$in" "$o.x" > /dev/null || return 1
	"$btf_py" "$top/tests/tools/page_grep.py" "$in" "${texts[@]}" > "$o.in.n" || return 1
	for f in btf x; do
		"$btf_py" "$top/tests/tools/page_grep.py" "$o.$f" "${texts[@]}" > "$o.$f.n" || return 1
	done
	awk '$1 == 0 { print "not in the unerased dump: " $0; bad = 1 }
	     END { exit bad }' "$o.in.n" || return 1
	cat "$o.btf.n" "$o.x.n" |
		awk '$1 != 0 { print "left after the erase: " $0; bad = 1 }
		     END { exit bad }'
}

# t_btf_secrets_grep DUMP: the known payloads of the secrets guest's user,
# logon and master keys, its dm-crypt keys (cbc; xts's data and tweak
# halves; essiv's key and the SHA-256 of it, the ESSIV cipher's key;
# AES-NI xts's halves), its kTLS TX and RX keys and the decrypted payload
# of its encrypted key (random, drgn reads it from DUMP: erased_check.py
# --print-encrypted) are in DUMP's decompressed pages, and in none after
# data/erase/secrets.conf (BTF) or secrets-dwarf.conf (-x), each page
# read by libkdumpfile (tests/tools/page_grep.py).  A dm-crypt key's
# bytes are in crypt_config.key and at the start of an AES key schedule
# (AES-NI's: 8 bytes in): either rule missing leaves one; so are each
# kTLS key's (tls_context, AES key schedule).
t_btf_secrets_grep() {
	local in=$1 vml o=$work/out/secgrep ess essni enc k
	local texts=()
	# shellcheck source=/dev/null
	. "$top/tests/harness/lib.sh"
	vml=$(btf_dbg_vmlinux "$in") || return 1
	btf_crypto_ko "$vml" || return 1
	mkdir -p "$work/out"
	rm -f "$o".*
	ess=$(printf '%s' "$SECRET_DM_ESSIV_KEY" | sha256sum | cut -c1-64)
	essni=$(printf '%s' "$SECRET_DM_ESSIV_NI_KEY" | sha256sum | cut -c1-64)
	enc=$("$btf_py" "$top/tests/tools/erased_check.py" --print-encrypted "$in" "$vml") || return 1
	[ -n "$enc" ] || { echo "no encrypted key in $in"; return 1; }
	texts=("$SECRET_USER_KEY" "$SECRET_LOGON_KEY" "$SECRET_KMK_KEY"
	       "$SECRET_DM_KEY" "$SECRET_DM_XTS_KEY1" "$SECRET_DM_XTS_KEY2"
	       "$SECRET_DM_ESSIV_KEY" "hex:$ess" "$SECRET_DM_AESNI_KEY1"
	       "$SECRET_DM_AESNI_KEY2" "$SECRET_DM_ESSIV_NI_KEY" "hex:$essni"
	       "$SECRET_FSCRYPT_KEY")
	mapfile -t -O ${#texts[@]} texts < <(btf_ktls_keys - | sed -n 'n;p')
	btf_more
	texts+=("${btf_more_texts[@]}")
	[ ${#texts[@]} = 48 ] || { echo "not 13 + 16 + 19 known keys: ${#texts[@]}"; return 1; }
	for k in $enc; do texts+=("hex:$k"); done
	# the authenc mapping's HMAC key as its ipad and opad states, the
	# gcm mapping's GHASH key H = AES_K(0)
	for k in $(for m in "$SECRET_DM_AUTHENC_MAC" "$SECRET_DM_AUTHENC_NI_MAC" \
		"$SECRET_DM_AUTHENC_CBC_NI_MAC"; do
		"$btf_py" "$top/tests/tools/erased_check.py" --print-hmac "$m"; done); do
		texts+=("hex:$k")
	done
	texts+=("hex:$(cd "$top/tests/tools" && "$btf_py" -c 'import sys, ktls_keys
print(ktls_keys.ghash_h(sys.argv[1].encode()).hex())' "$SECRET_DM_GCM_KEY")") || return 1
	[ ${#texts[@]} = 56 ] || { echo "not 48 + 1 + 6 + 1 texts: ${#texts[@]}"; return 1; }
	# AES-NI's GCM keeps the GHASH key H = AES_K(0) as such
	for k in "$SECRET_KTLS_NI_TX_KEY" "$SECRET_KTLS_NI_RX_KEY" \
		"$SECRET_KTLS_GCM128_NI_TX_KEY" "$SECRET_KTLS_GCM128_NI_RX_KEY" \
		"$SECRET_DM_GCM_NI_KEY" "$SECRET_DM_RFC4106_NI_KEY"; do
		texts+=("hex:$(cd "$top/tests/tools" && "$btf_py" -c 'import sys, ktls_keys
print(ktls_keys.ghash_h(sys.argv[1].encode()).hex())' "$k")") || return 1
	done
	btf_grep_erased "$in" "$vml" "$o" "${texts[@]}"
}

# btf_ktls_modules VMLINUX: the folder of tls.ko, gcm.ko, ccm.ko and
# chacha20poly1305.ko with their DWARF, out of the cached -dbg package
# beside VMLINUX once (its usr/lib/debug/lib/modules tree, as
# erase_modules.sh does for dm_mod; VMSIFT_ERASE_FULL=1 extracts them,
# about 4 minutes).
btf_ktls_modules() {
	local dbg kdir deb rel=6.1.0-57-amd64 k missing=()
	dbg=$(dirname "$1")
	kdir=$dbg/usr/lib/debug/lib/modules/$rel/kernel
	for k in $btf_ktls_ko; do
		[ -f "$kdir/$k" ] || missing+=("./usr/lib/debug/lib/modules/$rel/kernel/$k")
	done
	if [ ${#missing[@]} != 0 ]; then
		[ "${VMSIFT_ERASE_FULL:-0}" = 1 ] || return 1
		deb=$(ls "${VMSIFT_CACHE:-$top/tests/work/cache}"/debs/linux-image-$rel-dbg_*.deb 2>/dev/null | head -n1)
		[ -n "$deb" ] || return 1
		dpkg-deb --fsys-tarfile "$deb" | (cd "$dbg" && tar -x "${missing[@]}") || return 1
	fi
	echo "$kdir"
}
btf_ktls_ko="net/tls/tls.ko crypto/gcm.ko crypto/ccm.ko crypto/chacha20poly1305.ko"

# btf_ktls_ko_args KDIR: "--ko PATH" for each of btf_ktls_modules' .ko
btf_ktls_ko_args() {
	local k
	for k in $btf_ktls_ko; do printf -- '--ko\n%s\n' "$1/$k"; done
}

# t_btf_ktls_where VMCORE KDIR: drgn, with the -dbg vmlinux and the DWARF
# of tls.ko, gcm.ko, ccm.ko and chacha20poly1305.ko (KDIR), walks
# tcp_hashinfo.ehash to the secrets guest's eight kTLS sockets and finds
# each known TX and RX key (lib.sh) in one socket's struct tls_context
# (crypto_send, crypto_recv) and in every place of that direction's
# transforms: gcm.ko's AES key schedule and (as H = AES_K(0)) GHASH
# table; AES-NI GCM's internal __generic-gcm-aesni context behind simd
# and cryptd, H then the schedule from its first 16-byte boundary;
# CCM's ctr and cbcmac schedules (aes-generic, or AES-NI's aligned
# ones); ChaCha20's struct chacha_ctx (generic or simd)
# (tests/tools/ktls_keys.py): where the kTLS rules must erase, proved on
# the dump (btf_erase_secrets_guest checks them erased).
t_btf_ktls_where() {
	local in=$1 kdir=$2 vml out=$btf_dir/ktls args k
	# shellcheck source=/dev/null
	. "$top/tests/harness/lib.sh"
	vml=$(btf_dbg_vmlinux "$in") || return 1
	mapfile -t args < <(btf_ktls_keys -)
	args+=("$in" "$vml")
	for k in $btf_ktls_ko; do args+=("$kdir/$k"); done
	"$btf_py" "$top/tests/tools/ktls_keys.py" "${args[@]}" > "$out" ||
		{ cat "$out"; return 1; }
	[ "$(wc -l < "$out")" = 40 ] || { echo "not eight kTLS sockets with two directions:"; cat "$out"; return 1; }
	[ "$(grep -c ' __generic-gcm-aesni context ' "$out")" = 4 ] ||
		{ echo "not four AES-NI GCM internal contexts:"; cat "$out"; return 1; }
	for k in ' ctr __ctr-aes-aesni ' ' cbcmac aes-aesni ' ' ctr aes-generic ' \
		' cbcmac aes-generic ' ' chacha20-generic ' ' chacha20-simd '; do
		[ "$(grep -c -F -- "$k" "$out")" = 2 ] ||
			{ echo "not two places '$k' (a CCM or ChaCha20 socket's directions):"; cat "$out"; return 1; }
	done
}

# btf_keys_sel: sed's range of the key loops after the user and logon
# ones (encrypted, fscrypt-provisioning, IMA's queue, asymmetric, rxrpc,
# ceph; comments left out), whose rules name no global's type but the
# walks' heads.
btf_keys_sel='/&key_type_encrypted?$/,/^# The keys of dm-crypt mappings/p'

# t_btf_dmcrypt_same VMCORE: secrets.conf and secrets-dwarf.conf hold the
# same [dm_mod] rules and the same key loops after the user and logon
# ones (btf_keys_sel, less the BTF form's ":rb_root" and ":list_head"),
# and those rules write the same dump, eraseinfo
# included, from the kernel's and the modules' BTF in the dump as from
# the vmlinux's and their .ko DWARF (-x), byte for byte; what they erased
# is checked by the two tests above.
t_btf_dmcrypt_same() {
	local in=$1 vml o=$work/out/dmsame d=$top/data/erase
	vml=$(btf_dbg_vmlinux "$in") || return 1
	btf_crypto_ko "$vml" || return 1
	mkdir -p "$work/out"
	rm -f "$o".*
	sed -n "$btf_keys_sel" "$d/secrets.conf" | grep -v '^#' > "$o.conf"
	sed -n "$btf_keys_sel" "$d/secrets-dwarf.conf" | grep -v '^#' |
		sed 's/^for k in key_serial_tree /for k in key_serial_tree:rb_root /; s/^for e in ima_keys? /for e in ima_keys?:list_head /' |
		diff "$o.conf" - || { echo "the files' encrypted, fscrypt, IMA, asymmetric, rxrpc and ceph key rules differ"; return 1; }
	local r
	for r in encrypted_key_payload fscrypt_provisioning_key_payload 'ima_key_entry:list' \
		'public_key\*.key size' 't.kad.session_key' 'ceph_crypto_key@libceph\*.key size'; do
		grep -q "$r" "$o.conf" || { echo "no rule with $r"; return 1; }
	done
	sed -n '/^\[dm_mod\]/,/^\[vmlinux\]/p' "$d/secrets.conf" > "$o.dm"
	sed -n '/^\[dm_mod\]/,/^\[vmlinux\]/p' "$d/secrets-dwarf.conf" |
		diff "$o.dm" - || { echo "the files' [dm_mod] rules differ"; return 1; }
	grep -q 'crypt_target@dm_crypt' "$o.dm" || { echo "no dm-crypt rules"; return 1; }
	cat "$o.dm" >> "$o.conf"
	"$top/vmsift" --config "$o.conf" -l -d 31 "$in" "$o.btf" > /dev/null || return 1
	"$top/vmsift" -x "$vml" --config "$o.conf" -l -d 31 "$in" "$o.x" > /dev/null || return 1
	cmp "$o.btf" "$o.x"
}

# t_btf_ktls_same VMCORE: secrets.conf and secrets-dwarf.conf hold the
# same kTLS rules (from "for b in tcp_hashinfo" to "# end of the kTLS
# rules"), and they write the same dump, eraseinfo included, from the
# dump's BTF (the kernel's, tls's, gcm's, ccm's, chacha20poly1305's) as
# from the DWARF of the -dbg vmlinux and those modules' .ko (-x), byte
# for byte; its eraseinfo names the 40 places of the guest's eight kTLS
# sockets, as many of each kind as btf_ktls_where's drgn finds.
t_btf_ktls_same() {
	local in=$1 vml o=$work/out/ktlssame d=$top/data/erase n
	local sel='/^for b in tcp_hashinfo/,/^# end of the kTLS rules/p'
	vml=$(btf_dbg_vmlinux "$in") || return 1
	mkdir -p "$work/out"
	rm -f "$o".*
	sed -n "$sel" "$d/secrets.conf" > "$o.conf"
	sed -n "$sel" "$d/secrets-dwarf.conf" | diff "$o.conf" - ||
		{ echo "the files' kTLS rules differ"; return 1; }
	grep -q 'tcp_tls_ulp_ops@tls' "$o.conf" || { echo "no kTLS rules"; return 1; }
	"$top/vmsift" --config "$o.conf" -l -d 31 "$in" "$o.btf" > /dev/null || return 1
	"$top/vmsift" -x "$vml" --config "$o.conf" -l -d 31 "$in" "$o.x" > /dev/null || return 1
	cmp "$o.btf" "$o.x" || return 1
	# the places (less each AEAD's own context, erased whatever its
	# driver): how many of each the eight sockets have
	strings "$o.btf" | grep -E '^erase [a-z]\.' | grep -v '^erase a\.base\.__crt_ctx size ' |
		sed 's/^erase //' | sort | uniq -c | sed 's/^ *//' > "$o.places"
	diff - "$o.places" <<-'EOF' || { echo "eraseinfo's kTLS places differ (<: want)"; return 1; }
	4 a.base.__crt_ctx:chachapoly_ctx@chacha20poly1305.chacha.base.__crt_ctx size 36
	4 a.base.__crt_ctx:crypto_gcm_ctx@gcm.ctr.base.__crt_ctx:skcipher_ctx_simple@vmlinux.cipher.base.__crt_ctx size 484
	4 a.base.__crt_ctx[0]:crypto_aead@vmlinux*.base.__crt_ctx[1]:crypto_aead@vmlinux*.base.__crt_ctx size 512
	2 c.base.__crt_ctx:skcipher_ctx_simple@vmlinux.cipher.base.__crt_ctx size 484
	2 c.base.__crt_ctx[0]:crypto_skcipher@vmlinux*.base.__crt_ctx[1]:crypto_skcipher@vmlinux*.base.__crt_ctx size 492
	4 h.base.__crt_ctx[0]:crypto_shash@vmlinux*.base.__crt_ctx[0] size 4096
	2 m.base.__crt_ctx[0]:crypto_shash@vmlinux*.base.__crt_ctx[0]:crypto_cipher@vmlinux*.base.__crt_ctx size 484
	2 m.base.__crt_ctx[0]:crypto_shash@vmlinux*.base.__crt_ctx[0]:crypto_cipher@vmlinux*.base.__crt_ctx size 492
	8 s.icsk_ulp_data:tls_context@tls*.crypto_recv size 56
	8 s.icsk_ulp_data:tls_context@tls*.crypto_send size 56
	EOF
}

# t_btf_ktls_netns VMCORE KDIR: the namespaces' block of the kTLS rules
# reaches the sockets: secrets.conf without the block over tcp_hashinfo,
# and with the namespaces' filter turned round ("hashinfo ==
# &tcp_hashinfo": the guest has no namespace with its own table, so
# init_net's shared one is walked through net_namespace_list), erases
# the six places drgn finds (erased_check.py, the known keys there;
# --tfm-neighbours: a transform's context, erased by the same file but
# not looked for here, lies beside a key payload).  Without the [dm_mod]
# section: in the v8 guest a kTLS socket's GHASH table lies just before
# the dm-crypt gcm mapping's, which the dm-crypt rules would erase and
# erased_check.py, told of the kTLS places only, would see changed.
t_btf_ktls_netns() {
	local in=$1 kdir=$2 vml o=$work/out/ktlsns args
	# shellcheck source=/dev/null
	. "$top/tests/harness/lib.sh"
	vml=$(btf_dbg_vmlinux "$in") || return 1
	mkdir -p "$work/out"
	rm -f "$o".*
	awk '/^for b in tcp_hashinfo/ || /^\[dm_mod\]/ { skip = 1 }
	     /^# The same for each network namespace/ || /^\[vmlinux\]/ { skip = 0 }
	     !skip' "$top/data/erase/secrets.conf" |
		sed 's/tcp_death_row\.hashinfo != &tcp_hashinfo$/tcp_death_row.hashinfo == \&tcp_hashinfo/' > "$o.conf"
	grep -q '^for n in net_namespace_list.* == &tcp_hashinfo$' "$o.conf" ||
		{ echo "no namespaces' block to turn round"; return 1; }
	! grep -q '^for b in tcp_hashinfo' "$o.conf" || { echo "the global block is left"; return 1; }
	"$top/vmsift" --config "$o.conf" -l -d 31 "$in" "$o.kdump" > /dev/null || return 1
	mapfile -t args < <(btf_ktls_keys --ktls; btf_ktls_ko_args "$kdir")
	"$btf_py" "$top/tests/tools/erased_check.py" --tfm-neighbours \
		"${args[@]}" "$in" "$vml" "$o.kdump"
}

# btf_xfrm_args OPTION KDIR: OPTION (--sa or --xfrm) and each SA's spec,
# then gcm.ko and authenc.ko of KDIR (their DWARF), one word a line.
btf_xfrm_args() {
	local sa
	while IFS= read -r sa; do printf '%s\n' "$1" "$sa"; done < <(known_xfrm_sas)
	printf '%s\n' "$2/crypto/gcm.ko" "$2/crypto/authenc.ko"
}

# t_btf_xfrm_where VMCORE KDIR: drgn, with the -dbg vmlinux and the
# DWARF of gcm.ko and authenc.ko (KDIR), walks every namespace's
# xfrm.state_all to the guest's four IPsec SAs and finds each one's
# keys where the IPsec rules must erase them (tests/tools/xfrm_keys.py):
# the SA's own copies (aead 36 bytes, aalg and ealg 32 each),
# rfc4106's salt, gcm.ko's schedule and GHASH table, AES-NI's
# __rfc4106-gcm-aesni context (H, schedule, salt), the HMAC's ipad and
# opad states, cbc's schedule over aes-generic and AES-NI's
# __cbc-aes-aesni: 16 places.
t_btf_xfrm_where() {
	local in=$1 kdir=$2 vml out=$btf_dir/xfrm args
	# shellcheck source=/dev/null
	. "$top/tests/harness/lib.sh"
	vml=$(btf_dbg_vmlinux "$in") || return 1
	mapfile -t args < <(btf_xfrm_args --sa "$kdir")
	"$btf_py" "$top/tests/tools/xfrm_keys.py" "${args[@]:0:8}" "$in" "$vml" "${args[@]:8}" > "$out" ||
		{ cat "$out"; return 1; }
	[ "$(wc -l < "$out")" = 16 ] || { echo "not the four SAs' 16 places:"; cat "$out"; return 1; }
	[ "$(grep -c ' __rfc4106-gcm-aesni context ' "$out")" = 1 ] &&
		[ "$(grep -c ' enc __cbc-aes-aesni context ' "$out")" = 1 ] ||
		{ echo "not one AES-NI rfc4106 and one AES-NI cbc context:"; cat "$out"; return 1; }
}

# t_btf_xfrm_erased VMCORE KDIR: the IPsec rules alone (secrets.conf's,
# BTF; and secrets-dwarf.conf's with -x) erase every place
# t_btf_xfrm_where's drgn finds, in kdump and ELF outputs, the 64 bytes
# around each place untouched (erased_check.py --xfrm-only; no other rule
# runs, so no neighbour may change); the dump of the whole secrets.conf
# is opened by crash (tests/harness/crash-check, the -dbg vmlinux).
t_btf_xfrm_erased() {
	local in=$1 kdir=$2 vml o=$work/out/xfrm args
	# shellcheck source=/dev/null
	. "$top/tests/harness/lib.sh"
	vml=$(btf_dbg_vmlinux "$in") || return 1
	btf_crypto_ko "$vml" || return 1
	mkdir -p "$work/out"
	rm -f "$o".*
	sed -n "$known_xfrm_sel" "$top/data/erase/secrets.conf" > "$o.conf"
	grep -q '^[[:space:]]*for x in n\.xfrm\.state_all' "$o.conf" || { echo "no IPsec rules"; return 1; }
	"$top/vmsift" --config "$o.conf" -l -d 31 "$in" "$o.kdump" > /dev/null || return 1
	"$top/vmsift" --config "$o.conf" -E -d 31 "$in" "$o.elf" > /dev/null || return 1
	sed -n "$known_xfrm_sel" "$top/data/erase/secrets-dwarf.conf" > "$o.x.conf"
	"$top/vmsift" -x "$vml" --config "$o.x.conf" -l -d 31 "$in" "$o.x" > /dev/null || return 1
	mapfile -t args < <(btf_xfrm_args --xfrm "$kdir" | sed '/\.ko$/i --ko')
	"$btf_py" "$top/tests/tools/erased_check.py" --xfrm-only "${args[@]}" "$in" "$vml" \
		"$o.kdump" "$o.elf" "$o.x" || return 1
	"$top/vmsift" --config "$top/data/erase/secrets.conf" -l -d 31 "$in" "$o.all" > /dev/null || return 1
	VMSIFT_CACHE=${VMSIFT_CACHE:-$top/tests/work/cache} \
		"$top/tests/harness/crash-check" "$o.all"
}

# t_btf_xfrm_same VMCORE: secrets.conf and secrets-dwarf.conf hold the
# same IPsec rules, which write the same dump, eraseinfo included, from
# the dump's BTF (the kernel's, gcm's, authenc's, seqiv's, echainiv's,
# aesni_intel's, cryptd's) as from the DWARF of the -dbg vmlinux and
# those modules' .ko (-x), byte for byte; its eraseinfo names the
# places of the four SAs, as many of each kind as t_btf_xfrm_where's
# drgn finds (less enc's own 8-byte contexts, which hold no key).
t_btf_xfrm_same() {
	local in=$1 vml o=$work/out/xfrmsame d=$top/data/erase
	vml=$(btf_dbg_vmlinux "$in") || return 1
	btf_crypto_ko "$vml" || return 1
	mkdir -p "$work/out"
	rm -f "$o".*
	sed -n "$known_xfrm_sel" "$d/secrets.conf" > "$o.conf"
	sed -n "$known_xfrm_sel" "$d/secrets-dwarf.conf" | diff "$o.conf" - ||
		{ echo "the files' IPsec rules differ"; return 1; }
	"$top/vmsift" --config "$o.conf" -l -d 31 "$in" "$o.btf" > /dev/null || return 1
	"$top/vmsift" -x "$vml" --config "$o.conf" -l -d 31 "$in" "$o.x" > /dev/null || return 1
	cmp "$o.btf" "$o.x" || return 1
	strings "$o.btf" | grep -E '^erase [a-z]\.' | sed 's/^erase //' | sort | uniq -c |
		sed 's/^ *//' > "$o.places"
	diff - "$o.places" <<-'EOF' || { echo "eraseinfo's IPsec places differ (<: want)"; return 1; }
	2 e.base.__crt_ctx size 8
	1 e.base.__crt_ctx[0]:crypto_cipher@vmlinux*.base.__crt_ctx size 484
	1 e.base.__crt_ctx[0]:crypto_skcipher@vmlinux*.base.__crt_ctx[1]:crypto_skcipher@vmlinux*.base.__crt_ctx size 492
	1 f.base.__crt_ctx:crypto_gcm_ctx@gcm.ctr.base.__crt_ctx:skcipher_ctx_simple@vmlinux.cipher.base.__crt_ctx size 484
	1 g.base.__crt_ctx size 16
	1 g.base.__crt_ctx[0]:crypto_aead@vmlinux*.base.__crt_ctx[1]:crypto_aead@vmlinux*.base.__crt_ctx size 512
	2 h.base.__crt_ctx[0]:crypto_shash@vmlinux*.base.__crt_ctx size 216
	1 h.base.__crt_ctx[0]:crypto_shash@vmlinux*.base.__crt_ctx[0] size 4096
	2 x.aalg.alg_key size 32
	2 x.aead.alg_key size 36
	2 x.ealg.alg_key size 32
	EOF
}

# t_btf_xfrm_grep VMCORE: the four SAs' known keys (lib.sh: AES keys,
# HMAC keys), the GHASH key H = AES_K(0) of the two rfc4106 keys and the
# ipad states of the two HMAC keys are in the vmcore's pages,
# and in none after the whole shipped file, secrets.conf (BTF) or
# secrets-dwarf.conf (-x), each page read by libkdumpfile
# (tests/tools/page_grep.py); the 4-byte salts are too short to grep
# (t_btf_xfrm_where finds them in their places, t_btf_xfrm_erased erased).
# The opad states are not grepped: 6.1's hmac_setkey() computes them last
# in a descriptor on the kernel stack (SHASH_DESC_ON_STACK) that it does
# not zero, and the guest's workload task, whose last calls set the SAs,
# keeps that stack (drgn found the two states there in one such
# guest, 0x31d8 to 0x35a8 into its 16 KiB stack): no rule reaches a
# stack (doc/erase.md);
# btf_xfrm_erased checks both states erased in the HMAC's context.
t_btf_xfrm_grep() {
	local in=$1 vml o=$work/out/xfrmgrep texts=()
	# shellcheck source=/dev/null
	. "$top/tests/harness/lib.sh"
	vml=$(btf_dbg_vmlinux "$in") || return 1
	btf_crypto_ko "$vml" || return 1
	mkdir -p "$work/out"
	rm -f "$o".*
	mapfile -t texts < <(known_xfrm_texts "$btf_py")
	[ ${#texts[@]} = 10 ] || { echo "not 6 keys + 2 H + 2 HMAC ipad states: ${#texts[@]}"; return 1; }
	btf_grep_erased "$in" "$vml" "$o" "${texts[@]}"
}

# btf_xfrm_names: the IPsec tests' names
btf_xfrm_names="btf_xfrm_where btf_xfrm_erased btf_xfrm_same btf_xfrm_grep"

# btf_xfrm_tests: the IPsec tests on the secrets guest's v9 vmcore (the
# carried one has no SA), made once into the cache when missing (a QEMU
# guest: VMSIFT_NO_QEMU=1 skips them, visibly), and only when one of
# them is to run (not for a listing, nor for VMSIFT_TESTS naming none).
btf_xfrm_tests() {
	local sec vml kdir t want=0
	for t in $btf_xfrm_names; do
		if [ -z "${VMSIFT_TESTS:-}" ] || [[ $t =~ $VMSIFT_TESTS ]]; then want=1; fi
	done
	if [ "${VMSIFT_LIST:-0}" = 1 ]; then
		for t in $btf_xfrm_names; do run_test "$t" true; done
		return
	fi
	[ "$want" = 1 ] || return 0
	if [ "${VMSIFT_NO_QEMU:-0}" = 1 ] && [ ! -f "${VMSIFT_CACHE:-$top/tests/work/cache}/secrets-v9-6.1.0-57-amd64.vmcore" ]; then
		log "# skipped: btf_xfrm_* (VMSIFT_NO_QEMU=1 and no secrets-v9 vmcore cached)"
		return
	fi
	if ! sec=$(btf_secrets_v9); then
		run_test btf_xfrm_vmcore false
		return
	fi
	if vml=$(btf_dbg_vmlinux "$sec" 2>/dev/null) && kdir=$(btf_ktls_modules "$vml"); then
		run_test btf_xfrm_where t_btf_xfrm_where "$sec" "$kdir"
		run_test btf_xfrm_erased t_btf_xfrm_erased "$sec" "$kdir"
	else
		log "# skipped: btf_xfrm_where, btf_xfrm_erased (gcm.ko's DWARF: VMSIFT_ERASE_FULL=1 extracts it)"
	fi
	run_test btf_xfrm_same t_btf_xfrm_same "$sec"
	run_test btf_xfrm_grep t_btf_xfrm_grep "$sec"
}

btf_tests() {
	local x86 a64 rv s390 ppc sec vml kdir
	make -s -C "$top/tests/unit" ti_query >/dev/null || { run_test btf_build false; return; }
	x86=$(btf_vmcore "$top/tests/data/kdump-384M.vmcore.zst") || return
	a64=$(btf_vmcore "$top/tests/data/arm64/kdump-arm64-384M.vmcore.zst") || return
	rv=$(btf_vmcore "$top/tests/data/riscv64/snapshot-riscv64-256M.vmcore.zst") || return
	s390=$(btf_vmcore "$top/tests/data/s390x/snapshot-s390x-512M.vmcore.zst") || return
	ppc=$(btf_vmcore "$top/tests/data/ppc64le/kdump-ppc64le-radix-768M.vmcore.zst") || return
	run_test btf_kallsyms_drgn_x86_64 t_btf_kallsyms_drgn "$x86"
	run_test btf_types_drgn_x86_64 t_btf_types_drgn "$x86"
	run_test btf_vmcoreinfo_x86_64 t_btf_vmcoreinfo "$x86" types
	run_test btf_vmcoreinfo_riscv64 t_btf_vmcoreinfo "$rv" types
	run_test btf_kallsyms_arm64 t_btf_vmcoreinfo "$a64"
	run_test btf_kallsyms_s390x t_btf_vmcoreinfo "$s390"
	run_test btf_kallsyms_ppc64le t_btf_vmcoreinfo "$ppc"
	run_test btf_refused_arm64 t_btf_refused "$a64"
	run_test btf_refused_s390x t_btf_refused "$s390"
	run_test btf_secrets_sha carried_sha secrets kdump-secrets-384M
	# The same checks on the carried vmcore and on the secrets guest's
	# (carried, tests/data/secrets): the carried x86_64 one with
	# VMSIFT_FULL=1, or when the secrets vmcore is missing.
	if sec=$(btf_secrets_vmcore); then
		full && run_test btf_erase_secrets_x86_64 t_btf_erase_secrets "$x86"
		run_test btf_secrets_present t_btf_secrets_present "$sec"
		run_test btf_erase_secrets_guest t_btf_erase_secrets "$sec" keys
		run_test btf_secrets_grep t_btf_secrets_grep "$sec"
		if vml=$(btf_dbg_vmlinux "$sec" 2>/dev/null) && kdir=$(btf_ktls_modules "$vml"); then
			run_test btf_ktls_where t_btf_ktls_where "$sec" "$kdir"
			run_test btf_ktls_netns t_btf_ktls_netns "$sec" "$kdir"
		else
			log "# skipped: btf_ktls_where, btf_ktls_netns (tls.ko and gcm.ko's DWARF: VMSIFT_ERASE_FULL=1 extracts them)"
		fi
		run_test btf_dmcrypt_same t_btf_dmcrypt_same "$sec"
		run_test btf_ktls_same t_btf_ktls_same "$sec"
	else
		run_test btf_erase_secrets_x86_64 t_btf_erase_secrets "$x86"
		log "# skipped: the secrets vmcore (tests/data/secrets/kdump-secrets-384M.vmcore.zst missing, or VMSIFT_SECRETS=1 could not make the big one)"
	fi
	btf_xfrm_tests
}
btf_tests
