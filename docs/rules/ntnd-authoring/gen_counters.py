import sys
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
from fmtjson import dumps

A = "authored"
T = []  # (id, fields)


def ut(id_, name, side, nat, category, size, morale, morale_src, mclass, stacking, rules, mix, mix_src=A,
       mechanized=False, aa=None, fire_support=None, zoi=None, airmobile=False, guerrilla=False,
       can_invert=None, notes=None):
    ground = category == "ground_combat"
    zoc = ground and morale in (3, 4) and stacking in ("ground_combat",)
    T.append((id_, {
        "name": name, "side": side, "nationality": nat, "category": category, "size": size,
        "mechanized": mechanized, "airmobile": airmobile, "guerrilla": guerrilla,
        "morale": morale, "morale_source": morale_src,
        "movement_class": mclass,
        "zoc": zoc,
        "zoi_range": zoi,
        "aa": aa,
        "fire_support_range": fire_support,
        "can_invert": (side == "communist" and category != "air") if can_invert is None else can_invert,
        "stacking_class": stacking,
        "counter_mix": mix, "counter_mix_source": mix_src,
        "rules": rules,
        **({"notes": notes} if notes else {}),
    }))


C, AL = "communist", "allied"
# ---------------- Communist ----------------
for nat, natname, home, mor in (("VC", "Viet Cong", "SV", 2), ("PL", "Pathet Lao", "LA", 1), ("KR", "Khmer Rouge", "CA", 2)):
    ut(f"{nat.lower()}_cadre", f"{natname} cadre", C, nat, "ground_combat", "cadre", mor, A, "guerrilla",
       "ground_combat", ["2.2", "4.1.1", "6.1.1", "7.4", "8.2.2"], {"VC": 10, "PL": 6, "KR": 6}[nat], guerrilla=True)
ut("vc_regiment", "Viet Cong regiment", C, "VC", "ground_combat", "regiment", 3, "19.2.1 example (VC regiment, morale 3)",
   "guerrilla", "ground_combat", ["2.2", "6.1.1", "8.2.2", "19.2.1"], 14, guerrilla=True)
ut("pl_regiment", "Pathet Lao regiment", C, "PL", "ground_combat", "regiment", 2, A, "guerrilla", "ground_combat",
   ["2.2", "6.1.1", "10.3.3"], 6, guerrilla=True)
ut("kr_regiment", "Khmer Rouge regiment", C, "KR", "ground_combat", "regiment", 3, A, "guerrilla", "ground_combat",
   ["2.2", "6.1.1", "10.3.3"], 6, guerrilla=True)
ut("vc_sapper", "VC sapper", C, "VC", "ground_combat", "regiment", 3, "28.7.1 (acts as a VC regiment)", "guerrilla",
   "ground_combat", ["2.2", "6.1.2", "28.7.1", "28.7.2"], 4, guerrilla=True,
   notes="28.7.2: an attacking force including a sapper cancels the defender's terrain (incl. town/city) modifier; one sapper per attack; no defensive effect")
ut("nva_division", "NVA infantry division", C, "NVA", "ground_combat", "division", 4,
   "19.2.1 example (NVA division, morale 4)", "communist_ground", "ground_combat",
   ["2.2", "4.1.3", "4.1.7", "6.1.3", "12.1.1", "19.2.1", "28.10"], 14, aa=[6],
   notes="4.1.7 / 28.10: at most 10 NVA divisions on the map before a National Uprising (an on-map limit, not the mix)")
ut("nva_tank_regiment", "NVA tank (armor) regiment", C, "NVA", "ground_combat", "regiment", 4, A,
   "communist_mechanized", "ground_combat", ["2.2", "6.2", "12.1.1", "27.3", "28.8"], 3, mechanized=True, aa=[6],
   can_invert=False, notes="6.2: tank regiments may never be inverted; 28.8: armor shock +1 on the first turn tanks attack")
ut("nva_artillery", "NVA artillery group", C, "NVA", "support", "group", 1, "13.2.1 (defensive morale 1 when alone)",
   "communist_ground", "artillery", ["2.2", "4.1.3", "12.1.1", "13.2", "13.2.1", "19.2.2"], 6, aa=[5, 6],
   fire_support=1)
ut("nva_sam", "NVA SAM (anti-aircraft) regiment", C, "NVA", "support", "regiment", None,
   "13.3: no defensive capability, eliminated if alone and attacked", "communist_ground", "sam",
   ["2.2", "4.1.3", "12.1.1", "13.3"], 6, aa=[4, 5, 6])
