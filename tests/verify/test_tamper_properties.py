"""Property tests: any tampering with a real duel bundle is detected, every time, and
reported at the right sequence number.

"Detected" = verify_bundle raises VerificationError (the file is unreadable or a check
fails); never another exception, never a pass. Raw byte changes, structural changes
(records dropped, duplicated, swapped, inserted, a truncated tail) and structured
tampering re-encoded canonically (with and without a dishonest server re-signing every
checkpoint) are all covered.
"""
from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from afteraction.engine.crypto import commit as _commit
from afteraction.engine.crypto.note import Signer, split_note
from afteraction.engine.local import derive_bytes

from conftest import build_duel

from .surgery import bodies, failure, frame_spans, join, rechain, split

PROPS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def game():
    return build_duel(b"tests/tamper")


@pytest.fixture(scope="module")
def bundle(game):
    b = game.bundle()
    assert failure(b) is None
    return b


@pytest.fixture(scope="module")
def other_bundle():
    return build_duel(b"tests/other-game").bundle()


def _seq_of_position(bundle: bytes, i: int) -> int | None:
    """The record whose frame holds byte ``i``; None for the magic and the header."""
    _, spans = frame_spans(bundle)
    for n, (a, z) in enumerate(spans):
        if a <= i < z:
            return n
    return None


# -- raw bytes --------------------------------------------------------------------------

@PROPS
@given(data=st.data())
def test_any_single_byte_change_is_detected_at_its_record(bundle, data):
    i = data.draw(st.integers(0, len(bundle) - 1), label="position")
    mask = data.draw(st.integers(1, 255), label="xor")
    m = bytearray(bundle)
    m[i] ^= mask
    e = failure(bytes(m))
    assert e is not None, f"byte {i} ^ {mask:#x} not detected"
    n = _seq_of_position(bundle, i)
    if n is not None:
        assert e.seq == n, (i, e)


@pytest.fixture(scope="module")
def unfinished():
    """A duel in progress (no end record, no secret in the header): steps 1-7 only."""
    from afteraction.engine.local import LocalGame

    g = LocalGame.create("duel", seed=b"tests/unfinished")
    g.handshake()
    g.play("a", g.referee.ruleset.legal_commands(g.referee.state, "a")[2])
    g.play("b", g.referee.ruleset.legal_commands(g.referee.state, "b")[0])
    b = g.bundle()
    assert failure(b) is None and "secret" not in split(b)[0]
    return b


@PROPS
@given(data=st.data())
def test_any_single_byte_change_in_an_unfinished_game_is_detected(unfinished, data):
    i = data.draw(st.integers(0, len(unfinished) - 1), label="position")
    m = bytearray(unfinished)
    m[i] ^= data.draw(st.integers(1, 255), label="xor")
    e = failure(bytes(m))
    assert e is not None
    n = _seq_of_position(unfinished, i)
    if n is not None:
        assert e.seq == n, (i, e)


@pytest.mark.slow
def test_every_single_bit_flip_of_a_small_bundle_is_detected():
    """Exhaustive: flip the low bit of every byte of a one-round duel (crypto steps;
    replay cannot hide a miss since it only adds checks)."""
    from afteraction.engine.bots import random_bot
    from afteraction.engine.local import LocalGame

    g = LocalGame.create("duel", seed=b"tests/exhaustive", options={"rounds": 1})
    g.handshake()
    g.run_bots(random_bot(b"tests/exhaustive"))
    b = g.bundle()
    _, spans = frame_spans(b)
    missed, misplaced = [], []
    for i in range(len(b)):
        m = bytearray(b)
        m[i] ^= 1
        e = failure(bytes(m), replay=False)
        if e is None:
            missed.append(i)
            continue
        n = _seq_of_position(b, i)
        if n is not None and e.seq != n:
            misplaced.append((i, n, e.seq))
    assert not missed and not misplaced


@PROPS
@given(cut=st.integers(1, 10_000))
def test_truncated_tail_is_detected_at_the_first_incomplete_record(bundle, cut):
    cut = cut % len(bundle) or 1
    t = bundle[:-cut]
    e = failure(t)
    assert e is not None
    _, spans = frame_spans(bundle)
    complete = sum(1 for a, z in spans if z <= len(t))
    if len(t) > spans[0][0]:
        assert e.seq == complete, e


# -- records dropped, duplicated, swapped, inserted -------------------------------------

