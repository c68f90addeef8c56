"""`aar backup` / `aar restore` (service/backup.py): a restore finishes only if
the backup is the one its manifest names and every game in it verifies with replay against a key
of the server's key ring; otherwise it leaves nothing behind. (Under load, with bots, on SQLite and
PostgreSQL: tests/faults/test_backup_restore.py.)"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3

import pytest

from afteraction.cli.main import main as aar
from afteraction.engine.bots import random_bot

from .conftest import handshake, new_duel
from .test_restart import bot_moves


@pytest.fixture
def backed_up(server, tmp_path, capsys):
    """Two games (one ended, one in progress) on a server, and a backup of its store."""
    c, g1, s1 = new_duel(server.target, b"one")
    handshake(s1)
    bot_moves(c, g1, s1, 200, random_bot(b"one"))
    assert c.state(g1).ended
    c2, g2, s2 = new_duel(server.target, b"two")
    handshake(s2)
    bot_moves(c2, g2, s2, 1, random_bot(b"two"))
    out = tmp_path / "backup"
    assert aar(["backup", "--data-dir", server.dir, "--store", server.store_spec, "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "2 games (1 ended)" in text and "NOT in this backup" in text
    assert os.path.join(server.dir, "server.key") in text and os.path.join(server.dir, "data.key") in text
    c.close()
    c2.close()
    return server, out, (g1, g2)


def _fix_sha(bdir) -> None:
    m = json.loads((bdir / "manifest.json").read_text())
    m["store_sha256"] = hashlib.sha256((bdir / "afteraction.sqlite").read_bytes()).hexdigest()
    (bdir / "manifest.json").write_text(json.dumps(m))


def _restore(server, bdir, dest, *extra) -> int:
    return aar(["restore", str(bdir), "--data-dir", str(dest), "--key", os.path.join(server.dir, "server.key"),
                *extra])


def test_backup_lists_games_and_keys_and_holds_no_key(backed_up):
    server, bdir, (g1, g2) = backed_up
    m = json.loads((bdir / "manifest.json").read_text())
    assert {g["game_id"] for g in m["games"]} == {g1, g2}
    assert m["server_keys"] == [server.run.vkey]
    assert sorted(os.listdir(bdir)) == ["afteraction.sqlite", "manifest.json"]
    # PRIVATE+KEY+<name>+<hash>+<base64>: the base64 may hold a "+" of its own
    key = open(os.path.join(server.dir, "server.key")).read().strip().split("+", 4)[-1]
    data_key = open(os.path.join(server.dir, "data.key")).read().split()[-1]
    blob = (bdir / "afteraction.sqlite").read_bytes() + (bdir / "manifest.json").read_bytes()
    assert key.encode() not in blob and data_key.encode() not in blob and bytes.fromhex(data_key) not in blob


def test_a_good_backup_restores_and_verifies(backed_up, tmp_path, capsys):
    server, bdir, _ = backed_up
    dest = tmp_path / "restored"
    assert _restore(server, bdir, dest) == 0
    assert "RESTORED AND VERIFIED: 2 games (1 ended)" in capsys.readouterr().out
    assert {"afteraction.sqlite", "server.key", "data.key"} <= set(os.listdir(dest))
    assert _restore(server, bdir, dest) == 2  # never over an existing store
    assert "restore into a new data directory" in capsys.readouterr().err


def test_a_changed_record_is_refused_and_nothing_is_left(backed_up, tmp_path, capsys):
    server, bdir, (g1, g2) = backed_up
    db = sqlite3.connect(bdir / "afteraction.sqlite")
    raw = db.execute("SELECT record FROM records WHERE game_id=? AND seq=3", (g1,)).fetchone()[0]
    changed = raw[:-1] + bytes([raw[-1] ^ 1])
    db.execute("UPDATE records SET record=? WHERE game_id=? AND seq=3", (changed, g1))
    db.commit()
    db.close()
    dest = tmp_path / "restored"
    assert _restore(server, bdir, dest) == 2    # the file is not the manifest's
    assert "SHA-256 differs" in capsys.readouterr().err
    _fix_sha(bdir)                              # and if the manifest were rewritten too
    assert _restore(server, bdir, dest) == 1
    out = capsys.readouterr().out
    assert out.startswith("RESTORE REFUSED: 1 game(s)") and f"game {g1}" in out and g2 not in out
    assert not os.path.exists(dest / "afteraction.sqlite") and not os.path.exists(dest / "server.key")


def test_a_lost_game_is_refused(backed_up, tmp_path, capsys):
    server, bdir, (g1, g2) = backed_up
    db = sqlite3.connect(bdir / "afteraction.sqlite")
    for t in ("records", "commands", "openings", "cosignatures", "games"):
        db.execute(f"DELETE FROM {t} WHERE game_id=?", (g2,))
    db.commit()
    db.close()
    _fix_sha(bdir)
    assert _restore(server, bdir, tmp_path / "r") == 1
    assert f"game {g2}: in the manifest" in capsys.readouterr().out


def test_a_truncated_game_is_refused(backed_up, tmp_path, capsys):
    server, bdir, (g1, g2) = backed_up
    db = sqlite3.connect(bdir / "afteraction.sqlite")
    last = db.execute("SELECT MAX(seq) FROM records WHERE game_id=?", (g1,)).fetchone()[0]
    db.execute("DELETE FROM records WHERE game_id=? AND seq=?", (g1, last))
    db.commit()
    db.close()
    _fix_sha(bdir)
    assert _restore(server, bdir, tmp_path / "r") == 1
    assert f"game {g1}: {last} records" in capsys.readouterr().out


def test_another_server_key_is_refused(backed_up, tmp_path, capsys):
    import shutil

    from afteraction.service.keyring import load_or_create

    server, bdir, _ = backed_up
    other = tmp_path / "other"
    other.mkdir()
    load_or_create(str(other / "server.key"), "afteraction.local")
    shutil.copy(os.path.join(server.dir, "data.key"), other / "data.key")
    assert aar(["restore", str(bdir), "--data-dir", str(tmp_path / "r"), "--key", str(other / "server.key")]) == 1
    assert "not a key of the server key ring given" in capsys.readouterr().out
    assert not os.path.exists(tmp_path / "r" / "afteraction.sqlite")


def test_without_the_data_key_nothing_starts(backed_up, tmp_path, capsys):
    server, bdir, _ = backed_up
    key_only = tmp_path / "k"
    key_only.mkdir()
    (key_only / "server.key").write_text(open(os.path.join(server.dir, "server.key")).read())
    assert aar(["restore", str(bdir), "--data-dir", str(tmp_path / "r"), "--key", str(key_only / "server.key")]) == 2
    assert "no data key" in capsys.readouterr().err
    assert not os.path.exists(tmp_path / "r")


@pytest.mark.parametrize("dest", ["sqlite", "postgres"])
def test_a_logical_copy_keeps_every_row_time_outs_and_cosignatures_too(server, tmp_path, request, dest):
    """copy_games (the PostgreSQL backup's and the restore's path) rebuilds every row: a game
    ended by a time-out (an end record no command made), one that ended by its rules and was
    cosigned, one in progress with openings; read back through the store's own reads."""
    from afteraction.service import atrest
    from afteraction.service.backup import copy_games
    from afteraction.service.stores import open_store

    from .test_endings import handshake as hs, new_game, play

    c, timed, seats, fake = new_game(server, "gmv", clock={"decision_ms": 60_000, "total_ms": 600_000})
    hs(seats)
    play(seats, fake, 2)
    fake.t += 60_001
    assert c.state(timed).ended
    c2, done, s2 = new_duel(server.target, b"cosigned")
    handshake(s2)
    bot_moves(c2, done, s2, 200, random_bot(b"x"))
    for s in s2.values():
        s.catch_up()      # each seat verifies the end record and cosigns the final checkpoint
    c3, running, s3 = new_duel(server.target, b"running")
    handshake(s3)
    bot_moves(c3, running, s3, 2, random_bot(b"y"))
    src = server.games.store
    size = src.size(done)
    assert len(src.cosignatures(done, size)) == 2
    spec = f"sqlite:{tmp_path / 'copy.sqlite'}" if dest == "sqlite" else request.getfixturevalue("pg_dsn")
    dst = open_store(spec, str(tmp_path), atrest.beside(os.path.join(server.dir, "server.key")))
    try:
        copy_games(src, dst)
        for gid in (timed, done, running):
            n = src.size(gid)
            assert dst.size(gid) == n and dst.game(gid) == src.game(gid)
            assert dst.records(gid) == src.records(gid)
            assert dst.commands(gid) == src.commands(gid)
            assert dst.all_openings(gid, n) == src.all_openings(gid, n)
            assert dst.all_cosignatures(gid, n) == src.all_cosignatures(gid, n)
        assert dst.game(timed).ended and src.commands(timed)[-1].seqs[-1] == src.size(timed) - 2  # no command
        assert not dst.game(running).ended and dst.all_openings(running, src.size(running))
    finally:
        dst.close()
        for x in (c, c2, c3):
            x.close()


def test_a_refused_restore_into_postgresql_leaves_the_database_empty(backed_up, tmp_path, pg_dsn, capsys):
    import psycopg

    server, bdir, (g1, g2) = backed_up
    db = sqlite3.connect(bdir / "afteraction.sqlite")
    db.execute("DELETE FROM commands WHERE game_id=? AND first_seq=3", (g1,))   # a command lost
    db.commit()
    db.close()
    _fix_sha(bdir)
    assert _restore(server, bdir, tmp_path / "r", "--store", pg_dsn) == 1
    assert f"game {g1}" in capsys.readouterr().out
    with psycopg.connect(pg_dsn) as conn:
        assert [conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                for t in ("games", "records", "commands", "openings", "cosignatures")] == [0] * 5
    assert not os.path.exists(tmp_path / "r" / "server.key")
    assert _restore(server, bdir.parent / "backup", tmp_path / "r2", "--store", pg_dsn) == 1  # still empty: refused again
