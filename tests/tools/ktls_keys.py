#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""ktls_keys.py [--tx TEXT --rx TEXT]... VMCORE VMLINUX MODULE.ko... - where
a dead kernel holds its kTLS keys, found by drgn and DWARF alone.

The path a rule would take: every established TCP socket is on a chain
of tcp_hashinfo.ehash[0 .. ehash_mask] (hlist_nulls, through
sock.__sk_common.skc_nulls_node); a kTLS socket's
inet_connection_sock.icsk_ulp_ops is tls.ko's tls_ulp_ops (named "tls") and its
icsk_ulp_data a struct tls_context (tls.ko), whose crypto_send and
crypto_recv (union tls_crypto_context) hold the key, IV, salt and
record sequence as set by setsockopt(TLS_TX / TLS_RX).  The software
path's AEAD transforms, tls_sw_context_tx.aead_send (priv_ctx_tx) and
tls_sw_context_rx.aead_recv (priv_ctx_rx), hold the key once more:
gcm(aes)'s context (gcm.ko's struct crypto_gcm_ctx) -> its ctr(aes)
skcipher -> that one's struct skcipher_ctx_simple -> the cipher, whose
context is a struct crypto_aes_ctx (key_enc starts with the key).  The
GHASH key H = AES_K(0^128), derived from the key, is in gcm's ghash
transform: an ahash over the shash ghash-generic, whose context's one
pointer is a struct gf128mul_4k (4096 bytes, the multiples of H).
With aesni_intel loaded before the key is set (x86 hardware), gcm(aes)
is aesni_intel's generic-gcm-aesni instead: a simd wrapper whose
context's one pointer is a cryptd AEAD, whose context is { refcount_t
refcnt; struct crypto_aead *child; }; the child, aesni_intel's internal
__generic-gcm-aesni, holds both keys in its context (cra_ctxsize bytes),
a struct generic_gcmaes_ctx aligned up to 16 bytes inside it:
hash_subkey[16] (H itself), then the struct crypto_aes_ctx.  Its DWARF
is aesni-intel.ko's, not needed: the layout is checked by the known key
and H at those offsets.

AES-GCM-128 takes the same transforms.  AES-CCM-128 (tls_sw's
"ccm(aes)") is ccm.ko's ccm_base(ctr, cbcmac): its struct crypto_ccm_ctx
points to the ctr skcipher (ctr.ko's template: skcipher_ctx_simple ->
the cipher's crypto_aes_ctx; or AES-NI's simd ctr-aes-aesni -> cryptd
-> __ctr-aes-aesni, the schedule at its context's first 16-byte
boundary) and to the mac, an ahash over the shash cbcmac(aes), whose
struct cbcmac_tfm_ctx points to the cipher (aes-generic, or aes-aesni:
aligned likewise).  ChaCha20-Poly1305 (rfc7539(chacha20,poly1305),
chacha20poly1305.ko): its struct chachapoly_ctx points to the chacha20
skcipher (chacha20-generic or chacha20-simd), whose context is a struct
chacha_ctx starting with the key; poly1305's transform has no key.

MODULE.ko: tls.ko, gcm.ko, ccm.ko and chacha20poly1305.ko with their
DWARF (the -dbg package's).  Prints one line per place, "NAME 0xADDRESS
SIZE".  --tx/--rx TEXT: the guest's known keys (each option may repeat,
one key a socket): each must be in one socket's crypto_send/crypto_recv
and in every other place of that socket's direction (the start of an
AES schedule or ChaCha20 context, H = AES_K(0^128) in a GHASH table,
AES-NI's aligned contexts), else exit 1.  erased_check.py imports
check().
"""
import sys

import drgn
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from drgn.helpers.linux.list_nulls import hlist_nulls_for_each_entry


def tfm_ctx(prog, tfm, ctype):
    """The context after a struct crypto_tfm, as a CTYPE object."""
    return drgn.Object(prog, ctype, address=tfm.__crt_ctx.address_)


def aes_ctx(prog, aead):
    """The struct crypto_aes_ctx under a gcm(aes) struct crypto_aead *."""
    gcm = tfm_ctx(prog, aead.base, "struct crypto_gcm_ctx")
    simple = tfm_ctx(prog, gcm.ctr.base, "struct skcipher_ctx_simple")
    return tfm_ctx(prog, simple.cipher.base, "struct crypto_aes_ctx")


GF128MUL_4K = 256 * 16     # struct gf128mul_4k: be128 t[256]


def ghash_h(key):
    """GCM's hash key for KEY: AES_KEY(0^128)."""
    enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return enc.update(b"\0" * 16) + enc.finalize()


