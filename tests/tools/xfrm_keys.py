#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""xfrm_keys.py [--sa KIND:SPI:KEY:MORE]... VMCORE VMLINUX MODULE.ko... -
where a dead kernel holds its IPsec SAs' keys, found by drgn and DWARF
alone.

The path a rule would take: every network namespace (net_namespace_list)
has its xfrm states on net.xfrm.state_all, a list_head through
xfrm_state.km.all (a dump walker there is a lone struct xfrm_state_walk
of state XFRM_STATE_DEAD, skipped).  A state keeps its keys as set:
aead (struct xfrm_algo_aead), aalg (struct xfrm_algo_auth), ealg
(struct xfrm_algo), each alg_key_len bits long.  ESP's (id.proto 50)
data is its struct crypto_aead: a geniv template (seqiv, echainiv) whose
context is a struct aead_geniv_ctx, the child AEAD in it:
  rfc4106 over gcm.ko's gcm(aes): rfc4106's struct crypto_rfc4106_ctx
  (the 4-byte salt in nonce), then gcm's AES key schedule and GHASH table
  (ktls_keys.py's walk);
  rfc4106-gcm-aesni (aesni_intel loaded first): a simd wrapper ->
  cryptd -> __rfc4106-gcm-aesni, whose context holds, from its first
  16-byte boundary, H, the AES key schedule and the salt;
  authenc(hmac(sha256),cbc(aes)): struct crypto_authenc_ctx's auth (an
  ahash over the shash hmac(sha256-generic): its context holds the
  key's ipad and opad states) and enc (cbc's template over aes-generic:
  the schedule behind its one pointer; or cbc-aes-aesni: simd -> cryptd
  -> __cbc-aes-aesni, the schedule aligned), and enc's own context.

6.7+ (6.12): cbc(aes) is cbc(ecb(aes-generic)), lskciphers, the schedule
three steps on (erased_check.block_cipher()); 6.11+'s AES-NI rfc4106
(__rfc4106-gcm-aesni-avx) keeps the schedule then the salt, its bytes
reversed, from its first 16-byte boundary, and H only in another form.
7.x (7.3): struct aead_geniv_ctx is { child, salt[] }, the child first
(seqiv.ko's DWARF says where; without it 6.x's second word); its drivers
(rfc4106-gcm-aes-lib, rfc4106-gcm-aesni-avx, cbc-aes-lib, cbc-aes-aesni,
no simd or cryptd) keep the keys in their own contexts.

