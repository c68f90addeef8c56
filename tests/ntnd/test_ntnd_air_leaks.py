"""No leak in the air war (11, 12): air missions against inverted stacks. Three positions that differ
only in what the marker at 1913 holds (AA units: a SAM and an artillery group; a VC regiment; a dummy)
give the Allied seat and a spectator the same views, decisions, legal commands, rejections and public
events, and the same number of sealed events to the same seats, until the rules reveal something
(a bombing hit destroys a unit the Communist player names: 11.1.1.2; losses of air units, 12.1.1)."""
from __future__ import annotations

import pytest

from afteraction.engine.games.ntnd.sequence.kinds import cmd
from afteraction.engine.games.ntnd.forces.operations import make_marker
from afteraction.engine.ruleset import Context

from .airplay import RS, air_camp, at_phase, commie, fly_cmd
from .leakcheck import canon, check_allied_commands, check_views, owner_footprint

CONTENTS = {"aa": ("nva_sam", "nva_artillery"), "regiment": ("vc_regiment",), "dummy": ("communist_dummy",)}
MISSIONS = [("bomb", ["us-ftr-1", "us-ftr-2"]), ("support", ["us-ftr-1", "us-heli-1"])]


def _position(content: str) -> dict:
    s = air_camp(1)
    uids = [commie(s, t, "1913") for t in CONTENTS[content]]
    make_marker(s, uids, "1913", Context.for_tests(), "test")
    at_phase(s, "a_air")
    return s


def _play(s: dict, seat: str, c, faces):
    ctx = Context.for_tests(faces=faces)
    n = RS.apply(RS.copy_state(s), seat, c, ctx)
    return n


def _aa_answer(s: dict):
    """The Communist seat's answer: every hidden AA unit fires (none where the stack has none)."""
    from afteraction.engine.games.ntnd.air import pieces as air, antiaircraft
    return cmd("aa_fire", units=antiaircraft.hidden_aa(s, air.st(s)["pending"]))


@pytest.mark.parametrize("mission,units", MISSIONS)
def test_ntnd_12_1_air_missions_over_an_inverted_stack_leak_nothing_of_its_contents(mission, units):
    ps = {k: _position(k) for k in CONTENTS}
    base = ps["aa"]
    for k, p in ps.items():
        check_views(base, p)
        check_allied_commands(base, p, limit=12)
    # the Allied mission: the same public events everywhere (the face-up AA is none: all is hidden)
    fp = {k: owner_footprint(p, fly_cmd(mission, "1913", units), "allied") for k, p in ps.items()}
    assert fp["aa"][0] == "accepted"
    assert len({canon(v) for v in fp.values()}) == 1
    after = {k: _play(p, "allied", fly_cmd(mission, "1913", units), None) for k, p in ps.items()}
    for k, p in after.items():
        assert p["decision"]["kind"] == "aa_fire" and p["decision"]["seat"] == "communist"
        check_views(after["aa"], p)
    # the owner's sealed answer: its AA units fire (dice that miss); the same footprint
    faces = [1] * 8
    fp = {k: owner_footprint(p, _aa_answer(p), "communist", faces) for k, p in after.items()}
    assert fp["aa"][0] == "accepted"
    assert fp["aa"][2] == fp["dummy"][2] == fp["regiment"][2] and len(fp["aa"][2]) >= 4   # sealed dice, one shape
    assert len({canon(v) for v in fp.values()}) == 1


def test_ntnd_11_1_1_2_a_bombing_hit_on_an_inverted_stack_asks_its_owner_the_same_way():
    ps = {k: _position(k) for k in CONTENTS}
    after = {k: _play(p, "allied", fly_cmd("bomb", "1913", ["us-ftr-1", "us-ftr-2"]), None) for k, p in ps.items()}
    faces = [1, 1, 1, 1, 6]                                        # the AA misses, the bombing die hits
    hit = {k: _play(p, "communist", _aa_answer(p), faces) for k, p in after.items()}
    for k, p in hit.items():
        assert p["decision"]["kind"] == "air_losses"
        check_views(hit["aa"], p)
        check_allied_commands(hit["aa"], p, limit=4)


def test_ntnd_12_1_1_only_the_losses_are_public_when_hidden_aa_hits():
    s = _position("aa")
    s = _play(s, "allied", fly_cmd("bomb", "1913", ["us-ftr-2", "us-ftr-1"]), None)
    ctx = Context.for_tests(faces=[4, 4, 1, 1, 1])                 # 4s: the SAM hits, the artillery misses
    RS.apply(s, "communist", _aa_answer(s), ctx)
    public = [e for e, to in ctx.events if to is None]
    (f,) = [e for e in public if e["t"] == "aa-fire"]
    assert f == {"t": "aa-fire", "rule": "NTND 12.1.1", "target": "1913", "hidden": True, "shot_down": ["us-ftr-2"]}
    assert all("nva_sam" not in canon(e) for e in public)
