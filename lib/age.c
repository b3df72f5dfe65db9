/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * age.c - the age format's keys, header and chunk sealing (age.h), over
 * OpenSSL's libcrypto (X25519, HKDF-SHA-256, HMAC-SHA-256,
 * ChaCha20-Poly1305), loaded at the first use (crypto.h).  What is written here is encoding only: bech32 for
 * keys, unpadded base64 for the header, the header's line grammar.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "age.h"
#include "crypto.h"
#include "util.h"

#ifndef GRND_INSECURE
#define GRND_INSECURE 0x0004
#endif

#define X25519_INFO "age-encryption.org/v1/X25519"
#define B64_LINE 64

int vs_age_probe(const void *head, size_t len)
{
	return len >= VS_AGE_MAGIC_LEN &&
	       !memcmp(head, VS_AGE_MAGIC, VS_AGE_MAGIC_LEN);
}

/* ---- encodings ---------------------------------------------------------- */

static const char b64_chars[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Unpadded base64 of LEN bytes into OUT (4 * len / 3 + 4 bytes, NUL
 * ended); returns the characters written. */
static size_t b64_encode(const uint8_t *in, size_t len, char *out)
{
	size_t o = 0;
	uint32_t acc = 0;
	int bits = 0;

	for (size_t i = 0; i < len; i++) {
		acc = (acc << 8) | in[i];
		bits += 8;
		while (bits >= 6) {
			bits -= 6;
			out[o++] = b64_chars[(acc >> bits) & 63];
		}
	}
	if (bits)
		out[o++] = b64_chars[(acc << (6 - bits)) & 63];
	out[o] = '\0';
	return o;
}

static int b64_value(char c)
{
	const char *p = c ? strchr(b64_chars, c) : NULL;

	return p ? (int)(p - b64_chars) : -1;
}

/* Canonical unpadded base64 (LEN chars) into OUT (at most CAP bytes):
 * the byte count, or -1 (a bad character, '=', non-zero spare bits). */
static long b64_decode(const char *in, size_t len, uint8_t *out, size_t cap)
{
	uint32_t acc = 0;
	size_t o = 0;
	int bits = 0;

	if (len % 4 == 1)
		return -1;
	for (size_t i = 0; i < len; i++) {
		int v = b64_value(in[i]);

		if (v < 0)
			return -1;
		acc = (acc << 6) | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (o == cap)
				return -1;
			out[o++] = (uint8_t)(acc >> bits);
		}
	}
	if (bits && (acc & ((1u << bits) - 1)))
		return -1;
	return (long)o;
}

static const char bech32_chars[] = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

static uint32_t bech32_step(uint32_t chk, unsigned v)
{
	static const uint32_t gen[5] = { 0x3b6a57b2, 0x26508e6d, 0x1ea119fa,
					 0x3d4233dd, 0x2a1462b3 };
	uint32_t top = chk >> 25;

	chk = ((chk & 0x1ffffff) << 5) ^ v;
	for (int i = 0; i < 5; i++)
		if ((top >> i) & 1)
			chk ^= gen[i];
	return chk;
}

/* S (bech32, one case throughout) with human-readable part HRP (compared
 * without case) into OUT, exactly OUT_LEN bytes of payload. */
static int bech32_decode(const char *s, const char *hrp, uint8_t *out,
			 size_t out_len)
{
	size_t len = strlen(s), hl = strlen(hrp), o = 0;
	int lower = 0, upper = 0, bits = 0;
	uint32_t chk = 1, acc = 0;

	for (size_t i = 0; i < len; i++) {
		lower |= s[i] >= 'a' && s[i] <= 'z';
		upper |= s[i] >= 'A' && s[i] <= 'Z';
		if (s[i] < 33 || s[i] > 126)
			return -1;
	}
	if ((lower && upper) || len < hl + 1 + 6 || strncasecmp(s, hrp, hl) ||
	    s[hl] != '1' || strrchr(s, '1') != s + hl)
		return -1;
	for (size_t i = 0; i < hl; i++)
		chk = bech32_step(chk, (unsigned)(s[i] | 0x20) >> 5);
	chk = bech32_step(chk, 0);
	for (size_t i = 0; i < hl; i++)
		chk = bech32_step(chk, (unsigned)(s[i] | 0x20) & 31);
	for (size_t i = hl + 1; i < len; i++) {
		const char *p = strchr(bech32_chars, s[i] | 0x20);
		unsigned v = (unsigned)(p - bech32_chars);

		if (!p)
			return -1;
		chk = bech32_step(chk, v);
		if (i >= len - 6)
			continue;
		acc = (acc << 5) | v;
		bits += 5;
		if (bits >= 8) {
			bits -= 8;
			if (o == out_len)
				return -1;
			out[o++] = (uint8_t)(acc >> bits);
		}
	}
	if (chk != 1 || o != out_len || bits > 4 || (acc & ((1u << bits) - 1)))
		return -1;
	return 0;
}