ut("communist_supply", "Communist supply unit", C, "NVA", "support", "supply", None, "18.6.1: eliminated if attacked alone",
   "communist_supply", "supply", ["4.1.4", "8.2", "8.4", "8.6.1", "18.1.2", "18.6"], 12)
ut("communist_dummy", "Communist dummy", C, "VC", "dummy", "none", None, "17.2: no combat value", "guerrilla",
   "ground_combat", ["4.1.2", "17.1", "17.2"], 8, can_invert=True,
   notes="must be placed inverted (4.1.2); destroyed when turned face up (17.2); stacking as a ground combat unit is the project's reading (8.10 is silent)")
ut("vc_base", "VC base", C, "VC", "support", "base", None, "28.9.6: eliminated only by a triple combat result",
   "immobile", "vc_base", ["2.2", "8.2", "28.9"], 4, "28.9.3 (one per corps, four corps)", can_invert=False)
ut("nva_interceptor", "Communist interceptor wing", C, "NVA", "air", "wing", None, "11.5 dogfight 4-6",
   "interceptor", "none", ["2.2", "8.2.5", "11.5", "12.1.1"], 4, aa=[4, 5, 6], can_invert=False)

# ---------------- Allied: United States ----------------
ut("us_infantry_brigade", "US infantry / airborne brigade", AL, "US", "ground_combat", "brigade", 4, A,
   "allied_ground", "ground_combat", ["2.2", "5.2.2"], 18,
   notes="1st, 4th, 9th, 25th and Americal divisions (3 each), 173rd Abn, 199th Lt Inf, 3/82 Abn (28.3.2)")
ut("us_airmobile_brigade", "US airmobile brigade", AL, "US", "ground_combat", "brigade", 4, A, "airmobile",
   "ground_combat", ["2.2", "8.2", "8.2.2", "8.8.1", "11.1.4"], 6, airmobile=True,
   notes="1st Cavalry Division (3) and 101st Airborne Division (3)")
ut("us_marine_regiment", "US Marine regiment", AL, "US", "ground_combat", "regiment", 4,
   "19.2.1 example (U.S. Marine brigade, morale 4)", "allied_ground", "ground_combat",
   ["2.2", "5.2.2", "8.6.4", "11.6"], 7, notes="1st, 3rd, 4th, 5th, 7th, 9th, 26th Marines")
ut("us_marine_iii", "USMC III Marine regiment", AL, "US", "ground_combat", "regiment", 4, A, "allied_ground",
   "ground_combat", ["28.3"], 1, "28.3")
ut("us_mech_brigade", "US mechanized infantry brigade (1/5 Mech)", AL, "US", "ground_combat", "brigade", 4, A,
   "allied_mechanized", "ground_combat", ["2.2", "11.1.4", "28.3.2"], 1, "28.3.2", mechanized=True)
ut("us_armored_cav_regiment", "US armored cavalry regiment (11th ACR)", AL, "US", "ground_combat", "regiment", 4, A,
   "allied_mechanized", "ground_combat", ["2.2", "11.1.4"], 1, mechanized=True)
ut("us_5sfm", "5th Special Forces Mobile Strike Force (5SFM)", AL, "US", "ground_combat", "regiment", 2,
   "28.2.1 (2, or 3 inside a Green Beret zone of influence)", "airmobile", "ground_combat", ["28.2", "28.2.1", "5.5"], 1,
   "28.2", airmobile=True)
ut("us_green_beret", "US Green Beret (Special Forces)", AL, "US", "ground_combat", "team", 2, A, "immobile",
   "green_beret", ["2.2", "8.2", "8.5.3", "15"], 5, "15.1 (five Green Beret units)", zoi=2)
ut("us_firebase", "US firebase", AL, "US", "support", "firebase", 1, "13.1.3 (defensive morale 1 when alone)",
   "immobile", "firebase", ["2.2", "5.6.2", "5.8", "8.5.3", "13.1", "19.2.2"], 4, zoi=2, fire_support=2)
ut("us_patrol_boat", "US river patrol flotilla", AL, "US", "naval", "flotilla", 3, "14.1.1 (U.S. patrol boats morale 3)",
   "patrol_boat", "patrol_boat", ["2.2", "8.2", "8.2.4", "8.6", "14.1"], 2, fire_support=1)
ut("us_fleet", "US Navy task force (the fleet)", AL, "US", "naval", "task_force", None, "14.2: never affected by combat",
   "fleet", "none", ["2.2", "8.2.3", "8.5.3", "8.6", "14.2"], 1, "14 (the US fleet, singular)", zoi=2, fire_support=2)
ut("us_fighter_wing", "US fighter wing", AL, "US", "air", "wing", None, "11: air unit", "air", "none",
   ["2.2", "11.1", "11.2"], 6)
