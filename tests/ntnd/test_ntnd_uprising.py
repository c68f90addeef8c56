"""NTND 26 National Uprising through the Communist Recruitment phase of the campaign (sealed
declaration, quotas, placements) and the Allied Reinforcement phase (26.7)."""
from __future__ import annotations

import pytest

from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.politics import uprising
from afteraction.engine.games.ntnd.sequence.answers import cmd
from afteraction.engine.games.ntnd.decisions import DECISIONS
from afteraction.engine.games.ntnd.components.map import load_map
from afteraction.engine.ruleset import Context

from .campaign_states import RS, answer, at_phase, camp, of


def _at_recruit(turn):
    s = camp("campaign", turn)
    # the uprising's own rules: Communist aid (27) off, so that its roll in a roll turn (12) and its
    # decision do not come between the declaration and the recruits
    s["scenario"]["features"] = [f for f in s["scenario"]["features"] if f != "aid"]
    ev = at_phase(s, "c_recruit", faces=[6] * 20)
    return s, ev


def test_ntnd_26_1_not_before_january_february_1967():
    from afteraction.engine.games.ntnd.components.campaign_data import load_campaign
    assert uprising.earliest_turn(camp("campaign")) == load_campaign("campaign")["national_uprising"]["earliest_turn"]
    s, _ = _at_recruit(11)
    assert RS.pending(s).kind == "recruit" and not uprising.can_declare(s)
    s, _ = _at_recruit(12)
    d = RS.pending(s)
    assert (d.seat, d.kind) == ("communist", "uprising")
    assert DECISIONS.kind_of(d).seals("declare_uprising")              # the Communist answer is sealed
    assert [c.ntnd.WhichOneof("action") for c in RS.legal_commands(s, "communist")] == ["declare_uprising", "done"]


def test_ntnd_26_1_declining_and_declaring_once_per_game():
    s, _ = _at_recruit(12)
    answer(s, "communist", cmd("done"))
    assert RS.pending(s).kind == "recruit" and not uprising.declared(s)
    s, _ = _at_recruit(13)
    ev = answer(s, "communist", cmd("declare_uprising"))
    assert of(ev, "uprising")[0]["declared"] == 13 and uprising.active(s) and uprising.turns_in(s) == 1
    s["turn"] = 20
    assert not uprising.can_declare(s)
    s["phase"]["uprising_q"] = True                                  # asked again: refused, nothing changes
    s["decision"] = uprising.decision(s)
    before = repr(s)
    with pytest.raises(Rejection) as e:
        DECISIONS.answer(s, RS.pending(s), "communist", cmd("declare_uprising"), Context.for_tests())
    assert e.value.code == "ILLEGAL_DECLARATION" and repr(s) == before


def test_ntnd_26_2_26_3_26_4_first_two_turns_no_basic_cadres_three_cadres_and_a_regiment_per_corps():
    s, _ = _at_recruit(12)
    s["phase"]["extra"] = {"II": 1}                                   # 4.5.1 / 7.4.1 recruits of the turn
    answer(s, "communist", cmd("declare_uprising"))
    assert s["phase"]["extra"] == {"II": 1}                            # 26.4: still received
    assert s["phase"]["cadres"] == 0 and s["phase"]["nva"] == 2       # 26.2: NVA recruits still come
    assert s["phase"]["uprising"] == {c: {"cadres": 3, "regiments": 1} for c in ("I", "II", "III", "IV")}
    legal = [c.ntnd.place for c in RS.legal_commands(s, "communist") if c.ntnd.WhichOneof("action") == "place"]
    m = load_map()
    regs = {m.corps_of(p.location) for p in legal if p.kind == "vc_regiment"}
    assert regs == {"I", "II", "III", "IV"}
    p = next(p for p in legal if p.kind == "vc_regiment" and m.corps_of(p.location) == "III" and not p.inverted)
    ev = answer(s, "communist", cmd("place", kind="vc_regiment", nationality="VC", location=p.location, inverted=False))
    assert any(e["t"] == "recruit" and e["type"] == "vc_regiment" and e["rule"] == "NTND 26.3" for e in ev)
    assert s["phase"]["uprising"]["III"] == {"cadres": 3, "regiments": 0}
    with pytest.raises(Rejection):
        DECISIONS.answer(s, RS.pending(s), "communist", cmd("place", kind="vc_regiment", nationality="VC",
                                                           location=p.location, inverted=False), Context.for_tests())


def test_ntnd_26_3_third_and_fourth_turns_one_regiment_or_two_cadres():
    s = camp("campaign", 14)
    s["uprising"] = {"turn": 12}
    at_phase(s, "c_recruit", faces=[6] * 20)
    assert uprising.turns_in(s) == 3
    q = s["phase"]["uprising"]["I"]
    assert q == {"cadres": 2, "regiments": 1, "either": True}
    m = load_map()
    legal = [c.ntnd.place for c in RS.legal_commands(s, "communist") if c.ntnd.WhichOneof("action") == "place"]
    p = next(p for p in legal if p.kind == "cadre" and p.nationality == "VC" and m.corps_of(p.location) == "I")
    answer(s, "communist", cmd("place", kind="cadre", nationality="VC", location=p.location, inverted=True))
    assert s["phase"]["uprising"]["I"]["regiments"] == 0 and s["phase"]["uprising"]["I"]["cadres"] == 1


def test_ntnd_26_6_the_uprising_lasts_four_turns():
    s = camp("campaign", 12)
    s["uprising"] = {"turn": 12}
    assert [uprising.turns_in(dict(s, turn=t)) for t in range(12, 18)] == [1, 2, 3, 4, 0, 0]
    s["turn"] = 16
    at_phase(s, "c_recruit", faces=[6] * 20)
    assert "uprising" not in s["phase"] and s["phase"]["cadres"] == 3


