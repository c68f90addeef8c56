"""Over the real service (port 0, SQLite): for SOG, GMV and NTND a resignation, an
agreed result, a time-out and an abandonment, each exported and verified by ``aar verify
--json`` with its end cause (SPEC.md 8.1-8.3). The service's clock is injected: nothing sleeps."""
from __future__ import annotations

import json
import threading

import grpc
import pytest

from afteraction.cli.main import main as aar
from afteraction.client.client import Client, ClientError
from afteraction.client.seat import Seat
from afteraction.engine import registry
from afteraction.engine.bots import random_bot
from afteraction.engine.local import derive_bytes
from afteraction.engine.seat import SeatSigner

from .conftest import handshake

T0 = 1_764_000_000_000  # the injected clock's start, ms
GAMES = ["sog", "gmv", "ntnd"]


class FakeClock:
    def __init__(self) -> None:
        self.t = T0

    def __call__(self) -> int:
        return self.t


def new_game(server, game: str, clock=None, seed: bytes = b"endings"):
    fake = FakeClock()
    server.games.now = fake
    rs = registry.get(game)
    c = Client(server.target, timeout=30)
    keys = {s: derive_bytes(seed, f"key/{s}") for s in rs.seats}
    gid = c.create_game(game, {s: SeatSigner(s, k).public for s, k in keys.items()}, clock=clock).game_id
    seats = {s: Seat(c, gid, s, keys[s], entropy=derive_bytes(seed, f"entropy/{s}")) for s in rs.seats}
    return c, gid, seats, fake


def play(seats: dict, fake: FakeClock, n: int, step_ms: int = 1000) -> None:
    """``n`` game commands by random bots, the clock advancing ``step_ms`` before each."""
    bot = random_bot(b"endings")
    for _ in range(n):
        for s in seats.values():
            lg = s.legal()
            if lg.commands:
                fake.t += step_ms
                s.submit(s.sign_command(lg.state_seq, bot(s.seat, list(lg.commands))))
                break


