"""Fuzzing the verifier and the client's record decoding with hostile bundles.

Structure-aware: real bundles of every game (duel and SOG whole, GMV and NTND as their first
records with the secret in the header, so that steps 9-11 run on every record) are mutated at
the byte, frame, header, record and body-field level, with and without the dishonest server's
re-chaining and re-signing (which takes a mutation past steps 3 and 5 to the checks behind
them); random bytes too. Every input must end with a Report or a VerificationError (``aar
verify``: exit 0, 1 or 2 and one line, one JSON object with --json), within time and traced
memory bounded by the input's size, and the client's record decoding (``parse_record``,
``Seat.see_record``) raises nothing but its own errors.

Bounded and reproducible: fixed example counts, derandomized, no deadline per example (the
bound on each input is the explicit one below). ``AAR_FUZZ_EXAMPLES=N`` runs N random examples
per test instead, for a longer hunt."""
from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import time
import tracemalloc

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from afteraction.cli.main import main
from afteraction.client.client import Client, ClientError
from afteraction.client.seat import Seat
from afteraction.engine.bots import random_bot
from afteraction.engine.crypto import canon
from afteraction.engine.errors import EncodingError, VerificationError
from afteraction.engine.crypto.merkle import CompactTree
from afteraction.engine.local import LocalGame, checkpoint_note, derive_bytes
from afteraction.engine.log.bundle import MAGIC, write_bundle
from afteraction.engine.protocol import KINDS, ZERO_HASH, make_record, parse_record
from afteraction.engine.log.verify import verify_bundle
from afteraction.v1 import game_service_pb2 as gs

from .surgery import join, split

# AAR_FUZZ_EXAMPLES=N: a longer, random (not derandomized) run, e.g. before a release.
_LONG = int(os.environ.get("AAR_FUZZ_EXAMPLES", "0"))


def _fuzz(n: int, *checks):
    return settings(max_examples=_LONG or n, deadline=None, derandomize=not _LONG, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, *checks])


FUZZ = _fuzz(60)

# Bounds every input must stay within (generous: the machine is shared; the point is that
# nothing grows without bound, not a speed target, which lives in bench/).
SECONDS = 5.0            # + per byte below
SECONDS_PER_BYTE = 2e-5
MEMORY = 16 << 20        # traced bytes + per input byte below
MEMORY_PER_BYTE = 64


def _prefix_bundle(g: LocalGame, seed: bytes, n: int) -> bytes:
    """The first ``n`` records with the server secret in the header: steps 9-11 run on each."""
    out = io.BytesIO()
    write_bundle(out, g.referee.game_id, g.server.verifier.vkey,
                 ((r.raw, c) for r, c in list(zip(g.records, g.checkpoints))[:n]), n,
                 derive_bytes(seed, "server-secret"))
    return out.getvalue()


def _make(game: str) -> tuple[bytes, LocalGame]:
    seed = f"tests/fuzz/{game}".encode()
    g = LocalGame.create(game, seed=seed)
    g.handshake()
    if game in ("duel", "sog"):
        g.run_bots(random_bot(seed))
        return g.bundle(), g
    g.run_bots(random_bot(seed), max_commands=16)
    return _prefix_bundle(g, seed, len(g.records)), g


@pytest.fixture(scope="module")
def games() -> dict[str, tuple[bytes, LocalGame]]:
    return {name: _make(name) for name in ("duel", "sog", "gmv", "ntnd")}


def _contained(data: bytes, replay: bool = True) -> VerificationError | None:
    """Verify ``data``: a Report or a VerificationError, nothing else, within the bounds."""
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        verify_bundle(io.BytesIO(data), replay=replay)
        err = None
    except VerificationError as e:
        err = e
    finally:
        elapsed = time.perf_counter() - t0
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert elapsed < SECONDS + SECONDS_PER_BYTE * len(data), (elapsed, len(data))
    assert peak < MEMORY + MEMORY_PER_BYTE * len(data), (peak, len(data))
    return err