def test_ntnd_26_5_poor_recruitment_after_the_uprising():
    s = camp("campaign", 16)
    s["uprising"] = {"turn": 12}
    at_phase(s, "c_recruit", faces=[6] * 20)
    assert uprising.vc_basic_cap(s) == 1
    vc = lambda: [c for c in RS.legal_commands(s, "communist") if c.ntnd.WhichOneof("action") == "place"
                  and c.ntnd.place.kind == "cadre" and c.ntnd.place.nationality == "VC"]
    first = vc()[0].ntnd.place
    s["phase"]["extra"] = {}
    answer(s, "communist", cmd("place", kind="cadre", nationality="VC", location=first.location, inverted=True))
    assert s["phase"]["cadres"] == 2 and vc() == []                     # only one of three may be VC
    s2 = camp("campaign", 22)
    s2["uprising"] = {"turn": 12}
    assert uprising.vc_basic_cap(s2) == 2


def test_ntnd_26_7_rally_two_turns_after_the_declaration():
    s = camp("campaign", 14)
    s["uprising"] = {"turn": 12}
    ev = at_phase(s, "a_reinforce", faces=[4] + [1] * 20)
    r = [e for e in of(ev, "uprising") if e["rule"] == "NTND 26.7"]
    assert r and r[0]["rally"] == 4 and s["rp"]["SV"] == s["scenario"]["replacement_points"].get("SV", 0) + 4
    s = camp("campaign", 13)
    s["uprising"] = {"turn": 12}
    assert not [e for e in of(at_phase(s, "a_reinforce"), "uprising") if e["rule"] == "NTND 26.7"]


def test_ntnd_26_8_placement_rolls_in_an_allied_controlled_corps():
    s, _ = _at_recruit(12)
    s["hm"]["I"] = "allied_control"
    answer(s, "communist", cmd("declare_uprising"))
    m = load_map()
    legal = [c.ntnd.place for c in RS.legal_commands(s, "communist") if c.ntnd.WhichOneof("action") == "place"]
    p = next(p for p in legal if p.kind == "vc_regiment" and m.corps_of(p.location) == "I" and not p.inverted)
    ev = answer(s, "communist", cmd("place", kind="vc_regiment", nationality="VC", location=p.location,
                                    inverted=False), faces=[5])
    assert of(ev, "uprising-placement")[0]["placed"] is False
    assert not any(u["loc"] == p.location and u["type"] == "vc_regiment" for u in s["units"].values())
    assert s["phase"]["uprising"]["I"]["regiments"] == 0
    q = next(p for p in legal if p.kind == "cadre" and p.nationality == "VC" and m.corps_of(p.location) == "I"
             and not p.inverted)
    ev = answer(s, "communist", cmd("place", kind="cadre", nationality="VC", location=q.location, inverted=False),
                faces=[4])
    assert any(e["t"] == "recruit" and e["loc"] == q.location for e in ev)
    p2 = next(p for p in legal if p.kind == "vc_regiment" and m.corps_of(p.location) == "II" and not p.inverted)
    ev = answer(s, "communist", cmd("place", kind="vc_regiment", nationality="VC", location=p2.location,
                                    inverted=False), faces=[6])
    assert not [e for e in ev if e["t"] == "roll"]                     # II Corps not Allied controlled


def test_ntnd_4_1_7_the_division_cap_is_lifted_once_the_uprising_is_declared():
    s, _ = _at_recruit(12)
    answer(s, "communist", cmd("declare_uprising"))
    from afteraction.engine.games.ntnd.forces import recruitment
    n = 0
    for u in sorted(s["units"].values(), key=lambda u: u["id"]):
        if u["type"] == "nva_division" and n < 10:
            u.update(status="map", loc="HANOI")
            n += 1
    assert any(p["kind"] == "nva_division" for p in recruitment.place_options(s)) == \
        any(u["type"] == "nva_division" and u["status"] == "mix" for u in s["units"].values())


def test_ntnd_26_1_the_declaration_is_public_and_the_allied_view_shows_no_quota():
    s, _ = _at_recruit(12)
    ev = answer(s, "communist", cmd("declare_uprising"))
    assert of(ev, "uprising")                                          # public events
    for seat in ("allied", None):
        v = RS.view(s, seat)
        assert v["uprising"] == {"declared": 12, "turn_of_uprising": 1} and "quotas" not in v
    assert "uprising" in RS.view(s, "communist")["quotas"]


def test_ntnd_26_8_placement_rolls_under_full_vietnamization_not_after_its_reversal():
    for viet, rolled in (("full", True), ({"kind": "full", "reversed": True}, False)):
        s, _ = _at_recruit(12)
        s["vietnamization"] = viet
        answer(s, "communist", cmd("declare_uprising"))
        m = load_map()
        legal = [c.ntnd.place for c in RS.legal_commands(s, "communist") if c.ntnd.WhichOneof("action") == "place"]
        p = next(p for p in legal if p.kind == "vc_regiment" and m.corps_of(p.location) == "II" and not p.inverted)
        ev = answer(s, "communist", cmd("place", kind="vc_regiment", nationality="VC", location=p.location,
                                        inverted=False), faces=[2])
        assert bool([e for e in ev if e["t"] == "roll" and "26.8" in e["rule"]]) is rolled
        assert any(e["t"] == "recruit" and e["loc"] == p.location for e in ev)     # a 2 places it
