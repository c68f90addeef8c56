"""Writes engine/games/ntnd/data/scenario_campaign.json and scenario_campaign_short.json.

The rule text names the campaign game (2: up to 63 bimonthly turns, elections on turns 23 and 47) and
the Allied Reinforcement Schedule (4.2.1, 4.3.1) but prints neither; the set-up, the schedules, the
starting tracks and the end-of-game thresholds are the afteraction project's own (campaign.md here).
    python3 gen_campaign.py /tmp/scenario_campaign.json /tmp/scenario_campaign_short.json [campaign.md]
(with campaign.md, its tables between <!-- table:NAME --> and <!-- end --> are rewritten from the data)
"""
import json
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fmtjson import dumps

from afteraction.engine.games.ntnd.components.features import FEATURES

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "..", "engine", "games", "ntnd", "data")
MAP = json.load(open(os.path.join(DATA, "map.json")))
TYPES = json.load(open(os.path.join(DATA, "counters.json")))["unit_types"]

MONTHS = ["January/February", "March/April", "May/June", "July/August", "September/October", "November/December"]


def turn_of(months, year):
    """Campaign turn 1 = March/April 1965 (so that 23 and 47 are the November/December 1968 and 1972 turns)."""
    return (year - 1965) * 6 + MONTHS.index(months)


TURNS = []
for n in range(1, 64):
    i = n  # bimonthly index counted from January/February 1965 = 0
    months, year = MONTHS[i % 6], 1965 + i // 6
    assert turn_of(months, year) == n
    TURNS.append({"number": n, "months": months, "year": year, "monsoon": months in ("May/June", "July/August")})
assert turn_of("November/December", 1968) == 23 and turn_of("November/December", 1972) == 47


def check(loc, country=None, corps=None, town=None, land=True):
    if loc in MAP["zones"]:
        return
    h = MAP["hexes"][loc]
    assert not land or h["terrain"] not in ("sea", "lake"), loc
    assert country is None or h["country"] == country, (loc, h["country"], country)
    assert corps is None or h["corps"] == corps, (loc, h["corps"], corps)
    assert town is None or bool(h["town"]) == town, (loc, town)


A, AIR, C = [], [], []


def al(uid, typ, name, loc, corps=None):
    t = TYPES[typ]
    if t["movement_class"] == "fleet":
        check(loc, land=False)
    elif typ == "us_green_beret":
        check(loc, country="SV", town=False)  # 15.1: a non-town/city hex
    elif corps in ("LA", "CA"):
        check(loc, country=corps)  # 5.2.1, 8.9.2: at home
    elif corps in ("I", "II", "III", "IV"):
        check(loc, country="SV", corps=corps)  # 5.3: inside its corps zone
    A.append({"id": uid, "type": typ, "name": name, "location": loc, "corps": corps})


def air(uid, typ, name):
    AIR.append({"id": uid, "type": typ, "name": name})


def co(uid, typ, name, loc, inverted):
    assert not (inverted and not TYPES[typ]["can_invert"]), uid
    # name None: a numbered counter, named by the engine from counters.json (units.unit_name)
    C.append({"id": uid, "type": typ, **({} if name is None else {"name": name}), "location": loc,
               "inverted": inverted})


