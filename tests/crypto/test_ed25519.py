"""The one Ed25519 rule of SPEC.md 7.4 (engine/crypto/ed25519.py) against the third-party
suites (../shared/vectors/ed25519: Wycheproof, ed25519-speccheck), our own vectors
(fixtures/vectors/ed25519.json), and a pure-Python implementation of the rule's clauses
written here from SPEC.md, so that the reference (libsodium plus the added checks) is shown to
be exactly the rule; and OpenSSL (``cryptography``) as a second library beside it."""
from __future__ import annotations

import hashlib
import json
import re

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from hypothesis import given, settings
from hypothesis import strategies as st

from afteraction.engine.crypto import ed25519 as E
from afteraction.engine.crypto import note
from afteraction.engine.errors import CryptoError
from afteraction.engine.seat import SeatSigner

from conftest import REPO

OWN = json.loads((REPO / "fixtures" / "vectors" / "ed25519.json").read_text())


# -- the rule, clause by clause, from SPEC.md 7.4 (pure Python, slow, for comparison) ----------
def ref_key_ok(a: bytes) -> bool:
    if len(a) != 32:
        return False
    y, sign = int.from_bytes(a, "little") & ((1 << 255) - 1), a[31] >> 7
    if y >= E.P:                                   # key clause 1
        return False
    x = E._recover_x(y)
    if x is None:                                  # 2
        return False
    if x == 0 and sign:                            # 3
        return False
    pt = E.decode(a)[0]
    if E.is_identity(E.mul(8, pt)):                # 4
        return False
    return E.is_identity(E.mul(E.L, pt))           # 5


def ref_verify(a: bytes, msg: bytes, sig: bytes, cofactored: bool = False, check_r_order: bool = True) -> bool:
    if not ref_key_ok(a) or len(sig) != 64:        # signature clauses 1, 2
        return False
    rb, s = sig[:32], int.from_bytes(sig[32:], "little")
    if s >= E.L:                                   # 3
        return False
    r, why = E.decode(rb)                          # 4
    if r is None:
        return False
    if check_r_order and E.is_identity(E.mul(8, r)):  # 5
        return False
    k = int.from_bytes(hashlib.sha512(rb + a + msg).digest(), "little") % E.L
    lhs, rhs = E.mul(s, E.BASE), E.add(r, E.mul(k, E.decode(a)[0]))
    if cofactored:
        lhs, rhs = E.mul(8, lhs), E.mul(8, rhs)
    return E.equal(lhs, rhs)                       # 6


