"""NTND 10 (neutral states), 8.9.4-8.9.5, 19.3.3 and 28.11 (the secret war in Laos) in the campaign:
every outcome through the game's path (flow.enter/advance, NtndRuleset.apply of offered commands)."""
from __future__ import annotations

from afteraction.engine.games.ntnd.combat import aftermath, battles
from afteraction.engine.games.ntnd.politics import hearts
from afteraction.engine.games.ntnd.movement import ground as movement, reach
from afteraction.engine.games.ntnd.movement import national
from afteraction.engine.games.ntnd.movement import zones
from afteraction.engine.games.ntnd.phases import FLOW

_advance, _enter = FLOW.advance, FLOW.enter
from afteraction.engine.games.ntnd.rules import cmd
from afteraction.engine.games.ntnd.sequence.turns import INDEX, turn_label
from afteraction.engine.games.ntnd.components.scenarios import initial_state
from afteraction.engine.ruleset import Context

from .mapplay import RS, legal, play
from .test_ntnd_rules import blank, hide, put

SV_I, LA_NEXT = "1408", "1308"       # I Corps clear hex and the Laotian mountain hex next to it
NV_HEX = "1407"                      # North Vietnam, next to 1408
SV_IV, SVAY_RIENG = "1124", "1123"   # IV Corps swamp hex and the Cambodian town next to it


def cblank(scenario: str = "campaign", turn: int = 1) -> dict:
    """The campaign state at ``turn`` with every unit off the map (Communist units in the mix, Allied
    scheduled far ahead); Laos and Cambodia neutral, their Hearts and Minds markers neutral. Turn 1
    (March/April 1965) is not a monsoon turn: full allowances."""
    s = initial_state(scenario, Context.for_tests())
    s["markers"] = {}
    for u in s["units"].values():
        u.update(loc=None, inv=False, mk=None)
        u["status"] = "mix" if u["side"] == "communist" or u["status"] == "mix" else "sched"
        if u["side"] == "allied":
            u["arrive"] = 99
    s["turn"] = turn
    s["turn_label"] = turn_label(s["scenario"]["turns"], turn)
    return s


def past_policy(s: dict) -> dict:
    """The campaign's reinforcement phase opens with the Allied policy step (24, 4.5.2, 23.3): end it
    (nothing declared) to reach 10.5.2's coup."""
    while s["decision"] and s["decision"]["kind"] == "policy":
        s, _ = play(s, "allied", cmd("done"))
    return s


def at(s: dict, phase: str, faces=None) -> dict:
    s["step"] = INDEX[phase]
    s["battle"] = None
    s["decision"] = None
    ctx = Context.for_tests(faces=faces)
    _enter(s, ctx)
    _advance(s, ctx)
    s["_events"] = [e for e, _ in ctx.events]
    return s


def us(s: dict, loc: str, corps: str = "I") -> str:
    uid = "us-1-1"
    put(s, uid, loc)
    s["units"][uid]["corps"] = corps
    return uid


def kinds(events, t="neutrality"):
    return [e for e in events if e["t"] == t]


def move(s, seat, piece, path, faces=None):
    return play(s, seat, cmd("move", piece=piece, path=path), faces=faces)


# --- 10.1 / 10.2 / 10.2.1 ------------------------------------------------------------------

def test_ntnd_10_1_laos_and_cambodia_begin_neutral_in_the_campaign():
    s = initial_state("campaign_short", Context.for_tests())
    assert s["neutral"] == ["CA", "LA"] and "neutrality" not in s
    t = initial_state("tet", Context.for_tests())
    assert t["neutral"] == ["CA", "LA"]


def test_ntnd_10_2_allied_unit_crossing_into_laos_is_charged_at_once():
    s = cblank()
    uid = us(s, SV_I)
    s = at(s, "a_move")
    s, ev = move(s, "allied", uid, [LA_NEXT], faces=[4])
    (v,) = kinds(ev)
    assert (v["country"], v["event"], v["side"], v["rule"]) == ("LA", "violated", "allied", "NTND 10.2")
    (pp,) = kinds(ev, "pp")
    assert (pp["pp"], pp["rule"]) == (-4, "NTND 10.2.1")
    assert hearts.control(s, "LA") == "pro_communist"   # 10.2.1: one box farther from Allied control


