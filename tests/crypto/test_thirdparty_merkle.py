"""engine/crypto/merkle.py against third-party RFC 6962 vectors (shared/vectors/rfc6962).

- the 196 transparency-dev/merkle proof probes (inclusion + consistency), each must
  succeed exactly when ``wantErr`` is false;
- sequential-leaves.json: every node hash, every prefix root, proof generation byte for
  byte and verification;
- hasher.json and golang-mod-sumdb-consistency.json.
"""
from __future__ import annotations

import base64
import json
import pathlib

import pytest

from afteraction.engine.crypto import merkle
from afteraction.engine.errors import CryptoError

from conftest import SHARED_VECTORS

RFC = SHARED_VECTORS / "rfc6962"
PROBES = RFC / "testdata"


def _walk(kind: str) -> list[pathlib.Path]:
    """Every probe file under testdata/<kind>, listing directories (names contain [ ] @)."""
    root = PROBES / kind
    if not root.is_dir():
        return []
    out = []
    stack = [root]
    while stack:
        d = stack.pop()
        for p in sorted(d.iterdir()):
            if p.is_dir():
                stack.append(p)
            elif p.name.endswith(".json"):
                out.append(p)
    return sorted(out)


INCLUSION = _walk("inclusion")
CONSISTENCY = _walk("consistency")


def _ids(paths):
    return [str(p.relative_to(PROBES)) for p in paths]


def _b64(s: str | None) -> bytes:
    return base64.b64decode(s or "")


def _proof(v) -> list[bytes]:
    return [] if v is None else [_b64(x) for x in v]


def _u64(v) -> int:
    assert isinstance(v, int) and 0 <= v < 2**64, v
    return v


def _outcome(fn, *args) -> bool:
    """True if ``fn`` accepts, False if it raises CryptoError (any other exception fails the test)."""
    try:
        fn(*args)
    except CryptoError:
        return False
    return True


def test_probe_counts(shared_vectors):
    # README: 98 inclusion + 98 consistency probes, 6 valid of each
    assert len(INCLUSION) == 98
    assert len(CONSISTENCY) == 98
    assert sum(not json.loads(p.read_text())["wantErr"] for p in INCLUSION) == 6
    assert sum(not json.loads(p.read_text())["wantErr"] for p in CONSISTENCY) == 6


@pytest.mark.parametrize("path", INCLUSION, ids=_ids(INCLUSION))
def test_transparency_dev_inclusion_probe(path, shared_vectors):
    d = json.loads(path.read_text())
    ok = _outcome(merkle.verify_inclusion, _u64(d["leafIdx"]), _u64(d["treeSize"]), _b64(d["leafHash"]),
                  _proof(d["proof"]), _b64(d["root"]))
    assert ok == (not d["wantErr"]), d["desc"]


@pytest.mark.parametrize("path", CONSISTENCY, ids=_ids(CONSISTENCY))
def test_transparency_dev_consistency_probe(path, shared_vectors):
    d = json.loads(path.read_text())
    ok = _outcome(merkle.verify_consistency, _u64(d["size1"]), _u64(d["size2"]), _proof(d["proof"]),
                  _b64(d["root1"]), _b64(d["root2"]))
    assert ok == (not d["wantErr"]), d["desc"]


def test_uint64_index_probe_parsed_exactly(shared_vectors):
    d = json.loads((PROBES / "inclusion" / "1" / "leafIdx-sub-@1.json").read_text())
    assert d["leafIdx"] == 2**64 - 1
    with pytest.raises(CryptoError):
        merkle.verify_inclusion(d["leafIdx"], d["treeSize"], _b64(d["leafHash"]), _proof(d["proof"]), _b64(d["root"]))


def test_consistency_zero_to_zero_is_an_error(shared_vectors):
    # transparency-dev policy at the vendored commit: size1 == 0 is always an error
    with pytest.raises(CryptoError):
        merkle.verify_consistency(0, 0, [], merkle.EMPTY_ROOT, merkle.EMPTY_ROOT)


# -- sequential-leaves.json ---------------------------------------------------------

@pytest.fixture(scope="module")
def seq(shared_vectors):
    d = json.loads((RFC / "sequential-leaves.json").read_text())
    d["inputs"] = [bytes.fromhex(x) for x in d["leaf_inputs"]]
    d["leaves"] = [bytes.fromhex(x) for x in d["leaf_hashes"]]
    return d


