"""SPEC.md 7.5 in the browser library (clients/web/src/lib/receipt.ts, what the web seat checks every
receipt with), run in node: on every case of fixtures/vectors/receipt.json it computes the
envelope hash and the signed message byte for byte and finds the receipt good under the example's
server key; a receipt altered in any field, signed by another key, or for another envelope is
refused with the reason engine/receipt.py gives. Needs node and clients/web/node_modules (esbuild);
skips without them, fails under AAR_REQUIRE_BROWSER=1."""
from __future__ import annotations

import json
import pathlib
import subprocess

import pytest

from afteraction.engine import receipt as R
from afteraction.v1 import game_service_pb2 as gs

from .conftest import node_bundle

ROOT = pathlib.Path(__file__).resolve().parents[2]
VEC = json.loads((ROOT / "fixtures" / "vectors" / "receipt.json").read_text())


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = node_bundle(tmp_path_factory, "receipt_driver.ts")

    def call(server_public: str, cases: list[dict]) -> list[dict]:
        p = subprocess.run(["node", str(out)], input=json.dumps({"server_public": server_public, "cases": cases}),
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout)
    return call


def test_the_vectors_byte_for_byte(run):
    got = run(VEC["server_public"], VEC["cases"])
    assert len(got) == len(VEC["cases"]) == 2
    for g, c in zip(got, VEC["cases"]):
        assert g == {"envelope_hash": c["envelope_hash"], "message": c["message"], "problem": None,
                     "problem_with_envelope": None}, c["note"]


def _altered() -> list[tuple[str, dict]]:
    c = VEC["cases"][0]
    base = gs.Receipt.FromString(bytes.fromhex(c["receipt_pb"]))
    out = []
    for field, value in (("game_id", "other"), ("seat", "a"), ("counter", 4), ("state_seq", 7), ("prev", bytes(32)),
                         ("envelope_hash", bytes(32)), ("decision", "refused/STALE_STATE"), ("seq", 5),
                         ("received_ms", 1), ("signature", bytes(64)), ("decision", "maybe"), ("envelope_hash", b"x")):
        r = gs.Receipt()
        r.CopyFrom(base)
        setattr(r, field, value)
        out.append((field, {"envelope": c["envelope"], "receipt_pb": r.SerializeToString().hex()}))
    return out


def test_every_altered_receipt_is_refused_as_the_reference_refuses_it(run):
    cases = _altered()
    got = run(VEC["server_public"], [c for _, c in cases])
    key = bytes.fromhex(VEC["server_public"])
    for (field, c), g in zip(cases, got):
        r = gs.Receipt.FromString(bytes.fromhex(c["receipt_pb"]))
        assert g["problem"] == R.problem(r, key) and g["problem"] is not None, (field, g)
        assert g["problem_with_envelope"] == R.problem(r, key, bytes.fromhex(c["envelope"])), (field, g)


def test_a_receipt_under_another_server_key_is_refused(run):
    from afteraction.engine.seat import SeatSigner

    other = SeatSigner("x", bytes(range(32))).public.hex()
    got = run(other, VEC["cases"])
    assert all(g["problem"] == "its signature does not verify with the server key" for g in got), got