def test_ntnd_10_2_tet_keeps_allied_units_out_of_laos():
    s = blank()
    uid = next(u["id"] for u in s["units"].values() if u["type"] == "us_infantry_brigade")
    put(s, uid, SV_I)
    s["units"][uid]["corps"] = "I"
    assert LA_NEXT not in reach.reachable(s, uid)


def test_ntnd_10_2_1_communist_violation_scores_for_the_allies_and_moves_the_marker_toward_them():
    s = cblank()
    put(s, "nva-304", NV_HEX)
    s = at(s, "c_move")
    s, ev = move(s, "communist", "nva-304", [LA_NEXT], faces=[3])
    (pp,) = kinds(ev, "pp")
    assert pp["pp"] == 3 and hearts.control(s, "LA") == "pro_allied"


def test_ntnd_10_2_1_the_marker_stays_if_the_violator_controls_the_country():
    s = cblank()
    s["hm"]["LA"] = "allied_control"
    uid = us(s, SV_I)
    s = at(s, "a_move")
    s, ev = move(s, "allied", uid, [LA_NEXT], faces=[2])
    assert kinds(ev, "pp")[0]["pp"] == -2 and hearts.control(s, "LA") == "allied_control" and not kinds(ev, "hearts")


def test_ntnd_23_5_after_a_peace_party_win_a_us_violation_costs_double():
    s = cblank()
    s["elections"] = [{"turn": 23, "year": 1968, "won": "peace"}]      # elections.py's record
    uid = us(s, SV_I)
    s = at(s, "a_move")
    s, ev = move(s, "allied", uid, [LA_NEXT], faces=[2])
    (pp,) = kinds(ev, "pp")
    assert pp["pp"] == -4 and "23.5" in pp["rule"]                      # 2 x the die (10.2.1)
    t = cblank()
    uid = us(t, SV_I)
    t = at(t, "a_move")
    t, ev = move(t, "allied", uid, [LA_NEXT], faces=[2])
    assert kinds(ev, "pp")[0]["pp"] == -2                               # no peace party: the die once


def test_ntnd_10_2_3_charged_once_a_turn_and_each_turn_the_violation_goes_on():
    s = cblank()
    a = us(s, SV_I)
    b = put(s, "us-2-1", "1409")
    s["units"][b]["corps"] = "I"
    s = at(s, "a_move")
    s, ev1 = move(s, "allied", a, [LA_NEXT], faces=[5])
    s, ev2 = move(s, "allied", b, ["1309"], faces=[5])
    s, ev3 = play(s, "allied", cmd("done"), faces=[5])
    assert len(kinds(ev1)) == 1 and not kinds(ev2) and not kinds(ev3)        # once this turn
    s["turn"] += 1
    s = at(s, "a_move")
    s, ev = play(s, "allied", cmd("done"), faces=[1])                       # 10.2.2: they remained
    (v,) = kinds(ev)
    assert v["rule"] == "NTND 10.2.2" and kinds(ev, "pp")[0]["pp"] == -1


# --- 10.2.2 / 19.3.3: retreated and revealed units ----------------------------------------------

def test_ntnd_10_2_2_a_unit_that_retreated_into_laos_is_charged_only_if_it_stays():
    s = cblank()
    uid = us(s, LA_NEXT)                      # as after a retreat (19.3.3): no charge for being put there
    s = at(s, "a_move")
    assert not kinds(s["_events"])
    s, ev = move(s, "allied", uid, [SV_I])
    s, ev2 = play(s, "allied", cmd("done"))
    assert not kinds(ev) and not kinds(ev2)   # it left on its next movement phase: no violation
    s = cblank()
    uid = us(s, LA_NEXT)
    s = at(s, "a_move")
    s, ev = play(s, "allied", cmd("done"), faces=[6])
    assert kinds(ev)[0]["rule"] == "NTND 10.2.2" and kinds(ev, "pp")[0]["pp"] == -6


