"""Backup under load, restore, every game verifies and goes on.

Bot games (the reference client, ``load.Load``) play on an `aar serve` process; `aar backup`
copies its store while they play; after more play the load stops and `aar restore` loads the
backup into a new data directory (or an empty PostgreSQL database) and verifies every game. A
server started on the restored store then serves every record that was acknowledged before the
backup began, and every game in progress accepts its next command and plays on to its end; every
export verifies pinned to the server key. SQLite and PostgreSQL, as source and as target."""
from __future__ import annotations

import io
import json
import secrets
import time

import pytest

from afteraction.cli.main import main as aar
from afteraction.engine.bots import random_bot
from afteraction.engine.log.verify import verify_bundle

from .load import BotGame, Load, client
from .procs import Serve

MIN_COMMANDS = 40       # acknowledged before the backup starts
MORE_COMMANDS = 30      # acknowledged after it, before the load stops
PLAY_TO_END = 3         # in-progress games continued to their end on the restored store


@pytest.fixture
def other_pg(pg_dsn):
    """A second fresh database on the same PostgreSQL server (the restore's target)."""
    import psycopg

    from service.conftest import PG_ADMIN_DSN

    name = "aar_test_" + secrets.token_hex(6)
    with psycopg.connect(PG_ADMIN_DSN, autocommit=True, connect_timeout=3) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"{PG_ADMIN_DSN.rsplit('/', 1)[0]}/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _wait_for(load: Load, n: int, timeout: float = 120) -> None:
    give_up = time.monotonic() + timeout
    while load.acked_commands() < n:
        assert not load.errors, load.errors
        assert time.monotonic() < give_up, f"only {load.acked_commands()} commands in {timeout} s"
        time.sleep(0.1)


@pytest.mark.parametrize("source,target", [("sqlite", "sqlite"), ("postgres", "sqlite"), ("sqlite", "postgres")])
def test_backup_under_load_restores_verifies_and_goes_on(tmp_path, request, source, target, capsys):
    src_dir, dst_dir = tmp_path / "src", tmp_path / "dst"
    src_dir.mkdir()
    dst_dir.mkdir()
    spec = f"sqlite:{src_dir / 'data' / 'afteraction.sqlite'}" if source == "sqlite" else request.getfixturevalue("pg_dsn")
    srv = Serve(src_dir, spec)
    load = Load(srv.target, ["duel", "gmv"], threads=3, seed=b"backup").start()
    try:
        _wait_for(load, MIN_COMMANDS)
        with load.lock:   # every record acknowledged before the backup starts must be in it
            before = {g.gid: dict(g.acked) for g in load.games if g.gid}
        bdir = tmp_path / "backup"
        t0 = time.monotonic()
        assert aar(["backup", "--data-dir", str(src_dir / "data"), "--store", spec, "-o", str(bdir)]) == 0
        backup_s = time.monotonic() - t0
        _wait_for(load, load.acked_commands() + MORE_COMMANDS)   # the server kept serving meanwhile
    finally:
        load.stop.set()
        load.join()
        srv.stop()
    assert not load.errors, load.errors
    out = capsys.readouterr().out
    manifest = json.loads((bdir / "manifest.json").read_text())
    games = {g["game_id"]: g for g in manifest["games"]}
    assert set(before) <= set(games), "a game created before the backup is not in it"
    assert any(not g["ended"] for g in games.values()), "no game was in progress at the backup"
    assert f"{len(games)} games" in out

    restore = ["restore", str(bdir), "--data-dir", str(dst_dir / "data"), "--key", str(src_dir / "data" / "server.key")]
    dst_spec = f"sqlite:{dst_dir / 'data' / 'afteraction.sqlite'}"
    if target == "postgres":
        dst_spec = request.getfixturevalue("other_pg")
        restore += ["--store", dst_spec]
    assert aar(restore) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"RESTORED AND VERIFIED: {len(games)} games"), out

    srv2 = Serve(dst_dir, dst_spec)   # its data dir holds the restored store and the copied keys
    c = client(srv2.target)
    try:
        assert srv2.vkey == srv.vkey
        continued = 0
        for gid, m in sorted(games.items()):
            g = next(x for x in load.games if x.gid == gid)
            stored = BotGame(g.game, g.seed, gid=gid).stored(c)
            assert len(stored) == m["records"]
            for seq, raw in before.get(gid, {}).items():   # nothing acknowledged before the backup is lost
                assert stored[seq] == raw, f"{gid}: record {seq} differs from the acknowledged one"
            if not m["ended"]:
                again = BotGame(g.game, g.seed, gid=gid)
                again.attach(c)
                bot = random_bot(g.seed + b"/restored")
                assert again.step(bot), f"{gid}: in progress in the backup but ended on the restored store"
                assert again.commands == 1   # the next command was accepted
                if continued < PLAY_TO_END:
                    again.play(bot)
                    assert c.state(gid).ended
                    continued += 1
            if c.state(gid).ended:   # replayed to its end; a game left in progress verifies as far as 10.1 allows
                BotGame(g.game, g.seed, gid=gid).verify(c, srv.vkey)
            else:
                rep = verify_bundle(io.BytesIO(c.export(gid)), pinned_vkey=srv.vkey)
                assert rep.verified and rep.pinned and not rep.ended, rep
        assert continued >= 1
    finally:
        c.close()
        srv2.stop()
    print(f"backup of {len(games)} games, {manifest['records']} records under load: {backup_s:.2f} s")