class _StubClient:
    def __init__(self, vkey: str) -> None:
        self.vkey = vkey

    def server_vkey(self) -> str:
        return self.vkey

    def game_vkey(self, game_id: str) -> str:   # the key the game's genesis names (one key here)
        return self.vkey

    log_verifier = Client.log_verifier


def _client_sees(g: LocalGame, raws: list[bytes]) -> None:
    """The client's decoding of the server's records: its own errors only."""
    first = g.referee.seat_order[0]
    seat = Seat(_StubClient(g.server.verifier.vkey), g.referee.game_id, first, g.seats[first].seed,
                cosign=False)  # no server to give a cosignature to
    for i, raw in enumerate(raws):
        try:
            parse_record(raw)
        except EncodingError:
            pass
        try:
            cp = g.checkpoints[i] if i < len(g.checkpoints) else ""
            seat.see_record(gs.LogRecord(seq=i, record=raw, checkpoint=cp))
        except ClientError:
            return


# -- hostile values -------------------------------------------------------------------

_scalars = (st.none() | st.booleans() | st.sampled_from([0, 1, -1, 2**63 - 1, 2**64 - 1, -(2**63), 10**12])
            | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=12)
            | st.sampled_from([b"", bytes(31), bytes(32), bytes(33), bytes(64)]) | st.binary(max_size=40))
_values = st.recursive(_scalars, lambda kids: st.lists(kids, max_size=4)
                       | st.dictionaries(st.sampled_from(["t", "k", "seat", "ctr", "env", "sig", "commit", "ct",
                                                          "ref", "salt", "value", "winner", "reason", "x"]),
                                         kids, max_size=4), max_leaves=12)


def _nest(levels: int):
    v = None
    for _ in range(levels):
        v = [v]
    return v


def _paths(v, path=()):
    """Every path into a decoded value (map keys and array indices)."""
    yield path
    if type(v) is dict:
        for k, x in v.items():
            yield from _paths(x, path + (k,))
    elif type(v) is list:
        for i, x in enumerate(v):
            yield from _paths(x, path + (i,))


def _set(root, path, value):
    if not path:
        return value
    node = root
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return root


def _delete(root, path):
    node = root
    for p in path[:-1]:
        node = node[p]
    if type(node) is dict:
        del node[path[-1]]
    else:
        node.pop(path[-1])
    return root


# -- mutations ------------------------------------------------------------------------

def _mutate_bytes(data: st.DataObject, b: bytes) -> bytes:
    b = bytearray(b)
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["flip", "insert", "delete", "cut", "append"]))
        i = data.draw(st.integers(0, max(0, len(b) - 1)))
        if op == "flip" and b:
            b[i] ^= 1 << data.draw(st.integers(0, 7))
        elif op == "insert":
            b[i:i] = data.draw(st.binary(min_size=1, max_size=8))
        elif op == "delete":
            del b[i:i + data.draw(st.integers(1, 8))]
        elif op == "cut":
            del b[i:]
        else:
            b += data.draw(st.binary(min_size=1, max_size=16))
    return bytes(b)


def _mutate_frames(data: st.DataObject, bundle: bytes) -> bytes:
    header, frames = split(bundle)
    frames = list(frames)
    op = data.draw(st.sampled_from(["drop", "dup", "swap", "junk-frame", "header-field", "header-drop",
                                    "raw-bytes", "checkpoint", "tail"]))
    i = data.draw(st.integers(0, len(frames) - 1))
    raw_frames = [canon.encode({"t": "record", "raw": r, "checkpoint": c}) for r, c in frames]
    if op == "drop":
        del frames[i]
    elif op == "dup":
        frames.insert(i, frames[i])
    elif op == "swap":
        j = data.draw(st.integers(0, len(frames) - 1))
        frames[i], frames[j] = frames[j], frames[i]
    elif op == "junk-frame":  # any msgpack value, not necessarily canonical, in place of a frame
        raw_frames[i] = msgpack.packb(data.draw(_values), use_bin_type=data.draw(st.booleans()))
        return MAGIC + canon.encode(header) + b"".join(raw_frames)
    elif op == "header-field":
        header = dict(header)
        header[data.draw(st.sampled_from(["t", "game", "server_vkey", "records", "secret", "extra"]))] = \
            data.draw(_values)
    elif op == "header-drop":
        header = dict(header)
        header.pop(data.draw(st.sampled_from(sorted(header))))
    elif op == "raw-bytes":
        frames[i] = (_mutate_bytes(data, frames[i][0]), frames[i][1])
    elif op == "checkpoint":
        frames[i] = (frames[i][0], data.draw(st.sampled_from(["", frames[i][1][:-5], frames[i][1] + "x\n",
                                                               frames[(i + 1) % len(frames)][1]])))
    else:
        return bundle + data.draw(st.binary(min_size=1, max_size=40))
    return join(header, frames)


