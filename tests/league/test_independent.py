"""A second implementation agrees: tests/league/independent.mjs, written in JavaScript
from SPEC.md 15.5-15.7 alone, recomputes the league vectors and the standings and ratings of league
reports exactly; one changed digit is found. Skips where there is no node."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from afteraction.cli.main import _jsonable
from afteraction.engine.league.ledger import verify_ledger
from afteraction.engine.league.local import LocalLeague
from conftest import REPO

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="no node to run the second implementation")
SCRIPT = REPO / "tests" / "league" / "independent.mjs"
FIX = REPO / "fixtures" / "league"


def _run(*paths) -> subprocess.CompletedProcess:
    return subprocess.run([NODE, str(SCRIPT), *map(str, paths)], capture_output=True, text=True, timeout=120)


def test_agrees_on_the_fixtures():
    r = _run(FIX / "vectors.json", FIX / "spring.json")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("agreed: ")


def test_agrees_on_the_v1_fixture():
    """The report of the league version 1 ledger kept from commit ac3f820 (fixtures/league/v1)."""
    r = _run(FIX / "vectors.json", FIX / "v1" / "spring.json")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("agreed: ")


def _report(L: LocalLeague, path):
    rep = verify_ledger(L.ledger(), L.bundles)
    path.write_text(json.dumps(rep.as_dict(), sort_keys=True, default=_jsonable))
    return path


def test_agrees_on_a_larger_league(tmp_path):
    L = LocalLeague(players=9, seed=b"independent", rounds=4)
    for _ in range(4):
        L.play_round()
    r = _run(FIX / "vectors.json", _report(L, tmp_path / "report.json"))
    assert r.returncode == 0, r.stdout + r.stderr


def test_finds_one_changed_digit(tmp_path):
    d = json.loads((FIX / "spring.json").read_text())
    d["ratings"]["duel"][0]["rd"] += 1
    p = tmp_path / "changed.json"
    p.write_text(json.dumps(d))
    r = _run(FIX / "vectors.json", p)
    assert r.returncode == 1 and r.stdout.startswith("differs: rating duel player1"), r.stdout