# ---------------- Allied, March 1965 -------------------------------------------------------------------
# I Corps, HQ Da Nang: the 9th Marine Expeditionary Brigade landed on 8 March 1965
al("us-9mar", "us_marine_regiment", "9th Marines (9th MEB)", "1810", "I")
al("arvn-reg-51", "arvn_infantry_regiment", "ARVN 51st Regiment", "1810", "I")
al("arvn-mil-danang", "arvn_militia", "Quang Nam RF/PF", "1810")
al("arvn-1div", "arvn_infantry_division", "ARVN 1st Division", "1609", "I")
al("arvn-acr-1", "arvn_armored_cav_regiment", "ARVN armored cavalry (I Corps)", "1509", "I")
al("arvn-2div", "arvn_infantry_division", "ARVN 2nd Division", "2013", "I")
al("arvn-rgr-1", "arvn_ranger", "ARVN I Corps Rangers", "1912", "I")
al("us-gb-1", "us_green_beret", "5th SFG Co C (A Shau)", "1610")
al("us-fleet", "us_fleet", "Task Force 77 / Seventh Fleet", "1709")
# II Corps, HQ Nha Trang (Pleiku in 1965)
al("arvn-22div", "arvn_infantry_division", "ARVN 22nd Division", "2117", "II")
al("arvn-23div", "arvn_infantry_division", "ARVN 23rd Division", "1819", "II")
al("arvn-reg-42", "arvn_infantry_regiment", "ARVN 42nd Regiment", "1715", "II")
al("arvn-acr-2", "arvn_armored_cav_regiment", "ARVN armored cavalry (II Corps)", "1716", "II")
al("arvn-rgr-2", "arvn_ranger", "ARVN 2nd Ranger Group", "1921", "II")
al("us-gb-2", "us_green_beret", "5th SFG Co B (Pleiku)", "1816")
al("us-gb-3", "us_green_beret", "5th SFG Co B (Plei Me)", "1717")
# III Corps, HQ Saigon
al("arvn-5div", "arvn_infantry_division", "ARVN 5th Division", "1423", "III")
al("arvn-18div", "arvn_infantry_division", "ARVN 18th Division (10th until 1967)", "1524", "III")
al("arvn-25div", "arvn_infantry_division", "ARVN 25th Division", "1324", "III")
al("arvn-abn-1", "arvn_airborne_brigade", "ARVN 1st Airborne Bde", "1424")
al("arvn-mar-1", "arvn_marine_brigade", "VNMC brigade", "1424", "III")
al("arvn-rgr-3", "arvn_ranger", "ARVN III Corps Rangers", "1424", "III")
al("arvn-fb-saigon", "arvn_firebase", "Saigon artillery", "1424")
al("arvn-mil-saigon", "arvn_militia", "Gia Dinh RF/PF", "1424")
al("us-gb-4", "us_green_beret", "5th SFG Co A (Tay Ninh)", "1422")
# IV Corps, HQ Soc Trang (Can Tho)
al("arvn-7div", "arvn_infantry_division", "ARVN 7th Division", "1325", "IV")
al("arvn-9div", "arvn_infantry_division", "ARVN 9th Division", "1225", "IV")
al("arvn-21div", "arvn_infantry_division", "ARVN 21st Division", "1126", "IV")
al("arvn-rgr-4", "arvn_ranger", "ARVN 4th Ranger Group", "1227", "IV")
al("arvn-pb-1", "arvn_patrol_boat", "VNN River Assault Group", "1126")
al("us-gb-5", "us_green_beret", "5th SFG Co D (Moc Hoa)", "1124")
# Laos and Cambodia (neutral, 10.1)
al("lao-1", "lao_infantry_regiment", "FAR Groupement Mobile", "VIENTIANE", "LA")
al("lao-guard", "lao_guard", "Royal Guard", "LUANG_PRABANG", "LA")
al("lao-rgr-1", "lao_ranger", "FAR Bataillon Volontaire", "LUANG_PRABANG", "LA")
al("lao-2", "lao_infantry_regiment", "FAR Military Region III", "0909", "LA")
al("lao-3", "lao_infantry_regiment", "FAR Military Region IV", "1113", "LA")
al("khmer-1", "khmer_infantry_regiment", "FARK brigade", "0922", "CA")
al("khmer-2", "khmer_infantry_regiment", "FARK Battambang brigade", "0418", "CA")
# air units in the Available box (5.6, 11.2)
air("us-ftr-1", "us_fighter_wing", "2nd Air Division wing (Rolling Thunder)")
air("us-ftr-2", "us_fighter_wing", "Thailand-based wing (Korat, Takhli)")
air("us-cv-1", "us_carrier_wing", "TF 77 carrier air wing (Yankee Station)")
air("us-heli-1", "us_helicopter", "US Army aviation companies")
air("us-soa", "us_soa", "Air America / 1st Air Commando")
air("arvn-ftr-1", "arvn_fighter_wing", "VNAF wing")

# ---------------- Communist, March 1965 ------------------------------------------------------------------
co("nva-304", "nva_division", "304th Division", "HANOI", False)
co("nva-308", "nva_division", "308th Division", "HANOI", False)
co("nva-320", "nva_division", "320th Division", "1104", False)
co("nva-art-164", "nva_artillery", "164th Artillery Regt", "HANOI", False)
co("nva-mig-1", "nva_interceptor", "921st Fighter Regt", "HANOI", False)
co("sup-china", "communist_supply", "Chinese supply", "CHINA", False)
co("sup-hanoi", "communist_supply", "Hanoi supply", "HANOI", False)
co("sup-haiphong", "communist_supply", "Haiphong supply", "HAIPHONG", False)
co("sup-tchepone", "communist_supply", "Binh Tram (Tchepone)", "1208", True)
co("nva-325", "nva_division", "325th Division (B3 Front)", "1620", True)
co("nva-9vc", "nva_division", "9th VC Division", "1221", True)
co("vc-qngai", "vc_regiment", "1st VC Regt (Quang Ngai)", "1913", True)
co("vc-qn", "vc_regiment", "2nd VC Regt (Binh Dinh)", "2016", True)
co("vc-sgn-1", "vc_regiment", "Dong Nai Regt", "1623", True)
co("vc-sgn-2", "vc_regiment", "Quyet Thang Regt", "1521", True)
co("vc-iv-1", "vc_regiment", "Dong Thap 1 Regt", "1024", True)
co("vc-iv-3", "vc_regiment", "U Minh 10th Bn group", "0927", True)
co("vc-iv-4", "vc_regiment", "514th Provincial Bn group", "1326", True)
for i, loc in enumerate(["1812", "1720", "1622", "1027", "1226", "1713"], 1):
    co(f"vc-cadre-{i}", "vc_cadre", None, loc, True)