/* ---- primitives, from libcrypto ------------------------------------------ */

/* The kernel's random bytes, never blocking: GRND_NONBLOCK, and when the
 * pool is not ready yet (a capture kernel early on) GRND_INSECURE, or
 * /dev/urandom on a kernel without it; *WEAK says so. */
int vs_age_random(uint8_t *buf, size_t len, int *weak, struct vs_error *err)
{
	size_t got = 0;
	unsigned flags = GRND_NONBLOCK;

	while (got < len) {
		ssize_t n = getrandom(buf + got, len - got, flags);

		if (n > 0) {
			got += (size_t)n;
		} else if (n < 0 && errno == EAGAIN && flags == GRND_NONBLOCK) {
			flags = GRND_INSECURE;
			*weak = 1;
		} else if (n < 0 && errno != EINTR) {
			int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
			int rc = fd < 0 ? -1 : vs_pread_full(fd, buf, len, 0);

			if (fd >= 0)
				close(fd);
			if (rc < 0)
				return vs_err_sys(err, "cannot draw random "
						  "bytes for the file key");
			*weak = 1;
			return 0;
		}
	}
	return 0;
}

static EVP_PKEY *x25519_key(const struct vs_crypto *c,
			    const uint8_t key[VS_AGE_KEY], int secret)
{
	return secret ? c->EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL,
							key, VS_AGE_KEY) :
			c->EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL,
						       key, VS_AGE_KEY);
}

/* PK = X25519(SK, basepoint). */
static int x25519_public(const uint8_t sk[VS_AGE_KEY], uint8_t pk[VS_AGE_KEY])
{
	const struct vs_crypto *c = vs_crypto();
	EVP_PKEY *k = c ? x25519_key(c, sk, 1) : NULL;
	size_t len = VS_AGE_KEY;
	int ok = k && c->EVP_PKEY_get_raw_public_key(k, pk, &len) == 1 &&
		 len == VS_AGE_KEY;

	if (k)
		c->EVP_PKEY_free(k);
	return ok ? 0 : -1;
}

/* OUT = X25519(SK, PEER); -1 also for the all-zero result. */
static int x25519(const uint8_t sk[VS_AGE_KEY], const uint8_t peer[VS_AGE_KEY],
		  uint8_t out[VS_AGE_KEY])
{
	const struct vs_crypto *c = vs_crypto();
	EVP_PKEY *k, *p;
	EVP_PKEY_CTX *x;
	size_t len = VS_AGE_KEY;
	int ok;

	if (!c)
		return -1;
	k = x25519_key(c, sk, 1);
	p = x25519_key(c, peer, 0);
	x = k && p ? c->EVP_PKEY_CTX_new(k, NULL) : NULL;
	ok = x && c->EVP_PKEY_derive_init(x) == 1 &&
	     c->EVP_PKEY_derive_set_peer(x, p) == 1 &&
	     c->EVP_PKEY_derive(x, out, &len) == 1 && len == VS_AGE_KEY &&
	     !vs_is_zero(out, VS_AGE_KEY);
	c->EVP_PKEY_CTX_free(x);
	c->EVP_PKEY_free(p);
	c->EVP_PKEY_free(k);
	return ok ? 0 : -1;
}

/* OUT (32 bytes) = HKDF-SHA-256(IKM, SALT, INFO); no salt when SALT_LEN
 * is 0 (HKDF's zero salt, the same thing under HMAC). */
