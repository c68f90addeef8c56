import sys
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
from fmtjson import dumps

A = []   # allied set-up
Cm = []  # communist set-up


def al(uid, typ, name, loc, corps=None):
    A.append({"id": uid, "type": typ, "name": name, "location": loc, "corps": corps})


def co(uid, typ, name, loc, inverted):
    # name None: a numbered counter, named by the engine from counters.json (units.unit_name)
    Cm.append({"id": uid, "type": typ, **({} if name is None else {"name": name}), "location": loc,
               "inverted": inverted})


# ---------------- Allied, January 1968 (authored from the historical order of battle) -------------
# I Corps (III MAF), HQ Da Nang
al("us-26mar", "us_marine_regiment", "26th Marines", "1409", "I")
al("us-9mar", "us_marine_regiment", "9th Marines", "1408", "I")
al("us-3mar", "us_marine_regiment", "3rd Marines", "1509", "I")
al("us-1mar", "us_marine_regiment", "1st Marines", "1609", "I")
al("us-5mar", "us_marine_regiment", "5th Marines", "1810", "I")
al("us-7mar", "us_marine_regiment", "7th Marines", "1810", "I")
al("us-1-1cav", "us_airmobile_brigade", "1st Bde, 1st Cavalry Div", "1509")
al("us-2-1cav", "us_airmobile_brigade", "2nd Bde, 1st Cavalry Div", "1811")
al("us-11-amer", "us_infantry_brigade", "11th Bde, Americal Div", "2013", "I")
al("us-196-amer", "us_infantry_brigade", "196th Bde, Americal Div", "1912", "I")
al("us-198-amer", "us_infantry_brigade", "198th Bde, Americal Div", "1912", "I")
al("arvn-1div", "arvn_infantry_division", "ARVN 1st Division", "1609", "I")
al("arvn-2div", "arvn_infantry_division", "ARVN 2nd Division", "2013", "I")
al("us-fb-khesanh", "us_firebase", "Khe Sanh Combat Base", "1409")
al("us-gb-1", "us_green_beret", "A-101 Lang Vei / 5th SFG Co C", "1510")
al("arvn-mil-danang", "arvn_militia", "Quang Nam RF/PF", "1810")
al("us-fleet", "us_fleet", "Task Force 77 / Seventh Fleet", "1709")
# II Corps (I FFV), HQ Nha Trang
al("us-1-4", "us_infantry_brigade", "1st Bde, 4th Infantry Div", "1714", "II")
al("us-2-4", "us_infantry_brigade", "2nd Bde, 4th Infantry Div", "1715", "II")
al("us-3-4", "us_infantry_brigade", "3rd Bde, 4th Infantry Div", "1716", "II")
al("us-173", "us_infantry_brigade", "173rd Airborne Bde", "2014")
al("rok-cap", "rok_infantry_division", "ROK Capital (Tiger) Division", "2117", "II")
al("rok-9", "rok_infantry_division", "ROK 9th (White Horse) Division", "2121", "II")
al("rok-2mar", "rok_marine_brigade", "ROK 2nd Marine Bde (Blue Dragon)", "2118", "II")
al("arvn-22div", "arvn_infantry_division", "ARVN 22nd Division", "2117", "II")
al("arvn-23div", "arvn_infantry_division", "ARVN 23rd Division", "1819", "II")
al("arvn-rgr-2", "arvn_ranger", "ARVN 2nd Ranger Group", "1921", "II")
al("us-fb-pleiku", "us_firebase", "Firebase Pleiku", "1716")
al("us-gb-2", "us_green_beret", "5th SFG Co B (Pleiku)", "1816")
al("us-gb-3", "us_green_beret", "5th SFG Co B (Plei Me)", "1717")
# III Corps (II FFV), HQ Saigon
al("us-1-1", "us_infantry_brigade", "1st Bde, 1st Infantry Div", "1323", "III")
al("us-2-1", "us_infantry_brigade", "2nd Bde, 1st Infantry Div", "1423", "III")
al("us-3-1", "us_infantry_brigade", "3rd Bde, 1st Infantry Div", "1322", "III")
al("us-1-25", "us_infantry_brigade", "1st Bde, 25th Infantry Div", "1222", "III")
al("us-2-25", "us_infantry_brigade", "2nd Bde, 25th Infantry Div", "1324", "III")
al("us-3-25", "us_infantry_brigade", "3rd Bde, 25th Infantry Div", "1324", "III")
al("us-199", "us_infantry_brigade", "199th Light Infantry Bde", "1424")
al("us-11acr", "us_armored_cav_regiment", "11th Armored Cavalry Regt", "1524")
al("anzac-1atf", "anzac_task_force", "1st Australian Task Force", "1525", "III")
al("thai-qc", "thai_infantry_regiment", "Queen's Cobra Regiment", "1423", "III")
al("arvn-5div", "arvn_infantry_division", "ARVN 5th Division", "1322", "III")
al("arvn-18div", "arvn_infantry_division", "ARVN 18th Division", "1524", "III")
al("arvn-abn-1", "arvn_airborne_brigade", "ARVN 1st Airborne Bde", "1424")
al("arvn-mar-1", "arvn_marine_brigade", "VNMC Bde A", "1424", "III")
al("us-fb-laikhe", "us_firebase", "Firebase Lai Khe", "1323")
al("seato-fb", "seato_firebase", "Nui Dat", "1525")
al("arvn-fb-saigon", "arvn_firebase", "Saigon artillery", "1424")
al("us-gb-4", "us_green_beret", "5th SFG Co A (Tay Ninh)", "1422")
al("arvn-mil-saigon", "arvn_militia", "Gia Dinh RF/PF", "1424")
# IV Corps, HQ Soc Trang
al("us-1-9", "us_infantry_brigade", "1st Bde, 9th Infantry Div", "1325", "IV")
al("us-2-9", "us_infantry_brigade", "2nd Bde, 9th Infantry Div (Mobile Riverine Force)", "1225", "IV")
al("us-3-9", "us_infantry_brigade", "3rd Bde, 9th Infantry Div", "1126", "IV")
al("arvn-7div", "arvn_infantry_division", "ARVN 7th Division", "1325", "IV")
al("arvn-9div", "arvn_infantry_division", "ARVN 9th Division", "1225", "IV")
al("arvn-21div", "arvn_infantry_division", "ARVN 21st Division", "0928", "IV")
al("arvn-rgr-4", "arvn_ranger", "ARVN 4th Ranger Group", "1227", "IV")
al("us-pb-1", "us_patrol_boat", "Task Force 116 (Game Warden)", "1225")
al("arvn-pb-1", "arvn_patrol_boat", "VNN River Assault Group", "1126")
al("us-gb-5", "us_green_beret", "5th SFG Co D (Moc Hoa)", "1124")
# Laos and Cambodia (neutral, 10.1)
al("lao-1", "lao_infantry_regiment", "FAR Groupement Mobile", "VIENTIANE", "LA")
al("lao-guard", "lao_guard", "Royal Guard", "LUANG_PRABANG", "LA")
al("khmer-1", "khmer_infantry_regiment", "FARK brigade", "0922", "CA")