@PROPS
@given(data=st.data(), fix_count=st.booleans())
def test_dropped_record_is_detected_at_its_place(bundle, data, fix_count):
    h, fr = split(bundle)
    k = data.draw(st.integers(0, len(fr) - 1))
    del fr[k]
    if fix_count:
        h["records"] -= 1
    e = failure(join(h, fr))
    assert e is not None and e.seq == k, e


@PROPS
@given(data=st.data(), fix_count=st.booleans())
def test_duplicated_record_is_detected_at_the_copy(bundle, data, fix_count):
    h, fr = split(bundle)
    k = data.draw(st.integers(0, len(fr) - 1))
    fr.insert(k + 1, fr[k])
    if fix_count:
        h["records"] += 1
    e = failure(join(h, fr))
    assert e is not None and e.seq == k + 1, e


@PROPS
@given(data=st.data())
def test_swapped_records_are_detected_at_the_first(bundle, data):
    h, fr = split(bundle)
    k = data.draw(st.integers(0, len(fr) - 2))
    j = data.draw(st.integers(k + 1, len(fr) - 1))
    fr[k], fr[j] = fr[j], fr[k]
    e = failure(join(h, fr))
    assert e is not None and e.seq == k, e


@PROPS
@given(data=st.data())
def test_inserted_record_from_another_game_is_detected_at_its_place(bundle, other_bundle, data):
    other = other_bundle
    h, fr = split(bundle)
    _, ofr = split(other)
    k = data.draw(st.integers(0, len(fr)))
    src = data.draw(st.integers(0, len(ofr) - 1))
    fr.insert(k, ofr[src])
    h["records"] += 1
    e = failure(join(h, fr))
    assert e is not None and e.seq == k, e


# -- header: the revealed secret --------------------------------------------------------

@PROPS
@given(secret=st.binary(min_size=32, max_size=32))
def test_wrong_secret_in_header_is_detected_at_genesis(bundle, secret):
    h, fr = split(bundle)
    if secret == h["secret"]:
        return
    h["secret"] = secret
    e = failure(join(h, fr))
    assert e is not None and e.step == "8 (end)" and e.seq == 0, e


def test_secret_removed_from_header_is_detected(bundle):
    h, fr = split(bundle)
    del h["secret"]
    assert failure(join(h, fr)) is not None


# -- checkpoints ------------------------------------------------------------------------

@PROPS
@given(data=st.data())
def test_forged_checkpoint_signature_is_detected_at_its_record(game, bundle, data):
    """Checkpoint k signed by another key under the server's name and key ID, or with
    random signature bytes."""
    h, fr = split(bundle)
    k = data.draw(st.integers(0, len(fr) - 1))
    raw, cp = fr[k]
    text, sigs = split_note(cp)
    if data.draw(st.booleans(), label="random bytes"):
        sig = data.draw(st.binary(min_size=64, max_size=64))
    else:
        sig = Signer(game.server.name, derive_bytes(data.draw(st.binary(max_size=8)), "impostor")).sign(text.encode())
    import base64
    fr[k] = (raw, text + "\n\u2014 " + game.server.name + " " + base64.b64encode(sigs[0].key_id + sig).decode() + "\n")
    e = failure(join(h, fr))
    assert e is not None and e.step == "5 (checkpoint)" and e.seq == k, e


@PROPS
@given(data=st.data())
def test_checkpoint_for_a_wrong_tree_signed_by_the_server_is_detected(game, bundle, data):
    """Even the server's own valid signature does not save a checkpoint of the wrong size or root."""
    from afteraction.engine.local import checkpoint_note

    h, fr = split(bundle)
    k = data.draw(st.integers(0, len(fr) - 1))
    raw, cp = fr[k]
    from afteraction.engine.crypto.note import parse_checkpoint
    c = parse_checkpoint(split_note(cp)[0])
    if data.draw(st.booleans(), label="wrong size"):
        size, root = data.draw(st.integers(0, 100).filter(lambda s: s != c.size)), c.root
    else:
        size, root = c.size, data.draw(st.binary(min_size=32, max_size=32).filter(lambda r: r != c.root))
    fr[k] = (raw, checkpoint_note(game.server, c.origin, size, root))
    e = failure(join(h, fr))
    assert e is not None and e.step == "5 (checkpoint)" and e.seq == k, e


# -- structured tampering, re-encoded canonically ----------------------------------------