MODULE.ko: gcm.ko, authenc.ko, and for 7.x seqiv.ko (their DWARF, the
-dbg package's).
Prints one line per place, "NAME 0xADDRESS SIZE".  --sa KIND:SPI:KEY:MORE
(texts without ':'): the guest's known SA of that SPI holds them: KIND
rfc4106 (KEY the AES key, MORE the salt) or cbc (KEY the AES key, MORE
the HMAC key); each must be found in every place of its SA, and the SA
must have every place its kind has, else exit 1.  erased_check.py
imports check().
"""
import sys

import drgn
from drgn.helpers.linux.list import list_for_each_entry

import ktls_keys
from ktls_keys import AESNI_ALIGN, GF128MUL_4K, tfm_ctx

XFRM_STATE_DEAD = 5
IPPROTO_ESP = 50
AES_CTX = 484          # struct crypto_aes_ctx


def states(prog):
    """Every live struct xfrm_state of every network namespace."""
    for net in list_for_each_entry("struct net",
                                   prog["net_namespace_list"].address_of_(),
                                   "list"):
        for x in list_for_each_entry("struct xfrm_state",
                                     net.xfrm.state_all.address_of_(),
                                     "km.all"):
            if x.km.state.value_() != XFRM_STATE_DEAD:
                yield x


def spi(x):
    """The SA's SPI as a number (id.spi is big-endian)."""
    return int.from_bytes(x.id.spi.value_().to_bytes(4, "little"), "big")


def driver(tfm):
    return tfm.__crt_alg.cra_driver_name.string_().decode()


def own_context(tfm, what, kind):
    return ("%s %s context" % (what, driver(tfm)), kind,
            tfm.__crt_ctx.address_, tfm.__crt_alg.cra_ctxsize.value_())


def gcm_places(prog, child, what):
    """rfc4106 over gcm.ko's gcm(aes): rfc4106's context (the salt), the
    schedule and GHASH table of its child."""
    yield own_context(child, what, "salt")
    gcm = tfm_ctx(prog, child, "struct crypto_rfc4106_ctx").child
    a = ktls_keys.aes_ctx(prog, gcm)
    yield (what + " gcm crypto_aes_ctx", "aes", a.address_, AES_CTX)
    table = ktls_keys.ghash_table(prog, gcm)
    if table:
        yield (what + " gcm ghash table", "ghash", table, GF128MUL_4K)


def authenc_places(prog, child, what):
    """authenc(hmac(...),cbc(aes)): the HMAC's context, enc's own context
    and the schedule behind it (cbc's template or AES-NI's)."""
    ac = tfm_ctx(prog, child, "struct crypto_authenc_ctx")
    shash = ktls_keys.deref_tfm(prog, ac.auth.base.__crt_ctx.address_,
                                "struct crypto_shash")
    yield own_context(shash, what + " auth", "hmac")
    enc = ac.enc.base
    inner = ktls_keys.aesni_inner(prog, enc, "struct crypto_skcipher")
    if inner is not None:
        yield own_context(enc, what + " enc", "none")
        yield own_context(inner, what + " enc", "aesalign")
    elif driver(enc).startswith("cbc("):
        from erased_check import block_cipher
        yield own_context(enc, what + " enc", "none")
        yield own_context(block_cipher(prog, enc), what + " enc", "aes")
    else:
        # 7.x: a driver (cbc-aes-lib, cbc-aes-aesni without simd and
        # cryptd) with the schedule in its own context
        yield own_context(enc, what + " enc", "aeslib")


def geniv_child(prog, geniv):
    """The AEAD under a geniv template's transform GENIV: struct
    aead_geniv_ctx's child, its second word up to 6.x (after a
    spinlock), its first on 7.x (no lock); the offset from the DWARF of
    seqiv.ko or echainiv.ko when loaded, else 6.x's."""
    try:
        off = drgn.offsetof(prog.type("struct aead_geniv_ctx"), "child")
    except LookupError:
        off = 8
    return drgn.Object(prog, "struct crypto_aead",
                       address=prog.read_u64(geniv.__crt_ctx.address_ + off)).base


def sa_places(prog, x):
    """(name, kind, address, size) of each place of state X."""
    what = "spi 0x%08x" % spi(x)
    for member in ("aead", "aalg", "ealg"):
        alg = x.member_(member)
        if alg.value_():
            yield ("%s %s.alg_key" % (what, member), member,
                   alg.alg_key.address_, (alg.alg_key_len.value_() + 7) // 8)
    if x.id.proto.value_() != IPPROTO_ESP or not x.data.value_():
        return
    geniv = drgn.cast("struct crypto_aead *", x.data).base
    child = geniv_child(prog, geniv)
    name = driver(child)
    inner = ktls_keys.aesni_inner(prog, child, "struct crypto_aead")
    if inner is not None:
        kind = "aesni4106" if driver(inner) == "__rfc4106-gcm-aesni" else "aesgcm4106"
        yield own_context(inner, what, kind)
    elif ktls_keys.module_name(child) == "gcm":
        yield from gcm_places(prog, child, what)
    elif name.startswith("authenc("):
        yield from authenc_places(prog, child, what)
    elif name.startswith("rfc4106"):
        # 7.x: rfc4106-gcm-aes-lib or rfc4106-gcm-aesni-avx without simd
        # and cryptd, the schedule and salt in its own context
        yield own_context(child, what, "lib4106")


# what each KIND of place must hold, and which of KIND rfc4106 / cbc's
# places an SA must have
KINDS = {"rfc4106": [{"aead", "salt", "aes", "ghash"}, {"aead", "aesni4106"},
                     {"aead", "aesgcm4106"}, {"aead", "lib4106"}],
         "cbc": [{"aalg", "ealg", "hmac", "none", "aes"},
                 {"aalg", "ealg", "hmac", "none", "aesalign"},
                 {"aalg", "ealg", "hmac", "aeslib"}]}


def holds(prog, kind, addr, size, key, more):
    """Whether the place of KIND at ADDR (SIZE bytes) holds the SA's KEY
    (and MORE: rfc4106's salt, authenc's HMAC key) as it must."""
    data = prog.read(addr, size)
    base = (addr + AESNI_ALIGN - 1) & ~(AESNI_ALIGN - 1)
    if kind == "aead":
        return data == key + more
    if kind == "aalg":
        return data == more
    if kind == "ealg":
        return data == key
    if kind == "salt":
        return data[8:12] == more    # crypto_rfc4106_ctx: child, nonce[4]
    if kind == "aes":
        return data.startswith(key)
    if kind == "ghash":
        return ktls_keys.ghash_h(key) in data
    if kind == "aesalign":
        return (base + AES_CTX <= addr + size and
                prog.read(base, len(key)) == key)
    if kind == "aesni4106":
        # struct aesni_rfc4106_gcm_ctx: hash_subkey (H), the schedule,
        # nonce[4], from the first 16-byte boundary
        end = base + AESNI_ALIGN + AES_CTX + 4
        return (end <= addr + size and
                ktls_keys.aesni_holds(prog, addr, size, key) == {"aes", "ghash"}
                and prog.read(end - 4, 4) == more)
    if kind == "aesgcm4106":
        # 6.11+'s rewritten AES-NI GCM (__rfc4106-gcm-aesni-avx, ...):
        # struct aes_gcm_key from the first 16-byte boundary, the AES
        # key schedule then the salt as a u32 read big-endian (its bytes
        # reversed, 6.12 as seen); H follows only as its powers, in
        # another form
        end = base + AES_CTX + 4
        return (end <= addr + size and prog.read(base, len(key)) == key
                and prog.read(end - 4, 4) == more[::-1])
    if kind == "aeslib":
        return key in data
    if kind == "lib4106":
        return key in data and (more in data or more[::-1] in data)
    if kind == "hmac":
        from erased_check import hmac_states
        return all(st in data for st in hmac_states(more))
    return kind == "none"


def check(prog, want):
    """Every place as (name, address, size), and what is wrong: each SA
    of WANT ([(kind, spi, key, more)]) must be there, have the places its
    kind has, and hold its keys in each."""
    out, by_spi = [], {}
    for x in states(prog):
        for name, kind, addr, size in sa_places(prog, x):
            out.append((name, addr, size))
            by_spi.setdefault(spi(x), []).append((name, kind, addr, size))
    missing = []
    for kind, n, key, more in want:
        got = by_spi.get(n, [])
        kinds = {p[1] for p in got}
        if kinds not in KINDS[kind]:
            missing.append("SA spi 0x%08x (%s): places %s, not one of %s"
                           % (n, kind, sorted(kinds), KINDS[kind]))
        for name, pk, addr, size in got:
            if not holds(prog, pk, addr, size, key, more):
                missing.append("SA spi 0x%08x: its keys are not in %s (%s)"
                               % (n, name, pk))
    return out, missing


def parse_sa(spec):
    """KIND:SPI:KEY:MORE as (kind, spi, key bytes, more bytes)."""
    kind, n, key, more = spec.split(":")
    if kind not in KINDS or not key or not more:
        sys.exit("--sa %s: KIND (rfc4106 or cbc):SPI:KEY:MORE" % spec)
    return kind, int(n, 0), key.encode(), more.encode()


def main():
    args = sys.argv[1:]
    want = []
    while args[:1] == ["--sa"]:
        want.append(parse_sa(args[1]))
        args = args[2:]
    ktls_keys.report(args, check, want)


if __name__ == "__main__":
    main()
