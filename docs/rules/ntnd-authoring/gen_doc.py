import re
import sys

D = "engine/games/ntnd/data/"
MAP, CNT, TER, TET = D + "map.json", D + "counters.json", D + "terrain.json", D + "scenario_tet.json"
MPY, UPY = "engine/games/ntnd/components/map.py", "engine/games/ntnd/components/pieces.py"
T = "tests/ntnd/test_ntnd_data.py::"

DATA = {
    "2": (TET, "test_ntnd_scenario_tet_shape"),
    "2.1": (f"{MAP}, {CNT}", "test_ntnd_map_meta_marks_authored_and_convention, test_ntnd_4_4_counter_mix"),
    "2.2": (f"{CNT} unit_types; {UPY}", "test_ntnd_2_2_every_unit_type_present"),
    "4.1.2": (TET, "test_ntnd_17_and_6_2_inversion_in_tet"),
    "4.1.7": (f"{CNT} nva_division notes; {TET}", "test_ntnd_4_1_7_tet_at_most_ten_nva_divisions"),
    "4.2.1": (f"{TET} reinforcements", "test_ntnd_scenario_tet_units_reference_types_and_hexes"),
    "4.3.3": (f"{TET} allied_withdrawals", "-"),
    "4.4": (f"{CNT} counter_mix; {UPY} Counters.mix_limit",
            "test_ntnd_4_4_counter_mix, test_ntnd_4_4_scenario_tet_respects_counter_mix"),
    "5.1": (f"{MAP} corps_hq, hexes[].corps; {MPY} corps_hq_of",
            "test_ntnd_5_1_corps_headquarters, test_ntnd_5_every_sv_hex_has_a_corps_zone, "
            "test_ntnd_5_corps_zones_are_contiguous"),
    "5.2.1": (f"{TET} corps", "test_ntnd_5_2_tet_corps_attachments"),
    "5.2.2": (f"{TET} corps", "test_ntnd_5_2_tet_corps_attachments"),
    "6.2": (f"{CNT} can_invert", "test_ntnd_17_and_6_2_inversion_in_tet"),
    "8.1": (f"{TER} movement.terrain_tables", "test_ntnd_8_2_movement_costs"),
    "8.2": (f"{CNT} movement_classes; {UPY} MovementClass", "test_ntnd_8_2_movement_allowances"),
    "8.2.1": (f"{TER} movement.monsoon; {UPY} MovementClass.allowance_for; {TET} turns[].monsoon",
              "test_ntnd_8_2_movement_allowances, test_ntnd_scenario_tet_shape"),
    "8.2.2": (f"{TER} movement.flat_cost; {UPY} TerrainChart.entry_cost",
              "test_ntnd_8_2_movement_allowances, test_ntnd_8_2_movement_costs"),
    "8.2.3": (f"{MAP} hexes[].coastal, sea hexes", "test_ntnd_8_2_3_coastal_hexes_and_sea_lanes"),
    "8.2.4": (f"{MAP} hexes[].major_river", "test_ntnd_8_2_4_major_rivers_reach_phnom_penh"),
    "8.2.5": (f"{CNT} movement_classes.interceptor", "-"),
    "8.2.6": (f"{TER} movement (authored chart)", "test_ntnd_8_2_movement_costs"),
    "8.2.7": (f"{MAP} roads, trails; {TER} movement.road/trail; {MPY} road_between/trail_between",
              "test_ntnd_8_2_7_roads_and_trails_connect, test_ntnd_8_2_movement_costs"),
    "8.4": (f"{CNT} movement_classes.communist_supply; {TER} reach.improved_trail",
            "test_ntnd_8_2_movement_allowances"),
    "8.5.1": (f"{CNT} unit_types[].zoc", "test_ntnd_8_5_1_zoc_follows_printed_morale"),
    "8.5.2": (f"{TER} movement.infiltration", "-"),
    "8.5.3": (f"{CNT} zoi_range; {TER} movement.zone_of_influence", "-"),
    "8.6.1": (f"{TER} movement.water_movement", "test_ntnd_8_2_3_coastal_hexes_and_sea_lanes"),
    "8.6.4": (f"{TER} movement.water_movement.amphibious", "-"),
    "8.9.2": (TET, "test_ntnd_8_9_2_tet_neutral_forces_at_home"),
    "8.10.1": (f"{CNT} stacking; {UPY} Counters.stacking_violations",
               "test_ntnd_8_10_stacking_rules, test_ntnd_8_10_scenario_tet_stacking"),
    "8.10.1.2": (f"{CNT} stacking", "test_ntnd_8_10_stacking_rules"),
    "8.10.1.3": (f"{CNT} stacking.zones_unlimited", "test_ntnd_8_10_scenario_tet_stacking"),
    "9.1": (f"{MAP} zones; {MPY} neighbours/zones_next_to",
            "test_ntnd_9_offboard_zones_adjacent, test_ntnd_map_adjacency_is_symmetric"),
    "9.1.1.1": (f"{MAP} zones.HAIPHONG adjacent sea hexes", "test_ntnd_9_offboard_zones_adjacent"),
    "9.2": (f"{TER} defence.zones, movement.infiltration", "-"),
    "10.1": (f"{TET} scenario_rules.neutral_countries", "test_ntnd_8_9_2_tet_neutral_forces_at_home"),
    "12.1.1": (f"{CNT} unit_types[].aa; {UPY} UnitType.aa_hits", "test_ntnd_12_1_1_anti_aircraft"),
    "12.1.2": (f"{UPY} UnitType.aa_hits", "test_ntnd_12_1_1_anti_aircraft"),
    "13.1.3": (f"{CNT} us_firebase.morale", "test_ntnd_19_2_1_morale_examples"),
    "13.2.1": (f"{CNT} nva_artillery.morale, fire_support_range", "test_ntnd_19_2_1_morale_examples"),
    "14.1.1": (f"{CNT} patrol boat morale", "test_ntnd_19_2_1_morale_examples"),
    "15.1": (f"{CNT} us_green_beret.counter_mix", "test_ntnd_4_4_counter_mix"),
    "16.2": (f"{CNT} montagnard.counter_mix", "test_ntnd_4_4_counter_mix"),
    "17.2": (f"{CNT} communist_dummy; {TET}", "test_ntnd_17_and_6_2_inversion_in_tet"),
    "19.1.2": (f"{MAP} lake hex (Tonle Sap)", "test_ntnd_8_2_4_major_rivers_reach_phnom_penh"),
    "19.2.1": (f"{CNT} morale", "test_ntnd_19_2_1_morale_examples"),
    "19.2.3": (f"{TER} defence; {MAP} rivers; {UPY} TerrainChart.defence_modifier",
               "test_ntnd_19_2_3_defence_modifiers, test_ntnd_19_2_3_rivers_reference_adjacent_hexsides"),
    "22.4": (f"{TET} victory", "test_ntnd_scenario_tet_shape"),
    "28.2.1": (f"{CNT} us_5sfm", "test_ntnd_19_2_1_morale_examples"),
    "28.4.1": (f"{CNT} arvn_phoenix.counter_mix", "test_ntnd_4_4_counter_mix"),
    "28.7": (f"{CNT} vc_sapper", "test_ntnd_28_7_and_28_8_special_units"),
    "28.7.1": (f"{CNT} vc_sapper", "test_ntnd_28_7_and_28_8_special_units"),
    "28.8": (f"{CNT} nva_tank_regiment; {TET} scenario_rules.armor_shock_available",
             "test_ntnd_28_7_and_28_8_special_units"),
    "28.9.3": (f"{CNT} vc_base.counter_mix", "test_ntnd_4_4_counter_mix"),
}

