"""The golden logs (fixtures/golden/, see its README.md): whole bot-played games of every released
ruleset version, committed. They must verify forever, and today's referee, fed their signed
envelopes, must reproduce every record byte for byte under the version each names: the proof that
a change to the engine changed no rule of any released version (engine/versions.py).

These tests read the committed bytes; they never regenerate the logs to compare."""
from __future__ import annotations

import io
import re

import pytest

from afteraction.engine import registry
from afteraction.engine.crypto import commit as _commit
from afteraction.engine.log.bundle import read_bundle
from afteraction.engine.protocol import parse_record
from afteraction.engine.log.verify import verify_bundle
from afteraction.engine.referee import Referee
from afteraction.v1 import envelope_pb2

from conftest import REPO

GOLDEN = REPO / "fixtures" / "golden"
_ROW = re.compile(r"^\| `([^`]+\.aar)` \| (\w+) \| (\w+)/(\d+) \| (\w+) \| `[^`]+` \| (\d+) \| (\d+) \| (\d+) \| ")


def _rows() -> dict[str, tuple[str, str, int, int, int, str]]:
    out = {}
    for line in (GOLDEN / "README.md").read_text().splitlines():
        m = _ROW.match(line)
        if m:
            name, game, game2, version, scenario, v, records, commands = m.groups()
            assert game2 == game, line
            out[name] = (game, scenario, int(v), int(records), int(commands), version)
    return out


ROWS = _rows()


def test_readme_lists_every_golden_log_and_each_released_version_has_one():
    """Every (game, version) the registry lists has a golden log, and no golden log plays a version
    the registry dropped: a released version is never retired."""
    assert set(ROWS) == {p.name for p in GOLDEN.glob("*.aar")}
    assert {(r[0], r[5]) for r in ROWS.values()} == set(registry.available())


@pytest.mark.parametrize("name", sorted(ROWS))
def test_golden_log_verifies_with_replay(name):
    game, scenario, v, records, _, version = ROWS[name]
    rep = verify_bundle(io.BytesIO((GOLDEN / name).read_bytes()))
    assert rep.verified and rep.ended and rep.replayed
    assert rep.ruleset == f"{game}/{version}" and rep.records == records


@pytest.mark.parametrize("name", sorted(ROWS))
def test_golden_log_commands_reproduce_every_record_byte_for_byte(name):
    """Feed the logged envelopes (sealed ones opened with the revealed secret) to a fresh referee."""
    game, scenario, v, records, commands, version = ROWS[name]
    header, frames = read_bundle(io.BytesIO((GOLDEN / name).read_bytes()))
    recs = [parse_record(raw) for raw, _ in frames]
    genesis = recs[0]
    assert genesis.v == v and genesis.body["scenario"] == scenario
    assert genesis.body["ruleset"] == {"game": game, "version": version}
    rs = registry.get(game, version)
    assert rs.version == version
    secret = header["secret"]
    ref = Referee(genesis, rs, secret)
    key = _commit.seal_key(secret, genesis.game)
    produced = [genesis.raw]
    fed = 0
    for r in recs[1:]:
        if r.kind == "end":
            continue  # the referee writes it after the command that ended the game
        if "sealed" in r.body:
            s = r.body["sealed"]
            size = len(s["ct"]) - 16 if genesis.v >= 2 else None  # padded (SPEC.md 6.5); checked by verify
            value = _commit.unseal(key, r.game, r.seq, 0, s["commit"], s["ct"], size).value
            env, sig = value["env"], value["sig"]
        else:
            env, sig = r.body["env"], r.body["sig"]
        acc = ref.accept(envelope_pb2.SignedCommand(envelope=env, signature=sig).SerializeToString())
        produced += [x.raw for x in acc.records]
        fed += r.kind == "command"
    assert fed == commands
    assert len(produced) == len(recs) == records
    for a, b in zip(produced, recs):
        assert a == b.raw, f"record {b.seq} ({b.kind}) differs from the golden log"
