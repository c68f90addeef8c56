"""NTND 8.5.3.1, 8.6, 14.1.3, 14.2.1, 19 and 20 through the game's path: their own tests
were combat-law or search functions called in isolation (kept: the worked examples are tests);
here each outcome is reached the way a game reaches it, the phase entered (``mapplay.at``), the
answers taken from ``legal_commands`` and played through ``apply`` with fixed dice, and read from
the state and the public ``battle`` events."""
from __future__ import annotations

import pytest

from afteraction.engine import versions
from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.movement import ground as movement
from afteraction.engine.games.ntnd.movement import zones
from afteraction.engine.games.ntnd.movement import hexes
from afteraction.engine.games.ntnd.components.map import load_map
from afteraction.engine.ruleset import Context

from .mapplay import (RS, allied_attack, at, attack_cmd, battle_of, blank, cmd, communist_attack, done, legal, play,
                      put, term)
from .test_ntnd_rules import hide

M = load_map()


def _of(s, seat, action):
    return [getattr(c.ntnd, action) for c in legal(s, seat) if c.ntnd.WhichOneof("action") == action]


def _paths(s, seat, piece):
    return {tuple(m.path) for m in _of(s, seat, "move") if m.piece == piece}


def _resolve(s, ev, retreat_to=None, last=False):
    """Answer the battle's decisions (supply, losses, retreats, advances) with the first legal
    answer (the last: ``last``), or a retreat with ``retreat_to(unit, offered)``; returns (state,
    events, retreats)."""
    moves = []
    while s["decision"] and s["decision"]["kind"] in ("supply", "losses", "retreat", "advance", "overstack_losses"):
        seat = s["decision"]["seat"]
        if s["decision"]["kind"] == "retreat":
            uid = s["decision"]["unit"]
            offered = sorted({r.to for r in _of(s, seat, "retreat") if r.unit == uid})
            to = retreat_to(uid, offered) if retreat_to else offered[0]
            moves.append((uid, to, offered))
            s, more = play(s, seat, cmd("retreat", unit=uid, to=to))
        else:
            s, more = play(s, seat, legal(s, seat)[-1 if last else 0])
        ev = ev + more
    return s, ev, moves


def _targets(s, seat):
    return sorted({a.target for a in _of(s, seat, "attack")})


# --------------------------------------------------------------------------- 8.5.3.1 / 8.6 / 14

def test_ntnd_8_5_3_1_a_unit_starting_in_a_zoi_leaves_at_the_normal_cost():
    fb = blank()
    put(fb, "us-fb-pleiku", "1716")                      # a firebase: ZOI of two hexes
    zoi = zones.zoi_hexes(fb)
    sv = {h for h, x in M.hexes.items() if x.country == "SV" and x.is_land}
    start = next(h for h in sorted(zoi & sv) if M.distance(h, "1716") == 2
                 and any(n not in zoi and n in sv for n in M.hex_neighbours(h)))
    got = {}
    for firebase in (True, False):
        s = blank()
        if firebase:
            put(s, "us-fb-pleiku", "1716")
        put(s, "vc-qn", start)
        got[firebase] = _paths(at(s, "c_move"), "communist", "vc-qn")
    outward = {p for p in got[False] if not set(p) & zoi}
    assert outward and outward <= got[True]              # leaving the ZOI: as if it were not there
    assert got[True] != got[False]                       # entering ZOI hexes costs double (8.5.3)


def test_ntnd_8_6_1_and_8_6_2_supply_by_sea_ends_on_the_coast_and_dies_failing_past_the_fleet():
    s = blank()
    put(s, "sup-haiphong", "HAIPHONG")
    s = at(s, "c_move")
    sea = [p for p in _paths(s, "communist", "sup-haiphong") if p[0] == "sea"]
    assert sea and all(M.hexes[p[-1]].coastal or M.hexes[p[-1]].major_river for p in sea)
    assert all(M.distance("1101", p[-1]) <= 12 for p in sea)                  # twelve points by sea
    far = max(sea, key=lambda p: M.distance("1101", p[-1]))
    for face, survives in ((3, False), (4, True)):
        s = blank()
        put(s, "sup-haiphong", "HAIPHONG")
        put(s, "us-fleet", next(n for n in M.hex_neighbours(far[-1]) if M.hexes[n].is_sea))
        s = at(s, "c_move")
        s, _ = play(s, "communist", cmd("move", piece="sup-haiphong", path=list(far)), faces=[face] * 4)
        assert (s["units"]["sup-haiphong"]["status"] == "map") is survives   # 4-6 infiltrates, else eliminated


