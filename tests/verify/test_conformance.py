"""The conformance manifest (fixtures/conformance.json) run against `aar verify`, and every
`aar verify --json` output it produces validated against docs/verify.schema.json (SPEC.md 10.2).

The manifest is what another implementation runs against itself; this is the reference running it.
tests/crypto/test_vectors_spec_verifier.py runs the same bundles through the SPEC-only verifier."""
from __future__ import annotations

import importlib.util
import json
import sys

import jsonschema
import pytest

from afteraction.cli.main import main
from afteraction.engine.crypto import note
from afteraction.engine.errors import CryptoError

from conftest import REPO

MANIFEST = json.loads((REPO / "fixtures" / "conformance.json").read_text())
SCHEMA = json.loads((REPO / "docs" / "verify.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
BUNDLES = MANIFEST["bundles"]


def _verify(capsys, *argv) -> tuple[int, dict]:
    code = main(["verify", "--json", *argv])
    out, _ = capsys.readouterr()
    obj = json.loads(out)
    errors = sorted(VALIDATOR.iter_errors(obj), key=str)
    assert not errors, [e.message for e in errors]
    return code, obj


def _check(code: int, obj: dict, want: dict) -> None:
    assert code == want["exit"], obj
    assert obj["verified"] is (want["exit"] == 0)
    assert obj["unreadable"] is (want["exit"] == 2)
    if want["exit"] != 0:
        assert (obj["step"], obj["seq"]) == (want["step"], want["seq"]), obj["message"]


def test_the_manifest_is_what_make_logs_writes():
    spec = importlib.util.spec_from_file_location("make_logs", REPO / "fixtures" / "make_logs.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["make_logs"] = mod  # its dataclasses look their module up
    try:
        spec.loader.exec_module(mod)
    finally:
        del sys.modules["make_logs"]
    n = len(mod.split((REPO / "fixtures" / "logs" / "duel-complete.aar").read_bytes())[1])
    assert mod.manifest(n) == MANIFEST


def test_the_manifest_lists_every_fixture_bundle_and_vector_file():
    files = {b["file"] for b in BUNDLES}
    on_disk = {str(p.relative_to(REPO)) for d in ("fixtures/logs", "fixtures/golden")
               for p in (REPO / d).rglob("*.aar")}
    assert files == on_disk
    assert {v["file"] for v in MANIFEST["vectors"]} == {str(p.relative_to(REPO))
                                                        for p in (REPO / "fixtures" / "vectors").glob("*.json")}
    assert all(v["spec_section"] for v in MANIFEST["vectors"])


@pytest.mark.parametrize("case", BUNDLES, ids=[b["file"].removeprefix("fixtures/") for b in BUNDLES])
def test_aar_verify_gives_the_manifest_verdict(capsys, case):
    code, obj = _verify(capsys, str(REPO / case["file"]))
    _check(code, obj, case)
    if "ruleset" in case:  # SPEC.md 10.4: the version genesis names, replayed with exactly that version
        assert obj["ruleset"] == case["ruleset"] and obj["replayed"] is case["replayed"]
        assert obj["replayed_with"] == (case["ruleset"] if case["replayed"] else "")
    assert obj["format"] == case["format"]   # genesis's format version (SPEC.md 1.2), null if not read
    if "min_version" in case:   # A log of an older format fails --min-version at record 0
        code, obj = _verify(capsys, "--min-version", str(case["min_version"]["version"]), str(REPO / case["file"]))
        _check(code, obj, case["min_version"])
    code, obj = _verify(capsys, "--no-replay", str(REPO / case["file"]))
    _check(code, obj, case.get("no_replay", case))
    if "require_cosigned" in case:
        code, obj = _verify(capsys, "--require-cosigned", str(REPO / case["file"]))
        _check(code, obj, case["require_cosigned"])


@pytest.mark.parametrize("case", MANIFEST["vkeys"], ids=[c["why"] for c in MANIFEST["vkeys"]])
def test_spec_4_2_verifier_key_strings(capsys, case):
    if case["valid"]:
        v = note.parse_vkey(case["vkey"])
        assert (v.name, v.key_id.hex()) == (case["name"], case["key_id"])
        assert v.vkey == case["vkey"]  # one string per key
        return
    with pytest.raises(CryptoError):
        note.parse_vkey(case["vkey"])
    code, obj = _verify(capsys, "--server-key", case["vkey"], str(REPO / "fixtures" / "logs" / "duel-complete.aar"))
    assert code == 2 and obj["unreadable"] is True and obj["step"] is None


def test_usage_errors_and_pinned_failures_fit_the_schema(capsys, tmp_path):
    log = str(REPO / "fixtures" / "logs" / "duel-complete.aar")
    assert _verify(capsys, str(tmp_path / "missing.aar"))[0] == 2
    assert _verify(capsys, "--seat-key", "a=00", log)[0] == 2
    from afteraction.engine.seat import SeatSigner
    other = SeatSigner("a", bytes(range(32))).public.hex()  # a valid key, not a's
    code, obj = _verify(capsys, "--seat-key", "a=" + other, log)
    assert code == 1 and obj["step"] == "4 (genesis)" and obj["seq"] == 0


def test_a_failure_carries_the_report_as_far_as_it_got(capsys):
    code, obj = _verify(capsys, str(REPO / "fixtures" / "logs" / "tampered" / "wrong-roll-10.aar"))
    assert code == 1 and obj["seq"] == 10
    assert obj["records"] == 10 and obj["ruleset"] == "duel/1" and obj["game"]
    assert obj["sealed"] > 0 and obj["server_vkey"].startswith("afteraction.test+")


@pytest.mark.parametrize("case", MANIFEST["evidence"], ids=[c["what"] for c in MANIFEST["evidence"]])
def test_aar_evidence_gives_the_manifest_verdict(capsys, case):
    """SPEC.md 7.1, "History binding": what two envelopes or bundles prove, as `aar evidence` says."""
    code = main(["evidence", str(REPO / case["a"]), str(REPO / case["b"])])
    out = capsys.readouterr().out
    assert code == case["exit"], out
    assert out.rstrip().splitlines()[-1].startswith("INCONSISTENT" if case["exit"] else "consistent")


def test_min_version_keeps_a_log_of_that_format_and_refuses_older_ones(capsys):
    """SPEC.md 10 B.3 and 11: --min-version N fails a log whose format is below N (exit 1,
    step 2 at record 0) and changes nothing for one of format N; N outside the known versions is a
    usage error (exit 2)."""
    from afteraction.engine.protocol import FORMAT_VERSION
    v1, v2 = str(REPO / "fixtures/logs/duel-complete.aar"), str(REPO / "fixtures/logs/evidence/fork-a.aar")
    newest = str(REPO / "fixtures/logs/tampered/v3-answer-past-offer.aar")   # a log of format 3 that verifies
    code, obj = _verify(capsys, "--min-version", str(FORMAT_VERSION), newest)
    assert code == 0 and obj["format"] == FORMAT_VERSION and not any("older than" in n for n in obj["notes"])
    code, obj = _verify(capsys, "--min-version", "1", v1)
    assert code == 0 and obj["format"] == 1 and any("what v2 added" in n and "prev" in n for n in obj["notes"])
    code, obj = _verify(capsys, "--min-version", "2", v2)
    assert code == 0 and obj["format"] == 2 and any("what v3 added" in n for n in obj["notes"])
    code, obj = _verify(capsys, "--min-version", "2", v1)
    assert (code, obj["step"], obj["seq"], obj["expected"], obj["found"]) == (1, "2 (encoding)", 0, 2, 1)
    assert obj["format"] == 1 and obj["records"] == 0
    for bad in ("0", str(FORMAT_VERSION + 1)):
        code, obj = _verify(capsys, "--min-version", bad, newest)
        assert code == 2 and obj["unreadable"] is True and "--min-version" in obj["message"]
