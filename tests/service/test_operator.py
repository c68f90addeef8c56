"""On a real server: ListGames (bounded, paginated, filtered by
status), match data in genesis (validated, verified, listed), one structured log line per game
event, `aar games` / `aar status` / `aar watch` printing the outcome."""
from __future__ import annotations

import io
import json
import logging

import grpc
import pytest

from afteraction.cli.main import main
from afteraction.engine.bots import random_bot
from afteraction.engine.log.verify import verify_bundle
from afteraction.v1 import game_service_pb2 as gs

from .conftest import handshake, new_duel
from .test_restart import bot_moves


def _finish(c, gid, seats, seed=b"op"):
    handshake(seats)
    bot_moves(c, gid, seats, 200, random_bot(seed))
    assert c.state(gid).ended


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_games_pages_and_filters_by_status(server):
    c, g1, seats = new_duel(server.target, b"one")
    _, g2, _ = new_duel(server.target, b"two")
    _, g3, _ = new_duel(server.target, b"three")
    _finish(c, g1, seats)
    every, token = [], ""
    while True:  # page size 1: three pages, each with a token but the last
        page = c.list_games(page_size=1, page_token=token)
        assert len(page.games) <= 1
        every += [g.game_id for g in page.games]
        token = page.next_page_token
        if not token:
            break
    assert every == sorted([g1, g2, g3])
    ended = c.list_games(status=gs.GAME_STATUS_ENDED).games
    assert [g.game_id for g in ended] == [g1] and ended[0].ended and ended[0].records == c.state(g1).state_seq
    assert sorted(g.game_id for g in c.list_games(status=gs.GAME_STATUS_IN_PROGRESS).games) == sorted([g2, g3])
    g = ended[0]
    assert (g.game, g.scenario, list(g.seats), g.HasField("match")) == ("duel", "standard", ["a", "b"], False)


@pytest.mark.parametrize("req, reason", [
    (gs.ListGamesRequest(page_size=101), "page_size is at most 100"),
    (gs.ListGamesRequest(page_token="not-a-token"), "page_token"),
    (gs.ListGamesRequest(page_token="a" * 65), "page_token"),
    (gs.ListGamesRequest(status=7), "not a GameStatus"),
])
def test_list_games_refuses_out_of_bounds_requests(server, req, reason):
    from afteraction.client.client import Client, ClientError

    with Client(server.target) as c, pytest.raises(ClientError) as e:
        c.call(c.game.ListGames, req)
    assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT and reason in str(e.value)


def _create(c, match, seed=b"m"):
    from afteraction.engine.local import derive_bytes
    from afteraction.engine.seat import SeatSigner

    keys = {s: SeatSigner(s, derive_bytes(seed, f"key/{s}")).public for s in ("a", "b")}
    return c.create_game("duel", keys, match=match)


def test_match_data_is_in_genesis_listed_and_shown_by_verify(server, tmp_path, capsys):
    from afteraction.client.client import Client
    from afteraction.engine.protocol import parse_record

    m = gs.MatchInfo(label="League 2026, round 3", players={"a": "Alice", "b": "Bob Ng"}, date="2026-12-01")
    with Client(server.target) as c:
        res = _create(c, m)
        body = parse_record(res.genesis.record).body
        assert body["match"] == {"label": "League 2026, round 3", "players": {"a": "Alice", "b": "Bob Ng"},
                                 "date": "2026-12-01"}
        listed = c.list_games().games[0]
        assert listed.match == m
        bundle = c.export(res.game_id)
    report = verify_bundle(io.BytesIO(bundle))
    assert report.match == body["match"] and sorted(report.seat_keys) == ["a", "b"]
    path = tmp_path / "g.aar"
    path.write_bytes(bundle)
    code, out, _ = _run(capsys, "verify", str(path))
    assert code == 0
    assert 'match: "League 2026, round 3"; players a: Alice, b: Bob Ng; 2026-12-01' in out
    assert f"seat a: public key {report.seat_keys['a'].hex()}" in out


@pytest.mark.parametrize("m, why", [
    (gs.MatchInfo(label="x" * 129), "match label"),
    (gs.MatchInfo(label=" padded"), "match label"),
    (gs.MatchInfo(label="two\nlines"), "match label"),
    (gs.MatchInfo(players={"c": "Carol"}), "is not a seat"),
    (gs.MatchInfo(players={"a": "y" * 65}), "FIELD_TOO_LONG"),
    (gs.MatchInfo(players={"a": ""}), "name"),
    (gs.MatchInfo(date="2026-02-30"), "match date"),
    (gs.MatchInfo(date="1 Dec 2026"), "match date"),
    (gs.MatchInfo(), "has no label"),
])
def test_match_data_out_of_bounds_is_refused_and_creates_nothing(server, m, why):
    from afteraction.client.client import Client, ClientError

    with Client(server.target) as c:
        with pytest.raises(ClientError) as e:
            _create(c, m)
        assert why in str(e.value) and e.value.code == grpc.StatusCode.INVALID_ARGUMENT
        assert list(c.list_games().games) == []


