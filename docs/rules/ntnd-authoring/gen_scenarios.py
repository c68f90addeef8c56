"""Writes the five NTND scenarios the preface (rule 2) names besides Tet and the campaign:
engine/games/ntnd/data/scenario_{rat,1975,1965_68,1968_72,1972_75}.json.

One source of truth: the Allied order of battle of a scenario starting on campaign turn T is the
campaign's (gen_campaign.py, imported, not copied): its set-up, plus every scheduled reinforcement
of turns before T, less every binding and historical withdrawal before T. The loader
(engine/games/ntnd/components/scenario_data.py) takes the schedule, withdrawals, elections, dated rules and
aid turns of the scenario's own turns from scenario_campaign.json at load time, renumbered from 1.
What this file authors is only what the campaign cannot give: where the units stand at a later
date (the Tet scenario's location when the unit stood there in 1968, else its campaign set-up
location, else the nearest free hex of its corps to the corps HQ, towns first), the Communist
set-up of 1972 and 1975, each scenario's turns, features, tracks and victory (scenarios.md).
    .venv/bin/python gen_scenarios.py [outdir]     (default: the engine's data folder)
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_campaign as GC  # noqa: E402  (its data; its __main__ writes the campaign files)
from fmtjson import dumps  # noqa: E402

from afteraction.engine.games.ntnd.components.map import load_map  # noqa: E402
from afteraction.engine.games.ntnd.components.pieces import load_counters  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else GC.DATA
TET = json.load(open(os.path.join(GC.DATA, "scenario_tet.json")))
GMAP, COUNTERS = load_map(), load_counters()
turn_of = GC.turn_of

POLITICAL = ["aid", "elections", "hearts_and_minds", "neutrality", "phoenix", "political_table", "random_events",
             "replacements", "sv_morale", "uprising", "vc_bases", "vietnamization", "withdrawals"]
MILITARY = ["air_war", "fleet", "montagnards", "special_units"]


# ------------------------------------------------------------------ the campaign's order of battle at a date

def allied_at(first: int) -> tuple[list[dict], list[dict]]:
    """(ground and naval units, air units) of the Allies at the start of campaign turn ``first``."""
    gone = {w["unit"] for w in GC.WITHDRAWALS if w["turn"] < first}
    gone |= {u for w in GC.US_WITHDRAWALS if w["turn"] < first for u in w["units"]}
    units = [dict(u) for u in GC.A if u["id"] not in gone]
    air = [dict(u) for u in GC.AIR if u["id"] not in gone]
    for w in GC.REINFORCEMENTS:
        if w["turn"] >= first:
            break
        for u in w["units"]:
            if u["id"] in gone:
                continue
            if u["enter"] == "air":
                air.append({"id": u["id"], "type": u["type"], "name": u["name"]})
                continue
            t = COUNTERS.type(u["type"])
            corps = None if (t.airmobile or t.stacking_class != "ground_combat") else u["enter"]
            if u["enter"] == "LA_zone":
                corps = "LA"
            units.append({"id": u["id"], "type": u["type"], "name": u["name"], "location": None, "corps": corps,
                          "enter": u["enter"]})
    return units, air


def _fits(placed: dict, loc: str, typ: str, side: str) -> bool:
    if GMAP.is_zone(loc):
        return True
    h = GMAP.hex(loc)
    saigon = h.town is not None and h.town.name == "Saigon"
    return COUNTERS.stacking_violations(placed.get(loc, []) + [typ], side, saigon=saigon) == ()


def _candidates(corps: str, typ: str) -> list[str]:
    """Hexes of a corps zone a unit of ``typ`` may stand on, towns first, nearest its HQ first."""
    t = COUNTERS.type(typ)
    hq = GMAP.corps_hq_of(corps).location
    out = []
    for hid in GMAP.hexes:
        h = GMAP.hex(hid)
        if h.country != "SV" or h.corps != corps or not h.is_land:
            continue
        if t.movement_class == "patrol_boat" and not (h.coastal or h.major_river):
            continue
        if typ == "us_green_beret" and h.town is not None:
            continue  # 15.1
        out.append(hid)
    return sorted(out, key=lambda x: (GMAP.hex(x).town is None, GMAP.distance(hq, x), x))


# where history put a unit at the Easter Offensive (first choice in a scenario starting in 1972): the new 3rd
# ARVN Division on the DMZ at Dong Ha, the 22nd at Tan Canh / Dak To
HISTORY_1972 = {"arvn-3div": "1408", "arvn-22div": "1714"}


def place_allied(first: int, communist: list[dict]) -> tuple[list[dict], list[dict], list[dict]]:
    units, air = allied_at(first)
    tet = {u["id"]: u for u in TET["setup"]["allied"]} if first >= 18 else {}
    history = HISTORY_1972 if GC.TURNS[first - 1]["year"] == 1972 else {}
    red = {u["location"] for u in communist if not GMAP.is_zone(u["location"])}
    placed: dict[str, list[str]] = {}
    out = []

    def ok(loc, u):
        if loc is None or (loc in red) or not _fits(placed, loc, u["type"], "allied"):
            return False
        if GMAP.is_zone(loc):
            return True
        c = u.get("corps")
        return c not in ("I", "II", "III", "IV") or GMAP.corps_of(loc) == c

    firebases, left_out = [], []
    for u in units:
        if u.get("enter") == "5.6.2":
            firebases.append(u)
            continue
        prefs = [history.get(u["id"]), tet.get(u["id"], {}).get("location"), u.get("location")]
        if u.get("enter") == "LA_zone":
            prefs.append("VIENTIANE")  # 28.6.1: Luang Prabang or Vientiane
        loc = next((p for p in prefs if ok(p, u)), None)
        if loc is None:
            corps = u.get("corps") or u.get("enter") or GMAP.corps_of(u["location"])
            loc = next((h for h in _candidates(corps, u["type"]) if ok(h, u)), None)
            assert loc is not None, (u, corps)
        placed.setdefault(loc, []).append(u["type"])
        out.append({"id": u["id"], "type": u["type"], "name": u["name"], "location": loc, "corps": u.get("corps")})
    for u in firebases:  # 5.6.2: with a non-militia ground combat unit of its nationality
        nat = COUNTERS.type(u["type"]).nationality
        nats = ("ROK", "ANZAC", "THAI") if nat == "SEATO" else (nat,)  # as recruitment.py reads 5.6.2
        pref = tet.get(u["id"], {}).get("location")
        hosts = [pref] + [o["location"] for o in out]
        loc = next((h for h in hosts if h and not GMAP.is_zone(h) and h not in red
                    and _fits(placed, h, u["type"], "allied")
                    and any(o["location"] == h and COUNTERS.type(o["type"]).nationality in nats
                            and COUNTERS.type(o["type"]).stacking_class == "ground_combat"
                            and COUNTERS.type(o["type"]).id != "arvn_militia" for o in out)), None)
        if loc is None:  # no unit of its nationality left to hold it (1972): not in the set-up
            left_out.append({"id": u["id"], "why": "5.6.2: no non-militia ground combat unit of its nationality "
                                                   "has room for it"})
            continue
        placed.setdefault(loc, []).append(u["type"])
        out.append({"id": u["id"], "type": u["type"], "name": u["name"], "location": loc, "corps": None})
    return out, air, left_out


# ------------------------------------------------------------------ the Communist set-ups (authored)

def co(uid, typ, name, loc, inverted):
    assert loc in GMAP.zones or loc in GMAP.hexes, loc
    assert not (inverted and not COUNTERS.type(typ).can_invert), uid
    return {"id": uid, "type": typ, **({} if name is None else {"name": name}), "location": loc,
            "inverted": inverted}


def numbered(typ, locs, start=1):
    return [co(f"{typ.replace('_', '-')}-{i}", typ, None, loc, True) for i, loc in enumerate(locs, start)]


def north_and_trail():
    """What stays in the North and on the trail in every 1972-75 set-up."""
    return [
        co("nva-sam-1", "nva_sam", "SAM regiment (Hanoi)", "HANOI", False),
        co("nva-sam-2", "nva_sam", "SAM regiment (Vinh)", "1104", False),
        co("nva-mig-1", "nva_interceptor", "921st Fighter Regt", "HANOI", False),
        co("nva-mig-2", "nva_interceptor", "923rd Fighter Regt", "HAIPHONG", False),
        co("sup-china", "communist_supply", "Chinese supply", "CHINA", False),
        co("sup-hanoi", "communist_supply", "Hanoi supply", "HANOI", False),
        co("sup-haiphong", "communist_supply", "Haiphong supply", "HAIPHONG", False),
        co("sup-tchepone", "communist_supply", "Binh Tram (Tchepone)", "1208", True),
        co("sup-attopeu", "communist_supply", "Binh Tram (Attopeu)", "1413", True),
        co("pl-reg-1", "pl_regiment", "Pathet Lao battalion group", "PLAIN_OF_JARS", False),
        co("pl-reg-2", "pl_regiment", "Pathet Lao (Nape-Mu Gia)", "1007", True),
    ]


def communist_1972():
    """March 1972, Nguyen Hue (the Easter Offensive): three fronts."""
    return north_and_trail() + [
        # Tri-Thien front: across the DMZ and out of the A Shau
        co("nva-304", "nva_division", "304th Division", "1309", True),
        co("nva-308", "nva_division", "308th Division", "1307", False),
        co("nva-324b", "nva_division", "324B Division", "1410", True),
        co("nva-203tk", "nva_tank_regiment", "203rd Armored Regt", "1307", False),
        co("nva-202tk", "nva_tank_regiment", "202nd Armored Regt (PT-76)", "1407", False),
        co("nva-art-164", "nva_artillery", "164th Artillery Regt", "1407", False),
        co("nva-art-38", "nva_artillery", "38th Artillery Regt", "1309", True),
        co("sup-ashau", "communist_supply", "A Shau depot", "1410", True),
        # B3 Front: Kontum and Binh Dinh
        co("nva-320", "nva_division", "320th Division", "1614", True),
        co("nva-2", "nva_division", "2nd Division", "1711", True),
        co("nva-3", "nva_division", "3rd (Yellow Star) Division", "1914", True),
        co("nva-art-40", "nva_artillery", "40th Artillery Regt", "1614", True),
        # B2 Front: Binh Long (An Loc) from the Cambodian sanctuaries, and the Delta
        co("nva-5vc", "nva_division", "5th Division", "1221", True),
        co("nva-7", "nva_division", "7th Division", "1420", True),
        co("nva-9vc", "nva_division", "9th Division", "1321", True),
        co("nva-1", "nva_division", "1st Division", "1023", True),
        co("sup-353", "communist_supply", "Base Area 353", "1221", True),
        co("vc-qngai", "vc_regiment", "Quang Ngai Local Force", "1913", True),
        co("vc-qn", "vc_regiment", "Binh Dinh Local Force", "2016", True),
        co("vc-sgn-1", "vc_regiment", "Dong Nai Regt", "1623", True),
        co("vc-iv-1", "vc_regiment", "Dong Thap 1 Regt", "1224", True),
        co("vc-iv-3", "vc_regiment", "U Minh 10th Bn group", "0927", True),
        co("kr-regiment-1", "kr_regiment", None, "0719", True),
    ] + numbered("vc_cadre", ["1812", "1720", "1622", "1027"]) + numbered("communist_dummy", ["1813", "1523", "1128"]) \
        + numbered("kr_cadre", ["0619"]) + numbered("pl_cadre", ["1312"])


def communist_1975():
    """January 1975, after Phuoc Long: the divisions poised for the Ho Chi Minh Campaign."""
    return north_and_trail() + [
        # I Corps: Hue and Da Nang
        co("nva-324b", "nva_division", "324B Division", "1410", True),
        co("nva-325", "nva_division", "325th Division", "1407", False),
        co("nva-304", "nva_division", "304th Division", "1510", True),
        co("nva-711", "nva_division", "711th Division", "1711", True),
        co("nva-202tk", "nva_tank_regiment", "202nd Armored Regt", "1407", False),
        co("nva-art-164", "nva_artillery", "164th Artillery Regt", "1407", False),
        co("sup-ashau", "communist_supply", "A Shau depot", "1410", True),
        # II Corps: Ban Me Thuot (Campaign 275)
        co("nva-320", "nva_division", "320th Division", "1717", True),
        co("nva-10", "nva_division", "10th Division", "1614", True),
        co("nva-968", "nva_division", "968th Division", "1618", True),
        co("nva-3", "nva_division", "3rd Division", "1914", True),
        co("nva-203tk", "nva_tank_regiment", "203rd Armored Regt", "1618", False),
        co("nva-art-40", "nva_artillery", "40th Artillery Regt", "1717", True),
        # III Corps: round Saigon (4th Corps of the NVA, 1974-75)
        co("nva-7", "nva_division", "7th Division", "1421", True),
        co("nva-9vc", "nva_division", "9th Division", "1321", True),
        co("sup-b2", "communist_supply", "Phuoc Long depot", "1521", True),
        co("vc-sgn-1", "vc_regiment", "Dong Nai Regt", "1623", True),
        co("vc-iv-1", "vc_regiment", "Dong Thap 1 Regt", "1224", True),
        co("vc-iv-3", "vc_regiment", "U Minh 10th Bn group", "0927", True),
        co("vc-iv-2", "vc_regiment", "Tay Do Bn group", "1125", True),
        co("vc-iv-4", "vc_regiment", "514th Provincial Bn group", "1326", True),
        co("vc-qngai", "vc_regiment", "Quang Ngai Local Force", "1913", True),
        co("vc-qn", "vc_regiment", "Binh Dinh Local Force", "2016", True),
        co("kr-regiment-1", "kr_regiment", None, "0719", True),
        co("kr-regiment-2", "kr_regiment", None, "0821", True),
    ] + numbered("vc_cadre", ["1812", "1720", "1027"]) + numbered("communist_dummy", ["1813", "1523", "1128"]) \
        + numbered("kr_cadre", ["0619"])


def communist_1968():
    """July 1968: the Tet scenario's Communist set-up (January 1968) is the one authored for 1968; the
    project keeps it for the period scenario (the second and third waves of 1968 came from the same
    divisions), so the two cannot disagree about who was where in 1968."""
    return [dict(u) for u in TET["setup"]["communist"]]


# ------------------------------------------------------------------ the scenarios

TET_SCORING = TET["victory"]["scoring"]
TET_NOT_SCORED = TET["victory"]["not_scored"]
MILITARY_RULES_NOT_USED = {k: v for k, v in TET["rules_not_used"].items() if k != "26"}
MILITARY_RULES_NOT_USED["26"] = "National Uprising"
ALL_NEUTRAL = {a: "neutral" for a in ("I", "II", "III", "IV", "CA", "LA")}
META = {
    "authored_by": "afteraction project. The rule text names the scenario (NTND 2: six scenarios and a campaign game) "
                   "but prints no set-up; the turns, set-up, tracks and victory conditions are the project's own "
                   "(docs/rules/ntnd-authoring/scenarios.md).",
    "based_on": "scenario_campaign.json: the Allied order of battle at the start date, the reinforcement and "
                "withdrawal schedules, elections, dated rules and aid turns of the scenario's turns (composed at load "
                "time by scenario_data.py, renumbered from 1)",
    "map": "map.json hex ids (CCRR) or off-board zone ids",
    "counters": "counters.json unit type ids",
}


def military(sid, name, first, last, description, communist, victory, neutral, withdrawals_binding, history):
    allied, air, left_out = place_allied(first, communist)
    return {
        "meta": META, "id": sid, "name": name, "description": description, "based_on": "campaign_1965",
        "campaign_turns": {"first": first, "last": last},
        "features": sorted(MILITARY),
        "features_note": "purely military (NTND 2), as Tet: air war, fleet, Montagnards and special units; no "
                         "political rule family",
        "first_player": "communist",
        "rules_not_used": MILITARY_RULES_NOT_USED,
        "scenario_rules": {
            "neutral_countries": neutral, "neutral_rule": "10.1",
            "hearts_and_minds": ALL_NEUTRAL,
            "hearts_and_minds_note": "fixed for the whole scenario (as Tet): no corps is Communist or Allied controlled",
            "armor_shock_available": False,
            "armor_shock_rule": "28.8: only in scenarios starting in 1965-1968",
            "optional_rules_in_force": ["28.2", "28.3", "28.5", "28.6", "28.7"],
            "history": history,
        },
        "setup": {"allied": allied, "allied_air_available": air, "communist": communist, "left_out": left_out},
        "allied_purchasable": [],
        "allied_purchasable_note": "none: no new U.S. ground regiment after the 1971-72 withdrawals (authored)",
        "historical_us_withdrawals_binding": withdrawals_binding,
        "victory": victory,
    }


def tet_like(after, allied_at_least, communist_below, source):
    return {"basis": "22.4 military items only (purely military scenario, NTND 2); authored thresholds",
            "initial_political_points": 100, "scoring": TET_SCORING, "not_scored": TET_NOT_SCORED,
            "sudden_death": {"communist_if_below": 0, "allied_if_above": 250, "rule": "22.4"},
            "end_of_game": {"after": after, "allied_victory_if_at_least": allied_at_least,
                            "communist_victory_if_below": communist_below, "otherwise": "draw", "source": source}}


def date(n):
    t = GC.TURNS[n - 1]
    return f'{t["months"]} {t["year"]}'


RAT = military(
    "rat_1972", "The Year of the Rat", turn_of("March/April", 1972), turn_of("September/October", 1972),
    "March/April - September/October 1972: the Easter Offensive (Nguyen Hue). Ten NVA divisions with "
    "armour and artillery against an ARVN with almost no U.S. ground troops left; purely military.",
    communist_1972(),
    tet_like("Allied political phase of turn 4 (September/October 1972)", 90, 75,
             "authored: history's result is an Allied win at a price (Quang Tri lost and retaken, An Loc and Kontum "
             "held): the Allies win by losing no more than 10 points, the Communist player by 25"),
    neutral=["LA"], withdrawals_binding=True,
    history="Cambodia is at war since the 1970 coup (10.1 'unless otherwise stated'): only Laos is neutral; the "
            "last U.S. ground brigades leave on the campaign's historical schedule, here binding (4.3.1)")

Y1975 = military(
    "final_1975", "1975: The Final Offensive", turn_of("January/February", 1975), GC.TURNS[-1]["number"],
    "January/February - July/August 1975: the Ho Chi Minh Campaign. No Americans; the ARVN alone against the "
    "NVA's strategic reserve; purely military.",
    communist_1975(),
    tet_like("Allied political phase of turn 4 (July/August 1975)", 90, 70,
             "authored: history's result is a Communist win (Saigon fell on 30 April); the Allies win by ending "
             "no more than 10 points down, the Communist player by 30 (one Saigon occupation, 22.4, and more)"),
    neutral=["LA"], withdrawals_binding=True,
    history="U.S. forces gone (Case-Church, August 1973); Cambodia at war; Laos neutral under the 1973 coalition")


def political(sid, name, first, last, description, hm, neutral, victory, setup, armor_shock, history):
    sc = {
        "meta": META, "id": sid, "name": name, "description": description, "based_on": "campaign_1965",
        "campaign_turns": {"first": first, "last": last},
        "features": sorted(POLITICAL + MILITARY),
        "features_note": "the whole military and political game, as the campaign",
        "first_player": "communist",
        "rules_not_used": {},
        "scenario_rules": {
            "neutral_countries": neutral, "neutral_rule": "10.1",
            "hearts_and_minds_boxes": ["communist_control", "pro_communist", "neutral", "pro_allied", "allied_control"],
            "hearts_and_minds": hm,
            "armor_shock_available": armor_shock,
            "armor_shock_rule": "28.8: only in scenarios starting in 1965-1968, once per game",
            "optional_rules_in_force": ["28.1", "28.2", "28.3", "28.4", "28.5", "28.6", "28.7"]
                                       + (["28.8"] if armor_shock else []) + ["28.9", "28.10", "28.11"],
            "optional_rules_not_in_force": {"28.3.2": "3/82 and 1/5 Mech arrive on the schedule, not by purchase"},
            "haiphong_mined": False,
            "game_year": "a calendar year (4.5.3 draft count, 26.5 'one year')",
            "history": history,
        },
        "victory": victory,
    }
    if setup == "campaign":
        sc["setup_from"] = "campaign_1965"
    else:
        allied, air, left_out = place_allied(first, setup)
        sc["setup"] = {"allied": allied, "allied_air_available": air, "communist": setup, "left_out": left_out}
    return sc


def banded(last, allied_at_least, communist_below, source, saigon=True):
    end = {"after": f"Allied political phase of turn {last}", "allied_victory_if_at_least": allied_at_least,
           **({"allied_victory_also_requires": "Saigon not occupied by face-up Communist units"} if saigon else {}),
           "source": source}
    if communist_below is None:
        end["otherwise"] = "communist"
    else:
        end.update({"communist_victory_if_below": communist_below, "otherwise": "draw"})
    return {"basis": "22.4 complete (every item), with 23, 24 and 26 in force", "initial_political_points": 100,
            "sudden_death": {"communist_if_below": 0, "allied_if_above": 250, "allied_if_above_after_reversal": 300,
                             "rule": "22.4, 24.4.3", "bounds_before_turn_24_under_full_vietnamization": [1, 249],
                             "bounds_rule": "24.2.10"},
            "end_of_game": end}


T68, T72 = turn_of("July/August", 1968), turn_of("March/April", 1972)
P6568 = political(
    "war_1965_68", "1965-1968: The Big Unit War", 1, 23,
    "March/April 1965 - November/December 1968: from the Marines' landing to the 1968 election; the campaign's "
    "set-up and schedule, decided by the first election.",
    GC.HEARTS_AND_MINDS_START, ["CA", "LA"],
    banded(23, 100, 90, "authored: the campaign's line (100) with Saigon held after the 1968 election (turn 23); "
           "a net loss of 10 points is a Communist win, between the two a draw"),
    "campaign", True, "the campaign's start (campaign.md)")
P6872 = political(
    "war_1968_72", "1968-1972: Vietnamization", T68, 47,
    "July/August 1968 - November/December 1972: after Tet to the 1972 election; the peak of the American war, "
    "Vietnamization, Cambodia and Laos.",
    {"I": "neutral", "II": "neutral", "III": "neutral", "IV": "pro_communist", "CA": "neutral", "LA": "neutral"},
    ["CA", "LA"],
    banded(47 - T68 + 1, 100, 90, "authored: as 1965-68, judged after the 1972 election"),
    communist_1968(), True,
    "28.4.1: Phoenix from the start (the scenario begins July/August 1968); the Tet scenario's Communist set-up")
P7275 = political(
    "war_1972_75", "1972-1975: The Easter Offensive to the Fall of Saigon", T72, GC.TURNS[-1]["number"],
    "March/April 1972 - July/August 1975: the Easter Offensive, the 1972 election, the Paris Accords and the "
    "last campaign, with the political war.",
    {"I": "neutral", "II": "neutral", "III": "pro_allied", "IV": "pro_allied", "CA": "pro_communist",
     "LA": "neutral"},
    ["LA"],
    banded(63 - T72 + 1, 100, None, "authored: the campaign's own end (campaign.md): 100 and Saigon held"),
    communist_1972(), False,
    "Cambodia at war since 1970 (only Laos neutral); the Year of the Rat's set-up")

SCENARIOS = {"rat": RAT, "1975": Y1975, "1965_68": P6568, "1968_72": P6872, "1972_75": P7275}

if __name__ == "__main__":
    for key, sc in SCENARIOS.items():
        path = os.path.join(OUT, f"scenario_{key}.json")
        open(path, "w").write(dumps(sc, width=160) + "\n")
        n = len(sc.get("setup", {}).get("allied", []))
        print(key, sc["id"], sc["campaign_turns"], "allied", n, "communist", len(sc.get("setup", {}).get("communist", [])))
