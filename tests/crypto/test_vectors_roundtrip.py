"""fixtures/vectors/*.json against the code, in both directions (SPEC.md section 13).

1. The committed files are exactly what fixtures/make_vectors.py writes now, so a code
   change that alters any byte of the format fails here until the vectors (and SPEC.md)
   are updated on purpose.
2. Every case is recomputed from its inputs by the code (and, where it is short, by an
   independent re-derivation from the SPEC.md formulas with hashlib/hmac), and every
   output the verifier consumes (encodings, proofs, notes, signatures, ciphertexts,
   the bundle) is accepted by the verifying side of the code.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import importlib.util
import io
import json
import pathlib
import struct
from unittest import mock

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from afteraction.engine.crypto import canon
from afteraction.engine.crypto import commit as C
from afteraction.engine.crypto import dice as D
from afteraction.engine.crypto import hashing as H
from afteraction.engine.crypto import merkle as M
from afteraction.engine.crypto import note as N
from afteraction.engine.errors import CryptoError, EncodingError, VerificationError
from afteraction.engine import protocol as R
from afteraction.engine.log.bundle import read_bundle
from afteraction.engine.log.verify import verify_bundle
from afteraction.engine.referee import command_signing_bytes, verify_command_signature
from afteraction.v1 import envelope_pb2

REPO = pathlib.Path(__file__).resolve().parents[2]
VEC = REPO / "fixtures" / "vectors"


def _load_generator():
    spec = importlib.util.spec_from_file_location("make_vectors", REPO / "fixtures" / "make_vectors.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


GEN = _load_generator()
from_tj = GEN.from_tj


def load(name: str) -> dict:
    return json.loads((VEC / name).read_text(encoding="utf-8"))


def x(h: str) -> bytes:
    return bytes.fromhex(h)


def sha(tag: str, data: bytes) -> bytes:
    """SPEC.md 2, written out again: SHA-256(utf8(tag) || 0x00 || data)."""
    return hashlib.sha256(tag.encode() + b"\x00" + data).digest()


def lp(b: bytes) -> bytes:
    return len(b).to_bytes(4, "big") + b


# -- 1. the files are the generator's output --------------------------------------------
def test_vector_files_equal_a_fresh_generation(tmp_path):
    GEN.write(tmp_path)
    fresh = sorted(p.name for p in tmp_path.glob("*.json"))
    committed = sorted(p.name for p in VEC.glob("*.json"))
    assert fresh == committed, "fixtures/vectors/*.json differs from the generator's file list: run `make vectors`"
    for name in fresh:
        assert (tmp_path / name).read_text(encoding="utf-8") == (VEC / name).read_text(encoding="utf-8"), \
            f"fixtures/vectors/{name} is stale: the format changed; run `make vectors`, review, update SPEC.md"


def test_every_vector_file_has_the_common_shape():
    for p in VEC.glob("*.json"):
        d = json.loads(p.read_text(encoding="utf-8"))
        assert isinstance(d["description"], str) and d["description"]
        assert isinstance(d["spec_section"], str) and d["spec_section"]
        assert d["cases"]


def test_generator_writes_only_vectors_and_is_deterministic():
    a, b = GEN.build(), GEN.build()
    assert {k: GEN.render(v) for k, v in a.items()} == {k: GEN.render(v) for k, v in b.items()}
    assert all(k.endswith(".json") for k in a)


# -- 2. SPEC.md 1: canonical encoding ------------------------------------------------------
def test_canonical_encoding_both_directions():
    d = load("canonical.json")
    for c in d["cases"]:
        v = from_tj(c["value"])
        assert canon.encode(v).hex() == c["hex"], c["name"]
        assert canon.decode(x(c["hex"])) == v, c["name"]


def test_canonical_rejects_every_listed_non_canonical_input():
    d = load("canonical.json")
    assert len(d["rejected"]) >= 20
    for c in d["rejected"]:
        with pytest.raises(EncodingError):
            canon.decode(x(c["hex"]))


# -- SPEC.md 2: tagged hashes ----------------------------------------------------------------
def test_tagged_hashes_cover_every_tag_and_match_the_formula():
    d = load("hashing.json")
    assert [c["tag"] for c in d["cases"]] == list(H.TAGS)
    for c in d["cases"]:
        data, key = x(c["data"]), x(c["hmac_key"])
        assert c["prefix"] == (c["tag"].encode() + b"\x00").hex()
        assert H.tagged_hash(c["tag"], data).hex() == c["sha256"] == sha(c["tag"], data).hex()
        want = hmac.new(key, c["tag"].encode() + b"\x00" + data, hashlib.sha256).hexdigest()
        assert H.tagged_hmac(key, c["tag"], data).hex() == c["hmac_sha256"] == want
    for h in d["helpers"]:
        fn = {"u64": H.u64, "u32": lambda n: struct.pack(">I", n), "lp": lambda s: H.lp(s.encode())}[h["fn"]]
        assert fn(h["input"]).hex() == h["hex"]


# -- SPEC.md 1.2-1.4, 3: records and the chain ------------------------------------------------------
def test_records_reproduce_and_parse():
    for c in load("records.json")["cases"] + load("game.json")["cases"]:
        rec = from_tj(c["record"])
        made = R.make_record(rec["game"], rec["seq"], rec["prev"], rec["kind"], rec["body"], rec["v"])
        assert made.raw.hex() == c["raw"]
        parsed = R.parse_record(x(c["raw"]))
        assert (parsed.game, parsed.seq, parsed.prev, parsed.kind, parsed.body) == \
            (rec["game"], rec["seq"], rec["prev"], rec["kind"], rec["body"])
        assert parsed.hash.hex() == c["hash"] == sha("aar1/record", x(c["raw"])).hex()
        assert parsed.leaf.hex() == c["leaf"] == hashlib.sha256(b"\x00" + x(c["hash"])).hexdigest()


def test_records_vector_has_every_kind():
    kinds = {c["kind"] for c in load("records.json")["cases"]}
    assert kinds == set(R.KINDS)


def test_chain_links_every_record_to_the_one_before():
    d = load("chain.json")
    game = {c["seq"]: c for c in load("game.json")["cases"]}
    prev = bytes(32).hex()
    for c in d["cases"]:
        assert c["prev"] == prev
        assert c["hash"] == game[c["seq"]]["hash"]
        prev = c["hash"]


# -- SPEC.md 4: Merkle tree ------------------------------------------------------------------
def test_merkle_roots_and_proofs_both_directions():
    d = load("merkle.json")
    leaves = [x(c["leaf"]) for c in load("game.json")["cases"]]
    t = d["cases"]
    for r in t["roots"]:
        assert M.root_from_leaf_hashes(leaves[: r["size"]]).hex() == r["root"]
        assert M._mth(leaves[: r["size"]]).hex() == r["root"]
    for c in t["inclusion"]:
        proof = [x(p) for p in c["proof"]]
        assert M.inclusion_proof(leaves[: c["size"]], c["index"]) == proof
        M.verify_inclusion(c["index"], c["size"], x(c["leaf"]), proof, x(c["root"]))
    for c in t["consistency"]:
        proof = [x(p) for p in c["proof"]]
        assert M.consistency_proof(leaves[: c["size2"]], c["size1"]) == proof
        M.verify_consistency(c["size1"], c["size2"], proof, x(c["root1"]), x(c["root2"]))
    n = len(leaves)
    assert len(t["inclusion"]) == n * (n + 1) // 2 and len(t["consistency"]) == n * (n + 1) // 2


def test_merkle_primitives_and_rejections():
    d = load("merkle.json")
    for p in d["primitives"]:
        if p["op"] == "empty_root":
            assert M.EMPTY_ROOT.hex() == p["hex"] == hashlib.sha256(b"").hexdigest()
        elif p["op"] == "leaf":
            assert M.leaf_hash(x(p["input"])).hex() == p["hex"]
        else:
            assert M.node_hash(x(p["left"]), x(p["right"])).hex() == p["hex"] == \
                hashlib.sha256(b"\x01" + x(p["left"]) + x(p["right"])).hexdigest()
    for b in d["rejected"]:
        with pytest.raises(CryptoError):
            if b["check"] == "consistency":
                M.verify_consistency(b["size1"], b["size2"], [x(p) for p in b["proof"]], x(b["root1"]), x(b["root2"]))
            else:
                M.verify_inclusion(b["index"], b["size"], x(b["leaf"]), [x(p) for p in b["proof"]], x(b["root"]))


# -- SPEC.md 4: checkpoints and signed notes ---------------------------------------------------
def test_checkpoint_key_strings_and_notes():
    d = load("checkpoint.json")
    k = d["key"]
    s = N.Signer(k["name"], x(k["seed"]))
    assert s.public.hex() == k["public"] and s.key_id.hex() == k["key_id"]
    assert hashlib.sha256(x(k["key_id_input"])).hexdigest()[:8] == k["key_id"]
    assert s.verifier.vkey == k["vkey"] and s.skey == k["skey"]
    assert N.parse_vkey(k["vkey"]).public.hex() == k["public"]
    assert N.parse_skey(k["skey"]).seed.hex() == k["seed"]
    v = N.parse_vkey(k["vkey"])
    for c in d["cases"]:
        cp = N.Checkpoint(c["origin"], c["size"], x(c["root"]))
        assert cp.text() == c["text"] == f"{c['origin']}\n{c['size']}\n{base64.b64encode(x(c['root'])).decode()}\n"
        assert c["text"].encode().hex() == c["signed_bytes"]
        assert N.sign_checkpoint(cp, s) == c["note"]
        assert c["note"] == c["text"] + "\n\u2014 " + k["name"] + " " + \
            base64.b64encode(x(c["sig_line_payload"])).decode() + "\n"
        assert x(c["sig_line_payload"]) == x(k["key_id"]) + x(c["signature"])
        Ed25519PublicKey.from_public_bytes(x(k["public"])).verify(x(c["signature"]), x(c["signed_bytes"]))
        assert N.open_checkpoint(c["note"], v) == cp


def test_game_checkpoints_open_with_the_game_server_key():
    g = load("game.json")
    v = N.parse_vkey(g["game"]["server_vkey"])
    roots = {r["size"]: r["root"] for r in load("merkle.json")["cases"]["roots"]}
    for c in load("checkpoint.json")["game"]:
        cp = N.open_checkpoint(c["note"], v)
        assert cp.text() == c["text"]
        assert cp.size == c["seq"] + 1 and cp.root.hex() == roots[cp.size]
        assert cp.origin == f"afteraction.test/game/{g['game']['game']}"


# -- SPEC.md 7: command signing -----------------------------------------------------------------
def test_command_envelopes_signatures_and_signed_commands():
    d = load("commands.json")
    from afteraction.engine.seat import SeatSigner

    actions = set()
    for c in d["cases"]:
        env_b, sig = x(c["envelope"]), x(c["signature"])
        assert command_signing_bytes(env_b).hex() == c["signing_bytes"] == (b"aar1/command\x00" + env_b).hex()
        signer = SeatSigner(c["seat"], x(c["seat_seed"]))
        assert signer.public.hex() == c["seat_public"]
        assert verify_command_signature(x(c["seat_public"]), env_b, sig)
        assert not verify_command_signature(x(c["seat_public"]), env_b + b"\x00", sig)
        env = envelope_pb2.CommandEnvelope.FromString(env_b)
        assert GEN.envelope_fields(env) == c["envelope_fields"]
        assert len(env.prev) == 32 and env.state_seq > 0  # v2: every envelope binds its history (7.1)
        # re-signing the same envelope gives the same bytes (Ed25519 is deterministic)
        signer.counter = env.counter - 1
        fresh = envelope_pb2.CommandEnvelope.FromString(env_b)
        assert signer.sign(fresh).hex() == c["signed_command"]
        sc = envelope_pb2.SignedCommand.FromString(x(c["signed_command"]))
        assert sc.envelope == env_b and sc.signature == sig
        actions.add(c["envelope_fields"]["action"])
    assert actions == {"entropy_commit", "entropy_reveal", "command"}


# -- SPEC.md 5: dice -----------------------------------------------------------------------------
def test_dice_key_derivation():
    dk = load("dice.json")["dice_key"]
    ents = [(e["seat"], x(e["entropy"])) for e in dk["entropy"]]
    key = D.derive_dice_key(x(dk["server_secret"]), dk["game"], ents)
    msg = b"aar1/dice-key\x00" + lp(dk["game"].encode()) + b"".join(lp(s.encode()) + e for s, e in ents)
    assert msg.hex() == dk["hmac_message"]
    assert key.hex() == dk["dice_key"] == hmac.new(x(dk["hmac_key"]), msg, hashlib.sha256).hexdigest()


def test_dice_sequences_for_every_die_code():
    d = load("dice.json")
    key = x(d["dice_key"]["dice_key"])
    assert [s["die"] for s in d["cases"]] == list(D.DICE)
    limits = {lim["n"]: int(lim["limit"]) for lim in d["limits"]}
    for lim in d["limits"]:
        assert int(lim["limit"]) == 2**64 - lim["two64_mod_n"] and lim["two64_mod_n"] == 2**64 % lim["n"]
    for s in d["cases"]:
        assert (s["n"], s["count"]) == D.DICE[s["die"]]
        for r in s["rolls"]:
            roll = D.roll(key, r["index"], s["die"], "vectors")
            assert list(roll.faces) == r["faces"] and roll.result == r["result"]
            assert roll.event() == from_tj(r["event"])
            want = 10 * r["faces"][0] + r["faces"][1] if s["die"] == "d66" else sum(r["faces"])
            assert r["result"] == want
            for dr in r["draws"]:
                m = b"aar1/roll\x00" + r["index"].to_bytes(8, "big") + lp(s["die"].encode()) \
                    + bytes([dr["k"]]) + (0).to_bytes(4, "big")
                assert m.hex() == dr["hmac_message"]
                block = hmac.new(key, m, hashlib.sha256).digest()
                assert block.hex() == dr["block"] and block[:8].hex() == dr["candidate0"]
                cand = int.from_bytes(block[:8], "big")
                assert cand < limits[s["n"]] and cand % s["n"] + 1 == dr["face"]


def test_dice_rejection_sampling_with_crafted_blocks():
    d = load("rejection.json")
    key = x(d["key"])
    for c in d["cases"]:
        n = c["n"]
        limit = 2**64 - 2**64 % n
        blocks = [x(a["block"]) for a in c["attempts"]]
        seen = []

        def fake(k, tag, data):
            seen.append(b"aar1/roll\x00" + data)
            return blocks[len(seen) - 1]

        with mock.patch.object(D, "tagged_hmac", fake):
            assert D.draw_face(key, c["index"], c["die"], c["k"], n) == c["face"]
        assert [m.hex() for m in seen] == [a["hmac_message"] for a in c["attempts"]]
        # the rule written out: the first candidate below the limit, mod n, plus one
        cands = [int(v) for a in c["attempts"] for v in a["candidates"]]
        assert cands == [int.from_bytes(b[8 * j: 8 * j + 8], "big") for b in blocks for j in range(4)]
        assert cands[0] >= limit
        assert next(v for v in cands if v < limit) % n + 1 == c["face"]


# -- SPEC.md 5-6: commitments and sealing ----------------------------------------------------------
def test_secret_and_entropy_commitments():
    d = load("commitments.json")
    s = d["server_secret"]
    assert C.server_secret_commitment(s["game"], x(s["secret"])).hex() == s["commitment"] \
        == hashlib.sha256(x(s["input"])).hexdigest()
    assert sorted({e["version"] for e in d["seat_entropy"]}) == [1, 2]
    for e in d["seat_entropy"]:
        genesis = x(e["genesis"]) if e["version"] >= 2 else None  # SPEC.md 5.2: v >= 2 covers genesis
        assert C.seat_entropy_commitment(e["game"], e["seat"], x(e["entropy"]), genesis).hex() == e["commitment"] \
            == hashlib.sha256(x(e["input"])).hexdigest()
    sk = d["seal_key"]
    assert C.seal_key(x(sk["secret"]), sk["game"]).hex() == sk["seal_key"] \
        == hmac.new(x(sk["secret"]), x(sk["hmac_message"]), hashlib.sha256).hexdigest()


def test_hidden_values_seal_and_open_both_directions():
    d = load("commitments.json")
    secret, game, key = x(d["seal_key"]["secret"]), d["seal_key"]["game"], x(d["seal_key"]["seal_key"])
    for c in d["cases"]:
        v = from_tj(c["value"])
        op, commit, ct = C.seal(secret, game, c["seq"], c["k"], v)
        assert op.salt.hex() == c["salt"] == hmac.new(secret, x(c["salt_message"]), hashlib.sha256).hexdigest()
        assert commit.hex() == c["commitment"] == hashlib.sha256(x(c["commitment_input"])).hexdigest()
        assert C.seal_nonce(game, c["seq"], c["k"]).hex() == c["nonce"] == \
            hashlib.sha256(x(c["nonce_input"])).hexdigest()[:24]
        assert ct.hex() == c["ciphertext"]
        assert canon.encode({"salt": op.salt, "value": v}).hex() == c["plaintext"]
        assert ChaCha20Poly1305(key).decrypt(x(c["nonce"]), ct, commit).hex() == c["plaintext"]
        assert C.unseal(key, game, c["seq"], c["k"], commit, ct) == op
        assert op.event() == from_tj(c["opening_event"])
        with pytest.raises(CryptoError):  # the commitment is the associated data
            C.unseal(key, game, c["seq"], c["k"], bytes(32), ct)


def test_spec_6_2_padded_plaintexts_seal_open_and_refuse_every_other_padding():
    """padding.json: format v2 pads lp(canonical({salt, value})) with zeros to the declared size."""
    d = load("padding.json")
    secret, game, key = x(d["seal_key"]["secret"]), d["seal_key"]["game"], x(d["seal_key"]["seal_key"])
    plain = {(c["seq"], c["k"]): c for c in load("commitments.json")["cases"]}
    for c in d["cases"]:
        v, size = from_tj(c["value"]), c["size"]
        op, commit, ct = C.seal(secret, game, c["seq"], c["k"], v, size)
        assert ct.hex() == c["ciphertext"] and len(ct) == c["ciphertext_length"] == size + 16
        pt = x(c["plaintext"])
        assert len(pt) == size and pt == struct.pack(">I", c["inner_length"]) + x(c["inner"]) + bytes(c["zero_bytes"])
        assert c["inner"] == plain[(c["seq"], c["k"])]["plaintext"]  # the v1 plaintext, framed
        assert commit.hex() == c["commitment"] == plain[(c["seq"], c["k"])]["commitment"]
        assert ChaCha20Poly1305(key).decrypt(x(c["nonce"]), ct, commit) == pt
        assert C.unseal(key, game, c["seq"], c["k"], commit, ct, size) == op
        with pytest.raises((CryptoError, EncodingError)):  # a v2 value is not a v1 value
            C.unseal(key, game, c["seq"], c["k"], commit, ct)
        with pytest.raises(C.SealedSizeError):
            C.seal(secret, game, c["seq"], c["k"], v, 4 + c["inner_length"] - 1)
    assert len(d["rejected"]) >= 6
    for r in d["rejected"]:
        with pytest.raises((CryptoError, EncodingError)):
            canon.decode(C.unpad(x(r["plaintext"]), r["size"]))


# -- SPEC.md 9, 12: the whole game --------------------------------------------------------------------
def test_game_bundle_verifies_and_matches_its_records():
    g = load("game.json")
    raw = x(g["bundle"])
    rep = verify_bundle(io.BytesIO(raw), pinned_vkey=g["game"]["server_vkey"])
    assert rep.verified and rep.ended and rep.replayed and rep.records == g["game"]["records"]
    assert rep.outcome == from_tj(g["game"]["outcome"])
    header, frames = read_bundle(io.BytesIO(raw))
    assert header["secret"].hex() == g["game"]["secret"] and header["game"] == g["game"]["game"]
    got = list(frames)
    assert [r.hex() for r, _ in got] == [c["raw"] for c in g["cases"]]
    assert [n for _, n in got] == [c["checkpoint"] for c in g["cases"]]
    assert g["cases"][-1]["hash"] and M.root_from_leaf_hashes([x(c["leaf"]) for c in g["cases"]]).hex() \
        == g["game"]["final_root"]


def test_game_keys_and_private_openings():
    g = load("game.json")
    info = g["game"]
    secret = x(info["secret"])
    genesis = from_tj(g["cases"][0]["record"])["body"]
    assert C.server_secret_commitment(info["game"], secret) == genesis["secret_commit"]
    ents = [(s["seat"], x(s["entropy"])) for s in info["seats"]]
    assert D.derive_dice_key(secret, info["game"], ents).hex() == info["dice_key"]
    assert C.seal_key(secret, info["game"]).hex() == info["seal_key"]
    commits = {}
    for c in g["cases"]:
        b = from_tj(c["record"])["body"]
        if "sealed" in b:
            commits[(c["seq"], 0)] = b["sealed"]["commit"]
        for ev in b.get("events", []):
            if ev["t"] == "sealed":
                commits[(c["seq"], ev["k"])] = ev["commit"]
    assert g["private_openings"]
    for o in g["private_openings"]:
        ref = tuple(o["ref"])
        assert C.commitment(x(o["salt"]), from_tj(o["value"])) == commits[ref] == x(o["commitment"])
        assert C.derive_salt(secret, info["game"], *ref).hex() == o["salt"]


def test_game_bundle_with_one_flipped_byte_fails():
    g = load("game.json")
    raw = bytearray(x(g["bundle"]))
    needle = x(g["cases"][6]["raw"])
    raw[bytes(raw).index(needle) + len(needle) // 2] ^= 0x01
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(bytes(raw)))
    assert e.value.seq == 6


def test_receipt_vectors_recompute_from_the_spec_formula():
    """SPEC.md 7.5, independently of engine/receipt.py: the envelope hash and the signed message
    from hashlib and struct, the signature with `cryptography`, the Receipt message parsed back."""
    from afteraction.engine import receipt as RC
    from afteraction.v1 import game_service_pb2 as gs

    d = load("receipt.json")
    pub = Ed25519PublicKey.from_public_bytes(x(d["server_public"]))

    def lp(b: bytes) -> bytes:
        return struct.pack(">I", len(b)) + b
    assert len(d["cases"]) == 2
    for c in d["cases"]:
        env = x(c["envelope"])
        h = hashlib.sha256(b"aar1/envelope\x00" + env).digest()
        assert h.hex() == c["envelope_hash"]
        msg = (b"aar1/receipt\x00" + lp(c["game_id"].encode()) + lp(c["seat"].encode()) + struct.pack(">Q", c["counter"])
               + struct.pack(">Q", c["state_seq"]) + lp(x(c["prev"])) + h + lp(c["decision"].encode())
               + struct.pack(">Q", c["seq"]) + struct.pack(">Q", c["received_ms"]))
        assert msg.hex() == c["message"]
        pub.verify(x(c["signature"]), msg)
        r = gs.Receipt.FromString(x(c["receipt_pb"]))
        assert RC.message(r) == msg and RC.problem(r, x(d["server_public"]), env) is None
        r.received_ms += 1
        assert RC.problem(r, x(d["server_public"])) == "its signature does not verify with the server key"