AIR_AVAILABLE = [
    {"id": "us-ftr-1", "type": "us_fighter_wing", "name": "7th Air Force wing A"},
    {"id": "us-ftr-2", "type": "us_fighter_wing", "name": "7th Air Force wing B"},
    {"id": "us-ftr-3", "type": "us_fighter_wing", "name": "1st Marine Air Wing"},
    {"id": "us-cv-1", "type": "us_carrier_wing", "name": "TF 77 carrier air wing"},
    {"id": "us-sac-1", "type": "us_sac_wing", "name": "B-52 Arc Light"},
    {"id": "us-heli-1", "type": "us_helicopter", "name": "1st Aviation Bde (north)"},
    {"id": "us-heli-2", "type": "us_helicopter", "name": "1st Aviation Bde (south)"},
    {"id": "arvn-ftr-1", "type": "arvn_fighter_wing", "name": "VNAF wing"},
]

# ---------------- Communist, January 1968 ---------------------------------------------------
# Khe Sanh / DMZ (B5 front)
co("nva-304", "nva_division", "304th Division", "1309", True)
co("nva-202tk", "nva_tank_regiment", "202nd Armored Regt (PT-76)", "1309", False)
co("nva-325c", "nva_division", "325C Division", "1410", True)
co("nva-320", "nva_division", "320th Division", "1407", False)
co("nva-324b", "nva_division", "324B Division", "1307", False)
co("nva-art-675", "nva_artillery", "675th Artillery Regt", "1309", True)
co("nva-art-164", "nva_artillery", "164th Artillery Regt", "1407", False)
# Hue (Tri-Thien-Hue front)
co("vc-6nva", "vc_regiment", "6th Regt (Hue assault)", "1610", True)
co("vc-sap-hue", "vc_sapper", "12th Sapper Bn (Hue)", "1610", True)
co("vc-4nva", "vc_regiment", "4th Regt (Phu Loc)", "1710", True)
co("sup-ashau", "communist_supply", "A Shau depot", "1510", True) if False else None
co("sup-ashau", "communist_supply", "A Shau depot", "1410", True)
# Quang Nam / Quang Ngai / Binh Dinh
co("nva-2", "nva_division", "2nd Division", "1711", True)
co("nva-3", "nva_division", "3rd (Yellow Star) Division", "1914", True)
co("vc-qngai", "vc_regiment", "48th Local Force Bn group", "1913", True)
# Central Highlands (B3 front)
co("nva-1", "nva_division", "1st Division", "1614", True)
co("nva-art-40", "nva_artillery", "40th Artillery Regt", "1614", True)
co("vc-dak-to", "vc_regiment", "24th Regt", "1813", True)
co("vc-bmt", "vc_regiment", "33rd Regt (Ban Me Thuot)", "1818", True)
co("vc-nt", "vc_regiment", "18B Regt (Nha Trang)", "2020", True)
co("vc-qn", "vc_regiment", "Binh Dinh Local Force", "2016", True)
# III Corps (B2 front)
co("nva-5vc", "nva_division", "5th VC Division", "1523", True)
co("nva-7", "nva_division", "7th Division", "1421", True)
co("nva-9vc", "nva_division", "9th VC Division", "1221", True)
co("vc-sap-c10", "vc_sapper", "C-10 Sapper Bn (Saigon)", "1425", True)
co("vc-sgn-1", "vc_regiment", "Dong Nai Regt", "1422", True) if False else None
co("vc-sgn-1", "vc_regiment", "Dong Nai Regt", "1623", True)
co("vc-sgn-2", "vc_regiment", "Quyet Thang Regt", "1425", True)
co("sup-353", "communist_supply", "Base Area 353", "1221", True)
# IV Corps
co("vc-iv-1", "vc_regiment", "Dong Thap 1 Regt", "1224", True)
co("vc-iv-2", "vc_regiment", "Tay Do Bn group", "1125", True)
co("vc-iv-3", "vc_regiment", "U Minh 10th Bn group", "0927", True)
co("vc-iv-4", "vc_regiment", "514th Provincial Bn group", "1326", True)
# cadres
for i, loc in enumerate(["1812", "1720", "1622", "1027", "1226", "1713"], 1):
    co(f"vc-cadre-{i}", "vc_cadre", None, loc, True)
