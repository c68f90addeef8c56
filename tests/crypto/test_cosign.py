"""Seat cosignatures (SPEC.md 4.5): the C2SP tlog-cosignature form, byte for byte."""
from __future__ import annotations

import base64
import hashlib
import json
import struct

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from afteraction.engine.crypto import cosign
from afteraction.engine.crypto.note import split_note
from afteraction.engine.errors import CryptoError
from afteraction.engine.local import derive_bytes
from afteraction.engine.seat import SeatSigner

TEXT = "afteraction.test/game/0123456789abcdef\n12\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"
ORIGIN = "afteraction.test/game/0123456789abcdef"


def test_spec_4_5_the_line_is_the_formula():
    seed = derive_bytes(b"tests/cosign", "a")
    pub = SeatSigner("a", seed).public
    line = cosign.cosign(TEXT, ORIGIN, "a", seed, 1764547200)
    name = ORIGIN + "/seat/a"
    kid = hashlib.sha256(name.encode() + b"\n\x04" + pub).digest()[:4]
    msg = b"cosignature/v1\ntime 1764547200\n" + TEXT.encode()
    sig = Ed25519PrivateKey.from_private_bytes(seed).sign(msg)  # Ed25519 is deterministic
    assert line == f"\u2014 {name} {base64.b64encode(kid + struct.pack('>Q', 1764547200) + sig).decode()}\n"
    note = TEXT + "\n\u2014 server AAAAAAA=\n" + line
    assert cosign.seat_cosignatures(note, ORIGIN, {"a": pub}) == {"a": 1764547200}


def test_spec_4_5_a_bad_or_repeated_cosignature_is_refused_and_others_are_ignored():
    seeds = {s: derive_bytes(b"tests/cosign", s) for s in ("a", "b")}
    keys = {s: SeatSigner(s, k).public for s, k in seeds.items()}
    base = TEXT + "\n\u2014 server AAAAAAA=\n"
    a = cosign.cosign(TEXT, ORIGIN, "a", seeds["a"], 5)
    other_text = TEXT.replace("\n12\n", "\n13\n")
    with pytest.raises(CryptoError):  # a's cosignature of another checkpoint
        cosign.seat_cosignatures(base + cosign.cosign(other_text, ORIGIN, "a", seeds["a"], 5), ORIGIN, keys)
    with pytest.raises(CryptoError):
        cosign.seat_cosignatures(base + a + cosign.cosign(TEXT, ORIGIN, "a", seeds["a"], 6), ORIGIN, keys)
    # b's key under a's name has b's key ID under a's name: no seat's identity, ignored
    forged = cosign.cosign(TEXT, ORIGIN, "a", seeds["b"], 5)
    assert cosign.seat_cosignatures(base + forged, ORIGIN, keys) == {}
    assert cosign.seat_cosignatures(base + a + cosign.cosign(TEXT, ORIGIN, "b", seeds["b"], 9), ORIGIN, keys) \
        == {"a": 5, "b": 9}


def test_c2sp_cosignature_example_parses_as_a_76_byte_cosignature_line(shared_vectors):
    cases = json.loads((shared_vectors / "checkpoint" / "examples.json").read_text())
    case = next(c for c in cases if c["id"] == "c2sp-tlog-cosignature-example")
    text, sigs = split_note(case["input"])
    witness = next(s for s in sigs if s.name == "witness.example.com/w1")
    assert len(witness.key_id) + len(witness.signature) == 76
    assert struct.unpack(">Q", witness.signature[:8])[0] == case["expected"]["signatures"][1]["cosignature_timestamp"]
    # no seat of any game has this name: a verifier ignores the line (SPEC.md 4.2, 4.5)
    assert cosign.seat_cosignatures(case["input"], "example.com/behind-the-sofa", {"a": bytes(32)}) == {}
