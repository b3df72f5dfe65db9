#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""erased_check.py [--key TEXT]... [--dm-key TEXT... [--schedule TEXT]...
--ko KO...] [--encrypted] [--ktls-tx TEXT --ktls-rx TEXT [--ktls-lib] --ko KO...]
[--tfm-neighbours] [--xfrm KIND:SPI:KEY:MORE... [--xfrm-only] --ko KO...]
RAW VMLINUX DUMP... - the shipped
secrets rules (data/erase/secrets.conf) applied to RAW gave each DUMP the
right bytes.

Where the secrets are comes from drgn and the kernel's DWARF (VMLINUX),
not from vmsift: base_crng.key, input_pool.hash, every possible CPU's
crngs.key (drgn's per_cpu), the payload of every "user" and "logon"
key (drgn's rbtree walk of key_serial_tree, each payload.data[0] a struct
user_key_payload) and of every "fscrypt-provisioning" key (a struct
fscrypt_provisioning_key_payload, key.datalen bytes).  In RAW they hold data (not all zeros, not all 'X');
in every DUMP, read back by libkdumpfile, they are all 'X'
(makedumpfile's erase byte) and the 64 bytes on either side are RAW's.
--key TEXT: one of the user, logon or fscrypt keys' payloads (an
fscrypt key's: its raw key) is TEXT (the
harness's known keys), so the check cannot pass by finding no key.
--dm-key TEXT with --ko dm-mod.ko --ko dm-crypt.ko (their DWARF, from the
-dbg package): the dm-crypt mappings' secrets too, found by drgn from
dm_mod's name_rb_tree (each struct hash_cell's md->map, a struct
dm_table, its num_targets targets; a target of dm_crypt's crypt_target
type has a struct crypt_config): the key (key_size bytes), each cipher
transform's context (cra_ctxsize bytes), and the block cipher's context
behind a template over one (the AES key schedule); one key must be TEXT
(and, given --schedule TEXT, one schedule must hold it: AES-256's
expanded key begins with the key), so the check cannot pass by finding
no mapping.
The other modes' schedules, each told by drgn from the transform's
driver name (cra_driver_name), not by the symbols the rules compare:
"xts(...)" (a template instance: context = child skcipher, tweak
cipher; the child "ecb(...)" holds a pointer to its block cipher),
"essiv(...)" (context = child skcipher, ESSIV cipher; the child "cbc(...)"
the same) and a driver of module aesni_intel (context = a cryptd
skcipher whose context's second word is the internal transform holding
the schedules).  --dm-key may repeat; --schedule TEXT (may repeat): one
erased schedule context holds TEXT (hex:HEX for bytes: the ESSIV
cipher's key is the SHA-256 of the mapping's key).  --encrypted: the payload of
every "encrypted" key (struct encrypted_key_payload's decrypted_data,
decrypted_datalen bytes) too, and there must be one.
--ktls-tx/--ktls-rx TEXT with --ko tls.ko --ko gcm.ko --ko ccm.ko --ko
chacha20poly1305.ko: every kTLS socket's tls_context.crypto_send and
crypto_recv and the places of each direction's transforms (AES key
schedules, GHASH tables, AES-NI contexts, ChaCha20 contexts), found by
drgn (ktls_keys.py's walk of tcp_hashinfo.ehash); each known key must
be found in its socket's places, so the check cannot pass by finding
no socket.  --ktls-lib (7.x, whose gcm runs on the
AES library, without a ctr(aes) cipher's schedule or ghash-generic's
table): each known key must be in its tls_context and in its
direction's AEAD transform's context instead (tls.ko's DWARF only).
The bytes around a place are RAW's, except where another place (erased
too) lies: crypto_send and crypto_recv are neighbours, so are an essiv
child's context and a key payload.
--xfrm KIND:SPI:KEY:MORE with --ko gcm.ko --ko authenc.ko: every IPsec
SA's keys (xfrm_state's aead, aalg, ealg) and the places of ESP's
transforms (rfc4106's salt, gcm's schedule and GHASH table, AES-NI's
rfc4106 context, the HMAC's states, cbc's schedules), found by drgn
(xfrm_keys.py's walk of every namespace's xfrm.state_all); each known
SA (xfrm_keys.py's --sa) must hold its keys in every place its kind
has, so the check cannot pass by finding no SA.  --xfrm-only: those
places alone (DUMP written with the IPsec rules alone: the kernel's
other secrets are not checked).
--tfm-neighbours: bytes around a place may also be the whole context of
a crypto transform (a struct crypto_tfm's __crt_ctx, cra_ctxsize bytes
of an algorithm in crypto_alg_list, or of a dead one: CRYPTO_ALG_DEAD,
out of the list), all 'X': the places of the
dm-crypt rules found without dm_mod's DWARF (6.12 and 7.x, whose
modules drgn 0.0.22 cannot load).
--print-encrypted RAW VMLINUX: print each encrypted key's decrypted
bytes in hex, one a line, and exit (for a grep of the whole dump).
Exit 0, or 1 with what differed.
"""
import os
import sys

import drgn
import kdumpfile
from drgn.helpers.linux.cpumask import for_each_possible_cpu
from drgn.helpers.linux.list import list_for_each_entry
from drgn.helpers.linux.percpu import per_cpu
from drgn.helpers.linux.rbtree import rbtree_inorder_for_each_entry

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktls_keys  # noqa: E402
import xfrm_keys  # noqa: E402

PAD = 64
ALGS = {}  # crypto_alg_list: address -> struct crypto_alg (one program)


def key_payloads(prog):
    """(name, address, size, bytes) of each user and logon key's data,
    and of each fscrypt-provisioning key's whole payload (its bytes: the
    raw key)."""
    types = {prog["key_type_user"].address_: "user",
             prog["key_type_logon"].address_: "logon"}
    try:
        fscrypt = prog["key_type_fscrypt_provisioning"].address_
    except KeyError:  # a kernel without CONFIG_FS_ENCRYPTION
        fscrypt = None
    root = prog["key_serial_tree"].address_of_()
    for k in rbtree_inorder_for_each_entry("struct key", root, "serial_node"):
        if k.type.value_() == fscrypt and k.payload.data[0].value_():
            p = drgn.cast("struct fscrypt_provisioning_key_payload *",
                          k.payload.data[0])
            n = k.datalen.value_()
            yield ("fscrypt-provisioning key %d payload" % k.serial.value_(),
                   p.value_(), n, prog.read(p.raw.address_, n - 8))
            continue
        kind = types.get(k.type.value_())
        if kind is None:
            continue
        p = drgn.cast("struct user_key_payload *", k.payload.data[0])
        if not p.value_():
            continue
        n = p.datalen.value_()
        yield ("%s key %d payload" % (kind, k.serial.value_()),
               p.data.address_, n, prog.read(p.data.address_, n))


def dm_tables(prog):
    """Each mapped device's live struct dm_table."""
    root = prog["name_rb_tree"].address_of_()
    for hc in rbtree_inorder_for_each_entry("struct hash_cell", root,
                                            "name_node"):
        table = drgn.cast("struct dm_table *", hc.md.map)
        if table.value_():
            yield hc.name.string_().decode(), table