for i, loc in enumerate(["1813", "1914", "1523", "1128"], 1):
    co(f"communist-dummy-{i}", "communist_dummy", None, loc, True)
co("pl-reg-1", "pl_regiment", "Pathet Lao battalion group", "PLAIN_OF_JARS", False)
co("pl-reg-2", "pl_regiment", "Pathet Lao (Nape-Mu Gia)", "1007", True)
co("pl-cadre-1", "pl_cadre", None, "1312", True)
co("kr-cadre-1", "kr_cadre", None, "0619", True)

# ---------------- the Allied Reinforcement Schedule (4.2.1): earliest entry turns, after history -----------
SCHEDULE = {}


def rf(months, year, uid, typ, name, enter, history):
    SCHEDULE.setdefault(turn_of(months, year), []).append(
        {"id": uid, "type": typ, "name": name, "enter": enter, "history": history})


rf("March/April", 1965, "us-3mar", "us_marine_regiment", "3rd Marines", "I", "Da Nang/Phu Bai, April 1965")
rf("May/June", 1965, "us-173", "us_infantry_brigade", "173rd Airborne Bde", "III", "Bien Hoa, 5 May 1965")
rf("May/June", 1965, "us-4mar", "us_marine_regiment", "4th Marines", "I", "Chu Lai, 7 May 1965")
rf("May/June", 1965, "us-ftr-3", "us_fighter_wing", "1st Marine Air Wing", "air", "Da Nang and Chu Lai, 1965")
rf("May/June", 1965, "us-cv-2", "us_carrier_wing", "Dixie Station carrier air wing", "air", "from May 1965")
rf("May/June", 1965, "us-sac-1", "us_sac_wing", "B-52 Arc Light", "air", "first Arc Light strike, 18 June 1965")
rf("July/August", 1965, "us-1-101", "us_airmobile_brigade", "1st Bde, 101st Airborne Div", "II",
   "Cam Ranh Bay, 29 July 1965")
rf("July/August", 1965, "us-2-1", "us_infantry_brigade", "2nd Bde, 1st Infantry Div", "III", "Bien Hoa, July 1965")
rf("July/August", 1965, "us-7mar", "us_marine_regiment", "7th Marines", "I", "Chu Lai, August 1965")
for b in ("1st", "2nd", "3rd"):
    rf("September/October", 1965, f"us-{b[0]}-1cav", "us_airmobile_brigade", f"{b} Bde, 1st Cavalry Div", "II",
       "An Khe, September 1965")
rf("September/October", 1965, "us-1-1", "us_infantry_brigade", "1st Bde, 1st Infantry Div", "III", "October 1965")
rf("September/October", 1965, "us-3-1", "us_infantry_brigade", "3rd Bde, 1st Infantry Div", "III", "October 1965")
rf("September/October", 1965, "us-fb-laikhe", "us_firebase", "Firebase Lai Khe", "5.6.2", "1st Infantry Div base")
rf("November/December", 1965, "us-ftr-4", "us_fighter_wing", "12th Tactical Fighter Wing", "air",
   "Cam Ranh Bay, November 1965")
rf("September/October", 1965, "rok-cap", "rok_infantry_division", "ROK Capital (Tiger) Division", "II",
   "Qui Nhon, October 1965")
rf("September/October", 1965, "rok-2mar", "rok_marine_brigade", "ROK 2nd Marine Bde (Blue Dragon)", "II",
   "Cam Ranh Bay, October 1965")
rf("January/February", 1966, "us-1mar", "us_marine_regiment", "1st Marines", "I", "regiment HQ, January 1966")
rf("January/February", 1966, "us-3-25", "us_infantry_brigade", "3rd Bde, 25th Infantry Div", "III",
   "December 1965 - January 1966")
rf("January/February", 1966, "us-pb-1", "us_patrol_boat", "Task Force 116 (Game Warden)", "IV",
   "formed December 1965, patrols from early 1966")
