"""NTND rule 3, phase by phase, through the game's own path (a rule cited only by a
whole-game bot test is not tested): each phase of 3.1 and 3.2 is entered as the game enters it
(``mapplay.at``), its seat is asked what the rule says that player does, and the answers are played
through ``NtndRuleset.legal_commands``/``apply`` as the referee plays them. Also the part-1 half of
3.1.5 / 8.8.1 (airmobile reaction; defensive ground support belongs to the air war) and 8.8.2.1."""
from __future__ import annotations

from afteraction.engine.games.ntnd.sequence.turns import INDEX

from .campaign_states import at_phase, camp
from .mapplay import at, attack_cmd, blank, cmd, done, legal, play, put


def _kinds(s, seat):
    return sorted({c.ntnd.WhichOneof("action") for c in legal(s, seat)})


def _of(events, t):
    return [e for e in events if e["t"] == t]


def _attacks(s, seat):
    return sorted((c.ntnd.attack.target, tuple(sorted(c.ntnd.attack.attackers))) for c in legal(s, seat)
                  if c.ntnd.WhichOneof("action") == "attack")


def _two_contacts():
    """Two Allied stacks in II Corps, each next to a face-up Communist unit of its own."""
    s = blank()
    put(s, "us-1-4", "1714")
    put(s, "vc-dak-to", "1814")
    put(s, "us-2-4", "1716")                   # Pleiku
    put(s, "nva-320", "1815")
    return s


# --------------------------------------------------------------------------- 3.1

def test_ntnd_3_1_1_the_communist_player_places_new_units_in_his_recruitment_phase():
    s = at(blank(), "c_recruit")
    assert s["decision"]["seat"] == "communist" and s["decision"]["kind"] == "recruit"
    assert _kinds(s, "allied") == []
    place = next(c for c in legal(s, "communist") if c.ntnd.WhichOneof("action") == "place"
                 and c.ntnd.place.kind == "cadre")
    on_map = sum(u["status"] == "map" for u in s["units"].values() if u["side"] == "communist")
    s, _ = play(s, "communist", place)
    assert sum(u["status"] == "map" for u in s["units"].values() if u["side"] == "communist") == on_map + 1


def test_ntnd_3_1_1_previously_eliminated_units_are_recruited_again():
    from afteraction.engine.games.ntnd.politics import victory as politics
    from afteraction.engine.ruleset import Context
    s = blank()
    cadres = sorted(u for u, x in s["units"].items() if x["type"] == "vc_cadre")
    for uid in cadres:
        put(s, uid, "1813")
    politics.eliminate(s, cadres[0], Context.for_tests(), "test")     # back to the mix (4.1)
    s = at(s, "c_recruit")
    place = next(c for c in legal(s, "communist") if c.ntnd.WhichOneof("action") == "place"
                 and c.ntnd.place.kind == "cadre" and c.ntnd.place.nationality == "VC")
    s, _ = play(s, "communist", place)
    # the eliminated counter was the only one in the mix: it is on the map again (under ntnd/5 renamed
    # when it left the mix, 4.4, so found by type: every VC cadre counter is on the map)
    assert [x["status"] for x in s["units"].values() if x["type"] == "vc_cadre"] == ["map"] * len(cadres)


def test_ntnd_3_1_3_operations_open_or_secret_promote_and_break_down():
    s = blank()
    put(s, "vc-cadre-1", "1812")
    put(s, "sup-ashau", "1812")
    put(s, "nva-320", "1813")                # I Corps: breaks down into VC units (6.1.3)
    s = at(s, "c_ops")
    assert s["decision"]["seat"] == "communist" and s["decision"]["kind"] == "operations"
    assert {"invert", "promote", "break_down"} <= set(_kinds(s, "communist"))
    s, _ = play(s, "communist", cmd("break_down", piece="nva-320"))
    assert s["units"]["nva-320"]["status"] == "mix"
    s, _ = play(s, "communist", cmd("promote", piece="vc-cadre-1", supply="sup-ashau", to="regiment"))
    assert s["units"]["vc-cadre-1"]["status"] == "mix"
    s, _ = play(s, "communist", cmd("invert", location="1812", units=[
        u for u, x in sorted(s["units"].items()) if x["status"] == "map" and x["loc"] == "1812"]))
    assert s["markers"] and all(not (x["loc"] == "1812" and x["status"] == "map" and not x["inv"])
                                for x in s["units"].values())


