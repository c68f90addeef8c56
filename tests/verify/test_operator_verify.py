"""The verifier's side: a changed record names itself, its kind and what no longer
matches; the --json failure carries every field of the success object; match data is an
optional genesis key of format v2 whose shape step 4 checks (one check with CreateGame's),
and logs without it (every golden log) are unchanged."""
from __future__ import annotations

import json

import pytest

from conftest import REPO

from afteraction.cli.main import main
from afteraction.engine import registry
from afteraction.engine.errors import Rejection, VerificationError
from afteraction.engine.log.genesis import genesis_shape
from afteraction.engine.protocol import FORMAT_VERSION, make_record
from afteraction.engine.match import MAX_LABEL, MAX_PLAYER, match_problem
from afteraction.engine.referee import Referee
from afteraction.engine.seat import SeatSigner

LOGS = REPO / "fixtures" / "logs"


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_flipped_byte_names_the_record_its_kind_and_what_no_longer_matches(capsys):
    code, out, _ = _run(capsys, "verify", LOGS / "tampered" / "flipped-byte-record-6.aar")
    assert code == 1
    assert ("record 6, a command record of seat b with guess, open, roll events, was changed after the server "
            "signed its checkpoint (tree size 7)") in out
    code, out, _ = _run(capsys, "verify", LOGS / "tampered" / "flipped-bit-sealed-7.aar")
    assert code == 1 and "record 7, a command record of seat a (a sealed command)" in out


def test_the_json_failure_carries_every_field_of_the_success_object(capsys):
    code, ok, _ = _run(capsys, "verify", "--json", LOGS / "duel-complete.aar")
    assert code == 0
    code, bad, _ = _run(capsys, "verify", "--json", LOGS / "tampered" / "flipped-byte-record-6.aar")
    assert code == 1
    ok, bad = json.loads(ok), json.loads(bad)
    assert set(ok) <= set(bad)
    assert bad["seat_keys"] == ok["seat_keys"] and len(ok["seat_keys"]) == 2 and bad["game"] == ok["game"]
    assert bad["records"] == 6 and ok["match"] is None


def test_the_first_line_says_when_nothing_was_pinned(capsys):
    code, out, _ = _run(capsys, "verify", LOGS / "duel-complete.aar")
    assert code == 0 and out.splitlines()[0].startswith("VERIFIED, BUT UNPINNED (no --server-key")


def test_the_first_line_says_when_the_rules_were_not_replayed(capsys):
    from afteraction.engine.log.bundle import read_bundle

    with open(LOGS / "duel-complete.aar", "rb") as f:
        vkey = read_bundle(f)[0]["server_vkey"]
    code, out, _ = _run(capsys, "verify", LOGS / "duel-complete.aar", "--server-key", vkey, "--no-replay")
    first = out.splitlines()[0]
    assert code == 0 and first.startswith("VERIFIED, BUT NOT REPLAYED (the rules were not re-run") and "UNPINNED" not in first
    code, out, _ = _run(capsys, "verify", LOGS / "duel-complete.aar", "--no-replay")
    assert out.splitlines()[0].startswith("VERIFIED, BUT UNPINNED (no --server-key") and " AND NOT REPLAYED (" in out
    code, out, _ = _run(capsys, "verify", LOGS / "duel-complete.aar", "--server-key", vkey)
    assert out.startswith(f"VERIFIED, BUT OLDER FORMAT v1 (the newest is v{FORMAT_VERSION}")  # Not a plain VERIFIED
    newest = LOGS / "tampered" / "v3-answer-past-offer.aar"   # the newest format, verifies: pinned, no caveat
    with open(newest, "rb") as f:
        code, out, _ = _run(capsys, "verify", newest, "--server-key", read_bundle(f)[0]["server_vkey"])
    assert code == 0 and out.startswith("VERIFIED") and "OLDER FORMAT" not in out
    assert f", format v{FORMAT_VERSION}" in out.splitlines()[0]


def _genesis(match=None, version=2):
    rs = registry.get("duel")
    keys = {s: SeatSigner(s, bytes([i + 1]) * 32).public for i, s in enumerate(rs.seats)}
    from afteraction.engine.crypto.note import Signer

    vkey = Signer("t.example", bytes(32)).verifier.vkey
    return Referee.new_genesis("00" * 8, rs, rs.scenarios[0], {}, keys, vkey, "t.example/game/x", bytes(32), version, match)


GOOD = {"label": "Round 1", "players": {"a": "Ann"}, "date": "2026-12-01"}


def test_match_data_in_a_v2_genesis_passes_step_4():
    rec = _genesis(GOOD)
    assert rec.body["match"] == GOOD
    genesis_shape(rec)


@pytest.mark.parametrize("bad, why", [
    ({}, "at least one"), ({"label": "x", "venue": "y"}, "no other key"),
    ({"label": "x" * (MAX_LABEL + 1)}, "match label"), ({"label": 7}, "match label"),
    ({"players": {"c": "Cy"}}, "not a seat"), ({"players": {"a": "n" * (MAX_PLAYER + 1)}}, "name"),
    ({"players": {}}, "non-empty"), ({"date": "2026-13-01"}, "match date"), ({"date": 20261201}, "match date"),
])
def test_match_data_of_another_shape_is_refused_at_creation_and_fails_step_4(bad, why):
    assert why in match_problem(bad, ("a", "b"))
    with pytest.raises(Rejection) as e:
        _genesis(bad)
    assert e.value.code == "BAD_MATCH" and why in e.value.message
    good = _genesis(GOOD)  # a forged genesis: the same check at step 4
    forged = make_record(good.game, 0, good.prev, "genesis", {**good.body, "match": bad}, 2)
    with pytest.raises(VerificationError) as v:
        genesis_shape(forged)
    assert v.value.step.startswith("4") and why in str(v.value)


def test_match_data_needs_format_v2():
    with pytest.raises(Rejection):
        _genesis(GOOD, version=1)
    v1 = _genesis(None, version=1)
    forged = make_record(v1.game, 0, v1.prev, "genesis", {**v1.body, "match": GOOD}, 1)
    with pytest.raises(VerificationError) as v:
        genesis_shape(forged)
    assert "exactly the keys" in str(v.value)


def test_a_genesis_without_match_data_is_the_bytes_it_was():
    """The optional key adds nothing when absent: a v2 genesis has the same keys as before."""
    rec = _genesis(None)
    assert "match" not in rec.body
    assert set(rec.body) == {"ruleset", "scenario", "options", "seats", "server", "secret_commit", "sealed_sizes"}
