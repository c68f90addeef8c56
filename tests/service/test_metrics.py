"""`aar serve --metrics-listen` serves Prometheus metrics; a scrape after a game
counts its commands, calls, refusals by reason and appends; with --workers 2 the parent's scrape
sums every worker."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request

import grpc
import pytest

from afteraction.client.client import Client, ClientError
from afteraction.client.seat import Seat
from afteraction.engine.local import derive_bytes
from afteraction.engine.seat import SeatSigner
from afteraction.v1 import game_service_pb2 as gs

OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]  # each client its own connection (workers: spread)


def _serve(tmp_path, *extra):
    p = subprocess.Popen([sys.executable, "-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0",
                          "--data-dir", str(tmp_path / "data"), "--metrics-listen", "127.0.0.1:0", *extra],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         env=dict(os.environ, PYTHONUNBUFFERED="1"))
    target = url = None
    for line in p.stdout:
        if "listening on" in line:
            target = line.strip().rsplit(" ", 1)[1]
        if line.startswith("metrics (Prometheus) on "):
            url = line.split(" on ", 1)[1].strip()
            break
    assert target and url, "aar serve did not print its addresses"
    return p, target, url


def _stop(p) -> None:
    if p.poll() is None:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    p.stdout.close()


def scrape(url: str) -> dict[tuple, float]:
    """(sample name, sorted labels) -> value."""
    from prometheus_client.parser import text_string_to_metric_families

    text = urllib.request.urlopen(url, timeout=10).read().decode()
    out = {}
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def play_duel(target: str, seed: bytes) -> int:
    """A whole duel through its own connection; the number of commands accepted."""
    c = Client(target, timeout=30, options=OWN_CONNECTION)
    keys = {s: derive_bytes(seed, f"key/{s}") for s in ("a", "b")}
    gid = c.create_game("duel", {s: SeatSigner(s, k).public for s, k in keys.items()}).game_id
    seats = {s: Seat(c, gid, s, keys[s], entropy=derive_bytes(seed, f"entropy/{s}")) for s in keys}
    n = 0
    for s in seats.values():
        s.submit(s.sign_commit())
        n += 1
    for s in seats.values():
        s.submit(s.sign_reveal())
        n += 1
    while not c.state(gid).ended:
        st = c.state(gid)
        seat = seats[st.decision.seat]
        legal = seat.legal()
        seat.submit(seat.sign_command(legal.state_seq, legal.commands[0]))
        n += 1
    c.close()
    return n


def test_a_scrape_after_a_game_counts_it(tmp_path):
    p, target, url = _serve(tmp_path)
    try:
        n = play_duel(target, b"m1")
        c = Client(target, timeout=10)
        with pytest.raises(ClientError) as e:  # one refusal, by its reason
            c.call(c.game.SubmitCommand, gs.SubmitCommandRequest(command={"envelope": b"\xff"}))
        assert e.value.reason == "MALFORMED"
        watch = c.game.Watch(gs.WatchRequest(game_id="0" * 16), timeout=10)
        with pytest.raises(grpc.RpcError):
            list(watch)   # UNKNOWN_GAME: a stream refused, by its reason
        m = scrape(url)
        c.close()
    finally:
        _stop(p)
    assert m[("aar_commands_total", (("game", "duel"),))] == n
    assert m[("aar_rpc_calls_total", (("reason", "OK"), ("rpc", "SubmitCommand")))] == n
    assert m[("aar_rpc_calls_total", (("reason", "MALFORMED"), ("rpc", "SubmitCommand")))] == 1
    assert m[("aar_rpc_calls_total", (("reason", "OK"), ("rpc", "CreateGame")))] == 1
    assert m[("aar_rpc_calls_total", (("reason", "UNKNOWN_GAME"), ("rpc", "Watch")))] == 1
    assert m[("aar_rpc_seconds_count", (("rpc", "SubmitCommand"),))] == n + 1
    assert m[("aar_append_seconds_count", ())] == n
    assert m[("aar_open_streams", ())] == 0
    assert m[("aar_cached_games", ())] == 1
    assert ("aar_endings_written_total", (("kind", "timeout"),)) not in m   # none written: no clock
    for (name, labels) in m:  # what is never a label: a game id, a seat, a key
        if name.startswith("aar_"):
            assert all(k in ("rpc", "reason", "game", "kind", "le") for k, _ in labels), (name, labels)


def test_workers_are_all_counted(tmp_path):
    from afteraction.service.metrics import FLUSH_S

    p, target, url = _serve(tmp_path, "--workers", "2")
    try:
        total = sum(play_duel(target, bytes([i])) for i in range(4))
        time.sleep(FLUSH_S + 0.5)   # each worker hands its counts to its metric files once a FLUSH_S
        m = scrape(url)
    finally:
        _stop(p)
    assert m[("aar_commands_total", (("game", "duel"),))] == total
    assert m[("aar_rpc_calls_total", (("reason", "OK"), ("rpc", "CreateGame")))] == 4
    assert m[("aar_append_seconds_count", ())] == total


def test_metrics_listen_needs_a_port(tmp_path, capsys):
    from afteraction.cli.main import main

    assert main(["serve", "--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1",
                 "--data-dir", str(tmp_path / "d")]) == 2
    assert "--metrics-listen '127.0.0.1': give a port too" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()


def test_endings_the_server_writes_are_counted_by_kind(server):
    """In this process (metrics.enable() is per process): a time-out and an abandonment written."""
    from afteraction.service import metrics

    from .conftest import handshake
    from .test_endings import new_game, play

    metrics.enable()

    def count(kind):
        return metrics.ENDINGS.labels(kind)._value.get()

    before = {k: count(k) for k in ("timeout", "abandon")}
    c, gid, seats, fake = new_game(server, "duel", clock={"decision_ms": 60_000})
    handshake(seats)
    play(seats, fake, 1)
    fake.t += 60_001
    assert c.state(gid).ended
    c, gid, seats, fake = new_game(server, "duel", clock={"abandon_ms": 3_600_000}, seed=b"ab")
    handshake(seats)
    fake.t += 3_600_001
    assert c.state(gid).ended
    assert count("timeout") == before["timeout"] + 1 and count("abandon") == before["abandon"] + 1
