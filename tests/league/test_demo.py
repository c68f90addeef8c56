"""`aar league demo` and `aar demo --league` (clients/cli/league/demo.py): six bots, three Swiss rounds
of SOG and GMV through an embedded server's LeagueService (real gRPC: the league created, joined,
paired, its games created from their pairings and their results entered by the server), a
resignation, an agreed draw too early to count, a contested time-out witnessed by the league and
replayed by the arbiter's ruling; the downloaded ledger verifies with the bundles, and the second
implementation agrees on its standings and ratings."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from afteraction.cli.league.verify import read_bundles
from afteraction.cli.main import _jsonable, main
from afteraction.engine.league.entries import parse_entry
from afteraction.engine.league.ledger import read_ledger, verify_ledger
from conftest import REPO


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """`aar league demo` run once: (its folder, its printed text)."""
    import contextlib
    import io

    out = tmp_path_factory.mktemp("demo") / "league"
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        assert main(["league", "demo", "--out", str(out), "--seed", "3"]) == 0
    return out, text.getvalue()


@pytest.mark.slow
def test_the_league_demo(demo):
    out, text = demo
    assert "VERIFIED: league demo-" in text and "aar league verify" in text
    data = (out / "league.aarl").read_bytes()
    _, vkey, _ = read_ledger(data)
    rep = verify_ledger(data, read_bundles(str(out / "bundles")), vkey)
    statuses = {(g.round, g.cause, g.status) for g in rep.standings.games}
    assert (3, "resign", "counted") in statuses
    assert (3, "timeout", "void: ruled replay") in statuses
    assert any(c == "agree" and s.startswith("void: 0 decisions") for _, c, s in statuses)
    assert {g.title for g in rep.standings.games} == {"sog", "gmv"}
    assert len(rep.standings.games) == 10 and set(rep.standings.ratings) == {"sog", "gmv"}
    assert main(["league", "verify", str(out / "league.aarl"), "--bundles", str(out / "bundles"),
                 "--league-key", vkey, "--checkpoint", str(out / "kept.note")]) == 0
    assert set(rep.cosigned) == {"Anh", "Binh", "Chau", "Duc", "Hoa", "Lan"}
    # the league server made the games and entered their results: the ledger is the one it serves
    kinds = [parse_entry(raw).kind for raw, _ in read_ledger(data)[2]]
    assert kinds.count("correction") == 0 and kinds.count("result") == 10 and kinds.count("game") == 10
    assert kinds.count("round") == 3 and rep.state.genesis["organiser"]   # each round asked for by the organiser
    assert "the league server timestamps the envelope" in text
    assert (out / "league.key").exists() and (out / "server.key").exists()
    assert (out / "league.html").read_text().startswith("<!DOCTYPE html>")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="no node to run the second implementation")
def test_the_second_implementation_agrees_on_the_demos_ledger(demo, tmp_path):
    """The independent implementation (league_lib.js in node, tests/league/independent.mjs)
    recomputes the standings and ratings of the demo's ledger, written by a league server, exactly."""
    out, _ = demo
    data = (out / "league.aarl").read_bytes()
    rep = verify_ledger(data, read_bundles(str(out / "bundles")), read_ledger(data)[1])
    report = tmp_path / "report.json"
    report.write_text(json.dumps(rep.as_dict(), sort_keys=True, default=_jsonable))
    r = subprocess.run([shutil.which("node"), str(REPO / "tests" / "league" / "independent.mjs"),
                        str(REPO / "fixtures" / "league" / "vectors.json"), str(report)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.startswith("agreed: "), r.stdout + r.stderr
    assert len(rep.standings.ratings["sog"]) == 6   # every player rated: the numbers compared are the demo's


@pytest.mark.slow
def test_aar_demo_league_runs_the_league_demo_through_the_service(tmp_path, capsys):
    assert main(["demo", "--league", "--out", str(tmp_path), "--seed", "2"]) == 0
    text = capsys.readouterr().out
    assert "LeagueService" in text and "VERIFIED: league demo-" in text
    assert "standings (points, Buchholz, Sonneborn-Berger" in text
    line = next(x for x in text.splitlines() if x.strip().startswith("check it: "))
    assert "league verify" in line and "--league-key" in line and str(tmp_path / "league" / "league.aarl") in line
    data = (tmp_path / "league" / "league.aarl").read_bytes()
    _, vkey, _ = read_ledger(data)
    assert main(["league", "verify", str(tmp_path / "league" / "league.aarl"), "--bundles",
                 str(tmp_path / "league" / "bundles"), "--league-key", vkey, "--checkpoint",
                 str(tmp_path / "league" / "kept.note")]) == 0
