/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workload: leave every kind of page a dump filter cares about in memory,
 * then say so on stdout and sleep until killed (or the kernel panics).
 *
 *   -a MB    anonymous memory, half in transparent huge pages, half in 4K pages
 *   -r N     fill one anonymous page in N with pseudo-random bytes (0: none);
 *            the others get a per-page text pattern (compresses well)
 *   -z MB    anonymous memory written, then zeroed again
 *   -t MB    a tmpfs file (-T PATH) mapped MAP_SHARED and written
 *   -H N     N * 2 MiB of a hugetlbfs file (-P DIR, a hugetlbfs mount);
 *            raises vm.nr_hugepages by that many bytes' worth first
 *   -c DIR   read every file in DIR (clean page cache)
 *   -w MB    write a file (-W PATH) and fsync it (cache with buffer heads)
 *   -R PATH  create PATH once ready
 *   -K HEX   a dm-crypt mapping "vmsift-secret" (aes-cbc-plain, 1 MiB over
 *            a device-mapper error device) with key HEX, given to the
 *            kernel as hex: the raw key bytes exist only in the kernel
 *   -U HEX   a "user" key "vmsift:secret" in the user keyring whose payload
 *            is HEX decoded (the workload's copy is wiped after add_key)
 *   -L HEX   the same as a "logon" key "vmsift:logon" (the type
 *            cryptsetup and fscrypt hand the kernel volume keys in)
 *   -S TX:RX a kTLS connection over loopback (TLS 1.2, AES-GCM-256):
 *            the client socket's TLS_TX key is TX and its TLS_RX key RX
 *            (64 hex digits each), the IV, salt and record sequence fixed
 *            (ktls_secret); both sockets stay open until the panic
 *   -X HEX   a dm-crypt mapping "vmsift-xts" (aes-xts-plain64, key HEX of
 *            64 bytes: the data key, then the tweak key)
 *   -E HEX   a dm-crypt mapping "vmsift-essiv" (aes-cbc-essiv:sha256)
 *   -N HEX   a "user" key "vmsift:kmk" with payload HEX, and an
 *            "encrypted" key "vmsift:encrypted" made by the kernel under it
 *            ("new default user:vmsift:kmk 32": 32 random bytes that only
 *            the kernel holds in clear)
 *   -A HEX   after all the above: load the modules listed in
 *            /modules-late.order (aesni_intel and its dependencies), then a
 *            dm-crypt mapping "vmsift-aesni" (aes-xts-plain64, key HEX),
 *            which the AES-NI driver serves (simd, cryptd); the mappings
 *            and the kTLS connection made before it keep aes-generic
 *   -V HEX   after -A (the late modules loaded): a dm-crypt mapping
 *            "vmsift-essiv-ni" (aes-cbc-essiv:sha256, key HEX), which gets
 *            essiv over AES-NI's cbc (simd, cryptd) and AES-NI's cipher
 *   -G TX:RX after -V: a second kTLS connection as -S, whose AES-GCM the
 *            AES-NI driver serves (generic-gcm-aesni: simd, cryptd)
 *   -C C:TX:RX  (more than once) a kTLS connection as -S with cipher C:
 *            gcm128 (AES-GCM-128), ccm128 (AES-CCM-128) or chacha
 *            (ChaCha20-Poly1305), TX and RX of the cipher's key size (32 or
 *            64 hex digits), made with -S, before the late modules
 *   -D C:TX:RX  the same after -G: the late modules (AES-NI, chacha-x86_64)
 *            serve it
 *   -F HEX   an "fscrypt-provisioning" key "vmsift:fscrypt" in the user
 *            keyring whose raw key (16 to 64 bytes) is HEX decoded (the
 *            type fscrypt's FS_IOC_ADD_ENCRYPTION_KEY takes a key_id of)
 *   -I HEX   a dm-crypt mapping "vmsift-authenc" with authenticated
 *            encryption (capi:authenc(hmac(sha256),xts(aes))-random,
 *            integrity:48:aead) over a dm-integrity device "vmsift-integ48"
 *            (no journal, 48-byte tags over a dm "zero" device): key HEX
 *            of 96 bytes, the xts key (64) then the HMAC key (32)
 *   -M HEX   the same with capi:gcm(aes)-random (integrity:28:aead, over
 *            "vmsift-integ28"): key HEX of 32 bytes
 *   -O HEX   a dm-crypt mapping "vmsift-lrw" (aes-lrw-benbi): key HEX of
 *            48 bytes, the AES key (32) then the LRW tweak key (16)
 *   -Y HEX   an "asymmetric" key "vmsift:pkcs8" made from a PKCS#8
 *            PrivateKeyInfo (rsaEncryption) whose privateKey is HEX
 *            (pkcs8_key_parser loaded: the kernel keeps those bytes as the
 *            public_key's key without parsing them)
 *   -Q SK:TK an "rxrpc" key "vmsift:rxrpc" (rxrpc.ko's version 1 rxkad
 *            token): session key SK (16 hex digits) and ticket TK
 *   -J HEX   a "ceph" key "vmsift:ceph" (libceph's AES key, 16 bytes)
 *   -B K:HEX (more than once) a dm-crypt AEAD mapping "vmsift-K" as -M,
 *            each over a dm-integrity device "vmsift-integ-K" of its own,
 *            made before the late modules; K: gcm (capi:gcm(aes)-random,
 *            28-byte tags), rfc4106 (capi:rfc4106(gcm(aes))-random, 24:
 *            an AES key then a 4-byte salt), authenc-xts and authenc-cbc
 *            (capi:authenc(hmac(sha256),xts(aes) or cbc(aes))-random, 48:
 *            the AES key(s) then the HMAC key), chacha
 *            (capi:rfc7539(chacha20,poly1305)-random, 28)
 *   -Z K:HEX the same made after the late modules are loaded (mapping
 *            "vmsift-K-ni": AES-NI's drivers, chacha-x86_64)
 *   -x K:HEX (more than once) an IPsec SA (ESP, IPv4 transport mode,
 *            127.0.0.1, SPI 0x7f5100NN, NN its rank from 1) added with
 *            XFRM_MSG_NEWSA on a NETLINK_XFRM socket (xfrm_user loaded),
 *            before the late modules: K rfc4106 (AEAD
 *            rfc4106(gcm(aes)), HEX the AES-256 key then the 4-byte salt,
 *            a 128-bit ICV) or cbc (hmac(sha256) truncated to 128 bits
 *            and cbc(aes): HEX the AES-256 key then the 32-byte HMAC key)
 *   -y K:HEX the same after the late modules (SPI 0x7f5101NN: AES-NI's
 *            drivers)
 *
 * Built with gcc -static by the harness; runs as /bin/workload in the guest.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <linux/tls.h>
#include <net/if.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <linux/dm-ioctl.h>
#include <linux/keyctl.h>
#include <linux/fscrypt.h>
#include <linux/netlink.h>
#include <linux/xfrm.h>
#include <unistd.h>

#define MiB (1024UL * 1024UL)
#define HUGE (2 * MiB)
#define PAGE 4096UL

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static void die(const char *what)
{
	printf("HARNESS: FAIL workload: %s: %s\n", what, strerror(errno));
	fflush(stdout);
	exit(1);
}

/* One page: random, or a 64-byte record naming the page, repeated. */
static void fill_page(unsigned char *p, const char *kind, unsigned long idx, int random)
{
	if (random) {
		uint64_t *w = (uint64_t *)p;
		for (size_t i = 0; i < PAGE / 8; i++) {
			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			w[i] = rng;
		}
		return;
	}
	char rec[80];
	int n = snprintf(rec, sizeof(rec), "vmsift %.8s page %010lu patterned", kind, idx);
	memset(rec + n, ' ', sizeof(rec) - n);
	rec[63] = '\n';
	for (size_t off = 0; off < PAGE; off += 64)
		memcpy(p + off, rec, 64);
}

static void fill(unsigned char *p, size_t len, const char *kind, int rnd_every)
{
	for (size_t i = 0; i < len / PAGE; i++)
		fill_page(p + i * PAGE, kind, i, rnd_every > 0 && i % rnd_every == 0);
}

/* Anonymous memory, 2 MiB aligned so THP can back it. */
static unsigned char *anon(size_t len, int advice)
{
	unsigned char *raw = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		die("mmap anonymous");
	unsigned char *p = (unsigned char *)(((uintptr_t)raw + HUGE - 1) & ~(HUGE - 1));
	if (madvise(p, len, advice) != 0)
		die("madvise");
	return p;
}

static unsigned char *shared_file(const char *path, size_t len)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die(path);
	if (ftruncate(fd, len) != 0)
		die("ftruncate");
	unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap shared");
	close(fd);
	return p;
}

/* The default huge page size in bytes (Hugepagesize in /proc/meminfo):
 * 2 MiB on x86_64, arm64 and riscv64, 1 MiB on s390x. */
static unsigned long hugepage_size(void)
{
	char line[256];
	unsigned long kb = 0;
	FILE *f = fopen("/proc/meminfo", "r");
	if (!f)
		die("/proc/meminfo");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Hugepagesize: %lu kB", &kb) == 1)
			break;
	fclose(f);
	if (!kb) {
		errno = EINVAL;
		die("no Hugepagesize in /proc/meminfo");
	}
	return kb * 1024;
}

/* Raise vm.nr_hugepages by enough pages for n * 2 MiB. */
static void add_hugepages(long n)
{
	long have = 0;
	FILE *f = fopen("/proc/sys/vm/nr_hugepages", "r+");
	if (!f)
		die("/proc/sys/vm/nr_hugepages");
	if (fscanf(f, "%ld", &have) != 1)
		have = 0;
	rewind(f);
	fprintf(f, "%ld\n", have + (long)(n * HUGE / hugepage_size()));
	fclose(f);
}

static void read_dir(const char *dir)
{
	static char buf[1 << 16];
	DIR *d = opendir(dir);
	if (!d)
		die(dir);
	struct dirent *e;
	while ((e = readdir(d))) {
		char path[4096];
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		int fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
	}
	closedir(d);
}

static void write_synced(const char *path, size_t len)
{
	static unsigned char page[PAGE];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(path);
	for (size_t i = 0; i < len / PAGE; i++) {
		fill_page(page, "written", i, 0);
		if (write(fd, page, PAGE) != (ssize_t)PAGE)
			die("write");
	}
	if (fsync(fd) != 0)
		die("fsync");
	close(fd);
}

/* One device-mapper ioctl on /dev/mapper/control for device NAME, with
 * an optional target TYPE of PARAMS over SECTORS sectors; the device's
 * number comes back. */
static unsigned long long dm_call(int fd, unsigned long cmd, const char *name,
				  const char *type, const char *params,
				  unsigned long long sectors)
{
	static char buf[16384];
	struct dm_ioctl *io = (struct dm_ioctl *)buf;
	struct dm_target_spec *sp = (struct dm_target_spec *)(io + 1);

	memset(buf, 0, sizeof(buf));
	io->version[0] = DM_VERSION_MAJOR;
	io->data_size = sizeof(buf);
	io->data_start = sizeof(*io);
	snprintf(io->name, sizeof(io->name), "%s", name);
	if (type) {
		io->target_count = 1;
		sp->sector_start = 0;
		sp->length = sectors;
		snprintf(sp->target_type, sizeof(sp->target_type), "%s", type);
		snprintf((char *)(sp + 1), sizeof(buf) - sizeof(*io) - sizeof(*sp),
			 "%s", params);
		sp->next = 0;
	}
	if (ioctl(fd, cmd, io) != 0)
		die("device-mapper ioctl");
	return io->dev;
}

/* A crypt mapping NAME of CIPHER with key HEX over a device-mapper
 * "error" device "vmsift-backing", made on first use and shared by every
 * mapping (the data disk is mounted, so dm-crypt could not claim it; the
 * key is set up all the same, and no I/O is ever made). */
static void dm_crypt_secret(const char *name, const char *cipher,
			    const char *hex)
{
	static unsigned long long dev;
	static int have_dev;
	char params[512];
	int fd = open("/dev/mapper/control", O_RDWR);

	if (fd < 0)
		die("open /dev/mapper/control (dm_mod loaded?)");
	if (!have_dev) {
		dev = dm_call(fd, DM_DEV_CREATE, "vmsift-backing", NULL, NULL, 0);
		dm_call(fd, DM_TABLE_LOAD, "vmsift-backing", "error", "", 2048);
		dm_call(fd, DM_DEV_SUSPEND, "vmsift-backing", NULL, NULL, 0);
		have_dev = 1;
	}
	snprintf(params, sizeof(params), "%s %s 0 %u:%u 0", cipher, hex,
		 major(dev), minor(dev));
	dm_call(fd, DM_DEV_CREATE, name, NULL, NULL, 0);
	dm_call(fd, DM_TABLE_LOAD, name, "crypt", params, 2048);
	dm_call(fd, DM_DEV_SUSPEND, name, NULL, NULL, 0); /* resume */
	close(fd);
	printf("HARNESS: dm-crypt mapping %s (%s) set up\n", name, cipher);
}

/* A device-mapper device NAME of TYPE with PARAMS over SECTORS sectors,
 * created, loaded and resumed on FD; its number comes back. */
static unsigned long long dm_device(int fd, const char *name, const char *type,
				    const char *params, unsigned long long sectors)
{
	unsigned long long dev = dm_call(fd, DM_DEV_CREATE, name, NULL, NULL, 0);

	dm_call(fd, DM_TABLE_LOAD, name, type, params, sectors);
	dm_call(fd, DM_DEV_SUSPEND, name, NULL, NULL, 0); /* resume */
	return dev;
}

/* A crypt mapping NAME of the AEAD CIPHER (dm-crypt's capi: form with
 * "-random" IVs) with key HEX and TAG-byte on-disk tags, over a
 * dm-integrity device of its own (direct mode, no internal hash: the
 * DM-DIF-EXT-TAG profile dm-crypt asks for) over a 64 MiB dm "zero"
 * device, whose zero superblock dm-integrity formats (its writes are
 * dropped; no I/O is made afterwards). */
static void dm_crypt_aead_secret(const char *name, const char *cipher,
				 const char *hex, unsigned tag, const char *dev_name)
{
	char zero[64], integ[64], params[512];
	unsigned long long dev;
	int fd = open("/dev/mapper/control", O_RDWR);

	if (fd < 0)
		die("open /dev/mapper/control (dm_mod loaded?)");
	if (*dev_name) {
		snprintf(zero, sizeof(zero), "vmsift-zero%s", dev_name);
		snprintf(integ, sizeof(integ), "vmsift-integ%s", dev_name);
	} else {
		snprintf(zero, sizeof(zero), "vmsift-zero%u", tag);
		snprintf(integ, sizeof(integ), "vmsift-integ%u", tag);
	}
	dev = dm_device(fd, zero, "zero", "", 131072);
	snprintf(params, sizeof(params), "%u:%u 0 %u D 0", major(dev), minor(dev), tag);
	dev = dm_device(fd, integ, "integrity", params, 2048);
	snprintf(params, sizeof(params), "%s %s 0 %u:%u 0 1 integrity:%u:aead",
		 cipher, hex, major(dev), minor(dev), tag);
	dm_device(fd, name, "crypt", params, 2048);
	close(fd);
	printf("HARNESS: dm-crypt mapping %s (%s) set up\n", name, cipher);
}

/* dm-crypt's AEAD modes (-B, -Z): workload's name, the capi: cipher,
 * the on-disk tag (the AEAD's tag and its IV) */
struct dm_aead {
	const char *kind, *cipher;
	unsigned tag;
};

static const struct dm_aead dm_aeads[] = {
	{ "gcm", "capi:gcm(aes)-random", 28 },
	{ "rfc4106", "capi:rfc4106(gcm(aes))-random", 24 },
	{ "authenc-xts", "capi:authenc(hmac(sha256),xts(aes))-random", 48 },
	{ "authenc-cbc", "capi:authenc(hmac(sha256),cbc(aes))-random", 48 },
	{ "chacha", "capi:rfc7539(chacha20,poly1305)-random", 28 },
};

/* SPEC is KIND:HEX; SUFFIX ends the mapping's name ("" or "-ni") */
static void dm_aead_spec(char *spec, const char *suffix)
{
	char *hex = strchr(spec, ':');
	char name[64], dev[64];

	if (!hex) {
		errno = EINVAL;
		die("-B/-Z: KIND:HEX");
	}
	*hex++ = 0;
	for (size_t i = 0; i < sizeof(dm_aeads) / sizeof(dm_aeads[0]); i++) {
		if (strcmp(dm_aeads[i].kind, spec))
			continue;
		snprintf(name, sizeof(name), "vmsift-%s%s", spec, suffix);
		snprintf(dev, sizeof(dev), "-%s%s", spec, suffix);
		dm_crypt_aead_secret(name, dm_aeads[i].cipher, hex, dm_aeads[i].tag, dev);
		return;
	}
	errno = EINVAL;
	die(spec);
}

/* Load each module listed in /modules-late.order (one path a line, in
 * dependency order); one already loaded is fine. */
static void load_late_modules(void)
{
	char path[4096];
	FILE *f = fopen("/modules-late.order", "r");

	if (!f)
		die("/modules-late.order");
	while (fgets(path, sizeof(path), f)) {
		int fd;

		path[strcspn(path, "\n")] = 0;
		if (!path[0])
			continue;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die(path);
		if (syscall(SYS_finit_module, fd, "", 0) != 0 && errno != EEXIST)
			die(path);
		close(fd);
		printf("HARNESS: module %s loaded\n", path);
	}
	fclose(f);
}

static void user_key_secret(const char *type, const char *desc,
			    const char *hex)
{
	unsigned char payload[256];
	size_t n = strlen(hex) / 2, i;
	unsigned v;

	if (n == 0 || n > sizeof(payload))
		die("-U/-L/-N: 2 to 512 hex digits");
	for (i = 0; i < n; i++) {
		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			die("-U/-L/-N: not hex");
		payload[i] = (unsigned char)v;
	}
	if (syscall(SYS_add_key, type, desc, payload, n,
		    KEY_SPEC_USER_KEYRING) < 0)
		die("add_key");
	explicit_bzero(payload, sizeof(payload));
	printf("HARNESS: %s key %s added (%zu bytes)\n", type, desc, n);
}

/* A master key "vmsift:kmk" (a user key, payload HEX) and an encrypted key
 * "vmsift:encrypted" whose 32 bytes the kernel draws at random and keeps
 * decrypted in its payload (what userspace sees is encrypted under the
 * master key). */
static void encrypted_key_secret(const char *kmk_hex)
{
	static const char cmd[] = "new default user:vmsift:kmk 32";

	user_key_secret("user", "vmsift:kmk", kmk_hex);
	if (syscall(SYS_add_key, "encrypted", "vmsift:encrypted", cmd,
		    strlen(cmd), KEY_SPEC_USER_KEYRING) < 0)
		die("add_key encrypted (CONFIG_ENCRYPTED_KEYS?)");
	printf("HARNESS: encrypted key vmsift:encrypted added (32 bytes)\n");
}

/* HEX (2 * n digits) decoded into out[n]. */
static void unhex(const char *hex, unsigned char *out, size_t n, const char *what)
{
	unsigned v;

	if (strlen(hex) < 2 * n) {
		errno = EINVAL;
		die(what);
	}
	for (size_t i = 0; i < n; i++) {
		if (sscanf(hex + 2 * i, "%2x", &v) != 1) {
			errno = EINVAL;
			die(what);
		}
		out[i] = (unsigned char)v;
	}
}

/* An fscrypt-provisioning key "vmsift:fscrypt" whose raw key is HEX: the
 * kernel keeps the payload (type, reserved word, raw key) as given. */
static void fscrypt_key_secret(const char *hex)
{
	struct {
		struct fscrypt_provisioning_key_payload p;
		unsigned char raw[FSCRYPT_MAX_KEY_SIZE];
	} k;
	size_t n = strlen(hex) / 2;

	if (n < 16 /* the kernel's FSCRYPT_MIN_KEY_SIZE */ || n > FSCRYPT_MAX_KEY_SIZE || strlen(hex) % 2) {
		errno = EINVAL;
		die("-F: 32 to 128 hex digits");
	}
	memset(&k, 0, sizeof(k));
	k.p.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	unhex(hex, k.raw, n, "-F: not hex");
	if (syscall(SYS_add_key, "fscrypt-provisioning", "vmsift:fscrypt", &k,
		    sizeof(k.p) + n, KEY_SPEC_USER_KEYRING) < 0)
		die("add_key fscrypt-provisioning (CONFIG_FS_ENCRYPTION?)");
	explicit_bzero(&k, sizeof(k));
	printf("HARNESS: fscrypt-provisioning key vmsift:fscrypt added (%zu bytes)\n", n);
}

/* An "asymmetric" key "vmsift:pkcs8" from a PKCS#8 PrivateKeyInfo
 * (version 0, rsaEncryption, privateKey HEX: 1 to 100 bytes, short DER
 * lengths), which pkcs8_key_parser turns into a struct public_key whose
 * key holds privateKey's bytes as given. */
static void pkcs8_key_secret(const char *hex)
{
	static const unsigned char alg[] = {	/* version 0, rsaEncryption, NULL */
		0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48,
		0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00,
	};
	unsigned char der[2 + sizeof(alg) + 2 + 100];
	size_t n = strlen(hex) / 2, len;

	if (n == 0 || n > 100 || strlen(hex) % 2) {
		errno = EINVAL;
		die("-Y: 2 to 200 hex digits");
	}
	len = sizeof(alg) + 2 + n;
	der[0] = 0x30;
	der[1] = (unsigned char)len;
	memcpy(der + 2, alg, sizeof(alg));
	der[2 + sizeof(alg)] = 0x04;
	der[3 + sizeof(alg)] = (unsigned char)n;
	unhex(hex, der + 4 + sizeof(alg), n, "-Y: not hex");
	if (syscall(SYS_add_key, "asymmetric", "vmsift:pkcs8", der, 2 + len,
		    KEY_SPEC_USER_KEYRING) < 0)
		die("add_key asymmetric (pkcs8_key_parser loaded?)");
	explicit_bzero(der, sizeof(der));
	printf("HARNESS: asymmetric key vmsift:pkcs8 added (%zu-byte private key)\n", n);
}

/* An "rxrpc" key "vmsift:rxrpc": rxrpc.ko's version 1 payload (a u32 1,
 * then struct rxrpc_key_data_v1: security index 2 (rxkad), ticket length,
 * expiry, kvno, the 8-byte session key, the ticket), SK:TK in hex. */
static void rxrpc_key_secret(const char *arg)
{
	struct {
		uint32_t kver;
		uint16_t security_index, ticket_length;
		uint32_t expiry, kvno;
		unsigned char session_key[8], ticket[64];
	} __attribute__((packed)) k;
	const char *colon = strchr(arg, ':');
	size_t n = colon ? strlen(colon + 1) / 2 : 0;

	if (!colon || colon - arg != 16 || n == 0 || n > sizeof(k.ticket)) {
		errno = EINVAL;
		die("-Q: 16 hex digits, ':', 2 to 128 hex digits");
	}
	memset(&k, 0, sizeof(k));
	k.kver = 1;
	k.security_index = 2;
	k.ticket_length = (uint16_t)n;
	k.expiry = 0x7fffffff;
	unhex(arg, k.session_key, 8, "-Q: not hex");
	unhex(colon + 1, k.ticket, n, "-Q: not hex");
	if (syscall(SYS_add_key, "rxrpc", "vmsift:rxrpc", &k,
		    offsetof(__typeof__(k), ticket) + n, KEY_SPEC_USER_KEYRING) < 0)
		die("add_key rxrpc (rxrpc loaded?)");
	explicit_bzero(&k, sizeof(k));
	printf("HARNESS: rxrpc key vmsift:rxrpc added (%zu-byte ticket)\n", n);
}

/* A "ceph" key "vmsift:ceph": libceph's encoding (le16 type 1, AES; an
 * 8-byte ceph_timespec; le16 length; the 16-byte key HEX). */
static void ceph_key_secret(const char *hex)
{
	struct {
		uint16_t type;
		uint32_t sec, nsec;
		uint16_t len;
		unsigned char key[16];
	} __attribute__((packed)) k;

	if (strlen(hex) != 32) {
		errno = EINVAL;
		die("-J: 32 hex digits");
	}
	memset(&k, 0, sizeof(k));
	k.type = 1;
	k.len = 16;
	unhex(hex, k.key, 16, "-J: not hex");
	if (syscall(SYS_add_key, "ceph", "vmsift:ceph", &k, sizeof(k),
		    KEY_SPEC_USER_KEYRING) < 0)
		die("add_key ceph (libceph loaded?)");
	explicit_bzero(&k, sizeof(k));
	printf("HARNESS: ceph key vmsift:ceph added (16 bytes)\n");
}

/* A kTLS cipher the workload sets up: its name on the command line, its
 * TLS_CIPHER_*, its key size and the size of its crypto_info. */
struct ktls_cipher {
	const char *name;
	unsigned short type;
	size_t key_size, info_size;
};

static const struct ktls_cipher ktls_ciphers[] = {
	{ "gcm256", TLS_CIPHER_AES_GCM_256, TLS_CIPHER_AES_GCM_256_KEY_SIZE,
	  sizeof(struct tls12_crypto_info_aes_gcm_256) },
	{ "gcm128", TLS_CIPHER_AES_GCM_128, TLS_CIPHER_AES_GCM_128_KEY_SIZE,
	  sizeof(struct tls12_crypto_info_aes_gcm_128) },
	{ "ccm128", TLS_CIPHER_AES_CCM_128, TLS_CIPHER_AES_CCM_128_KEY_SIZE,
	  sizeof(struct tls12_crypto_info_aes_ccm_128) },
	{ "chacha", TLS_CIPHER_CHACHA20_POLY1305, TLS_CIPHER_CHACHA20_POLY1305_KEY_SIZE,
	  sizeof(struct tls12_crypto_info_chacha20_poly1305) },
};

/* Any cipher's crypto_info. */
union ktls_info {
	struct tls_crypto_info info;
	struct tls12_crypto_info_aes_gcm_256 gcm256;
	struct tls12_crypto_info_aes_gcm_128 gcm128;
	struct tls12_crypto_info_aes_ccm_128 ccm128;
	struct tls12_crypto_info_chacha20_poly1305 chacha;
};

/* The key of CI, of cipher C. */
static unsigned char *ktls_key(union ktls_info *ci, const struct ktls_cipher *c)
{
	switch (c->type) {
	case TLS_CIPHER_AES_GCM_128: return ci->gcm128.key;
	case TLS_CIPHER_AES_CCM_128: return ci->ccm128.key;
	case TLS_CIPHER_CHACHA20_POLY1305: return ci->chacha.key;
	default: return ci->gcm256.key;
	}
}

/* One direction's crypto_info: KEY, and a fixed IV, salt and sequence
 * number (the key is the secret; the rest marks the record). */
static void ktls_info(union ktls_info *ci, const struct ktls_cipher *c,
		      const unsigned char *key)
{
	memset(ci, 0, sizeof(*ci));
	ci->info.version = TLS_1_2_VERSION;
	ci->info.cipher_type = c->type;
	memcpy(ktls_key(ci, c), key, c->key_size);
	switch (c->type) {
	case TLS_CIPHER_AES_GCM_128:
		memcpy(ci->gcm128.iv, "vmsiftIV", sizeof(ci->gcm128.iv));
		memcpy(ci->gcm128.salt, "SALT", sizeof(ci->gcm128.salt));
		ci->gcm128.rec_seq[7] = 1;
		break;
	case TLS_CIPHER_AES_CCM_128:
		memcpy(ci->ccm128.iv, "vmsiftIV", sizeof(ci->ccm128.iv));
		memcpy(ci->ccm128.salt, "SALT", sizeof(ci->ccm128.salt));
		ci->ccm128.rec_seq[7] = 1;
		break;
	case TLS_CIPHER_CHACHA20_POLY1305:
		memcpy(ci->chacha.iv, "vmsiftChaCha", sizeof(ci->chacha.iv));
		ci->chacha.rec_seq[7] = 1;
		break;
	default:
		memcpy(ci->gcm256.iv, "vmsiftIV", sizeof(ci->gcm256.iv));
		memcpy(ci->gcm256.salt, "SALT", sizeof(ci->gcm256.salt));
		ci->gcm256.rec_seq[7] = 1;
		break;
	}
}

/* Set direction OPT (TLS_TX or TLS_RX) of socket FD to KEY with cipher C
 * and read it back: the kernel must hand back the same key. */
static void ktls_set(int fd, int opt, const struct ktls_cipher *c,
		     const unsigned char *key)
{
	union ktls_info ci, got;
	socklen_t len = c->info_size;

	ktls_info(&ci, c, key);
	if (setsockopt(fd, SOL_TLS, opt, &ci, c->info_size) != 0)
		die(opt == TLS_TX ? "setsockopt TLS_TX" : "setsockopt TLS_RX");
	memset(&got, 0, sizeof(got));
	if (getsockopt(fd, SOL_TLS, opt, &got, &len) != 0)
		die("getsockopt SOL_TLS");
	if (len != c->info_size || got.info.cipher_type != c->type ||
	    memcmp(ktls_key(&got, c), key, c->key_size) != 0) {
		errno = EINVAL;
		die("getsockopt SOL_TLS: not the key set");
	}
	explicit_bzero(&ci, sizeof(ci));
	explicit_bzero(&got, sizeof(got));
}

/* Bring the loopback interface up (an initramfs leaves it down). */
static void loopback_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		die("socket");
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) != 0)
		die("SIOCGIFFLAGS lo");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) != 0)
		die("SIOCSIFFLAGS lo up");
	close(fd);
}