def test_ntnd_8_6_3_a_patrol_boat_searches_an_adjacent_coastal_hex_for_unguarded_supplies():
    s = blank()
    put(s, "us-pb-1", "1326")
    target = next(h for h in M.hex_neighbours("1225") if M.hexes[h].is_land
                  and (M.hexes[h].coastal or M.hexes[h].major_river))
    mid = hide(s, ["sup-353"], target)
    s = at(s, "a_move")
    s, _ = play(s, "allied", cmd("move", piece="us-pb-1", path=["1225"]))
    assert s["decision"]["kind"] == "interdict" and target in {a.target for a in _of(s, "allied", "attack")}
    s, _ = play(s, "allied", cmd("attack", target=target, attackers=["us-pb-1"]), faces=[4])
    assert s["units"]["sup-353"]["status"] == "mix" and mid not in s["markers"]


def test_ntnd_8_6_4_two_marine_units_a_turn_land_from_a_coastal_city():
    s = blank()
    put(s, "us-fleet", "1709")
    for u in ("us-5mar", "us-7mar", "us-1mar"):
        put(s, u, "1810")
    s = at(s, "a_move")
    for u in ("us-5mar", "us-7mar"):
        landing = sorted(p for p in _paths(s, "allied", u) if p[0] == "sea")[-1]
        s, _ = play(s, "allied", cmd("move", piece=u, path=list(landing)))
        assert s["units"][u]["loc"] == landing[-1]
    assert not [p for p in _paths(s, "allied", "us-1mar") if p[0] == "sea"]


def test_ntnd_14_1_3_communist_units_stop_on_a_river_within_two_hexes_of_a_patrol_boat():
    s = blank()
    put(s, "us-pb-1", "1225")
    stop = movement.patrolled_river(s)
    start = next(h for h, x in sorted(M.hexes.items()) if x.is_land and x.country == "SV" and h not in stop
                 and any(n in stop for n in M.hex_neighbours(h)) and not x.town)
    put(s, "nva-9vc", start)
    paths = _paths(at(s, "c_move"), "communist", "nva-9vc")
    assert any(p[-1] in stop for p in paths) and all(h not in stop for p in paths for h in p[:-1])


def test_ntnd_14_2_1_a_hex_held_by_the_fleet_alone_is_not_attacked():
    s = blank()
    put(s, "us-fleet", "1810")
    put(s, "vc-iv-1", "1811")
    s = at(s, "c_move")
    s, _ = play(s, "communist", done())
    assert "1810" not in _targets(s, "communist")


def _fleet_and_division(version: str | None = None, inverted: bool = False):
    """The fleet alone on the clear coastal hex 1810 (sea hexes 1809, 1910, 1911 next to it, as after
    an 8.6.4.2 landing) and the NVA 320th division next to it in 1811, at the Communist movement phase
    of a game of ``version`` (None: the newest)."""
    s = blank()
    if version is not None:
        versions.stamp(s, version)
    put(s, "us-fleet", "1810")
    piece = hide(s, ["nva-320"], "1811") if inverted else "nva-320"
    if not inverted:
        put(s, "nva-320", "1811")
    return at(s, "c_move"), piece


def test_ntnd_14_2_1_a_ground_move_may_enter_a_hex_held_by_the_fleet_alone_and_the_fleet_moves_out_to_sea():
    s, piece = _fleet_and_division()
    paths = _paths(s, "communist", piece)
    assert ("1810",) in paths
    assert all("1810" not in p[:-1] for p in paths)        # the move ends there (the fleet leaves as it enters)
    s, ev = play(s, "communist", cmd("move", piece=piece, path=["1810"]))
    assert [e["t"] for e in ev] == ["move", "fleet-to-sea"]
    assert ev[1] == {"t": "fleet-to-sea", "unit": "us-fleet", "from": "1810", "to": "1809", "rule": "NTND 14.2.1"}
    assert s["units"]["us-fleet"]["loc"] == "1809" and s["units"]["nva-320"]["loc"] == "1810"


