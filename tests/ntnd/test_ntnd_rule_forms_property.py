"""Rule functions rewritten to do less per call (recruitment.purchase_options with
``only``: the other types left out before the sort; battles._fighting_units: the units picked, then
sorted; battles.attack_options: _may_attack's first test inline; placement.cadre_hexes: the map's
part found once; combat.SideTotal.total: kept once computed; views.decision_data, the pending
decision's data in one pass; supply.out_of_supply, one trace per kind of Communist unit and hex, with
_communist_supply_facts and the Allied trace's blocked hexes from one movement.Env pass; sea.sea_reach, the
flood of a Communist supply unit memoised; recruitment.purchase_locations from one movement.Env) give
what their former forms gave (kept here), on every position of seeded random-bot games: Tet (random
bots) and the short campaign (campaign bots, which buy replacements); and the attack options flow hands start_battle, and the retreat destinations
aftermath.next_decision asks, are the ones of the state they are used in."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from afteraction.engine.games.ntnd.combat import aftermath, battles
from afteraction.engine.games.ntnd.forces import placement, recruitment
from afteraction.engine.games.ntnd.movement import sea
from afteraction.engine.games.ntnd.supply import lines as supply
from afteraction.engine.games.ntnd.presentation import views
from afteraction.engine.games.ntnd.combat import resolution as cb
from afteraction.engine.games.ntnd.components.map import load_map
from afteraction.engine.games.ntnd.movement.ground import Env, mover
from afteraction.engine.games.ntnd.movement.stacking import stacking_problem
from afteraction.engine.games.ntnd.movement.zones import enemy_locs, zoc_hexes, zoi_hexes
from afteraction.engine.games.ntnd.movement.hexes import nbrs, path_to
from afteraction.engine.games.ntnd.components.state import ALLIED, COMMUNIST
from afteraction.engine.games.ntnd.components.pieces import counter_order, load_counters

from .botgames import positions


def _former_purchase_options(s, only):
    """purchase_options as it was (every unit sorted, the other types skipped in the loop)."""
    counters = load_counters()
    out, seen_types = [], set()
    if only not in s["units"]:
        return out
    typ = s["units"][only]["type"]
    for uid in sorted(s["units"], key=lambda x: (s["units"][x]["status"] != "mix", counter_order(x))):
        u = s["units"][uid]
        if u["type"] != typ:
            continue
        if u["side"] != ALLIED or u["status"] not in ("dead", "mix") or u["type"] in recruitment.SPECIAL_PURCHASE \
                or recruitment.special_units.is_special(s, uid):
            continue
        t = counters.type(u["type"])
        if recruitment._payer(s, t.nationality, recruitment.vietnamization.half_cost(s, u["type"])) is None:
            continue
        if t.nationality == "US" and u["status"] == "dead" and recruitment.in_force(s, "elections") \
                and recruitment.peace_party(s):
            continue
        if t.stacking_class in recruitment.IMMEDIATE:
            if u["type"] in seen_types:
                continue
            seen_types.add(u["type"])
            if uid == only:
                out += [(uid, h) for h in recruitment.purchase_locations(s, u)]
        elif u["status"] == "dead" and uid == only:
            out.append((uid, ""))
    return sorted(out)


def _former_purchase_locations(s, u):
    """purchase_locations as it was (the enemy's hexes and each candidate's 8.10.1 check from passes
    over the units of their own)."""
    m, counters = load_map(), load_counters()
    t = counters.type(u["type"])
    out = set()
    for x in s["units"].values():
        if x["status"] != "map" or x["side"] != ALLIED or m.is_zone(x["loc"]):
            continue
        xt = counters.type(x["type"])
        if t.stacking_class == "militia":
            if t.nationality == "ARVN" and xt.nationality == "ARVN" and m.hex(x["loc"]).town \
                    and m.hex(x["loc"]).country == "SV":
                out.add(x["loc"])
        elif t.stacking_class == "firebase":
            nats = ("ROK", "ANZAC", "THAI") if t.nationality == "SEATO" else (t.nationality,)
            if xt.is_ground_combat and xt.stacking_class == "ground_combat" and xt.nationality in nats:
                out.add(x["loc"])
    out.update(recruitment.montagnards.build_hexes(s, u))
    enemy = enemy_locs(s, ALLIED)
    return sorted(h for h in out if h not in enemy and stacking_problem(s, ALLIED, h, [u["id"]]) is None)


def _former_fighting_units(s, loc, side):
    return [u["id"] for u in sorted(s["units"].values(), key=lambda x: x["id"])
            if u["status"] == "map" and u["loc"] == loc and u["side"] == side
            and battles._t(s, u["id"]).category != "air"]


def _former_cadre_hexes(s, nat):
    m = placement.load_map()
    allied = {u["loc"] for u in s["units"].values() if u["status"] == "map" and u["side"] == ALLIED
              and u["loc"] is not None}
    near = set(allied)
    for loc in allied:
        if not m.is_zone(loc):
            near.update(m.hex_neighbours(loc))
    near |= placement.zoc_hexes(s, ALLIED) | placement.zoi_hexes(s)
    countries = (placement.HOME[nat],) if nat else tuple(sorted(placement.HOME.values()))
    out = []
    for hid, h in m.hexes.items():
        if h.country in countries and h.is_land and h.terrain != "clear" and h.town is None and hid not in near:
            out.append(hid)
    return sorted(out)


def _former_decision_data(d):
    """NtndRuleset.pending's data as it was: decision_view(d, None) less seat, kind and prompt."""
    return [(k, v) for k, v in views.decision_view(d, None).items() if k not in ("seat", "kind", "prompt")]


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(views._PUBLIC_DECISION_KEYS + ("options", "extra")), st.integers(), max_size=10),
       st.sampled_from([ALLIED, COMMUNIST, None]), st.sampled_from(["losses", "overstack_losses", "retreat", None]))