static int hkdf(const uint8_t *ikm, size_t ikm_len, const uint8_t *salt,
		size_t salt_len, const char *info, uint8_t out[VS_AGE_KEY])
{
	uint8_t k[64], s[64];
	char i[64], digest[] = "SHA256";
	const struct vs_crypto *f = vs_crypto();
	EVP_KDF *kdf = f ? f->EVP_KDF_fetch(NULL, "HKDF", NULL) : NULL;
	EVP_KDF_CTX *c = kdf ? f->EVP_KDF_CTX_new(kdf) : NULL;
	OSSL_PARAM params[5], *p = params;
	int ok;

	if (kdf)
		f->EVP_KDF_free(kdf);
	if (!c || ikm_len > sizeof(k) || salt_len > sizeof(s) ||
	    strlen(info) >= sizeof(i)) {
		if (c)
			f->EVP_KDF_CTX_free(c);
		return -1;
	}
	memcpy(k, ikm, ikm_len);
	if (salt_len)
		memcpy(s, salt, salt_len);
	strcpy(i, info);
	*p++ = f->OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST,
						   digest, 0);
	*p++ = f->OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, k,
						    ikm_len);
	if (salt_len)
		*p++ = f->OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT,
							    s, salt_len);
	*p++ = f->OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, i,
						    strlen(i));
	*p = f->OSSL_PARAM_construct_end();
	ok = f->EVP_KDF_derive(c, out, VS_AGE_KEY, params) == 1;
	f->EVP_KDF_CTX_free(c);
	vs_cleanse(k, sizeof(k));
	return ok ? 0 : -1;
}

/* MAC = HMAC-SHA-256(HKDF(file key, "header"), the header to "---"). */
static int header_mac(const uint8_t file_key[VS_AGE_FILE_KEY],
		      const void *text, size_t len, uint8_t mac[32])
{
	const struct vs_crypto *c = vs_crypto();
	uint8_t key[VS_AGE_KEY];
	unsigned mac_len = 32;
	int ok;

	if (!c || hkdf(file_key, VS_AGE_FILE_KEY, NULL, 0, "header", key) < 0)
		return -1;
	ok = c->HMAC(c->EVP_sha256(), key, sizeof(key), text, len, mac,
		     &mac_len) != NULL && mac_len == 32;
	vs_cleanse(key, sizeof(key));
	return ok ? 0 : -1;
}

int vs_age_payload_key(const uint8_t file_key[VS_AGE_FILE_KEY],
		       const uint8_t nonce[VS_AGE_NONCE],
		       uint8_t key[VS_AGE_KEY], struct vs_error *err)
{
	if (hkdf(file_key, VS_AGE_FILE_KEY, nonce, VS_AGE_NONCE, "payload",
		 key) < 0)
		return vs_err_st(err, VMSIFT_E_UNSUPPORTED, "libcrypto's "
				 "HKDF-SHA-256 failed");
	return 0;
}

void *vs_age_cipher_new(void)
{
	const struct vs_crypto *c = vs_crypto();

	return c ? c->EVP_CIPHER_CTX_new() : NULL;
}

void vs_age_cipher_free(void *ctx)
{
	if (ctx)  /* made by vs_age_cipher_new(): libcrypto is loaded */
		vs_crypto()->EVP_CIPHER_CTX_free(ctx);
}

static void stream_nonce(uint8_t nonce[12], uint64_t counter, int last)
{
	memset(nonce, 0, 12);
	for (int i = 0; i < 8; i++)
		nonce[10 - i] = (uint8_t)(counter >> (8 * i));
	nonce[11] = last ? 1 : 0;
}

int vs_age_seal(void *ctx, const uint8_t key[VS_AGE_KEY], uint64_t counter,
		int last, const uint8_t *in, size_t len, uint8_t *out)
{
	const struct vs_crypto *c = vs_crypto();  /* loaded: CTX is its */
	uint8_t nonce[12];
	int n = 0, m = 0;

	stream_nonce(nonce, counter, last);
	if (len > VS_AGE_CHUNK ||
	    c->EVP_EncryptInit_ex(ctx, c->EVP_chacha20_poly1305(), NULL, key,
				  nonce) != 1 ||
	    (len && c->EVP_EncryptUpdate(ctx, out, &n, in, (int)len) != 1) ||
	    c->EVP_EncryptFinal_ex(ctx, out + n, &m) != 1 ||
	    c->EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, VS_AGE_TAG,
				   out + len) != 1)
		return -1;
	return 0;
}

