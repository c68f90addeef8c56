"""Hostile bundles: a crafted bundle never crashes or hangs `aar verify`, and what
SPEC.md refuses is refused, also with --no-replay.

Each test is a case that failed before the bounds and checks of SPEC.md 1.1 rule 6, 1.2, 9 and
10 B.6/B.8 were added: a traceback (RecursionError, TypeError, KeyError), a replay that never
ended, or a bundle that verified although SPEC.md says it must fail."""
from __future__ import annotations

import copy
import json

import pytest

from afteraction.engine.local import derive_bytes

from afteraction.cli.main import main
from afteraction.engine.bots import random_bot
from afteraction.engine.crypto import canon
from afteraction.engine.errors import EncodingError, Rejection
from afteraction.engine.local import LocalGame
from afteraction.engine.log.bundle import MAGIC
from afteraction.engine.protocol import parse_record
from afteraction.engine.ruleset import Context

from .surgery import bodies, failure, join, rechain, split


def _run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _cli(capsys, tmp_path, data: bytes, *flags) -> tuple[int, dict]:
    """`aar verify --json`: exit code and the one JSON object; and the plain run gives one line."""
    p = tmp_path / "x.aar"
    p.write_bytes(data)
    code, out, err = _run(capsys, "verify", *flags, p)
    assert code in (1, 2), (code, out, err)
    assert (out if code == 1 else err).count("\n") == 1 and "Traceback" not in out + err
    code2, out, _ = _run(capsys, "verify", "--json", *flags, p)
    assert code2 == code
    return code, json.loads(out)


def _forge(game, bundle, seq, edit) -> bytes:
    """The dishonest server: edit record ``seq``'s body, re-chain and re-sign."""
    h, recs = bodies(bundle)
    g, s, kind, body = recs[seq]
    body = copy.deepcopy(body)
    edit(body)
    recs[seq] = (g, s, kind, body)
    return rechain(h, recs, game.server)


# -- 1. crashes ---------------------------------------------------------------------------

def _deep(levels: int) -> bytes:
    return b"\x91" * levels + b"\xc0"


def test_spec_1_1_deep_nesting_is_refused_not_a_recursion_error():
    # a deep value alone, and after an out-of-order key (the slow path that explains refusals)
    for raw in (_deep(1000), b"\x82\xa1b\x01\xa1a" + _deep(1000)):
        with pytest.raises(EncodingError, match="nested deeper"):
            canon.decode(raw)
        with pytest.raises(EncodingError):  # the client decodes the server's records with this
            parse_record(raw)
    assert canon.decode(_deep(canon.MAX_DEPTH)) is not None  # MAX_DEPTH nested arrays: fine
    with pytest.raises(EncodingError, match="nested deeper"):
        canon.decode(_deep(canon.MAX_DEPTH + 1))
    with pytest.raises(EncodingError, match="nested deeper"):  # the writer refuses it too
        canon.encode([canon.decode(_deep(canon.MAX_DEPTH))])


def test_spec_10_2_a_small_deeply_nested_bundle_is_a_numbered_failure(capsys, tmp_path, duel_bundle):
    header, frames = split(duel_bundle)
    header = dict(header, records=1)
    header.pop("secret", None)
    data = MAGIC + canon.encode(header) + canon.encode({"t": "record", "raw": _deep(1100), "checkpoint": ""})
    assert len(data) < 1300
    code, r = _cli(capsys, tmp_path, data)
    assert code == 1 and (r["step"], r["seq"]) == ("2 (encoding)", 0) and "nested deeper" in r["detail"]


def test_spec_1_3_a_seat_that_is_a_list_fails_step_6(capsys, tmp_path, duel_game, duel_bundle):
    data = _forge(duel_game, duel_bundle, 1, lambda b: b.update(seat=["a"]))
    code, r = _cli(capsys, tmp_path, data, "--no-replay")
    assert code == 1 and (r["step"], r["seq"]) == ("6 (seats)", 1), r


def _end_after_handshake(game, bundle) -> bytes:
    h, recs = bodies(bundle)
    n = next(i for i, r in enumerate(recs) if r[2] == "command")  # first record after the handshake
    end = recs[-1]
    return rechain(dict(h, records=n + 1), recs[:n] + [(end[0], n, "end", end[3])], game.server)


def test_spec_8_an_end_record_right_after_the_handshake_fails_step_8(capsys, tmp_path, duel_game, duel_bundle):
    data = _end_after_handshake(duel_game, duel_bundle)
    for flags in ((), ("--no-replay",)):
        code, r = _cli(capsys, tmp_path, data, *flags)
        assert code == 1 and r["step"] == "8 (end)" and "follows the command record" in r["check"], r