def test_ntnd_14_2_1_an_inverted_stack_infiltrates_into_the_fleets_zoi_and_the_fleet_moves_out_to_sea():
    s, piece = _fleet_and_division(inverted=True)
    assert ("1810",) in _paths(s, "communist", piece)
    s, ev = play(s, "communist", cmd("move", piece=piece, path=["1810"]), faces=[6])   # 8.5.3: infiltrates
    assert [e["t"] for e in ev] == ["roll", "move", "fleet-to-sea"]
    assert s["units"]["us-fleet"]["loc"] == "1809" and s["markers"][piece]["loc"] == "1810"


def test_ntnd_14_2_1_ntnd_4_games_keep_the_hex_held_by_the_fleet_alone_closed():
    """ntnd/4 (a released version, engine/games/ntnd/versions.py FLEET_ENTRY) read 14.2.1 for advances
    only: its games go on refusing the move, so their logs replay as they were played."""
    s, piece = _fleet_and_division("4")
    assert all("1810" not in p for p in _paths(s, "communist", piece))
    with pytest.raises(Rejection) as e:
        RS.apply(s, "communist", cmd("move", piece=piece, path=["1810"]), Context.for_tests())
    assert e.value.code == "ILLEGAL_MOVE"


def test_ntnd_14_2_1_a_hex_held_by_the_fleet_and_another_allied_unit_stays_closed():
    s = blank()
    put(s, "us-fleet", "1810")
    put(s, "us-1-4", "1810")
    put(s, "nva-320", "1811")
    assert all("1810" not in p for p in _paths(at(s, "c_move"), "communist", "nva-320"))


# --------------------------------------------------------------------------- 19.1

def test_ntnd_19_1_1_withheld_attackers_are_unaffected_and_every_defender_defends():
    s = blank()
    put(s, "us-1-4", "1714")
    put(s, "us-2-4", "1714")
    put(s, "vc-dak-to", "1814")
    put(s, "nva-320", "1814")
    s, ev = allied_attack(s, "1814", ["us-1-4"], faces=[1, 6])
    b = battle_of(ev)
    assert b["attacker"]["units"] == 1 and b["defender"]["units"] == 2
    assert s["units"]["us-2-4"]["status"] == "map" and s["units"]["us-2-4"]["loc"] == "1714"


def test_ntnd_19_1_3_no_stack_is_attacked_twice_and_no_unit_attacks_twice():
    s = blank()
    put(s, "us-1-4", "1714")
    put(s, "us-2-4", "1715")
    put(s, "vc-dak-to", "1814")
    put(s, "nva-320", "1815")
    s = at(s, "a_combat")
    s, _ = play(s, "allied", attack_cmd(s, "allied", "1814", ["us-1-4"]), faces=[1, 1])
    while s["decision"] and s["decision"]["kind"] != "combat":
        s, _ = play(s, s["decision"]["seat"], legal(s, s["decision"]["seat"])[-1], faces=[1, 1])
    attacks = _of(s, "allied", "attack")
    assert "1814" not in {a.target for a in attacks}
    assert all("us-1-4" not in a.attackers for a in attacks)


# --------------------------------------------------------------------------- 19.2

def test_ntnd_19_2_3_the_defender_adds_the_terrain_of_its_hex():
    got = {}
    for hex_, attacker_hex in (("1714", "1814"), ("1716", "1815")):      # mountain town / clear town
        s = blank()
        put(s, "us-1-4", hex_)
        put(s, "vc-dak-to", attacker_hex)
        s, ev = communist_attack(s, hex_, ["vc-dak-to"], faces=[1, 1])
        b = battle_of(ev)
        got[M.hexes[hex_].terrain] = (term(b["defender"], "NTND 19.2.3"), term(b["attacker"], "NTND 19.2.3"))
    assert got["mountain"][0] > got["clear"][0] and got["mountain"][1] == got["clear"][1] == 0