int vs_age_open(void *ctx, const uint8_t key[VS_AGE_KEY], uint64_t counter,
		int last, const uint8_t *in, size_t len, uint8_t *out)
{
	const struct vs_crypto *c = vs_crypto();  /* loaded: CTX is its */
	uint8_t nonce[12], tag[VS_AGE_TAG];
	size_t plen = len - VS_AGE_TAG;
	int n = 0, m = 0;

	if (len < VS_AGE_TAG || plen > VS_AGE_CHUNK)
		return -1;
	stream_nonce(nonce, counter, last);
	memcpy(tag, in + plen, VS_AGE_TAG);
	if (c->EVP_DecryptInit_ex(ctx, c->EVP_chacha20_poly1305(), NULL, key,
				  nonce) != 1 ||
	    (plen && c->EVP_DecryptUpdate(ctx, out, &n, in, (int)plen) != 1) ||
	    c->EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, VS_AGE_TAG,
				   tag) != 1 ||
	    c->EVP_DecryptFinal_ex(ctx, out + n, &m) != 1) {
		vs_cleanse(out, plen);  /* nothing unauthenticated */
		return -1;
	}
	return 0;
}

uint64_t vs_age_payload_size(uint64_t plain)
{
	uint64_t chunks = plain ? vs_div_round_up(plain, VS_AGE_CHUNK) : 1;

	return VS_AGE_NONCE + plain + chunks * VS_AGE_TAG;
}

/* ---- keys ------------------------------------------------------------------ */

int vs_age_parse_recipient(const char *s, uint8_t pk[VS_AGE_KEY],
			   struct vs_error *err)
{
	if (strncmp(s, "age1", 4) != 0)
		return vs_err_st(err, VMSIFT_E_INVALID, "recipient '%s' is not "
				 "an age X25519 public key (age1...)", s);
	if (bech32_decode(s, "age", pk, VS_AGE_KEY) < 0)
		return vs_err_st(err, VMSIFT_E_INVALID, "recipient '%s': bad "
				 "bech32 encoding (a mistyped or cut key?)", s);
	return 0;
}

static int add_identity(struct vs_age_ids *ids, const char *line,
			const char *name, unsigned lineno,
			struct vs_error *err)
{
	struct vs_age_id *p, id;

	if (strncmp(line, "AGE-SECRET-KEY-1", 16) != 0 ||
	    bech32_decode(line, "AGE-SECRET-KEY-", id.sk, VS_AGE_KEY) < 0 ||
	    x25519_public(id.sk, id.pk) < 0) {
		vs_cleanse(&id, sizeof(id));
		return vs_err(err, "identity file '%s', line %u: not an age "
			      "X25519 identity (AGE-SECRET-KEY-1...)", name,
			      lineno);
	}
	p = realloc(ids->id, (ids->n + 1) * sizeof(*p));
	if (!p)
		return vs_err_oom(err, "out of memory");
	ids->id = p;
	ids->id[ids->n++] = id;
	vs_cleanse(&id, sizeof(id));
	return 0;
}

int vs_age_ids_parse(struct vs_age_ids *ids, const char *text, size_t len,
		     const char *name, struct vs_error *err)
{
	char line[256];
	unsigned lineno = 0;
	size_t at = 0;

	if (vs_crypto_load(err) < 0)  /* a secret key's public key */
		return -1;

	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t raw = nl ? (size_t)(nl - (text + at)) + 1 : len - at;
		size_t l = nl ? raw - 1 : raw;

		lineno++;
		if (l && text[at + l - 1] == '\r')
			l--;
		if (l >= sizeof(line))
			return vs_err(err, "identity file '%s', line %u: %zu "
				      "bytes, too long for an identity", name,
				      lineno, l);
		memcpy(line, text + at, l);
		line[l] = '\0';
		at += raw;
		if (l && line[0] != '#' &&
		    add_identity(ids, line, name, lineno, err) < 0) {
			vs_cleanse(line, sizeof(line));
			return -1;
		}
	}
	vs_cleanse(line, sizeof(line));
	if (ids->n == 0)
		return vs_err(err, "identity file '%s' holds no identity", name);
	return 0;
}