def test_one_structured_log_line_per_game_event(server, caplog):
    caplog.set_level(logging.INFO, logger="afteraction.games")
    c, gid, seats = new_duel(server.target, b"log")
    handshake(seats)
    turn = c.state(gid).decision.seat
    lg = seats[turn].legal()
    s = seats["b" if turn == "a" else "a"]  # the other seat sends the seat-to-move's command: refused
    s.catch_up()
    with pytest.raises(Exception):
        s.submit(s.sign_command(lg.state_seq, lg.commands[0]))
    bot_moves(c, gid, seats, 200, random_bot(b"log"))
    lines = [r.getMessage() for r in caplog.records if r.name == "afteraction.games"]
    events = [(ln.split(" ", 2)[1], json.loads(ln.split(" ", 2)[2])) for ln in lines]
    assert events[0] == ("created", {"game": gid, "ruleset": "duel", "scenario": "standard", "seats": ["a", "b"], "match": None})
    refused = [e for k, e in events if k == "refused"]
    assert refused and refused[0]["game"] == gid and refused[0]["seat"] == s.seat and refused[0]["reason"]
    ended = [e for k, e in events if k == "ended"]
    assert len(ended) == 1 and ended[0]["game"] == gid and ended[0]["outcome"] == json.loads(c.state(gid).outcome_json)
    assert all("secret" not in ln for ln in lines)


def test_aar_games_status_and_watch_show_whose_turn_and_the_outcome(server, capsys):
    c, gid, seats = new_duel(server.target, b"cli")
    code, out, _ = _run(capsys, "status", gid, "--server", server.target)
    assert code == 0 and "waiting for every seat (the entropy handshake)" in out
    handshake(seats)
    code, out, _ = _run(capsys, "status", gid, "--server", server.target)
    st = c.state(gid)
    assert code == 0 and f"waiting for seat {st.decision.seat}: {st.decision.kind}" in out
    # every service game has a clock: the default abandonment limit (14 days) counts down
    assert "abandoned (no result) if no seat acts within 13 days 23 h" in out or \
        "abandoned (no result) if no seat acts within 14 days 0 h" in out
    code, out, _ = _run(capsys, "games", "--server", server.target, "--status", "in-progress")
    assert code == 0 and gid in out and "in progress" in out
    bot_moves(c, gid, seats, 200, random_bot(b"cli"))
    outcome = json.loads(c.state(gid).outcome_json)
    code, out, _ = _run(capsys, "status", gid, "--server", server.target)
    assert code == 0 and f"ended: {json.dumps(outcome, sort_keys=True)}" in out
    assert 'cause: {"kind": "rules"} (SPEC.md 8.3)' in out
    code, out, _ = _run(capsys, "games", "--server", server.target, "--status", "ended")
    assert code == 0 and gid in out and " ended " in out
    code, out, _ = _run(capsys, "watch", gid, "--server", server.target, "--from", "999")
    assert code == 0 and out.strip() == f"game over: {json.dumps(outcome, sort_keys=True)}"


def test_aar_new_writes_match_data_and_aar_games_lists_it(server, tmp_path, capsys):
    ka, kb = tmp_path / "a.key", tmp_path / "b.key"
    for k in (ka, kb):
        assert main(["keygen", "-o", str(k)]) == 0
    capsys.readouterr()
    code, out, _ = _run(capsys, "new", "--server", server.target, "--game", "duel", "--seat", f"a={ka}",
                        "--seat", f"b={kb}", "--label", "League 2026, round 3", "--player", "a=Alice",
                        "--player", "b=Bob", "--date", "2026-12-01")
    assert code == 0
    gid = out.strip()
    code, out, _ = _run(capsys, "games", "--server", server.target)
    assert code == 0 and gid in out and '"League 2026, round 3"; players a: Alice, b: Bob; 2026-12-01' in out
    code, out, _ = _run(capsys, "status", gid, "--server", server.target)
    assert code == 0 and "match: " in out and "seats: a, b" in out
    code, out, err = _run(capsys, "new", "--server", server.target, "--game", "duel", "--seat", f"a={ka}",
                          "--seat", f"b={kb}", "--player", "c=Carol")
    assert code == 2 and "'c' is not a seat of this game" in err and len(err.strip().splitlines()) == 1


@pytest.mark.postgres
def test_a_missing_postgres_database_is_one_line_without_the_password(pg_dsn, tmp_path, capsys):
    base = pg_dsn.rsplit("/", 1)[0].replace("postgresql://postgres@", "postgresql://postgres:hunter2@")
    code = main(["serve", "--store", f"{base}/no_such_database_here", "--data-dir", str(tmp_path / "dd"),
                 "--listen", "127.0.0.1:0"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "hunter2" not in err
    assert "no_such_database_here" in err and "Traceback" not in err