def test_ntnd_19_2_4_and_19_2_5_four_units_against_two_add_one_three_to_one_two():
    s = blank()
    for u in ("us-1-4", "us-2-4"):
        put(s, u, "1714")
    for u in ("us-3-4", "us-173"):
        put(s, u, "1715")
    for u in ("vc-dak-to", "nva-320"):
        put(s, u, "1814")
    s, ev = allied_attack(s, "1814", ["us-1-4", "us-2-4", "us-3-4", "us-173"], faces=[1, 1])
    b = battle_of(ev)
    assert (b["attacker"]["units"], b["defender"]["units"]) == (4, 2)
    assert term(b["attacker"], "NTND 19.2.4") == 1 and term(b["defender"], "NTND 19.2.4") == 0
    s = blank()
    for u in ("us-1-4", "us-2-4"):
        put(s, u, "1714")
    put(s, "us-3-4", "1715")
    put(s, "vc-dak-to", "1814")
    s, ev = allied_attack(s, "1814", ["us-1-4", "us-2-4", "us-3-4"], faces=[1, 1])
    assert term(battle_of(ev)["attacker"], "NTND 19.2.4") == 2


# --------------------------------------------------------------------------- 19.3

def test_ntnd_19_3_a_retreat_goes_to_an_adjacent_hex_free_of_enemy_units():
    s = blank()
    for u in ("us-1-4", "us-2-4"):
        put(s, u, "1714")
    for u in ("nva-320", "nva-304"):
        put(s, u, "1814")
    put(s, "vc-qn", "1813")
    s, ev = communist_attack(s, "1714", ["nva-320", "nva-304"], faces=[6, 1])
    s, ev, moves = _resolve(s, ev)
    assert moves
    for uid, to, offered in moves:
        assert offered and all(M.adjacent("1714", h) and M.hexes[h].is_land for h in offered)
        assert not set(offered) & {"1814", "1813"} and s["units"][uid]["loc"] == to


def test_ntnd_19_3_1_a_retreating_stack_may_split():
    s = blank()
    for u in ("us-1-4", "us-2-4"):
        put(s, u, "1714")
    for u in ("nva-320", "nva-304", "nva-art-40", "nva-sam-1"):
        put(s, u, "1814")
    s, ev = allied_attack(s, "1814", ["us-1-4", "us-2-4"], faces=[6, 1])
    asked = []

    def spread(uid, offered):                            # each retreating unit to another hex
        asked.append(uid)
        return offered[(len(asked) - 1) % len(offered)]
    s, ev, moves = _resolve(s, ev, retreat_to=spread)
    assert len(moves) >= 2 and len({to for _, to, _ in moves}) >= 2
    assert all(s["units"][u]["loc"] == to for u, to, _ in moves)


def test_ntnd_19_3_9_units_in_a_zone_never_retreat():
    s = blank()
    for u in ("nva-320", "nva-304"):
        put(s, u, "HANOI")
    for u in ("us-199", "us-173"):
        put(s, u, "HANOI")
    s, ev = allied_attack(s, "HANOI", ["us-199", "us-173"], faces=[6, 1])
    assert battle_of(ev)["winner"] == "allied"
    s, ev, moves = _resolve(s, ev)
    assert moves == []
    assert all(s["units"][u]["loc"] == "HANOI" for u in ("nva-320", "nva-304") if s["units"][u]["status"] == "map")


# --------------------------------------------------------------------------- 20

