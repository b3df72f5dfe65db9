/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * age.h - the age file format (age-encryption.org/v1) with X25519
 * recipients: keys (bech32 "age1..." recipients, "AGE-SECRET-KEY-1..."
 * identities), the text header (stanzas, header MAC) and the STREAM
 * payload (64 KiB chunks of ChaCha20-Poly1305, nonce = 11-byte big-endian
 * chunk counter || last-chunk flag).
 *
 * The primitives (X25519, HKDF-SHA-256, HMAC-SHA-256, ChaCha20-Poly1305)
 * are OpenSSL's libcrypto; this file only encodes and frames.  Used by
 * sink.c (writing: age_stream.c's writer), file.c (an encrypted input read
 * by random access: age_stream.c's reader) and flat_reader.c (-R of an
 * encrypted stream, read front to back).  Calls only util.c and error.c.
 * doc/encryption.md describes the format and the threat model.
 */
#ifndef VMSIFT_AGE_H
#define VMSIFT_AGE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"

#define VS_AGE_MAGIC       "age-encryption.org/v1\n"
#define VS_AGE_MAGIC_LEN   (sizeof(VS_AGE_MAGIC) - 1)
#define VS_AGE_CHUNK       ((size_t)64 << 10)   /* plaintext of a chunk */
#define VS_AGE_TAG         16
#define VS_AGE_CHUNK_ENC   (VS_AGE_CHUNK + VS_AGE_TAG)
#define VS_AGE_NONCE       16                   /* payload nonce */
#define VS_AGE_FILE_KEY    16
#define VS_AGE_KEY         32
#define VS_AGE_HEADER_MAX  ((size_t)1 << 20)    /* more is refused */
#define VS_AGE_STANZAS_MAX 4096

/* Whether HEAD (LEN bytes from offset 0) starts an age file. */
int vs_age_probe(const void *head, size_t len);

/* A recipient "age1..." (bech32, lowercase) into its X25519 public key. */
int vs_age_parse_recipient(const char *s, uint8_t pk[VS_AGE_KEY],
			   struct vs_error *err);

/* The identities of an identity file (age-keygen's output: one
 * "AGE-SECRET-KEY-1..." a line, '#' comments, blank lines). */
struct vs_age_ids {
	struct vs_age_id {
		uint8_t sk[VS_AGE_KEY];
		uint8_t pk[VS_AGE_KEY];
	} *id;
	size_t n;
};

int vs_age_ids_parse(struct vs_age_ids *ids, const char *text, size_t len,
		     const char *name, struct vs_error *err);
int vs_age_ids_load(struct vs_age_ids *ids, const char *path,
		    struct vs_error *err);
void vs_age_ids_free(struct vs_age_ids *ids);

/* LEN random bytes from the kernel, never blocking: getrandom with
 * GRND_NONBLOCK; when the pool is not ready (a capture kernel early on),
 * GRND_INSECURE or /dev/urandom, and *WEAK is set. */
int vs_age_random(uint8_t *buf, size_t len, int *weak, struct vs_error *err);

/* The header of a file being written to N recipients: a fresh file key
 * (getrandom), one X25519 stanza each, the MAC; *HDR (malloc'ed, *LEN
 * bytes) is the text header, followed on disk by the payload nonce the
 * writer draws.  *WEAK is set when the kernel's random pool was not ready
 * and the key came from getrandom(GRND_INSECURE). */
int vs_age_header_build(const uint8_t (*pks)[VS_AGE_KEY], size_t n,
			uint8_t file_key[VS_AGE_FILE_KEY], char **hdr,
			size_t *len, int *weak, struct vs_error *err);

/* A parsed header: the stanzas, where the MAC is and how long it is. */
struct vs_age_stanza {
	const char *type;            /* into the caller's buffer; NUL-free */
	size_t type_len;
	const char *args[2];
	size_t arg_len[2];
	unsigned nargs;              /* how many args (more are counted only) */
	const char *body;            /* base64 lines, '\n' included */
	size_t body_len;
};

struct vs_age_header {
	struct vs_age_stanza *st;
	size_t n;
	size_t mac_at;               /* bytes MACed: up to "---" included */
	uint8_t mac[32];
	size_t len;                  /* the whole text header, final '\n' incl. */
};

/* Parse the text header at the start of BUF (LEN bytes) of NAME.  Returns
 * 1 when whole (H filled, h->len bytes), 0 when BUF ends inside it (read
 * more and call again), -1 on a malformed header. */
int vs_age_header_parse(const uint8_t *buf, size_t len, const char *name,
			struct vs_age_header *h, struct vs_error *err);