def test_ntnd_19_3_3_allied_units_may_retreat_into_laos_in_the_campaign():
    s = cblank()
    uid = us(s, SV_I)
    assert LA_NEXT in aftermath.retreat_destinations(s, uid) and NV_HEX in aftermath.retreat_destinations(s, uid)
    t = blank()
    tid = next(u["id"] for u in t["units"].values() if u["type"] == "us_infantry_brigade")
    put(t, tid, SV_I)
    assert LA_NEXT not in aftermath.retreat_destinations(t, tid)


def test_ntnd_10_2_2_an_inverted_stack_in_laos_charges_nothing_and_reveals_nothing():
    """Leak test: an inverted marker holding an NVA division and one holding a dummy make the same
    move into Laos and stay there: the Allied seat's public events are the same (no violation, no
    points: 10.2 is made by face-up units only)."""
    streams = []
    for inside in ("nva-304", "communist-dummy-1"):
        s = cblank()
        mid = hide(s, [inside], NV_HEX)
        s = at(s, "c_move")
        ctx = Context.for_tests(faces=[6, 6, 6])
        s = RS.apply(s, "communist", cmd("move", piece=mid, path=[LA_NEXT]), ctx)
        ctx2 = Context.for_tests(faces=[6, 6, 6])
        s = RS.apply(s, "communist", cmd("done"), ctx2)
        public = [e for e, to in ctx.events + ctx2.events if to is None]
        assert not kinds(public) and not kinds(public, "pp")
        streams.append([{k: v for k, v in e.items() if k not in ("seq",)} for e in public])
    assert streams[0] == streams[1]


def test_ntnd_10_2_2_communist_units_revealed_in_laos_must_reinvert_or_leave():
    s = cblank()
    put(s, "nva-304", LA_NEXT)                # face up there after an Allied flip (8.8.2.1, 19.1.2)
    s = at(s, "c_move")
    s, ev = play(s, "communist", cmd("done"), faces=[2])   # end of movement (then announcements)
    s, ev2 = play(s, "communist", cmd("done"), faces=[2])
    v = kinds(ev + ev2)
    assert v and v[0]["rule"] == "NTND 10.2.2" and v[0]["side"] == "communist"


# --- 10.2.3.1 / 28.11.1 / 8.9.4 / 8.9.5 ----------------------------------------------------------

def test_ntnd_10_2_3_1_green_berets_and_the_thai_333_operate_in_laos_without_a_violation():
    s = cblank()
    put(s, "thai-333", SV_I)
    s["units"]["thai-333"]["corps"] = "I"
    s = at(s, "a_move")
    s, ev = move(s, "allied", "thai-333", [LA_NEXT])
    s, ev2 = play(s, "allied", cmd("done"))
    assert not kinds(ev + ev2) and not kinds(ev + ev2, "pp")


def test_ntnd_28_11_1_secret_war_units_free_in_laos_but_not_in_cambodia():
    from afteraction.engine.games.ntnd.movement.neutrality import violates
    s = cblank()
    put(s, "thai-333", LA_NEXT)
    put(s, "us-gb-1", LA_NEXT)
    assert not violates(s, "thai-333", "LA") and not violates(s, "us-gb-1", "LA")
    assert violates(s, "thai-333", "CA") and violates(s, "us-gb-1", "CA")


def test_ntnd_8_9_4_face_up_nva_charged_supply_units_never():
    s = cblank()
    put(s, "sup-hanoi", NV_HEX)
    s = at(s, "c_move")
    s, ev = move(s, "communist", "sup-hanoi", [LA_NEXT])
    assert not kinds(ev) and not kinds(ev, "pp")
    put(s, "nva-304", NV_HEX)
    s, ev = move(s, "communist", "nva-304", [LA_NEXT], faces=[4])
    assert kinds(ev)[0]["side"] == "communist"


def test_ntnd_8_9_5_no_points_for_entering_a_country_that_joined_the_allies():
    s = cblank()
    s["neutral"] = ["CA"]
    uid = us(s, SV_I)
    s = at(s, "a_move")
    s, ev = move(s, "allied", uid, [LA_NEXT])
    s, ev2 = play(s, "allied", cmd("done"))
    assert not kinds(ev + ev2, "pp")