def _far_from_supply():
    """(start, stop, ambush hex): an Allied unit at ``start`` moves to ``stop``, next to the ambush
    hex (two hexes from ``start``), in the south of South Vietnam, where a face-up NVA division is
    out of supply (no supply unit, far from North Vietnam)."""
    from afteraction.engine.games.ntnd.supply import lines as supply
    s = blank()
    for z in sorted(h for h, x in M.hexes.items() if x.country == "SV" and x.is_land and not x.town
                    and x.corps == "III"):
        put(s, "nva-3", z)
        if supply.in_supply(s, s["units"]["nva-3"]):
            continue
        for y in sorted(M.hex_neighbours(z)):
            hy = M.hexes[y]
            if hy.country != "SV" or not hy.is_land or hy.town or hy.corps != "III" or M.river_between(y, z):
                continue
            for x in sorted(M.hex_neighbours(y)):
                hx = M.hexes[x]
                if hx.country == "SV" and hx.is_land and hx.corps == "III" and M.distance(x, z) == 2 \
                        and not M.river_between(x, y):
                    return x, y, z
    raise LookupError


def _ambush_setup(units=("nva-3",), supply=False, geometry=("1715", "1714", "1713"), allied="us-1-4"):
    """``allied`` moves from ``start`` to ``stop`` (Dak To, a mountain hex) next to the inverted
    ``units`` at ``where``; the Communist seat is asked whether to ambush."""
    start, stop, where = geometry
    s = blank()
    put(s, allied, start)
    mk = hide(s, list(units), where)
    if supply:
        put(s, "sup-353", where)
    s = at(s, "a_move")
    s, _ = play(s, "allied", cmd("move", piece=allied, path=[stop]))
    return s, mk


def test_ntnd_20_1_and_20_2_an_allied_unit_moving_next_to_inverted_units_may_be_ambushed_and_stops():
    s, mk = _ambush_setup()
    assert s["decision"]["kind"] == "ambush" and s["decision"]["seat"] == "communist"
    assert legal(s, "allied") == []
    s, ev = play(s, "communist", cmd("ambush", markers=[mk]), faces=[1, 1])
    assert s["units"]["us-1-4"]["status"] != "map" or s["units"]["us-1-4"]["loc"] == "1714"
    assert not s["units"]["nva-3"]["inv"] and mk not in s["markers"]          # flipped, stays face up
    s2, mk2 = _ambush_setup()
    s2, _ = play(s2, "communist", done())                                     # declined: nothing happens
    assert s2["units"]["nva-3"]["inv"] and mk2 in s2["markers"]


def test_ntnd_20_3_every_inverted_stack_next_to_the_ambushed_unit_may_join():
    s = blank()
    put(s, "us-1-4", "1715")
    a = hide(s, ["nva-3"], "1713")
    b = hide(s, ["vc-dak-to"], "1814")
    s = at(s, "a_move")
    s, _ = play(s, "allied", cmd("move", piece="us-1-4", path=["1714"]))
    offered = [set(x.markers) for x in _of(s, "communist", "ambush")]
    assert {a, b} in offered
    s, ev = play(s, "communist", cmd("ambush", markers=[a, b]), faces=[1, 1])
    assert battle_of(ev)["attacker"]["units"] == 2


def test_ntnd_20_4_1_and_20_4_4_terrain_of_the_ambushed_hex_and_surprise_for_the_communists():
    s, mk = _ambush_setup()
    s, ev = play(s, "communist", cmd("ambush", markers=[mk]), faces=[1, 1])
    att = battle_of(ev)["attacker"]
    assert term(att, "NTND 20.4.1") == 2 and term(att, "NTND 20.4.4") == 1   # mountains; surprise


def test_ntnd_20_5_surviving_allied_units_are_not_forced_to_retreat_the_ambushers_are():
    s, mk = _ambush_setup(units=("nva-3", "vc-dak-to"))
    s, ev = play(s, "communist", cmd("ambush", markers=[mk]), faces=[1, 6])   # the Allied unit wins
    assert battle_of(ev)["winner"] == "allied"
    s, ev, moves = _resolve(s, ev)
    assert s["units"]["us-1-4"]["loc"] == "1714" and s["units"]["us-1-4"]["status"] == "map"
    survivors = [u for u in ("nva-3", "vc-dak-to") if s["units"][u]["status"] == "map"]
    assert survivors and all(s["units"][u]["loc"] != "1713" for u in survivors)
    assert {u for u, _, _ in moves} == set(survivors)