/* A loopback TCP connection whose client end is kTLS with cipher C and
 * keys TX and RX (SPEC "TXHEX:RXHEX"); the sockets are left open (the
 * process pauses). */
static void ktls_secret(const struct ktls_cipher *c, const char *spec)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	unsigned char tx[32], rx[32];
	const char *colon = strchr(spec, ':');
	int ls, cs, ss;

	if (!colon || (size_t)(colon - spec) != 2 * c->key_size ||
	    strlen(colon + 1) != 2 * c->key_size) {
		errno = EINVAL;
		die("-S/-G/-C/-D: TXHEX:RXHEX, each of the cipher's key size");
	}
	unhex(spec, tx, c->key_size, "-S/-G/-C/-D: the TX key");
	unhex(colon + 1, rx, c->key_size, "-S/-G/-C/-D: the RX key");
	loopback_up();
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ls = socket(AF_INET, SOCK_STREAM, 0);
	cs = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0 || cs < 0)
		die("socket");
	if (bind(ls, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(ls, 1) != 0 ||
	    getsockname(ls, (struct sockaddr *)&a, &alen) != 0)
		die("bind/listen on loopback");
	if (connect(cs, (struct sockaddr *)&a, sizeof(a)) != 0)
		die("connect to loopback");
	ss = accept(ls, NULL, NULL);
	if (ss < 0)
		die("accept");
	if (setsockopt(cs, SOL_TCP, TCP_ULP, "tls", sizeof("tls")) != 0)
		die("setsockopt TCP_ULP tls (tls module loaded?)");
	ktls_set(cs, TLS_TX, c, tx);
	ktls_set(cs, TLS_RX, c, rx);
	explicit_bzero(tx, sizeof(tx));
	explicit_bzero(rx, sizeof(rx));
	printf("HARNESS: kTLS %s connection on 127.0.0.1:%u set up (TX and RX keys read back)\n",
	       c->name, ntohs(a.sin_port));
}

