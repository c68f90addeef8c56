"""The golden-log recorder (fixtures/make_golden.py) for the NTND short campaign: the entry exists, its
game is played by the demo bots to the end, verifies with replay and is the same bytes every time
(so the lead's recording, `make_golden.py --only ntnd-campaign-short`, is reproducible). The log itself
is recorded only once the political war's rules are merged (fixtures/golden/README.md lists it then,
and tests/verify/test_golden_logs.py checks it from that day on)."""
from __future__ import annotations

import importlib.util
import io
import sys

import pytest

from afteraction.engine.log.bundle import read_bundle
from afteraction.engine.log.verify import verify_bundle
from afteraction.engine.protocol import parse_record

from conftest import REPO


def _recorder():
    spec = importlib.util.spec_from_file_location("make_golden", REPO / "fixtures" / "make_golden.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_golden", mod)     # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_the_recorder_plays_a_short_campaign_golden_game_reproducibly():
    mg = _recorder()
    g = next(x for x in mg.GAMES if x.name == "ntnd-campaign-short")
    assert (g.game, g.scenario) == ("ntnd", "campaign_short")
    data = mg.play(g)
    rep = verify_bundle(io.BytesIO(data))
    assert rep.verified and rep.replayed and rep.ended and rep.sealed > 0
    _, frames = read_bundle(io.BytesIO(data))
    genesis = parse_record(next(iter(frames))[0])
    assert genesis.body["scenario"] == "campaign_short"
    assert mg.play(g) == data                      # a regeneration on an unchanged engine: the same bytes


def test_the_recorder_refuses_an_unknown_only():
    with pytest.raises(SystemExit):
        _recorder().main(["--only", "no-such-log"])