def test_ntnd_20_6_ambushing_nva_without_supply_lose_one_morale():
    geometry = _far_from_supply()
    got = {}
    for supply in (False, True):
        s, mk = _ambush_setup(supply=supply, geometry=geometry, allied="us-1-1")   # a III Corps brigade
        assert s["decision"]["kind"] == "ambush"
        chosen = next(o for o in _of(s, "communist", "ambush") if mk in o.markers)
        s, ev = play(s, "communist", cmd("ambush", markers=list(chosen.markers)), faces=[1, 1])
        got[supply] = term(battle_of(ev)["attacker"], "NTND 19.2.1") + term(battle_of(ev)["attacker"], "NTND 20.6")
    assert got[True] - got[False] == 1


# --------------------------------------------------------------------------- 8.7 / 19.3.4 / 19.3.5 / 14.1.2

def _da_nang_lost(defenders, fleet=True, also=()):
    """A Communist attack from 1710 beats the Allied units at Da Nang (a coastal city); ``also``:
    (unit, hex) placed besides."""
    s = blank()
    for u, h in also:
        put(s, u, h)
    if fleet:
        put(s, "us-fleet", "1709")
    for u in defenders:
        put(s, u, "1810")
    for u in ("nva-320", "nva-304"):
        put(s, u, "1710")
    s, ev = communist_attack(s, "1810", ["nva-320", "nva-304"], faces=[6, 1])
    assert battle_of(ev)["winner"] == "communist"
    return s, ev


def test_ntnd_8_7_and_19_3_4_allied_units_retreat_onto_the_fleet_and_land_next_turn():
    from afteraction.engine.games.ntnd.combat.aftermath import FLEET
    s, ev = _da_nang_lost(["us-5mar", "us-7mar"], also=[("us-1mar", "1609")])      # Hue held
    s, ev, moves = _resolve(s, ev, retreat_to=lambda uid, offered: FLEET)
    assert moves and all(FLEET in offered for _, _, offered in moves)
    (uid,) = [u for u, _, _ in moves]
    assert s["units"][uid]["status"] == "afloat"
    s["turn"] += 1
    s = at(s, "a_reinforce")                             # next turn: landed at a friendly coastal town/city
    lands = [p.location for p in _of(s, "allied", "place") if p.unit == uid]
    assert "1609" in lands and all(M.hexes[h].town and (M.hexes[h].coastal or M.hexes[h].major_river) for h in lands)
    s, ev = _da_nang_lost(["us-5mar", "us-7mar"], fleet=False)
    s, ev, moves = _resolve(s, ev)
    assert moves and all(FLEET not in offered for _, _, offered in moves)


def test_ntnd_19_3_5_an_airmobile_unit_may_retreat_to_a_held_city_in_range():
    hue = [("us-5mar", "1609")]                          # Hue, held, not adjacent to Da Nang
    s, ev = _da_nang_lost(["us-1-1cav", "us-7mar"], also=hue)
    s, ev, moves = _resolve(s, ev, last=True)             # the Marines are the loss
    assert [(u, "1609" in opts, M.adjacent("1810", "1609")) for u, _, opts in moves] == [("us-1-1cav", True, False)]
    s, ev = _da_nang_lost(["us-1-1cav", "us-7mar"], also=hue)
    s, ev, moves = _resolve(s, ev)                        # the airmobile unit is the loss
    assert [(u, "1609" in opts) for u, _, opts in moves] == [("us-7mar", False)]


def test_ntnd_14_1_2_a_patrol_boat_retreats_from_a_lost_battle_unless_armor_or_artillery_attack():
    got = {}
    for attacker in ("vc-iv-1", "nva-202tk"):
        s = blank()
        put(s, "us-pb-1", "1225")
        land = next(n for n in M.hex_neighbours("1225") if M.hexes[n].is_land and M.hexes[n].country == "SV")
        put(s, attacker, land)
        s, ev = communist_attack(s, "1225", [attacker], faces=[6, 1])
        assert battle_of(ev)["winner"] == "communist"
        s, ev, moves = _resolve(s, ev)
        got[attacker] = (s["units"]["us-pb-1"]["status"], bool(moves))
    assert got == {"vc-iv-1": ("map", True), "nva-202tk": ("dead", False)}


