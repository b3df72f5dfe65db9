/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dmesg.c - the dead kernel's log buffer as text: vmsift_dump_dmesg(),
 * makedumpfile's --dump-dmesg and --partial-dmesg, a public call of the
 * session (session.h) used by the command's cli/dmesg.c.  Reads the dump
 * through the architecture layer (arch.h), in the dumped machine's byte
 * order.
 *
 * Three layouts of the log, one per kernel generation, behind a small
 * table chosen from VMCOREINFO:
 *   lockless ringbuffer (5.10+)   SYMBOL(prb): a descriptor ring (state,
 *                                 text position), a ring of printk_info
 *                                 (seq, ts_nsec, text_len) and a text ring
 *   variable-length records       SYMBOL(log_buf), log_first_idx,
 *   (3.5 to 5.9)                  log_next_idx: struct printk_log headers,
 *                                 each followed by its text
 *   plain text (before 3.5)       SYMBOL(log_buf), log_buf_len, log_end:
 *                                 a character ring, written as it is
 * Records are written as makedumpfile 1.7.2 writes them, byte for byte:
 * "[%5lu.%06lu] " and the text; a newline inside the text is followed by
 * as many spaces as the prefix is long; bytes other than printable ASCII
 * and white space become "\xNN", those above 0x7f sign-extended
 * ("\xffffffc3"), as makedumpfile's signed char prints them.
 *
 * Every address comes from the dump and is read through vs_read_kvirt;
 * every index is checked against the buffer it indexes and every walk is
 * bounded by the size of its ring, so a corrupt log fails with a message
 * naming the address, never a crash or an endless loop.
 *
 * --partial-dmesg (records since the last "dmesg --clear"): clear_idx for
 * the 3.5 records; for the lockless ring, the records whose seq is at
 * least clear_seq.  The plain format has no clear marker: all of it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "session.h"
#include "util.h"
#include "vmcoreinfo.h"

#define OUT_CAP        65536
#define OUT_SLACK      128          /* the most one byte of text can need */
#define LOG_BUF_MAX    (1ull << 31) /* the kernel's LOG_BUF_LEN_MAX */
#define PRB_COUNT_BITS_MAX 26       /* LOG_BUF_LEN_MAX >> PRB_AVGBITS */
#define PRB_SIZE_BITS_MAX  31
#define PRB_STRUCT_MAX 4096         /* sanity bound for SIZE(...) values */
#define DESC_ID_MASK   (~(3ull << 62))
#define DESC_COMMITTED 1
#define DESC_FINALIZED 2

struct dm {
	const struct vs_input *in;
	const struct vs_vmcoreinfo *vi;
	struct vs_arch *arch;
	struct vs_reader r;
	struct vs_error *err;
	int partial;
	int out_fd;
	const char *out_name;
	size_t len;
	char buf[OUT_CAP];
};

/* ---- output ---------------------------------------------------------- */

static int out_flush(struct dm *d)
{
	if (d->len && vs_write_full(d->out_fd, d->buf, d->len) < 0)
		return vs_err_sys(d->err, "cannot write '%s'", d->out_name);
	d->len = 0;
	return 0;
}

static int out_room(struct dm *d, size_t need)
{
	return d->len + need > OUT_CAP ? out_flush(d) : 0;
}

static int out_bytes(struct dm *d, const void *p, size_t n)
{
	const char *s = p;

	while (n) {
		size_t k = OUT_CAP - d->len < n ? OUT_CAP - d->len : n;

		memcpy(d->buf + d->len, s, k);
		d->len += k;
		s += k;
		n -= k;
		if (d->len == OUT_CAP && out_flush(d) < 0)
			return -1;
	}
	return 0;
}

/* makedumpfile's isprint() || isspace() in the C locale. */
static int is_plain(unsigned char c)
{
	return (c >= 0x20 && c < 0x7f) || (c >= '\t' && c <= '\r');
}