def test_decision_data_is_the_public_view_less_seat_kind_and_prompt(d, seat, kind):
    d = dict(d)
    for key, v in (("seat", seat), ("kind", kind)):
        if v is not None:
            d[key] = v
    assert list(views.decision_data(d).items()) == _former_decision_data(d)


def _former_communist_supply_facts(s):
    """_communist_supply_facts as it was (a pass per set, then a pass for the supply units and bases)."""
    m = load_map()
    blocked = enemy_locs(s, COMMUNIST) | zoc_hexes(s, ALLIED) | zoi_hexes(s)
    supplies, bases = {}, set()
    for x in s["units"].values():
        if x["status"] == "map" and x["side"] == COMMUNIST and not m.is_zone(x["loc"]):
            if x["type"] == "communist_supply":
                supplies.setdefault(x["loc"], []).append(x["id"])
            elif x["type"] == "vc_base":
                bases.add(x["loc"])
    return blocked, supplies, bases


def _former_out_of_supply(s, side):
    """out_of_supply as it was (a trace per unit)."""
    pre = supply._AlliedSupply(s) if side == ALLIED else None
    facts = _former_communist_supply_facts(s) if side == COMMUNIST else None
    out = []
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["status"] != "map" or u["side"] != side:
            continue
        ok = supply.allied_in_supply(s, u, pre=pre) if side == ALLIED else supply.communist_supply_trace(s, u, facts)[0]
        if not ok:
            out.append(uid)
    return out


def _former_supply_sea(s, mv, env):
    """sea_reach's 8.6.1 / 8.6.2 part as it was (the flood made on every call), for a Communist supply
    piece that may start a sea move."""
    m, start, enemy, out = load_map(), mv["loc"], env.enemy(mv["side"]), {}
    ok = sea._supply_water()
    first = [h for h in m.neighbours(start) if h in ok] if start == "HAIPHONG" else None
    prev, dist, frontier = {}, {start: 0}, [start]
    while frontier:
        nxt = []
        for h in frontier:
            for n in first if h == "HAIPHONG" else [n for n in nbrs(h) if n in ok]:
                if n in dist or n in enemy or dist[h] + 1 > 12:
                    continue
                dist[n] = dist[h] + 1
                prev[n] = h
                nxt.append(n)
        frontier = sorted(nxt)
    for d in sorted(dist):
        if d == start or stacking_problem(s, COMMUNIST, d, mv["uids"], env):
            continue
        out["sea:" + d] = [sea.SEA] + path_to(prev, start, d)
    return out


