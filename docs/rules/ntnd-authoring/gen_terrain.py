import sys
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
from fmtjson import dumps

out = {
    "meta": {
        "game": "No Trumpets No Drums (NTND), 2016 rules",
        "authored_by": "afteraction project. The movement Terrain Effects Chart is not in the rule text (8.2.6 "
                       "refers to a chart on the map sheet); the movement costs below marked 'authored' are the "
                       "project's own. The defence modifiers are the 19.2.3 table of the text.",
        "cost_format": "an int, or [numerator, denominator] for a fraction (no floats); engine code turns them "
                       "into fractions.Fraction",
    },
    "movement": {
        "terrain_tables": {
            "foot": {"clear": 1, "jungle": 2, "swamp": 3, "mountain": 3,
                     "source": "clear = 1 is 8.1 / 8.2.6; the rest authored",
                     "used_by": ["communist_ground", "allied_ground"]},
            "mechanized": {"clear": 1, "jungle": 3, "swamp": 4, "mountain": 4,
                           "source": "clear = 1 is 8.1 / 8.2.6; the rest authored (tanks and tracks are "
                                     "road-bound in jungle, paddy and hills)",
                           "used_by": ["communist_mechanized", "allied_mechanized"]},
        },
        "flat_cost": {"cost": 1, "rule": "8.2.2",
                      "movement_classes": ["airmobile", "communist_supply", "guerrilla", "ranger"],
                      "also": "every inverted unit pays 1 per hex regardless of terrain (8.2.2)",
                      "rivers": "flat-cost movers pay no river-crossing cost (project reading of 'regardless of "
                                "any terrain')"},
        "town_or_city": {"cost": "as the hex's terrain", "source": "authored (the text gives no town cost)"},
        "prohibited_to_ground_units": ["sea", "lake"],
        "prohibited_rule": "8.2.3, 19.1.2, 19.3 (all-sea / all-lake hexes are for naval units only)",
        "road": {"cost": [1, 2], "rule": "8.2.7",
                 "applies": "moving from a hex to the next hex along the same road (map.json roads); the hex's "
                            "terrain and any river on that hexside are ignored (bridges)"},
        "trail": {"cost": 1, "rule": "8.2.7",
                  "applies": "moving along a trail pays 1 whatever the terrain; rivers on the trail are ignored "
                             "(fords and ferries: authored)"},
        "river_crossing": {"minor": 1, "major": 2, "source": "authored (8.3 implies rivers cost movement; the "
                                                             "chart is not in the text)",
                           "applies": "added to the terrain cost when a terrain-paying unit crosses a river "
                                      "hexside off a road or trail"},
        "water_movement": {
            "patrol_boat": {"may_enter": ["sea", "coastal", "major_river"], "cost": 1, "must_end_on":
                            ["coastal", "major_river"], "rules": ["8.2.4", "8.6.1", "8.6.2"]},
            "fleet": {"may_enter": ["sea", "coastal", "HAIPHONG"], "cost": 0, "allowance": "unlimited",
                      "rules": ["8.2.3", "8.6.1", "9.1.1.1"]},
            "communist_supply": {"may_enter": ["coastal", "major_river", "HAIPHONG"], "cost": 1,
                                 "must_start_in": ["HAIPHONG", "coastal", "major_river"], "no_all_sea": True,
                                 "no_mixed_land_and_sea": True, "rules": ["8.6.1", "8.6.2"]},
            "amphibious": {"units": ["us_marine_regiment", "us_marine_iii", "arvn_marine_brigade",
                                     "rok_marine_brigade", "arvn_ranger"], "max_units": 2,
                           "cost": "half the movement allowance", "rules": ["8.6.4", "8.6.4.1"]},
        },
        "zones": {"rule": "9.1", "cost": "a whole turn to move zone to zone or between a zone and a bordering hex"},
        "zone_of_influence": {"multiplier": 2, "rule": "8.5.3", "applies": "face-up Communist units entering a ZOI hex"},
        "zone_of_control": {"rule": "8.5.2", "effect": "face-up units stop on entering an enemy ZOC hex"},
        "infiltration": {"rule": "8.5.2", "success_non_clear": [4, 5, 6], "success_clear": [5, 6],
                         "non_clear": "a town/city, mountain, jungle or swamp hex; zones count as non-clear (9.2)"},
        "communist_control": {"rules": ["7.4.3", "8.3"], "extra_cost_non_clear": 1, "roads_and_trails": "ignored",
                              "rivers": "unaffected (8.3)", "exempt": ["airmobile", "fleet", "patrol_boat"]},
        "monsoon": {"rule": "8.2.1", "turns": ["May/June", "July/August"], "face_up_allowance": [1, 2],
                    "exempt_classes": ["fleet", "patrol_boat"], "inverted_units": "unaffected",
                    "airmobile_allowance": 9, "rounding": "fractions retained (10 -> 5, 15 -> 15/2)"},
        "out_of_supply": {"rule": "18.2.1.3", "allowance": [1, 2]},
        "improved_trail": {"rule": "8.4", "from_turn": "January/February 1971", "communist_supply_allowance": 15,
                           "where": "moving entirely within the hex part of Laos and/or North Vietnam"},
    },
    "defence": {
        "rule": "19.2.3",
        "modifiers": {"city": 2, "mountain": 2, "jungle": 1, "swamp": 1},
        "attackers_across_river": {"minor": 1, "major": 2,
                                   "reading": "'All Attackers on: Minor/Major River': applies when every attacking "
                                              "unit attacks across a river hexside; if the classes differ the lower "
                                              "(minor) value applies (project reading)"},
        "cumulative": True,
        "town": {"modifier": 0, "source": "authored reading: the 19.2.3 table lists only City (+2); 28.7.2 "
                                          "mentions towns/cities, left open in docs/rules/ntnd-data.md"},
        "clear": 0,
        "zones": {"rule": "9.2", "treated_as": "clear"},
        "sapper": {"rule": "28.7.2", "effect": "the defender's terrain modifiers (incl. town/city) are cancelled"},
        "ambush": {"rule": "20.4.1", "effect": "the Communist ambusher gets the terrain modifier of the ambushed "
                                               "Allied unit's hex; no other terrain modifier"},
        "airmobile_ambushed": {"rule": "20.7", "effect": "no terrain modifier for the Communist player"},
        "example": "19.2.3: a city on a swamp hex gives +3 (city 2 + swamp 1)",
    },
    "bombing_and_infiltration_terrain": {"rule": "11.1.1.1, 11.1.1.2, 8.5.2, 9.2",
                                         "clear": "a hex of clear terrain without a town or city",
                                         "zones": "count as non-clear for bombing and infiltration"},
}
open(sys.argv[1], "w").write(dumps(out) + "\n")
