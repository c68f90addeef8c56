"""`aar league new | join | pair | games | standings | dispute | rule | cosign | export` against a real server
on port 0 (clients/cli/league/commands.py over clients/python/league.py): a small league run from the
command line, its games played by the players' seats, exported and checked by `aar league verify`."""
from __future__ import annotations

import json
import threading

import pytest

from afteraction.cli.main import main
from afteraction.client.client import Client
from afteraction.client.seat import Seat
from afteraction.engine.bots import random_bot
from afteraction.service.server import start

PLAYERS = ("ann", "bob", "cat")


@pytest.fixture
def league_server(tmp_path):
    run = start("127.0.0.1:0", f"sqlite:{tmp_path / 'store.sqlite'}", None, str(tmp_path / "data"))
    try:
        yield f"127.0.0.1:{run.port}"
    finally:
        run.stop(2)


def aar(capsys, *argv) -> tuple[int, str, str]:
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_a_league_from_the_command_line(league_server, tmp_path, capsys):
    srv = ("--server", league_server)
    keys = {}
    for n in (*PLAYERS, "arbiter", "organiser"):
        keys[n] = str(tmp_path / f"{n}.key")
        assert aar(capsys, "keygen", "-o", keys[n])[0] == 0
    rc, out, err = aar(capsys, "league", "new", "cup", "--key", keys["organiser"], "--name", "The cup", "--rounds",
                       "2", "--arbiter", keys["arbiter"], *srv)
    assert rc == 0 and "league cup: created; league key " in out, err
    vkey = out.split("league key ")[1].split()[0]
    for n in PLAYERS:
        rc, out, err = aar(capsys, "league", "join", "cup", n, "--key", keys[n], *srv)
        assert rc == 0 and f"{n} registered" in out, err
    rc, out, err = aar(capsys, "league", "join", "cup", "ann", "--key", keys["arbiter"], *srv)
    assert rc == 2 and "LEAGUE_REFUSED" in err and "already registered" in err
    rc, out, err = aar(capsys, "league", "pair", "cup", "--key", keys["ann"], *srv)
    assert rc == 2 and "ORGANISER_AUTH" in err          # only the organiser pairs
    rc, out, err = aar(capsys, "league", "pair", "cup", "--key", keys["organiser"], "--json", *srv)
    assert rc == 0, err
    r1 = json.loads(out)
    assert r1["round"] == 1 and len(r1["games"]) == 1 and len(r1["byes"]) == 1
    [g] = r1["games"]
    seed = {n: bytes.fromhex(open(keys[n]).read().strip()) for n in PLAYERS}
    seats = [Seat(Client(league_server), g["game"], s, seed[p], cosign=True)
             for s, p in zip(g["seats"], (g["first"], g["second"]))]
    threads = [threading.Thread(target=s.play, args=(random_bot(f"cli/{s.seat}"),), daemon=True) for s in seats]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    rc, out, err = aar(capsys, "league", "games", "cup", *srv)
    assert rc == 0 and "round 1: duel standard" in out and "confirmed" in out and f"bye: {r1['byes'][0]}" in out
    rc, out, err = aar(capsys, "league", "standings", "cup", "--publish", "--key", keys["organiser"], *srv)
    assert rc == 0 and "published as entry" in out and "ratings (duel)" in out, err
    loser = g["first"] if json.loads(aar(capsys, "league", "games", "cup", "--json", *srv)[1])["games"][0][
        "winner"] != g["first"] else g["second"]
    ev = tmp_path / "evidence.bin"
    ev.write_bytes(b"a kept checkpoint")
    rc, out, err = aar(capsys, "league", "dispute", "cup", g["game"], "--key", keys[loser], "--claim", "the dice",
                       "--evidence", str(ev), *srv)
    assert rc == 0 and "dispute of game" in out, err
    rc, out, err = aar(capsys, "league", "rule", "cup", g["game"], "--key", keys["ann"], "--decision", "uphold",
                       "--reason", "no", *srv)
    assert rc == 2 and "LEAGUE_REFUSED" in err         # ann is not an arbiter
    rc, out, err = aar(capsys, "league", "rule", "cup", g["game"], "--key", keys["arbiter"], "--decision", "uphold",
                       "--reason", "the dice are the log's", *srv)
    assert rc == 0 and "uphold" in out, err
    note = tmp_path / "ann.note"
    rc, out, err = aar(capsys, "league", "cosign", "cup", "ann", "--key", keys["ann"], "--league-key", vkey, "-o",
                       str(note), *srv)
    assert rc == 0 and "ann cosigned" in out, err
    rc, out, err = aar(capsys, "league", "cosign", "cup", "bob", "--key", keys["ann"], *srv)
    assert rc == 2 and "BAD_COSIGNATURE" in err          # ann's key cannot cosign as bob
    rc, out, err = aar(capsys, "league", "export", "cup", "-o", str(tmp_path / "out"), *srv)
    assert rc == 0 and "aar league verify" in out, err
    assert vkey in out
    rc, out, err = aar(capsys, "league", "verify", str(tmp_path / "out" / "cup.aarl"), "--bundles",
                       str(tmp_path / "out" / "bundles"), "--league-key", vkey, "--checkpoint", str(note), "--json")
    assert rc == 0, out + err
    rep = json.loads(out)
    assert [x["status"] for x in rep["games"]] == ["counted"] and rep["players"] == 3
    assert rep["cosigned"] == {"ann": rep["entries"]} and rep["kept_checkpoint"] == rep["entries"]
    rc, out, err = aar(capsys, "league", "standings", "nope", *srv)
    assert rc == 2 and "UNKNOWN_LEAGUE" in err


def test_aar_serve_prints_its_league_key(tmp_path):
    """The league key is made beside the server key on first start and printed with it."""
    import os
    import subprocess
    import sys

    from afteraction.engine.crypto.note import parse_skey

    p = subprocess.Popen([sys.executable, "-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0", "--data-dir",
                          str(tmp_path / "dd")], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         env=dict(os.environ, AAR_DATA_DIR=str(tmp_path / "default-dir")))
    try:
        lines = [p.stdout.readline().strip() for _ in range(6)]
    finally:
        p.terminate()
        p.wait(30)
    league = tmp_path / "dd" / "league.key"
    vkey = parse_skey(league.read_text().strip()).verifier.vkey
    assert lines[5] == f"league key: {vkey} ({league}; it signs the league ledgers)"
    assert oct(league.stat().st_mode & 0o777) == "0o600"
    assert lines[1] != f"server key: {vkey}"
