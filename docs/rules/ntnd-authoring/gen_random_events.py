"""Writes engine/games/ntnd/data/random_events.json: the NTND Random Events Table (rule 21).

The rule text (21.1, 21.2, 3.2.8) gives the procedure but not the table ("see player aid card");
every entry below is the afteraction project's own, reasoned in random-events.md next to this file.
    python3 gen_random_events.py /tmp/random_events.json
"""
import sys
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
from fmtjson import dumps

# ---- the vocabulary: every effect is one of these operations on the rules' own mechanisms ----------
OPS = {
    "political_points": {
        "rules": ["22.2", "22.3"], "params": ["dice", "sign", "roller"],
        "meaning": "move the Political Points track by sign x (sum of `dice` d6, rolled through ctx.roll by "
                   "`roller`) at once, like a 22.3 single-asterisk item; 24.2.10 bounds apply; 22.4 sudden "
                   "victory is judged at the end of the next political phase (22.4 checks only then)"},
    "replacement_points": {
        "rules": ["4.2.2", "4.2.5"], "params": ["pool", "change"],
        "meaning": "the Allied replacement points of `pool` (US, SEATO, INDOCHINESE, SV) received in the next "
                   "Allied Reinforcement and Replacement phase change by `change` (never below 0); caps of "
                   "23.4 apply after the change"},
    "no_sv_replacement_points": {
        "rules": ["4.2.2", "7.3.1"], "params": [],
        "meaning": "no South Vietnamese replacement points from the Hearts and Minds Track (4.2.2, 7.3.1) in the "
                   "next Allied Reinforcement and Replacement phase; a draft (4.5.2) is still allowed"},
    "hearts_and_minds": {
        "rules": ["7.2.2", "7.4"], "params": ["area", "boxes", "toward"],
        "meaning": "move the Hearts and Minds marker of `area` (a corps I-IV, CA, LA, or `allied_choice_sv`: a "
                   "South Vietnamese corps the Allied player names) `boxes` boxes toward `toward`'s control "
                   "box, without the 1-2-3 die of 7.2.2/7.4 (the event is not an expenditure); a marker already "
                   "in that control box stays"},
    "arvn_demoralized": {
        "rules": ["25.1", "25.2", "25.3", "25.4"], "params": [],
        "meaning": "ARVN forces are demoralized for both player-turns of the next turn whatever the political "
                   "points (as if 25.1 held); 25.3 and 25.4 apply when their own conditions hold"},
    "basic_cadres": {
        "rules": ["4.1.1"], "params": ["change"],
        "meaning": "the basic cadre allotment of the next Communist Recruitment phase changes by `change` "
                   "(after 24.2.9/24.3.4/26.2, never below 0)"},
    "nva_recruits": {
        "rules": ["4.1.3", "4.1.7", "4.1.5"], "params": ["change"],
        "meaning": "the next Communist Recruitment phase gives `change` more units of the 4.1.3 list (NVA "
                   "artillery, SAM or division, placed in China), within 4.1.6 and the 4.1.7 cap"},
    "communist_recruits": {
        "rules": ["4.1.5", "4.1.1", "4.1.6"], "params": ["type", "count", "place"],
        "meaning": "the next Communist Recruitment phase gives `count` extra units of counters.json type `type` "
                   "(4.1.5), placed per `place`; forfeited if the counter mix has none (4.1.6)"},
    "aid_unit": {
        "rules": ["27.2", "27.3", "27.4", "4.1.5"], "params": ["source"],
        "meaning": "the next Communist Recruitment phase gives one unit of `source`'s aid list (china: 27.2, "
                   "soviet: 27.3, placed as those rules say, Haiphong mined per 14.2.2), whether or not that "
                   "aid has begun; it does not start regular aid (27.1)"},
    "aid_suspended": {
        "rules": ["27.1", "27.2", "27.3"], "params": [],
        "meaning": "no Chinese or Soviet aid unit is received in the next Communist Recruitment phase; aid "
                   "already begun resumes the turn after (27.1 'every turn' otherwise holds)"},
    "neutral_joins_allies": {
        "rules": ["10.5", "10.6", "8.9.5", "10.2.1"], "params": ["country"],
        "meaning": "the neutral `country`'s neutrality ends at once and it joins the Allies as after 10.5.2 "
                   "(full Allied state, 10.6), at no political cost; from now 8.9.5 applies"},
    "persistent_supply": {
        "rules": ["4.1.4", "4.1.5", "18.6"], "params": ["country", "town", "while_neutral"],
        "meaning": "from the next turn on, each Communist Recruitment phase gives one extra supply unit from the "
                   "counter mix (4.1.4), placed in `town` of `country`; only while `country` is neutral "
                   "(`while_neutral`) and the town is not Allied-occupied (then that turn's unit is forfeited)"},
    "end_event": {
        "rules": ["21.2"], "params": ["event"],
        "meaning": "a persistent effect of the entry `event` ends at once"},
    "reveal_marker": {
        "rules": ["6.2", "17.2", "8.8.2.1"], "params": ["chooser", "count"],
        "meaning": "at once, `chooser` names `count` inverted Communist markers anywhere; each is flipped face up "
                   "(its commitment opened with ctx.reveal, as in 6.2); dummies revealed are removed (17.2)"},
}