def ctx_word(prog, tfm, i):
    """Word I of a transform's context, a pointer (0 if NULL)."""
    return prog.read_u64(tfm.__crt_ctx.address_ + 8 * i)


def child_tfm(prog, tfm, i, kind):
    """The struct crypto_tfm of the KIND ("skcipher" or "cipher")
    transform that context word I of TFM points to, or None."""
    p = ctx_word(prog, tfm, i)
    if not p:
        return None
    return drgn.Object(prog, "struct crypto_%s" % kind, address=p).base


def driver(tfm):
    return tfm.__crt_alg.cra_driver_name.string_().decode()


def module_of(tfm):
    mod = tfm.__crt_alg.cra_module
    return mod.name.string_().decode() if mod.value_() else "vmlinux"


def block_cipher(prog, tfm):
    """The block cipher behind TFM, a cbc, ecb or ctr transform: its
    context's first word, followed through each further cbc or ecb in
    between (6.8 and later: cbc(ecb(aes-generic)), an lskcipher holding a
    pointer to the next, ecb's to the cipher)."""
    child = child_tfm(prog, tfm, 0, "cipher")
    while child is not None and driver(child).startswith(("cbc(", "ecb(")):
        child = child_tfm(prog, child, 0, "cipher")
    return child


def hmac_shash(prog, tfm):
    """The shash behind an ahash transform TFM (an ahash over a shash
    keeps a pointer to it as its context), or None."""
    return child_tfm(prog, tfm, 0, "shash")


