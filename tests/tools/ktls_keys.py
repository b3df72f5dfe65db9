#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""ktls_keys.py [--tx TEXT --rx TEXT] VMCORE VMLINUX MODULE.ko... - where
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

MODULE.ko: tls.ko and gcm.ko with their DWARF (the -dbg package's).
Prints one line per place, "NAME 0xADDRESS SIZE".  --tx/--rx TEXT: the
guest's known keys (32 bytes, AES-GCM-256; each option may repeat, one
key a socket): each must be found in crypto_send/crypto_recv and at the
start of its AES key schedule, and its H = AES_K(0^128) in its GHASH
table (AES-NI: both in the internal transform's aligned context), else
exit 1.  erased_check.py imports check().
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


def aesni_child(prog, aead):
    """The internal struct crypto_tfm behind aesni_intel's simd AEAD
    (simd -> cryptd -> child), or None for another driver."""
    if module_name(aead.base) != "aesni_intel":
        return None
    cryptd = drgn.Object(prog, "struct crypto_aead",
                         address=prog.read_u64(aead.base.__crt_ctx.address_))
    name = cryptd.base.__crt_alg.cra_driver_name.string_()
    if not name.startswith(b"cryptd("):
        return None
    child = prog.read_u64(cryptd.base.__crt_ctx.address_ + 8)
    return drgn.Object(prog, "struct crypto_aead", address=child).base


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


def places(prog):
    for sk, ctx in ktls_contexts(prog):
        for d, member, priv, sw, aead in (
                ("tx", "crypto_send", "priv_ctx_tx", "tls_sw_context_tx", "aead_send"),
                ("rx", "crypto_recv", "priv_ctx_rx", "tls_sw_context_rx", "aead_recv")):
            c = ctx.member_(member)
            yield ("sock 0x%x %s tls_context.%s" % (sk, d, member), d, "info",
                   c.address_, drgn.sizeof(c.type_), c)
            p = ctx.member_(priv)
            if not p.value_():
                continue
            tfm = drgn.cast("struct %s *" % sw, p).member_(aead)
            child = aesni_child(prog, tfm)
            if child is not None:
                yield ("sock 0x%x %s %s.%s %s context" % (
                    sk, d, sw, aead,
                    child.__crt_alg.cra_driver_name.string_().decode()), d,
                    "aesni", child.__crt_ctx.address_,
                    child.__crt_alg.cra_ctxsize.value_(), None)
                continue
            a = aes_ctx(prog, tfm)
            yield ("sock 0x%x %s %s.%s crypto_aes_ctx" % (sk, d, sw, aead), d,
                   "aes", a.address_, drgn.sizeof(a.type_), a)
            t = ghash_table(prog, drgn.cast("struct %s *" % sw, p).member_(aead))
            if t:
                yield ("sock 0x%x %s %s.%s ghash table" % (sk, d, sw, aead), d,
                       "ghash", t, GF128MUL_4K, None)


WHAT = {"info": "tls_context", "aes": "AES key schedule",
        "ghash": "GHASH table (as H = AES_K(0))"}


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


def check(prog, want):
    """Every place as (name, address, size), and the places (a
    direction's WHAT) where a direction's known key in WANT ({"tx":
    [TEXT...], "rx": [TEXT...]}) was not found."""
    out, found = [], set()
    for name, d, kind, addr, size, obj in places(prog):
        out.append((name, addr, size))
        for key in want.get(d, ()):
            if kind == "info":
                ok = {kind} if prog.read(obj.aes_gcm_256.key.address_,
                                         len(key)) == key else set()
            elif kind == "aes":
                ok = {kind} if prog.read(obj.key_enc.address_,
                                         len(key)) == key else set()
            elif kind == "aesni":
                ok = aesni_holds(prog, addr, size, key)
            else:
                ok = {kind} if ghash_h(key) in prog.read(addr, size) else set()
            found.update((d, k, key) for k in ok)
    missing = ["the known %s key %r is not in any kTLS socket's %s"
               % (d, key, WHAT[k])
               for d in want for key in want[d] for k in WHAT
               if (d, k, key) not in found]
    return out, missing


def main():
    args = sys.argv[1:]
    want = {}
    while args[:1] in (["--tx"], ["--rx"]):
        want.setdefault(args[0][2:], []).append(args[1].encode())
        args = args[2:]
    prog = drgn.Program()
    prog.set_core_dump(args[0])
    prog.load_debug_info(args[1:])
    out, missing = check(prog, want)
    for name, addr, size in out:
        print("%s 0x%x %d" % (name, addr, size))
    for m in missing:
        print(m)
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
