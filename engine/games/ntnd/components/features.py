"""No Trumpets No Drums: which of the game's rule families a scenario puts in force (and, ``dated``,
which of its dated rules apply this turn).

The Tet Offensive is a purely military introduction (rule 2): none of these apply. The campaign game
(and its short form) uses them all. A rule family is consulted only through ``in_force`` so that one
list, set at set-up from the scenario, decides it (the scenario's ``features`` key; absent = none).

    hearts_and_minds  7, 8.3, 15.3 and the control track's effects (4.1.5, 7.3.x, 7.4.x)
    replacements      4.2.2 from the Hearts and Minds track, 4.2.4, 4.2.6 half points, 4.5.2-4.5.3 draft
    neutrality        10 (violation, costs, joining a side), 8.9.4, 8.9.5, 28.11
    political_table   22.2-22.4 complete (every item of the table; the Tet scenario scores its
                      military items only)
    random_events     21 (3.2.8)
    elections         23
    vietnamization    24
    sv_morale         25
    uprising          26 (and 28.10)
    aid               27
    phoenix           28.4
    vc_bases          28.9
    withdrawals       4.3.1 withdrawals by elections and Vietnamization (4.3.3 scheduled ones always)

Part 2b, each built on its own branch; a scenario lists them once its rules are refereed:

    air_war           11 (air units as pieces: strategic bombing, ground support, supply, transport,
                      dogfights, carrier air, Niagara, Linebacker), 12 (anti-aircraft fire), 28.1 (SOA),
                      and the placements and phases that use them (3.1.5, 3.2.5, 8.2.5, 8.8.1, 8.10.1.1)
    fleet             14.2.2 mining Haiphong and its effects (the fleet's 14.1-14.2 are part 1)
    montagnards       15's new placements, militia building and withdrawal; 16 (Montagnards)
    special_units     28.2 Mobile Strike Force, 28.3 III Marine Regiment, 28.5 ARVN Ranger Groups,
                      28.6 Thai 333 Ranger
"""
from __future__ import annotations

from ....errors import InternalKeyError, InternalValueError

FEATURES = ("hearts_and_minds", "replacements", "neutrality", "political_table", "random_events", "elections",
            "vietnamization", "sv_morale", "uprising", "aid", "phoenix", "vc_bases", "withdrawals",
            "air_war", "fleet", "montagnards", "special_units")


def scenario_features(sc: dict) -> list[str]:
    """The features a scenario's data puts in force (sorted, each one of FEATURES)."""
    got = sc.get("features", [])
    unknown = sorted(set(got) - set(FEATURES))
    if unknown:
        raise InternalValueError(f"scenario {sc.get('id')!r}: unknown features {unknown}")
    return sorted(got)


def in_force(s: dict, feature: str) -> bool:
    """Whether the rule family ``feature`` applies in this game (its scenario's list)."""
    if feature not in FEATURES:
        raise InternalKeyError(feature)
    return feature in s["scenario"]["features"]


def dated(s: dict, rule: str) -> list[dict]:
    """The scenario's dated rules (the campaign's ``dated_rules``: a rule that applies from a date of the
    text, e.g. 26.1 from January/February 1967) numbered ``rule`` that are in force this turn
    (from_turn <= turn <= until_turn). The Tet scenario has none: []."""
    t = s["turn"]
    return [d for d in s["scenario"].get("dated_rules", ())
            if d["rule"] == rule and d["from_turn"] <= t <= d.get("until_turn", t)]


def dated_events(s: dict, ctx) -> None:
    """At the start of a turn: a public "dated-rule" event for each dated rule taking effect this turn."""
    for d in s["scenario"].get("dated_rules", ()):
        if d["from_turn"] == s["turn"]:
            ctx.emit({"t": "dated-rule", "rule": "NTND " + d["rule"], "turn": s["turn"], "what": d["what"]})
