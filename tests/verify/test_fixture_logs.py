"""The committed fixture logs (fixtures/logs/, see its README.md) keep verifying forever,
and each tampered variant keeps failing exactly as its README row says.

These tests read the committed bytes; they never regenerate the logs to compare."""
from __future__ import annotations

import json
import re

import pytest

from afteraction.cli.main import main

from conftest import REPO

LOGS = REPO / "fixtures" / "logs"


def _table() -> list[tuple[str, int, str | None, int | None]]:
    """The fixture logs' rows of the conformance manifest (fixtures/conformance.json, written with
    logs/README.md from make_logs.py's VARIANTS)."""
    m = json.loads((REPO / "fixtures" / "conformance.json").read_text())
    return [(b["file"].removeprefix("fixtures/logs/"), b["exit"], b["step"], b["seq"])
            for b in m["bundles"] if b["file"].startswith("fixtures/logs/")]


ROWS = _table()
TAMPERED = [r for r in ROWS if r[0].startswith("tampered/") and r[1] != 0]  # exit 0: cosigned variants (conformance)


def _run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_readme_lists_every_log_and_only_existing_ones():
    listed = {r[0] for r in ROWS}
    present = {str(p.relative_to(LOGS)) for p in LOGS.rglob("*.aar")}
    assert listed == present
    assert "duel-complete.aar" in listed and len(TAMPERED) >= 10


def test_golden_duel_log_verifies(capsys):
    code, out, _ = _run(capsys, "verify", str(LOGS / "duel-complete.aar"))
    assert code == 0, out
    assert out.startswith("VERIFIED, BUT UNPINNED (no --server-key")  # The first line says so
    assert "replayed by the ruleset: yes, byte for byte" in out


def test_golden_duel_log_verifies_json(capsys):
    code, out, _ = _run(capsys, "verify", "--json", str(LOGS / "duel-complete.aar"))
    assert code == 0
    r = json.loads(out)
    assert r["verified"] is True and r["ended"] is True and r["replayed"] is True
    assert r["ruleset"] == "duel/1" and r["records"] == 12
    assert r["rolls"] >= 1 and r["sealed"] >= 3 and r["opened"] >= 3


def test_golden_duel_log_verifies_with_pinned_key(capsys):
    code, out, _ = _run(capsys, "verify", "--json", str(LOGS / "duel-complete.aar"))
    vkey = json.loads(out)["server_vkey"]
    code, out, _ = _run(capsys, "verify", "--json", "--server-key", vkey, str(LOGS / "duel-complete.aar"))
    assert code == 0 and json.loads(out)["pinned"] is True
    # another well-formed key (same name, another Ed25519 key): the log fails step 4 (exit 1)
    from afteraction.engine.crypto.note import Signer
    from afteraction.engine.local import derive_bytes

    other = Signer("afteraction.test", derive_bytes(b"tests/other-server", "key")).verifier.vkey
    assert other != vkey
    code, out, _ = _run(capsys, "verify", "--json", "--server-key", other, str(LOGS / "duel-complete.aar"))
    assert code == 1 and json.loads(out)["step"] == "4 (genesis)"
    # a string that is no verifier key at all (its key ID no longer matches) is a usage error
    code, out, _ = _run(capsys, "verify", "--server-key", vkey.replace("afteraction.test", "someone.else", 1),
                        str(LOGS / "duel-complete.aar"))
    assert code == 2


@pytest.mark.parametrize("name,code,step,seq", TAMPERED, ids=[r[0] for r in TAMPERED])
def test_tampered_log_fails_as_documented(capsys, name, code, step, seq):
    got, out, err = _run(capsys, "verify", "--json", str(LOGS / name))
    assert got == code, out + err
    r = json.loads(out)
    assert r["verified"] is False
    assert (r["step"], r["seq"]) == (step, seq), r["message"]
    # the human-readable form: exit code and one line naming step and record
    got, out, err = _run(capsys, "verify", str(LOGS / name))
    assert got == code
    text = out if code == 1 else err
    assert f"step {step} failed at " + (f"record {seq}" if seq is not None else "bundle") in text
    if code == 1:
        assert out.startswith("NOT VERIFIED: ") and out.count("\n") == 1


def test_missing_file_is_exit_2(capsys, tmp_path):
    code, _, err = _run(capsys, "verify", str(tmp_path / "nope.aar"))
    assert code == 2 and "cannot read" in err


@pytest.mark.parametrize("content", [b"", b"aar-bundle-v1\n", b"aar-bundle-v1\n\xc1", b"hello world\n"],
                         ids=["empty", "magic-only", "bad-frame", "text"])
def test_unreadable_file_is_exit_2(capsys, tmp_path, content):
    p = tmp_path / "x.aar"
    p.write_bytes(content)
    code, out, err = _run(capsys, "verify", "--json", str(p))
    assert code == 2, out + err
    assert json.loads(out)["unreadable"] is True


def test_usage_error_is_exit_2(capsys):
    assert _run(capsys, "verify")[0] == 2
    assert _run(capsys, "frobnicate")[0] == 2