def ghash_table(prog, aead):
    """The address of the GHASH table under a gcm(aes) struct crypto_aead
    *, when its ghash is ghash-generic (an shash): else None."""
    gh = tfm_ctx(prog, aead.base, "struct crypto_gcm_ctx").ghash
    if gh.base.__crt_alg.cra_driver_name.string_() != b"ghash-generic":
        return None
    shash = drgn.cast("struct crypto_shash *", gh.base.__crt_ctx[0])
    return prog.read_u64(shash.base.__crt_ctx.address_)


AESNI_ALIGN = 16


def module_name(tfm):
    """The name of the module of a struct crypto_tfm's algorithm."""
    mod = tfm.__crt_alg.cra_module
    return mod.name.string_().decode() if mod.value_() else "vmlinux"


def ktls_contexts(prog):
    """(sock address, struct tls_context) of every kTLS socket."""
    hi = prog["tcp_hashinfo"]
    for i in range(hi.ehash_mask.value_() + 1):
        head = hi.ehash[i].chain.address_of_()
        for sk in hlist_nulls_for_each_entry("struct sock", head,
                                             "__sk_common.skc_nulls_node"):
            icsk = drgn.cast("struct inet_connection_sock *", sk)
            ops = icsk.icsk_ulp_ops
            if not ops.value_() or ops.name.string_() != b"tls":
                continue
            yield sk.value_(), drgn.cast("struct tls_context *",
                                                        icsk.icsk_ulp_data)


def deref_tfm(prog, addr, ctype):
    """The struct crypto_tfm (member base) of the CTYPE ("struct
    crypto_aead", "struct crypto_skcipher", ...) that the word at ADDR
    points to."""
    return drgn.Object(prog, ctype, address=prog.read_u64(addr)).base


def aesni_inner(prog, tfm, ctype):
    """The internal struct crypto_tfm behind an aesni_intel simd wrapper
    TFM, the base of a CTYPE (a one-pointer context: -> the cryptd CTYPE
    -> its context's second word, the child), or None when TFM is not
    one."""
    if module_name(tfm) != "aesni_intel" or tfm.__crt_alg.cra_ctxsize != 8:
        return None
    cryptd = deref_tfm(prog, tfm.__crt_ctx.address_, ctype)
    if not cryptd.__crt_alg.cra_driver_name.string_().startswith(b"cryptd("):
        return None
    return deref_tfm(prog, cryptd.__crt_ctx.address_ + 8, ctype)


def cipher_place(prog, tfm, what):
    """A block cipher's context as a place: aes-generic's struct
    crypto_aes_ctx ("aes": the key at its start), or AES-NI's, aligned
    up to 16 bytes inside cra_ctxsize ("aesalign")."""
    kind = "aesalign" if module_name(tfm) == "aesni_intel" else "aes"
    return ("%s %s" % (what, tfm.__crt_alg.cra_driver_name.string_().decode()),
            kind, tfm.__crt_ctx.address_, tfm.__crt_alg.cra_ctxsize.value_())


def ctr_places(prog, ctr, what):
    """The key schedule of a ctr(aes) skcipher: ctr.ko's template over a
    block cipher (struct skcipher_ctx_simple), or AES-NI's ctr-aes-aesni
    (simd -> cryptd -> __ctr-aes-aesni, the schedule aligned)."""
    inner = aesni_inner(prog, ctr, "struct crypto_skcipher")
    if inner is not None:
        yield cipher_place(prog, inner, what)
        return
    simple = tfm_ctx(prog, ctr, "struct skcipher_ctx_simple")
    yield cipher_place(prog, simple.cipher.base, what)


