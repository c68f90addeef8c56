"""As a property: for the NVA's actions on the hidden board (an attack by hidden units, a
call for hidden support, the turn's hidden-move order), two positions that differ only in hidden
content, or two choices of the hidden-move order, give the same public footprint
(leakcheck.check_owner_action: public events with what each opening publishes, sealed events by
recipient and count, the US and spectator views, the public decision and the US legal commands)."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from afteraction.engine.games.gmv import combat
from afteraction.engine.games.gmv.zones import land_adj
from afteraction.engine.ruleset import Context
from afteraction.v1 import gmv_pb2

from .leakcheck import check_owner_action
from .util import add, cmd, empty

NEAR = land_adj("pleiku")
units = st.lists(st.tuples(st.sampled_from(["inf", "vc", "art"]), st.integers(0, len(NEAR) - 1),
                           st.integers(1, len(NEAR) - 1)), min_size=1, max_size=4)


def _position(spec, shifted: bool, side: str, phase: int = 3):
    s = empty(side=side, phase=phase)
    add(s, "inf", "us", "pleiku")
    ids = []
    for i, (t, z, k) in enumerate(spec):
        (u,) = add(s, t, "nva", NEAR[(z + (k if shifted else 0)) % len(NEAR)], hidden=True)
        s["units"][u]["ref"] = [9, i]
        ids.append(u)
    return s, ids


@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(spec=units, action=st.sampled_from(["attack", "support"]))
def test_gmv_owner_actions_leave_one_footprint_whatever_is_hidden(spec, action):
    s, ids = _position(spec, False, "nva" if action == "attack" else "us")
    p, _ = _position(spec, True, "nva" if action == "attack" else "us")
    if action == "attack":
        check_owner_action(s, p, [cmd("attack", unit_ids=ids, zone="pleiku")])
        return
    inf = [u for u in ids if s["units"][u]["type"] != "art"]  # artillery fires from its zone, shown there
    if not inf:
        return
    for x in (s, p):
        add(x, "inf", "nva", "pleiku")
        combat.start(x, "pleiku", "us", Context.for_tests(), "attack")
        x["battle"]["ask"] = "nva"
    check_owner_action(s, p, [cmd("support", unit_ids=inf)])


@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(spec=units, moves=st.lists(st.integers(0, 3), max_size=4))
def test_gmv_the_hidden_move_order_leaves_one_footprint_however_many_units_move(spec, moves):
    s, ids = _position(spec, False, "nva", phase=4)
    c = cmd("hidden_move")
    for u, k in zip(ids, moves):
        z = s["units"][u]["zone"]
        c.gmv.hidden_move.groups.append(gmv_pb2.GmvHiddenGroup(unit_ids=[u], to_zone=land_adj(z)[k % len(land_adj(z))]))
    check_owner_action(s, s, [c], q=[cmd("hidden_move")])