void vs_age_header_free(struct vs_age_header *h);

/* The file key: the first X25519 stanza one of IDS opens, checked against
 * the header MAC (BUF is the header parsed into H). */
int vs_age_unwrap(const struct vs_age_header *h, const uint8_t *buf,
		  const struct vs_age_ids *ids, const char *name,
		  uint8_t file_key[VS_AGE_FILE_KEY], struct vs_error *err);

/* The payload key from the file key and the payload's 16-byte nonce. */
int vs_age_payload_key(const uint8_t file_key[VS_AGE_FILE_KEY],
		       const uint8_t nonce[VS_AGE_NONCE],
		       uint8_t key[VS_AGE_KEY], struct vs_error *err);

/* One chunk of the STREAM: seal LEN bytes of IN into OUT (LEN + 16
 * bytes), or open LEN (>= 16) bytes of IN into OUT (LEN - 16 bytes; OUT
 * is written only when the tag holds, else -1).  CTX is a cipher context
 * (vs_age_cipher_new) reused from chunk to chunk. */
void *vs_age_cipher_new(void);
void vs_age_cipher_free(void *ctx);
int vs_age_seal(void *ctx, const uint8_t key[VS_AGE_KEY], uint64_t counter,
		int last, const uint8_t *in, size_t len, uint8_t *out);
int vs_age_open(void *ctx, const uint8_t key[VS_AGE_KEY], uint64_t counter,
		int last, const uint8_t *in, size_t len, uint8_t *out);

/* Bytes of an encrypted payload of PLAIN bytes (chunks and tags; one
 * chunk at least), not counting the header and nonce. */
uint64_t vs_age_payload_size(uint64_t plain);

/* ---- age_stream.c ------------------------------------------------------ */

/* Writing: the text header, the nonce, then chunks as the plaintext
 * comes; only full chunks are sealed until vs_age_writer_finish seals the
 * last one.  OUT is called with the ciphertext, in order. */
typedef int vs_age_out_fn(void *arg, const void *buf, size_t len,
			  struct vs_error *err);

struct vs_age_writer;

int vs_age_writer_new(struct vs_age_writer **w,
		      const uint8_t (*pks)[VS_AGE_KEY], size_t n,
		      vs_age_out_fn *out, void *arg, struct vs_error *err);
int vs_age_writer_write(struct vs_age_writer *w, const void *buf, size_t len,
			struct vs_error *err);
int vs_age_writer_finish(struct vs_age_writer *w, struct vs_error *err);
/* The header and nonce's size: what precedes the payload. */
uint64_t vs_age_writer_overhead(const struct vs_age_writer *w);
int vs_age_writer_weak_random(const struct vs_age_writer *w);
void vs_age_writer_free(struct vs_age_writer *w);

/* Random access: an age file open as FD (SIZE bytes) read as its
 * plaintext, chunks decrypted when a read touches them and kept in a
 * small cache.  Thread-safe.  A file without an authenticated last chunk
 * (cut short) reads as the prefix that authenticates: *TRUNCATED. */
struct vs_age_file;

int vs_age_file_open(struct vs_age_file **a, int fd, const char *name,
		     uint64_t size, const struct vs_age_ids *ids,
		     struct vs_error *err);
uint64_t vs_age_file_size(const struct vs_age_file *a);
int vs_age_file_truncated(const struct vs_age_file *a);
/* LEN bytes of plaintext at OFF: 0, or -1 with errno (EBADMSG: a chunk
 * failed authentication, vs_age_file_why says which). */
int vs_age_file_read(struct vs_age_file *a, void *buf, size_t len,
		     uint64_t off);
void vs_age_file_why(struct vs_age_file *a, char *buf, size_t len);
void vs_age_file_close(struct vs_age_file *a);

/* Front to back: an age stream read from FD (a pipe will do), for -R.
 * HEAD holds the HEAD_LEN bytes already read from it. */
struct vs_age_reader;

int vs_age_reader_new(struct vs_age_reader **r, int fd, const char *name,
		      const uint8_t *head, size_t head_len,
		      const struct vs_age_ids *ids, struct vs_error *err);
/* Up to LEN bytes of plaintext into BUF: the count, 0 at the end of the
 * authenticated last chunk, -1 on an error (a chunk that does not
 * authenticate, a stream cut short). */
ssize_t vs_age_reader_read(struct vs_age_reader *r, void *buf, size_t len,
			   struct vs_error *err);
/* Whether a read failed: a short count before it was its last. */
int vs_age_reader_failed(const struct vs_age_reader *r);
void vs_age_reader_free(struct vs_age_reader *r);

#endif