TIMINGS = {
    "now": "during the Random Events phase (3.2.8) in which it was rolled",
    "next_communist_recruitment": "the Communist Recruitment phase (3.1.1) of the next turn",
    "next_allied_reinforcement": "the Allied Reinforcement and Replacement phase (3.2.1) of the next turn",
    "next_allied_hearts_and_minds": "the Allied Hearts and Minds phase (3.2.2) of the next turn",
    "next_turn": "both player-turns of the next turn",
    "persistent": "every turn from the next one until ended (end_event or its own condition)",
}

CONDITIONS = {
    "cambodia_not_neutral": "Cambodia is no longer neutral (10.5, 10.6): the event is superseded (21.2)",
}


def fx(op, when, **params):
    assert op in OPS and when in TIMINGS, (op, when)
    assert set(params) == set(OPS[op]["params"]), (op, params)
    return {"op": op, "when": when, **params}


E = []


def ev(roll, eid, name, once, effects, history, why, superseded_if=()):
    E.append({"roll": roll, "id": eid, "name": name, "once": once, "superseded_if": list(superseded_if),
              "effects": effects, "rules": sorted({r for e in effects for r in OPS[e["op"]]["rules"]} |
                                                  ({"21.2"} if once or superseded_if else set()),
                                                  key=lambda r: [int(x) for x in r.split(".")]),
              "history": history, "why": why})


# Row 1x (Communist die 1): the American home front. Allied die 1 worst for the Allies .. 6 best.
ev(11, "antiwar_protests", "Anti-war demonstrations", False,
   [fx("political_points", "now", dice=1, sign=-1, roller="allied")],
   "March on the Pentagon (Oct 1967); Moratorium (Oct-Nov 1969); Kent State protests (May 1970)",
   "repeatable: protest recurred every year from 1965; one die as in 14.2.2's world reaction")
ev(12, "atrocity_revealed", "Atrocity revealed", True,
   [fx("political_points", "now", dice=2, sign=-1, roller="allied")],
   "My Lai (March 1968) made public by Seymour Hersh, November 1969",
   "once: the revelation is a single shock; two dice, the largest home-front loss of the table")
ev(13, "funds_cut", "Congress cuts the war budget", False,
   [fx("replacement_points", "next_allied_reinforcement", pool="US", change=-1)],
   "no reserve call-up (July 1965); Cooper-Church (Dec 1970) and Case-Church (June 1973) amendments",
   "repeatable: a one-turn loss of one of the two U.S. points of 4.2.2")
ev(14, "draft_calls_raised", "Draft calls raised", False,
   [fx("replacement_points", "next_allied_reinforcement", pool="US", change=1)],
   "monthly draft calls doubled from 17,000 to 35,000 (28 July 1965)",
   "mirror of 13: one extra U.S. point for one turn")
ev(15, "silent_majority", "Appeal to the silent majority", True,
   [fx("political_points", "now", dice=2, sign=1, roller="allied")],
   "Nixon's 'silent majority' address (3 November 1969) and the poll surge after it",
   "once; mirror of 12")
ev(16, "rally_round_the_flag", "Rally round the flag", False,
   [fx("political_points", "now", dice=1, sign=1, roller="allied")],
   "Gulf of Tonkin resolution mood (1964-65); the Hue massacre graves found (1969)",
   "repeatable; mirror of 11")

# Row 2x (Communist die 2): South Vietnam and the neutral states.
ev(21, "saigon_coup", "Coup in Saigon", False,
   [fx("arvn_demoralized", "next_turn"),
    fx("no_sv_replacement_points", "next_allied_reinforcement"),
    fx("political_points", "now", dice=1, sign=-1, roller="allied")],
   "repeated changes of government after November 1963 (Khanh ousted, February 1965; Ky and Thieu, June 1965)",
   "repeatable: ARVN paralysed for a turn (25.2), no SV points (4.2.2) while the generals quarrel, and an "
   "American public asking what it is fighting for (one die)")
ev(22, "buddhist_struggle", "Buddhist Struggle Movement", True,
   [fx("hearts_and_minds", "now", area="I", boxes=1, toward="communist"),
    fx("political_points", "now", dice=1, sign=-1, roller="allied")],
   "the Struggle Movement in Hue and Da Nang, March-June 1966 (I Corps units in revolt, monks' self-immolations "
   "on American television)",
   "once; it was an I Corps crisis, so the I Corps marker moves; one die for the pictures at home")
ev(23, "sihanoukville_route", "Sihanouk opens Sihanoukville", True,
   [fx("persistent_supply", "persistent", country="CA", town="Kompong Som", while_neutral=True)],
   "from 1966 Chinese arms landed at Sihanoukville (Kompong Som) and were trucked to the sanctuaries "
   "until the March 1970 coup",
   "once; lasts while Cambodia is neutral: a supply unit a turn in Kompong Som (map.json 0524)",
   superseded_if=["cambodia_not_neutral"])