def test_verifier_never_raises_anything_but_verification_error(duel_game, duel_bundle, monkeypatch):
    """The catch-all: a check this verifier lacks is a failure of the step in progress."""
    from afteraction.engine.log import verify

    def broken(salt, value):
        raise KeyError("env")

    monkeypatch.setattr(verify._commit, "commitment", broken)
    # the first commitment computed: a sealed value opened in step 9 (the secret is known)
    n = next(r[1] for r in bodies(duel_bundle)[1] if any(ev.get("t") == "sealed" for ev in r[3].get("events", [])))
    e = failure(duel_bundle)
    assert e is not None and (e.step, e.seq) == ("9 (sealed)", n) and "KeyError" in e.detail, e
    assert "the verifier failed on this record" in e.check


def test_cli_catch_all_prints_one_json_object(capsys, tmp_path, duel_bundle, monkeypatch):
    from afteraction.engine.log import verify

    monkeypatch.setattr(verify, "read_bundle", lambda f: (_ for _ in ()).throw(MemoryError("boom")))
    code, r = _cli(capsys, tmp_path, duel_bundle)
    assert code == 1 and r["verified"] is False and "MemoryError" in r["detail"]


# -- 2. hangs: genesis options re-checked -------------------------------------------------

@pytest.fixture(scope="module")
def sog_game():
    g = LocalGame.create("sog", seed=b"tests/hostile/sog")
    g.handshake()
    g.run_bots(random_bot(b"tests/hostile/sog"))
    return g


def test_spec_10_b6_sog_lz_count_10_12_fails_step_4_instead_of_replaying_forever(sog_game):
    data = _forge(sog_game, sog_game.bundle(), 0, lambda b: b["options"].update(lz_count=10**12))
    e = failure(data)
    assert e is not None and (e.step, e.seq) == ("4 (genesis)", 0) and "lz_count is 1 to 5" in e.detail, e
    e = failure(data, replay=False)  # the options are checked without replay too
    assert e is not None and (e.step, e.seq) == ("4 (genesis)", 0)


def test_spec_10_b6_genesis_options_must_have_every_default(duel_game, duel_bundle):
    e = failure(_forge(duel_game, duel_bundle, 0, lambda b: b["options"].clear()), replay=False)
    assert e is not None and (e.step, e.seq) == ("4 (genesis)", 0) and "defaults filled in" in e.check


def test_spec_10_b6_genesis_option_of_the_wrong_type(duel_game, duel_bundle):
    e = failure(_forge(duel_game, duel_bundle, 0, lambda b: b["options"].update(rounds=True)), replay=False)
    assert e is not None and (e.step, e.seq) == ("4 (genesis)", 0) and "BAD_OPTION" in e.detail


def test_spec_10_b6_genesis_seats_in_the_ruleset_order(duel_game, duel_bundle):
    e = failure(_forge(duel_game, duel_bundle, 0, lambda b: b["seats"].reverse()), replay=False)
    assert e is not None and (e.step, e.seq) == ("4 (genesis)", 0) and "order" in e.check


def test_gmv_turns_are_checked_at_creation_as_the_verifier_checks_them():
    from afteraction.engine import registry

    with pytest.raises(Rejection, match="turns is 1..50"):
        registry.get("gmv").check_options("1965", {"turns": 51})


def test_context_refuses_more_events_than_the_ruleset_declares():
    ctx = Context(1, lambda die, rule: None, None, max_events=3)
    for _ in range(3):
        ctx.emit({"t": "x"})
    with pytest.raises(Rejection) as e:
        ctx.emit({"t": "x"})
    assert e.value.code == "TOO_MANY_EVENTS"


# -- 3. lenient reading -------------------------------------------------------------------

def test_spec_9_a_partial_frame_after_a_valid_bundle_fails_step_1(capsys, tmp_path, duel_bundle):
    tail = canon.encode({"t": "record", "raw": b"x" * 40, "checkpoint": ""})[:10]
    code, r = _cli(capsys, tmp_path, duel_bundle + tail)
    assert code == 1 and (r["step"], r["seq"]) == ("1 (bundle)", 12) and "ends inside a frame" in r["detail"], r


def test_spec_9_one_trailing_byte_fails_step_1(capsys, tmp_path, duel_bundle):
    code, r = _cli(capsys, tmp_path, duel_bundle + b"\x05")
    assert code == 1 and (r["step"], r["seq"]) == ("1 (bundle)", 12)


@pytest.mark.parametrize("edit", [
    {"records": True}, {"records": -1}, {"records": "12"}, {"secret": None}, {"secret": b"x" * 31},
    {"game": b"g"},
], ids=["records-true", "records-negative", "records-text", "secret-nil", "secret-31", "game-bytes"])
def test_spec_9_header_fields_have_exactly_their_types(capsys, tmp_path, duel_bundle, edit):
    header, frames = split(duel_bundle)
    code, r = _cli(capsys, tmp_path, join(dict(header, **edit), frames))
    assert code == 2 and r["unreadable"] is True and r["step"] == "1 (bundle)", r