/* SPEC "CIPHER:TXHEX:RXHEX" (-C, -D): ktls_secret() with that cipher. */
static void ktls_cipher_secret(const char *spec)
{
	for (size_t i = 0; i < sizeof(ktls_ciphers) / sizeof(ktls_ciphers[0]); i++) {
		size_t n = strlen(ktls_ciphers[i].name);

		if (strncmp(spec, ktls_ciphers[i].name, n) == 0 && spec[n] == ':') {
			ktls_secret(&ktls_ciphers[i], spec + n + 1);
			return;
		}
	}
	errno = EINVAL;
	die("-C/-D: CIPHER:TXHEX:RXHEX, CIPHER gcm256, gcm128, ccm128 or chacha");
}

/* Each of the N specs of -C or -D. */
static void ktls_cipher_secrets(char **specs, int n)
{
	for (int i = 0; i < n; i++)
		ktls_cipher_secret(specs[i]);
}

/* An XFRM_MSG_NEWSA request: the header, the SA, its algorithms'
 * attributes. */
struct xfrm_msg {
	struct nlmsghdr nh;
	struct xfrm_usersa_info sa;
	unsigned char attrs[512];
};

/* Append attribute TYPE (struct xfrm_algo_aead, xfrm_algo_auth or
 * xfrm_algo: NAME, then WORDS (the key's length in bits first), then
 * the key) to M. */