ev(24, "lon_nol_coup", "Coup in Phnom Penh", True,
   [fx("neutral_joins_allies", "now", country="CA"),
    fx("end_event", "now", event="sihanoukville_route"),
    fx("communist_recruits", "next_communist_recruitment", type="kr_cadre", count=2,
       place="4.1.1 placement in Cambodia")],
   "Lon Nol deposes Sihanouk (18 March 1970); Sihanouk joins the Khmer Rouge front (GRUNK, May 1970)",
   "once: Cambodia joins the Allies (as 10.5.2 without its price), the port closes, the Khmer Rouge grows",
   superseded_if=["cambodia_not_neutral"])
ev(25, "land_to_the_tiller", "Land to the Tiller", True,
   [fx("hearts_and_minds", "next_allied_hearts_and_minds", area="allied_choice_sv", boxes=1, toward="allied")],
   "Thieu's land reform law (26 March 1970) gave tenant farmers title to the land they worked",
   "once; the Allied player picks the corps, as he does with 7.2 spending")
ev(26, "chieu_hoi", "Chieu Hoi defections", False,
   [fx("basic_cadres", "next_communist_recruitment", change=-1)],
   "the Open Arms programme: about 18,000 ralliers in 1968, 47,000 in 1969",
   "repeatable: one of the three 4.1.1 cadres does not appear; no hidden unit is touched, so nothing leaks")

# Row 3x (Communist die 3): the Communist bloc and the wider war.
ev(31, "soviet_shipments", "Soviet arms shipments", False,
   [fx("aid_unit", "next_communist_recruitment", source="soviet")],
   "Kosygin in Hanoi (February 1965) and the aid agreements that followed each year",
   "repeatable: one 27.3 unit of the Communist player's choice even before aid has begun")
ev(32, "chinese_support_troops", "Chinese support troops", False,
   [fx("aid_unit", "next_communist_recruitment", source="china")],
   "about 320,000 PLA engineer and anti-aircraft troops served in North Vietnam 1965-68",
   "repeatable: one 27.2 unit (supply, SAM or cadre)")
ev(33, "infiltration_increased", "Infiltration increased", False,
   [fx("nva_recruits", "next_communist_recruitment", change=1)],
   "Group 559 widens the trail; NVA infiltration rose several-fold between 1964 and 1966",
   "repeatable: one more 4.1.3 unit, still within the 4.1.7 division cap")
ev(34, "sino_soviet_split", "Sino-Soviet quarrel", False,
   [fx("aid_suspended", "next_communist_recruitment")],
   "the Cultural Revolution held up Soviet rail shipments across China (1967); the Ussuri clashes (March 1969)",
   "repeatable: a one-turn gap in aid, which matters only once aid has begun")
ev(35, "captured_documents", "Captured documents", False,
   [fx("reveal_marker", "now", chooser="allied", count=1)],
   "COSVN documents and cache records captured in the Cambodian incursion (May-June 1970)",
   "repeatable: intelligence shows one inverted stack; the reveal goes through the same commitment opening "
   "as any 6.2 flip, so no other hidden value is disclosed")
ev(36, "detente", "Great-power detente", True,
   [fx("political_points", "now", dice=2, sign=1, roller="allied"),
    fx("aid_suspended", "next_communist_recruitment")],
   "Nixon in Beijing (February 1972) and Moscow (May 1972)",
   "once: the largest Allied swing of the table, plus a turn without aid")

NO_EVENT = {"rolls": [10 * t + o for t in (4, 5, 6) for o in range(1, 7)], "id": "no_event",
            "rule": "21.1", "note": "results 37-66 (with two d6: 41-66): no random event"}

out = {
    "meta": {
        "authored_by": "afteraction project. The rule text names the Random Events Table (3.2.8, 21.1: 'see player "
                       "aid card') but does not print it; every entry, effect and reason below is the project's "
                       "own (docs/rules/ntnd-authoring/random-events.md).",
        "rule": "21",
        "ops_note": "every effect is one op of `ops`, each naming the rules whose mechanism it uses",
    },
    "procedure": {
        "phase": "3.2.8",
        "dice": [
            {"seat": "communist", "digit": "tens", "die": "d6", "rule": "NTND 21.1 (Communist die, tens)"},
            {"seat": "allied", "digit": "ones", "die": "d6", "rule": "NTND 21.1 (Allied die, ones)"},
        ],
        "result": "10 x Communist die + Allied die",
        "events_from": 11, "events_to": 36,
        "once_only": "21.2: an entry with once = true occurs at most once per game; rolled again, no event",
        "superseded": "21.2: an entry whose superseded_if holds does not occur (no event) and is not used up",
    },
    "timings": TIMINGS,
    "conditions": CONDITIONS,
    "ops": OPS,
    "entries": E,
    "no_event": NO_EVENT,
}
open(sys.argv[1], "w").write(dumps(out) + "\n")
print("entries", len(E), "once", sum(e["once"] for e in E))
