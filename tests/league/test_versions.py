"""League versions (SPEC.md 15.2-15.3): a ledger written at league version 1 (commit ac3f820's
format, kept byte for byte in fixtures/league/v1/) verifies forever under its own rules; new
ledgers are version 2; every entry of a ledger has its genesis's version, and each version's
genesis and round bodies are exactly its own (a v1 ledger carrying v2's fields fails, and so does
a v2 ledger missing them)."""
from __future__ import annotations

import json

import pytest

from afteraction.cli.league.verify import read_bundles
from afteraction.cli.main import main
from afteraction.engine.crypto.note import Signer
from afteraction.engine.errors import EncodingError
from afteraction.engine.league.entries import LEAGUE_VERSION, LEAGUE_VERSIONS, make_entry, parse_entry
from afteraction.engine.league.ledger import read_ledger, verify_ledger
from afteraction.engine.league.local import resign_ledger
from afteraction.engine.league.state import LeagueError
from afteraction.engine.local import derive_bytes
from conftest import REPO

V2 = REPO / "fixtures" / "league"
V1 = V2 / "v1"
V1_MANIFEST = json.loads((V1 / "manifest.json").read_text())
#: the fixtures' league key (fixtures/make_league.py's seed, engine/league/local.py's derivation):
#: what a league holding its key could re-sign
KEY = Signer("league.test", derive_bytes(b"fixtures/league", "league-key"))


@pytest.fixture(scope="module")
def bundles():
    return {1: read_bundles(str(V1 / "bundles")), 2: read_bundles(str(V2 / "bundles"))}


def _entries(here):
    league, vkey, items = read_ledger((here / "spring.aarl").read_bytes())
    assert vkey == KEY.verifier.vkey
    return league, [parse_entry(raw) for raw, _ in items]


def _forged(here, edit=lambda q, b: b, versions=None) -> bytes:
    league, es = _entries(here)
    return resign_ledger(KEY, league, es, edit, versions)


def _seq(here, kind: str, n: int = 0) -> int:
    return [e.seq for e in _entries(here)[1] if e.kind == kind][n]


def _fails(data, bundles, seq, check):
    with pytest.raises(LeagueError) as e:
        verify_ledger(data, bundles)
    assert (e.value.seq, e.value.check) == (seq, check), str(e.value)
    return e.value


