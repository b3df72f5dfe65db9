# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/lib/known_secrets.sh - erased_check.py's arguments for the
# secrets guest's known secrets, shared by the suites that check its
# vmcores (btf.sh: 6.1; secnew.sh: 6.12, 7.x).  Sourced inside tests/run;
# the caller has sourced tests/harness/lib.sh (SECRET_*).

# known_secrets: erased_check.py's arguments for the secrets guest's
# known secrets (lib.sh, sourced): the user, logon, master and fscrypt-
# provisioning keys' payloads, each dm-crypt mapping's key and the
# schedules that must hold its halves (cbc: the key; xts: the data key
# in the child's cipher, the tweak key in the tweak cipher; essiv: the
# key, and its SHA-256 in the ESSIV cipher; AES-NI: both halves in the
# internal context; essiv over AES-NI: the key in the internal context
# behind the child's simd and cryptd, its SHA-256 in AES-NI's cipher),
# and the encrypted key's payload.
known_secrets() {
	local ess essni
	ess=$(printf '%s' "$SECRET_DM_ESSIV_KEY" | sha256sum | cut -c1-64)
	essni=$(printf '%s' "$SECRET_DM_ESSIV_NI_KEY" | sha256sum | cut -c1-64)
	printf '%s\n' --key "$SECRET_USER_KEY" --key "$SECRET_LOGON_KEY" \
		--key "$SECRET_KMK_KEY" --key "$SECRET_FSCRYPT_KEY" \
		--dm-key "$SECRET_DM_KEY" --schedule "$SECRET_DM_KEY" \
		--dm-key "$SECRET_DM_XTS_KEY1$SECRET_DM_XTS_KEY2" \
		--schedule "$SECRET_DM_XTS_KEY1" --schedule "$SECRET_DM_XTS_KEY2" \
		--dm-key "$SECRET_DM_ESSIV_KEY" --schedule "$SECRET_DM_ESSIV_KEY" \
		--schedule "hex:$ess" \
		--dm-key "$SECRET_DM_AESNI_KEY1$SECRET_DM_AESNI_KEY2" \
		--schedule "$SECRET_DM_AESNI_KEY1" --schedule "$SECRET_DM_AESNI_KEY2" \
		--dm-key "$SECRET_DM_ESSIV_NI_KEY" --schedule "$SECRET_DM_ESSIV_NI_KEY" \
		--schedule "hex:$essni" \
		--encrypted
}

# known_secrets_more: erased_check.py's arguments for the secrets the
# guest holds since secrets-v7 (6.1's carried vmcore, 6.12's and 7.3's
# cached v7 guests of secnew.sh): the authenc, gcm and lrw mappings' keys
# and the schedules and tables that hold them (authenc(hmac(sha256),
# xts(aes)): the xts halves in their schedules, the HMAC key's ipad and
# opad states in hmac's context; gcm(aes): the key in ctr's cipher, H =
# AES_K(0) in the GHASH table; lrw: the AES key in the ecb child's
# cipher, the tweak key in a table), the asymmetric key's PKCS#8 private
# key, the rxrpc key's session key and ticket, and the ceph key.  "lib"
# (7.x, whose gcm(aes) is the AES library's gcm-aes-lib, H kept in
# another form): no GHASH key.
known_secrets_more() {
	printf '%s\n' \
		--dm-key "$SECRET_DM_AUTHENC_XTS1$SECRET_DM_AUTHENC_XTS2$SECRET_DM_AUTHENC_MAC" \
		--schedule "$SECRET_DM_AUTHENC_XTS1" --schedule "$SECRET_DM_AUTHENC_XTS2" \
		--hmac "$SECRET_DM_AUTHENC_MAC" \
		--dm-key "$SECRET_DM_GCM_KEY" --schedule "$SECRET_DM_GCM_KEY" \
		--dm-key "$SECRET_DM_LRW_KEY1$SECRET_DM_LRW_KEY2" \
		--schedule "$SECRET_DM_LRW_KEY1" --schedule "$SECRET_DM_LRW_KEY2" \
		--module-key "$SECRET_PKCS8_KEY" \
		--module-key "$SECRET_RXRPC_SESSION_KEY" --module-key "$SECRET_RXRPC_TICKET" \
		--module-key "$SECRET_CEPH_KEY"
	[ "${1:-}" = lib ] || printf '%s\n' --ghash-key "$SECRET_DM_GCM_KEY"
}