rf("March/April", 1966, "us-1-25", "us_infantry_brigade", "1st Bde, 25th Infantry Div", "III", "Cu Chi, spring 1966")
rf("March/April", 1966, "us-2-25", "us_infantry_brigade", "2nd Bde, 25th Infantry Div", "III", "Cu Chi, spring 1966")
rf("March/April", 1966, "us-5sfm", "us_5sfm", "5th SFG Mobile Strike Force", "II", "Mike Forces, 1966")
rf("May/June", 1966, "us-5mar", "us_marine_regiment", "5th Marines", "I", "May 1966")
rf("May/June", 1966, "us-heli-2", "us_helicopter", "1st Aviation Bde", "air", "formed 1966")
rf("May/June", 1966, "anzac-1atf", "anzac_task_force", "1st Australian Task Force", "III", "Nui Dat, June 1966")
rf("May/June", 1966, "seato-fb", "seato_firebase", "Nui Dat", "5.6.2", "1 ATF base, June 1966")
rf("May/June", 1966, "arvn-mar-2", "arvn_marine_brigade", "VNMC second brigade", "III", "Marine Corps expansion, 1966 (date approximate)")
rf("July/August", 1966, "us-2-4", "us_infantry_brigade", "2nd Bde, 4th Infantry Div", "II", "Pleiku, August 1966")
rf("July/August", 1966, "us-196-amer", "us_infantry_brigade", "196th Bde, Americal Div", "I",
   "arrived August 1966 (Tay Ninh); to Chu Lai with Task Force Oregon, April 1967")
rf("July/August", 1966, "us-fb-pleiku", "us_firebase", "Firebase Pleiku", "5.6.2", "Camp Enari, 1966")
rf("September/October", 1966, "us-1-4", "us_infantry_brigade", "1st Bde, 4th Infantry Div", "II", "October 1966")
rf("September/October", 1966, "us-3-4", "us_infantry_brigade", "3rd Bde, 4th Infantry Div", "II", "October 1966")
rf("September/October", 1966, "us-11acr", "us_armored_cav_regiment", "11th Armored Cavalry Regt", "III",
   "Vung Tau, September 1966")
rf("September/October", 1966, "us-ftr-5", "us_fighter_wing", "366th Tactical Fighter Wing", "air",
   "Phan Rang and Da Nang, 1966")
rf("September/October", 1966, "rok-9", "rok_infantry_division", "ROK 9th (White Horse) Division", "II",
   "Ninh Hoa, September 1966")
rf("November/December", 1966, "us-199", "us_infantry_brigade", "199th Light Infantry Bde", "III", "December 1966")
rf("November/December", 1966, "us-1-9", "us_infantry_brigade", "1st Bde, 9th Infantry Div", "IV", "December 1966")
rf("January/February", 1967, "us-2-9", "us_infantry_brigade", "2nd Bde, 9th Infantry Div (Mobile Riverine Force)",
   "IV", "January 1967")
rf("January/February", 1967, "us-3-9", "us_infantry_brigade", "3rd Bde, 9th Infantry Div", "IV", "January 1967")
rf("January/February", 1967, "us-pb-2", "us_patrol_boat", "Task Force 117 (Mobile Riverine Force)", "IV",
   "February 1967")
rf("March/April", 1967, "us-26mar", "us_marine_regiment", "26th Marines", "I", "regiment in country by spring 1967 (first battalion August 1966)")
rf("March/April", 1967, "us-fb-khesanh", "us_firebase", "Khe Sanh Combat Base", "5.6.2", "1967")
rf("March/April", 1967, "us-heli-3", "us_helicopter", "1st Aviation Bde (second group)", "air", "1967")
rf("March/April", 1967, "us-sac-2", "us_sac_wing", "B-52 wing (U Tapao)", "air", "U Tapao, April 1967")
rf("March/April", 1967, "arvn-acr-3", "arvn_armored_cav_regiment", "ARVN armored cavalry (III Corps)", "III", "armored cavalry squadrons added, 1967")
rf("March/April", 1967, "arvn-fb-2", "arvn_firebase", "ARVN corps artillery", "5.6.2", "1967")
rf("September/October", 1967, "us-198-amer", "us_infantry_brigade", "198th Bde, Americal Div", "I", "October 1967")
rf("September/October", 1967, "thai-qc", "thai_infantry_regiment", "Queen's Cobra Regiment", "III",
   "September 1967")
rf("November/December", 1967, "us-11-amer", "us_infantry_brigade", "11th Bde, Americal Div", "I", "December 1967")
rf("November/December", 1967, "us-2-101", "us_airmobile_brigade", "2nd Bde, 101st Airborne Div", "III",
   "Operation Eagle Thrust, December 1967")
rf("November/December", 1967, "us-3-101", "us_airmobile_brigade", "3rd Bde, 101st Airborne Div", "III",
   "Operation Eagle Thrust, December 1967")
rf("January/February", 1968, "us-3-82", "us_infantry_brigade", "3rd Bde, 82nd Airborne Div", "I",
   "flown in after Tet, 14 February 1968")
rf("January/February", 1968, "us-heli-4", "us_helicopter", "164th Aviation Group (Delta)", "air", "formed late 1967")
rf("May/June", 1968, "arvn-abn-2", "arvn_airborne_brigade", "ARVN 2nd Airborne Bde", "III",
   "Airborne Division expanded, 1968")
rf("July/August", 1968, "us-1-5mech", "us_mech_brigade", "1st Bde, 5th Infantry Div (Mech)", "I", "July 1968")
rf("July/August", 1968, "thai-bp", "thai_infantry_division", "Black Panther Division", "III",
   "first brigade July 1968")
