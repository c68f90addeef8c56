"""As a property: for every Communist action on inverted units (promotion, break-down, a
marker's move, the supply an NVA attack spends), two positions that differ only in what the markers
hold give the same public footprint (leakcheck.check_owner_action / check_owner_sequence: public
events, sealed events by recipient and count, the Allied and spectator views, the public decision
and the Allied legal commands, before and after)."""
from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from afteraction.engine.games.ntnd.movement import ground as movement, reach as paths_reach
from afteraction.engine.games.ntnd.movement import stacking
from afteraction.engine.games.ntnd.movement.paths import walk_ok
from afteraction.engine.games.ntnd.rules import cmd

from .leakcheck import check_owner_action, check_owner_sequence, owner_footprint
from .mapplay import at, blank, put
from .test_ntnd_owner_leaks import _attack_commands, _marker

EXTRAS = ["communist-dummy-1", "communist-dummy-2", "communist-dummy-3", "sup-353", "vc-cadre-2"]
extras = st.lists(st.sampled_from(EXTRAS), unique=True, max_size=3)


def _pair(lead: list[str], a: list[str], b: list[str], loc: str, phase: str, face_up: dict[str, str]):
    out = []
    for inside in (a, b):
        s = blank()
        for u, h in face_up.items():
            put(s, u, h)
        mid = _marker(s, lead + inside, loc)
        # a legal position: no hex over-stacked (8.10), as leakcheck.perturb keeps it
        assume(stacking.stacking_problem(s, "communist", loc, []) is None)
        out.append(at(s, phase))
    return out, mid


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(action=st.sampled_from(["promote", "break_down", "move", "supply"]), a=extras, b=extras,
       dest=st.integers(0, 40))
def test_ntnd_owner_actions_leave_one_footprint_whatever_the_markers_hold(action, a, b, dest):
    assume(a != b)
    if action == "promote":
        (s, p), _ = _pair(["vc-cadre-1"], a, b, "1812", "c_ops", {"sup-ashau": "1812"})
        c = cmd("promote", piece="vc-cadre-1", supply="sup-ashau", to="regiment")
    elif action == "break_down":
        (s, p), _ = _pair(["nva-320"], a, b, "1812", "c_ops", {})
        c = cmd("break_down", piece="nva-320")
    elif action == "move":
        (s, p), mid = _pair([], a or ["communist-dummy-4"], b or ["communist-dummy-4"], "1813", "c_move", {"vc-dak-to": "1812"})
        reach_s = paths_reach.reachable(s, mid)
        env = movement.Env(p)
        reach_p = paths_reach.reachable(p, mid, env)
        common = sorted(set(reach_s) & set(reach_p))
        assume(common)
        d = common[dest % len(common)]
        path = reach_s[d]
        assume(path == reach_p[d] or walk_ok(env, movement.mover(p, mid), path))  # legal for both contents
        check_owner_action(s, p, cmd("move", piece=mid, path=path))  # must be accepted on both
        return
    else:
        (s, p), _ = _pair([], ["sup-353"] + [x for x in a if x != "sup-353"],
                          ["communist-dummy-4"] + [x for x in b if x != "sup-353"], "1815", "c_move",
                          {"us-1-4": "1714", "nva-304": "1814", "sup-ashau": "1914"})
        check_owner_sequence(s, p, _attack_commands(s), faces=[3, 3])
        return
    # a promotion or break-down the limits refuse for one content (8.10 with the new units) is refused
    # to the owner alone (sealed); the footprint compared is that of an accepted one
    assume(owner_footprint(s, c)[0] == owner_footprint(p, c)[0] == "accepted")
    check_owner_action(s, p, c)