co("pl-cadre-1", "pl_cadre", None, "1311", True)
co("pl-reg-1", "pl_regiment", "Pathet Lao battalion group", "PLAIN_OF_JARS", False)
co("kr-cadre-1", "kr_cadre", None, "0619", True)
# dummies (4.1.2: always inverted)
for i, loc in enumerate(["1813", "1914", "1622", "1623", "1026", "1713"], 1):
    co(f"communist-dummy-{i}", "communist_dummy", None, loc, True)
# North Vietnam and the trail
co("nva-sam-1", "nva_sam", "SAM regiment (Hanoi)", "HANOI", False)
co("nva-sam-2", "nva_sam", "SAM regiment (Vinh)", "1104", False)
co("nva-mig-1", "nva_interceptor", "921st Fighter Regt", "HANOI", False)
co("nva-mig-2", "nva_interceptor", "923rd Fighter Regt", "HAIPHONG", False)
co("sup-china", "communist_supply", "Chinese supply", "CHINA", False)
co("sup-hanoi", "communist_supply", "Hanoi supply", "HANOI", False)
co("sup-haiphong", "communist_supply", "Haiphong supply", "HAIPHONG", False)
co("sup-tchepone", "communist_supply", "Binh Tram (Tchepone)", "1208", True)
co("sup-attopeu", "communist_supply", "Binh Tram (Attopeu)", "1413", True)