rf("November/December", 1968, "arvn-abn-3", "arvn_airborne_brigade", "ARVN 3rd Airborne Bde", "III",
   "Airborne Division of three brigades, late 1968")
rf("January/February", 1970, "arvn-ftr-2", "arvn_fighter_wing", "VNAF wing (expansion)", "air",
   "VNAF doubled 1969-72")
rf("January/February", 1970, "arvn-heli-1", "arvn_helicopter", "VNAF helicopter wing", "air",
   "UH-1 squadrons handed over 1970")
rf("January/February", 1970, "arvn-acr-4", "arvn_armored_cav_regiment", "ARVN armored cavalry (IV Corps)", "IV", "armor expanded, 1970")
rf("January/February", 1970, "arvn-fb-3", "arvn_firebase", "ARVN corps artillery (1970)", "5.6.2", "1970")
rf("March/April", 1970, "arvn-rgr-5", "arvn_ranger", "ARVN Border Rangers (II Corps)", "II",
   "CIDG camps converted to Border Ranger battalions, 1970")
rf("March/April", 1970, "arvn-rgr-6", "arvn_ranger", "ARVN Border Rangers (III Corps)", "III", "1970")
rf("March/April", 1970, "arvn-pb-2", "arvn_patrol_boat", "VNN riverine force (ACTOV)", "IV",
   "US river craft handed over 1969-70")
rf("May/June", 1970, "thai-333", "thai_333_ranger", "Thai 333 Ranger", "LA_zone", "28.6.1: May-June 1970")
rf("September/October", 1971, "arvn-3div", "arvn_infantry_division", "ARVN 3rd Division", "I", "formed 1 October 1971")
rf("March/April", 1972, "us-sac-3", "us_sac_wing", "Bullet Shot B-52 reinforcement", "air",
   "Operation Bullet Shot, February-May 1972")

REINFORCEMENTS = [{"turn": t, "units": SCHEDULE[t]} for t in sorted(SCHEDULE)]

# binding withdrawals of the schedule (4.3.1): only forces whose own governments recalled them
WITHDRAWALS = [
    {"turn": turn_of("May/June", 1968), "unit": "thai-qc", "rule": "4.3.3", "regardless_of_location": True,
     "history": "the rule text's own case"},
    {"turn": turn_of("November/December", 1971), "unit": "anzac-1atf", "rule": "4.3.1",
     "regardless_of_location": True, "history": "1 ATF left Nui Dat, 7 November 1971"},
    {"turn": turn_of("January/February", 1972), "unit": "thai-bp", "rule": "4.3.1",
     "regardless_of_location": True, "history": "Thai forces withdrawn 1971-72, the last early in 1972"},
    {"turn": turn_of("January/February", 1972), "unit": "rok-2mar", "rule": "4.3.1",
     "regardless_of_location": True, "history": "Blue Dragon Brigade left, February 1972"},
    {"turn": turn_of("March/April", 1973), "unit": "rok-cap", "rule": "4.3.1", "regardless_of_location": True,
     "history": "last ROK forces left, March 1973"},
    {"turn": turn_of("March/April", 1973), "unit": "rok-9", "rule": "4.3.1", "regardless_of_location": True,
     "history": "last ROK forces left, March 1973"},
    {"turn": turn_of("March/April", 1973), "unit": "seato-fb", "rule": "4.3.1", "regardless_of_location": True,
     "history": "no SEATO ground force left to support"},
]

# the historical US withdrawals (not binding: 23.3 and 24.3.1 leave the choice to the Allied player)
USW = {}


def uw(months, year, units, history):
    USW.setdefault(turn_of(months, year), {"units": [], "history": []})
    USW[turn_of(months, year)]["units"].extend(units)
    USW[turn_of(months, year)]["history"].append(history)


uw("July/August", 1969, ["us-1-9", "us-2-9", "us-9mar"], "Keystone Eagle (25,000), July-August 1969")
uw("September/October", 1969, ["us-3mar"], "Keystone Cardinal, October 1969")
uw("November/December", 1969, ["us-4mar", "us-3-82"], "Keystone Cardinal, November-December 1969")
uw("March/April", 1970, ["us-1-1", "us-2-1", "us-3-1", "us-26mar", "us-3-4"], "Keystone Bluejay, February-April 1970")
uw("September/October", 1970, ["us-199", "us-3-9", "us-7mar"], "Keystone Robin Alpha, October 1970")
uw("November/December", 1970, ["us-1-4", "us-2-4", "us-1-25", "us-3-25"], "Keystone Robin Bravo, December 1970")
uw("March/April", 1971, ["us-11acr", "us-1-1cav", "us-2-1cav", "us-2-25", "us-5mar", "us-gb-1", "us-gb-2",
                         "us-gb-3", "us-gb-4", "us-gb-5", "us-5sfm"],
   "Keystone Robin Charlie; 5th Special Forces Group left 5 March 1971")