/* One byte of record text; room for OUT_SLACK bytes is assured. */
static void out_text_byte(struct dm *d, unsigned char c, int indent)
{
	char *p = d->buf + d->len;

	if (c == '\n')
		d->len += (size_t)sprintf(p, "\n%*s", indent, "");
	else if (is_plain(c))
		d->buf[d->len++] = (char)c;
	else if (c < 0x80)
		d->len += (size_t)sprintf(p, "\\x%02x", c);
	else
		d->len += (size_t)sprintf(p, "\\xffffff%02x", c);
}

/* One record: "[seconds.micros] " and its text, indented, then "\n". */
static int out_record(struct dm *d, uint64_t ts_nsec, const uint8_t *text,
		      size_t len)
{
	char prefix[48];
	int indent;

	indent = snprintf(prefix, sizeof(prefix), "[%5llu.%06llu] ",
			  (unsigned long long)(ts_nsec / 1000000000u),
			  (unsigned long long)(ts_nsec % 1000000000u / 1000u));
	if (out_bytes(d, prefix, (size_t)indent) < 0)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (out_room(d, OUT_SLACK) < 0)
			return -1;
		out_text_byte(d, text[i], indent);
	}
	return out_bytes(d, "\n", 1);
}

/* ---- reading the dead kernel ----------------------------------------- */

static int kread(struct dm *d, uint64_t va, void *buf, size_t len,
		 const char *what)
{
	if (vs_read_kvirt(d->arch, &d->r, va, buf, len, d->err) < 0)
		return vs_err_ctx(d->err, "cannot read %s (%zu bytes) at 0x%llx",
				  what, len, (unsigned long long)va);
	return 0;
}

/* Values of the dead kernel, in its byte order (arch.h). */
static int kread_u64(struct dm *d, uint64_t va, uint64_t *v, const char *what)
{
	uint8_t b[8];

	if (kread(d, va, b, sizeof(b), what) < 0)
		return -1;
	*v = vs_load64(vs_arch_machine(d->arch), b);
	return 0;
}

static int kread_u32(struct dm *d, uint64_t va, uint32_t *v, const char *what)
{
	uint8_t b[4];

	if (kread(d, va, b, sizeof(b), what) < 0)
		return -1;
	*v = vs_load32(vs_arch_machine(d->arch), b);
	return 0;
}

/* A pointer or unsigned long of the dead kernel. */
static int kread_ptr(struct dm *d, uint64_t va, uint64_t *v, const char *what)
{
	const struct vs_machine *m = vs_arch_machine(d->arch);
	uint8_t b[8];

	if (kread(d, va, b, m->ptr_size, what) < 0)
		return -1;
	*v = vs_loadptr(m, b);
	return 0;
}

static int symbol(struct dm *d, const char *name, uint64_t *v)
{
	if (!vs_vi_symbol(d->vi, name, v))
		return vs_err(d->err, "VMCOREINFO lacks 'SYMBOL(%s)'", name);
	return 0;
}

/* A field of WIDTH (1, 2, 4 or 8) bytes at OFF inside BUF[SIZE], in the
 * dead kernel's byte order. */
static int field(struct dm *d, const uint8_t *buf, size_t size, int64_t off,
		 size_t width, uint64_t *v, const char *what)
{
	*v = 0;
	if (off < 0 || (uint64_t)off > size || size - (size_t)off < width)
		return vs_err(d->err, "field '%s' at offset %lld lies outside "
			      "its %zu-byte structure", what, (long long)off,
			      size);
	*v = vs_load_width(vs_arch_machine(d->arch), buf + off,
			   (unsigned)width);
	return 0;
}

/* OSRELEASE as major * 65536 + minor * 256 + patch; 0 when unknown. */
static unsigned kernel_version(const struct vs_vmcoreinfo *vi)
{
	const char *s = vs_vi_raw(vi, "OSRELEASE");
	unsigned a = 0, b = 0, c = 0;

	if (!s || sscanf(s, "%u.%u.%u", &a, &b, &c) < 2)
		return 0;
	return a << 16 | (b & 0xff) << 8 | (c > 255 ? 255 : c);
}

#define KVER(a, b, c) ((a) << 16 | (b) << 8 | (c))

/* ---- the lockless ringbuffer (5.10+) --------------------------------- */

