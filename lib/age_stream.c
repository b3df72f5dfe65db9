/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * age_stream.c - the age payload (age.h): a writer that seals 64 KiB
 * chunks as plaintext comes (the sink's encryption), a random-access
 * reader with a chunk cache (an encrypted input file), and a front-to-back
 * reader (-R from a pipe).  A chunk's plaintext is used only after its tag
 * authenticates.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "age.h"
#include "crypto.h"
#include "util.h"

/* ---- writer ----------------------------------------------------------------- */

struct vs_age_writer {
	uint8_t key[VS_AGE_KEY];
	void *ctx;
	uint64_t counter;
	uint8_t *buf;                /* VS_AGE_CHUNK of plaintext */
	size_t fill;
	uint8_t *enc;                /* VS_AGE_CHUNK_ENC */
	vs_age_out_fn *out;
	void *arg;
	uint64_t overhead;
	int weak;
};

static int emit_header(struct vs_age_writer *w,
		       const uint8_t (*pks)[VS_AGE_KEY], size_t n,
		       struct vs_error *err)
{
	uint8_t file_key[VS_AGE_FILE_KEY], nonce[VS_AGE_NONCE];
	char *hdr = NULL;
	size_t len;
	int ret;

	if (vs_age_header_build(pks, n, file_key, &hdr, &len, &w->weak,
				err) < 0)
		return -1;
	ret = vs_age_random(nonce, sizeof(nonce), &w->weak, err);
	if (ret == 0)
		ret = vs_age_payload_key(file_key, nonce, w->key, err);
	vs_cleanse(file_key, sizeof(file_key));
	if (ret == 0)
		ret = w->out(w->arg, hdr, len, err);
	if (ret == 0)
		ret = w->out(w->arg, nonce, sizeof(nonce), err);
	w->overhead = len + sizeof(nonce);
	free(hdr);
	return ret;
}

int vs_age_writer_new(struct vs_age_writer **wp,
		      const uint8_t (*pks)[VS_AGE_KEY], size_t n,
		      vs_age_out_fn *out, void *arg, struct vs_error *err)
{
	struct vs_age_writer *w;

	*wp = NULL;
	if (vs_crypto_load(err) < 0)
		return -1;
	w = calloc(1, sizeof(*w));
	if (!w)
		return vs_err_oom(err, "out of memory");
	w->out = out;
	w->arg = arg;
	w->ctx = vs_age_cipher_new();
	w->buf = malloc(VS_AGE_CHUNK);
	w->enc = malloc(VS_AGE_CHUNK_ENC);
	if (!w->ctx || !w->buf || !w->enc) {
		vs_age_writer_free(w);
		return vs_err_oom(err, "out of memory");
	}
	if (emit_header(w, pks, n, err) < 0) {
		vs_age_writer_free(w);
		return -1;
	}
	*wp = w;
	return 0;
}

static int seal(struct vs_age_writer *w, int last, struct vs_error *err)
{
	if (vs_age_seal(w->ctx, w->key, w->counter, last, w->buf, w->fill,
			w->enc) < 0)
		return vs_err(err, "libcrypto's ChaCha20-Poly1305 failed on "
			      "chunk %llu", (unsigned long long)w->counter);
	if (w->out(w->arg, w->enc, w->fill + VS_AGE_TAG, err) < 0)
		return -1;
	w->counter++;
	w->fill = 0;
	return 0;
}

int vs_age_writer_write(struct vs_age_writer *w, const void *buf, size_t len,
			struct vs_error *err)
{
	const uint8_t *p = buf;

	while (len) {
		size_t n = VS_AGE_CHUNK - w->fill;

		/* A full chunk is sealed only once more follows: the last
		 * chunk, sealed by finish, is never empty. */
		if (n == 0) {
			if (seal(w, 0, err) < 0)
				return -1;
			continue;
		}
		n = n < len ? n : len;
		memcpy(w->buf + w->fill, p, n);
		w->fill += n;
		p += n;
		len -= n;
	}
	return 0;
}

int vs_age_writer_finish(struct vs_age_writer *w, struct vs_error *err)
{
	return seal(w, 1, err);
}

uint64_t vs_age_writer_overhead(const struct vs_age_writer *w)
{
	return w->overhead;
}

int vs_age_writer_weak_random(const struct vs_age_writer *w)
{
	return w->weak;
}

void vs_age_writer_free(struct vs_age_writer *w)
{
	if (!w)
		return;
	vs_cleanse(w->key, sizeof(w->key));
	if (w->buf)
		vs_cleanse(w->buf, VS_AGE_CHUNK);
	vs_age_cipher_free(w->ctx);
	free(w->buf);
	free(w->enc);
	free(w);
}

/* ---- the header and key of a file being read ------------------------------- */

/* Parse the header at the start of BUF (LEN bytes; 0 if more is needed)
 * and derive the payload key from the nonce after it; *USED is where the
 * payload starts. */
static int read_header(const uint8_t *buf, size_t len, const char *name,
		       const struct vs_age_ids *ids, uint8_t key[VS_AGE_KEY],
		       size_t *used, struct vs_error *err)
{
	struct vs_age_header h;
	uint8_t file_key[VS_AGE_FILE_KEY];
	int ret = vs_age_header_parse(buf, len, name, &h, err);

	if (ret <= 0 || len < h.len + VS_AGE_NONCE) {
		vs_age_header_free(&h);
		return ret < 0 ? -1 : 0;
	}
	ret = vs_age_unwrap(&h, buf, ids, name, file_key, err);
	if (ret == 0)
		ret = vs_age_payload_key(file_key, buf + h.len, key, err);
	vs_cleanse(file_key, sizeof(file_key));
	*used = h.len + VS_AGE_NONCE;
	vs_age_header_free(&h);
	return ret < 0 ? -1 : 1;
}

static int need_ids(const struct vs_age_ids *ids, const char *name,
		    struct vs_error *err)
{
	if (!ids || !ids->n)
		return vs_err_st(err, VMSIFT_E_INVALID, "'%s' is encrypted "
				 "(an age file): give its identity "
				 "(--identity FILE)", name);
	return 0;
}

/* ---- random access ------------------------------------------------------------ */

#define AGE_SLOTS 8                  /* 512 KiB of plaintext chunks */

struct age_slot {
	uint64_t idx;
	size_t len;
	int used;
	int ref;                     /* CLOCK's second chance */
	uint8_t *p;
};

struct vs_age_file {
	int fd;
	char *name;
	uint64_t start;              /* the first chunk's file offset */
	uint64_t nchunks;            /* chunks of plaintext there */
	uint64_t plain;              /* plaintext bytes readable */
	int truncated;
	uint8_t key[VS_AGE_KEY];
	pthread_mutex_t lock;
	void *ctx;
	uint8_t *enc;                /* one chunk's ciphertext */
	struct age_slot slot[AGE_SLOTS];
	unsigned hand;
	int bad;                     /* a chunk failed: which */
	uint64_t bad_idx;
};

/* Decrypt chunk IDX (the last one when LAST) into OUT: its length, or -1
 * (a read error: errno; a chunk that does not authenticate: EBADMSG). */
static long load_chunk(struct vs_age_file *a, uint64_t idx, int last,
		       size_t enc_len, uint8_t *out)
{
	if (vs_pread_full(a->fd, a->enc, enc_len,
			  a->start + idx * VS_AGE_CHUNK_ENC) < 0)
		return -1;
	if (vs_age_open(a->ctx, a->key, idx, last, a->enc, enc_len, out) < 0) {
		errno = EBADMSG;
		return -1;
	}
	return (long)(enc_len - VS_AGE_TAG);
}

/* How much of the file there is: the last chunk authenticates, or the
 * file was cut (or its end damaged) and the prefix before it is read. */
static int find_end(struct vs_age_file *a, uint64_t size, uint8_t *tmp,
		    struct vs_error *err)
{
	uint64_t p = size > a->start ? size - a->start : 0;
	uint64_t total = p ? vs_div_round_up(p, VS_AGE_CHUNK_ENC) : 0;
	size_t piece = total ? (size_t)(p - (total - 1) * VS_AGE_CHUNK_ENC) : 0;
	long n;

	a->truncated = 1;
	if (total == 0)
		return 0;
	n = load_chunk(a, total - 1, 1, piece, tmp);
	if (n >= 0 && (n > 0 || total == 1)) {
		a->truncated = 0;
		a->nchunks = total;
		a->plain = (total - 1) * VS_AGE_CHUNK + (uint64_t)n;
		return 0;
	}
	if (n < 0 && errno != EBADMSG)
		return vs_err_sys(err, "cannot read '%s'", a->name);
	/* Cut at a chunk's end: the chunk is whole but not the last one. */
	if (piece == VS_AGE_CHUNK_ENC && load_chunk(a, total - 1, 0, piece,
						    tmp) >= 0)
		a->nchunks = total;
	else
		a->nchunks = total - 1;
	a->plain = a->nchunks * VS_AGE_CHUNK;
	return 0;
}

static int file_header(struct vs_age_file *a, uint64_t size,
		       const struct vs_age_ids *ids, struct vs_error *err)
{
	size_t cap = 4096, len, used = 0;
	uint8_t *buf = NULL;
	int ret = 0;

	while (ret == 0) {
		uint8_t *p = realloc(buf, cap);

		if (!p) {
			ret = vs_err_oom(err, "out of memory");
			break;
		}
		buf = p;
		len = size < cap ? (size_t)size : cap;
		if (vs_pread_full(a->fd, buf, len, 0) < 0) {
			ret = vs_err_sys(err, "cannot read '%s'", a->name);
			break;
		}
		ret = read_header(buf, len, a->name, ids, a->key, &used, err);
		if (ret == 0 && (len < cap || cap >= VS_AGE_HEADER_MAX))
			ret = vs_err(err, "'%s' ends inside its age header "
				     "(%zu bytes)", a->name, len);
		cap *= 2;
	}
	free(buf);
	a->start = used;
	return ret < 0 ? -1 : 0;
}

int vs_age_file_open(struct vs_age_file **ap, int fd, const char *name,
		     uint64_t size, const struct vs_age_ids *ids,
		     struct vs_error *err)
{
	struct vs_age_file *a;

	*ap = NULL;
	if (vs_crypto_load(err) < 0)
		return -1;
	a = calloc(1, sizeof(*a));
	if (!a)
		return vs_err_oom(err, "out of memory");
	pthread_mutex_init(&a->lock, NULL);
	a->fd = fd;
	a->name = strdup(name);
	a->ctx = vs_age_cipher_new();
	a->enc = malloc(VS_AGE_CHUNK_ENC);
	for (int i = 0; i < AGE_SLOTS; i++)
		a->slot[i].p = malloc(VS_AGE_CHUNK);
	if (!a->name || !a->ctx || !a->enc || !a->slot[AGE_SLOTS - 1].p) {
		vs_age_file_close(a);
		return vs_err_oom(err, "out of memory");
	}
	if (need_ids(ids, name, err) < 0 || file_header(a, size, ids, err) < 0 ||
	    find_end(a, size, a->slot[0].p, err) < 0) {
		vs_age_file_close(a);
		return -1;
	}
	*ap = a;
	return 0;
}

uint64_t vs_age_file_size(const struct vs_age_file *a)
{
	return a->plain;
}

int vs_age_file_truncated(const struct vs_age_file *a)
{
	return a->truncated;
}

/* The slot holding chunk IDX, decrypted now if it is not held; called
 * with the lock. */
static struct age_slot *get_chunk(struct vs_age_file *a, uint64_t idx)
{
	struct age_slot *s;
	uint64_t enc_len = VS_AGE_CHUNK_ENC;
	int last = !a->truncated && idx == a->nchunks - 1;
	long n;

	for (int i = 0; i < AGE_SLOTS; i++)
		if (a->slot[i].used && a->slot[i].idx == idx) {
			a->slot[i].ref = 1;
			return &a->slot[i];
		}
	while (a->slot[a->hand].used && a->slot[a->hand].ref) {
		a->slot[a->hand].ref = 0;
		a->hand = (a->hand + 1) % AGE_SLOTS;
	}
	s = &a->slot[a->hand];
	a->hand = (a->hand + 1) % AGE_SLOTS;
	if (last)
		enc_len = a->plain - idx * VS_AGE_CHUNK + VS_AGE_TAG;
	s->used = 0;
	n = load_chunk(a, idx, last, (size_t)enc_len, s->p);
	if (n < 0) {
		if (errno == EBADMSG && !a->bad) {
			a->bad = 1;
			a->bad_idx = idx;
		}
		return NULL;
	}
	s->used = s->ref = 1;
	s->idx = idx;
	s->len = (size_t)n;
	return s;
}

int vs_age_file_read(struct vs_age_file *a, void *buf, size_t len,
		     uint64_t off)
{
	uint8_t *p = buf;
	int ret = 0;

	if (off > a->plain || len > a->plain - off) {
		errno = 0;
		return -1;
	}
	pthread_mutex_lock(&a->lock);
	while (len) {
		uint64_t idx = off / VS_AGE_CHUNK;
		size_t in = (size_t)(off % VS_AGE_CHUNK), n;
		const struct age_slot *s = get_chunk(a, idx);

		if (!s || in >= s->len) {
			ret = -1;
			break;
		}
		n = s->len - in < len ? s->len - in : len;
		memcpy(p, s->p + in, n);
		p += n;
		off += n;
		len -= n;
	}
	pthread_mutex_unlock(&a->lock);
	return ret;
}

void vs_age_file_why(struct vs_age_file *a, char *buf, size_t len)
{
	pthread_mutex_lock(&a->lock);
	if (a->bad)
		snprintf(buf, len, "age chunk %llu (file bytes 0x%llx-0x%llx) "
			 "does not authenticate: the file was damaged or "
			 "tampered with", (unsigned long long)a->bad_idx,
			 (unsigned long long)(a->start +
					      a->bad_idx * VS_AGE_CHUNK_ENC),
			 (unsigned long long)(a->start +
					      (a->bad_idx + 1) * VS_AGE_CHUNK_ENC));
	else
		snprintf(buf, len, "no chunk failed");
	pthread_mutex_unlock(&a->lock);
}

void vs_age_file_close(struct vs_age_file *a)
{
	if (!a)
		return;
	for (int i = 0; i < AGE_SLOTS; i++) {
		if (a->slot[i].p)
			vs_cleanse(a->slot[i].p, VS_AGE_CHUNK);
		free(a->slot[i].p);
	}
	vs_cleanse(a->key, sizeof(a->key));
	vs_age_cipher_free(a->ctx);
	pthread_mutex_destroy(&a->lock);
	free(a->enc);
	free(a->name);
	free(a);
}

/* ---- front to back ------------------------------------------------------------ */

struct vs_age_reader {
	int fd;
	char *name;
	uint8_t key[VS_AGE_KEY];
	void *ctx;
	uint8_t *enc;                /* a chunk and one byte more */
	size_t have;                 /* bytes of ciphertext held in enc */
	uint8_t *plain;
	size_t plain_len, plain_at;
	uint64_t counter;
	int done;                    /* the last chunk was read */
	int failed;                  /* a chunk failed: the error is told */
};

/* The header from HEAD and what more FD gives; the payload bytes read
 * past it go to r->enc. */
static int stream_header(struct vs_age_reader *r, const uint8_t *head,
			 size_t head_len, const struct vs_age_ids *ids,
			 struct vs_error *err)
{
	size_t cap = head_len > 4096 ? head_len : 4096, len = head_len, used = 0;
	uint8_t *buf = malloc(cap);
	int ret = 0;

	if (buf)
		memcpy(buf, head, head_len);
	while (buf && ret == 0) {
		ssize_t n;

		ret = read_header(buf, len, r->name, ids, r->key, &used, err);
		if (ret != 0)
			break;
		if (len == cap) {
			uint8_t *p = cap < VS_AGE_HEADER_MAX ?
				     realloc(buf, cap * 2) : NULL;

			if (!p) {
				ret = vs_err(err, "'%s': age header too long",
					     r->name);
				break;
			}
			buf = p;
			cap *= 2;
		}
		n = vs_read_upto(r->fd, buf + len,
				 cap - len < 4096 ? cap - len : 4096);
		if (n <= 0) {
			ret = n < 0 ? vs_err_sys(err, "cannot read '%s'", r->name) :
				      vs_err(err, "'%s' ends inside its age header "
					     "(%zu bytes)", r->name, len);
			break;
		}
		len += (size_t)n;
	}
	if (!buf)
		return vs_err_oom(err, "out of memory");
	if (ret > 0 && len - used > VS_AGE_CHUNK_ENC + 1)
		ret = vs_err(err, "internal: age header read too far");
	if (ret > 0) {
		r->have = len - used;
		memcpy(r->enc, buf + used, r->have);
	}
	free(buf);
	return ret < 0 ? -1 : 0;
}

int vs_age_reader_new(struct vs_age_reader **rp, int fd, const char *name,
		      const uint8_t *head, size_t head_len,
		      const struct vs_age_ids *ids, struct vs_error *err)
{
	struct vs_age_reader *r;

	*rp = NULL;
	if (vs_crypto_load(err) < 0)
		return -1;
	r = calloc(1, sizeof(*r));
	if (!r)
		return vs_err_oom(err, "out of memory");
	r->fd = fd;
	r->name = strdup(name);
	r->ctx = vs_age_cipher_new();
	r->enc = malloc(VS_AGE_CHUNK_ENC + 1);
	r->plain = malloc(VS_AGE_CHUNK);
	if (!r->name || !r->ctx || !r->enc || !r->plain) {
		vs_age_reader_free(r);
		return vs_err_oom(err, "out of memory");
	}
	if (need_ids(ids, name, err) < 0 ||
	    stream_header(r, head, head_len, ids, err) < 0) {
		vs_age_reader_free(r);
		return -1;
	}
	*rp = r;
	return 0;
}

static int chunk_error(const struct vs_age_reader *r, const char *why,
		       struct vs_error *err)
{
	return vs_err(err, "'%s': age chunk %llu %s; the plaintext before it "
		      "is kept, nothing of it", r->name,
		      (unsigned long long)r->counter, why);
}

/* Read and open the next chunk into r->plain. */
static int next_chunk(struct vs_age_reader *r, struct vs_error *err)
{
	ssize_t n = vs_read_upto(r->fd, r->enc + r->have,
				 VS_AGE_CHUNK_ENC + 1 - r->have);
	size_t len;
	int last;

	if (n < 0)
		return vs_err_sys(err, "cannot read '%s'", r->name);
	r->have += (size_t)n;
	last = r->have <= VS_AGE_CHUNK_ENC;
	len = last ? r->have : VS_AGE_CHUNK_ENC;
	if (vs_age_open(r->ctx, r->key, r->counter, last, r->enc, len,
			r->plain) < 0 ||
	    (last && len == VS_AGE_TAG && r->counter > 0)) {
		if (last && len == VS_AGE_CHUNK_ENC &&
		    vs_age_open(r->ctx, r->key, r->counter, 0, r->enc, len,
				r->plain) == 0)
			return chunk_error(r, "is whole but the stream ends "
					   "after it: the file was cut short",
					   err);
		return chunk_error(r, last ? "(the last) does not "
				   "authenticate: the file was cut short, "
				   "damaged or tampered with" :
				   "does not authenticate: the file was "
				   "damaged or tampered with", err);
	}
	r->plain_len = len - VS_AGE_TAG;
	r->plain_at = 0;
	r->counter++;
	r->done = last;
	if (!last) {
		r->enc[0] = r->enc[VS_AGE_CHUNK_ENC];
		r->have = 1;
	}
	return 0;
}

ssize_t vs_age_reader_read(struct vs_age_reader *r, void *buf, size_t len,
			   struct vs_error *err)
{
	size_t got = 0;

	if (r->failed)
		return -1;
	while (got < len) {
		size_t n = r->plain_len - r->plain_at;

		if (n == 0) {
			if (r->done)
				break;
			if (next_chunk(r, err) < 0) {
				/* What came before is authenticated: return
				 * it; the next call fails. */
				r->failed = 1;
				return got ? (ssize_t)got : -1;
			}
			continue;
		}
		n = n < len - got ? n : len - got;
		memcpy((uint8_t *)buf + got, r->plain + r->plain_at, n);
		r->plain_at += n;
		got += n;
	}
	return (ssize_t)got;
}

int vs_age_reader_failed(const struct vs_age_reader *r)
{
	return r->failed;
}

void vs_age_reader_free(struct vs_age_reader *r)
{
	if (!r)
		return;
	if (r->plain)
		vs_cleanse(r->plain, VS_AGE_CHUNK);
	vs_cleanse(r->key, sizeof(r->key));
	vs_age_cipher_free(r->ctx);
	free(r->enc);
	free(r->plain);
	free(r->name);
	free(r);
}
