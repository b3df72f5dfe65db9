/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crypto.h - the libcrypto functions the age format needs (age.c), loaded
 * only when a dump is encrypted or decrypted.
 *
 * Loading libcrypto.so.3 at start-up was the largest part of the dynamic
 * loader's work (its relocations: 1.7 ms of CPU of the 4.2 ms that a
 * program linked as vmsift takes to start, doc/mem-usage.md), paid by
 * every run, --mem-usage and -v included, though only encryption uses it.
 * The shared builds therefore dlopen() it at the first use, under
 * pthread_once: the table is written once and only read afterwards.
 * The static builds (VMSIFT_CRYPTO_LINKED: vmsift-static and its cross
 * builds) cannot dlopen and link it directly; the table then holds the
 * linked functions.
 */
#ifndef VMSIFT_CRYPTO_H
#define VMSIFT_CRYPTO_H

#include <stddef.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>

#include "error.h"

/* The library loaded, and the Debian package that holds it. */
#define VS_CRYPTO_SONAME "libcrypto.so.3"
#define VS_CRYPTO_PACKAGE "libssl3 or libssl3t64"

/* X(return type, name, parameters) for each function used. */
#define VS_CRYPTO_FUNCS(X)						\
	X(EVP_PKEY *, EVP_PKEY_new_raw_private_key,			\
	  (int, ENGINE *, const unsigned char *, size_t))		\
	X(EVP_PKEY *, EVP_PKEY_new_raw_public_key,			\
	  (int, ENGINE *, const unsigned char *, size_t))		\
	X(int, EVP_PKEY_get_raw_public_key,				\
	  (const EVP_PKEY *, unsigned char *, size_t *))		\
	X(void, EVP_PKEY_free, (EVP_PKEY *))				\
	X(EVP_PKEY_CTX *, EVP_PKEY_CTX_new, (EVP_PKEY *, ENGINE *))	\
	X(void, EVP_PKEY_CTX_free, (EVP_PKEY_CTX *))			\
	X(int, EVP_PKEY_derive_init, (EVP_PKEY_CTX *))			\
	X(int, EVP_PKEY_derive_set_peer, (EVP_PKEY_CTX *, EVP_PKEY *))	\
	X(int, EVP_PKEY_derive, (EVP_PKEY_CTX *, unsigned char *, size_t *)) \
	X(EVP_KDF *, EVP_KDF_fetch, (OSSL_LIB_CTX *, const char *,	\
				     const char *))			\
	X(void, EVP_KDF_free, (EVP_KDF *))				\
	X(EVP_KDF_CTX *, EVP_KDF_CTX_new, (EVP_KDF *))			\
	X(void, EVP_KDF_CTX_free, (EVP_KDF_CTX *))			\
	X(int, EVP_KDF_derive, (EVP_KDF_CTX *, unsigned char *, size_t,	\
				const OSSL_PARAM *))			\
	X(OSSL_PARAM, OSSL_PARAM_construct_utf8_string,			\
	  (const char *, char *, size_t))				\
	X(OSSL_PARAM, OSSL_PARAM_construct_octet_string,		\
	  (const char *, void *, size_t))				\
	X(OSSL_PARAM, OSSL_PARAM_construct_end, (void))			\
	X(const EVP_MD *, EVP_sha256, (void))				\
	X(unsigned char *, HMAC, (const EVP_MD *, const void *, int,	\
				  const unsigned char *, size_t,	\
				  unsigned char *, unsigned int *))	\
	X(EVP_CIPHER_CTX *, EVP_CIPHER_CTX_new, (void))			\
	X(void, EVP_CIPHER_CTX_free, (EVP_CIPHER_CTX *))		\
	X(int, EVP_CIPHER_CTX_ctrl, (EVP_CIPHER_CTX *, int, int, void *)) \
	X(const EVP_CIPHER *, EVP_chacha20_poly1305, (void))		\
	X(int, EVP_EncryptInit_ex, (EVP_CIPHER_CTX *, const EVP_CIPHER *, \
				    ENGINE *, const unsigned char *,	\
				    const unsigned char *))		\
	X(int, EVP_EncryptUpdate, (EVP_CIPHER_CTX *, unsigned char *,	\
				   int *, const unsigned char *, int))	\
	X(int, EVP_EncryptFinal_ex, (EVP_CIPHER_CTX *, unsigned char *,	\
				     int *))				\
	X(int, EVP_DecryptInit_ex, (EVP_CIPHER_CTX *, const EVP_CIPHER *, \
				    ENGINE *, const unsigned char *,	\
				    const unsigned char *))		\
	X(int, EVP_DecryptUpdate, (EVP_CIPHER_CTX *, unsigned char *,	\
				   int *, const unsigned char *, int))	\
	X(int, EVP_DecryptFinal_ex, (EVP_CIPHER_CTX *, unsigned char *,	\
				     int *))

#define VS_CRYPTO_MEMBER(ret, name, args) ret (*name) args;
struct vs_crypto {
	VS_CRYPTO_FUNCS(VS_CRYPTO_MEMBER)
};
#undef VS_CRYPTO_MEMBER

/* The functions, loading libcrypto at the first call; NULL when it
 * cannot be loaded (vs_crypto_load() says why). */
const struct vs_crypto *vs_crypto(void);

/* 0 when libcrypto is there; else -1 with an error (VMSIFT_E_UNSUPPORTED)
 * naming the library, the package to install and what the loader said. */
int vs_crypto_load(struct vs_error *err);

/* Zero LEN bytes at P, not optimised away (key material). */
void vs_cleanse(void *p, size_t len);

/* Whether A and B (LEN bytes) are equal, in a time that does not depend
 * on where they differ (a MAC's check). */
int vs_equal_ct(const void *a, const void *b, size_t len);

#endif