ut("us_carrier_wing", "US Navy carrier aviation wing (CV)", AL, "US", "air", "wing", None, "11.6", "air", "none",
   ["2.2", "11.6"], 2)
ut("us_sac_wing", "US SAC bomber wing", AL, "US", "air", "wing", None, "11.1.1", "air", "none",
   ["2.2", "11.1.1", "11.8", "11.9", "12.1.2"], 3)
ut("us_helicopter", "US helicopter gunship group", AL, "US", "air", "group", None, "11.1.4", "air", "none",
   ["2.2", "8.10.1.1", "11.1.2", "11.1.4"], 4)
ut("us_soa", "US Special Operations Aviation", AL, "US", "air", "wing", None, "28.1", "air", "none", ["28.1"], 1, "28.1")
# ---------------- Allied: South Vietnam ----------------
ut("arvn_infantry_division", "ARVN infantry division", AL, "ARVN", "ground_combat", "division", 2,
   "19.2.1 example (ARVN division, morale 2)", "allied_ground", "ground_combat", ["2.2", "5.2.3", "19.2.1", "25"], 11,
   notes="1st, 2nd, 3rd, 5th, 7th, 9th, 18th, 21st, 22nd, 23rd, 25th")
ut("arvn_infantry_regiment", "ARVN infantry regiment", AL, "ARVN", "ground_combat", "regiment", 2, A, "allied_ground",
   "ground_combat", ["2.2", "5.5"], 4)
ut("arvn_ranger", "ARVN ranger group", AL, "ARVN", "ground_combat", "regiment", 3, A, "ranger", "ground_combat",
   ["2.2", "8.2.2", "8.6.4", "18.1.1", "28.5"], 6)
ut("arvn_airborne_brigade", "ARVN airborne brigade", AL, "ARVN", "ground_combat", "brigade", 3, A, "airmobile",
   "ground_combat", ["2.2", "8.2", "8.8.1"], 3, airmobile=True)
ut("arvn_marine_brigade", "ARVN (VNMC) marine brigade", AL, "ARVN", "ground_combat", "brigade", 3, A, "allied_ground",
   "ground_combat", ["2.2", "8.6.4"], 2)
ut("arvn_armored_cav_regiment", "ARVN armored cavalry regiment", AL, "ARVN", "ground_combat", "regiment", 3,
   "19.2.1 example (ARVN armor regiment, morale 3)", "allied_mechanized", "ground_combat", ["2.2", "11.1.4", "19.2.1"],
   4, mechanized=True)
ut("arvn_militia", "South Vietnamese militia (RF/PF)", AL, "ARVN", "ground_combat", "militia", 1, A, "immobile",
   "militia", ["2.2", "4.2.7", "5.6.1", "7.3.3", "15.2.1", "15.2.2"], 6)
ut("arvn_phoenix", "Operation Phoenix cadre (PHx)", AL, "ARVN", "ground_combat", "cadre", 2, A, "immobile",
   "green_beret", ["2.2", "28.4"], 4, "28.4.1 (never more than one per corps)", zoi=2)
ut("arvn_firebase", "ARVN firebase", AL, "ARVN", "support", "firebase", 1, "13.1.3", "immobile", "firebase",
   ["5.6.2", "5.8", "13.1"], 3, zoi=2, fire_support=2)
ut("arvn_patrol_boat", "ARVN river patrol flotilla", AL, "ARVN", "naval", "flotilla", 2,
   "14.1.1 (ARVN patrol boats morale 2)", "patrol_boat", "patrol_boat", ["8.2.4", "8.6", "14.1"], 2, fire_support=1)
ut("arvn_fighter_wing", "VNAF fighter wing", AL, "ARVN", "air", "wing", None, "11", "air", "none", ["11.1", "11.7"], 2)
ut("arvn_helicopter", "VNAF helicopter group", AL, "ARVN", "air", "group", None, "11.1.4", "air", "none", ["11.1.4"], 1)
# ---------------- Allied: SEATO / Free World ----------------
ut("rok_infantry_division", "ROK infantry division", AL, "ROK", "ground_combat", "division", 4, A, "allied_ground",
   "ground_combat", ["5.2.2"], 2, notes="Capital (Tiger) and 9th (White Horse) divisions")
ut("rok_marine_brigade", "ROK marine brigade (Blue Dragon)", AL, "ROK", "ground_combat", "brigade", 4, A,
   "allied_ground", "ground_combat", ["5.2.2", "8.6.4"], 1)