def test_ntnd_3_1_4_the_communist_player_moves_then_announces_all_his_attacks():
    s = at(_two_contacts(), "c_move")
    assert s["decision"] == {**s["decision"], "seat": "communist", "kind": "move"}
    assert _attacks(s, "communist") == []                  # no attack while moving
    s, _ = play(s, "communist", done())
    assert s["decision"]["kind"] == "announce" and _kinds(s, "communist") == ["attack", "done"]
    assert _attacks(s, "communist") == [("1714", ("vc-dak-to",)), ("1716", ("nva-320",))]
    assert _kinds(s, "communist") and _kinds(s, "allied") == []
    s, _ = play(s, "communist", attack_cmd(s, "communist", "1714"))
    s, _ = play(s, "communist", attack_cmd(s, "communist", "1716"))
    assert sorted(a["target"] for a in s["attacks"]) == ["1714", "1716"]


def test_ntnd_3_1_5_and_8_8_1_the_allied_reaction_is_the_allied_seats_airmobile_move():
    """Part-1 half of 3.1.5 / 8.8.1: after the announcements the non-phasing Allied player may fly
    airmobile units to an announced target; the Communist seat is asked nothing meanwhile."""
    s = _two_contacts()
    put(s, "us-1-1cav", "1819")
    s = at(s, "c_move")
    s, _ = play(s, "communist", done())
    s, _ = play(s, "communist", attack_cmd(s, "communist", "1714"))
    s, _ = play(s, "communist", done())
    assert s["step"] == INDEX["a_reaction"] and s["decision"]["seat"] == "allied"
    assert legal(s, "communist") == []
    moves = sorted((c.ntnd.move.piece, tuple(c.ntnd.move.path)) for c in legal(s, "allied")
                   if c.ntnd.WhichOneof("action") == "move")
    assert moves == [("us-1-1cav", ("1714",))]              # only to the announced target (8.8.1)
    s, ev = play(s, "allied", cmd("move", piece="us-1-1cav", path=["1714"]), faces=[1, 1])
    assert s["units"]["us-1-1cav"]["loc"] == "1714"


def test_ntnd_3_1_6_the_communist_player_resolves_all_announced_combats():
    s = at(_two_contacts(), "c_move")
    s, _ = play(s, "communist", done())
    s, _ = play(s, "communist", attack_cmd(s, "communist", "1714"))
    s, _ = play(s, "communist", attack_cmd(s, "communist", "1716"))
    events = []
    s, ev = play(s, "communist", done(), faces=[1] * 8)
    events += ev
    while s["step"] <= INDEX["c_combat"] and s["decision"]:
        seat = s["decision"]["seat"]
        s, ev = play(s, seat, legal(s, seat)[-1], faces=[1] * 8)
        events += ev
    assert sorted(b["target"] for b in _of(events, "battle")) == ["1714", "1716"]
    assert s["step"] > INDEX["c_combat"] and s["attacks"] == []


# --------------------------------------------------------------------------- 3.2

def test_ntnd_3_2_1_the_allied_player_places_new_units_in_his_reinforcement_phase():
    s = blank()
    s["turn"] = 1
    s["units"]["us-4mar"].update(status="sched", arrive=1)
    put(s, "us-5mar", "1609")
    s = at(s, "a_reinforce")
    assert s["decision"]["seat"] == "allied" and s["decision"]["kind"] == "reinforce"
    assert legal(s, "communist") == []
    s, _ = play(s, "allied", cmd("place", unit="us-4mar", location="1810"))
    assert s["units"]["us-4mar"]["status"] == "map" and s["units"]["us-4mar"]["loc"] == "1810"