def table_places(prog, tfm):
    """(what, address, size) of the GF(2^128) tables derived from a key
    behind TFM: gcm's GHASH (ghash-generic: a pointer to a struct
    gf128mul_4k, the multiples of H = AES_K(0)) and lrw's tweak table
    (struct lrw_tfm_ctx's second word, a struct gf128mul_64k: 16
    pointers to struct gf128mul_4k, the multiples of the tweak key)."""
    name = driver(tfm)
    out = []
    if name.startswith("gcm_base("):
        ghash = child_tfm(prog, tfm, 1, "ahash")
        shash = hmac_shash(prog, ghash) if ghash is not None else None
        if shash is not None and driver(shash) == "ghash-generic":
            out.append(("ghash table", ctx_word(prog, shash, 0), 4096))
    if name.startswith("lrw("):
        table = ctx_word(prog, tfm, 1)
        for i in range(16 if table else 0):
            out.append(("lrw table %d" % i, prog.read_u64(table + 8 * i), 4096))
    return out


def schedules(prog, tfm):
    """(what, struct crypto_tfm) of each block cipher context that holds
    key material behind TFM: cbc's or ecb's cipher, xts's child's cipher
    and tweak cipher, essiv's child's cipher and ESSIV cipher, authenc's
    hmac state and enc (and what is behind enc), gcm's ctr cipher,
    rfc7539's chacha, AES-NI's internal transform behind simd and cryptd
    (an skcipher's or an AEAD's: generic-gcm-aesni, rfc4106-gcm-aesni)."""
    name = driver(tfm)
    if name.startswith("cbc(") or name.startswith("ecb("):
        return [("cipher", block_cipher(prog, tfm))]
    if name.startswith("xts(") or name.startswith("essiv("):
        child = child_tfm(prog, tfm, 0, "skcipher")
        side = "tweak" if name.startswith("xts(") else "essiv"
        out = [(side + " cipher", child_tfm(prog, tfm, 1, "cipher")),
               ("child context", child)]
        return out + [("child " + w, t) for w, t in schedules(prog, child)]
    if name.startswith("authenc("):
        # struct crypto_authenc_ctx { auth (an ahash over hmac's shash,
        # whose context holds the ipad and opad states), enc, null }
        shash = hmac_shash(prog, child_tfm(prog, tfm, 0, "ahash"))
        enc = child_tfm(prog, tfm, 1, "skcipher")
        out = [("hmac state", shash), ("enc context", enc)]
        return out + [("enc " + w, t) for w, t in schedules(prog, enc)]
    if name.startswith("gcm_base("):
        return [("ctr cipher", block_cipher(prog, child_tfm(prog, tfm, 0, "skcipher")))]
    if name.startswith("lrw("):
        child = child_tfm(prog, tfm, 0, "skcipher")
        return ([("child context", child)] +
                [("child " + w, t) for w, t in schedules(prog, child)])
    if name.startswith("rfc7539("):
        # struct chachapoly_ctx { chacha (skcipher: its struct chacha_ctx
        # begins with the key), poly (no key), ... }
        return [("chacha context", child_tfm(prog, tfm, 0, "skcipher"))]
    if module_of(tfm) == "aesni_intel" and not name.startswith("__"):
        cryptd = child_tfm(prog, tfm, 0, "skcipher")
        if cryptd is not None and driver(cryptd).startswith("cryptd("):
            return [("aes-ni internal", child_tfm(prog, cryptd, 1, "skcipher"))]
    return []


def tfm_contexts(prog, name, cc):
    """(name, address, size, bytes) of each transform's context and of
    every schedule behind it (schedules()); the context itself holds the
    schedule where the driver is no template over a cipher (7.x:
    cbc-aes-lib, xts-aes-lib, aesni_intel's xts without cryptd)."""
    aead = cc.cipher_flags.value_() & (1 << prog["CRYPT_MODE_INTEGRITY_AEAD"].value_())
    for i in range(cc.tfms_count.value_()):
        if aead:
            tfm = cc.cipher_tfm.tfms_aead[i].base
        else:
            tfm = cc.cipher_tfm.tfms[i].base
        size = tfm.__crt_alg.cra_ctxsize.value_()
        yield ("%s tfm %d context" % (name, i), tfm.__crt_ctx.address_,
               size, prog.read(tfm.__crt_ctx.address_, size))
        for what, child in schedules(prog, tfm):
            size = child.__crt_alg.cra_ctxsize.value_()
            yield ("%s tfm %d %s %s" % (name, i, what, driver(child)),
                   child.__crt_ctx.address_, size,
                   prog.read(child.__crt_ctx.address_, size))
        for what, addr, size in table_places(prog, tfm):
            yield ("%s tfm %d %s" % (name, i, what), addr, size,
                   prog.read(addr, size))