int vs_age_ids_load(struct vs_age_ids *ids, const char *path,
		    struct vs_error *err)
{
	char buf[1 << 16];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int ret;

	if (fd < 0)
		return vs_err_sys(err, "cannot open identity file '%s'", path);
	n = vs_read_upto(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return vs_err_sys(err, "cannot read identity file '%s'", path);
	if ((size_t)n == sizeof(buf))
		return vs_err(err, "identity file '%s' is 64 KiB or more: not "
			      "an identity file", path);
	ret = vs_age_ids_parse(ids, buf, (size_t)n, path, err);
	vs_cleanse(buf, sizeof(buf));
	return ret;
}

void vs_age_ids_free(struct vs_age_ids *ids)
{
	if (ids->id)
		vs_cleanse(ids->id, ids->n * sizeof(*ids->id));
	free(ids->id);
	ids->id = NULL;
	ids->n = 0;
}

/* ---- the header, written -------------------------------------------------- */

/* One X25519 stanza for PK wrapping FILE_KEY, appended at OUT (room for
 * 128 bytes); returns its length. */
static long x25519_stanza(const uint8_t pk[VS_AGE_KEY],
			  const uint8_t file_key[VS_AGE_FILE_KEY], char *out,
			  int *weak, struct vs_error *err)
{
	uint8_t e[VS_AGE_KEY], share[VS_AGE_KEY], shared[VS_AGE_KEY];
	uint8_t salt[2 * VS_AGE_KEY], wrap[VS_AGE_KEY];
	uint8_t body[VS_AGE_FILE_KEY + VS_AGE_TAG];
	void *c = vs_age_cipher_new();
	size_t o;
	int ok;

	ok = c && vs_age_random(e, sizeof(e), weak, err) == 0 &&
	     x25519_public(e, share) == 0 && x25519(e, pk, shared) == 0;
	memcpy(salt, share, VS_AGE_KEY);
	memcpy(salt + VS_AGE_KEY, pk, VS_AGE_KEY);
	ok = ok && hkdf(shared, sizeof(shared), salt, sizeof(salt),
			X25519_INFO, wrap) == 0 &&
	     vs_age_seal(c, wrap, 0, 0, file_key, VS_AGE_FILE_KEY, body) == 0;
	vs_age_cipher_free(c);
	vs_cleanse(e, sizeof(e));
	vs_cleanse(shared, sizeof(shared));
	vs_cleanse(wrap, sizeof(wrap));
	if (!ok)
		return vs_err(err, "cannot wrap the file key for a recipient "
			      "(libcrypto's X25519 failed: a low-order key?)");
	o = (size_t)sprintf(out, "-> X25519 ");
	o += b64_encode(share, sizeof(share), out + o);
	out[o++] = '\n';
	o += b64_encode(body, sizeof(body), out + o);  /* 43 < 64: one line */
	out[o++] = '\n';
	return (long)o;
}

int vs_age_header_build(const uint8_t (*pks)[VS_AGE_KEY], size_t n,
			uint8_t file_key[VS_AGE_FILE_KEY], char **hdr,
			size_t *len, int *weak, struct vs_error *err)
{
	size_t cap = VS_AGE_MAGIC_LEN + n * 128 + 64, o;
	char *h;
	uint8_t mac[32];

	if (vs_crypto_load(err) < 0)
		return -1;
	h = malloc(cap);
	if (!h)
		return vs_err_oom(err, "out of memory");
	if (n == 0 || n > VS_AGE_STANZAS_MAX ||
	    vs_age_random(file_key, VS_AGE_FILE_KEY, weak, err) < 0) {
		free(h);
		return n ? -1 : vs_err_st(err, VMSIFT_E_INVALID,
					  "encryption needs a recipient");
	}
	memcpy(h, VS_AGE_MAGIC, VS_AGE_MAGIC_LEN);
	o = VS_AGE_MAGIC_LEN;
	for (size_t i = 0; i < n; i++) {
		long l = x25519_stanza(pks[i], file_key, h + o, weak, err);

		if (l < 0) {
			free(h);
			return -1;
		}
		o += (size_t)l;
	}
	memcpy(h + o, "---", 3);
	o += 3;
	if (header_mac(file_key, h, o, mac) < 0) {
		free(h);
		return vs_err(err, "libcrypto's HMAC-SHA-256 failed");
	}
	h[o++] = ' ';
	o += b64_encode(mac, sizeof(mac), h + o);
	h[o++] = '\n';
	*hdr = h;
	*len = o;
	return 0;
}

/* ---- the header, read ------------------------------------------------------ */

/* The arguments of a stanza line (after "-> "), each 1+ chars of 33-126. */
static int parse_args(const char *p, size_t len, struct vs_age_stanza *s)
{
	size_t i = 0;

	while (i <= len) {
		size_t start = i;

		while (i < len && p[i] != ' ') {
			if (p[i] < 33 || p[i] > 126)
				return -1;
			i++;
		}
		if (i == start)
			return -1;
		if (s->type == NULL) {
			s->type = p + start;
			s->type_len = i - start;
		} else {
			if (s->nargs < 2) {
				s->args[s->nargs] = p + start;
				s->arg_len[s->nargs] = i - start;
			}
			s->nargs++;
		}
		i++;
	}
	return 0;
}

static int is_b64_line(const char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (b64_value(p[i]) < 0)
			return 0;
	return len <= B64_LINE;
}

static int bad(struct vs_error *err, const char *name, size_t at,
	       const char *what)
{
	return vs_err(err, "'%s': malformed age header at byte 0x%zx: %s",
		      name, at, what);
}

static int add_stanza(struct vs_age_header *h, struct vs_error *err)
{
	struct vs_age_stanza *p;

	if (h->n == VS_AGE_STANZAS_MAX)
		return vs_err(err, "more than %d stanzas in the age header",
			      VS_AGE_STANZAS_MAX);
	p = realloc(h->st, (h->n + 1) * sizeof(*p));
	if (!p)
		return vs_err_oom(err, "out of memory");
	h->st = p;
	memset(&h->st[h->n++], 0, sizeof(*p));
	return 0;
}

/* The MAC line "--- <43 chars>" at LINE (LEN bytes, '\n' not counted). */
static int parse_mac(struct vs_age_header *h, const char *line, size_t len,
		     size_t at, const char *name, struct vs_error *err)
{
	if (len != 4 + 43 || line[3] != ' ' ||
	    b64_decode(line + 4, 43, h->mac, sizeof(h->mac)) != 32)
		return bad(err, name, at, "the MAC line is not '--- ' and 43 "
			   "base64 characters");
	h->mac_at = at + 3;
	h->len = at + len + 1;
	return 1;
}

int vs_age_header_parse(const uint8_t *buf, size_t len, const char *name,
			struct vs_age_header *h, struct vs_error *err)
{
	const char *t = (const char *)buf;
	size_t at = VS_AGE_MAGIC_LEN;
	int in_body = 0;

