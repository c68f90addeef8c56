"""NTND rules 4, 5, 6 and 17.1 that were cited only by other rules' tests or by the whole-game bot
test, each through the game's own path: the phase entered as the game enters it
(``mapplay.at``), the answers taken from ``legal_commands`` and played through ``apply``."""
from __future__ import annotations

from afteraction.engine.games.ntnd.components.map import load_map

from .mapplay import at, blank, cmd, done, legal, play, put
from .test_ntnd_rules import hide

M = load_map()


def _places(s, kind=None):
    return [c.ntnd.place for c in legal(s, "communist") if c.ntnd.WhichOneof("action") == "place"
            and (kind is None or c.ntnd.place.kind == kind)]


def _allied_places(s):
    return sorted((c.ntnd.place.unit, c.ntnd.place.location) for c in legal(s, "allied")
                  if c.ntnd.WhichOneof("action") == "place")


def _moves(s, seat, piece):
    return sorted({c.ntnd.move.path[-1] for c in legal(s, seat) if c.ntnd.WhichOneof("action") == "move"
                   and c.ntnd.move.piece == piece})


def _promotions(s):
    return sorted((c.ntnd.promote.piece, c.ntnd.promote.supply, c.ntnd.promote.to) for c in legal(s, "communist")
                  if c.ntnd.WhichOneof("action") == "promote")


# --------------------------------------------------------------------------- 4.1.2 / 17.1 dummies

def test_ntnd_4_1_2_dummies_are_placed_as_cadres_and_always_inverted():
    s = at(blank(), "c_recruit")
    dummies = _places(s, "dummy")
    assert dummies and all(p.inverted for p in dummies)
    cadres = s["phase"]["cadres"]
    p = dummies[0]
    s, _ = play(s, "communist", cmd("place", kind="dummy", nationality="", location=p.location, inverted=True))
    (d,) = [u for u, x in s["units"].items() if x["type"] == "communist_dummy" and x["status"] == "map"]
    assert s["units"][d]["inv"] and s["units"][d]["mk"] in s["markers"]
    assert s["phase"]["cadres"] == cadres


def test_ntnd_17_1_dummies_cost_nothing_and_go_where_any_guerrilla_cadre_may_be_placed():
    s = at(blank(), "c_recruit")
    dummy_hexes = {p.location for p in _places(s, "dummy")}
    cadre_hexes = {p.location for p in _places(s, "cadre")}
    assert dummy_hexes == cadre_hexes                      # VC, Pathet Lao and Khmer Rouge cadre hexes
    assert {M.hexes[h].country for h in dummy_hexes} == {"SV", "LA", "CA"}
    n = sum(x["type"] == "communist_dummy" for x in s["units"].values())
    for _ in range(n):                                     # every dummy of the mix
        p = _places(s, "dummy")[0]
        s, _ = play(s, "communist", cmd("place", kind="dummy", nationality="", location=p.location, inverted=True))
    assert _places(s, "dummy") == [] and s["phase"]["cadres"] == 3 and _places(s, "cadre")


# --------------------------------------------------------------------------- 4.1.6

def test_ntnd_4_1_6_unused_recruits_are_forfeited_not_accumulated():
    s = at(blank(), "c_recruit")
    assert s["phase"]["cadres"] == 3 and s["phase"]["nva"] == 2
    s, _ = play(s, "communist", done())                    # nothing placed
    s["turn"] += 1
    s = at(s, "c_recruit")
    assert s["phase"]["cadres"] == 3 and s["phase"]["nva"] == 2


def test_ntnd_4_1_6_only_units_in_the_counter_mix_may_be_recruited():
    s = blank()
    for uid, x in sorted(s["units"].items()):
        if x["type"] in ("vc_cadre", "nva_sam"):
            put(s, uid, "1813" if x["type"] == "vc_cadre" else "HANOI")
    s = at(s, "c_recruit")
    assert not [p for p in _places(s, "cadre") if p.nationality == "VC"]
    assert [p for p in _places(s, "cadre") if p.nationality == "PL"]
    assert _places(s, "nva_sam") == [] and _places(s, "nva_division")


# --------------------------------------------------------------------------- 4.2.5