static void xfrm_attr(struct xfrm_msg *m, unsigned short type, const char *name,
		      const unsigned *words, size_t n_words,
		      const unsigned char *key, size_t key_len)
{
	unsigned char *at = (unsigned char *)m + NLMSG_ALIGN(m->nh.nlmsg_len);
	struct nlattr *a = (struct nlattr *)at;
	size_t len = NLA_HDRLEN + 64 + 4 * n_words + key_len;

	if (at + NLA_ALIGN(len) > (unsigned char *)(m + 1)) {
		errno = E2BIG;
		die("xfrm: attributes");
	}
	memset(at, 0, NLA_ALIGN(len));
	a->nla_type = type;
	a->nla_len = (unsigned short)len;
	snprintf((char *)at + NLA_HDRLEN, 64, "%s", name);
	memcpy(at + NLA_HDRLEN + 64, words, 4 * n_words);
	memcpy(at + NLA_HDRLEN + 64 + 4 * n_words, key, key_len);
	m->nh.nlmsg_len = NLMSG_ALIGN(m->nh.nlmsg_len) + NLA_ALIGN(len);
}

/* The kernel's message in an extended acknowledgement's attributes
 * (NLMSGERR_ATTR_MSG), AT to END; "" when none. */
static const char *xfrm_ack_msg(const unsigned char *at, const unsigned char *end)
{
	while (at + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const struct nlattr *)at;

		if (a->nla_len < NLA_HDRLEN || at + a->nla_len > end)
			break;
		if (a->nla_type == NLMSGERR_ATTR_MSG && a->nla_len > NLA_HDRLEN &&
		    at[a->nla_len - 1] == 0)
			return (const char *)at + NLA_HDRLEN;
		at += NLA_ALIGN(a->nla_len);
	}
	return "";
}

