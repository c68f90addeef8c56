"""engine/crypto/note.py against third-party C2SP signed-note and checkpoint vectors
(shared/vectors/signed-note, shared/vectors/checkpoint; see their README.md)."""
from __future__ import annotations

import base64
import json

import pytest

from afteraction.engine.crypto import note
from afteraction.engine.errors import CryptoError

from conftest import SHARED_VECTORS

SN = SHARED_VECTORS / "signed-note"
CP = SHARED_VECTORS / "checkpoint"


def _load(path):
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else []


EXAMPLES = _load(SN / "examples.json")
KEYS = _load(SN / "keys.json") or {"verifier_keys": [], "signer_keys": []}
CHECKPOINTS = _load(CP / "examples.json")


def _opens(note_bytes, vkey: str) -> tuple[bool, str | None]:
    try:
        text, _ = note.open_note(note_bytes, [note.parse_vkey(vkey)])
    except CryptoError:
        return False, None
    return True, text


def test_counts(shared_vectors):
    assert len(EXAMPLES) == 22 and sum(c["valid"] for c in EXAMPLES) == 8
    assert len(KEYS["verifier_keys"]) == 7 and len(KEYS["signer_keys"]) == 3
    assert len(CHECKPOINTS) == 9 and sum(c["valid_format"] for c in CHECKPOINTS) == 7


@pytest.mark.parametrize("case", EXAMPLES, ids=[c["id"] for c in EXAMPLES])
def test_signed_note_example(case, shared_vectors):
    """Opening with only ``verifier_key`` succeeds exactly when ``valid`` (the 101-signature
    case is policy-dependent: we cap at 100 signatures like Go, so it must fail)."""
    ok, text = _opens(case["note_text"].encode("utf-8"), case["verifier_key"])
    assert ok == case["valid"], case["desc"]
    if ok and "expected_text" in case:
        assert text == case["expected_text"]


def test_too_many_signatures_policy_matches_go(shared_vectors):
    case = next(c for c in EXAMPLES if c["id"] == "go-too-many-signatures")
    assert case["policy_dependent"] and not case["valid"]
    assert note.MAX_SIGNATURES == 100
    _, sigs = note.split_note(case["note_text"].rsplit("\n", 2)[0] + "\n")  # drop the 101st line: 100 parse
    assert len(sigs) == 100
    with pytest.raises(CryptoError, match="too many"):
        note.split_note(case["note_text"])


SIGNED = [c for c in EXAMPLES if "signer_key" in c]


@pytest.mark.parametrize("case", SIGNED, ids=[c["id"] for c in SIGNED])
def test_resigning_reproduces_note_text(case, shared_vectors):
    signer = note.parse_skey(case["signer_key"])
    assert signer.verifier.vkey == case["verifier_key"]
    assert note.sign_note(case["expected_text"], [signer]) == case["note_text"]


def test_invalid_utf8_note_is_malformed(shared_vectors):
    case = next(c for c in EXAMPLES if c["id"] == "go-peterneumann")
    good = case["note_text"].encode("utf-8")
    assert _opens(good, case["verifier_key"])[0]
    with pytest.raises(CryptoError, match="UTF-8"):
        note.open_note(b"\xff" + good, [note.parse_vkey(case["verifier_key"])])


# -- keys.json -----------------------------------------------------------------------

VKEYS = KEYS["verifier_keys"]


@pytest.mark.parametrize("case", VKEYS, ids=[c["verifier_key"][:30] for c in VKEYS])
def test_verifier_key(case, shared_vectors):
    if not case["valid"]:
        with pytest.raises(CryptoError):
            note.parse_vkey(case["verifier_key"])
        return
    v = note.parse_vkey(case["verifier_key"])
    p = case["parsed"]
    assert (v.name, v.key_id.hex(), v.public.hex()) == (p["name"], p["key_id_hex"], p["public_key_hex"])
    assert p["signature_type"] == note.ALG_ED25519
    assert v.vkey == case["verifier_key"]  # round trip


@pytest.mark.parametrize("case", KEYS["signer_keys"], ids=[c["signer_key"][:34] for c in KEYS["signer_keys"]])
def test_signer_key(case, shared_vectors):
    s = note.parse_skey(case["signer_key"])
    assert s.skey == case["signer_key"]
    assert s.verifier.vkey == case["verifier_key"]
    assert note.parse_vkey(case["verifier_key"]) == s.verifier


def test_go_rule_every_substring_and_plus_one_change_of_peter_key_rejected(shared_vectors):
    """Go's TestNewVerifier: every proper substring and every single-byte +1 change fails."""
    peter = next(c["verifier_key"] for c in VKEYS if c["verifier_key"].startswith("PeterNeumann+c74f"))
    note.parse_vkey(peter)
    b = peter.encode()
    tried = 0
    for i in range(len(b) + 1):
        for j in range(i, len(b) + 1):
            if (i, j) == (0, len(b)):
                continue
            with pytest.raises(CryptoError):
                note.parse_vkey(b[i:j].decode())
            tried += 1
    for i in range(len(b)):
        mutated = b[:i] + bytes([(b[i] + 1) & 0xFF]) + b[i + 1:]
        with pytest.raises(CryptoError):
            note.parse_vkey(mutated.decode("utf-8", "replace"))
        tried += 1
    assert tried > 2000


# -- checkpoint/examples.json ------------------------------------------------------------

@pytest.mark.parametrize("case", CHECKPOINTS, ids=[c["id"] for c in CHECKPOINTS])
def test_checkpoint_example(case, shared_vectors):
    if case["input_kind"] == "signed_note":
        text, sigs = note.split_note(case["input"])
    else:
        text, sigs = case["input"], None
    if not case["valid_format"]:
        with pytest.raises(CryptoError):
            note.parse_checkpoint(text)
        return
    cp = note.parse_checkpoint(text)
    e = case["expected"]
    assert cp.origin == e["origin"]
    assert cp.size == e["tree_size"]
    assert cp.root == base64.b64decode(e["root_hash_base64"])
    assert list(cp.extensions) == e["extension_lines"]
    assert cp.text() == text  # formatting reproduces the body exactly
    if sigs is not None:
        assert len(sigs) == len(e["signatures"])
        for got, want in zip(sigs, e["signatures"]):
            assert got.name == want["name"]
            assert got.key_id.hex() == want["key_id_hex"]
            assert got.key_id + got.signature == base64.b64decode(want["signature_base64"])
            assert 4 + len(got.signature) == want["decoded_length"]
            if "cosignature_timestamp" in want:
                assert int.from_bytes(got.signature[:8], "big") == want["cosignature_timestamp"]
    if "verifier_key" in case:
        v = note.parse_vkey(case["verifier_key"])
        ok = True
        try:
            assert note.open_checkpoint(case["input"], v) == cp
        except CryptoError:
            ok = False
        assert ok == case["signature_valid"]


def test_checkpoint_without_known_key_does_not_open(shared_vectors):
    """The C2SP example is signed by sum.golang.org's key ID under another name: a verifier
    holding sum.golang.org's key must not accept it (names must match too)."""
    case = next(c for c in CHECKPOINTS if c["id"] == "c2sp-tlog-checkpoint-example")
    sumdb = next(c["verifier_key"] for c in VKEYS if c["verifier_key"].startswith("sum.golang.org+"))
    with pytest.raises(CryptoError):
        note.open_checkpoint(case["input"], note.parse_vkey(sumdb))