def dm_secrets(prog, dm_keys, scheds_want):
    """(name, address, size) of every dm-crypt key and key schedule; each
    of DM_KEYS is a key, each of SCHEDS_WANT in a schedule's context (the
    start of AES's expanded key is the key; AES-NI's xts context holds
    the tweak key's after up to 15 bytes of alignment, then the data
    key's)."""
    out, keys, scheds = [], [], []
    crypt = prog["crypt_target"].address_
    for name, table in dm_tables(prog):
        for i in range(table.num_targets.value_()):
            ti = table.targets[i]
            if ti.type.value_() != crypt:
                continue
            cc = drgn.cast("struct crypt_config *", ti.private)
            n = cc.key_size.value_()
            out.append(("dm %s key" % name, cc.key.address_, n))
            keys.append(prog.read(cc.key.address_, n))
            for ctx in tfm_contexts(prog, "dm " + name, cc):
                out.append(ctx[:3])
                if ctx[3] is not None:
                    scheds.append(ctx[3])
    for want in dm_keys:
        if want not in keys:
            print("no dm-crypt key (%d found) is %r" % (len(keys), want))
            sys.exit(1)
    for want in scheds_want:
        if not any(want in s for s in scheds):
            print("no key schedule (%d found) holds %r" % (len(scheds), want))
            sys.exit(1)
    return out


def ima_places(prog):
    """(name, address, size, bytes) of the payloads IMA queued (ima_keys:
    each asymmetric key's add_key payload, before IMA's policy is loaded;
    none on a kernel without the queue).  secrets.conf erases them in
    every dump, known keys or not: they are expected erased wherever
    they lie beside another place."""
    try:
        head = prog["ima_keys"].address_of_()
    except KeyError:
        return
    for e in list_for_each_entry("struct ima_key_entry", head, "list"):
        n = e.payload_len.value_()
        yield ("IMA's queued key payload for %s" % e.keyring_name.string_().decode(),
               e.payload.value_(), n, prog.read(e.payload.value_(), n))


def module_key_places(prog):
    """(name, address, size, bytes) of the secrets of the key types whose
    modules are loaded: an
    "asymmetric" key's private key (a struct
    public_key with key_is_private: key, keylen bytes), each rxkad token
    of an "rxrpc" key (rxrpc.ko's struct rxrpc_key_token list: the
    struct rxkad_key's session_key and ticket), a "ceph" key's (libceph's
    struct ceph_crypto_key: key, len bytes) and its cbc(aes)
    transform's context (tfm; 7.x: aes_tfm) and, behind the cbc
    template, the AES key schedule."""
    root = prog["key_serial_tree"].address_of_()
    kinds = {}
    for sym in ("key_type_asymmetric", "key_type_rxrpc", "key_type_ceph"):
        try:
            kinds[prog[sym].address_] = sym
        except KeyError:  # its module not loaded (or no --ko for it)
            pass
    for k in rbtree_inorder_for_each_entry("struct key", root, "serial_node"):
        kind = kinds.get(k.type.value_())
        p = k.payload.data[0]
        if kind is None or not p.value_():
            continue
        serial = k.serial.value_()
        if kind == "key_type_asymmetric":
            pub = drgn.cast("struct public_key *", p)
            if pub.key_is_private:
                n = pub.keylen.value_()
                yield ("asymmetric key %d private key" % serial,
                       pub.key.value_(), n, prog.read(pub.key.value_(), n))
        elif kind == "key_type_rxrpc":
            t = drgn.cast("struct rxrpc_key_token *", p)
            while t.value_():
                if t.security_index.value_() == 2:  # RXRPC_SECURITY_RXKAD
                    kad = t.kad
                    yield ("rxrpc key %d session key" % serial,
                           kad.session_key.address_, 8,
                           prog.read(kad.session_key.address_, 8))
                    n = kad.ticket_len.value_()
                    yield ("rxrpc key %d ticket" % serial,
                           kad.ticket.address_, n,
                           prog.read(kad.ticket.address_, n))
                t = t.next
        else:
            ck = drgn.cast("struct ceph_crypto_key *", p)
            n = ck.len.value_()
            yield ("ceph key %d key" % serial, ck.key.value_(), n,
                   prog.read(ck.key.value_(), n))
            try:
                ptr = ck.tfm
            except AttributeError:  # 7.x: aes_tfm, an AES key's (type 1)
                ptr = ck.aes_tfm if ck.type.value_() == 1 else None
            if ptr is not None and ptr.value_():
                tfm = ptr.base.base
                size = tfm.__crt_alg.cra_ctxsize.value_()
                yield ("ceph key %d tfm context %s" % (serial, driver(tfm)),
                       tfm.__crt_ctx.address_, size,
                       prog.read(tfm.__crt_ctx.address_, size))
                if not driver(tfm).startswith("cbc("):
                    continue  # 7.x's cbc-aes-lib: the schedule is its context
                cipher = block_cipher(prog, tfm)
                size = cipher.__crt_alg.cra_ctxsize.value_()
                sched = prog.read(cipher.__crt_ctx.address_, size)
                if not sched.startswith(prog.read(ck.key.value_(), n)):
                    print("ceph key %d: its schedule (%s) does not start with"
                          " its key" % (serial, driver(cipher)))
                    sys.exit(1)
                yield ("ceph key %d schedule %s" % (serial, driver(cipher)),
                       cipher.__crt_ctx.address_, size, sched)