/* Send M on a NETLINK_XFRM socket and wait for the kernel's answer (an
 * acknowledgement, or its error and message). */
static void xfrm_send(struct xfrm_msg *m)
{
	struct sockaddr_nl k = { .nl_family = AF_NETLINK };
	union {
		struct nlmsghdr nh;
		unsigned char b[4096];
	} ack;
	const struct nlmsgerr *e = (const struct nlmsgerr *)NLMSG_DATA(&ack.nh);
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_XFRM), one = 1;
	ssize_t n;

	if (fd < 0)
		die("socket NETLINK_XFRM (xfrm_user loaded?)");
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	if (sendto(fd, m, m->nh.nlmsg_len, 0, (struct sockaddr *)&k, sizeof(k)) < 0)
		die("sendto NETLINK_XFRM");
	n = recv(fd, &ack, sizeof(ack), 0);
	if (n < (ssize_t)NLMSG_LENGTH(sizeof(*e)) || ack.nh.nlmsg_type != NLMSG_ERROR) {
		errno = EPROTO;
		die("XFRM_MSG_NEWSA: no acknowledgement");
	}
	if (e->error) {
		printf("HARNESS: XFRM_MSG_NEWSA: the kernel says '%s'\n",
		       xfrm_ack_msg(ack.b + NLMSG_LENGTH(sizeof(*e)), ack.b + n));
		errno = -e->error;
		die("XFRM_MSG_NEWSA (esp4, seqiv, echainiv, authenc, gcm loaded?)");
	}
	close(fd);
}

