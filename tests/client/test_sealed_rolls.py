"""A die rolled for one seat's eyes only (ctx.roll(..., to=seat), SPEC.md 5.5) is a sealed value
whose opened value is the roll event: `aar explain --roll` finds it in its place in the index
order and derives it (the replay page's test is in test_view_browser.py). None of the golden logs has one, so a duel variant makes them (its ruleset is not
in the registry: the rules are not replayed, everything else is checked)."""
from __future__ import annotations

import json

import pytest

from afteraction.cli.main import main
from afteraction.engine.bots import random_bot
from afteraction.engine.games.duel.rules import DuelRuleset
from afteraction.engine.local import LocalGame


class SecretDieDuel(DuelRuleset):
    game = "duel-secret-die"
    # SPEC.md 6.5: the events for a now include the secret die {salt, value: roll event}, 109 bytes
    # padded at roll index 0 and at most 113 with a 32-bit index (duel's pick event is at most 77)
    sealed_sizes = {"command": DuelRuleset.sealed_sizes["command"], "event": {"a": 128}}

    def apply(self, s, seat, command, ctx, pending=None):
        s = super().apply(s, seat, command, ctx, pending)
        if command.duel.WhichOneof("action") == "pick":
            ctx.roll("d6", "TEST a's secret die", to="a")  # sealed to a, after the sealed pick event
        return s


def secret_die_log(path):
    g = LocalGame.create("duel", seed=b"tests/sealed-rolls", ruleset=SecretDieDuel())
    g.handshake()
    g.run_bots(random_bot(b"tests/sealed-rolls"))
    path.write_bytes(g.bundle())
    return path


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    return secret_die_log(tmp_path_factory.mktemp("sealed") / "secret-die.aar")


def test_explain_derives_a_sealed_roll(log, capsys):
    assert main(["explain", str(log), "--roll", "0", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    r = d["roll"]
    assert r["sealed"] and r["k"] == 2 and r["rule"] == "TEST a's secret die" and r["index"] == 0
    assert all(c["ok"] for c in r["checks"]) and r["derived"]["faces"] == r["logged"]["faces"]
    assert main(["explain", str(log), "--record", str(r["record"]), "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)["record"]
    assert [x["index"] for x in rec["rolls"]] == [0] and rec["rolls"][0]["sealed"]
    assert "replay not done" in " ".join(d["verification"]["notes"])
