"""fixtures/league/ (fixtures/league/README.md): the committed ledger verifies and gives its
committed report, every committed forgery fails at its declared entry and check (in the engine and
through `aar league verify`), and every vector is what the code computes from its inputs."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

from afteraction.cli.league.verify import read_bundles
from afteraction.cli.main import _jsonable, main
from afteraction.engine.league import fixed, glicko2, pairing
from afteraction.engine.league.entries import seed_commitment
from afteraction.engine.league.ledger import verify_ledger
from afteraction.engine.league.state import LeagueError
from conftest import REPO

HERE = REPO / "fixtures" / "league"
MANIFEST = json.loads((HERE / "manifest.json").read_text())
VECTORS = json.loads((HERE / "vectors.json").read_text())


@pytest.fixture(scope="module")
def bundles():
    return read_bundles(str(HERE / "bundles"))


def test_the_ledger_verifies_and_gives_its_report(bundles):
    rep = verify_ledger((HERE / MANIFEST["ledger"]).read_bytes(), bundles)
    assert rep.cosigned == {"player1": rep.entries, "player3": 13, "player4": rep.entries}
    kept = verify_ledger((HERE / MANIFEST["ledger"]).read_bytes(), bundles,
                         kept_checkpoint=(HERE / "kept.note").read_text())
    assert kept.kept_checkpoint == rep.entries
    got = json.loads(json.dumps(rep.as_dict(), sort_keys=True, default=_jsonable))
    assert got == json.loads((HERE / MANIFEST["report"]).read_text())
    statuses = [g["status"] for g in got["games"]]
    assert "pending" not in statuses and "void: ruled replay" in statuses
    assert any(s.startswith("void: 0 decisions") for s in statuses)


@pytest.mark.parametrize("case", MANIFEST["forged"], ids=lambda c: c["file"])
def test_each_forgery_fails_where_declared(case, bundles, capsys):
    kept = (HERE / case["checkpoint"]).read_text() if "checkpoint" in case else None
    with pytest.raises(LeagueError) as e:
        verify_ledger((HERE / case["file"]).read_bytes(), bundles, kept_checkpoint=kept)
    assert (e.value.seq, e.value.check) == (case["entry"], case["check"])
    flags = ["--checkpoint", str(HERE / case["checkpoint"])] if kept else []
    assert main(["league", "verify", str(HERE / case["file"]), "--bundles", str(HERE / "bundles"), *flags]) \
        == case["exit"]
    assert f"entry {case['entry']} (" in capsys.readouterr().out


def test_fixed_point_vectors():
    assert all(fixed.fexp(x) == y for x, y in VECTORS["fexp"])
    assert all(fixed.fln(x) == y for x, y in VECTORS["fln"])
    assert all(fixed.fsqrt(x) == y for x, y in VECTORS["fsqrt"])


def test_glicko2_vectors():
    for c in VECTORS["glicko2"]:
        p = glicko2.Rating(*c["player"])
        games = [(glicko2.Rating(r, rd, 0), s) for r, rd, s in c["games"]]
        got = glicko2.update(p, games, c["tau"], c["epsilon"])
        assert [got.r, got.rd, got.sigma] == c["result"]


def test_pairing_vectors():
    for n, rounds in VECTORS["berger"].items():
        players = [str(i) for i in range(1, int(n) + 1)]
        for r, (pairs, byes) in enumerate(rounds, 1):
            assert pairing.berger(players, r) == ([tuple(p) for p in pairs], byes)
    s = VECTORS["swiss"]
    seed = bytes.fromhex(s["seed"])
    players = [(n, bytes.fromhex(k)) for n, k in s["players"]]
    for n, k in players:
        assert pairing.order_key(s["league"], s["round"], seed, k).hex() == s["order_keys"][n]
    got = pairing.swiss(players, {n: Fraction(*v) for n, v in s["points"].items()}, s["byes_had"],
                        {frozenset(m) for m in s["met"]}, s["sides"], s["league"], s["round"], seed)
    assert got == ([tuple(p) for p in s["pairs"]], s["byes"])
    c = VECTORS["seed_commitment"]
    assert seed_commitment(c["league"], c["round"], bytes.fromhex(c["seed"])).hex() == c["commit"]


def test_the_vectors_are_what_the_generator_writes():
    """As fixtures/vectors/ (SPEC.md 13): a change of the arithmetic fails here until the vectors are
    rewritten on purpose (fixtures/make_league.py --force, and SPEC.md 15.7 if its numbers moved)."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("make_league", REPO / "fixtures" / "make_league.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["make_league"] = mod
    try:
        spec.loader.exec_module(mod)
        assert json.loads(json.dumps(mod.vectors())) == VECTORS
    finally:
        del sys.modules["make_league"]
