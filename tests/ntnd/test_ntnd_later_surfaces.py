"""The surfaces not yet paired, as later-action pairs (docs/rules/ntnd.md "What the
opponent can see"). A campaign position entered at the phase of the surface (the game's own
``flow.enter``/``flow.advance``, campaign_states.at_phase) and the same position with the markers'
contents rotated among the markers (leakcheck.perturb: the same public facts), then a seeded walk of
both seats through the commands both offer: after every action the Allied seat and a spectator
observe the same things (leakcheck.check_walk), up to the first reveal. Surfaces: 4.1 recruitment
with Communist aid (27) and, from 1967, the National Uprising question (26); 7 Hearts and Minds
(expenditure from markers); 6 Operations (promotion, break-down, VC bases 28.9); 8.8.2 the Communist
reaction to Allied moves; 11-12 air operations over inverted stacks and their anti-aircraft fire;
21 random events. Then pairs of hidden choices: a VC base built (28.9.3) from a marker holding a
dummy or a regiment beside its two supply units, and an upgrade (28.9.7) naming one or another of
two alike regiments (ntnd/6, 6.2)."""
from __future__ import annotations

import pytest

from afteraction.engine.games.ntnd.rules import cmd

from .campaign_states import at_phase, camp
from .leakcheck import RS, applied, check_walk, owner_footprint, perturb
from .test_ntnd_hearts import first, hide

SURFACES = {   # phase -> (scenario, turn): a turn whose features are in force
    "c_recruit": ("campaign", 14),     # aid (27) and the uprising question (26.1, from January 1967)
    "c_hearts": ("campaign_short", 2),
    "c_ops": ("campaign_short", 2),
    "c_reaction": ("campaign_short", 1),
    "a_air": ("campaign_short", 2),
    "a_random": ("campaign_short", 2),
}


#: the walk's seeds: the Allied air phase and the Communist reaction mostly end at the first action in a
#: reveal (a mission's sealed anti-aircraft dice are opened, 12.1; a reaction's "done" leads to the
#: combat phase's flips, 19.1.2), which ends the comparison; seed 5 makes a move or a mission first
#: (2 and 1 actions compared)
SEEDS = [(phase, seed) for phase in sorted(SURFACES)
         for seed in ([5] if phase in ("a_air", "c_reaction") else [1, 2])]


@pytest.mark.parametrize("phase, seed", SEEDS)
def test_ntnd_later_actions_through_each_surface_do_not_tell_the_markers_contents(phase, seed):
    scenario, turn = SURFACES[phase]
    s = camp(scenario, turn)
    at_phase(s, phase, faces=[6, 1, 4, 2, 5, 3] * 4)
    p = perturb(s, shift=seed)
    assert p is not None
    assert check_walk(s, p, walk=25, seed=seed) >= 1


def _base_pair():
    out = []
    for extra in ("communist_dummy", "vc_regiment"):
        s = camp()
        a, b = first(s, "communist_supply"), first(s, "communist_supply", 1)
        hide(s, [a, b, first(s, "vc_cadre"), first(s, extra)], "1523")
        out.append((s, a, b))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_ntnd_28_9_3_a_base_built_from_a_marker_then_later_actions_do_not_tell_what_else_it_held(seed):
    from .mapplay import at
    (s1, a, b), (s2, _, _) = _base_pair()
    s1, s2 = at(s1, "c_ops"), at(s2, "c_ops")
    c = cmd("build_base", location="1523", supplies=sorted([a, b]))
    f1, f2 = owner_footprint(s1, c), owner_footprint(s2, c)
    assert f1[0] == "accepted" and f1[1:] == f2[1:]
    assert check_walk(applied(s1, "communist", c), applied(s2, "communist", c), walk=25, seed=seed) >= 1


def test_ntnd_6_2_and_28_9_7_an_upgrade_naming_one_of_two_alike_regiments_leaves_one_state():
    from .mapplay import at
    s = camp()
    s["units"][first(s, "vc_base")].update(status="map", loc="1523")
    r1, r2 = first(s, "vc_regiment"), first(s, "vc_regiment", 1)
    cad, sup = first(s, "vc_cadre"), first(s, "communist_supply")
    hide(s, [r1, r2, cad, sup], "1523")
    s = at(s, "c_ops")
    x = applied(s, "communist", cmd("upgrade", regiment=r1, cadre=cad, supply=sup))
    y = applied(s, "communist", cmd("upgrade", regiment=r2, cadre=cad, supply=sup))
    assert RS.digest(x) == RS.digest(y)