	memset(h, 0, sizeof(*h));
	if (memcmp(buf, VS_AGE_MAGIC, len < at ? len : at) != 0)
		return vs_err(err, "'%s' is not an age file: no '%.*s' line "
			      "at byte 0", name, (int)at - 1, VS_AGE_MAGIC);
	while (at < len) {
		const char *nl = memchr(t + at, '\n', len - at);
		size_t l;

		if (!nl)
			break;
		l = (size_t)(nl - (t + at));
		if (in_body) {
			struct vs_age_stanza *s = &h->st[h->n - 1];

			if (!is_b64_line(t + at, l))
				return bad(err, name, at, "a stanza body line "
					   "is not base64 of at most 64 "
					   "characters");
			s->body_len += l + 1;
			in_body = l == B64_LINE;
		} else if (l >= 3 && !memcmp(t + at, "-> ", 3)) {
			if (add_stanza(h, err) < 0)
				return -1;
			if (parse_args(t + at + 3, l - 3, &h->st[h->n - 1]) < 0)
				return bad(err, name, at, "bad stanza arguments");
			h->st[h->n - 1].body = t + at + l + 1;
			in_body = 1;
		} else if (l >= 3 && !memcmp(t + at, "---", 3)) {
			return h->n ? parse_mac(h, t + at, l, at, name, err) :
				      bad(err, name, at, "no stanza");
		} else {
			return bad(err, name, at, "a line that is neither a "
				   "stanza nor the MAC");
		}
		at += l + 1;
	}
	if (len >= VS_AGE_HEADER_MAX)
		return vs_err(err, "'%s': the age header is longer than %zu "
			      "bytes", name, VS_AGE_HEADER_MAX);
	return 0;
}

void vs_age_header_free(struct vs_age_header *h)
{
	free(h->st);
	memset(h, 0, sizeof(*h));
}

/* The body of stanza S, decoded into OUT (CAP bytes): its length or -1. */
static long stanza_body(const struct vs_age_stanza *s, uint8_t *out,
			size_t cap)
{
	char joined[256];
	size_t n = 0;

	for (size_t i = 0; i < s->body_len; i++) {
		if (s->body[i] == '\n')
			continue;
		if (n == sizeof(joined))
			return -1;
		joined[n++] = s->body[i];
	}
	return b64_decode(joined, n, out, cap);
}

/* Try ID on the X25519 stanza SHARE/BODY: 1 and FILE_KEY if it opens. */
static int try_identity(const struct vs_age_id *id,
			const uint8_t share[VS_AGE_KEY],
			const uint8_t body[VS_AGE_FILE_KEY + VS_AGE_TAG],
			uint8_t file_key[VS_AGE_FILE_KEY])
{
	uint8_t shared[VS_AGE_KEY], salt[2 * VS_AGE_KEY], wrap[VS_AGE_KEY];
	void *c = vs_age_cipher_new();
	int ok;

	memcpy(salt, share, VS_AGE_KEY);
	memcpy(salt + VS_AGE_KEY, id->pk, VS_AGE_KEY);
	ok = c && x25519(id->sk, share, shared) == 0 &&
	     hkdf(shared, sizeof(shared), salt, sizeof(salt), X25519_INFO,
		  wrap) == 0 &&
	     vs_age_open(c, wrap, 0, 0, body, VS_AGE_FILE_KEY + VS_AGE_TAG,
			 file_key) == 0;
	vs_age_cipher_free(c);
	vs_cleanse(shared, sizeof(shared));
	vs_cleanse(wrap, sizeof(wrap));
	return ok;
}

/* Stanza I, if X25519: 1 and the file key when one of IDS opens it. */
static int open_stanza(const struct vs_age_header *h, size_t i,
		       const struct vs_age_ids *ids, const char *name,
		       uint8_t file_key[VS_AGE_FILE_KEY], struct vs_error *err)
{
	const struct vs_age_stanza *s = &h->st[i];
	uint8_t share[VS_AGE_KEY], body[VS_AGE_FILE_KEY + VS_AGE_TAG];

	if (s->type_len != 6 || memcmp(s->type, "X25519", 6))
		return 0;  /* another kind of recipient: not ours */
	if (s->nargs != 1 ||
	    b64_decode(s->args[0], s->arg_len[0], share, sizeof(share)) !=
		    VS_AGE_KEY ||
	    stanza_body(s, body, sizeof(body)) != (long)sizeof(body))
		return vs_err(err, "'%s': age header stanza %zu: a malformed "
			      "X25519 stanza", name, i);
	for (size_t k = 0; k < ids->n; k++)
		if (try_identity(&ids->id[k], share, body, file_key))
			return 1;
	return 0;
}

int vs_age_unwrap(const struct vs_age_header *h, const uint8_t *buf,
		  const struct vs_age_ids *ids, const char *name,
		  uint8_t file_key[VS_AGE_FILE_KEY], struct vs_error *err)
{
	uint8_t mac[32];
	int found = 0;

	if (vs_crypto_load(err) < 0)
		return -1;
	for (size_t i = 0; i < h->n && !found; i++) {
		found = open_stanza(h, i, ids, name, file_key, err);
		if (found < 0)
			return -1;
	}
	if (!found)
		return vs_err(err, "'%s' is not encrypted to the identity given "
			      "(none of its %zu recipient stanzas opens with "
			      "it)", name, h->n);
	if (header_mac(file_key, buf, h->mac_at, mac) < 0 ||
	    !vs_equal_ct(mac, h->mac, sizeof(mac))) {
		vs_cleanse(file_key, VS_AGE_FILE_KEY);
		return vs_err(err, "'%s': the age header's MAC does not match: "
			      "the header was changed or damaged", name);
	}
	return 0;
}