def _mutate_record(data: st.DataObject, g: LocalGame, bundle: bytes, resign: bool) -> tuple[bytes, list[bytes]]:
    """Edit one record (a field, a kind, a body path: replaced, deleted, a deep value), then
    re-encode it in place, or re-chain and re-sign everything as the dishonest server."""
    header, frames = split(bundle)
    recs = [parse_record(r) for r, _ in frames]
    i = data.draw(st.integers(0, len(recs) - 1))
    r = recs[i]
    body = copy.deepcopy(r.body)
    kind, seq, game = r.kind, r.seq, r.game
    op = data.draw(st.sampled_from(["kind", "body-path", "body-path", "body-path", "delete", "deep"]))
    if op == "kind":
        kind = data.draw(st.sampled_from(KINDS))
    else:
        paths = list(_paths(body))[1:] or [()]
        path = data.draw(st.sampled_from(paths))
        if op == "delete" and path:
            body = _delete(body, path)
        elif op == "deep":
            body = _set(body, path, _nest(data.draw(st.sampled_from([8, 60, 70, 1000]))))
        else:
            body = _set(body, path, data.draw(_values))
    if type(body) is not dict:
        body = {"x": body}
    bodies = [(x.game, x.seq, x.kind, x.body) for x in recs]
    bodies[i] = (game, seq, kind, body)
    try:
        if resign:
            out = _rechain(header, bodies, g)
        else:  # in place: the same checkpoints, the record re-encoded (the chain breaks at it)
            nr = make_record(game, seq, r.prev, kind, body, r.v)
            frames[i] = (nr.raw, frames[i][1])
            out = join(header, frames)
    except EncodingError:  # too deep to encode canonically: the same map, packed as it stands
        raw = msgpack.packb({"body": body, "game": game, "kind": kind, "prev": r.prev, "seq": seq, "v": r.v},
                            use_bin_type=True)
        frames[i] = (raw, frames[i][1])
        out = join(header, frames)
    _, fr = split(out)
    return out, [raw for raw, _ in fr]


def _rechain(header: dict, bodies: list, g: LocalGame) -> bytes:
    """surgery.rechain, signing for the game's real origin (the edit may have broken genesis's)."""
    origin = g.referee.genesis.body["server"]["origin"]
    tree, prev, frames = CompactTree(), ZERO_HASH, []
    for game, seq, kind, body in bodies:
        r = make_record(game, seq, prev, kind, body, g.referee.version)
        prev = r.hash
        tree.append(r.leaf)
        frames.append((r.raw, checkpoint_note(g.server, origin, tree.size, tree.root())))
    return join(header, frames)


# -- the properties -------------------------------------------------------------------

GAMES = ["duel", "sog", "gmv", "ntnd"]