# --------------------------------------------------------------------------- 20.4.2 / 20.4.3

def test_ntnd_20_4_2_allied_support_only_from_units_in_the_ambushed_hex():
    got = {}
    for where in ("1714", "1716"):                       # in the ambushed hex / within two hexes
        s = blank()
        put(s, "us-fb-pleiku", where)
        s2, mk = _ambush_with(s)
        s2, ev = play(s2, "communist", cmd("ambush", markers=[mk]), faces=[1, 1])
        got[where] = term(battle_of(ev)["defender"], "NTND 19.2.2")
    assert got == {"1714": 1, "1716": 0}


def test_ntnd_20_4_3_only_artillery_among_the_ambushers_supports_them():
    got = {}
    for with_art in (False, True):
        s = blank()
        if not with_art:
            put(s, "nva-art-40", "1813")                 # face up next to the ambushed hex: no support
        s2, mk = _ambush_with(s, units=("nva-3", "nva-art-40") if with_art else ("nva-3",))
        s2, ev = play(s2, "communist", cmd("ambush", markers=[mk]), faces=[1, 1])
        got[with_art] = term(battle_of(ev)["attacker"], "NTND 19.2.2")
    assert got == {False: 0, True: 1}


def _ambush_with(s, units=("nva-3",)):
    put(s, "us-1-4", "1715")
    mk = hide(s, list(units), "1713")
    s = at(s, "a_move")
    s, _ = play(s, "allied", cmd("move", piece="us-1-4", path=["1714"]))
    assert s["decision"]["kind"] == "ambush"
    return s, mk


def test_ntnd_19_3_3_a_retreat_into_laos_violates_nothing_staying_there_does():
    """Campaign (rule 10 in force): Allied units beaten next to Laos retreat into it free of any
    charge; one still there at the end of its next movement phase has violated neutrality (10.2.2)."""
    from .test_ntnd_neutrality import LA_NEXT, NV_HEX, SV_I, at as campaign_at, cblank
    s = cblank()
    for u in ("us-1-1", "us-2-1"):
        put(s, u, SV_I)
        s["units"][u]["corps"] = "I"
    for u in ("nva-320", "nva-304"):
        put(s, u, NV_HEX)
    s, ev = communist_attack(s, SV_I, ["nva-320", "nva-304"], faces=[6, 1])
    s, ev, moves = _resolve(s, ev, retreat_to=lambda uid, offered: LA_NEXT)
    assert moves and all(LA_NEXT in offered for _, _, offered in moves)
    (uid,) = [u for u, _, _ in moves]
    assert s["units"][uid]["loc"] == LA_NEXT
    assert not [e for e in ev if e["t"] == "neutrality"]
    s = campaign_at(s, "a_move")
    s, ev = play(s, "allied", done(), faces=[6])
    assert [e["rule"] for e in ev if e["t"] == "neutrality"] == ["NTND 10.2.2"]


def test_ntnd_8_6_4_1_landed_marines_spend_their_remaining_points_inland():
    s = blank()
    put(s, "us-fleet", "1709")
    put(s, "us-5mar", "1810")                            # in the port: half the allowance pays the landing
    s = at(s, "a_move")
    full = movement.allowance_q(s, movement.mover(s, "us-5mar"))
    cls = hexes.utype(s["units"]["us-5mar"]).movement_class
    landing = sorted(p for p in _paths(s, "allied", "us-5mar") if p[0] == "sea" and M.hexes[p[-1]].corps == "I"
                     and p[-1] != "1810")[0]
    s, _ = play(s, "allied", cmd("move", piece="us-5mar", path=list(landing)))
    inland = _paths(s, "allied", "us-5mar")
    assert inland and not [p for p in inland if p[0] == "sea"]                # one landing a phase

    def cost(path, here=landing[-1]):
        total = 0
        for h in path:
            total, here = total + movement._step_q(cls, here, h), h
        return total
    assert max(cost(p) for p in inland) <= full - full // 2 < full           # the half left after the landing