uw("May/June", 1971, ["us-1mar"], "1st Marine Division left, May 1971")
uw("July/August", 1971, ["us-173", "us-1-5mech", "us-pb-1", "us-pb-2"], "Keystone Oriole Alpha, August 1971")
uw("November/December", 1971, ["us-11-amer", "us-198-amer"], "Keystone Oriole Bravo: the Americal's 11th and 198th Brigades, November 1971")
uw("January/February", 1972, ["us-1-101", "us-2-101", "us-3-101"], "Keystone Oriole Charlie and Mallard: 101st Airborne, December 1971-March 1972")
uw("May/June", 1972, ["us-3-1cav", "us-196-amer", "us-fb-laikhe", "us-fb-pleiku", "us-fb-khesanh"],
   "Keystone Pheasant and Wren: the last ground combat brigades, June-August 1972")
uw("July/August", 1973, ["us-ftr-1", "us-ftr-2", "us-ftr-3", "us-ftr-4", "us-ftr-5", "us-cv-1", "us-cv-2",
                         "us-sac-1", "us-sac-2", "us-sac-3", "us-heli-1", "us-heli-2", "us-heli-3", "us-heli-4",
                         "us-soa", "us-fleet"],
   "Case-Church amendment: no US combat in Indochina after 15 August 1973")
US_WITHDRAWALS = [{"turn": t, **USW[t]} for t in sorted(USW)]

PURCHASABLE = [
    {"id": "us-usmc-iii", "type": "us_marine_iii", "name": "27th Marines (USMC III)", "rule": "28.3.1",
     "from_turn": 1, "cost": {"US": 2}, "enter": "I"},
    {"id": "lao-paracdo", "type": "lao_paracommando", "name": "Lao Para-Commando", "rule": "28.11.5",
     "from_turn": turn_of("January/February", 1967), "cost": {"INDOCHINESE": 1, "US": 1}, "enter": "LA_zone"},
]


def on(rule, months, year, what, until=None):
    d = {"rule": rule, "from_turn": turn_of(months, year), "text_date": f"{months} {year}", "what": what}
    if until:
        d["until_turn"] = turn_of(*until)
    return d


DATED_RULES = [
    on("24.2", "January/February", 1966, "Full Vietnamization may no longer be declared (declare on turns 1-5)"),
    on("28.5", "January/February", 1966, "one ARVN Ranger may change corps per turn (none in 1965)"),
    on("26.1", "January/February", 1967, "the National Uprising may be declared from this turn"),
    on("28.11.5", "January/February", 1967, "the Lao Para-Commando may be recruited"),
    on("11.6", "January/February", 1968, "US carrier air may be used anywhere (before: NV, Laos, China, "
       "Marine corps zones)"),
    on("11.7", "January/February", 1968, "US and ARVN air may combine in a hex"),
    on("11.8", "January/February", 1968, "Operation Niagara"),
    on("4.3.3", "May/June", 1968, "the Thai QC regiment is removed", until=("May/June", 1968)),
    on("28.5", "January/February", 1969, "two ARVN Rangers may change corps per turn"),
    on("28.6.1", "May/June", 1970, "the Thai 333 Ranger appears", until=("May/June", 1970)),
    on("8.4", "January/February", 1971, "improved Ho Chi Minh Trail: supply units 15 movement points"),
    on("11.9.1", "January/February", 1972, "Operation Linebacker (11.9)"),
]

ELECTIONS = [
    {"turn": turn_of("November/December", 1968), "year": 1968, "dice": 3, "rule": "23.1, 23.2"},
    {"turn": turn_of("November/December", 1972), "year": 1972, "dice": 4, "rule": "23.1, 23.2"},
]

AID_TURNS = [turn_of("January/February", y) for y in range(1966, 1976)]

# the Communist Aid chart (27.1 'see chart on Player Aid card', not printed): authored
AID = {
    "rule": "27.1",
    "roll_turns": AID_TURNS,
    "roll_turns_note": "each January/February turn (27.1), in the Communist Recruitment phase (reading); at once "
                       "when 27.1.2 applies; aid begins at once when Vietnamization is reversed (24.4.3)",
    "chart": [
        {"source": "china", "rule": "27.2", "die": "d6", "aid_begins_if_at_least": 5},
        {"source": "soviet", "rule": "27.3", "die": "d6", "aid_begins_if_at_least": 5},
    ],
    "chart_note": "authored: one roll per source (14.2.2 modifies only the Soviet roll); aid begins on a modified 5 "
                  "or more, so full Vietnamization's -2 shuts it unless the Allies invade the North (+2)",
    "modifiers": [
        {"rule": "27.1.1, 24.2.9", "if": "full Vietnamization in progress", "change": -2},
        {"rule": "27.1.1, 24.3.4", "if": "partial Vietnamization or an election withdrawal (23.3) in progress",
         "change": -1},
        {"rule": "27.1.2", "if": "Allied ground units entered North Vietnam (not by retreat)", "change": 2},
        {"rule": "14.2.2", "if": "Haiphong is mined (Soviet roll only)", "change": 1, "source": "soviet"},
    ],
}