enum {
	K_RB_SIZE, K_RB_DESC_RING, K_RB_TEXT_RING,
	K_DR_COUNT_BITS, K_DR_DESCS, K_DR_INFOS, K_DR_HEAD, K_DR_TAIL,
	K_DESC_SIZE, K_DESC_STATE, K_DESC_LPOS, K_LPOS_BEGIN, K_LPOS_NEXT,
	K_INFO_SIZE, K_INFO_SEQ, K_INFO_TS, K_INFO_TEXT_LEN,
	K_DATA_SIZE_BITS, K_DATA_DATA,
	K_NR
};

/* The VMCOREINFO keys of the ring: 'S' SIZE(name), 'O' OFFSET(name). */
static const struct prb_key {
	char kind;
	const char *name;
} prb_keys[K_NR] = {
	[K_RB_SIZE] = { 'S', "printk_ringbuffer" },
	[K_RB_DESC_RING] = { 'O', "printk_ringbuffer.desc_ring" },
	[K_RB_TEXT_RING] = { 'O', "printk_ringbuffer.text_data_ring" },
	[K_DR_COUNT_BITS] = { 'O', "prb_desc_ring.count_bits" },
	[K_DR_DESCS] = { 'O', "prb_desc_ring.descs" },
	[K_DR_INFOS] = { 'O', "prb_desc_ring.infos" },
	[K_DR_HEAD] = { 'O', "prb_desc_ring.head_id" },
	[K_DR_TAIL] = { 'O', "prb_desc_ring.tail_id" },
	[K_DESC_SIZE] = { 'S', "prb_desc" },
	[K_DESC_STATE] = { 'O', "prb_desc.state_var" },
	[K_DESC_LPOS] = { 'O', "prb_desc.text_blk_lpos" },
	[K_LPOS_BEGIN] = { 'O', "prb_data_blk_lpos.begin" },
	[K_LPOS_NEXT] = { 'O', "prb_data_blk_lpos.next" },
	[K_INFO_SIZE] = { 'S', "printk_info" },
	[K_INFO_SEQ] = { 'O', "printk_info.seq" },
	[K_INFO_TS] = { 'O', "printk_info.ts_nsec" },
	[K_INFO_TEXT_LEN] = { 'O', "printk_info.text_len" },
	[K_DATA_SIZE_BITS] = { 'O', "prb_data_ring.size_bits" },
	[K_DATA_DATA] = { 'O', "prb_data_ring.data" },
};

struct prb {
	int64_t k[K_NR];
	int64_t counter;             /* OFFSET(atomic_long_t.counter), or 0 */
	uint64_t count;              /* descriptors */
	uint64_t descs, infos;       /* addresses of the two arrays */
	uint64_t data, data_size;    /* the text ring */
	uint64_t head, tail;         /* descriptor ids */
	uint64_t clear_seq;          /* 0: every record */
	uint8_t *desc, *info;        /* one descriptor, one printk_info */
};

static int prb_keys_load(struct dm *d, struct prb *p)
{
	for (int i = 0; i < K_NR; i++) {
		const struct prb_key *k = &prb_keys[i];
		int ok = k->kind == 'S' ? vs_vi_size(d->vi, k->name, &p->k[i]) :
			 vs_vi_offset(d->vi, k->name, &p->k[i]);

		if (!ok)
			return vs_err(d->err, "VMCOREINFO lacks '%s(%s)'",
				      k->kind == 'S' ? "SIZE" : "OFFSET",
				      k->name);
		if (k->kind == 'S' && (p->k[i] <= 0 || p->k[i] > PRB_STRUCT_MAX))
			return vs_err(d->err, "implausible SIZE(%s)=%lld",
				      k->name, (long long)p->k[i]);
	}
	if (!vs_vi_offset(d->vi, "atomic_long_t.counter", &p->counter))
		p->counter = 0;
	return 0;
}

