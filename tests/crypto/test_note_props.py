"""Signed notes and checkpoints (engine/crypto/note.py): round trips with our own keys."""
from __future__ import annotations

import base64

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from afteraction.engine.crypto import note
from afteraction.engine.errors import CryptoError

PROPS = settings(max_examples=100, deadline=None)

names = st.text(st.characters(min_codepoint=33, max_codepoint=0x2FFF, blacklist_characters="+"),
                min_size=1, max_size=20).filter(note.valid_key_name)
lines = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FFF), max_size=30)


@PROPS
@given(name=names, seed=st.binary(min_size=32, max_size=32))
def test_keys_round_trip(name, seed):
    s = note.Signer(name, seed)
    assert note.parse_skey(s.skey) == s
    assert note.parse_vkey(s.verifier.vkey) == s.verifier


@PROPS
@given(body=st.lists(lines.filter(bool), min_size=1, max_size=5),
       seeds=st.lists(st.binary(min_size=32, max_size=32), min_size=1, max_size=3, unique=True),
       names_=st.lists(names, min_size=3, max_size=3, unique=True))
def test_signed_note_round_trip(body, seeds, names_):
    text = "\n".join(body) + "\n"
    signers = [note.Signer(n, s) for n, s in zip(names_, seeds)]
    signed = note.sign_note(text, signers)
    for s in signers:
        got, sigs = note.open_note(signed, [s.verifier])
        assert got == text and [x.name for x in sigs] == [s.name]
    got, sigs = note.open_note(signed, [s.verifier for s in signers])
    assert got == text and len(sigs) == len(signers)
    # a stranger's key opens nothing
    with pytest.raises(CryptoError):
        note.open_note(signed, [note.Signer("stranger", bytes(32)).verifier])
    # a changed text character breaks the signature
    bad = ("y" if signed[0] != "y" else "z") + signed[1:]
    with pytest.raises(CryptoError):
        note.open_note(bad, [signers[0].verifier])


@PROPS
@given(origin=lines.filter(lambda s: s.strip() == s and s), size=st.integers(0, 2**64 - 1),
       root=st.binary(min_size=32, max_size=32),
       ext=st.lists(lines.filter(bool), max_size=3), seed=st.binary(min_size=32, max_size=32))
def test_checkpoint_round_trip(origin, size, root, ext, seed):
    cp = note.Checkpoint(origin, size, root, tuple(ext))
    s = note.Signer("log.example", seed)
    assert note.parse_checkpoint(cp.text()) == cp
    assert note.open_checkpoint(note.sign_checkpoint(cp, s), s.verifier) == cp


@pytest.mark.parametrize("size", ["-1", "01", "18446744073709551616", "1e3", " 1", ""])
def test_checkpoint_bad_sizes(size):
    with pytest.raises(CryptoError):
        note.parse_checkpoint(f"o\n{size}\n{'A' * 43}=\n")


def test_non_canonical_base64_signature_is_malformed():
    s = note.Signer("k", bytes(32))
    signed = note.sign_note("hello\n", [s])
    line = signed.rstrip("\n").rsplit("\n", 1)[1]
    b64 = line.rsplit(" ", 1)[1]
    assert b64.endswith("=")  # 68 bytes: two unused bits before the padding
    last = b64[-2]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    twin = alphabet[alphabet.index(last) ^ 1]
    mangled = signed.replace(b64, b64[:-2] + twin + "=")
    with pytest.raises(CryptoError):
        note.open_note(mangled, [s.verifier])


def test_only_the_first_signature_of_a_known_key_counts():
    """SPEC.md 4.2 (as golang.org/x/mod/sumdb/note): a second signature line by the same known
    key is ignored, even if it is garbage; a bad *first* signature by that key is an error."""
    s = note.Signer("afteraction.test", bytes(range(32)))
    good = note.sign_note("text\n", [s])
    prefix = f"{note.SIG_PREFIX}{s.name} "
    garbage = prefix + base64.b64encode(s.key_id + bytes(64)).decode() + "\n"
    text, sigs = note.open_note(good + garbage, [s.verifier])
    assert text == "text\n" and len(sigs) == 1
    with pytest.raises(CryptoError, match="invalid signature"):
        note.open_note("text\n\n" + garbage + good.split("\n\n", 1)[1], [s.verifier])