HEARTS_AND_MINDS_START = {"I": "neutral", "II": "pro_communist", "III": "neutral", "IV": "pro_communist",
                          "CA": "neutral", "LA": "neutral"}

VICTORY = {
    "basis": "22.4 complete (every item), with 23, 24 and 26 in force",
    "initial_political_points": 100,
    "sudden_death": {"communist_if_below": 0, "allied_if_above": 250, "allied_if_above_after_reversal": 300,
                     "rule": "22.4, 24.4.3", "bounds_before_turn_24_under_full_vietnamization": [1, 249],
                     "bounds_rule": "24.2.10"},
    "end_of_game": {
        "after": "Allied political phase of turn 63 (July/August 1975)",
        "allied_victory_if_at_least": 100,
        "allied_victory_also_requires": "Saigon not occupied by face-up Communist units",
        "otherwise": "communist",
        "source": "authored: South Vietnam survives if the Allies end the war at or above their March 1965 "
                  "standing (100, the threshold of 23.6 and 23.8) with Saigon held; otherwise Hanoi has outlasted "
                  "them",
    },
}

META = {
    "authored_by": "afteraction project. The rule text names the campaign game (2: up to 63 bimonthly turns, "
                   "elections on turns 23 and 47) and the Allied Reinforcement Schedule (4.2.1, 4.3.1) but prints "
                   "neither; this set-up, the schedules, the starting tracks and the end-of-game thresholds are the "
                   "project's own, after the historical order of battle (docs/rules/ntnd-authoring/campaign.md).",
    "map": "map.json hex ids (CCRR) or off-board zone ids",
    "counters": "counters.json unit type ids",
    "ids": "unit ids shared with scenario_tet.json name the same counter (same type)",
    "enter": "I-IV: that corps' HQ (5.4; 5.5 units any HQ); air: the Available box (5.6); LA_zone: Luang Prabang "
             "or Vientiane (28.6.1, 28.11.5); 5.6.2: a firebase, placed with a non-militia ground combat unit of its "
             "nationality",
}

CAMPAIGN = {
    "meta": META,
    "id": "campaign_1965",
    "name": "Campaign Game",
    "description": "March 1965 - July/August 1975: from the first Marine landings at Da Nang to the fall of the "
                   "South; the whole military and political game.",
    "turns": TURNS,
    "features": sorted(FEATURES),
    "features_note": "the rule families in force (engine/games/ntnd/components/features.py): all of them, the whole military "
                     "and political game",
    "first_player": "communist",
    "turn_sequence_rule": "3 (Communist player turn, then Allied player turn; all phases of 3.1 and 3.2)",
    "rules_not_used": {},
    "scenario_rules": {
        "neutral_countries": ["CA", "LA"],
        "neutral_rule": "10.1",
        "hearts_and_minds_boxes": ["communist_control", "pro_communist", "neutral", "pro_allied", "allied_control"],
        "hearts_and_minds_boxes_note": "authored: the five positions 7 and 22.4 name, Communist end first",
        "hearts_and_minds": HEARTS_AND_MINDS_START,
        "armor_shock_available": True,
        "armor_shock_rule": "28.8 (campaign: declared once per game)",
        "optional_rules_in_force": ["28.1", "28.2", "28.3", "28.4", "28.5", "28.6", "28.7", "28.8", "28.9",
                                    "28.10", "28.11"],
        "optional_rules_not_in_force": {"28.3.2": "3/82 and 1/5 Mech arrive on the schedule, not by purchase"},
        "haiphong_mined": False,
        "game_year": "a calendar year (4.5.3 draft count, 26.5 'one year'); 1965 has turns 1-5",
    },
    "dated_rules": DATED_RULES,
    "elections": ELECTIONS,
    "communist_aid": AID,
    "national_uprising": {"earliest_turn": turn_of("January/February", 1967), "rule": "26.1"},
    "vietnamization": {
        "full": {"declare_by_turn": turn_of("January/February", 1966) - 1, "rule": "24.2",
                 "when": "an Allied Reinforcement and Replacement phase (3.2.1) of turns 1-5 (reading)"},
        "partial": {"declare_from_turn": 1, "rule": "24.3",
                    "when": "any Allied Reinforcement and Replacement phase; forced by 23.8; not after a peace-party "
                            "win (24.3)"},
    },
    "setup": {"allied": A, "allied_air_available": AIR, "communist": C},
    "reinforcements": {
        "allied": REINFORCEMENTS,
        "allied_note": "4.2.1: the earliest turn each unit may enter; the Allied player may delay it. Under full "
                       "Vietnamization 24.2.1-24.2.3 apply to this list",
        "allied_withdrawals": WITHDRAWALS,
        "allied_withdrawals_note": "4.3.1: binding; removed wherever they are, dead pile and Turn Record Track "
                                   "included, as 4.3.3 says of the QC (reading for the SEATO recalls)",
        "historical_us_withdrawals": US_WITHDRAWALS,
        "historical_us_withdrawals_note": "not binding: US units leave only by 23.3, 23.4, 24.3.1 and 24.3.6, the "
                                          "Allied player choosing; this is history's order, for bots and players",
        "allied_purchasable": PURCHASABLE,
        "communist": {"rule": "4.1", "note": "standard recruitment each turn (4.1.1-4.1.7) plus 4.1.5 sources: "
                                             "random events, aid (27), Hearts and Minds (7.4.1), 4.5.1, 26"},
        "allied_replacement_points": {"rule": "4.2.2", "per_turn": {"US": 2, "SEATO": 1, "INDOCHINESE": 1},
                                      "SV": "from the Hearts and Minds Track (4.2.2, 7.3.1), up to 2"},
    },
    "victory": VICTORY,
}