/* A field of the printk_ringbuffer structure read into RB. */
static int rb_field(struct dm *d, const struct prb *p, const uint8_t *rb,
		    int ring, int member, int64_t extra, size_t width,
		    uint64_t *v)
{
	return field(d, rb, (size_t)p->k[K_RB_SIZE],
		     p->k[ring] + p->k[member] + extra, width, v,
		     prb_keys[member].name);
}

static int prb_check_bits(struct dm *d, uint64_t count_bits,
			  uint64_t size_bits)
{
	if (count_bits > PRB_COUNT_BITS_MAX)
		return vs_err(d->err, "implausible descriptor count 2^%llu "
			      "(prb_desc_ring.count_bits)",
			      (unsigned long long)count_bits);
	if (size_bits > PRB_SIZE_BITS_MAX || size_bits < 3)
		return vs_err(d->err, "implausible text ring size 2^%llu "
			      "(prb_data_ring.size_bits)",
			      (unsigned long long)size_bits);
	return 0;
}

static int prb_parse(struct dm *d, struct prb *p, const uint8_t *rb)
{
	uint64_t count_bits, size_bits;

	if (rb_field(d, p, rb, K_RB_DESC_RING, K_DR_COUNT_BITS, 0, 4, &count_bits) < 0 ||
	    rb_field(d, p, rb, K_RB_DESC_RING, K_DR_DESCS, 0, 8, &p->descs) < 0 ||
	    rb_field(d, p, rb, K_RB_DESC_RING, K_DR_INFOS, 0, 8, &p->infos) < 0 ||
	    rb_field(d, p, rb, K_RB_DESC_RING, K_DR_HEAD, p->counter, 8, &p->head) < 0 ||
	    rb_field(d, p, rb, K_RB_DESC_RING, K_DR_TAIL, p->counter, 8, &p->tail) < 0 ||
	    rb_field(d, p, rb, K_RB_TEXT_RING, K_DATA_SIZE_BITS, 0, 4, &size_bits) < 0 ||
	    rb_field(d, p, rb, K_RB_TEXT_RING, K_DATA_DATA, 0, 8, &p->data) < 0)
		return -1;
	if (prb_check_bits(d, count_bits, size_bits) < 0)
		return -1;
	p->count = 1ull << count_bits;
	p->data_size = 1ull << size_bits;
	if (((p->head - p->tail) & DESC_ID_MASK) >= p->count)
		return vs_err(d->err, "descriptor ring head id 0x%llx is not "
			      "within %llu descriptors of tail id 0x%llx",
			      (unsigned long long)p->head,
			      (unsigned long long)p->count,
			      (unsigned long long)p->tail);
	return 0;
}

/* The printk_ringbuffer that SYMBOL(prb) points to. */
static int prb_read_ring(struct dm *d, struct prb *p)
{
	uint64_t sym, addr;
	uint8_t *rb;
	int ret;

	if (symbol(d, "prb", &sym) < 0 ||
	    kread_ptr(d, sym, &addr, "the pointer 'prb'") < 0)
		return -1;
	rb = malloc((size_t)p->k[K_RB_SIZE]);
	if (!rb)
		return vs_err_oom(d->err, "out of memory");
	ret = kread(d, addr, rb, (size_t)p->k[K_RB_SIZE], "the printk_ringbuffer");
	if (ret == 0)
		ret = prb_parse(d, p, rb);
	if (ret < 0)
		vs_err_ctx(d->err, "printk_ringbuffer at 0x%llx",
			   (unsigned long long)addr);
	free(rb);
	return ret;
}

/* clear_seq: a plain u64 (5.10), or a latched_seq whose latch counter's
 * low bit picks one of two copies (5.13+), as makedumpfile reads it. */
static int prb_read_clear_seq(struct dm *d, struct prb *p)
{
	uint64_t sym, latch, val = 0;
	int64_t size, off;

	if (!d->partial || !vs_vi_symbol(d->vi, "clear_seq", &sym))
		return 0;
	if (kread_u64(d, sym, &latch, "'clear_seq'") < 0)
		return -1;
	val = latch;
	if (vs_vi_size(d->vi, "latched_seq", &size)) {
		if (!vs_vi_offset(d->vi, "latched_seq.val", &off))
			return vs_err(d->err, "VMCOREINFO lacks "
				      "'OFFSET(latched_seq.val)'");
		if (kread_u64(d, sym + (uint64_t)off + (latch & 1) * 8, &val,
			      "the latched 'clear_seq'") < 0)
			return -1;
	}
	p->clear_seq = val;
	return 0;
}

