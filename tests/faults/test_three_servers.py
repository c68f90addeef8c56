"""Three `aar serve` processes on their own ports over one PostgreSQL database, bot games spread across them through the reference client, a Watch on each server following
a game played through another (woken by LISTEN/NOTIFY), and one server killed with SIGKILL under
load. Its clients go on through another server: every record an OK reply carried (from any of
the three) is in the log, byte for byte; the log read through each surviving server is the same
(no game forks); every game is played on to its end through a survivor and its export, the same
through both survivors, verifies with the server key pinned."""
from __future__ import annotations

import threading
import time

import pytest

from afteraction.engine.bots import random_bot

from .load import BotGame, Load, client
from .procs import Serve

THREADS = 2                 # drivers per server
GAMES = ["sog", "gmv"]
OPTIONS = {"gmv": {"turns": 1}}  # a one-turn GMV game (~60 commands), so every game ends and replays
MIN_ACKED = 150             # acknowledged commands (all servers) before the kill
STEPS_AFTER = 100000        # commands to play each game on to its end after the kill


def _run_watch(target: str, gid: str, out: dict) -> None:
    c = client(target, timeout=60)
    try:
        v = c.watch(gid)
        out["records"] = v.report.records
    except BaseException as e:  # noqa: BLE001 -- reported by the test
        out["error"] = e
    finally:
        c.close()


@pytest.mark.parametrize("store_spec", ["postgres"], indirect=True)
def test_three_servers_one_killed_under_load_nothing_lost_no_fork_every_export_verifies(tmp_path, store_spec):
    # one data directory: the three share the server key and the data key (made by the first)
    servers = [Serve(tmp_path, store_spec) for _ in range(3)]
    a, b, victim = servers
    assert a.vkey == b.vkey == victim.vkey
    vkey = a.vkey
    loads = [Load(s.target, GAMES, THREADS, b"three/%d" % i, OPTIONS).start() for i, s in enumerate(servers)]
    watches: list[tuple[str, dict, threading.Thread]] = []
    try:
        t0 = time.monotonic()
        while sum(ld.acked_commands() for ld in loads) < MIN_ACKED or len(watches) < 3:
            assert time.monotonic() - t0 < 120, "the load did not start"
            for ld in loads:
                assert not ld.errors, ld.errors
            # a Watch on a survivor of the first game played through another server (the victim's too)
            i = len(watches)
            first = None
            if i < 3:
                with loads[i].lock:
                    first = next((g for g in loads[i].games if g.gid), None)
            if first is not None:
                out: dict = {}
                t = threading.Thread(target=_run_watch, args=((b, a, a)[i].target, first.gid, out),
                                     daemon=True)
                t.start()
                watches.append((first.gid, out, t))
            time.sleep(0.05)
        loads[2].stop.set()
        victim.kill9()            # mid-call for its drivers: nothing in that server gets to run
        time.sleep(1.0)           # the other two go on meanwhile
        for ld in loads[:2]:
            ld.stop.set()
        for ld in loads:
            ld.join()
        for ld in loads[:2]:
            assert not ld.errors, ld.errors   # the survivors' clients saw no error
        assert not loads[2].errors, loads[2].errors   # errors before the kill only

        acked = [ld.acked_commands() for ld in loads]
        print(f"acknowledged before the end of the load: {acked} commands through A, B and the killed server")
        ca, cb = client(a.target), client(b.target)
        games = [g for ld in loads for g in ld.games if g.gid]
        assert {g.game for g in loads[2].games if g.gid}, "the killed server had no game"
        try:
            for i, g in enumerate(games):
                stored = g.stored(ca)
                for seq, raw in g.acked.items():   # nothing acknowledged is lost, whichever server said OK
                    assert stored.get(seq) == raw, f"{g.gid}: acknowledged record {seq} lost or changed"
                # its client goes on through a survivor (the killed server's games: through A or B)
                on = ca if i % 2 == 0 else cb
                again = BotGame(g.game, g.seed, g.options, gid=g.gid)
                again.attach(on)
                again.play(random_bot(g.seed + b"/after"), STEPS_AFTER)
                assert on.state(g.gid).ended
                # no fork: both survivors serve one log, and one export, which verifies pinned
                assert g.stored(ca) == g.stored(cb)
                ea, eb = ca.export(g.gid), cb.export(g.gid)
                assert ea == eb, f"{g.gid}: the two servers export different bundles"
                g.verify(ca, vkey)
            for gid, out, t in watches:   # each Watch followed its game, from another server, to the end
                t.join(120)
                assert not t.is_alive() and "error" not in out and out.get("records", 0) > 1, (gid, out)
        finally:
            ca.close()
            cb.close()
    finally:
        for ld in loads:
            ld.stop.set()
        for s in servers:
            s.stop()