# --- 10.3 / 10.4 ---------------------------------------------------------------------------

def test_ntnd_10_3_1_cambodian_units_cannot_move_or_attack_while_neutral():
    s = cblank()
    put(s, "khmer-1", "0922")
    put(s, "kr-regiment-1", "0921")
    assert reach.reachable(s, "khmer-1") == {}
    assert not [t for t, g in battles.attack_options(s, "allied") if "khmer-1" in g]
    s["neutral"] = ["LA"]                      # joined the Allies: full control (10.5.1)
    assert reach.reachable(s, "khmer-1") and [t for t, g in battles.attack_options(s, "allied") if "khmer-1" in g]


def test_ntnd_10_3_2_laotian_units_move_only_inside_laos():
    s = cblank()
    put(s, "lao-2", "0909")
    dests = reach.reachable(s, "lao-2")
    assert dests and all(movement.load_map().country_of(d) == "LA" for d in dests)


def test_ntnd_10_3_3_pathet_lao_operate_in_laos_and_stay_there():
    s = cblank()
    put(s, "pl-reg-1", "1309")
    dests = reach.reachable(s, "pl-reg-1")
    assert dests and all(movement.load_map().country_of(d) == "LA" for d in dests)


def test_ntnd_10_4_laotian_units_attack_face_up_communists_in_laos():
    s = cblank()
    put(s, "lao-2", "0909")
    put(s, "nva-304", "0910")
    assert ("0910", ("lao-2",)) in battles.attack_options(s, "allied")


# --- 10.5.1 / 28.11.3 ----------------------------------------------------------------------

def test_ntnd_10_5_1_nva_entering_a_town_brings_cambodia_to_the_allies_two_boxes():
    s = cblank()
    put(s, "nva-304", SV_IV)
    s = at(s, "c_move")
    s, ev = move(s, "communist", "nva-304", [SVAY_RIENG], faces=[1])
    joined = [e for e in kinds(ev) if e["event"] == "joined"]
    assert joined and joined[0]["rule"] == "NTND 10.5.1" and "CA" not in s["neutral"]
    # 10.2.1 one box toward the Allies for the violation, then 10.5.1 two for NVA occupation
    assert hearts.control(s, "CA") == "allied_control"
    assert s["neutrality"]["joined"]["CA"]["side"] == "allied"


def test_ntnd_10_5_1_guerrilla_attack_on_a_neutral_unit_one_box():
    s = cblank()
    put(s, "khmer-2", "0418")
    put(s, "kr-regiment-1", "0419")
    s = at(s, "c_move")
    s, _ = play(s, "communist", cmd("done"))
    s, ev = play(s, "communist", cmd("attack", target="0418", attackers=["kr-regiment-1"]))
    s, ev = play(s, "communist", cmd("done"), faces=[3, 3])
    evs = ev
    if s["decision"] and s["decision"]["kind"] == "reaction":
        s, ev2 = play(s, "allied", cmd("done"), faces=[3, 3])
        evs = ev + ev2
    assert [e for e in kinds(evs) if e["event"] == "joined"] and hearts.control(s, "CA") == "pro_allied"


def test_ntnd_10_5_1_units_revealed_by_allied_action_do_not_count():
    s = cblank()
    put(s, "nva-304", SVAY_RIENG)             # face up in the town after an Allied flip: no join
    s = at(s, "c_move")
    assert "CA" in s["neutral"]


