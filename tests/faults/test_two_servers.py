"""Two `aar serve` processes on one store never fork a game, with faults: several SOG games
are played at once, every command raced through both servers (the same signed bytes to both,
or two different commands under one seat counter, one to each), and one server is killed
with SIGKILL in the middle of the races and started again on the same store. Every record an
OK reply carried is the one record of its seq (no two servers acknowledged different records
for one seq), the log read through either server is the same contiguous chain, and each
game's export is identical through both and verifies. SQLite and PostgreSQL."""
from __future__ import annotations

import threading
import time

import grpc
import pytest

from afteraction.engine.bots import Prng
from afteraction.client.client import error_info

from service.test_races import race, submit  # the same concurrent-submit helpers (tests/ is on the path)
from .load import BotGame, client
from .procs import Serve

GAMES = 4
KILL_AFTER = 20    # races (all games together) before server B is killed ...
DOWN_RACES = 6     # ... and this many more while it is down, then it is started again (a SOG game has 10+)
S = grpc.StatusCode


class Pair:
    """Server A (never killed) and server B (killed once), with a client for each."""

    def __init__(self, tmp_path, spec: str) -> None:
        self.a = Serve(tmp_path, spec)
        self.b = Serve(tmp_path, spec)
        self.ca, self.cb = client(self.a.target), client(self.b.target)
        self.old: list = []
        self.b_down = threading.Event()
        self.races = 0
        self.lock = threading.Lock()

    def kill_b(self) -> None:
        self.b_down.set()
        self.b.kill9()

    def restart_b(self) -> None:
        self.b.start()
        self.old.append(self.cb)
        self.cb = client(self.b.target)
        self.b_down.clear()

    def close(self) -> None:
        for c in [self.ca, self.cb, *self.old]:
            c.close()
        self.a.stop()
        self.b.stop()


def play_raced(pair: Pair, g: BotGame, errors: list, seed: bytes) -> None:
    prng = Prng(seed)
    try:
        while True:
            st = pair.ca.state(g.gid)
            if st.ended:
                return
            cb = pair.cb  # B as it is now (a new client once it has been restarted)
            for s in g.seats.values():
                s.catch_up()
            if st.decision.kind == "entropy":
                s = next((s for s in g.seats.values() if not s.committed), None)
                one = s.sign_commit() if s else next(s for s in g.seats.values() if not s.revealed).sign_reveal()
                pair_signed = (one, one)
            else:
                s = g.seats[st.decision.seat]
                legal = list(s.legal().commands)
                x = prng.choice(legal)
                y = x if prng.below(2) else legal[-1 - legal.index(x)]
                pair_signed = (s.sign_command(st.state_seq, x), s.sign_command(st.state_seq, y))
            down_before = pair.b_down.is_set()
            r = race(lambda: submit(pair.ca, pair_signed[0]), lambda: submit(cb, pair_signed[1]))
            with pair.lock:
                pair.races += 1
            check_race(g, pair_signed, r, b_may_fail=down_before or pair.b_down.is_set() or cb is not pair.cb)
    except BaseException as e:  # noqa: BLE001 -- reported by the test
        errors.append(e)


def check_race(g: BotGame, signed: tuple[bytes, bytes], r: list, b_may_fail: bool) -> None:
    oks = [x for x in r if not isinstance(x, grpc.RpcError)]
    for x in oks:
        for rec in x.records:  # the fork check: one record per seq, whoever acknowledged it
            assert g.acked.setdefault(rec.seq, rec.record) == rec.record, f"{g.gid}: two records acknowledged at seq {rec.seq}"
    for i, x in enumerate(r):
        if isinstance(x, grpc.RpcError):
            if i == 1 and b_may_fail and x.code() in (S.UNAVAILABLE, S.CANCELLED):
                continue  # B was killed under this call
            if signed[0] != signed[1]:  # the other command under the same counter won
                assert x.code() == S.ALREADY_EXISTS and error_info(x).reason == "COUNTER_REUSED", (x.code(), x.details())
                continue
            raise AssertionError(f"{g.gid}: {'AB'[i]} refused the raced bytes: {x.code()} {x.details()}")
    if signed[0] == signed[1]:
        assert oks, r
        assert all(list(x.records) == list(oks[0].records) for x in oks)
        if len(oks) == 2:
            assert sorted(x.duplicate for x in oks) == [False, True]
    elif not b_may_fail:
        assert len(oks) == 1, r  # two different commands under one counter: exactly one stored


@pytest.mark.parametrize("store_spec", ["sqlite", "postgres"], indirect=True)
def test_two_servers_on_one_store_never_fork_a_game_across_a_kill_9(tmp_path, store_spec):
    pair = Pair(tmp_path, store_spec)
    try:
        assert pair.a.vkey == pair.b.vkey  # one key file
        games = [BotGame("sog", b"fork/%d" % i).create(pair.ca) for i in range(GAMES)]
        errors: list = []
        ts = [threading.Thread(target=play_raced, args=(pair, g, errors, g.seed), daemon=True) for g in games]
        for t in ts:
            t.start()

        def wait_races(n: int) -> None:
            deadline = time.monotonic() + 60
            while pair.races < n and any(t.is_alive() for t in ts) and time.monotonic() < deadline:
                time.sleep(0.01)

        wait_races(KILL_AFTER)
        killed_at = pair.races
        pair.kill_b()
        wait_races(killed_at + DOWN_RACES)
        pair.restart_b()
        for t in ts:
            t.join(120)
        assert not errors, errors
        assert not any(t.is_alive() for t in ts)
        assert killed_at >= KILL_AFTER and pair.races > killed_at + DOWN_RACES, "the games ended before the faults"
        for g in games:
            ra, rb = g.stored(pair.ca), g.stored(pair.cb)
            assert ra == rb and sorted(ra) == list(range(len(ra)))
            assert all(ra[s] == raw for s, raw in g.acked.items()), g.gid
            data = pair.ca.export(g.gid)
            assert data == pair.cb.export(g.gid)
            rep = g.verify(pair.cb, pair.a.vkey)
            assert rep.ended and rep.records == len(ra)
    finally:
        pair.close()
