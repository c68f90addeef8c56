"""What later public actions say about an earlier hidden one (docs/rules/gmv.md "What the
opponent can see"). Two positions that differ only in where a hidden NVA unit stands; the same NVA
action brings it into a battle as support; then the same continuation by both seats (the US seat's
own support decision first, then a seeded walk through the commands both positions offer). After
every action the US seat and a spectator observe the same things (leakcheck.check_later)."""
from __future__ import annotations

import pytest

from afteraction.engine.ruleset import Context

from .leakcheck import check_later
from .util import RS, add, cmd, empty


def _support_pair():
    """Pair 4: exposed NVA infantry in Pleiku attacks the US infantry in Ban Me Thuot; the NVA calls
    a hidden infantry unit as support from Ia Drang (A) or Phu Yen (B), both adjacent to the battle."""
    out = []
    for origin in ("ia_drang", "phu_yen"):
        s = empty(side="nva", phase=3)
        add(s, "inf", "us", "ban_me_thuot")
        (att,) = add(s, "inf", "nva", "pleiku")
        (h,) = add(s, "inf", "nva", origin, hidden=True)
        s["units"][h]["ref"] = [7, 0]
        out.append((s, att, h))
    return out


def _into_battle():
    (s, att, h), (p, _, _) = _support_pair()
    steps = [("nva", cmd("attack", unit_ids=[att], zone="ban_me_thuot")), ("nva", cmd("support", unit_ids=[h]))]
    return s, p, steps


def test_gmv_the_us_seat_deciding_its_support_does_not_see_where_hidden_support_came_from():
    """The issue's pair: the view the US seat (and a spectator) gets while it decides its own support
    held ``battle.sup[i].from``, the zone the hidden unit stood in. The NVA seat still sees it."""
    s, p, steps = _into_battle()
    for seat, c in steps:
        s = RS.apply(RS.copy_state(s), seat, c, Context.for_tests())
        p = RS.apply(RS.copy_state(p), seat, c, Context.for_tests())
    assert RS.pending(s).seat == "us" and RS.pending(s).kind == "support"
    assert RS.view(s, "us") == RS.view(p, "us") and RS.view(s, None) == RS.view(p, None)
    assert [e.get("from") for e in RS.view(s, "nva")["battle"]["sup"]] == ["ia_drang"]
    assert [e.get("from") for e in RS.view(p, "nva")["battle"]["sup"]] == ["phu_yen"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_gmv_later_public_actions_do_not_tell_where_hidden_support_came_from(seed):
    s, p, steps = _into_battle()
    assert check_later(s, p, steps, walk=30, seed=seed) > len(steps)


def test_gmv_a_reveal_does_not_tell_which_infiltrated_unit_it_is():
    """Two hidden infantry units, u46 (in Pleiku) and u47 (in Cambodia), both next to Ban Me Thuot;
    their ids were public when they infiltrated. The NVA attacks Ban Me Thuot with one of them: the
    one in Pleiku (A) or the one in Cambodia (B), a hidden choice. The rules reveal the attacker in
    the zone attacked, not where it stood; its id, which the attack publishes, tells which of the
    infiltrated units it is."""
    from .leakcheck import check_owner_action
    s = empty(side="nva", phase=3)
    add(s, "inf", "us", "ban_me_thuot")
    (a,) = add(s, "inf", "nva", "pleiku", hidden=True)
    (b,) = add(s, "inf", "nva", "cambodia", hidden=True)
    check_owner_action(s, s, [cmd("attack", unit_ids=[a], zone="ban_me_thuot")],
                       q=[cmd("attack", unit_ids=[b], zone="ban_me_thuot")])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_gmv_the_set_up_with_other_hidden_units_walks_the_same_in_public(seed):
    """The 1965 set-up and the same set-up with every hidden unit elsewhere and of another type, the
    NVA's money and pool other (leakcheck.perturb: the same public facts), then a seeded walk of 60
    actions by both seats through the commands both offer (not those naming a hidden unit, which
    stands elsewhere in the other): the same public footprint after each, up to the first reveal."""
    from .leakcheck import check_later, perturb
    s = RS.setup("1965", dict(RS.options), Context.for_tests())
    p = perturb(s)
    assert check_later(s, p, [], walk=60, seed=seed) >= 10


# --- which of alike hidden units the NVA names (gmv/4 ALIKE_CHOICE) -------------

def _two_alike(zone: str = "pleiku", side: str = "nva", phase: int = 3):
    s = empty(side=side, phase=phase)
    add(s, "inf", "us", "ban_me_thuot")
    ids = add(s, "inf", "nva", zone, n=2, hidden=True)
    for i, u in enumerate(ids):
        s["units"][u]["ref"] = [7, i]
    return s, ids


def _same_after(s, x, y, seat="nva", walk=20, seed=1):
    from .util import play
    (a, _), (b, _) = play(s, seat, x), play(s, seat, y)
    assert RS.digest(a) == RS.digest(b)            # one state: nothing later can tell them apart
    return check_later(a, b, [], walk=walk, seed=seed)


def test_gmv_3_patrol_which_of_two_alike_hidden_units_the_nva_reveals_leaves_one_state():
    """A US patrol finds one of two hidden infantry units in Pleiku (the d3 says 1): the NVA reveals
    one or the other; from gmv/4 the first is revealed whichever is named (its opened commitment
    names it), so neither the reveal nor a later one tells the NVA's choice."""
    s, (a, b) = _two_alike(side="us")
    s["stack"].append({"seat": "nva", "kind": "reveal", "zone": "pleiku", "n": 1})
    assert RS.pending(s).kind == "reveal"
    _same_after(s, cmd("reveal", unit_ids=[a]), cmd("reveal", unit_ids=[b]))


def test_gmv_2_bombing_casualties_among_alike_hidden_units_leave_one_state():
    """Blind bombing hits one unit in Pleiku, where two hidden infantry units stand: the NVA loses one
    or the other; from gmv/4 the first is destroyed whichever is named."""
    s, (a, b) = _two_alike(side="us", phase=2)
    s["stack"].append({"seat": "nva", "kind": "bomb_casualties", "zone": "pleiku", "hits": 1})
    assert RS.pending(s).kind == "bomb_casualties"
    _same_after(s, cmd("casualties", unit_ids=[a]), cmd("casualties", unit_ids=[b]))


def test_gmv_3_an_attack_by_one_of_two_alike_hidden_units_leaves_one_state():
    """Two hidden infantry units in Pleiku; the NVA attacks Ban Me Thuot with one or the other: from
    gmv/4 the first attacks (under a fresh id) whichever is named, so the one left hidden is the same
    unit too and a later patrol reveal's opened commitment names the same id."""
    s, (a, b) = _two_alike()
    _same_after(s, cmd("attack", unit_ids=[a], zone="ban_me_thuot"), cmd("attack", unit_ids=[b], zone="ban_me_thuot"))


def test_gmv_3_gmv_3_games_take_the_alike_unit_named():
    """gmv/3 plays as it always did (its golden log replays byte for byte): the unit named is revealed."""
    from afteraction.engine.versions import KEY

    from .util import events, play
    s, (a, b) = _two_alike(side="us")
    s[KEY] = "3"
    s["stack"].append({"seat": "nva", "kind": "reveal", "zone": "pleiku", "n": 1})
    _, ctx = play(s, "nva", cmd("reveal", unit_ids=[b]))
    assert [e["id"] for e in events(ctx, "revealed")] == [b]
