"""The browser library's record verifier (clients/web/src/lib/verifier.ts and endings.ts, what
every seat's and spectator's page runs) over every log of the conformance manifest
(fixtures/conformance.json), in node (its WebCrypto has Ed25519): each log `aar verify` accepts
it accepts, each tampered log whose check the browser does (SPEC.md 10 steps 2-8, seat
cosignatures, the endings of 8.1-8.3) it refuses at the record `aar verify` names. The checks a
browser seat does not do are listed with their reason (docs/service.md "The web client"). Needs
clients/web/node_modules (esbuild) and node; skips without them, fails under AAR_REQUIRE_BROWSER=1."""
from __future__ import annotations

import base64
import json
import pathlib
import subprocess

import pytest

from afteraction.engine.log.bundle import read_bundle

from .conftest import node_bundle

ROOT = pathlib.Path(__file__).resolve().parents[2]

#: fixtures whose failing check a browser seat does not do, and why
NOT_IN_BROWSER = {
    "resealed-by-server-7.aar": "step 9, sealed ciphertexts: no ChaCha20-Poly1305 in WebCrypto",
    "wrong-roll-10.aar": "step 10, dice: needs the secret and the replay's order",
    "wrong-outcome-11.aar": "step 11, the rules replay",
    "genesis-option-bool-0.aar": "options against the ruleset (the Python seat's verifier has no ruleset either)",
    "wrong-secret-header.aar": "the bundle header: a seat reads records from the service, not bundles",
    "secret-without-end-11.aar": "the bundle header",
    "end-without-secret-11.aar": "the bundle header",
    "secret-no-records.aar": "the bundle header",
}
#: refused, but at a later record than aar verify (whose earlier check needs what the browser lacks)
LATER = {
    "v2-nonzero-padding-7.aar": 8,   # step 9 at 7 (sealed); the next record's prev binds the history
    "sealed-wrong-roll-5.aar": 6,    # step 10 at 5 (a sealed roll); its opening is refused at 6
    "sealed-resign-5.aar": 6,        # step 9 at 5 (a sealed resignation); its opening is refused at 6
}


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    return node_bundle(tmp_path_factory, "verify_driver.ts")

def test_web_verifier_agrees_with_aar_verify_on_every_conformance_log(driver):
    manifest = json.loads((ROOT / "fixtures" / "conformance.json").read_text())
    jobs, want = [], {}
    for b in manifest["bundles"]:
        name = pathlib.Path(b["file"]).name
        with open(ROOT / b["file"], "rb") as f:
            try:
                header, records = read_bundle(f)
                recs = list(records)
            except Exception:  # noqa: BLE001 -- unreadable bundle: step 1, a bundle check
                assert name in NOT_IN_BROWSER or b["step"].startswith("1"), b
                continue
        jobs.append({"file": name, "vkey": header["server_vkey"], "game": header["game"],
                     "records": [[base64.b64encode(r).decode(), c] for r, c in recs]})
        want[name] = b
    r = subprocess.run(["node", str(driver)], input=json.dumps(jobs), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    got = {x["file"]: x for x in json.loads(r.stdout)}
    endings = [n for n in got if "ending" in n or n.startswith(("resign-", "accept-", "timeout-"))]
    assert len(endings) == 7, endings   # SPEC.md 8.3's fixtures, all checked in the browser
    for name, b in want.items():
        x = got[name]
        if name in NOT_IN_BROWSER:
            assert x["ok"], (name, x)   # if the browser learns the check, move the fixture out of the list
            continue
        if b["exit"] == 0:
            assert x["ok"], (name, x)
        else:
            assert not x["ok"] and x["seq"] == LATER.get(name, b["seq"]), (name, b["step"], b["seq"], x)
            assert "does not verify" in x["error"], x
