"""ChaCha20-Poly1305 and the opening of sealed values in the browser library
(clients/web/src/lib/aead.ts, SPEC.md 6.2 and 6.5), run in node: RFC 8439's AEAD vector, random
keys, nonces, texts and associated data against Python `cryptography` (and each with one bit
flipped: refused), and sealed values of both format versions written by the reference
(engine/crypto/commit.py seal) opened to the same salt and value, while a wrong secret, a flipped
bit, a wrong size, a nonzero padding byte or a wrong commitment is refused as commit.unseal
refuses it. Needs node and clients/web/node_modules (esbuild); skips without them, fails under
AAR_REQUIRE_BROWSER=1."""
from __future__ import annotations

import json
import random
import subprocess

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from afteraction.engine.crypto import canon, commit
from afteraction.engine.errors import CryptoError

from .conftest import node_bundle

# RFC 8439 2.8.2
RFC_KEY = bytes(range(0x80, 0xa0))
RFC_NONCE = bytes.fromhex("070000004041424344454647")
RFC_AD = bytes.fromhex("50515253c0c1c2c3c4c5c6c7")
RFC_PT = (b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, "
          b"sunscreen would be it.")
RFC_TAG = bytes.fromhex("1ae10b594f09e26a7e902ecbd0600691")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = node_bundle(tmp_path_factory, "aead_driver.ts")

    def call(aead=(), open_=()) -> dict:
        job = {"aead": [[x.hex() for x in j] for j in aead],
               "open": [[j[0].hex(), j[1], j[2], j[3], j[4].hex(), j[5].hex(), j[6]] for j in open_]}
        p = subprocess.run(["node", str(out)], input=json.dumps(job), capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout)
    return call


def test_web_aead_rfc8439_vector_and_random_texts(run):
    sealed = ChaCha20Poly1305(RFC_KEY).encrypt(RFC_NONCE, RFC_PT, RFC_AD)
    assert sealed[-16:] == RFC_TAG  # the RFC's tag: the reference library agrees
    rnd = random.Random(8439)
    jobs = [(RFC_KEY, RFC_NONCE, sealed, RFC_AD)]
    want = [RFC_PT.hex()]
    for n in [0, 1, 15, 16, 17, 63, 64, 65, 200, 1000]:
        key, nonce, ad, pt = rnd.randbytes(32), rnd.randbytes(12), rnd.randbytes(rnd.randrange(0, 40)), rnd.randbytes(n)
        ct = ChaCha20Poly1305(key).encrypt(nonce, pt, ad)
        bad = bytearray(ct)
        bad[rnd.randrange(len(bad))] ^= 1 << rnd.randrange(8)
        jobs += [(key, nonce, ct, ad), (key, nonce, bytes(bad), ad), (key, nonce, ct, ad + b"x")]
        want += [pt.hex(), None, None]
    assert run(aead=jobs)["aead"] == want


def _unseal_verdict(secret, game, seq, k, c, ct, size):
    try:
        op = commit.unseal(commit.seal_key(secret, game), game, seq, k, c, ct, size)
    except CryptoError:
        return None
    return [op.salt.hex(), canon.encode(op.value).hex()]


def test_web_sealed_values_open_as_the_reference_opens_them(run):
    rnd = random.Random(62)
    jobs, want_ok = [], []
    for i in range(12):
        secret, game = rnd.randbytes(32), f"game-{i}"
        seq, k = rnd.randrange(1, 500), rnd.randrange(0, 4)
        value = {"env": rnd.randbytes(rnd.randrange(1, 80)), "n": rnd.randrange(-5, 10**6), "s": "x" * rnd.randrange(0, 9)}
        size = None if i % 3 == 0 else commit.padded_length(value) + rnd.randrange(0, 40)
        _, c, ct = commit.seal(secret, game, seq, k, value, size)
        jobs.append((secret, game, seq, k, c, ct, size))
        want_ok.append(_unseal_verdict(secret, game, seq, k, c, ct, size))
        bad = bytearray(ct)
        bad[rnd.randrange(len(bad))] ^= 1
        jobs += [(rnd.randbytes(32), game, seq, k, c, ct, size), (secret, game, seq, k, c, bytes(bad), size),
                 (secret, game, seq + 1, k, c, ct, size), (secret, game, seq, k, rnd.randbytes(32), ct, size)]
        if size is not None:
            jobs.append((secret, game, seq, k, c, ct, size + 1))
            # a nonzero padding byte, re-encrypted under the right key, nonce and commitment (a covert channel)
            pt = bytearray(commit.pad(canon.encode({"salt": commit.derive_salt(secret, game, seq, k), "value": value}), size))
            if len(pt) > 4 + len(canon.encode({"salt": bytes(32), "value": value})):
                pt[-1] = 1
                jobs.append((secret, game, seq, k, c, ChaCha20Poly1305(commit.seal_key(secret, game)).encrypt(
                    commit.seal_nonce(game, seq, k), bytes(pt), c), size))
    got = run(open_=jobs)["open"]
    for j, g in zip(jobs, got):
        want = _unseal_verdict(*j)
        if want is None:
            assert isinstance(g, str), j
        else:
            assert g == want, j
    assert all(w is not None for w in want_ok)
    assert sum(isinstance(g, list) for g in got) == 12  # each honest one opened, every altered one refused