def ccm_places(prog, aead, what):
    """ccm.ko's ccm_base(ctr, cbcmac): its struct crypto_ccm_ctx's ctr
    skcipher and its mac, an ahash over the shash cbcmac(aes), whose
    struct cbcmac_tfm_ctx points to the block cipher: two schedules."""
    ccm = tfm_ctx(prog, aead, "struct crypto_ccm_ctx")
    yield from ctr_places(prog, ccm.ctr.base, what + " ctr")
    shash = deref_tfm(prog, ccm.mac.base.__crt_ctx.address_,
                      "struct crypto_shash")
    mac = tfm_ctx(prog, shash, "struct cbcmac_tfm_ctx")
    yield cipher_place(prog, mac.child.base, what + " cbcmac")


def chacha_places(prog, aead, what):
    """chacha20poly1305.ko's rfc7539(chacha20, poly1305): its struct
    chachapoly_ctx's chacha skcipher (chacha20-generic or chacha20-simd),
    whose context is a struct chacha_ctx (key[8]: the key).  poly1305
    has no key in its transform (a one-time key per record)."""
    cp = tfm_ctx(prog, aead, "struct chachapoly_ctx")
    t = cp.chacha.base
    yield ("%s %s" % (what, t.__crt_alg.cra_driver_name.string_().decode()),
           "chacha", t.__crt_ctx.address_, t.__crt_alg.cra_ctxsize.value_())
    # the poly1305 ahash's shash: a context would be a place the rules
    # miss (check() then says the key is not in it)
    p = deref_tfm(prog, cp.poly.base.__crt_ctx.address_, "struct crypto_shash")
    if p.__crt_alg.cra_ctxsize.value_():
        yield ("%s %s context" % (
            what, p.__crt_alg.cra_driver_name.string_().decode()),
            "poly", p.__crt_ctx.address_, p.__crt_alg.cra_ctxsize.value_())


def aead_places(prog, obj, what):
    """(name, kind, address, size) of each place under a kTLS direction's
    AEAD (OBJ, a struct crypto_aead) that holds its key or one derived
    from it."""
    aead = obj.base
    mod = module_name(aead)
    inner = aesni_inner(prog, aead, "struct crypto_aead")
    if inner is not None:
        yield ("%s %s context" % (
            what, inner.__crt_alg.cra_driver_name.string_().decode()),
            "aesni", inner.__crt_ctx.address_,
            inner.__crt_alg.cra_ctxsize.value_())
    elif mod == "gcm":
        a = aes_ctx(prog, obj)
        yield (what + " crypto_aes_ctx", "aes", a.address_,
               drgn.sizeof(a.type_))
        t = ghash_table(prog, obj)
        if t:
            yield (what + " ghash table", "ghash", t, GF128MUL_4K)
    elif mod == "ccm":
        yield from ccm_places(prog, aead, what)
    elif mod == "chacha20poly1305":
        yield from chacha_places(prog, aead, what)


KEY_MEMBER = {51: "aes_gcm_128", 52: "aes_gcm_256", 53: "aes_gcm_128",  # the same layout (6.1 has no aes_ccm_128 member)
              54: "chacha20_poly1305"}


def places(prog):
    """(socket, direction, name, kind, address, size, key member) of each
    place of each kTLS socket's directions."""
    for sk, ctx in ktls_contexts(prog):
        for d, member, priv, sw, aead in (
                ("tx", "crypto_send", "priv_ctx_tx", "tls_sw_context_tx", "aead_send"),
                ("rx", "crypto_recv", "priv_ctx_rx", "tls_sw_context_rx", "aead_recv")):
            c = ctx.member_(member)
            ct = c.info.cipher_type.value_()
            key = (c.member_(KEY_MEMBER[ct]).key.address_
                   if ct in KEY_MEMBER else c.address_)
            yield (sk, d, "sock 0x%x %s tls_context.%s" % (sk, d, member),
                   "info", c.address_, drgn.sizeof(c.type_), key)
            p = ctx.member_(priv)
            if not p.value_():
                continue
            tfm = drgn.cast("struct %s *" % sw, p).member_(aead)[0]
            for name, kind, addr, size in aead_places(
                    prog, tfm, "sock 0x%x %s %s.%s" % (sk, d, sw, aead)):
                yield sk, d, name, kind, addr, size, None