def _supply_sea_pieces(s):
    """(piece, mover) of the Communist supply pieces that may start a sea move here."""
    m = load_map()
    for p in [*sorted(s["markers"]), *sorted(u for u, x in s["units"].items() if x["side"] == COMMUNIST
                                             and x["status"] == "map" and not x["inv"])]:
        mv = mover(s, p)
        start = mv["loc"]
        if not mv["types"] or any(t.id != "communist_supply" for t in mv["types"]) or start is None:
            continue
        if start != "HAIPHONG" and (m.is_zone(start) or not (m.hexes[start].coastal or m.hexes[start].major_river)):
            continue
        if start == "HAIPHONG" and s.get("haiphong_mined"):
            continue
        yield p, mv


def _positions(scenario, seed, commands):
    return ((s, d) for _, s, d in positions("rule-forms", seed, commands, scenario))


@pytest.mark.parametrize("scenario,seed,commands", [(None, 1, 700), (None, 2, 700), ("campaign_short", 3, 500)])
def test_rewritten_rule_functions_give_their_former_results(scenario, seed, commands):
    calls = {"purchase": 0, "fighting": 0, "attack": 0, "cadre": 0, "retreat": 0, "supply": 0, "sea": 0,
             "placements": 0}
    for n, (s, d) in enumerate(_positions(scenario, seed, commands)):
        if d.kind == "move" and d.seat == COMMUNIST:
            env = Env(s)
            for p, mv in _supply_sea_pieces(s):
                got = sea.sea_reach(s, p, mv, env)
                assert got == _former_supply_sea(s, mv, env), p
                calls["sea"] += bool(got)
        assert list(views.decision_data(s["decision"]).items()) == _former_decision_data(s["decision"])
        if d.kind == "retreat":   # aftermath.next_decision's destinations, found once: this state's
            calls["retreat"] += 1
            assert s["decision"]["to"] == aftermath.retreat_destinations(s, s["decision"]["unit"])
        locs = sorted({u["loc"] for u in s["units"].values() if u["status"] == "map"})
        for side in (ALLIED, COMMUNIST):
            for loc in locs if n % 5 == 0 else ():
                calls["fighting"] += 1
                assert battles._fighting_units(s, loc, side) == _former_fighting_units(s, loc, side)
        if d.kind == "recruit" or n % 25 == 0:
            for nat in (None, *sorted(placement.HOME)):
                calls["cadre"] += 1
                assert placement.cadre_hexes(s, nat) == _former_cadre_hexes(s, nat)
        if n % 10 == 0:
            calls["supply"] += 1
            assert supply._communist_supply_facts(s) == _former_communist_supply_facts(s)
            assert supply._AlliedSupply(s).blocked == enemy_locs(s, ALLIED) | zoc_hexes(s, COMMUNIST)
            for side in (ALLIED, COMMUNIST):
                assert supply.out_of_supply(s, side) == _former_out_of_supply(s, side)
        if d.kind in ("reinforce", "combat", "announce", "replacements") or n % 25 == 0:
            allied = sorted(u for u, x in s["units"].items() if x["side"] == ALLIED and x["status"] in ("dead", "mix"))
            for uid in allied:
                calls["purchase"] += 1
                assert recruitment.purchase_options(s, uid) == _former_purchase_options(s, uid), uid
                if load_counters().type(s["units"][uid]["type"]).stacking_class in recruitment.IMMEDIATE:
                    locs_now = recruitment.purchase_locations(s, s["units"][uid])
                    assert locs_now == _former_purchase_locations(s, s["units"][uid]), uid
                    calls["placements"] += bool(locs_now)
            for side in (ALLIED, COMMUNIST):
                calls["attack"] += 1
                whole = battles.attack_options(s, side)
                assert whole == _former_attack_options(s, side)
                for tgt in sorted({t for t, _ in whole}) + locs[:: 7]:
                    assert battles.attack_options(s, side, tgt) == _former_attack_options(s, side, tgt)
    assert all(calls.values()), calls


