"""`aar play` offers resign and a draw, and asks about an opponent's offer; `aar demo --end` plays
a game that ends each way (SPEC.md 8.1-8.2), over a real server on port 0."""
from __future__ import annotations

import io
import threading

import pytest

from afteraction.cli import main as cli
from afteraction.client.client import Client, Ending
from afteraction.client.seat import Seat
from afteraction.engine.bots import random_bot


def _new(server, tmp_path, capsys):
    from afteraction.cli.commands import read_seat_key

    ka, kb = str(tmp_path / "a.key"), str(tmp_path / "b.key")
    for k in (ka, kb):
        assert cli.main(["keygen", "-o", k]) == 0
    capsys.readouterr()
    assert cli.main(["new", "--server", server.target, "--game", "duel", "--seat", f"a={ka}", "--seat", f"b={kb}"]) == 0
    gid = capsys.readouterr().out.strip().splitlines()[0]
    return gid, ka, Seat(Client(server.target), gid, "b", read_seat_key(kb))


class _ThenAfter(io.StringIO):
    """A scripted stdin: its lines, then one empty line once ``thread`` has ended, then end of input."""

    def __init__(self, text, thread):
        super().__init__(text)
        self.thread, self.waited = thread, False

    def readline(self, *a):
        line = super().readline(*a)
        if line or self.waited:
            return line
        self.waited = True
        self.thread.join(30)
        return "\n"


def test_aar_play_resigns_when_the_seat_types_r(server, tmp_path, capsys, monkeypatch):
    gid, ka, bot = _new(server, tmp_path, capsys)
    t = threading.Thread(target=lambda: bot.play(random_bot(b"b")), daemon=True)
    t.start()
    monkeypatch.setattr("sys.stdin", io.StringIO("r\ny\n"))
    assert cli.main(["play", "--server", server.target, "--game-id", gid, "--seat", "a", "--key", ka]) == 0
    t.join(30)
    out = capsys.readouterr().out
    assert "r. resign" in out and "d. offer a draw" in out
    assert 'game over: {"reason": "seat a resigned", "winner": "b"}' in out
    bot.client.close()


def test_aar_play_offers_a_draw_that_the_other_seat_accepts(server, tmp_path, capsys, monkeypatch):
    gid, ka, bot = _new(server, tmp_path, capsys)
    t = threading.Thread(target=lambda: bot.play(random_bot(b"b"), on_offer=lambda o: o[2] is None), daemon=True)
    t.start()
    # a offers; the prompt comes back at once (the offer stands until the next record), and a
    # presses Enter only once b has answered: the look again sees the game over (however slow b is)
    monkeypatch.setattr("sys.stdin", _ThenAfter("d\ny\n", t))
    assert cli.main(["play", "--server", server.target, "--game-id", gid, "--seat", "a", "--key", ka]) == 0
    t.join(30)
    assert 'game over: {"reason": "agreed draw", "winner": null}' in capsys.readouterr().out
    bot.client.close()


def test_aar_play_asks_about_the_opponents_offer(server, tmp_path, capsys, monkeypatch):
    gid, ka, bot = _new(server, tmp_path, capsys)
    calls, done = [], threading.Event()

    def choose(seat, legal):  # b offers on its first decision, then waits for a's answer
        calls.append(1)
        if len(calls) == 1:
            return Ending("offer", "b")
        done.wait(30)
        return None
    t = threading.Thread(target=lambda: bot.play(choose), daemon=True)
    t.start()
    monkeypatch.setattr("sys.stdin", io.StringIO("1\ny\n"))  # a picks 1, then accepts b's offer
    assert cli.main(["play", "--server", server.target, "--game-id", gid, "--seat", "a", "--key", ka]) == 0
    done.set()
    t.join(30)
    out = capsys.readouterr().out
    assert "seat b offers a result: seat b wins. Accept?" in out
    assert 'game over: {"reason": "agreed result: seat b wins", "winner": "b"}' in out
    bot.client.close()


@pytest.mark.parametrize("end", ["resign", "agree", "timeout", "abandon"])
def test_aar_demo_end_plays_verifies_and_prints_the_cause(end, tmp_path, capsys):
    assert cli.main(["demo", "--end", end, "--game", "duel", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"ended by {end}" in out and f'"kind":"{end}"' in out and "VERIFIED (replayed byte for byte)" in out


def test_aar_new_writes_the_time_control_into_genesis(server, tmp_path, capsys):
    from afteraction.engine.protocol import parse_record
    from afteraction.v1 import audit_service_pb2 as au

    k = str(tmp_path / "k.key")
    assert cli.main(["keygen", "-o", k]) == 0
    k2 = str(tmp_path / "k2.key")
    assert cli.main(["keygen", "-o", k2]) == 0
    capsys.readouterr()
    assert cli.main(["new", "--server", server.target, "--game", "duel", "--seat", f"a={k}", "--seat", f"b={k2}",
                     "--decision-ms", "86400000", "--total-ms", "604800000"]) == 0
    gid = capsys.readouterr().out.split()[0]
    with Client(server.target) as c:
        genesis = parse_record(c.audit.GetRecords(au.GetRecordsRequest(game_id=gid)).records[0].record)
    assert genesis.body["clock"] == {"decision": 86_400_000, "total": 604_800_000, "abandon": 1_209_600_000}
    assert cli.main(["new", "--server", server.target, "--game", "duel", "--seat", f"a={k}", "--seat", f"b={k2}",
                     "--decision-ms", "5"]) != 0


def test_aar_play_does_not_cosign_a_time_out_forged_where_it_answered(server, tmp_path, capsys, monkeypatch):
    """The server refuses seat a's answer TIME_EXPIRED as if its clock had jumped past the
    deadline (its receipt still says when it had the envelope) and writes the time-out. `aar play`
    says the seat does not cosign, and why; before the fix it cosigned its own forged time-out."""
    from afteraction.cli.commands import read_seat_key
    from afteraction.engine.errors import Rejection

    class Fake:
        t = 1_764_000_000_000

        def __call__(self):
            return self.t
    fake = Fake()
    games = server.service.games
    games.now = fake
    ka, kb = str(tmp_path / "a.key"), str(tmp_path / "b.key")
    for k in (ka, kb):
        assert cli.main(["keygen", "-o", k]) == 0
    capsys.readouterr()
    assert cli.main(["new", "--server", server.target, "--game", "duel", "--seat", f"a={ka}", "--seat", f"b={kb}",
                     "--decision-ms", "60000"]) == 0
    gid = capsys.readouterr().out.strip().splitlines()[0]
    bot = Seat(Client(server.target), gid, "b", read_seat_key(kb))
    orig = games._accept

    def lies_about_time(live, cmd):
        if cmd.env.seat != "a" or cmd.env.WhichOneof("action") != "command":
            return orig(live, cmd)
        true = fake.t
        fake.t += 120_000
        monkeypatch.setattr(games, "_accept", orig)
        try:
            return orig(live, cmd)
        except Rejection as e:
            e.received_ms = true
            raise
    monkeypatch.setattr(games, "_accept", lies_about_time)
    t = threading.Thread(target=lambda: bot.play(random_bot(b"b")), daemon=True)
    t.start()
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    assert cli.main(["play", "--server", server.target, "--game-id", gid, "--seat", "a", "--key", ka]) == 0
    t.join(30)
    out = capsys.readouterr().out
    assert "ran out of time" in out and "NOT COSIGNED: the log ends seat a's game by timeout" in out, out
    receipts = list(tmp_path.glob(f"a.key.{gid}.checkpoint.refused-*.receipt"))
    assert len(receipts) == 1
    bot.client.close()