/* Where record ID's text lies in the text ring, as makedumpfile finds
 * it.  Returns 1, or 0 for a data-less record (which is not printed). */
static int prb_text_pos(struct dm *d, const struct prb *p, uint64_t id,
			uint64_t *pos, uint64_t *len)
{
	const size_t dsz = (size_t)p->k[K_DESC_SIZE];
	const int64_t lpos = p->k[K_DESC_LPOS];
	uint64_t begin, next, text_len;

	if (field(d, p->desc, dsz, lpos + p->k[K_LPOS_BEGIN], 8, &begin,
		  "prb_data_blk_lpos.begin") < 0 ||
	    field(d, p->desc, dsz, lpos + p->k[K_LPOS_NEXT], 8, &next,
		  "prb_data_blk_lpos.next") < 0 ||
	    field(d, p->info, (size_t)p->k[K_INFO_SIZE], p->k[K_INFO_TEXT_LEN],
		  2, &text_len, "printk_info.text_len") < 0)
		return -1;
	begin %= p->data_size;
	next %= p->data_size;
	if (begin == next)
		return 0;               /* a data-less record */
	if (begin > next)
		begin = 0;              /* the block wrapped to the start */
	begin += 8;                     /* past the descriptor id */
	if (next - begin < text_len)
		text_len = next - begin;   /* a truncated message */
	if (begin > p->data_size || p->data_size - begin < text_len)
		return vs_err(d->err, "text of record id 0x%llx (%llu bytes at "
			      "0x%llx) runs past the end of the text ring",
			      (unsigned long long)id,
			      (unsigned long long)text_len,
			      (unsigned long long)(p->data + begin));
	*pos = begin;
	*len = text_len;
	return 1;
}

/* Is descriptor ID committed or finalized, and at least clear_seq? */
static int prb_wanted(struct dm *d, const struct prb *p, uint64_t id,
		      int *wanted)
{
	uint64_t sv, seq, state;

	*wanted = 0;
	if (field(d, p->desc, (size_t)p->k[K_DESC_SIZE],
		  p->k[K_DESC_STATE] + p->counter, 8, &sv,
		  "prb_desc.state_var") < 0)
		return -1;
	state = sv >> 62;
	if ((sv & DESC_ID_MASK) != id ||
	    (state != DESC_COMMITTED && state != DESC_FINALIZED))
		return 0;
	if (field(d, p->info, (size_t)p->k[K_INFO_SIZE], p->k[K_INFO_SEQ], 8,
		  &seq, "printk_info.seq") < 0)
		return -1;
	*wanted = seq >= p->clear_seq;
	return 0;
}

static int prb_read_desc(struct dm *d, struct prb *p, uint64_t id)
{
	const uint64_t idx = id & (p->count - 1);
	const uint64_t dsz = (uint64_t)p->k[K_DESC_SIZE];
	const uint64_t isz = (uint64_t)p->k[K_INFO_SIZE];

	if (kread(d, p->descs + idx * dsz, p->desc, dsz, "the descriptor") < 0 ||
	    kread(d, p->infos + idx * isz, p->info, isz, "the printk_info") < 0)
		return vs_err_ctx(d->err, "record id 0x%llx",
				  (unsigned long long)id);
	return 0;
}

static int prb_dump_one(struct dm *d, struct prb *p, uint64_t id,
			uint8_t *text)
{
	uint64_t pos = 0, len = 0, ts;
	int wanted, has_text;

	if (prb_read_desc(d, p, id) < 0 || prb_wanted(d, p, id, &wanted) < 0)
		return -1;
	if (!wanted)
		return 0;
	has_text = prb_text_pos(d, p, id, &pos, &len);
	if (has_text <= 0)
		return has_text;
	if (field(d, p->info, (size_t)p->k[K_INFO_SIZE], p->k[K_INFO_TS], 8,
		  &ts, "printk_info.ts_nsec") < 0)
		return -1;
	if (len && kread(d, p->data + pos, text, len, "record text") < 0)
		return vs_err_ctx(d->err, "record id 0x%llx",
				  (unsigned long long)id);
	return out_record(d, ts, text, len);
}

