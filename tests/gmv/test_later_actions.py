"""What later public actions say about an earlier hidden one (docs/rules/gmv.md "What the
opponent can see"). Two positions that differ only in where a hidden NVA unit stands; the same NVA
action brings it into a battle as support; then the same continuation by both seats (the US seat's
own support decision first, then a seeded walk through the commands both positions offer). After
every action the US seat and a spectator observe the same things (leakcheck.check_later)."""
from __future__ import annotations

import pytest

from afteraction.engine.ruleset import Context

from .leakcheck import check_later
from afteraction.engine.games.gmv import board

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


# --- a reveal where the unit stands (gmv/5 KEPT_REVEALS) -------------------------------------------

def _swapped(kinds=("inf", "inf"), side: str = "us", phase: int = 3, acted=(False, False), patrol: bool = True):
    """Two hidden NVA units whose ids were public when they infiltrated; in A the first stands in
    Pleiku and the second in Cambodia, in B the other way round (types and ``acted`` flags go with
    the place: what stands in Pleiku is the same in both). A US infantry unit in Pleiku patrols."""
    out = []
    for flip in (False, True):
        s = empty(side=side, phase=phase)
        if patrol:
            add(s, "inf", "us", "pleiku")
        ids = add(s, kinds[0], "nva", "pleiku", n=1, hidden=True) + add(s, kinds[1], "nva", "cambodia", n=1, hidden=True)
        for i, uid in enumerate(ids):
            s["units"][uid]["ref"] = [7, i]
            s["units"][uid]["acted"] = acted[i]
        if flip:
            a, b = (s["units"][x] for x in ids)
            for k in ("type", "acted"):
                a[k], b[k] = b[k], a[k]
            a["zone"], b["zone"] = "cambodia", "pleiku"
        out.append((s, ids[1] if flip else ids[0]))
    return out


def _patrol(s):
    return ("us", cmd("patrol", unit_ids=[board.units(s, "pleiku", "us")[0]["id"]]))


@pytest.mark.parametrize("seed", [1, 2])
def test_gmv_3_patrol_a_reveal_in_place_does_not_tell_which_infiltrated_unit_stood_there(seed):
    """The US saw u_a and u_b infiltrate; later one of them stands in Pleiku (A: u_a, B: u_b). A patrol
    there finds it. The rules reveal a unit of its type in Pleiku, not which infiltrated unit it is (so
    not where each went): gmv/2-4 opened its commitment, whose value names its hidden id, and the
    ``revealed`` event named that id too. From gmv/5 it takes a fresh id and the commitment is kept
    for the end of the game."""
    (s, x), (p, y) = _swapped()
    steps = [_patrol(s), ("nva", cmd("reveal", unit_ids=[x]))]
    steps_p = [_patrol(p), ("nva", cmd("reveal", unit_ids=[y]))]
    assert check_later(s, p, steps, walk=20, seed=seed, faces=[1, 1], then_p=steps_p) > len(steps)


def test_gmv_3_patrol_a_unit_revealed_in_place_does_not_show_whether_it_moved_hidden():
    """The unit found in Pleiku made the NVA's last hidden move (A: acted) or did not (B): the hidden
    order's footprint is one. The revealed unit in the view carried its ``acted`` flag."""
    out = []
    for acted in (True, False):
        (s, x), _ = _swapped(acted=(acted, False))
        out.append((s, x))
    (s, x), (p, y) = out
    steps = [_patrol(s), ("nva", cmd("reveal", unit_ids=[x]))]
    assert check_later(s, p, steps, walk=10, seed=1, faces=[1, 1]) > len(steps)


def test_gmv_2_bombing_a_hidden_unit_killed_in_place_does_not_tell_which_infiltrated_unit_it_was():
    """Blind bombing hits Pleiku; the NVA loses the hidden unit there (A: u_a, B: u_b): the kill opened
    its commitment naming its hidden id, and ``revealed``/``destroyed`` named it too."""
    (s, x), (p, y) = _swapped(phase=2, patrol=False)
    for q in (s, p):
        q["stack"].append({"seat": "nva", "kind": "bomb_casualties", "zone": "pleiku", "hits": 1})
    steps, steps_p = [("nva", cmd("casualties", unit_ids=[x]))], [("nva", cmd("casualties", unit_ids=[y]))]
    assert check_later(s, p, steps, walk=20, seed=1, then_p=steps_p) > len(steps)


def test_gmv_3_patrol_two_units_revealed_in_place_come_out_in_an_order_that_tells_nothing():
    """Two hidden units in Pleiku, infantry and artillery; which of the two infiltrated ids is the
    infantry differs (A: the first, B: the second). A patrol reveals both: gmv/2-4 revealed them in id
    order, so the order of the ``revealed`` events (infantry first or artillery first) told it."""
    out = []
    for kinds in (("inf", "art"), ("art", "inf")):
        s = empty(side="us", phase=3)
        add(s, "inf", "us", "pleiku")
        ids = add(s, kinds[0], "nva", "pleiku", hidden=True) + add(s, kinds[1], "nva", "pleiku", hidden=True)
        for i, uid in enumerate(ids):
            s["units"][uid]["ref"] = [7, i]
        s["stack"].append({"seat": "nva", "kind": "reveal", "zone": "pleiku", "n": 2})
        out.append((s, ids))
    (s, ids), (p, _) = out
    assert check_later(s, p, [("nva", cmd("reveal", unit_ids=ids))], walk=10, seed=1) > 1


def test_gmv_3_hot_lz_fire_reveals_in_place_without_the_infiltrated_id():
    """An airlift lands in Pleiku, where the hidden infantry unit is u_a (A) or u_b (B); it fires."""
    out = []
    for (s, x) in _swapped(patrol=False):
        (h,) = add(s, "heli", "us", "pleiku")
        (c,) = add(s, "inf", "us", "pleiku")
        s["stack"].append({"seat": "nva", "kind": "hot_lz", "zone": "pleiku", "base": "pleiku", "stay": True,
                           "loads": [{"heli": h, "cargo": [c]}]})
        out.append((s, x))
    (s, x), (p, y) = out
    steps, steps_p = [("nva", cmd("hot_lz", unit_ids=[x]))], [("nva", cmd("hot_lz", unit_ids=[y]))]
    assert check_later(s, p, steps, walk=20, seed=1, faces=[2], then_p=steps_p) > len(steps)


def test_gmv_3_gmv_4_games_open_the_commitment_of_a_unit_revealed_in_place():
    """gmv/4 plays as it always did (its golden log replays byte for byte): a patrol's reveal opens the
    unit's commitment and keeps its id."""
    from afteraction.engine.versions import KEY

    from .util import events, play
    (s, x), _ = _swapped()
    s[KEY] = "4"
    s, _ = play(s, "us", _patrol(s)[1], faces=[1, 1])
    s, ctx = play(s, "nva", cmd("reveal", unit_ids=[x]))
    assert [e["ref"] for e in events(ctx, "open")] == [[7, 0]] and [e["id"] for e in events(ctx, "revealed")] == [x]
    assert not s["kept"]