def test_ntnd_28_11_3_over_10_5_1_one_nva_unit_a_turn_attacks_a_laotian_unit_without_ending_neutrality():
    """10.5.1 ("attacks any neutral unit ... that country immediately joins the Allies") against
    28.11.3 ("up to one North Vietnamese unit (any type) can attack in Laos per turn without violating
    neutrality"): 28.11.3 governs an attack on a Laotian unit (docs/rules/ntnd.md "Neutrality in the
    campaign": the special case of the Secret War in Laos over the general rule; its sentence follows
    Pathet Lao attacks on Laotian Government units). The turn's first NVA attack is exempt; the second,
    declared in the same combat phase, brings Laos in on the Allied side. Both through the game's path."""
    s = cblank()
    put(s, "lao-2", "0909")
    put(s, "lao-3", "0907")
    put(s, "nva-304", "0910")
    put(s, "nva-308", "0908")
    s = at(s, "c_move")
    s, _ = play(s, "communist", cmd("done"))
    s, _ = play(s, "communist", cmd("attack", target="0909", attackers=["nva-304"]))
    s, _ = play(s, "communist", cmd("attack", target="0907", attackers=["nva-308"]))
    s, evs = play(s, "communist", cmd("done"), faces=[6, 1])
    first = [(e["rule"], e["event"]) for e in kinds(evs) if e["rule"] != "NTND 10.2.2"]
    assert first == [("NTND 28.11.3", "exempt")] and "LA" in s["neutral"]       # the first battle: exempt
    while s["decision"] and s["decision"]["kind"] in ("supply", "reaction", "losses", "retreat", "advance"):
        seat = s["decision"]["seat"]
        s, ev = play(s, seat, legal(s, seat)[0], faces=[6, 1])
        evs += ev
    joined = [e for e in kinds(evs) if e["event"] == "joined"]
    assert [(e["rule"], e["by"]) for e in joined] == [("NTND 10.5.1", "attack on 0907")]
    assert "LA" not in s["neutral"] and s["neutrality"]["joined"]["LA"]["side"] == "allied"


# --- 10.5.2 coup -------------------------------------------------------------------------------

def test_ntnd_10_5_2_allied_coup_costs_five_times_the_dice_unless_controlled():
    s = past_policy(at(cblank(), "a_reinforce"))
    assert s["decision"]["kind"] == "coup"
    assert cmd("coup", country="LA") in legal(s, "allied")
    s, ev = play(s, "allied", cmd("coup", country="LA"), faces=[3, 4])
    assert kinds(ev, "pp")[0]["pp"] == -35 and s["neutral"] == ["CA"] and s["decision"]["kind"] == "coup"
    s, _ = play(s, "allied", cmd("done"))
    assert s["decision"]["kind"] == "reinforce"
    t = cblank()
    t["hm"]["CA"] = "allied_control"
    t = past_policy(at(t, "a_reinforce"))
    t, ev = play(t, "allied", cmd("coup", country="CA"), faces=[3, 4])
    assert kinds(ev, "pp")[0]["pp"] == -14 and "CA" not in t["neutral"]


def test_ntnd_10_5_2_no_coup_offered_in_tet():
    s = at(blank(), "a_reinforce")
    assert s["decision"]["kind"] != "coup"


# --- 10.6 / 10.7 / 10.8 ------------------------------------------------------------------------

def test_ntnd_10_6_a_conquered_country_loses_its_units_for_good():
    s = cblank()
    s["neutral"] = ["LA"]
    s["neutrality"] = {"charged": {}, "joined": {"CA": {"side": "allied", "turn": 1, "rule": "NTND 10.5.2"}},
                       "conquered": {}, "nva_attack": 0, "nv_entered": 0}
    m = movement.load_map()
    towns = sorted(h for h, x in m.hexes.items() if x.country == "CA" and x.town)
    pool = sorted(u["id"] for u in s["units"].values() if u["side"] == "communist" and u["type"] in (
        "nva_division", "kr_regiment", "pl_regiment", "vc_regiment"))
    for h, uid in zip(towns, pool):
        put(s, uid, h)
    s = at(s, "a_combat")
    s, ev = play(s, "allied", cmd("done"))
    assert s["neutrality"]["conquered"] == {"CA": 1}                      # at the end of the combat phase
    khmer = [u for u in s["units"].values() if u["type"].startswith("khmer")]
    assert khmer and all(u["status"] == "out" for u in khmer)


def test_ntnd_10_7_china_is_never_open_to_allied_ground_units():
    s = cblank()
    assert national.may_enter(s, [movement.load_counters().type("us_infantry_brigade")], "allied", None,
                              "CHINA").startswith("NTND 10.7")