def test_ntnd_3_2_2_the_allied_hearts_and_minds_phase_spends_replacement_points_in_the_campaign():
    s = camp()
    at_phase(s, "a_hearts")
    assert s["decision"]["seat"] == "allied" and s["decision"]["kind"] in ("hearts", "corruption")
    s = at(blank(), "a_hearts")
    assert s["step"] > INDEX["a_hearts"] and (s["decision"] or {}).get("kind") not in ("hearts", "corruption")


def test_ntnd_3_2_3_allied_movement_announces_no_attacks():
    s = at(_two_contacts(), "a_move")
    assert s["decision"]["seat"] == "allied" and s["decision"]["kind"] == "move"
    s, _ = play(s, "allied", done())
    assert s["step"] > INDEX["a_move"] and s["attacks"] == []
    assert (s["decision"] or {}).get("kind") != "announce"


def test_ntnd_3_2_4_inverted_units_next_to_allied_units_may_move_one_hex_the_rest_are_flipped():
    from .test_ntnd_rules import hide
    s = blank()
    put(s, "us-1-4", "1714")
    stay = hide(s, ["vc-dak-to"], "1814")
    go = hide(s, ["nva-320"], "1713")
    s = at(s, "a_move")
    s, _ = play(s, "allied", done())
    assert s["step"] == INDEX["c_reaction"] and s["decision"]["seat"] == "communist"
    opts = sorted({(c.ntnd.move.piece, tuple(c.ntnd.move.path)) for c in legal(s, "communist")
                   if c.ntnd.WhichOneof("action") == "move"})
    assert {p for p, _ in opts} == {stay, go} and all(len(path) == 1 for _, path in opts)
    away = next(path[0] for p, path in opts if p == go and path[0] not in ("1713", "1714")
                and "1714" not in _nbrs(path[0]))
    s, _ = play(s, "communist", cmd("move", piece=go, path=[away]))
    s, ev = play(s, "communist", done())
    # 8.8.2.1: the stack still adjacent is turned face up; the one that moved away stays hidden
    assert stay not in s["markers"] and s["units"]["vc-dak-to"]["inv"] is False
    assert go in s["markers"] and s["units"]["nva-320"]["inv"] is True


def test_ntnd_8_8_2_1_inverted_units_still_adjacent_after_the_reaction_phase_are_flipped():
    from .test_ntnd_rules import hide
    s = blank()
    put(s, "us-1-4", "1714")
    mid = hide(s, ["vc-dak-to"], "1814")
    far = hide(s, ["nva-320"], "1307")
    s = at(s, "c_reaction")
    s, ev = play(s, "communist", done())
    assert mid not in s["markers"] and s["units"]["vc-dak-to"]["loc"] == "1814"
    assert not s["units"]["vc-dak-to"]["inv"] and far in s["markers"]
    assert s["step"] == INDEX["a_combat"] and attack_cmd(s, "allied", "1814") is not None


def test_ntnd_3_2_6_the_allied_player_resolves_his_combats_in_any_order():
    for first, second in (("1814", "1815"), ("1815", "1814")):
        s = _two_contacts()
        s = at(s, "a_combat")
        assert [t for t, _ in _attacks(s, "allied")] == ["1814", "1815"]
        s, ev = play(s, "allied", attack_cmd(s, "allied", first), faces=[1] * 8)
        assert [b["target"] for b in _of(ev, "battle")] == [first]
        while s["decision"] and s["decision"]["kind"] != "combat":
            seat = s["decision"]["seat"]
            s, _ = play(s, seat, legal(s, seat)[-1], faces=[1] * 8)
        s, ev = play(s, "allied", attack_cmd(s, "allied", second), faces=[1] * 8)
        assert [b["target"] for b in _of(ev, "battle")] == [second]


def _nbrs(h):
    from afteraction.engine.games.ntnd.components.map import load_map
    return load_map().hex_neighbours(h)