def verified_cause(c: Client, gid: str, tmp_path, capsys) -> dict:
    path = tmp_path / f"{gid}.aar"
    path.write_bytes(c.export(gid))
    capsys.readouterr()
    code = aar(["verify", str(path), "--server-key", c.server_vkey(), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["verified"] and out["ended"] and out["replayed"], out
    return out


@pytest.mark.parametrize("game", GAMES)
def test_resignation_over_the_service_verifies_with_its_cause(server, game, tmp_path, capsys):
    c, gid, seats, fake = new_game(server, game)
    handshake(seats)
    play(seats, fake, 2)
    first, second = registry.get(game).seats
    watched, clocks = [], []
    w = threading.Thread(target=lambda: watched.append(c.watch(gid, on_clocks=clocks.append)), daemon=True)
    w.start()
    for _ in range(400):  # until the watcher has read the log so far and the clocks after it
        if clocks:
            break
        w.join(0.05)
    seats[second].resign()  # out of turn or not: any seat, any time
    w.join(30)
    assert watched and watched[0].ended_at is not None and {x.seat for x in clocks[0].seats} == set(seats)
    out = verified_cause(c, gid, tmp_path, capsys)
    assert out["cause"] == {"kind": "resign", "seat": second}
    assert out["outcome"] == {"winner": first, "reason": f"seat {second} resigned"}
    st = c.state(gid)
    assert st.ended and json.loads(st.cause_json) == out["cause"] and json.loads(st.outcome_json) == out["outcome"]


@pytest.mark.parametrize("game", GAMES)
def test_agreed_result_over_the_service_verifies_with_its_cause(server, game, tmp_path, capsys):
    c, gid, seats, fake = new_game(server, game)
    handshake(seats)
    play(seats, fake, 1)
    a, b = registry.get(game).seats
    seats[a].offer(None)
    assert seats[b].standing_offer()[1:] == (a, None)
    seats[b].accept()
    out = verified_cause(c, gid, tmp_path, capsys)
    assert out["cause"]["kind"] == "agree" and out["cause"]["winner"] is None
    assert out["outcome"] == {"winner": None, "reason": "agreed draw"}


@pytest.mark.parametrize("game", GAMES)
def test_time_out_over_the_service_verifies_with_its_cause(server, game, tmp_path, capsys):
    c, gid, seats, fake = new_game(server, game, clock={"decision_ms": 60_000, "total_ms": 600_000})
    handshake(seats)
    play(seats, fake, 2)
    st = c.state(gid)
    pending = st.decision.seat
    clocks = {x.seat: x for x in st.clocks.seats}
    assert clocks[pending].running and clocks[pending].left_ms == 60_000
    fake.t += 60_001  # past the pending seat's decision deadline
    lg = seats[pending].legal()
    assert not lg.commands  # the first request after the deadline ended the game
    st = c.state(gid)
    assert st.ended and json.loads(st.cause_json)["kind"] == "timeout"
    out = verified_cause(c, gid, tmp_path, capsys)
    cause = out["cause"]
    assert (cause["kind"], cause["seat"], cause["control"]) == ("timeout", pending, "decision")
    assert out["outcome"]["winner"] == next(s for s in seats if s != pending)


@pytest.mark.parametrize("game", GAMES)
def test_abandonment_over_the_service_verifies_with_its_cause(server, game, tmp_path, capsys):
    c, gid, seats, fake = new_game(server, game, clock={"abandon_ms": 3_600_000})
    handshake(seats)
    fake.t += 3_600_001
    st = c.state(gid)  # GetState ends it: no seat acted for the limit
    assert st.ended
    out = verified_cause(c, gid, tmp_path, capsys)
    assert out["cause"]["kind"] == "abandon" and out["outcome"]["winner"] is None


def test_a_command_after_the_deadline_is_refused_and_the_game_ends(server):
    c, gid, seats, fake = new_game(server, "duel", clock={"decision_ms": 5_000})
    handshake(seats)
    lg = seats["a"].legal()
    signed = seats["a"].sign_command(lg.state_seq, lg.commands[0])
    fake.t += 5_001
    with pytest.raises(ClientError) as e:
        seats["a"].submit(signed)
    assert e.value.reason == "GAME_OVER"
    assert json.loads(c.state(gid).cause_json)["kind"] == "timeout"


def test_bad_clock_and_bad_offers_are_refused_with_their_reasons(server):
    with pytest.raises(ClientError) as e:
        new_game(server, "duel", clock={"decision_ms": 10})
    assert e.value.reason == "BAD_CLOCK" and e.value.code == grpc.StatusCode.INVALID_ARGUMENT
    c, gid, seats, fake = new_game(server, "duel")
    handshake(seats)
    with pytest.raises(ClientError) as e:
        seats["a"].offer("nobody")
    assert e.value.reason == "BAD_RESULT" and e.value.code == grpc.StatusCode.INVALID_ARGUMENT
    seats["a"].offer("b")
    offer_seq = seats["a"].next_seq - 1
    with pytest.raises(ClientError) as e:  # format 3: one standing offer per seat (SPEC.md 8.1)
        seats["a"].offer(None)
    assert e.value.reason == "OFFER_STANDING" and e.value.code == grpc.StatusCode.FAILED_PRECONDITION
    for _ in range(2):  # the seat to move moves; once b has answered, a's offer lapses
        mover = c.state(gid).decision.seat
        lg = seats[mover].legal()
        seats[mover].submit(seats[mover].sign_command(lg.state_seq, lg.commands[0]))
        if mover == "b":
            break
    assert seats["b"].standing_offer() is None
    head = seats["b"].head()
    with pytest.raises(ClientError) as e:
        seats["b"].submit(seats["b"]._sign(lambda: seats["b"].signer.accept(gid, head, offer_seq, "b")))
    assert e.value.reason == "NO_OFFER" and e.value.code == grpc.StatusCode.FAILED_PRECONDITION


def test_watch_gives_each_seats_time_left_and_a_rebuilt_cache_replays_the_times(server):
    c, gid, seats, fake = new_game(server, "duel", clock={"decision_ms": 10_000, "total_ms": 25_000})
    handshake(seats)
    play(seats, fake, 1, step_ms=4_000)  # a spent 4 s of its 25
    clocks = []
    fake.t += 2_000  # b has thought for 2 s
    from afteraction.v1 import game_service_pb2 as gs

    it = c.game.Watch(gs.WatchRequest(game_id=gid), timeout=10)
    for m in it:
        if m.WhichOneof("kind") == "clocks":
            clocks.append(m.clocks)
            break
    it.cancel()
    left = {x.seat: x for x in clocks[0].seats}
    assert clocks[0].now_ms == fake.t
    assert (left["b"].running, left["b"].left_ms, left["b"].total_left_ms) == (True, 8_000, 23_000)
    assert (left["a"].running, left["a"].left_ms, left["a"].total_left_ms) == (False, 10_000, 21_000)
    server.games._live.clear()  # the next use rebuilds the referee from the store, with the stored times
    fake.t += 8_001
    assert json.loads(c.state(gid).cause_json) == {"kind": "timeout", "seat": "b", "control": "decision",
                                                   "since": 5, "deadline": T0 + 4_000 + 10_000}
    server.games._live.clear()  # and a game ended by time loads again (the end record has no command)
    st = c.state(gid)
    assert st.ended and json.loads(st.cause_json)["kind"] == "timeout"


def test_a_seat_timed_out_keeps_its_refused_envelope_and_aar_evidence_reads_it(server, tmp_path, capsys):
    """SPEC.md 8.2: a seat's signed answer, refused because the server ended the game first, is
    kept beside its checkpoint file; against the exported log it shows the position it answered at
    (the end record's seq, with the same prev: the same history), which is all it can show."""
    c, gid, seats, fake = new_game(server, "duel", clock={"decision_ms": 5_000})
    a = seats["a"]
    a.checkpoint_file = str(tmp_path / "a.checkpoint")
    handshake(seats)
    lg = a.legal()
    signed = a.sign_command(lg.state_seq, lg.commands[0])
    fake.t += 5_001
    with pytest.raises(ClientError) as e:
        a.submit(signed)
    assert e.value.reason == "GAME_OVER"
    kept = tmp_path / f"a.checkpoint.refused-{a.log_counter + 1}"
    assert kept.read_bytes() == signed
    bundle = tmp_path / "g.aar"
    bundle.write_bytes(c.export(gid))
    capsys.readouterr()
    code = aar(["evidence", str(kept), str(bundle)])
    out = capsys.readouterr().out
    # the same history (no fork): the envelope answers at seq 5, where the end record stands instead;
    # That is named (exit 3), no longer a plain "consistent" (exit 0)
    assert code == 3 and f"consistent: the bundle's record {lg.state_seq - 1} is the one seat a signed against" in out, out
    assert "CONTESTED: record 5 ends the game by a time-out of seat a" in out, out
    end = verified_cause(c, gid, tmp_path, capsys)
    assert end["cause"]["kind"] == "timeout" and end["records"] == lg.state_seq + 1


def test_the_clock_sweep_ends_a_cached_game_past_its_deadline_and_leaves_the_others_alone(server):
    """The server's timer (``GameManager.sweep``, every CLOCK_SWEEP_S): a cached game past its
    deadline ends without any request; a game not due is not even locked (the sweep does not wait
    behind a command in play)."""
    c, due, seats, fake = new_game(server, "duel", clock={"decision_ms": 5_000})
    handshake(seats)
    c2, busy, seats2, _ = new_game(server, "duel", clock={"decision_ms": 60_000})
    server.games.now = fake
    handshake(seats2)
    games = server.games
    fake.t += 5_001
    with games._game_lock(busy):  # a command in play holds the other game's lock meanwhile
        done = threading.Event()
        t = threading.Thread(target=lambda: (games.sweep(), done.set()))
        t.start()
        assert done.wait(10), "the sweep waited for a game that is not due"
        t.join()
    assert games._live[due].referee.ended and not games._live[busy].referee.ended
    st = c.state(due)
    assert st.ended and json.loads(st.cause_json)["kind"] == "timeout"