WHAT = {"info": "tls_context", "aes": "AES key schedule",
        "aesalign": "AES-NI AES key schedule",
        "ghash": "GHASH table (as H = AES_K(0))",
        "aesni": "AES-NI GCM context (H, key schedule)",
        "chacha": "ChaCha20 context",
        "poly": "Poly1305 context (no rule erases it)"}


def aesni_holds(prog, addr, size, key):
    """The kinds ("aes", "ghash") of KEY found in an AES-NI internal
    context of SIZE bytes at ADDR: its struct generic_gcmaes_ctx starts
    at the first 16-byte boundary (hash_subkey = H, then the AES key
    schedule), and ends inside the context (cra_ctxsize counts the
    alignment's slack)."""
    base = (addr + AESNI_ALIGN - 1) & ~(AESNI_ALIGN - 1)
    if base + AESNI_ALIGN + 484 > addr + size:
        return set()
    kinds = set()
    if prog.read(base + AESNI_ALIGN, len(key)) == key:
        kinds.add("aes")
    if prog.read(base, AESNI_ALIGN) == ghash_h(key):
        kinds.add("ghash")
    return kinds


def holds(prog, kind, addr, size, keyat, key):
    """Whether the place of KIND at ADDR (SIZE bytes; KEYAT: where a
    tls_context's union keeps the key) holds KEY as that kind must."""
    if kind == "info":
        return prog.read(keyat, len(key)) == key
    if kind in ("aes", "chacha"):
        return prog.read(addr, len(key)) == key
    if kind == "aesalign":
        base = (addr + AESNI_ALIGN - 1) & ~(AESNI_ALIGN - 1)
        return base + 484 <= addr + size and prog.read(base, len(key)) == key
    if kind == "aesni":
        return aesni_holds(prog, addr, size, key) == {"aes", "ghash"}
    if kind == "poly":
        return False
    return ghash_h(key) in prog.read(addr, size)


def check(prog, want):
    """Every place as (name, address, size), and what is wrong: a
    direction's known key in WANT ({"tx": [TEXT...], "rx": [TEXT...]})
    must be in one socket's tls_context for that direction and in every
    other place of that socket's direction."""
    out, groups = [], {}
    for sk, d, name, kind, addr, size, keyat in places(prog):
        out.append((name, addr, size))
        groups.setdefault((sk, d), []).append((name, kind, addr, size, keyat))
    missing = []
    for d in want:
        for key in want[d]:
            mine = [g for (sk, gd), g in groups.items() if gd == d and
                    holds(prog, "info", *g[0][2:], key)]
            if not mine:
                missing.append("the known %s key %r is not in any kTLS "
                               "socket's tls_context" % (d, key))
                continue
            for name, kind, addr, size, keyat in mine[0][1:]:
                if not holds(prog, kind, addr, size, keyat, key):
                    missing.append("the known %s key %r is not in %s (%s)"
                                   % (d, key, name, WHAT[kind]))
            if len(mine[0]) == 1:
                missing.append("the known %s key %r: its socket has no "
                               "transform" % (d, key))
    return out, missing


def report(args, check_fn, want):
    """Open the dump args[0] with the debug files args[1:], print each
    place check_fn(prog, want) finds ("NAME 0xADDR SIZE") and each miss,
    and exit 1 if something was missed."""
    prog = drgn.Program()
    prog.set_core_dump(args[0])
    prog.load_debug_info(args[1:])
    out, missing = check_fn(prog, want)
    for name, addr, size in out:
        print("%s 0x%x %d" % (name, addr, size))
    for m in missing:
        print(m)
    sys.exit(1 if missing else 0)


def main():
    args = sys.argv[1:]
    want = {}
    while args[:1] in (["--tx"], ["--rx"]):
        if not args[1]:
            sys.exit("%s: an empty key" % args[0])
        want.setdefault(args[0][2:], []).append(args[1].encode())
        args = args[2:]
    report(args, check, want)


if __name__ == "__main__":
    main()