def _leaves(v, path=()):
    """Every (path, scalar) inside a body: ints, bools, str and bytes."""
    if isinstance(v, dict):
        for key in sorted(v):
            yield from _leaves(v[key], path + (key,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _leaves(x, path + (i,))
    else:
        yield path, v


def _mutated(v, salt: int):
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + 1 + salt % 3 if v >= 0 else v - 1
    if isinstance(v, bytes):
        if not v:
            return b"\x00"
        b = bytearray(v)
        b[salt % len(b)] ^= 1 << (salt % 8)
        return bytes(b)
    if isinstance(v, str):
        return v + "x" if not v or salt % 2 else v[:-1] + chr(ord(v[-1]) ^ 1)
    if v is None:
        return 0
    raise AssertionError(type(v))


def _set(body, path, value):
    for p in path[:-1]:
        body = body[p]
    body[path[-1]] = value


@PROPS
@given(data=st.data(), resign=st.booleans())
def test_structured_change_reencoded_canonically_is_detected_at_its_record(game, bundle, data, resign):
    """Change one value anywhere in the body of a record k >= 1, re-encode canonically and
    re-chain. Without re-signing, checkpoint k no longer matches; with a dishonest server
    re-signing every checkpoint, the seat signatures, commitments, AEAD, dice or the replay
    must still catch it at k."""
    h, recs = bodies(bundle)
    k = data.draw(st.integers(1, len(recs) - 1), label="record")
    body = copy.deepcopy(recs[k][3])
    leaves = list(_leaves(body))
    path, old = leaves[data.draw(st.integers(0, len(leaves) - 1), label="leaf")]
    _set(body, path, _mutated(old, data.draw(st.integers(0, 255), label="salt")))
    recs[k] = recs[k][:3] + (body,)
    if resign:
        forged = rechain(h, recs, game.server)
    else:
        hh, fr = split(rechain(h, recs, game.server))
        _, orig = split(bundle)
        forged = join(hh, [(raw, cp) for (raw, _), (_, cp) in zip(fr, orig)])
    e = failure(forged)
    assert e is not None, f"record {k} {path}: {old!r} changed, not detected"
    assert e.seq == k, (path, e)
    if not resign:
        assert e.step == "5 (checkpoint)", e


@PROPS
@given(data=st.data())
def test_wrong_reveal_is_detected_at_the_opening(game, bundle, data):
    """The server publishes another value (or salt) for a committed hidden value."""
    h, recs = bodies(bundle)
    opens = [(k, i) for k, (_, _, _, b) in enumerate(recs) for i, ev in enumerate(b.get("events", []))
             if ev.get("t") == "open"]
    assert opens
    k, i = data.draw(st.sampled_from(opens))
    ev = recs[k][3]["events"][i]
    if data.draw(st.booleans(), label="salt"):
        ev["salt"] = data.draw(st.binary(min_size=32, max_size=32).filter(lambda s: s != ev["salt"]))
    else:
        ev["value"] = dict(ev["value"], number=data.draw(st.integers(0, 99).filter(lambda n: n != ev["value"]["number"])))
    e = failure(rechain(h, recs, game.server))
    assert e is not None and e.step == "7 (openings)" and e.seq == k, e


@PROPS
@given(data=st.data())
def test_forged_seat_signature_is_detected_at_its_record(game, bundle, data):
    """The server replaces a seat's signature (in clear, or inside a sealed command it
    re-seals with its own secret and re-commits)."""
    h, recs = bodies(bundle)
    seat_recs = [k for k, (_, _, kind, _) in enumerate(recs) if kind in ("commit", "reveal", "command")]
    k = data.draw(st.sampled_from(seat_recs))
    sig = data.draw(st.binary(min_size=64, max_size=64))
    game_id, seq, kind, body = recs[k]
    if "sealed" in body:
        secret = h["secret"]
        size = recs[0][3]["sealed_sizes"]["command"][body["seat"]]  # v2 pads (SPEC.md 6.5)
        op = _commit.unseal(_commit.seal_key(secret, game_id), game_id, seq, 0,
                            body["sealed"]["commit"], body["sealed"]["ct"], size)
        _, c, ct = _commit.seal(secret, game_id, seq, 0, {"env": op.value["env"], "sig": sig}, size)
        body["sealed"] = {"commit": c, "ct": ct}
    else:
        body["sig"] = sig
    e = failure(rechain(h, recs, game.server))
    assert e is not None and e.seq == k and e.step in ("6 (seats)", "9 (sealed)"), e
    assert "signature" in e.check


# -- a sanity check that the properties can fail -----------------------------------------

def test_untouched_bundle_and_identity_surgery_verify(game, bundle):
    h, fr = split(bundle)
    assert join(h, fr) == bundle
    hh, recs = bodies(bundle)
    assert rechain(hh, recs, game.server) == bundle
