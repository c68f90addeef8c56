"""SPEC.md 7.4 in the browser library (clients/web/src/lib/ed25519.ts, what the web client's seat
verifier and the replay page check every Ed25519 key and signature with): run in node, whose
WebCrypto, like Chromium's, accepts small-order keys and small-order R on its own. On every key and
signature of the project's vectors (fixtures/vectors/ed25519.json), of ed25519-speccheck and of
Wycheproof (../shared/vectors), and on random keys and signatures, its verdict and the clause it
names are those of the reference rule (engine/crypto/ed25519.py); and the same in headless
Chromium (BoringSSL's WebCrypto) through the replay page's build of it (clients/cli/view_lib.js).
Needs node and clients/web/node_modules (esbuild), and chromium; skips without them, fails under
AAR_REQUIRE_BROWSER=1."""
from __future__ import annotations

import json
import pathlib
import random
import subprocess

import pytest

from afteraction.engine.crypto import ed25519 as E
from afteraction.engine.seat import SeatSigner

from browsers import launched

from .conftest import node_bundle

ROOT = pathlib.Path(__file__).resolve().parents[2]
OWN = json.loads((ROOT / "fixtures" / "vectors" / "ed25519.json").read_text())


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = node_bundle(tmp_path_factory, "ed25519_driver.ts")

    def call(keys: list[bytes], sigs: list[tuple[bytes, bytes, bytes]]) -> dict:
        job = {"keys": [k.hex() for k in keys], "sigs": [[a.hex(), m.hex(), s.hex()] for a, m, s in sigs]}
        p = subprocess.run(["node", str(out)], input=json.dumps(job), capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout)
    return call


def _agree(run, keys: list[bytes], sigs: list[tuple[bytes, bytes, bytes]]) -> None:
    got = run(keys, sigs)
    for k, (clause, why) in zip(keys, got["keys"]):
        want = E.point_check(k)
        assert (clause, why) == (None, None) if want is None else [clause, why] == list(want), k.hex()
    for (a, m, s), problem in zip(sigs, got["sigs"]):
        assert problem == E.signature_problem(a, m, s), (a.hex(), m.hex(), s.hex())


def test_web_7_4_project_vectors(run):
    keys = [bytes.fromhex(c["public"]) for c in OWN["keys"]]
    sigs = [tuple(bytes.fromhex(c[k]) for k in ("public", "message", "signature")) for c in OWN["cases"]]
    got = run(keys, sigs)
    for c, (clause, _) in zip(OWN["keys"], got["keys"]):
        assert (clause is None) is c["accepted"] and clause == c["clause"], c["description"]
    for c, problem in zip(OWN["cases"], got["sigs"]):
        assert (problem is None) is c["valid"], c["description"]
        assert problem is None or int(problem.split(" ")[0]) == c["clause"], c["description"]
    _agree(run, keys, sigs)


def test_web_7_4_speccheck_and_wycheproof(run, shared_vectors):
    cases = json.loads((shared_vectors / "ed25519" / "speccheck-cases.json").read_text())
    sigs = [tuple(bytes.fromhex(c[k]) for k in ("pub_key", "message", "signature")) for c in cases]
    doc = json.loads((shared_vectors / "ed25519" / "wycheproof-ed25519_test.json").read_text())
    sigs += [(bytes.fromhex(g["publicKey"]["pk"]), bytes.fromhex(t["msg"]), bytes.fromhex(t["sig"]))
             for g in doc["testGroups"] for t in g["tests"]]
    assert len(sigs) == 12 + 151
    _agree(run, [a for a, _, _ in sigs[:12]], sigs)


def test_web_7_4_random_keys_and_signatures(run):
    rnd = random.Random(74)
    keys = [rnd.randbytes(32) for _ in range(200)]
    keys += [E.encode(E.add(E.decode(SeatSigner("a", rnd.randbytes(32)).public)[0], E.decode(t)[0]))
             for t in sorted(E.SMALL_ORDER_ENCODINGS)]  # honest keys plus a small-order component: mixed order
    sigs = []
    for i in range(40):
        s = SeatSigner("a", rnd.randbytes(32))
        msg = rnd.randbytes(rnd.randrange(0, 80))
        sig = s._key.sign(msg)
        bad = bytearray(sig)
        bad[rnd.randrange(64)] ^= 1 << rnd.randrange(8)
        sigs += [(s.public, msg, sig), (s.public, msg, bytes(bad)), (s.public, msg + b"x", sig)]
    _agree(run, keys, sigs)


@pytest.fixture(scope="module")
def browser():
    yield from launched()


def _vectors(shared_vectors) -> list[tuple[bytes, bytes, bytes]]:
    sigs = [tuple(bytes.fromhex(c[k]) for k in ("public", "message", "signature")) for c in OWN["cases"]]
    cases = json.loads((shared_vectors / "ed25519" / "speccheck-cases.json").read_text())
    sigs += [tuple(bytes.fromhex(c[k]) for k in ("pub_key", "message", "signature")) for c in cases]
    doc = json.loads((shared_vectors / "ed25519" / "wycheproof-ed25519_test.json").read_text())
    return sigs + [(bytes.fromhex(g["publicKey"]["pk"]), bytes.fromhex(t["msg"]), bytes.fromhex(t["sig"]))
                   for g in doc["testGroups"] for t in g["tests"]]


def test_web_7_4_in_chromium_through_the_replay_pages_copy(browser, shared_vectors, tmp_path):
    page_file = tmp_path / "ed25519.html"
    page_file.write_text("<!doctype html><script>" + (ROOT / "clients" / "cli" / "view_lib.js").read_text()
                         + "</script>")
    page = browser.new_page()
    page.goto(page_file.as_uri())
    keys = [bytes.fromhex(c["public"]) for c in OWN["keys"]]
    sigs = _vectors(shared_vectors)
    got = page.evaluate("""async ([keys, sigs]) => {
      const h = (s) => Uint8Array.from(s.match(/../g) || [], (x) => parseInt(x, 16));
      const out = [];
      for (const [a, m, s] of sigs) out.push(await aarLib.signatureProblem(h(a), h(m), h(s)));
      return { keys: keys.map((k) => aarLib.keyProblem(h(k))), sigs: out };
    }""", [[k.hex() for k in keys], [[a.hex(), m.hex(), s.hex()] for a, m, s in sigs]])
    page.close()
    assert got["keys"] == [E.point_problem(k) for k in keys]
    assert got["sigs"] == [E.signature_problem(a, m, s) for a, m, s in sigs]
    assert sum(p is None for p in got["sigs"]) > 80  # most Wycheproof signatures are valid: WebCrypto was reached