/* An ESP SA of kind KIND ("rfc4106" or "cbc") with key HEX and SPI,
 * transport mode, IPv4, to 127.0.0.1, limits infinite. */
static void xfrm_sa_secret(const char *kind, const char *hex, unsigned spi)
{
	static struct xfrm_msg m;
	unsigned char key[64];
	unsigned words[2];

	memset(&m, 0, sizeof(m));
	m.nh.nlmsg_type = XFRM_MSG_NEWSA;
	m.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	m.nh.nlmsg_len = NLMSG_LENGTH(sizeof(m.sa));
	m.sa.id.daddr.a4 = htonl(INADDR_LOOPBACK);
	m.sa.saddr.a4 = htonl(INADDR_LOOPBACK);
	m.sa.id.spi = htonl(spi);
	m.sa.id.proto = IPPROTO_ESP;
	m.sa.family = AF_INET;
	m.sa.mode = XFRM_MODE_TRANSPORT;
	m.sa.reqid = spi;
	m.sa.lft.soft_byte_limit = m.sa.lft.hard_byte_limit = XFRM_INF;
	m.sa.lft.soft_packet_limit = m.sa.lft.hard_packet_limit = XFRM_INF;
	if (strcmp(kind, "rfc4106") == 0 && strlen(hex) == 72) {
		unhex(hex, key, 36, "-x/-y rfc4106: not hex");
		words[0] = 36 * 8;	/* alg_key_len, in bits */
		words[1] = 128;		/* alg_icv_len */
		xfrm_attr(&m, XFRMA_ALG_AEAD, "rfc4106(gcm(aes))", words, 2, key, 36);
	} else if (strcmp(kind, "cbc") == 0 && strlen(hex) == 128) {
		unhex(hex, key, 64, "-x/-y cbc: not hex");
		words[0] = 32 * 8;
		xfrm_attr(&m, XFRMA_ALG_CRYPT, "cbc(aes)", words, 1, key, 32);
		words[1] = 128;		/* alg_trunc_len */
		xfrm_attr(&m, XFRMA_ALG_AUTH_TRUNC, "hmac(sha256)", words, 2, key + 32, 32);
	} else {
		errno = EINVAL;
		die("-x/-y: rfc4106:HEX (36 bytes) or cbc:HEX (64 bytes)");
	}
	xfrm_send(&m);
	explicit_bzero(&m, sizeof(m));
	explicit_bzero(key, sizeof(key));
	printf("HARNESS: IPsec SA %s spi 0x%08x added\n", kind, spi);
}