SHORT_TURNS = 4
SHORT = {
    "meta": {
        "authored_by": "afteraction project: a short campaign (the first four turns of the campaign game) for a "
                       "golden log; not in the rule text",
        "based_on": "scenario_campaign.json",
    },
    "id": "campaign_1965_short",
    "name": "Campaign Game: 1965 (short)",
    "description": "March/April - September/October 1965: the campaign game's set-up, schedule and rules for its "
                   "first four turns.",
    "based_on": "campaign_1965",
    "turns": TURNS[:SHORT_TURNS],
    "uses": "everything of campaign_1965 except turns and victory; reinforcements and withdrawals only of these "
            "turns",
    "victory": {
        "basis": "22.4 complete, as the campaign",
        "initial_political_points": 100,
        "sudden_death": {"communist_if_below": 0, "allied_if_above": 250, "rule": "22.4"},
        "end_of_game": {
            "after": f"Allied political phase of turn {SHORT_TURNS} (September/October 1965)",
            "allied_victory_if_at_least": 100,
            "communist_victory_if_below": 90,
            "otherwise": "draw",
            "source": "authored: as Tet, the Allies must hold their start; a net loss of 10 points in four turns "
                      "is a Communist win",
        },
    },
}



def doc_tables() -> dict[str, str]:
    """The tables of campaign.md, from the data (so the document cannot drift from it)."""
    T = {t["number"]: f'{t["months"]} {t["year"]}' for t in TURNS}
    out = {"dated": ["| rule | turns | text's date | what |", "|---|---|---|---|"]}
    for r in DATED_RULES:
        out["dated"].append(f'| {r["rule"]} | {r["from_turn"]} {"only" if "until_turn" in r else "on"} | '
                            f'{r["text_date"]} | {r["what"]} |')
    out["schedule"] = ["| turn | date | unit (`id`, type) | enters | history |", "|---|---|---|---|---|"]
    for w in REINFORCEMENTS:
        for u in w["units"]:
            out["schedule"].append(f'| {w["turn"]} | {T[w["turn"]]} | {u["name"]} (`{u["id"]}`, {u["type"]}) | '
                                   f'{u["enter"]} | {u["history"]} |')
    out["withdrawals"] = ["| turn | date | unit | rule | history |", "|---|---|---|---|---|"]
    for w in WITHDRAWALS:
        out["withdrawals"].append(f'| {w["turn"]} | {T[w["turn"]]} | `{w["unit"]}` | {w["rule"]} | {w["history"]} |')
    out["us_withdrawals"] = ["| turn | date | units | history |", "|---|---|---|---|"]
    for w in US_WITHDRAWALS:
        out["us_withdrawals"].append(f'| {w["turn"]} | {T[w["turn"]]} | {", ".join("`" + x + "`" for x in w["units"])} '
                                     f'| {"; ".join(w["history"])} |')
    return {k: "\n".join(v) for k, v in out.items()}


def splice(doc: str) -> str:
    import re
    for name, table in doc_tables().items():
        pat = re.compile(rf"(<!-- table:{name} -->\n).*?(\n<!-- end -->)", re.S)
        assert pat.search(doc), name
        doc = pat.sub(lambda m: m.group(1) + table + m.group(2), doc)
    return doc


if __name__ == "__main__":  # gen_scenarios.py imports this module's data without writing
    open(sys.argv[1], "w").write(dumps(CAMPAIGN, width=160) + "\n")
    open(sys.argv[2], "w").write(dumps(SHORT, width=160) + "\n")
    if len(sys.argv) > 3:  # campaign.md: rewrite its tables in place
        text = open(sys.argv[3]).read()
        open(sys.argv[3], "w").write(splice(text))
    print("allied", len(A), "air", len(AIR), "communist", len(C), "scheduled", sum(len(v) for v in SCHEDULE.values()))