static int prb_walk(struct dm *d, struct prb *p)
{
	const uint64_t n = ((p->head - p->tail) & DESC_ID_MASK) + 1;
	uint8_t *text = malloc(65536);
	int ret = 0;

	p->desc = malloc((size_t)p->k[K_DESC_SIZE]);
	p->info = malloc((size_t)p->k[K_INFO_SIZE]);
	if (!text || !p->desc || !p->info)
		ret = vs_err_oom(d->err, "out of memory");
	for (uint64_t i = 0; ret == 0 && i < n; i++)
		ret = prb_dump_one(d, p, (p->tail + i) & DESC_ID_MASK, text);
	free(p->info);
	free(p->desc);
	free(text);
	return ret;
}

static int dump_lockless(struct dm *d)
{
	struct prb p = { .clear_seq = 0 };

	if (prb_keys_load(d, &p) < 0 || prb_read_ring(d, &p) < 0 ||
	    prb_read_clear_seq(d, &p) < 0)
		return -1;
	return prb_walk(d, &p);
}

/* ---- variable-length records (3.5 to 5.9) ----------------------------- */

struct rec_log {
	uint64_t addr;               /* log_buf's address */
	uint8_t *buf;
	uint64_t size;               /* log_buf_len */
	int64_t hdr, off_ts, off_len, off_text_len;
};

/* SIZE(printk_log) and its OFFSETs, or those of "log" (3.5 to 3.10). */
static int rec_keys_load(struct dm *d, struct rec_log *l)
{
	static const char *const names[] = { "printk_log", "log" };
	char key[64];

	for (size_t i = 0; i < 2; i++) {
		const char *n = names[i];

		if (!vs_vi_size(d->vi, n, &l->hdr))
			continue;
		snprintf(key, sizeof(key), "%s.ts_nsec", n);
		if (!vs_vi_offset(d->vi, key, &l->off_ts))
			break;
		snprintf(key, sizeof(key), "%s.len", n);
		if (!vs_vi_offset(d->vi, key, &l->off_len))
			break;
		snprintf(key, sizeof(key), "%s.text_len", n);
		if (!vs_vi_offset(d->vi, key, &l->off_text_len))
			break;
		if (l->hdr <= 0 || l->hdr > PRB_STRUCT_MAX)
			return vs_err(d->err, "implausible SIZE(%s)=%lld", n,
				      (long long)l->hdr);
		return 0;
	}
	return vs_err(d->err, "VMCOREINFO lacks SIZE(printk_log) or one of "
		      "OFFSET(printk_log.ts_nsec), .len, .text_len");
}

/* log_buf, log_buf_len: the buffer's address and size. */
static int read_log_buf_vars(struct dm *d, uint64_t *addr, uint64_t *size)
{
	uint64_t sym_buf, sym_len;
	uint32_t len;

	if (symbol(d, "log_buf", &sym_buf) < 0 ||
	    symbol(d, "log_buf_len", &sym_len) < 0 ||
	    kread_ptr(d, sym_buf, addr, "the pointer 'log_buf'") < 0 ||
	    kread_u32(d, sym_len, &len, "'log_buf_len'") < 0)
		return -1;
	if (len == 0 || len > LOG_BUF_MAX)
		return vs_err(d->err, "implausible log_buf_len %u", len);
	*size = len;
	return 0;
}

static int read_whole_log_buf(struct dm *d, struct rec_log *l)
{
	if (read_log_buf_vars(d, &l->addr, &l->size) < 0)
		return -1;
	l->buf = malloc((size_t)l->size);
	if (!l->buf)
		return vs_err_oom(d->err, "out of memory for a %llu-byte "
				  "log_buf", (unsigned long long)l->size);
	return kread(d, l->addr, l->buf, (size_t)l->size, "log_buf");
}