def test_spec_8_no_replay_checks_the_outcome_shape(duel_game, duel_bundle):
    last = len(bodies(duel_bundle)[1]) - 1
    for edit in (lambda b: b["outcome"].update(winner="nobody"), lambda b: b.update(outcome="b wins"),
                 lambda b: b["outcome"].pop("reason"), lambda b: b.update(events=[])):
        e = failure(_forge(duel_game, duel_bundle, last, edit), replay=False)
        assert e is not None and (e.step, e.seq) == ("8 (end)", last), e


def test_spec_8_no_replay_says_the_outcome_is_not_checked(duel_bundle):
    import io

    from afteraction.engine.log.verify import verify_bundle

    r = verify_bundle(io.BytesIO(duel_bundle), replay=False)
    assert any("outcome checked for its shape only" in n for n in r.notes)
    assert not any("outcome" in n for n in verify_bundle(io.BytesIO(duel_bundle)).notes)


def test_spec_8_an_end_after_a_command_that_did_not_end_the_game_fails_step_11(duel_game, duel_bundle):
    h, recs = bodies(duel_bundle)
    n = next(i for i, r in enumerate(recs) if r[2] == "command")
    end = recs[-1]
    data = rechain(dict(h, records=n + 2), recs[:n + 1] + [(end[0], n + 1, "end", end[3])], duel_game.server)
    e = failure(data)
    assert e is not None and (e.step, e.seq) == ("11 (replay)", n + 1), e
    assert failure(data, replay=False) is None  # what SPEC.md 10.3 says --no-replay cannot see


# -- the client decodes the server's records with the same code ------------------------------

@pytest.mark.parametrize("edit", [
    lambda b: b.update(events=5), lambda b: b.update(events=[1]), lambda b: b.update(ctr="1"),
    lambda b: b.update(sealed=[]), lambda b: b.update(events=[{"t": "sealed", "k": "1", "commit": b""}]),
], ids=["events-int", "event-int", "ctr-text", "sealed-array", "sealed-k-text"])
def test_client_refuses_a_hostile_record_with_bad_record(duel_game, edit):
    """The server's record is well signed (a dishonest server signs what it likes) but a field
    has the wrong type: the seat's verifier refuses it at the step that reads the field, with
    BadRecord, never a TypeError or KeyError, and signs nothing after it."""
    from afteraction.client.client import BadRecord, Client
    from afteraction.client.seat import Seat
    from afteraction.engine.crypto.merkle import CompactTree
    from afteraction.engine.local import checkpoint_note
    from afteraction.engine.protocol import make_record
    from afteraction.v1 import game_service_pb2 as gs

    class Stub:
        def server_vkey(self):
            return duel_game.server.verifier.vkey

        def game_vkey(self, game_id):   # the key the game's genesis names (one key here)
            return duel_game.server.verifier.vkey

        log_verifier = Client.log_verifier

    g = duel_game
    seat = Seat(Stub(), g.referee.game_id, "a", derive_bytes(b"tests/duel", "seat-key/a"))
    r0, r1 = g.records[0], g.records[1]
    seat.see_record(gs.LogRecord(seq=0, record=r0.raw, checkpoint=g.checkpoints[0]))
    body = copy.deepcopy(r1.body)
    edit(body)
    forged = make_record(r1.game, 1, r1.prev, r1.kind, body, r1.v)
    tree = CompactTree()
    tree.append(r0.leaf)
    tree.append(forged.leaf)
    note = checkpoint_note(g.server, r0.body["server"]["origin"], 2, tree.root())
    with pytest.raises(BadRecord) as e:
        seat.see_record(gs.LogRecord(seq=1, record=forged.raw, checkpoint=note))
    assert e.value.error.step not in ("5 (checkpoint)",), e.value  # the field check, not the signature
    seat2 = Seat(Stub(), g.referee.game_id, "a", derive_bytes(b"tests/duel", "seat-key/a"))
    seat2.see_record(gs.LogRecord(seq=0, record=r0.raw, checkpoint=g.checkpoints[0]))
    with pytest.raises(BadRecord):
        seat2.see_record(gs.LogRecord(seq=1, record=_deep(1000), checkpoint=note))
    for s in (seat, seat2):  # a seat that saw a bad log signs nothing more
        with pytest.raises(BadRecord):
            s.head()


def test_sog_helicopter_insertion_with_lz_count_10_12_stops_at_the_event_bound(sog_game):
    """The loop the hang came from (SOG 3.4.2 rolls lz_count LZs): even with options that escaped
    the check, one record's work stops at Ruleset.max_events instead of running for ever."""
    import time

    from afteraction.engine.games.sog import insertion

    s = copy.deepcopy(sog_game.referee.state)
    s["options"]["lz_count"] = 10**12
    ctx = Context.for_tests(seq=5)
    t = time.perf_counter()
    with pytest.raises(Rejection) as e:
        insertion.insert_helicopter(s, ctx)
    assert e.value.code == "TOO_MANY_EVENTS" and len(ctx.events) == ctx.max_events
    assert time.perf_counter() - t < 60  # it ran for ever before (killed after minutes)
