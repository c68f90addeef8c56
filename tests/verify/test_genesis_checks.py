"""The verifier's genesis checks are code, not ``assert``. Until a71a849 step 4
read the genesis body under seven ``assert`` statements (gone under ``python -O``, so a forged
genesis reached the rest of the verifier unchecked). Each case below breaks what one of them
held, in a genesis a dishonest server re-chains and re-signs, and expects step 4's numbered
failure naming that check, with and without ``-O``; tests/engine/test_layers.py keeps
``assert`` out of engine code."""
from __future__ import annotations

import copy
import io
import json
import subprocess
import sys

import pytest
from conftest import REPO

from afteraction.engine.errors import VerificationError
from afteraction.engine.log.verify import verify_bundle

from afteraction.engine.crypto.merkle import CompactTree
from afteraction.engine.local import checkpoint_note
from afteraction.engine.protocol import ZERO_HASH, make_record

from .surgery import bodies, join

RULESET = "ruleset {game: text, version: text}"
SERVER = "server {vkey: text, origin: text}"
SEATS = "seats: an array of at least one {name: text, key: bytes(32)}"


def _set(path, value):
    def edit(b):
        *parents, last = path
        for p in parents:
            b = b[p]
        b[last] = value
    return edit


def _del(key):
    return lambda b: b.pop(key)


def _dup_seat(b):
    b["seats"][1]["name"] = b["seats"][0]["name"]


# the former assert -> (case, edit of the genesis body, the check's expected and found)
CASES = {
    # assert isinstance(rs["game"], str) and isinstance(rs["version"], str)
    "ruleset game not text": (_set(["ruleset", "game"], 1), RULESET, None),
    "ruleset version not text": (_set(["ruleset", "version"], b"1"), RULESET, None),
    "no ruleset": (_del("ruleset"), RULESET, None),  # a KeyError under the assert
    # assert isinstance(b["scenario"], str) and isinstance(b["options"], dict)
    "scenario not text": (_set(["scenario"], 7), "scenario text", 7),
    "options not a map": (_set(["options"], []), "options map of booleans, integers and texts", "[]"),
    # assert isinstance(server["vkey"], str) and isinstance(server["origin"], str)
    "server vkey not text": (_set(["server", "vkey"], b"key"), SERVER, None),
    "server origin not text": (_set(["server", "origin"], None), SERVER, None),
    # assert isinstance(b["secret_commit"], bytes) and len(b["secret_commit"]) == 32
    "secret_commit not bytes": (_set(["secret_commit"], "x" * 32), "secret_commit bytes(32)", "x" * 32),
    "secret_commit 31 bytes": (_set(["secret_commit"], bytes(31)), "secret_commit bytes(32)", bytes(31)),
    # assert isinstance(s["name"], str) and isinstance(s["key"], bytes) and len(s["key"]) == 32
    "seat name not text": (_set(["seats", 0, "name"], 0), SEATS, None),
    "seat key not bytes": (_set(["seats", 1, "key"], "k" * 32), SEATS, None),
    "seat key 31 bytes": (_set(["seats", 0, "key"], bytes(31)), SEATS, None),
    # assert s["name"] not in keys
    "two seats with one name": (_dup_seat, "unique seat names", None),
    # assert keys
    "no seat": (_set(["seats"], []), SEATS, "[]"),
}


def _forged(game, bundle: bytes, edit) -> bytes:
    """The dishonest server: genesis edited, every record re-chained and every checkpoint
    re-signed (for the origin the genesis had: the edit may have broken it)."""
    h, recs = bodies(bundle)
    origin = recs[0][3]["server"]["origin"]
    body = copy.deepcopy(recs[0][3])
    edit(body)
    recs[0] = (*recs[0][:3], body)
    tree, prev, frames = CompactTree(), ZERO_HASH, []
    for g, seq, kind, b in recs:
        r = make_record(g, seq, prev, kind, b)
        prev = r.hash
        tree.append(r.leaf)
        frames.append((r.raw, checkpoint_note(game.server, origin, tree.size, tree.root())))
    return join(h, frames)


@pytest.fixture(scope="module")
def forged(duel_game, duel_bundle) -> dict[str, bytes]:
    return {name: _forged(duel_game, duel_bundle, edit) for name, (edit, _, _) in CASES.items()}


@pytest.mark.parametrize("case", list(CASES))
def test_spec_10_b6_each_former_genesis_assert_is_a_numbered_step_4_failure(forged, case):
    _, expected, found = CASES[case]
    with pytest.raises(VerificationError) as ei:
        verify_bundle(io.BytesIO(forged[case]))
    e = ei.value
    assert (e.step, e.seq, e.check, e.expected) == ("4 (genesis)", 0, "genesis body has the wrong shape", expected), str(e)
    if found is not None:
        assert e.found == found, str(e)
    if case == "two seats with one name":
        assert e.found == "a"
    assert str(e).startswith(f"step 4 (genesis) failed at record 0: genesis body has the wrong shape (expected {expected}")


def test_the_unforged_bundle_verifies(duel_bundle):
    assert verify_bundle(io.BytesIO(duel_bundle)).verified


def test_spec_10_b6_the_genesis_checks_hold_under_python_O(forged, tmp_path):
    """The same verdicts from ``python -O`` (which drops every assert statement)."""
    for name, data in forged.items():
        (tmp_path / f"{len(name)}-{abs(hash(name))}.aar").write_bytes(data)
    files = sorted(str(p) for p in tmp_path.glob("*.aar"))
    script = (
        "import io, json, sys\n"
        "from afteraction.engine.errors import VerificationError\n"
        "from afteraction.engine.log.verify import verify_bundle\n"
        "assert False, 'asserts are on'\n"  # dropped by -O: proves the flag took effect
        "out = []\n"
        "for f in sys.argv[1:]:\n"
        "    try:\n"
        "        verify_bundle(open(f, 'rb')); out.append(None)\n"
        "    except VerificationError as e:\n"
        "        out.append([e.step, e.seq, e.check])\n"
        "print(json.dumps(out))\n")
    r = subprocess.run([sys.executable, "-O", "-c", script, *files], capture_output=True, text=True, cwd=REPO,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    verdicts = json.loads(r.stdout)
    assert len(verdicts) == len(CASES)
    assert all(v == ["4 (genesis)", 0, "genesis body has the wrong shape"] for v in verdicts), verdicts
