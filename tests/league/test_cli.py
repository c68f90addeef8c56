"""`aar league verify LEDGER --bundles DIR` (clients/cli/league/verify.py): exit 0 verified, 1 failed with
the entry named, 2 unreadable or usage; --json; --league-key pins the league's key."""
from __future__ import annotations

import json

import pytest

from afteraction.cli.main import main

from afteraction.engine.league.local import LocalLeague
from .test_ledger import resigned, seq_of


@pytest.fixture(scope="module")
def league():
    L = LocalLeague(players=3, seed=b"cli")
    for _ in range(2):
        L.play_round()
    L.publish()
    return L


def _write(tmp_path, L, data=None):
    (tmp_path / "bundles").mkdir()
    for gid, b in L.files.items():
        (tmp_path / "bundles" / f"{gid}.aar").write_bytes(b)
    p = tmp_path / "league.aarl"
    p.write_bytes(data if data is not None else L.ledger())
    return str(p), str(tmp_path / "bundles")


def test_verified(tmp_path, league, capsys):
    ledger, bundles = _write(tmp_path, league)
    assert main(["league", "verify", ledger, "--bundles", bundles]) == 0
    out = capsys.readouterr().out
    assert out.startswith("VERIFIED, BUT UNPINNED") and "standings" in out and "ratings, duel" in out
    assert f"organiser (asked for every round): {league.organiser.public.hex()}\n" in out
    assert main(["league", "verify", ledger, "--bundles", bundles, "--league-key", league.w.vkey, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["verified"] and d["pinned"] and d["rounds"] == 2 and len(d["standings"]) == 3
    assert d["organiser"] == league.organiser.public.hex()
    assert all(g["status"] == "counted" for g in d["games"])


def test_forged_pairing_names_the_entry(tmp_path, league, capsys):
    seq = seq_of(league, "round", 1)
    data = resigned(league, lambda s, b: dict(b, pairings=[[p[1], p[0]] for p in b["pairings"]]) if s == seq else b)
    ledger, bundles = _write(tmp_path, league, data)
    assert main(["league", "verify", ledger, "--bundles", bundles]) == 1
    assert capsys.readouterr().out.startswith(f"NOT VERIFIED: entry {seq} (round): pairing")
    assert main(["league", "verify", ledger, "--bundles", bundles, "--json"]) == 1
    d = json.loads(capsys.readouterr().out)
    assert (d["verified"], d["entry"], d["kind"], d["check"]) == (False, seq, "round", "pairing")
    assert d["unreadable"] is False


def test_missing_bundle_fails(tmp_path, league, capsys):
    ledger, bundles = _write(tmp_path, league)
    for f in (tmp_path / "bundles").iterdir():
        f.unlink()
        break
    assert main(["league", "verify", ledger, "--bundles", bundles]) == 1
    assert "bundle: no bundle with hash" in capsys.readouterr().out


def test_unreadable_and_usage(tmp_path, league, capsys):
    ledger, bundles = _write(tmp_path, league)
    bad = tmp_path / "bad.aarl"
    bad.write_bytes(b"not a ledger")
    assert main(["league", "verify", str(bad), "--bundles", bundles]) == 2
    assert "unreadable ledger" in capsys.readouterr().err
    assert main(["league", "verify", str(bad), "--bundles", bundles, "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["unreadable"] is True
    assert main(["league", "verify", ledger, "--bundles", str(tmp_path / "nowhere")]) == 2
    assert main(["league", "verify", ledger, "--bundles", bundles, "--league-key", "nonsense"]) == 2
    other = "league.test+00000000+AAAA"
    assert main(["league", "verify", ledger, "--bundles", bundles, "--league-key", other]) == 2


def test_pinned_key_that_differs_fails(tmp_path, league, capsys):
    from afteraction.engine.crypto.note import Signer
    from afteraction.engine.local import derive_bytes
    ledger, bundles = _write(tmp_path, league)
    other = Signer("league.test", derive_bytes(b"other", "k")).verifier.vkey
    assert main(["league", "verify", ledger, "--bundles", bundles, "--league-key", other]) == 1
    assert "differs from the pinned key" in capsys.readouterr().out


def test_a_kept_checkpoint(tmp_path, league, capsys):
    ledger, bundles = _write(tmp_path, league)
    note = tmp_path / "kept.note"
    note.write_text(league.w.checkpoints[-1])
    assert main(["league", "verify", ledger, "--bundles", bundles, "--checkpoint", str(note)]) == 0
    assert f"kept checkpoint: the ledger holds its size {len(league.w.entries)}" in capsys.readouterr().out
    note.write_text(league.w.checkpoints[-1].replace("league.test", "other.test"))
    assert main(["league", "verify", ledger, "--bundles", bundles, "--checkpoint", str(note)]) == 1
    assert main(["league", "verify", ledger, "--bundles", bundles, "--checkpoint", str(tmp_path / "none")]) == 2


def test_every_json_output_follows_the_schema(tmp_path, league, capsys):
    """docs/league-verify.schema.json: a report (exit 0), a failure (exit 1), unreadable input (exit 2)."""
    jsonschema = pytest.importorskip("jsonschema")
    from conftest import REPO
    schema = json.loads((REPO / "docs" / "league-verify.schema.json").read_text())
    ledger, bundles = _write(tmp_path, league)
    bad = tmp_path / "bad.aarl"
    bad.write_bytes(b"nope")
    fix = REPO / "fixtures" / "league"
    cases = [([ledger, "--bundles", bundles], 0), ([str(fix / "spring.aarl"), "--bundles", str(fix / "bundles")], 0),
             ([str(fix / "forged" / "round-2-pairing-swapped.aarl"), "--bundles", str(fix / "bundles")], 1),
             ([str(fix / "v1" / "spring.aarl"), "--bundles", str(fix / "v1" / "bundles")], 0),   # league version 1
             ([str(bad), "--bundles", bundles], 2), ([ledger, "--bundles", str(tmp_path / "none")], 2)]
    for argv, code in cases:
        assert main(["league", "verify", *argv, "--json"]) == code
        out = json.loads(capsys.readouterr().out)
        jsonschema.validate(out, schema)
        assert out["verified"] is (code == 0) and out["unreadable"] is (code == 2)


def test_a_pairing_without_a_result_is_listed(tmp_path, capsys):
    L = LocalLeague(players=3, seed=b"unplayed")
    L.play_round()
    L.round()
    (tmp_path / "b").mkdir()
    for gid, b in L.files.items():
        (tmp_path / "b" / f"{gid}.aar").write_bytes(b)
    (tmp_path / "l.aarl").write_bytes(L.ledger())
    assert main(["league", "verify", str(tmp_path / "l.aarl"), "--bundles", str(tmp_path / "b")]) == 0
    out = capsys.readouterr().out
    assert "round 2 board 1:" in out and "no result yet" in out and "round 1 bye:" in out