Cm = [u for u in Cm if u]

TURNS = [
    {"number": 1, "campaign_turn": 18, "months": "January/February", "year": 1968, "monsoon": False},
    {"number": 2, "campaign_turn": 19, "months": "March/April", "year": 1968, "monsoon": False},
    {"number": 3, "campaign_turn": 20, "months": "May/June", "year": 1968, "monsoon": True},
    {"number": 4, "campaign_turn": 21, "months": "July/August", "year": 1968, "monsoon": True},
]

REINFORCEMENTS = {
    "allied": [
        {"turn": 1, "units": [
            {"id": "us-3-1cav", "type": "us_airmobile_brigade", "name": "3rd Bde, 1st Cavalry Div", "enter": "I"},
            {"id": "us-1-101", "type": "us_airmobile_brigade", "name": "1st Bde, 101st Airborne Div", "enter": "I"},
        ]},
        {"turn": 2, "units": [
            {"id": "us-2-101", "type": "us_airmobile_brigade", "name": "2nd Bde, 101st Airborne Div", "enter": "I"},
            {"id": "us-3-82", "type": "us_infantry_brigade", "name": "3rd Bde, 82nd Airborne Div", "enter": "I"},
            {"id": "us-4mar", "type": "us_marine_regiment", "name": "4th Marines", "enter": "I"},
            {"id": "us-usmc-iii", "type": "us_marine_iii", "name": "27th Marines (USMC III)", "enter": "I"},
        ]},
        {"turn": 3, "units": [
            {"id": "us-3-101", "type": "us_airmobile_brigade", "name": "3rd Bde, 101st Airborne Div", "enter": "I"},
            {"id": "arvn-abn-2", "type": "arvn_airborne_brigade", "name": "ARVN 2nd Airborne Bde", "enter": "III"},
        ]},
        {"turn": 4, "units": [
            {"id": "us-1-5mech", "type": "us_mech_brigade", "name": "1st Bde, 5th Infantry Div (Mech)", "enter": "I"},
            {"id": "thai-bp", "type": "thai_infantry_division", "name": "Black Panther Division", "enter": "III"},
        ]},
    ],
    "allied_note": "4.2.1: the earliest turn each unit may enter, at its corps HQ (5.4) or, for units not "
                   "attached to a corps (5.5), any corps HQ; the Allied player may delay them",
    "allied_withdrawals": [
        {"turn": 3, "unit": "thai-qc", "rule": "4.3.3",
         "note": "the Thai QC regiment leaves play in the May/June 1968 reinforcement phase wherever it is"},
    ],
    "communist": {
        "rule": "4.1",
        "per_turn": {"cadres": 3, "nva_units_in_china": 2, "supply_in_china_hanoi_haiphong": 3},
        "note": "standard Communist recruitment each turn (4.1.1-4.1.6); NVA divisions are capped at 10 on the "
                "map (4.1.7); dummies in the mix may be placed with inverted cadres (4.1.2, 17.1); no Hearts "
                "and Minds, aid or uprising extras in this scenario",
    },
    "allied_replacement_points": {
        "rule": "4.2.2",
        "per_turn": {"US": 2, "SEATO": 1, "INDOCHINESE": 1, "SV": 1},
        "note": "SV points fixed at 1 per turn because Hearts and Minds is not used (project's scenario rule)",
    },
}

