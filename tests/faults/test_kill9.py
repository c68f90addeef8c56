"""kill -9 of `aar serve` under a load of concurrent bot games (SOG and GMV through the
reference client), then a restart on the same store and key: no acknowledged command is
lost (every record an OK reply carried is in the restarted server's log, byte for byte),
every game then goes on to its end on the restarted server, and every game's export verifies with the server key pinned. On SQLite, on
PostgreSQL (a fresh database), and with ``--workers 2`` (SIGKILL reaches the parent and
both workers at once, as a power cut would)."""
from __future__ import annotations

import threading
import time

import pytest

from afteraction.engine.bots import random_bot

from .load import Load, client
from .procs import Serve

LOAD_S = 1.5          # load before the kill (the kill waits for this many acknowledged commands too)
MIN_ACKED = 40
THREADS = 6           # concurrent games: 4 SOG, 2 GMV
GAMES = ["sog", "sog", "gmv"]
OPTIONS = {"gmv": {"turns": 1}}  # a one-turn GMV game (~60 commands), so every game ends and replays


@pytest.mark.parametrize("store_spec,workers", [("sqlite", 1), ("postgres", 1), ("sqlite", 2), ("postgres", 2)],
                         indirect=["store_spec"], ids=["sqlite", "postgres", "sqlite-workers2", "postgres-workers2"])
def test_kill_9_under_load_loses_no_acknowledged_command_and_every_log_verifies(tmp_path, store_spec, workers):
    srv = Serve(tmp_path, store_spec, workers)
    try:
        vkey = srv.vkey
        load = Load(srv.target, GAMES, THREADS, b"kill9", OPTIONS).start()
        t0 = time.monotonic()
        while (time.monotonic() - t0 < LOAD_S or load.acked_commands() < MIN_ACKED) and time.monotonic() - t0 < 30:
            time.sleep(0.05)
            assert not load.errors, load.errors
        load.stop.set()
        srv.kill9()            # mid-call for the drivers: nothing in the server gets to run
        load.join()
        assert not load.errors, load.errors  # errors before the kill only; those after it are expected
        acked = load.acked_commands()
        assert acked >= MIN_ACKED, f"only {acked} commands acknowledged before the kill"

        srv.start()            # same store, same key file, a new port
        assert srv.vkey == vkey
        c = client(srv.target)
        try:
            games = list(load.games)
            for g in games:
                stored = g.stored(c)
                lost = [s for s, raw in g.acked.items() if stored.get(s) != raw]
                assert not lost, f"game {g.gid} ({g.game}): acknowledged records {lost} lost or changed"
            errors: list = []

            def finish(g):  # every game to its end on the restarted server, at once (as the players would)
                try:
                    gc = client(srv.target)
                    try:
                        g.attach(gc)
                        g.play(random_bot(g.seed))
                        rep = g.verify(gc, vkey)
                        assert rep.ended and rep.records == len(g.stored(gc)), g.gid
                    finally:
                        gc.close()
                except BaseException as e:  # noqa: BLE001 -- reported below
                    errors.append(e)

            ts = [threading.Thread(target=finish, args=(g,)) for g in games]
            for t in ts:
                t.start()
            for t in ts:
                t.join(120)
            assert not errors, errors
            assert not any(t.is_alive() for t in ts)
            assert {g.game for g in games} == {"sog", "gmv"}
        finally:
            c.close()
    finally:
        srv.stop()
