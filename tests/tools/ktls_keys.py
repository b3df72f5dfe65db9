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
context is a struct crypto_aes_ctx (key_enc starts with the key).

MODULE.ko: tls.ko and gcm.ko with their DWARF (the -dbg package's).
Prints one line per place, "NAME 0xADDRESS SIZE".  --tx/--rx TEXT: the
guest's known keys (32 bytes, AES-GCM-256): each must be found in
crypto_send/crypto_recv and at the start of its AES key schedule, else
exit 1.
"""
import sys

import drgn
from drgn.helpers.linux.list_nulls import hlist_nulls_for_each_entry


def tfm_ctx(prog, tfm, ctype):
    """The context after a struct crypto_tfm, as a CTYPE object."""
    return drgn.Object(prog, ctype, address=tfm.__crt_ctx.address_)


def aes_ctx(prog, aead):
    """The struct crypto_aes_ctx under a gcm(aes) struct crypto_aead *."""
    gcm = tfm_ctx(prog, aead.base, "struct crypto_gcm_ctx")
    simple = tfm_ctx(prog, gcm.ctr.base, "struct skcipher_ctx_simple")
    return tfm_ctx(prog, simple.cipher.base, "struct crypto_aes_ctx")


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
            a = aes_ctx(prog, drgn.cast("struct %s *" % sw, p).member_(aead))
            yield ("sock 0x%x %s %s.%s crypto_aes_ctx" % (sk, d, sw, aead), d,
                   "aes", a.address_, drgn.sizeof(a.type_), a)


def main():
    args = sys.argv[1:]
    want = {}
    while args[:1] in (["--tx"], ["--rx"]):
        want[args[0][2:]] = args[1].encode()
        args = args[2:]
    prog = drgn.Program()
    prog.set_core_dump(args[0])
    prog.load_debug_info(args[1:])
    found = set()
    for name, d, kind, addr, size, obj in places(prog):
        print("%s 0x%x %d" % (name, addr, size))
        key = want.get(d)
        if key is None:
            continue
        if kind == "info":
            have = prog.read(obj.aes_gcm_256.key.address_, len(key))
        else:
            have = prog.read(obj.key_enc.address_, len(key))
        if have == key:
            found.add((d, kind))
    bad = [(d, k) for d in want for k in ("info", "aes") if (d, k) not in found]
    for d, k in bad:
        print("the known %s key is not in any kTLS socket's %s" %
              (d, "tls_context" if k == "info" else "AES key schedule"))
    sys.exit(1 if bad else 0)


main()
