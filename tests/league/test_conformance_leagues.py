"""The league cases of the conformance manifest (fixtures/conformance.json `leagues`, written by
fixtures/make_logs.py from fixtures/league/manifest.json) run through `aar league verify --json`:
each exits as declared and names the entry and check it declares."""
from __future__ import annotations

import json

import pytest

from afteraction.cli.main import main
from conftest import REPO

MANIFEST = json.loads((REPO / "fixtures" / "conformance.json").read_text())
CASES = MANIFEST["leagues"]


def test_every_league_fixture_is_a_case_and_the_vectors_are_named():
    """Today's fixtures (league version 2) and the version 1 ledgers kept from commit ac3f820."""
    want = set()
    for base in ("fixtures/league/", "fixtures/league/v1/"):
        league = json.loads((REPO / base / "manifest.json").read_text())
        want |= {base + league["ledger"]} | {base + f["file"] for f in league["forged"]}
    assert {c["ledger"] for c in CASES} == want
    assert {c["version"] for c in CASES if c["ledger"].startswith("fixtures/league/v1/")} == {1}
    assert {c["version"] for c in CASES if not c["ledger"].startswith("fixtures/league/v1/")} == {2}
    assert (REPO / MANIFEST["league_vectors"]).is_file()
    assert "leagues" in MANIFEST["about"]


@pytest.mark.parametrize("case", CASES, ids=[c["ledger"].rsplit("/", 1)[1] for c in CASES])
def test_aar_league_verify_gives_the_declared_verdict(case, capsys):
    argv = ["league", "verify", str(REPO / case["ledger"]), "--bundles", str(REPO / case["bundles"]), "--json"]
    if "checkpoint" in case:
        argv += ["--checkpoint", str(REPO / case["checkpoint"])]
    rc = main(argv)
    out = json.loads(capsys.readouterr().out)
    assert rc == case["exit"]
    assert out["verified"] is (case["exit"] == 0)
    if case["exit"]:
        assert (out["entry"], out["check"]) == (case["entry"], case["check"])
    else:
        assert out["version"] == case["version"]