PART1 = ["3", "4.1", "4.4", "4.5", "4.5.1", "4.2.1", "4.2.7", "5", "6", "8", "9", "13", "17", "18", "19", "20",
         "28.7", "28.8"]
EXACT_ONLY = {"4.5"}  # 4.5 header is in the 4.4-4.5.1 range, 4.5.2+ are not


def part(num):
    if num == "4":
        return "1"
    for p in PART1:
        if p in EXACT_ONLY:
            if num == p:
                return "1"
        elif num == p or num.startswith(p + "."):
            return "1"
    return "2"


def title(text):
    text = text.strip()
    m = re.match(r"^([A-Z][A-Za-z/&' -]{1,40})\.\s", text)
    if m:
        return m.group(1)
    if len(text) <= 45 and not text.endswith("."):
        return text
    words = text.split()
    return " ".join(words[:8]) + " ..."


rows = []
for line in open(sys.argv[1], encoding="utf-8"):
    if line.startswith("•"):
        continue
    m = re.match(r"^(\d+(?:\.\d+)*)\.?\s+(\S.*)$", line.strip())
    if m:
        rows.append((m.group(1), title(m.group(2)).replace("|", "/")))

out = []
out.append("| rule | title | part | status | where | tests |")
out.append("|---|---|---|---|---|---|")
for num, t in rows:
    if num in DATA:
        where, tests = DATA[num]
        status = "data done"
    else:
        where, tests, status = "-", "-", "not yet"
    if tests != "-":
        tests = ", ".join(f"`{x.strip()}`" for x in tests.split(","))
    out.append(f"| {num} | {t} | {part(num)} | {status} | {where} | {tests} |")
missing = set(DATA) - {n for n, _ in rows}
assert not missing, missing
print("\n".join(out))
print(len(rows), file=sys.stderr)