def test_ntnd_4_2_5_each_pool_pays_only_for_its_countries():
    s = blank()
    for u in ("us-2-1", "arvn-1div", "khmer-1", "rok-9"):
        s["units"][u].update(status="dead", loc=None)
    s = at(s, "a_reinforce")
    bought = {}
    for pool in ("SV", "INDOCHINESE", "SEATO", "US"):
        s["rp"] = {pool: 1}
        bought[pool] = [u for u, _ in _allied_places(s)]
    assert bought == {"SV": ["arvn-1div"], "INDOCHINESE": ["khmer-1"],
                      "SEATO": ["arvn-1div", "khmer-1", "rok-9"], "US": ["arvn-1div", "khmer-1", "us-2-1"]}
    s["rp"] = {"US": 1}
    s, _ = play(s, "allied", cmd("place", unit="arvn-1div", location=""))   # U.S. aid to South Vietnam
    assert s["rp"]["US"] == 0 and s["units"]["arvn-1div"]["status"] == "sched"


# --------------------------------------------------------------------------- 5.2

def test_ntnd_5_2_1_cambodian_units_are_attached_to_the_cambodian_corps_only():
    s = blank()
    s["units"]["khmer-1"].update(status="dead", loc=None)
    s["units"]["arvn-1div"].update(status="dead", loc=None)
    s = at(s, "a_reinforce")
    s["rp"] = {"INDOCHINESE": 1, "SV": 1}
    s, _ = play(s, "allied", cmd("place", unit="khmer-1", location=""))
    s, _ = play(s, "allied", cmd("place", unit="arvn-1div", location=""))
    s["turn"] += 1
    s = at(s, "a_reinforce")
    places = _allied_places(s)
    assert [loc for u, loc in places if u == "khmer-1"] == [M.corps_hq_of("CA").location]   # Phnom Penh
    assert all(M.hexes[loc].country == "SV" for u, loc in places if u == "arvn-1div")
    assert s["units"]["khmer-1"]["corps"] == "CA"


def test_ntnd_5_2_2_a_divisions_brigades_are_attached_to_one_corps():
    s = blank()
    s["turn"] = 1
    for u in ("us-1-1", "us-2-1", "us-3-1"):
        s["units"][u].update(status="sched", arrive=1)
    s = at(s, "a_reinforce")
    # none of the 1st Infantry Division on the map: the first brigade may enter for any corps (5.3.2)
    assert [loc for u, loc in _allied_places(s) if u == "us-1-1"] == ["1227", "1424", "1810", "2121"]
    s, ev = play(s, "allied", cmd("place", unit="us-1-1", location="1810"))   # Da Nang: I Corps
    assert {s["units"][u]["corps"] for u in ("us-1-1", "us-2-1", "us-3-1")} == {"I"}
    assert [loc for u, loc in _allied_places(s) if u == "us-2-1"] == ["1810"]


def test_ntnd_5_2_3_a_south_vietnamese_division_is_attached_to_its_corps():
    s = blank()
    put(s, "arvn-1div", "1810")                          # I Corps division
    put(s, "arvn-abn-1", "1811")                         # airborne brigade: not attached (5.5)
    s = at(s, "a_move")
    assert {M.hexes[h].corps for h in _moves(s, "allied", "arvn-1div")} == {"I"}
    assert len({M.hexes[h].corps for h in _moves(s, "allied", "arvn-abn-1") if h in M.hexes}) > 1


# --------------------------------------------------------------------------- 5.3.1

def test_ntnd_5_3_1_corps_units_operate_in_bordering_laos_and_return_only_to_their_corps():
    """Campaign (rule 10 in force, borders open at a political cost): a I Corps brigade in Laos
    (which borders I Corps) moves there freely and back into I Corps, never into II Corps or into
    Cambodia (which borders neither its corps nor, for 5.3.1, counts as its home)."""
    from .test_ntnd_neutrality import at as campaign_at, cblank, us
    s = cblank()
    uid = us(s, "1613", "I")                 # Laos, next to I Corps (1713), II Corps (1714), Cambodia (1614)
    s = campaign_at(s, "a_move")
    dests = _moves(s, "allied", uid)
    regions = {(M.hexes[h].country, M.hexes[h].corps) for h in dests}
    assert regions == {("LA", None), ("SV", "I")}
    assert "1713" in dests and "1714" not in dests and "1614" not in dests
    s = blank()                              # Tet: Laos is closed to Allied ground units (10 not in force)
    uid = us(s, "1713", "I")
    s = at(s, "a_move")
    assert {M.hexes[h].country for h in _moves(s, "allied", uid)} == {"SV"}