def sha256_state(block):
    """The SHA-256 state after one 64-byte BLOCK from the initial one, as
    the kernel's sha256 export writes its words (little-endian u32s):
    HMAC-SHA256's ipad or opad state."""
    k = [int(x, 16) for x in (
        "428a2f98 71374491 b5c0fbcf e9b5dba5 3956c25b 59f111f1 923f82a4 ab1c5ed5 "
        "d807aa98 12835b01 243185be 550c7dc3 72be5d74 80deb1fe 9bdc06a7 c19bf174 "
        "e49b69c1 efbe4786 0fc19dc6 240ca1cc 2de92c6f 4a7484aa 5cb0a9dc 76f988da "
        "983e5152 a831c66d b00327c8 bf597fc7 c6e00bf3 d5a79147 06ca6351 14292967 "
        "27b70a85 2e1b2138 4d2c6dfc 53380d13 650a7354 766a0abb 81c2c92e 92722c85 "
        "a2bfe8a1 a81a664b c24b8b70 c76c51a3 d192e819 d6990624 f40e3585 106aa070 "
        "19a4c116 1e376c08 2748774c 34b0bcb5 391c0cb3 4ed8aa4a 5b9cca4f 682e6ff3 "
        "748f82ee 78a5636f 84c87814 8cc70208 90befffa a4506ceb bef9a3f7 c67178f2").split()]
    h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
         0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]

    def ror(x, n):
        return (x >> n | x << (32 - n)) & 0xffffffff
    w = [int.from_bytes(block[4 * i:4 * i + 4], "big") for i in range(16)]
    for i in range(16, 64):
        s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ w[i - 15] >> 3
        s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ w[i - 2] >> 10
        w.append((w[i - 16] + s0 + w[i - 7] + s1) & 0xffffffff)
    a, b, c, d, e, f, g, hh = h
    for i in range(64):
        t1 = (hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + (e & f ^ ~e & g)
              + k[i] + w[i]) & 0xffffffff
        t2 = ((ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + (a & b ^ a & c ^ b & c)) & 0xffffffff
        a, b, c, d, e, f, g, hh = (t1 + t2) & 0xffffffff, a, b, c, (d + t1) & 0xffffffff, e, f, g
    return b"".join(((x + y) & 0xffffffff).to_bytes(4, "little")
                    for x, y in zip(h, (a, b, c, d, e, f, g, hh)))


def hmac_states(key):
    """HMAC-SHA256's ipad and opad states for KEY (at most 64 bytes)."""
    block = key.ljust(64, b"\0")
    return [sha256_state(bytes(x ^ pad for x in block)) for pad in (0x36, 0x5c)]


def encrypted_payloads(prog):
    """(name, address, size) of every encrypted key's decrypted data."""
    root = prog["key_serial_tree"].address_of_()
    kind = prog["key_type_encrypted"].address_
    for k in rbtree_inorder_for_each_entry("struct key", root, "serial_node"):
        if k.type.value_() != kind:
            continue
        p = drgn.cast("struct encrypted_key_payload *", k.payload.data[0])
        if p.value_():
            yield ("encrypted key %d decrypted data" % k.serial.value_(),
                   p.decrypted_data.value_(), p.decrypted_datalen.value_())
def ktls_aead_contexts(prog):
    """(name, address, size, direction) of each kTLS direction's AEAD
    transform's own context (the rules erase it whatever the driver:
    7.x's AES library keeps its key there)."""
    for sk, ctx in ktls_keys.ktls_contexts(prog):
        for d, priv, sw, aead in (
                ("tx", "priv_ctx_tx", "tls_sw_context_tx", "aead_send"),
                ("rx", "priv_ctx_rx", "tls_sw_context_rx", "aead_recv")):
            p = ctx.member_(priv)
            if not p.value_():
                continue
            a = drgn.cast("struct %s *" % sw, p).member_(aead).base
            yield ("sock 0x%x %s %s.%s context" % (sk, d, sw, aead),
                   a.__crt_ctx.address_, a.__crt_alg.cra_ctxsize.value_(), d)


def ktls_lib_check(prog, keys):
    """The places of ktls_keys.check() less the schedule and GHASH table
    behind gcm(ctr(aes)), which 7.x's AES library does not have
    (--ktls-lib): each known key must be in its direction's tls_context
    and, as the start of its expanded key, in its AEAD's context."""
    out, found = [], set()
    for sk, ctx in ktls_keys.ktls_contexts(prog):
        for d, member in (("tx", "crypto_send"), ("rx", "crypto_recv")):
            c = ctx.member_(member)
            out.append(("sock 0x%x %s tls_context.%s" % (sk, d, member),
                        c.address_, drgn.sizeof(c.type_)))
            got = prog.read(c.aes_gcm_256.key.address_, 32)
            found.update((d, "tls_context", k) for k in keys.get(d, ())
                         if got.startswith(k))
    for name, addr, size, d in ktls_aead_contexts(prog):
        data = prog.read(addr, size)
        found.update((d, "AEAD context", k) for k in keys.get(d, ())
                     if k in data)
    return out, ["the known %s key %r is not in any kTLS socket's %s"
                 % (d, k, what) for d in keys for k in keys[d]
                 for what in ("tls_context", "AEAD context")
                 if (d, what, k) not in found]


def ktls_secrets(prog, keys, lib=False):
    """(name, address, size) of every kTLS place; each known key (a
    direction: its TEXT) must be in its tls_context, AES schedule and
    GHASH table (LIB: ktls_lib_check())."""
    out, missing = (ktls_lib_check if lib else ktls_keys.check)(prog, keys)
    if missing:
        print("\n".join(missing))
        sys.exit(1)
    return out + [p[:3] for p in ktls_aead_contexts(prog)
                  if not lib or p[:3] not in out]


def xfrm_secrets(prog, want):
    """(name, address, size) of every IPsec SA's place; each known SA of
    WANT must hold its keys in each of its places (xfrm_keys.check())."""
    out, missing = xfrm_keys.check(prog, want)
    if missing:
        print("\n".join(missing))
        sys.exit(1)
    return out


def expected(ref, start, places):
    """REF (RAW's bytes from START) with every place in it erased."""
    b = bytearray(ref)
    for _, addr, size in places:
        lo, hi = max(addr, start), min(addr + size, start + len(ref))
        if lo < hi:
            b[lo - start:hi - start] = b"X" * (hi - lo)
    return bytes(b)


def dead_alg(prog, addr):
    """The struct crypto_alg at ADDR when it is one the kernel took out
    of crypto_alg_list (a better driver came: CRYPTO_ALG_DEAD, its
    cra_list linked to itself) while transforms still use it, or None."""
    try:
        alg = drgn.Object(prog, "struct crypto_alg *", addr)
        if (alg.cra_flags.value_() & 0x20 and
                alg.cra_list.next.value_() == alg.cra_list.address_):
            return alg
    except drgn.FaultError:
        pass
    return None


def ctx_neighbours(prog, got, want_out, start):
    """The places, among the bytes where GOT (a dump's bytes from START)
    differs from WANT_OUT, that are the whole context of a crypto
    transform (--tfm-neighbours): a run of 'X' starting at a struct
    crypto_tfm's __crt_ctx whose __crt_alg is an algorithm of
    crypto_alg_list (or a dead one, dead_alg), as long as its
    cra_ctxsize (or up to the end of GOT).  Bytes that changed otherwise are left for the caller to
    report."""
    if not ALGS:
        ALGS.update((a.value_(), a) for a in list_for_each_entry(
            "struct crypto_alg", prog["crypto_alg_list"].address_of_(),
            "cra_list"))
    algs = ALGS
    back = (drgn.offsetof(prog.type("struct crypto_tfm"), "__crt_ctx")
            - drgn.offsetof(prog.type("struct crypto_tfm"), "__crt_alg"))
    out, i = [], 0
    while i < len(got):
        if got[i] == want_out[i] or got[i] != ord("X"):
            i += 1
            continue
        addr = start + i
        alg = algs.get(prog.read_u64(addr - back)) or dead_alg(
            prog, prog.read_u64(addr - back))
        if alg is None:
            i += 1
            continue
        size = alg.cra_ctxsize.value_()
        end = min(i + size, len(got))
        if size and got[i:end] == b"X" * (end - i):
            out.append(("context of %s at 0x%x" % (
                alg.cra_driver_name.string_().decode(), addr), addr, size))
            i = end
        else:
            i += 1
    return out


def read_around(k, addr, size, want_out):
    """A dump's SIZE bytes at ADDR and PAD on either side; a page on
    either side that the dump left out (a free page beside a slab
    object at a page's edge: -d 31 excludes it) reads as WANT_OUT."""
    got = bytearray()
    a, end = addr - PAD, addr + size + PAD
    while a < end:
        stop = min((a // 4096 + 1) * 4096, end)
        try:
            got += k.read(kdumpfile.KDUMP_KVADDR, a, stop - a)
        except kdumpfile.exceptions.NoDataException:
            if a < addr + size and stop > addr:
                raise
            got += want_out[a - addr + PAD:stop - addr + PAD]
        a = stop
    return bytes(got)


def secrets(prog, want):
    out = []
    for sym, member in (("base_crng", "key"), ("input_pool", "hash")):
        obj = prog[sym]
        m = obj.member_(member)
        out.append(("%s.%s" % (sym, member), m.address_, drgn.sizeof(m.type_)))
    for cpu in for_each_possible_cpu(prog):
        m = per_cpu(prog["crngs"], cpu).key
        out.append(("CPU %d crngs.key" % cpu, m.address_, drgn.sizeof(m.type_)))
    found = set()
    for name, addr, size, data in key_payloads(prog):
        out.append((name, addr, size))
        found.add(data)
    for key in want:
        if key not in found:
            print("no user or logon key holds %r" % key)
            sys.exit(1)
    return out


def check_places(prog, raw, found, dumps, tfm_ok=False):
    """Each place of FOUND ((name, address, size), drgn's, in RAW) all
    'X' in every DUMP, the bytes around it RAW's: the number of faults."""
    bad = 0
    for name, addr, size in found:
        ref = prog.read(addr - PAD, size + 2 * PAD)
        want_out = expected(ref, addr - PAD, found)
        secret = ref[PAD:PAD + size]
        if secret in (b"\0" * size, b"X" * size):
            # A key the kernel or a program made may hold zeros (6.12
            # and 7.3 guests have one): still checked erased below; the
            # known keys (--key) are what proves the check is not empty.
            print("%s in %s holds no data: %r" % (name, raw, secret[:16]))
            bad += (" key " not in name and not name.startswith("dm ")
                    and not name.startswith("sock "))
        for path in dumps:
            k = kdumpfile.kdumpfile(path)
            k.attr["addrxlat.ostype"] = "linux"
            got = read_around(k, addr, size, want_out)
            if got[PAD:PAD + size] != b"X" * size:
                print("%s: %s at 0x%x (%d bytes) not erased: %r"
                      % (path, name, addr, size, got[PAD:PAD + 16]))
                bad += 1
            if tfm_ok and got != want_out:
                near = ctx_neighbours(prog, got, want_out, addr - PAD)
                want_out = expected(ref, addr - PAD, found + near)
                for what, _, _ in near:
                    print("%s: beside %s: %s, erased" % (path, name, what),
                          file=sys.stderr)
            if got[:PAD] != want_out[:PAD] or got[PAD + size:] != want_out[PAD + size:]:
                print("%s: bytes around %s changed" % (path, name))
                bad += 1
        print("%s at 0x%x, %d bytes: checked in %d dump(s)"
              % (name, addr, size, len(dumps)), file=sys.stderr)
    return bad


def arg_bytes(text):
    return bytes.fromhex(text[4:]) if text.startswith("hex:") else text.encode()


def main():
    args = sys.argv[1:]
    want, kos, dm_keys, scheds, enc, ktls = [], [], [], [], False, {}
    mod_keys, xfrm = [], []
    tfm_ok = lib = xfrm_only = False
    if args[:1] == ["--print-hmac"]:
        # the ipad and opad states of HMAC-SHA256 with key ARG, in hex
        print("\n".join(st.hex() for st in hmac_states(arg_bytes(args[1]))))
        return
    if args[:1] == ["--print-encrypted"]:
        prog = drgn.Program()
        prog.set_core_dump(args[1])
        prog.load_debug_info([args[2]])
        for _, addr, size in encrypted_payloads(prog):
            print(prog.read(addr, size).hex())
        return
    while args[:1] in (["--key"], ["--dm-key"], ["--ko"], ["--schedule"],
                       ["--encrypted"], ["--ktls-tx"], ["--ktls-rx"],
                       ["--tfm-neighbours"], ["--ktls-lib"], ["--hmac"],
                       ["--module-key"], ["--ghash-key"], ["--xfrm"],
                       ["--xfrm-only"]):
        if args[0] in ("--encrypted", "--tfm-neighbours", "--ktls-lib",
                       "--xfrm-only"):
            enc = enc or args[0] == "--encrypted"
            xfrm_only = xfrm_only or args[0] == "--xfrm-only"
            tfm_ok = tfm_ok or args[0] == "--tfm-neighbours"
            lib = lib or args[0] == "--ktls-lib"
            args = args[1:]
            continue
        if args[0] == "--key":
            want.append(args[1].encode())
        elif args[0] == "--ko":
            kos.append(args[1])
        elif args[0] == "--schedule":
            scheds.append(arg_bytes(args[1]))
        elif args[0] == "--hmac":
            scheds += hmac_states(arg_bytes(args[1]))
        elif args[0] == "--ghash-key":
            scheds.append(ktls_keys.ghash_h(arg_bytes(args[1])))
        elif args[0] == "--module-key":
            mod_keys.append(arg_bytes(args[1]))
        elif args[0] == "--dm-key":
            dm_keys.append(args[1].encode())
        elif args[0] == "--xfrm":
            xfrm.append(xfrm_keys.parse_sa(args[1]))
        else:
            if not args[1]:
                sys.exit("%s: an empty key" % args[0])
            ktls.setdefault(args[0][-2:], []).append(args[1].encode())
        args = args[2:]
    raw, vmlinux, dumps = args[0], args[1], args[2:]
    prog = drgn.Program()
    prog.set_core_dump(raw)
    prog.load_debug_info([vmlinux] + kos)
    if xfrm_only:
        sys.exit(1 if check_places(prog, raw, xfrm_secrets(prog, xfrm),
                                   dumps) else 0)
    bad = 0
    found = secrets(prog, want)
    queued = list(ima_places(prog))
    found += [p[:3] for p in queued]
    if mod_keys:
        places = list(module_key_places(prog))
        for key in mod_keys:
            if not any(key in p[3] for p in places + queued):
                print("no asymmetric, rxrpc or ceph key's place (%d found)"
                      " holds %r" % (len(places + queued), key))
                sys.exit(1)
        found += [p[:3] for p in places]
    if dm_keys:
        found += dm_secrets(prog, dm_keys, scheds)
    if enc:
        payloads = list(encrypted_payloads(prog))
        if not payloads:
            print("no encrypted key in %s" % raw)
            sys.exit(1)
        found += payloads
    if ktls:
        found += ktls_secrets(prog, ktls, lib)
    if xfrm:
        found += xfrm_secrets(prog, xfrm)
    bad += check_places(prog, raw, found, dumps, tfm_ok)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