def test_ntnd_10_8_invading_north_vietnam_costs_ten_a_turn_and_rolls_for_aid():
    s = cblank()
    uid = us(s, SV_I)
    s = at(s, "a_move")
    s, ev = move(s, "allied", uid, [NV_HEX], faces=[3, 3])
    pp = kinds(ev, "pp")
    assert pp[0]["pp"] == -10 and pp[0]["rule"] == "NTND 10.8"
    rolls = [e for e in kinds(ev, "aid") if e["event"] == "roll"]
    assert [r["total"] for r in rolls] == [5, 5] and all(r["rule"] == "NTND 27.1.2" for r in rolls)
    assert set(s["aid"]["begun"]) == {"china", "soviet"}      # 3 + 2 = 5: aid begins (27.1.2)
    s, ev = play(s, "allied", cmd("done"))
    assert not kinds(ev, "pp")                                # once a turn
    s["turn"] += 1
    s = at(s, "a_move")
    s, ev = play(s, "allied", cmd("done"))
    assert kinds(ev, "pp")[0]["pp"] == -10                    # it remained


def test_ntnd_10_5_1_an_nva_ambush_of_a_laotian_unit_brings_laos_to_the_allies():
    s = cblank()
    put(s, "lao-2", "0909")
    mid = hide(s, ["nva-304", "nva-308"], "1010")
    s = at(s, "a_move")
    s, _ = move(s, "allied", "lao-2", ["0910"])
    assert s["decision"]["kind"] == "ambush"
    s, ev = play(s, "communist", cmd("ambush", markers=[mid]), faces=[3, 3, 3, 3])
    joined = [e for e in kinds(ev) if e["event"] == "joined"]
    assert joined and "LA" not in s["neutral"] and hearts.control(s, "LA") == "allied_control"


def test_ntnd_28_11_4_laotian_guard_only_between_luang_prabang_and_vientiane():
    s = cblank()
    put(s, "lao-guard", "LUANG_PRABANG")
    assert set(reach.reachable(s, "lao-guard")) == {"VIENTIANE"}
    put(s, "lao-guard", "VIENTIANE")
    assert set(reach.reachable(s, "lao-guard")) == {"LUANG_PRABANG"}
    put(s, "lao-1", "VIENTIANE")
    assert len(reach.reachable(s, "lao-1")) > 1                 # other Laotian units go anywhere in Laos


def test_ntnd_28_11_2_laotian_rangers_attack_inverted_communists_in_laos():
    # on the map: 19.1.2 turns the stack face up next to a ranger, not next to Laotian infantry (10.3.2)
    s = cblank()
    put(s, "lao-2", "0909")
    mid = hide(s, ["pl-reg-1"], "0910")
    s = at(s, "a_combat")
    assert mid in s["markers"] and not any(tg == "0910" for tg, _ in battles.attack_options(s, "allied"))
    s = cblank()
    put(s, "lao-rgr-1", "0909")
    mid = hide(s, ["pl-reg-1"], "0910")
    s = at(s, "a_combat")
    assert mid not in s["markers"] and ("0910", ("lao-rgr-1",)) in battles.attack_options(s, "allied")
    # in an off-board zone (no 19.1.2 flip there): the ranger attacks the inverted stack, turned face up
    s = cblank()
    put(s, "lao-rgr-1", "PLAIN_OF_JARS")
    put(s, "lao-1", "PLAIN_OF_JARS")
    mid = hide(s, ["pl-reg-1"], "PLAIN_OF_JARS")
    s = at(s, "a_combat")
    assert ("PLAIN_OF_JARS", ("lao-rgr-1",)) in battles.attack_options(s, "allied")   # not the infantry
    s, ev = play(s, "allied", cmd("attack", target="PLAIN_OF_JARS", attackers=["lao-rgr-1"]), faces=[6, 1])
    flips = [e for e in ev if e["t"] == "flip"]
    assert flips and flips[0]["marker"] == mid and flips[0]["rule"] == "NTND 28.11.2"
    assert [e for e in ev if e["t"] == "battle"] and mid not in s["markers"]
    t = blank()                                   # Tet: inverted units in a zone are never attacked (19.1)
    lao = next(u["id"] for u in t["units"].values() if u["type"] == "lao_infantry_regiment")
    put(t, lao, "PLAIN_OF_JARS")
    hide(t, ["pl-reg-1"], "PLAIN_OF_JARS")
    assert not any(tg == "PLAIN_OF_JARS" for tg, _ in battles.attack_options(t, "allied"))
    put(t, "pl-regiment-2", "PLAIN_OF_JARS")      # the same zone with a face-up unit: attacked
    t["markers"] = {}
    t["units"]["pl-reg-1"].update(status="mix", loc=None, inv=False, mk=None)
    assert any(tg == "PLAIN_OF_JARS" for tg, _ in battles.attack_options(t, "allied"))


