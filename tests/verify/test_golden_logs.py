"""The golden logs (fixtures/golden/, see its README.md): one whole bot-played game of each
ruleset, committed. They must verify forever, and today's referee, fed their signed envelopes,
must reproduce every record byte for byte: the proof that a change to the engine changed no rule.

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
_ROW = re.compile(r"^\| `([^`]+\.aar)` \| (\w+) \| (\w+) \| `[^`]+` \| (\d+) \| (\d+) \| (\d+) \| ")


def _rows() -> dict[str, tuple[str, str, int, int, int]]:
    out = {}
    for line in (GOLDEN / "README.md").read_text().splitlines():
        m = _ROW.match(line)
        if m:
            name, game, scenario, v, records, commands = m.groups()
            out[name] = (game, scenario, int(v), int(records), int(commands))
    return out


ROWS = _rows()


def test_readme_lists_every_golden_log_and_each_ruleset_has_one():
    assert set(ROWS) == {p.name for p in GOLDEN.glob("*.aar")}
    assert {r[0] for r in ROWS.values()} == {g for g, _ in registry.available()}


@pytest.mark.parametrize("name", sorted(ROWS))
def test_golden_log_verifies_with_replay(name):
    game, scenario, v, records, _ = ROWS[name]
    rep = verify_bundle(io.BytesIO((GOLDEN / name).read_bytes()))
    assert rep.verified and rep.ended and rep.replayed
    assert rep.ruleset.split("/")[0] == game and rep.records == records


@pytest.mark.parametrize("name", sorted(ROWS))
def test_golden_log_commands_reproduce_every_record_byte_for_byte(name):
    """Feed the logged envelopes (sealed ones opened with the revealed secret) to a fresh referee."""
    game, scenario, v, records, commands = ROWS[name]
    header, frames = read_bundle(io.BytesIO((GOLDEN / name).read_bytes()))
    recs = [parse_record(raw) for raw, _ in frames]
    genesis = recs[0]
    assert genesis.v == v and genesis.body["scenario"] == scenario
    rs = registry.get(genesis.body["ruleset"]["game"], genesis.body["ruleset"]["version"])
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