@pytest.mark.parametrize("name", GAMES)
def test_fuzz_real_bundles_verify_as_before(games, name):
    """The unmutated bundles: ended ones verify, prefixes with a secret fail only at the end."""
    bundle, _ = games[name]
    e = _contained(bundle)
    if name in ("duel", "sog"):
        assert e is None
    else:
        assert e is not None and e.step == "8 (end)" and "no end record" in e.check, e


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.data())
def test_fuzz_bytes_and_frames(games, name, data):
    bundle, g = games[name]
    if data.draw(st.booleans()):
        mutated = _mutate_bytes(data, bundle)
    else:
        mutated = _mutate_frames(data, bundle)
    _contained(mutated, replay=data.draw(st.booleans()))


@pytest.mark.parametrize("name", GAMES)
@_fuzz(80)
@given(data=st.data())
def test_fuzz_records_and_fields(games, name, data):
    bundle, g = games[name]
    resign = data.draw(st.booleans())
    mutated, raws = _mutate_record(data, g, bundle, resign)
    e = _contained(mutated, replay=data.draw(st.booleans()))
    _client_sees(g, raws)


@_fuzz(150)
@given(st.binary(max_size=3000), st.booleans())
def test_fuzz_random_bytes(b, magic):
    data = (MAGIC + b) if magic else b
    e = _contained(data)
    assert e is not None  # random bytes are never a verified log
    try:  # the client's decoding of a record: a Record or EncodingError
        parse_record(b)
    except EncodingError:
        pass


@pytest.fixture(scope="module")
def cli_file(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz") / "x.aar"


def _aar_verify(path, *flags) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["verify", *flags, str(path)])
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", ["duel", "ntnd"])
@_fuzz(25, HealthCheck.function_scoped_fixture)
@given(data=st.data())
def test_fuzz_aar_verify_exit_codes_and_one_line(games, cli_file, name, data):
    bundle, g = games[name]
    how = data.draw(st.sampled_from(["bytes", "frames", "record", "resign"]))
    if how == "bytes":
        mutated = _mutate_bytes(data, bundle)
    elif how == "frames":
        mutated = _mutate_frames(data, bundle)
    else:
        mutated, _ = _mutate_record(data, g, bundle, how == "resign")
    cli_file.write_bytes(mutated)
    flags = ("--no-replay",) if data.draw(st.booleans()) else ()
    code, out, err = _aar_verify(cli_file, *flags)
    assert code in (0, 1, 2), (code, out, err)
    assert "Traceback" not in out + err
    if code == 2:
        assert out == "" and err.count("\n") == 1 and err.startswith("aar verify: ")
    elif code == 1:
        assert err == "" and out.count("\n") == 1 and out.startswith("NOT VERIFIED: step ")
    code_j, out_j, _ = _aar_verify(cli_file, "--json", *flags)
    assert code_j == code and out_j.count("\n") == 1
    r = json.loads(out_j)
    assert r["verified"] is (code == 0)
    if code == 1:
        assert r["step"].split(" ")[0] in {str(i) for i in range(1, 12)}
    if code == 2:
        assert r["unreadable"] is True


@pytest.mark.parametrize("shape", ["array-of-nils", "map-of-short-keys", "small-nested-maps"])
def test_the_costliest_records_of_max_size_stay_within_the_memory_bound(shape):
    """The worst a record can do to a reader's memory: 1 MiB (SPEC.md 1.2) of the values that take
    the fewest bytes each. Decoded Python objects weigh 11x (nils), 23x (short keys) and about 55x
    (small nested maps) the bytes: bounded per record, and only one record is held at a time."""
    from afteraction.engine.protocol import MAX_RECORD

    n = MAX_RECORD - 64
    if shape == "array-of-nils":
        raw = msgpack.packb([None] * (n - 10))
    elif shape == "map-of-short-keys":
        keys, size, i = [], 0, 0
        while size < n - 100:
            keys.append(format(i, "x"))
            size += len(keys[-1]) + 2
            i += 1
        raw = msgpack.packb({k: None for k in sorted(keys)})
    else:
        raw = msgpack.packb([{"a": [None]}] * (n // 6))
    tracemalloc.start()
    try:
        with pytest.raises(EncodingError):  # not a record, after decoding it whole
            parse_record(raw)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_PER_BYTE * len(raw), (peak, len(raw))