VICTORY = {
    "basis": "22.4 military items only (purely military scenario, NTND 2); authored thresholds",
    "initial_political_points": 100,
    "scoring": [
        {"item": "Communist non-supply unit eliminated (dummies excepted)", "points": 1, "rule": "22.4", "when": "immediately"},
        {"item": "Allied unit eliminated", "points": -1, "rule": "22.4", "when": "immediately"},
        {"item": "SEATO or U.S. unit replaced", "points": -2, "rule": "22.4, 4.2.3", "when": "immediately"},
        {"item": "town in SV occupied by face-up Communist units", "points": -1, "rule": "22.4",
         "when": "end of each Communist and Allied political phase"},
        {"item": "city in SV occupied by face-up Communist units", "points": -2, "rule": "22.4",
         "when": "end of each Communist and Allied political phase"},
        {"item": "Saigon occupied by face-up Communist units (instead of the city penalty)", "points": -25,
         "rule": "22.4", "when": "end of each Communist and Allied political phase"},
    ],
    "not_scored": "Hearts and Minds items, neutral-country towns (22.4 note ^), random events, elections",
    "sudden_death": {"communist_if_below": 0, "allied_if_above": 250, "rule": "22.4"},
    "end_of_game": {
        "after": "Allied political phase of turn 4 (July/August 1968)",
        "allied_victory_if_at_least": 100,
        "communist_victory_if_below": 85,
        "otherwise": "draw",
        "source": "authored: the Allies must end where they started (Tet as a military defeat for Hanoi); "
                  "the Communist player wins by a net loss of 15 points (Tet as a political shock)",
    },
}

out = {
    "meta": {
        "authored_by": "afteraction project. The rule text names the scenario (NTND 2: 'The Tet Offensive ... "
                       "purely military scenarios') but gives no set-up; this set-up, schedule and victory "
                       "conditions are the project's own, loosely after the January 1968 order of battle.",
        "map": "map.json hex ids (CCRR) or off-board zone ids",
        "counters": "counters.json unit type ids",
    },
    "id": "tet_1968",
    "name": "Tet Offensive",
    "description": "January-August 1968: the General Offensive - General Uprising, the sieges of Khe Sanh and Hue "
                   "and the May offensive. Purely military: movement and combat systems only.",
    "turns": TURNS,
    "first_player": "communist",
    "turn_sequence_rule": "3 (Communist player turn, then Allied player turn)",
    "rules_not_used": {
        "3.1.2": "Communist Hearts and Minds phase skipped", "3.2.2": "Allied Hearts and Minds phase skipped",
        "3.2.8": "Random Events phase skipped", "7": "Hearts and Minds", "21": "Random Events",
        "23": "American Elections", "24": "Vietnamization", "26": "National Uprising (Tet is represented by the "
        "set-up)", "27": "Communist Aid",
    },
    "scenario_rules": {
        "neutral_countries": ["CA", "LA"],
        "neutral_rule": "10.1",
        "hearts_and_minds": {"I": "neutral", "II": "neutral", "III": "neutral", "IV": "neutral", "CA": "neutral",
                             "LA": "neutral"},
        "hearts_and_minds_note": "fixed for the whole scenario: no corps is Communist or Allied controlled, so 4.1.1, "
                                 "7.4.3 and 8.3 never apply",
        "armor_shock_available": True,
        "armor_shock_rule": "28.8 (scenario starts in 1968)",
        "joint_air_operations": "11.7 and 11.8 are in force from January/February 1968",
        "arvn_demoralised": "25.1 not used (political points start at 100)",
        "optional_rules_in_force": ["28.7", "28.8"],
    },
    "setup": {
        "allied": A,
        "allied_air_available": AIR_AVAILABLE,
        "communist": Cm,
    },
    "reinforcements": REINFORCEMENTS,
    "victory": VICTORY,
}
open(sys.argv[1], "w").write(dumps(out) + "\n")
print("allied", len(A), "communist", len(Cm))