/* Each of the N specs KIND:HEX of -x (LATE 0) or -y (LATE 1). */
static void xfrm_sa_secrets(char **specs, int n, unsigned late)
{
	for (int i = 0; i < n; i++) {
		char *hex = strchr(specs[i], ':');

		if (!hex) {
			errno = EINVAL;
			die("-x/-y: KIND:HEX");
		}
		*hex++ = 0;
		xfrm_sa_secret(specs[i], hex, 0x7f510000u | late << 8 | (unsigned)(i + 1));
	}
}

/* spec_add: ARG as the next of at most 8 specs of options OPTS. */
static void spec_add(char *specs[8], int *n, const char *opts, char *arg)
{
	char what[32];

	if (*n == 8) {
		errno = E2BIG;
		snprintf(what, sizeof(what), "%s: at most 8 each", opts);
		die(what);
	}
	specs[(*n)++] = arg;
}

int main(int argc, char **argv)
{
	unsigned long anon_mb = 0, zero_mb = 0, tmpfs_mb = 0, write_mb = 0, huge_n = 0;
	int rnd_every = 0, opt;
	const char *tmpfs_path = "/tmp/workload.shm", *huge_dir = NULL;
	const char *cache_dir = NULL, *write_path = NULL, *ready = NULL;
	const char *dm_key = NULL, *user_key = NULL, *logon_key = NULL;
	const char *ktls_keys = NULL, *xts_key = NULL, *essiv_key = NULL;
	const char *kmk_key = NULL, *aesni_key = NULL;
	const char *essiv_ni_key = NULL, *ktls_ni_keys = NULL, *fscrypt_key = NULL;
	const char *authenc_key = NULL, *gcm_key = NULL, *lrw_key = NULL;
	const char *pkcs8_key = NULL, *rxrpc_key = NULL, *ceph_key = NULL;
	char *early[8], *late[8], *aead_early[8], *aead_late[8];
	char *xfrm_early[8], *xfrm_late[8];
	int n_early = 0, n_late = 0, n_aead_early = 0, n_aead_late = 0;
	int n_xfrm_early = 0, n_xfrm_late = 0;

	while ((opt = getopt(argc, argv, "a:r:z:t:T:H:P:c:w:W:R:K:U:L:S:X:E:N:A:V:G:C:D:F:I:M:O:Y:Q:J:B:Z:x:y:")) != -1) {
		switch (opt) {
		case 'a': anon_mb = strtoul(optarg, NULL, 0); break;
		case 'r': rnd_every = atoi(optarg); break;
		case 'z': zero_mb = strtoul(optarg, NULL, 0); break;
		case 't': tmpfs_mb = strtoul(optarg, NULL, 0); break;
		case 'T': tmpfs_path = optarg; break;
		case 'H': huge_n = strtoul(optarg, NULL, 0); break;
		case 'P': huge_dir = optarg; break;
		case 'c': cache_dir = optarg; break;
		case 'w': write_mb = strtoul(optarg, NULL, 0); break;
		case 'W': write_path = optarg; break;
		case 'R': ready = optarg; break;
		case 'K': dm_key = optarg; break;
		case 'U': user_key = optarg; break;
		case 'L': logon_key = optarg; break;
		case 'S': ktls_keys = optarg; break;
		case 'X': xts_key = optarg; break;
		case 'E': essiv_key = optarg; break;
		case 'N': kmk_key = optarg; break;
		case 'A': aesni_key = optarg; break;
		case 'V': essiv_ni_key = optarg; break;
		case 'G': ktls_ni_keys = optarg; break;
		case 'F': fscrypt_key = optarg; break;
		case 'I': authenc_key = optarg; break;
		case 'M': gcm_key = optarg; break;
		case 'O': lrw_key = optarg; break;
		case 'Y': pkcs8_key = optarg; break;
		case 'Q': rxrpc_key = optarg; break;
		case 'J': ceph_key = optarg; break;
		case 'B': spec_add(aead_early, &n_aead_early, "-B/-Z", optarg); break;
		case 'Z': spec_add(aead_late, &n_aead_late, "-B/-Z", optarg); break;
		case 'x': spec_add(xfrm_early, &n_xfrm_early, "-x/-y", optarg); break;
		case 'y': spec_add(xfrm_late, &n_xfrm_late, "-x/-y", optarg); break;
		case 'C':
		case 'D':
			if ((opt == 'C' ? n_early : n_late) == 8) {
				errno = E2BIG;
				die("-C/-D: at most 8 each");
			}
			if (opt == 'C')
				early[n_early++] = optarg;
			else
				late[n_late++] = optarg;
			break;
		default:
			fprintf(stderr, "usage: workload [-a MB] [-r N] [-z MB] [-t MB -T PATH] "
				"[-H N -P DIR] [-c DIR] [-w MB -W PATH] [-R PATH] "
				"[-K HEX] [-U HEX] [-L HEX] [-S TXHEX:RXHEX] [-X HEX] [-E HEX] "
				"[-N HEX] [-A HEX] [-V HEX] [-G TXHEX:RXHEX] "
				"[-C CIPHER:TXHEX:RXHEX]... [-D CIPHER:TXHEX:RXHEX]... [-F HEX] "
				"[-I HEX] [-M HEX] [-O HEX] [-Y HEX] [-Q SKHEX:TKHEX] [-J HEX] "
				"[-B KIND:HEX]... [-Z KIND:HEX]... [-x KIND:HEX]... [-y KIND:HEX]...\n");
			return 2;
		}
	}

	if (anon_mb) {
		size_t half = anon_mb * MiB / 2 & ~(HUGE - 1);
		fill(anon(half, MADV_HUGEPAGE), half, "anon-thp", rnd_every);
		fill(anon(anon_mb * MiB - half, MADV_NOHUGEPAGE), anon_mb * MiB - half,
		     "anon-4k", rnd_every);
	}
	if (zero_mb) {
		unsigned char *z = anon(zero_mb * MiB, MADV_NOHUGEPAGE);
		fill(z, zero_mb * MiB, "zeroed", 0);
		memset(z, 0, zero_mb * MiB);
	}
	if (tmpfs_mb)
		fill(shared_file(tmpfs_path, tmpfs_mb * MiB), tmpfs_mb * MiB, "tmpfs", 0);
	if (huge_n && huge_dir) {
		char path[4096];
		add_hugepages(huge_n);
		snprintf(path, sizeof(path), "%s/workload.huge", huge_dir);
		fill(shared_file(path, huge_n * HUGE), huge_n * HUGE, "hugetlb", 0);
	}
	if (cache_dir)
		read_dir(cache_dir);
	if (write_mb && write_path)
		write_synced(write_path, write_mb * MiB);
	if (dm_key)
		dm_crypt_secret("vmsift-secret", "aes-cbc-plain", dm_key);
	if (xts_key)
		dm_crypt_secret("vmsift-xts", "aes-xts-plain64", xts_key);
	if (essiv_key)
		dm_crypt_secret("vmsift-essiv", "aes-cbc-essiv:sha256", essiv_key);
	if (user_key)
		user_key_secret("user", "vmsift:secret", user_key);
	if (logon_key)
		user_key_secret("logon", "vmsift:logon", logon_key);
	if (ktls_keys)
		ktls_secret(&ktls_ciphers[0], ktls_keys);
	ktls_cipher_secrets(early, n_early);
	if (kmk_key)
		encrypted_key_secret(kmk_key);
	if (fscrypt_key)
		fscrypt_key_secret(fscrypt_key);
	if (authenc_key)
		dm_crypt_aead_secret("vmsift-authenc",
				     "capi:authenc(hmac(sha256),xts(aes))-random",
				     authenc_key, 48, "");
	if (gcm_key)
		dm_crypt_aead_secret("vmsift-gcm", "capi:gcm(aes)-random", gcm_key, 28, "");
	if (lrw_key)
		dm_crypt_secret("vmsift-lrw", "aes-lrw-benbi", lrw_key);
	if (pkcs8_key)
		pkcs8_key_secret(pkcs8_key);
	if (rxrpc_key)
		rxrpc_key_secret(rxrpc_key);
	if (ceph_key)
		ceph_key_secret(ceph_key);
	for (int i = 0; i < n_aead_early; i++)
		dm_aead_spec(aead_early[i], "");
	xfrm_sa_secrets(xfrm_early, n_xfrm_early, 0);
	if (aesni_key || essiv_ni_key || ktls_ni_keys || n_late || n_aead_late || n_xfrm_late)
		load_late_modules();
	if (aesni_key)
		dm_crypt_secret("vmsift-aesni", "aes-xts-plain64", aesni_key);
	if (essiv_ni_key)
		dm_crypt_secret("vmsift-essiv-ni", "aes-cbc-essiv:sha256", essiv_ni_key);
	if (ktls_ni_keys)
		ktls_secret(&ktls_ciphers[0], ktls_ni_keys);
	ktls_cipher_secrets(late, n_late);
	for (int i = 0; i < n_aead_late; i++)
		dm_aead_spec(aead_late[i], "-ni");
	xfrm_sa_secrets(xfrm_late, n_xfrm_late, 1);

	printf("HARNESS: workload ready (anon %lu MiB, zeroed %lu MiB, tmpfs %lu MiB, "
	       "hugetlb %lu x 2 MiB, written %lu MiB)\n",
	       anon_mb, zero_mb, tmpfs_mb, huge_dir ? huge_n : 0, write_mb);
	fflush(stdout);
	if (ready)
		close(open(ready, O_WRONLY | O_CREAT, 0644));
	for (;;)
		pause();
}