static int rec_u16(struct dm *d, const struct rec_log *l, uint64_t at,
		   int64_t off, uint64_t *v, const char *what)
{
	if (at > l->size || off < 0 || (uint64_t)off > l->size - at)
		return vs_err(d->err, "record at index %llu (0x%llx) lies outside "
			      "the %llu-byte log_buf",
			      (unsigned long long)at,
			      (unsigned long long)(l->addr + at),
			      (unsigned long long)l->size);
	return field(d, l->buf + at, (size_t)(l->size - at), off, 2, v, what);
}

/* The record that index IDX names (a zero length marks the end of the
 * buffer: the record is then the one at 0) and the index after it. */
static int rec_step(struct dm *d, const struct rec_log *l, uint64_t idx,
		    uint64_t *rec, uint64_t *next)
{
	uint64_t len;

	if (rec_u16(d, l, idx, l->off_len, &len, "printk_log.len") < 0)
		return -1;
	*rec = idx;
	*next = idx + len;
	if (len)
		return 0;
	*rec = 0;
	if (rec_u16(d, l, 0, l->off_len, next, "printk_log.len") < 0)
		return -1;
	return 0;
}

static int rec_dump_one(struct dm *d, const struct rec_log *l, uint64_t rec)
{
	uint64_t text_len, ts;

	if (rec_u16(d, l, rec, l->off_text_len, &text_len,
		    "printk_log.text_len") < 0 ||
	    field(d, l->buf + rec, (size_t)(l->size - rec), l->off_ts, 8, &ts,
		  "printk_log.ts_nsec") < 0)
		return -1;
	if ((uint64_t)l->hdr + text_len > l->size - rec)
		return vs_err(d->err, "text of the record at index %llu (0x%llx, "
			      "%llu bytes) runs past the end of log_buf",
			      (unsigned long long)rec,
			      (unsigned long long)(l->addr + rec),
			      (unsigned long long)text_len);
	return out_record(d, ts, l->buf + rec + l->hdr, (size_t)text_len);
}

static int rec_walk(struct dm *d, const struct rec_log *l, uint64_t first,
		    uint64_t last)
{
	const uint64_t limit = l->size / (uint64_t)l->hdr + 2;
	uint64_t idx = first, rec, next;

	for (uint64_t n = 0; idx != last; n++, idx = next) {
		if (n == limit)
			return vs_err(d->err, "the records from index %llu do not "
				      "reach log_next_idx %llu within log_buf "
				      "at 0x%llx", (unsigned long long)first,
				      (unsigned long long)last,
				      (unsigned long long)l->addr);
		if (rec_step(d, l, idx, &rec, &next) < 0 ||
		    rec_dump_one(d, l, rec) < 0)
			return -1;
	}
	return 0;
}

/* log_first_idx (clear_idx with --partial-dmesg) and log_next_idx. */
static int rec_read_indexes(struct dm *d, uint64_t *first, uint64_t *last)
{
	uint64_t sym_first, sym_next;
	uint32_t a, b;

	if (!(d->partial && vs_vi_symbol(d->vi, "clear_idx", &sym_first)) &&
	    symbol(d, "log_first_idx", &sym_first) < 0)
		return -1;
	if (symbol(d, "log_next_idx", &sym_next) < 0 ||
	    kread_u32(d, sym_first, &a, "the first record's index") < 0 ||
	    kread_u32(d, sym_next, &b, "'log_next_idx'") < 0)
		return -1;
	*first = a;
	*last = b;
	return 0;
}

static int dump_records(struct dm *d)
{
	struct rec_log l = { .buf = NULL };
	uint64_t first, last;
	int ret;

	ret = rec_keys_load(d, &l);
	if (ret == 0)
		ret = rec_read_indexes(d, &first, &last);
	if (ret == 0)
		ret = read_whole_log_buf(d, &l);
	if (ret == 0)
		ret = rec_walk(d, &l, first, last);
	free(l.buf);
	return ret;
}

/* ---- plain text (before 3.5) ------------------------------------------ */