# --- 10.2 (third case), 8.5.1, 10.8: ZOCs across a border only when announced -----------------

def _zoc_moves(s):
    return [(c.ntnd.announce_zoc.country, c.ntnd.announce_zoc.extend) for c in legal(s, "allied")
            if c.ntnd.WhichOneof("action") == "announce_zoc"]


def test_ntnd_10_2_announcing_a_zoc_across_the_laotian_border_violates_it_each_turn():
    s = cblank()
    uid = us(s, SV_I)
    assert LA_NEXT not in zones.zoc_hexes(s, "allied")              # 8.5.1: not by default
    s = at(s, "a_move")
    assert ("LA", True) in _zoc_moves(s) and ("CA", True) in _zoc_moves(s)
    box = s["hm"]["LA"]
    s, ev = play(s, "allied", cmd("announce_zoc", country="LA", extend=True), faces=[4])
    (v,) = [e for e in kinds(ev) if e["event"] == "violated"]
    assert v["rule"] == "NTND 10.2" and v["by"] == "zoc extended"
    assert kinds(ev, "pp")[0]["pp"] == -4 and s["hm"]["LA"] != box      # 10.2.1: a die, the marker a box
    assert LA_NEXT in zones.zoc_hexes(s, "allied") and ("LA", False) in _zoc_moves(s)
    s, ev = play(s, "allied", cmd("done"))
    assert not kinds(ev, "pp")                                           # once a turn (10.2.3)
    s["turn"] += 1
    s = at(s, "a_move")
    s, ev = play(s, "allied", cmd("done"), faces=[2])
    assert kinds(ev, "pp")[0]["pp"] == -2                                # it stands: charged again
    s["turn"] += 1
    s = at(s, "a_move")
    s, _ = play(s, "allied", cmd("announce_zoc", country="LA", extend=False))
    assert LA_NEXT not in zones.zoc_hexes(s, "allied")
    s, ev = play(s, "allied", cmd("done"))
    assert not kinds(ev, "pp")
    del uid


def test_ntnd_10_8_a_zoc_extended_into_north_vietnam_is_an_invasion():
    s = cblank()
    us(s, SV_I)
    assert NV_HEX not in zones.zoc_hexes(s, "allied")               # technically neutral (8.5.1)
    t = initial_state("tet", Context.for_tests())
    uid = next(u for u in sorted(t["units"]) if t["units"][u]["side"] == "allied" and t["units"][u]["status"] == "map"
               and not t["units"][u]["inv"] and zones._type_facts(t["units"][u]["type"])[0])
    t["units"][uid]["loc"] = SV_I
    assert NV_HEX in zones.zoc_hexes(t, "allied")                    # Tet: the map, as ever
    s = at(s, "a_move")
    s, ev = play(s, "allied", cmd("announce_zoc", country="NV", extend=True), faces=[3, 3])
    pp = kinds(ev, "pp")
    assert pp[0]["pp"] == -10 and pp[0]["rule"] == "NTND 10.8"
    assert not [e for e in kinds(ev, "aid") if e["event"] == "roll"]    # 27.1.2: only units entering
    assert NV_HEX in zones.zoc_hexes(s, "allied")
    assert ("NV", True) not in [(c.ntnd.announce_zoc.country, c.ntnd.announce_zoc.extend)
                                for c in legal(s, "allied") if c.ntnd.WhichOneof("action") == "announce_zoc"]
    s = at(s, "c_move")
    assert not [c for c in legal(s, "communist") if c.ntnd.WhichOneof("action") == "announce_zoc"
                and c.ntnd.announce_zoc.country == "NV"]                # North Vietnam is his own