def openssl_alone(a: bytes, msg: bytes, sig: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(a).verify(sig, msg)
        return True
    except (InvalidSignature, ValueError):
        return False


# -- the small-order points --------------------------------------------------------------
def test_7_4_the_eight_small_order_points():
    orders = []
    for b in E.SMALL_ORDER_ENCODINGS:
        p = E.decode(b)[0]
        assert E.is_identity(E.mul(8, p)) and E.encode(p) == b
        orders.append(next(n for n in (1, 2, 4, 8) if E.is_identity(E.mul(n, p))))
    assert sorted(orders) == [1, 2, 4, 4, 8, 8, 8, 8]
    assert E.encode(E.IDENTITY) == bytes([1]) + bytes(31)


def test_7_4_base_point_and_honest_keys_pass():
    assert E.encode(E.BASE).hex() == "58" + "66" * 31
    assert E.point_check(E.encode(E.BASE)) is None


@settings(max_examples=20, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.binary(max_size=64))
def test_7_4_every_honest_key_and_signature_passes(seed, msg):
    s = SeatSigner("a", seed)
    assert E.key_problem(s.public) is None
    sig = note.Signer("x", seed).sign(msg)
    assert E.verify_signature(s.public, msg, sig) and ref_verify(s.public, msg, sig)


# RFC 8032 7.1, TEST 1 and TEST 2: secret key, public key, message, signature
RFC8032 = [
    ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
    ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
]


@pytest.mark.parametrize("seed,public,msg,sig", RFC8032)
def test_7_4_signing_gives_rfc_8032s_test_vectors(seed, public, msg, sig):
    """``ed25519.sign`` (libsodium) is RFC 8032's deterministic signature: its test vectors exactly."""
    assert E.public_of(bytes.fromhex(seed)).hex() == public
    assert E.sign(bytes.fromhex(seed), bytes.fromhex(msg)).hex() == sig
    assert E.verify_signature(bytes.fromhex(public), bytes.fromhex(msg), bytes.fromhex(sig))


@settings(max_examples=30, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.binary(max_size=200))
def test_7_4_signing_gives_the_bytes_openssl_gives(seed, msg):
    """Every signature the project makes (``ed25519.sign``, libsodium) is the one OpenSSL makes of the
    same key and message (through ``cryptography``), and OpenSSL verifies it: logs signed before
    and after the change of library are the same bytes."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    k = Ed25519PrivateKey.from_private_bytes(seed)
    assert E.public_of(seed) == k.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    assert E.sign(seed, msg) == k.sign(msg)
    Ed25519PublicKey.from_public_bytes(E.public_of(seed)).verify(E.sign(seed, msg), msg)


def test_7_4_a_signing_key_is_a_32_byte_seed():
    for n in (0, 31, 33, 64):
        with pytest.raises(ValueError):
            E.SigningKey(bytes(n))
    with pytest.raises(ValueError):
        SeatSigner("a", bytes(31))


@settings(max_examples=30, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_7_4_key_check_equals_the_clauses_on_random_bytes(b):
    assert (E.key_problem(b) is None) == ref_key_ok(b)


# -- our own vectors -------------------------------------------------------------------------
@pytest.mark.parametrize("case", OWN["keys"], ids=lambda c: c["description"][:40])
def test_7_4_key_vectors(case):
    k = bytes.fromhex(case["public"])
    c = E.point_check(k)
    assert (c is None) == case["accepted"] == ref_key_ok(k)
    if c is not None:
        assert c == (case["clause"], case["reason"])
        assert E.key_problem(k) == case["reason"]


def test_7_4_key_vectors_cover_every_clause():
    assert {c["clause"] for c in OWN["keys"]} == {None, 0, 1, 2, 3, 4, 5}
    assert {c["clause"] for c in OWN["cases"]} == {None, 1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize("case", OWN["cases"], ids=lambda c: c["description"][:40])
def test_7_4_signature_vectors(case):
    a, m, sig = (bytes.fromhex(case[k]) for k in ("public", "message", "signature"))
    why = E.signature_problem(a, m, sig)
    assert why == case["reason"]
    assert (why is None) == case["valid"] == E.verify_signature(a, m, sig) == ref_verify(a, m, sig)
    if why is not None:
        assert why.startswith(f"{case['clause']} (")


def _own(description_start: str) -> tuple[bytes, bytes, bytes]:
    c = next(c for c in OWN["cases"] if c["description"].startswith(description_start))
    return tuple(bytes.fromhex(c[k]) for k in ("public", "message", "signature"))


def test_7_4_a_remembered_verdict_is_given_only_for_the_same_key_signature_and_message(monkeypatch):
    """SIGNATURE_CACHE: a verdict is remembered for its own key, signature and message only. A copy of
    a good signature with one bit changed in any part, or with a byte moved across the border of two
    parts, gets the verdict of a verification (the same one as with nothing remembered), and the
    same three values again are not verified again."""
    signer = note.Signer("x", b"s" * 32)
    pub, msg = signer.public, b"a checkpoint"
    sig = signer.sign(msg)
    E.forget_verdicts()
    assert E.signature_problem(pub, msg, sig) is None
    flip = lambda b, i: b[:i] + bytes([b[i] ^ 1]) + b[i + 1:]   # noqa: E731
    others = [(flip(pub, 0), msg, sig), (pub, flip(msg, 0), sig), (pub, msg, flip(sig, 0)), (pub, msg, flip(sig, 63)),
              (pub, sig[-1:] + msg, sig[:-1]), (pub + sig[:1], msg, sig[1:]), (pub[:-1], msg, pub[-1:] + sig)]
    fresh = [E._signature_problem(*o) for o in others]
    assert all(f is not None for f in fresh)
    assert [E.signature_problem(*o) for o in others] == fresh
    assert [E.signature_problem(*o) for o in others] == fresh   # now remembered: the same verdicts

    def verified(*a):
        raise AssertionError("verified again")
    monkeypatch.setattr(E, "_signature_problem", verified)
    assert E.signature_problem(pub, msg, sig) is None and E.verify_signature(pub, msg, sig)
    assert [E.signature_problem(*o) for o in others] == fresh


def test_7_4_the_remembered_verdicts_are_bounded(monkeypatch):
    monkeypatch.setattr(E, "SIGNATURE_CACHE", 4)
    E.forget_verdicts()
    signer = note.Signer("x", b"b" * 32)
    for i in range(10):
        m = b"%d" % i
        assert E.verify_signature(signer.public, m, signer.sign(m))
        assert 1 <= len(E._verdicts) <= 4
    E.forget_verdicts()


def test_7_4_what_the_added_checks_are_for():
    """SPEC.md 7.4's claims about the libraries, on our vectors: OpenSSL alone accepts R =
    identity under an honest key (so clause 5 is a check the reference adds) and the identity-
    key forgery; a cofactored verifier accepts the mixed-order R (so noble-based verifiers must
    refuse R outside the subgroup); and the cofactorless rule refuses both."""
    a, m, sig = _own("R = the identity, S = k a")
    assert openssl_alone(a, m, sig) and ref_verify(a, m, sig, check_r_order=False)
    assert not E.verify_signature(a, m, sig)
    a, m, sig = _own("under the identity key")
    assert openssl_alone(a, m, sig) and not E.verify_signature(a, m, sig)
    a, m, sig = _own("mixed-order R")
    assert ref_verify(a, m, sig, cofactored=True) and not ref_verify(a, m, sig)
    assert not openssl_alone(a, m, sig) and not E.verify_signature(a, m, sig)


def test_7_4_verifier_keys_refuse_weak_keys():
    """parse_vkey (server key, --server-key, note verifiers) applies the key rule."""
    import base64

    for case in OWN["keys"]:
        k = bytes.fromhex(case["public"])
        if len(k) != 32:
            continue
        raw = bytes([1]) + k
        vkey = f"t+{note.key_id('t', raw).hex()}+{base64.b64encode(raw).decode()}"
        if case["accepted"]:
            assert note.parse_vkey(vkey).public == k
        else:
            with pytest.raises(CryptoError, match="weak key: the public key " + re.escape(case["reason"])):
                note.parse_vkey(vkey)


# -- third-party suites ----------------------------------------------------------------------
def _wycheproof(shared_vectors):
    doc = json.loads((shared_vectors / "ed25519" / "wycheproof-ed25519_test.json").read_text())
    return [(bytes.fromhex(g["publicKey"]["pk"]), t) for g in doc["testGroups"] for t in g["tests"]]


def test_7_4_wycheproof_every_result(shared_vectors):
    tests = _wycheproof(shared_vectors)
    assert len(tests) == 151
    wrong = [t["tcId"] for pk, t in tests
             if E.verify_signature(pk, bytes.fromhex(t["msg"]), bytes.fromhex(t["sig"])) != (t["result"] == "valid")]
    assert not wrong, f"tcIds with the wrong verdict: {wrong}"
    assert sum(t["result"] == "valid" for _, t in tests) == 88
    assert all(E.key_problem(pk) is None for pk, _ in tests)  # every Wycheproof key is honest


def test_7_4_wycheproof_pure_rule_agrees(shared_vectors):
    for pk, t in _wycheproof(shared_vectors):
        m, sig = bytes.fromhex(t["msg"]), bytes.fromhex(t["sig"])
        assert ref_verify(pk, m, sig) == (t["result"] == "valid"), t["tcId"]


_LABEL = [("is the identity", "identity"), ("has small order ", "order "), ("has mixed order", "mixed"),
          ("is not canonical (y >= p)", "y >= p"), ("is not canonical (x = 0", "x = 0, sign 1"),
          ("is not the encoding", "not a point")]


def _label(why: str | None) -> str:
    if why is None:
        return "prime order"
    for prefix, short in _LABEL:
        if why.startswith(prefix):
            return short + (why[len(prefix):] if short == "order " else "")
    raise AssertionError(why)


def _spec_table() -> list[list[str]]:
    spec = (REPO / "SPEC.md").read_text()
    block = spec.split("<!-- speccheck table: tests/crypto/test_ed25519.py -->")[1].split("<!-- end of speccheck table -->")[0]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in block.strip().splitlines()]
    return rows[2:]


def test_7_4_speccheck_table_in_spec(shared_vectors):
    cases = json.loads((shared_vectors / "ed25519" / "speccheck-cases.json").read_text())
    rows = _spec_table()
    assert len(cases) == len(rows) == 12
    for i, (case, row) in enumerate(zip(cases, rows)):
        a, m, sig = (bytes.fromhex(case[k]) for k in ("pub_key", "message", "signature"))
        why = E.signature_problem(a, m, sig)
        got = [str(i), _label(E.key_problem(a)), _label(E.point_problem(sig[:32])),
               "yes" if int.from_bytes(sig[32:], "little") < E.L else "no",
               "valid" if why is None else "refused: " + why.split(":")[0]]
        assert got == row, f"speccheck case {i}"
        assert E.verify_signature(a, m, sig) is (why is None) is ref_verify(a, m, sig)


def test_7_4_speccheck_measured_library_verdicts_still_hold(shared_vectors):
    """../shared/vectors/README.md: OpenSSL accepts cases 0-3 and 11. If a new OpenSSL stopped
    accepting them, the rule would still hold, but the SPEC's account of why the reference adds
    the key check would be stale."""
    cases = json.loads((shared_vectors / "ed25519" / "speccheck-cases.json").read_text())
    got = "".join("V" if openssl_alone(*(bytes.fromhex(c[k]) for k in ("pub_key", "message", "signature"))) else "X"
                  for c in cases)
    assert got == "VVVVXXXXXXXV"


def test_7_4_notes_verify_by_the_rule():
    """A note verifier built around a weak key (bypassing parse_vkey) still refuses the
    forgery: open_note verifies by SPEC.md 7.4, not by the library alone."""
    identity = E.encode(E.IDENTITY)
    v = note.Verifier("t", note.key_id("t", bytes([1]) + identity), identity)
    text = "t/game/x\n1\n" + "A" * 43 + "=\n"
    import base64

    forged = text + "\n" + f"\u2014 t {base64.b64encode(v.key_id + identity + bytes(32)).decode()}\n"
    assert openssl_alone(identity, text.encode(), identity + bytes(32))
    with pytest.raises(CryptoError, match="invalid signature by t"):
        note.open_note(forged, [v])