/* log_end: unsigned long before 2.6.25, unsigned since. */
static int read_log_end(struct dm *d, uint64_t *end)
{
	uint64_t sym;
	uint32_t v32;

	if (symbol(d, "log_end", &sym) < 0)
		return -1;
	if (kernel_version(d->vi) < KVER(2u, 6u, 25u))
		return kread_ptr(d, sym, end, "'log_end'");
	if (kread_u32(d, sym, &v32, "'log_end'") < 0)
		return -1;
	*end = v32;
	return 0;
}

/* The text up to log_end, or, once the ring has wrapped, the oldest
 * part first: from log_end's position to the end, then the start. */
static int dump_plain(struct dm *d)
{
	struct rec_log l = { .buf = NULL };
	uint64_t end;
	int ret;

	ret = read_log_end(d, &end);
	if (ret == 0)
		ret = read_whole_log_buf(d, &l);
	if (ret == 0 && end < l.size)
		ret = out_bytes(d, l.buf, (size_t)end);
	else if (ret == 0) {
		uint64_t at = end & (l.size - 1);

		ret = out_bytes(d, l.buf + at, (size_t)(l.size - at));
		if (ret == 0)
			ret = out_bytes(d, l.buf, (size_t)at);
	}
	free(l.buf);
	return ret;
}

/* ---- the formats and the entry point --------------------------------- */

static int is_lockless(const struct vs_vmcoreinfo *vi)
{
	uint64_t v;

	return vs_vi_symbol(vi, "prb", &v);
}

/* 3.5+ by OSRELEASE as makedumpfile decides; without it, by log_end. */
static int is_records(const struct vs_vmcoreinfo *vi)
{
	unsigned ver = kernel_version(vi);
	uint64_t v;

	if (ver)
		return ver >= KVER(3u, 5u, 0u);
	return !vs_vi_symbol(vi, "log_end", &v);
}

static int is_any(const struct vs_vmcoreinfo *vi)
{
	(void)vi;
	return 1;
}

static const struct dm_format {
	const char *name;
	int (*match)(const struct vs_vmcoreinfo *vi);
	int (*dump)(struct dm *d);
} dm_formats[] = {
	{ "lockless printk ringbuffer", is_lockless, dump_lockless },
	{ "variable-length printk records", is_records, dump_records },
	{ "plain log_buf", is_any, dump_plain },
};

static const struct dm_format *find_format(const struct vs_vmcoreinfo *vi)
{
	size_t i = 0;

	while (!dm_formats[i].match(vi))
		i++;
	return &dm_formats[i];
}

static int run_dmesg(struct dm *d)
{
	const struct dm_format *f;
	int ret;

	if (vs_arch_new(&d->arch, d->in, d->err) < 0)
		return -1;
	ret = vs_reader_init(&d->r, d->in, d->err);
	if (ret == 0) {
		f = find_format(d->vi);
		ret = f->dump(d);
		if (ret == 0)
			ret = out_flush(d);
		else
			vs_err_ctx(d->err, "%s", f->name);
		vs_reader_fini(&d->r);
	}
	vs_arch_free(d->arch);
	return ret;
}

int vmsift_dump_dmesg(struct vmsift *vs, int partial, int out_fd,
		      const char *out_name)
{
	struct dm *d;
	int ret;

	vs_err_clear(&vs->err);
	if (!vs->opened)
		return vs_err(&vs->err, "no input is open");
	if (!vs->in.vi)
		return vs_err(&vs->err, "cannot extract the kernel log from '%s': "
			      "the dump has no VMCOREINFO", vs->in.file.name);
	d = calloc(1, sizeof(*d));
	if (!d)
		return vs_err_oom(&vs->err, "out of memory");
	d->in = &vs->in;
	d->vi = vs->in.vi;
	d->err = &vs->err;
	d->partial = partial;
	d->out_fd = out_fd;
	d->out_name = out_name;
	ret = run_dmesg(d);
	free(d);
	if (ret < 0)
		return vs_err_ctx(&vs->err, "cannot extract the kernel log from "
				  "'%s'", vs->in.file.name);
	return 0;
}