# known_secrets_aead: erased_check.py's arguments for the dm-crypt AEAD
# mappings the guest holds since secrets-v8 (workload -B, -Z): gcm(aes)
# and rfc4106(gcm(aes)) over AES-NI (the key in the internal context
# behind simd and cryptd), authenc over AES-NI's xts and cbc (the AES keys
# in the internal context, the HMAC key's ipad and opad states in hmac's
# context), rfc7539(chacha20,poly1305) over chacha20-generic and, where
# the kernel has chacha-x86_64, chacha20-simd (the key in the chacha
# context).
known_secrets_aead() {
	printf '%s\n' \
		--dm-key "$SECRET_DM_GCM_NI_KEY" --schedule "$SECRET_DM_GCM_NI_KEY" \
		--dm-key "$SECRET_DM_RFC4106_NI_KEY$SECRET_DM_RFC4106_NI_SALT" \
		--schedule "$SECRET_DM_RFC4106_NI_KEY" \
		--dm-key "$SECRET_DM_AUTHENC_NI_XTS1$SECRET_DM_AUTHENC_NI_XTS2$SECRET_DM_AUTHENC_NI_MAC" \
		--schedule "$SECRET_DM_AUTHENC_NI_XTS1" --schedule "$SECRET_DM_AUTHENC_NI_XTS2" \
		--hmac "$SECRET_DM_AUTHENC_NI_MAC" \
		--dm-key "$SECRET_DM_AUTHENC_CBC_NI_KEY$SECRET_DM_AUTHENC_CBC_NI_MAC" \
		--schedule "$SECRET_DM_AUTHENC_CBC_NI_KEY" --hmac "$SECRET_DM_AUTHENC_CBC_NI_MAC" \
		--dm-key "$SECRET_DM_CHACHA_KEY" --schedule "$SECRET_DM_CHACHA_KEY" \
		--dm-key "$SECRET_DM_CHACHA_NI_KEY" --schedule "$SECRET_DM_CHACHA_NI_KEY"
}

# known_xfrm_sas: xfrm_keys.py's (--sa) and erased_check.py's (--xfrm)
# specs of the secrets guest's four IPsec SAs (workload -x, -y, since
# secrets-v9; SPIs 0x7f5100NN before the late modules, 0x7f5101NN
# after), one a line: KIND:SPI:KEY:MORE.
known_xfrm_sas() {
	printf '%s\n' "rfc4106:0x7f510001:$SECRET_XFRM_GCM_KEY:$SECRET_XFRM_GCM_SALT" \
		"cbc:0x7f510002:$SECRET_XFRM_CBC_KEY:$SECRET_XFRM_HMAC_KEY" \
		"rfc4106:0x7f510101:$SECRET_XFRM_GCM_NI_KEY:$SECRET_XFRM_GCM_NI_SALT" \
		"cbc:0x7f510102:$SECRET_XFRM_CBC_NI_KEY:$SECRET_XFRM_HMAC_NI_KEY"
}

# known_xfrm_sel: sed's range of the IPsec rules in secrets.conf and
# secrets-dwarf.conf
# shellcheck disable=SC2034 # read by btf.sh and secnew.sh
known_xfrm_sel='/^# The keys of IPsec SAs/,/^# end of the IPsec rules/p'

# known_xfrm_texts PYTHON: page_grep.py's texts of the four SAs, one a
# line: the six keys (lib.sh: AES keys, HMAC keys), then the GHASH key
# H = AES_K(0) of the two rfc4106 keys, then the ipad states of the two
# HMAC keys (erased_check.py --print-hmac's first line; the opad states
# are not grepped: hmac_setkey() leaves them on the setting task's
# stack, which no rule reaches: doc/erase.md), "hex:..."; PYTHON has
# drgn (ktls_keys.py imports it).
known_xfrm_texts() {
	local k
	printf '%s\n' "$SECRET_XFRM_GCM_KEY" "$SECRET_XFRM_CBC_KEY" "$SECRET_XFRM_HMAC_KEY" \
		"$SECRET_XFRM_GCM_NI_KEY" "$SECRET_XFRM_CBC_NI_KEY" "$SECRET_XFRM_HMAC_NI_KEY"
	(cd "$top/tests/tools" && "$1" -c 'import sys, ktls_keys
for k in sys.argv[1:]:
    print("hex:" + ktls_keys.ghash_h(k.encode()).hex())' \
		"$SECRET_XFRM_GCM_KEY" "$SECRET_XFRM_GCM_NI_KEY") || return 1
	for k in "$SECRET_XFRM_HMAC_KEY" "$SECRET_XFRM_HMAC_NI_KEY"; do
		echo "hex:$("$1" "$top/tests/tools/erased_check.py" --print-hmac "$k" | sed -n 1p)"
	done
}