def _former_attack_options(s, side, target=None):
    """battles.attack_options as it was (every unit through _may_attack first), verbatim."""
    m = battles.load_map()
    ph = s["phase"]
    done_a, done_d = set(ph.get("attacked", ())), set(ph.get("defended", ()))
    targets: dict[tuple[str, str], list[str]] = {}
    open_ = battles.in_force(s, "neutrality")   # 10.2, 10.4: attacks into neutral states are allowed (and charged)
    for uid in sorted(s["units"]):
        if uid in done_a:
            continue
        kind = battles._may_attack(s, uid, side)   # first: it drops most units at once (status, side); both are pure
        if kind is None:
            continue
        u = s["units"][uid]
        if target is not None and target not in m.hex_neighbours(u["loc"]):
            continue   # it offers no option for ``target`` (below: only its neighbours)
        if not battles.neutrality.may_attack_from(s, uid):
            continue
        t = battles._t(s, uid)
        here = m.hex(u["loc"]).country
        home = battles._bound_home(t, side)   # 8.9.1: a bound unit attacks from home into home
        for n in m.hex_neighbours(u["loc"]):
            if target is not None and n != target:
                continue
            there = m.hexes[n].country
            if side == ALLIED and there != here and (there in s["neutral"] or here in s["neutral"]) \
                    and t.nationality not in ("LAO", "KHMER") and not open_:
                continue  # 10.2: attacking across a neutral border is a violation (part 2)
            if home and not (here == home and there == home):
                continue
            targets.setdefault((n, kind), []).append(uid)
    # 9.3: combat inside an off-board zone, by the units committed there (battles.offboard.py)
    if target is None or target in m.zones:
        for zone, uids in battles.offboard.zone_attackers(s, side, done_a).items():
            if target is None or zone == target:
                targets.setdefault((zone, "ground"), []).extend(uids)
    out = []
    foe = ALLIED if side == COMMUNIST else COMMUNIST
    counters = battles.load_counters()
    upside = ph.get("retreated_into", {})
    by_loc: dict[str, list[str]] = {}
    for x in sorted(s["units"]) if targets else ():
        v = s["units"][x]
        if v["status"] == "map" and v["side"] == foe and (target is None or v["loc"] == target) \
                and counters.type(v["type"]).category != "air":
            by_loc.setdefault(v["loc"], []).append(x)
    for tgt, kind in sorted(targets, key=lambda k: (k[0], k[1] != "ground")):
        defenders = [d for d in by_loc.get(tgt, []) if d not in upside.get(tgt, ())]
        if not defenders or set(defenders) & done_d:
            continue
        if any(s["units"][d]["inv"] for d in defenders):
            hunters = battles.neutrality.hunters(s, side, tgt, targets[(tgt, kind)])   # 28.11.1-28.11.2 (campaign)
            if hunters:
                out.append((tgt, hunters))
            continue
        if all(battles._t(s, d).id == "us_fleet" for d in defenders):
            continue  # 14.2
        if side == COMMUNIST and m.country_of(tgt) in s["neutral"] and not open_:
            continue  # 10.5.1 attacking a neutral is part 2
        out.append((tgt, tuple(targets[(tgt, kind)])))
    return out



fractions = st.fractions(min_value=-50, max_value=50, max_denominator=12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["NTND 19.2.1", "NTND 19.2.2"]), fractions), max_size=8), st.booleans())
def test_a_side_totals_kept_total_is_the_sum_of_its_terms_and_not_part_of_its_identity(terms, asked):
    """combat.SideTotal.total is kept once computed (cached_property): it is the sum of the terms, as
    the former property computed it on every ask, and a total asked or not changes neither equality
    nor hash (a kept value is not a field)."""
    def side():
        return cb.SideTotal("allied", tuple(cb.Term(r, f"t{i}", v) for i, (r, v) in enumerate(terms)), len(terms))
    a, b = side(), side()
    if asked:
        assert a.total == sum((v for _, v in terms), Fraction(0)) == a.total
    assert a == b and hash(a) == hash(b) and a.to_event() == b.to_event()
    assert b.total == sum((t.value for t in b.terms), Fraction(0))


def test_the_options_flow_hands_to_start_battle_are_those_of_the_state_it_fights_in(monkeypatch):
    """flow's queue of announced Communist attacks hands start_battle the attack options it filtered
    the attackers with (not computed twice): they are attack_options of the state the battle
    starts in, for every queued attack of two random-bot Tet games."""
    real, handed = battles.start_battle, []

    def checked(s, side, target, attackers, ctx, opts=None):
        if opts is not None:
            assert opts == battles.attack_options(s, side, target)
            handed.append(target)
        return real(s, side, target, attackers, ctx, opts)

    monkeypatch.setattr(battles, "start_battle", checked)
    for seed in (1, 2):
        for _ in _positions(None, seed, 5000):
            pass
    assert len(handed) >= 5