ut("anzac_task_force", "Australian / New Zealand task force", AL, "ANZAC", "ground_combat", "brigade", 4, A,
   "allied_ground", "ground_combat", ["4.2.2"], 1)
ut("thai_infantry_regiment", "Thai Queen's Cobra (QC) regiment", AL, "THAI", "ground_combat", "regiment", 3, A,
   "allied_ground", "ground_combat", ["4.3.3", "5.2.2"], 1, "4.3.3 (the Thai QC regiment)")
ut("thai_infantry_division", "Thai Black Panther division", AL, "THAI", "ground_combat", "division", 3, A,
   "allied_ground", "ground_combat", ["5.2.2"], 1)
ut("thai_333_ranger", "Thai 333 Ranger", AL, "THAI", "ground_combat", "regiment", 3, "28.6 (functions as a ranger)",
   "ranger", "ground_combat", ["28.6", "28.11.1"], 1, "28.6")
ut("seato_firebase", "SEATO firebase", AL, "SEATO", "support", "firebase", 1, "13.1.3", "immobile", "firebase",
   ["5.6.2", "13.1"], 1, "5.6.2 (the SEATO firebase)", zoi=2, fire_support=2)
# ---------------- Allied: Laos, Cambodia, hill tribes ----------------
ut("lao_infantry_regiment", "Royal Lao infantry regiment", AL, "LAO", "ground_combat", "regiment", 2, A,
   "allied_ground", "ground_combat", ["5.2.1", "8.9.2", "10.3.2"], 4)
ut("lao_ranger", "Royal Lao ranger", AL, "LAO", "ground_combat", "regiment", 3, A, "ranger", "ground_combat",
   ["28.11.2"], 2)
ut("lao_guard", "Laotian Guard", AL, "LAO", "ground_combat", "regiment", 3, A, "allied_ground", "ground_combat",
   ["28.11.4"], 1, "28.11.4", notes="only placed in or moved between Luang Prabang and Vientiane")
ut("lao_paracommando", "Laotian Para-Commando", AL, "LAO", "ground_combat", "regiment", 3, A, "airmobile",
   "ground_combat", ["28.11.2", "28.11.5"], 1, "28.11.5", airmobile=True)
ut("lao_militia", "Laotian militia", AL, "LAO", "ground_combat", "militia", 1, A, "immobile", "militia",
   ["5.6.1", "15.2"], 3)
ut("khmer_infantry_regiment", "Cambodian (FANK) infantry regiment", AL, "KHMER", "ground_combat", "regiment", 2, A,
   "allied_ground", "ground_combat", ["5.2.1", "8.9.2", "10.3.1"], 4)
ut("khmer_militia", "Cambodian militia", AL, "KHMER", "ground_combat", "militia", 1, A, "immobile", "militia",
   ["5.6.1", "15.2"], 3)
ut("montagnard", "Montagnard (hill tribe) irregulars", AL, "MTG", "ground_combat", "militia", 2, A, "immobile",
   "militia", ["2.2", "16"], 4, "16.2 (at most four in play)",
   notes="16.3: function as militia raised by Green Berets in mountain hexes of Laos, I and II Corps")

NATIONALITIES = {
    "VC": {"side": C, "name": "Viet Cong (National Liberation Front)", "home": "SV", "guerrilla": True},
    "PL": {"side": C, "name": "Pathet Lao", "home": "LA", "guerrilla": True},
    "KR": {"side": C, "name": "Khmer Rouge", "home": "CA", "guerrilla": True},
    "NVA": {"side": C, "name": "North Vietnamese Army", "home": "NV", "guerrilla": False},
    "US": {"side": AL, "name": "United States", "home": None, "group": "US"},
    "ARVN": {"side": AL, "name": "Republic of Vietnam armed forces", "home": "SV", "group": "SV"},
    "ROK": {"side": AL, "name": "Republic of Korea", "home": None, "group": "SEATO"},
    "ANZAC": {"side": AL, "name": "Australia and New Zealand", "home": None, "group": "SEATO"},
    "THAI": {"side": AL, "name": "Thailand", "home": "TH", "group": "SEATO"},
    "SEATO": {"side": AL, "name": "SEATO (shared support units)", "home": None, "group": "SEATO"},
    "LAO": {"side": AL, "name": "Royal Lao government", "home": "LA", "group": "INDOCHINESE"},
    "KHMER": {"side": AL, "name": "Cambodian government (FANK)", "home": "CA", "group": "INDOCHINESE"},
    "MTG": {"side": AL, "name": "Montagnard / Meo hill tribes", "home": None, "group": "US"},
}