def test_sequential_leaf_hashes(seq):
    assert len(seq["inputs"]) == 8
    assert [merkle.leaf_hash(x) for x in seq["inputs"]] == seq["leaves"]


def test_sequential_every_node_hash(seq):
    levels = seq["node_hashes"]
    assert [len(lv) for lv in levels] == [8, 4, 2, 1]
    for level, nodes in enumerate(levels):
        for i, h in enumerate(nodes):
            span = seq["leaves"][i << level:(i + 1) << level]
            assert merkle.root_from_leaf_hashes(span) == bytes.fromhex(h), (level, i)
            if level > 0:
                left, right = levels[level - 1][2 * i], levels[level - 1][2 * i + 1]
                assert merkle.node_hash(bytes.fromhex(left), bytes.fromhex(right)) == bytes.fromhex(h)


def test_sequential_every_prefix_root(seq):
    roots = [bytes.fromhex(r) for r in seq["root_hashes"]]
    assert len(roots) == 9 and roots[0] == merkle.EMPTY_ROOT
    t = merkle.CompactTree()
    assert t.root() == roots[0]
    for n in range(1, 9):
        t.append(seq["leaves"][n - 1])
        assert t.size == n
        assert t.root() == roots[n], n
        assert merkle.root_from_leaf_hashes(seq["leaves"][:n]) == roots[n], n


def test_sequential_inclusion_proofs_generated_and_verified(seq):
    roots = [bytes.fromhex(r) for r in seq["root_hashes"]]
    assert len(seq["inclusion_proofs"]) == 7
    for p in seq["inclusion_proofs"]:
        i, n = p["index"], p["tree_size"]
        want = [bytes.fromhex(x) for x in p["proof"]]
        assert merkle.inclusion_proof(seq["leaves"][:n], i) == want, (i, n)
        merkle.verify_inclusion(i, n, seq["leaves"][i], want, roots[n])


def test_sequential_consistency_proofs_generated_and_verified(seq):
    roots = [bytes.fromhex(r) for r in seq["root_hashes"]]
    assert len(seq["consistency_proofs"]) == 5
    for p in seq["consistency_proofs"]:
        m, n = p["size1"], p["size2"]
        want = [bytes.fromhex(x) for x in p["proof"]]
        assert merkle.consistency_proof(seq["leaves"][:n], m) == want, (m, n)
        merkle.verify_consistency(m, n, want, roots[m], roots[n])


def test_sequential_all_proofs_of_the_8_leaf_tree(seq):
    """Beyond the listed proofs: every generated proof of every prefix verifies."""
    roots = [bytes.fromhex(r) for r in seq["root_hashes"]]
    for n in range(1, 9):
        for i in range(n):
            merkle.verify_inclusion(i, n, seq["leaves"][i], merkle.inclusion_proof(seq["leaves"][:n], i), roots[n])
        for m in range(1, n + 1):
            merkle.verify_consistency(m, n, merkle.consistency_proof(seq["leaves"][:n], m), roots[m], roots[n])


# -- hasher.json and the sumdb consistency proof ----------------------------------

def test_hasher_vectors(shared_vectors):
    vs = json.loads((RFC / "hasher.json").read_text())["vectors"]
    assert len(vs) == 5
    for v in vs:
        want = bytes.fromhex(v["want_hex"])
        if v["op"] == "empty_root":
            assert merkle.EMPTY_ROOT == want
            assert merkle.root_from_leaf_hashes([]) == want
        elif v["op"] == "leaf":
            assert merkle.leaf_hash(bytes.fromhex(v["input_hex"])) == want, v["desc"]
        elif v["op"] == "node":  # raw 4-byte children: the node function must not enforce a length
            assert merkle.node_hash(bytes.fromhex(v["left_hex"]), bytes.fromhex(v["right_hex"])) == want, v["desc"]
        else:
            pytest.fail(f"unknown op {v['op']}")


def test_golang_mod_sumdb_consistency(shared_vectors):
    cases = json.loads((RFC / "golang-mod-sumdb-consistency.json").read_text())
    assert len(cases) == 2
    for d in cases:
        ok = _outcome(merkle.verify_consistency, _u64(d["size1"]), _u64(d["size2"]), _proof(d["proof"]),
                      _b64(d["root1"]), _b64(d["root2"]))
        assert ok == (not d["wantErr"]), d["desc"]