# --------------------------------------------------------------------------- 5.5 / 5.6.1

def test_ntnd_5_5_independent_units_enter_at_a_corps_headquarters_and_move_freely():
    s = blank()
    s["turn"] = 1
    s["units"]["us-199"].update(status="sched", arrive=1)
    s = at(s, "a_reinforce")
    assert [loc for u, loc in _allied_places(s) if u == "us-199"] == ["1227", "1424", "1810", "2121"]
    s, _ = play(s, "allied", cmd("place", unit="us-199", location="1424"))
    s = at(s, "a_move")
    assert {"III", "IV"} <= {M.hexes[h].corps for h in _moves(s, "allied", "us-199")}


def test_ntnd_5_6_1_south_vietnamese_militia_are_placed_at_once_in_a_town_held_by_a_south_vietnamese_unit():
    s = blank()
    put(s, "arvn-1div", "1609")             # Hue: a city held by an ARVN division
    put(s, "us-1-4", "1716")                # Pleiku: a town held by a U.S. unit only
    put(s, "arvn-abn-1", "1813")            # an ARVN unit outside any town
    s = at(s, "a_reinforce")
    s["rp"] = {"SV": 1}
    militia = [(u, loc) for u, loc in _allied_places(s) if s["units"][u]["type"] == "arvn_militia"]
    assert militia and {loc for _, loc in militia} == {"1609"}
    uid, loc = militia[0]
    s, _ = play(s, "allied", cmd("place", unit=uid, location=loc))
    assert s["units"][uid]["status"] == "map" and s["units"][uid]["loc"] == "1609"


# --------------------------------------------------------------------------- 6.1.2 / 6.1.4 / 6.2.1

def test_ntnd_6_1_2_a_cadre_next_to_a_supply_unit_is_promoted_to_a_sapper_one_supply_one_promotion():
    s = blank()
    put(s, "vc-cadre-1", "1812")
    put(s, "vc-cadre-2", "1812")
    sup = put(s, "sup-ashau", "1813")                    # adjacent, not in the hex
    s = at(s, "c_ops")
    assert ("vc-cadre-1", sup, "sapper") in _promotions(s)
    s, _ = play(s, "communist", cmd("promote", piece="vc-cadre-1", supply=sup, to="sapper"))
    assert s["units"]["vc-cadre-1"]["status"] == "mix" and s["units"][sup]["status"] == "mix"
    assert sorted(x["type"] for x in s["units"].values() if x["loc"] == "1812" and x["status"] == "map") \
        == ["vc_cadre", "vc_sapper"]
    assert _promotions(s) == []                          # the supply unit is spent: one promotion


def test_ntnd_6_1_4_no_promotion_beyond_the_counter_mix():
    s = blank()
    put(s, "vc-cadre-1", "1812")
    put(s, "sup-ashau", "1812")
    sappers = [u for u, x in sorted(s["units"].items()) if x["type"] == "vc_sapper"]
    for u in sappers:
        put(s, u, "1610")                                # every sapper counter in play
    s = at(s, "c_ops")
    assert {to for _, _, to in _promotions(s)} == {"regiment"}
    for u in sappers[:1]:
        s["units"][u].update(status="mix", loc=None)
    s = at(s, "c_ops")
    assert {to for _, _, to in _promotions(s)} == {"regiment", "sapper"}


def test_ntnd_6_2_1_inverted_units_neither_attack_nor_score_towns():
    s = blank()
    put(s, "us-1-4", "1714")
    mid = hide(s, ["vc-dak-to"], "1814")
    put(s, "nva-320", "1815")
    s = at(s, "c_move")
    s, _ = play(s, "communist", done())
    attackers = {a for c in legal(s, "communist") if c.ntnd.WhichOneof("action") == "attack"
                 for a in c.ntnd.attack.attackers}
    assert "vc-dak-to" not in attackers and mid not in attackers
    scored = {}
    for face_up in (True, False):
        s = blank()
        (put if face_up else lambda s, u, h: hide(s, [u], h))(s, "vc-sgn-2", "1609")   # Hue
        pp = s["pp"]
        s = at(s, "c_politics")
        scored[face_up] = pp - s["pp"]
    assert scored[True] > 0 and scored[False] == 0