def test_the_v1_ledger_of_ac3f820_verifies_with_aar_league_verify(capsys):
    argv = ["league", "verify", str(V1 / "spring.aarl"), "--bundles", str(V1 / "bundles"), "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["verified"], out["version"], out["organiser"]) == (True, 1, None)
    # the report of ac3f820, unchanged but for the fields added since (the version, the organiser)
    got = {k: v for k, v in out.items() if k not in ("version", "organiser", "pinned", "unreadable")}
    assert got == json.loads((V1 / "spring.json").read_text())
    assert main(argv + ["--checkpoint", str(V1 / "kept.note")]) == 0
    assert json.loads(capsys.readouterr().out)["kept_checkpoint"] == out["entries"]


def test_every_entry_of_the_v1_ledger_is_version_1_and_of_today_version_2():
    assert (LEAGUE_VERSION, LEAGUE_VERSIONS) == (2, (1, 2))
    assert {e.v for e in _entries(V1)[1]} == {1}
    assert {e.v for e in _entries(V2)[1]} == {LEAGUE_VERSION}
    assert "organiser" not in _entries(V1)[1][0].body and "organiser" in _entries(V2)[1][0].body


@pytest.mark.parametrize("case", V1_MANIFEST["forged"], ids=lambda c: c["file"])
def test_each_v1_forgery_fails_where_it_did_at_ac3f820(case, bundles, capsys):
    kept = (V1 / case["checkpoint"]).read_text() if "checkpoint" in case else None
    with pytest.raises(LeagueError) as e:
        verify_ledger((V1 / case["file"]).read_bytes(), bundles[1], kept_checkpoint=kept)
    assert (e.value.seq, e.value.check) == (case["entry"], case["check"])
    flags = ["--checkpoint", str(V1 / case["checkpoint"])] if kept else []
    assert main(["league", "verify", str(V1 / case["file"]), "--bundles", str(V1 / "bundles"), *flags]) == 1


@pytest.mark.parametrize("here,version", [(V1, 1), (V2, 2)], ids=["v1", "v2"])
def test_the_forger_alone_changes_nothing(here, version, bundles):
    """The re-signing below changes only what each test edits: unedited, the ledger verifies."""
    assert verify_ledger(_forged(here), bundles[version]).state.version == version


@pytest.mark.parametrize("kind", ["player", "round", "standings"])
def test_a_v2_ledger_with_a_v1_entry_fails_at_it(kind, bundles, capsys, tmp_path):
    """15.2: every entry has the genesis's version; the entry's signature (which does not cover
    ``v``) still verifies, so only the version check names it."""
    s = _seq(V2, kind)
    data = _forged(V2, versions={s: 1})
    e = _fails(data, bundles[2], s, "version")
    assert "league version 1 in a ledger of version 2" in e.detail
    path = tmp_path / "mixed.aarl"
    path.write_bytes(data)
    assert main(["league", "verify", str(path), "--bundles", str(V2 / "bundles")]) == 1
    assert f"entry {s} ({kind}): version" in capsys.readouterr().out


def test_a_v1_ledger_with_a_v2_entry_fails_at_it(bundles):
    s = _seq(V1, "player")
    _fails(_forged(V1, versions={s: 2}), bundles[1], s, "version")


def test_a_v1_genesis_naming_an_organiser_fails(bundles):
    organiser = _entries(V2)[1][0].body["organiser"]
    data = _forged(V1, lambda q, b: dict(b, organiser=organiser) if q == 0 else b)
    assert "league version 1" in _fails(data, bundles[1], 0, "body").detail


def test_a_v1_round_carrying_asked_fails(bundles):
    s = _seq(V1, "round", 1)
    data = _forged(V1, lambda q, b: dict(b, asked=b"\x01" * 64) if q == s else b)
    assert "{round, title, seed, next, pairings, byes}" in _fails(data, bundles[1], s, "body").detail


def test_a_v2_ledger_relabelled_v1_fails_at_its_genesis(bundles):
    """Relabelling does not shed version 2's rules: its genesis has a field version 1 has not."""
    _, es = _entries(V2)
    _fails(_forged(V2, versions={e.seq: 1 for e in es}), bundles[2], 0, "body")


def test_v2_bodies_need_the_organiser_and_asked(bundles):
    _fails(_forged(V2, lambda q, b: {k: v for k, v in b.items() if k != "organiser"} if q == 0 else b),
           bundles[2], 0, "body")
    s = _seq(V2, "round", 2)
    _fails(_forged(V2, lambda q, b: {k: v for k, v in b.items() if k != "asked"} if q == s else b),
           bundles[2], s, "body")


@pytest.mark.parametrize("v", [0, 3, True])
def test_an_unknown_version_is_unreadable(v):
    e = _entries(V2)[1][1]
    raw = e.raw.replace(b"\xa1v\x02", b"\xa1v" + (b"\xc3" if v is True else bytes([v])), 1)
    assert raw != e.raw
    with pytest.raises(EncodingError, match="league version"):
        parse_entry(raw)
    with pytest.raises(EncodingError, match="league version"):
        make_entry(e.league, e.seq, e.prev, e.at, e.kind, e.body, e.by, e.sig, v)


def test_the_writer_keeps_a_v1_ledger_in_version_1(bundles):
    """A league that holds a version 1 ledger appends version 1 entries (ledger.py LedgerWriter)."""
    from afteraction.engine.league.ledger import LedgerWriter
    from afteraction.engine.league.standings import published

    league, es = _entries(V1)
    w = LedgerWriter(league, KEY, bundles=bundles[1])
    for e in es:
        w.add(e)
    assert w.state.version == 1
    e = w.append("correction", {"entry": _seq(V1, "result"), "reason": "entered twice"}, w.state.now)
    assert e.v == 1
    w.append("standings", published(w.state, w.state.now), w.state.now)
    rep = verify_ledger(w.ledger(), bundles[1])
    assert (rep.state.version, rep.entries) == (1, len(es) + 2)