MOVEMENT = {
    "guerrilla": {"allowance": 10, "terrain_costs": False, "rules": ["8.2", "8.2.2", "17.2"],
                  "note": "Other Communist units 10 MP; guerrillas pay 1 MP per hex whatever the terrain (8.2.2)"},
    "communist_supply": {"allowance": 12, "improved_trail_allowance": 15, "terrain_costs": False,
                         "sea_movement": True, "rules": ["8.2", "8.2.2", "8.4", "8.6.1"]},
    "communist_ground": {"allowance": 10, "terrain_costs": True, "terrain_table": "foot", "rules": ["8.2", "8.2.6"]},
    "communist_mechanized": {"allowance": 10, "terrain_costs": True, "terrain_table": "mechanized",
                             "rules": ["8.2", "8.2.6"]},
    "allied_ground": {"allowance": 12, "terrain_costs": True, "terrain_table": "foot", "rules": ["8.2", "8.2.6"]},
    "allied_mechanized": {"allowance": 12, "terrain_costs": True, "terrain_table": "mechanized",
                          "rules": ["8.2", "8.2.6"]},
    "ranger": {"allowance": 12, "terrain_costs": False, "rules": ["8.2", "8.2.2"]},
    "airmobile": {"allowance": None, "monsoon_allowance": 9, "terrain_costs": False,
                  "range": "any hex of its corps or an adjacent corps/country in clear weather",
                  "rules": ["8.2", "8.2.2", "8.8.1.1"]},
    "patrol_boat": {"allowance": 18, "terrain_costs": False, "water_only": True, "monsoon_halved": False,
                    "rules": ["8.2", "8.2.1", "8.2.4", "8.6.1", "8.6.2"]},
    "fleet": {"allowance": None, "terrain_costs": False, "water_only": True, "monsoon_halved": False,
              "rules": ["8.2", "8.2.1", "8.2.3", "8.6.1"]},
    "air": {"allowance": None, "placement": "any hex or off-board zone", "rules": ["8.2", "8.2.5"]},
    "interceptor": {"allowance": None, "placement": "CHINA, HANOI or HAIPHONG zone only",
                    "zones": ["CHINA", "HAIPHONG", "HANOI"], "rules": ["8.2", "8.2.5", "11.5"]},
    "immobile": {"allowance": 0, "rules": ["8.2", "13.1", "15.2.3", "28.9.1"],
                 "note": "militia and Montagnards move freely inside a Green Beret zone of influence (15.2.1, 16.3)"},
}

STACKING = {
    "ground_combat_per_hex": 2,
    "ground_combat_allied_in_saigon": 3,
    "extra_per_hex": {
        "communist": {"artillery": 1, "sam": 1, "supply": None},
        "allied": {"firebase": 1, "green_beret": 1, "militia": 1, "patrol_boat": 1},
    },
    "vc_base_per_hex": 1,
    "not_counted": ["none"],
    "zones_unlimited": True,
    "rules": ["8.10.1", "8.10.1.1", "8.10.1.2", "8.10.1.3", "8.10.2", "28.9.1"],
    "notes": "None = unlimited. An air-mobilised ground unit and its helicopter count as one unit (8.10.1.1). "
             "Violations at the start or end of a combat phase eliminate the excess (8.10.2).",
}

types = dict(T)
total = sum(v["counter_mix"] for v in types.values())
out = {
    "meta": {
        "game": "No Trumpets No Drums (NTND), 2016 rules",
        "authored_by": "afteraction project. The rulebook has no counter sheet (2.1 mentions a 260-counter sheet "
                       "that is not reproduced); unit types follow 2.2 and 28. Values with a rule number in "
                       "*_source come from the text; 'authored' values are the project's own.",
        "zoc_rule": "8.5.1: face-up ground combat units with printed morale 3 or 4 have a zone of control; 'zoc' "
                    "here is that test applied to the printed morale (militia/Green Beret/Phoenix extras excluded)",
        "aa_rule": "12.1.1: die faces that shoot down one air unit; 12.1.2: subtract one against SAC",
        "fire_support_rule": "13.1.1, 13.2.1, 14.1, 14.2, 19.2.2: +1 to combat within this range in hexes",
        "counter_mix_rule": "4.4 and 6.1.4: the counter mix is a hard limit",
        "counter_mix_total": total,
        "markers_not_listed": ["month/year", "political points", "Haiphong Harbor Mined (14.2.2)", "supplies",
                               "corps Hearts and Minds (x6)"],
    },
    "nationalities": NATIONALITIES,
    "movement_classes": MOVEMENT,
    "stacking": STACKING,
    "unit_types": types,
}
open(sys.argv[1], "w").write(dumps(out) + "\n")
print("types", len(types), "mix total", total)
