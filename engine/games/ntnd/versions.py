"""NTND's versions (engine/versions.py; docs/rules/ntnd.md "Ruleset versions"): ntnd/4 is the first
stable one; ntnd/1-3 were development versions. A change of play is declared here as a ``Change``
and asked by the rule it changes."""
from ...versions import Change, Versions

#: 14.2.1: Communist ground units may move into a land hex held by the fleet alone (it then moves one
#: hex out to sea); ntnd/4 refused the move ("not reachable") and applied 14.2.1 only to an advance
FLEET_ENTRY = Change("ntnd", "14.2.1", since="5",
                     what="a Communist ground move may end in a land hex held by the fleet alone (next to a sea "
                          "hex); the fleet then moves one hex out to sea (ntnd/4: the hex could not be entered)")

#: 4.4: the name a counter taken from the Communist counter mix gets. ntnd/4 hands out the lowest id of
#: the type still in the mix, so a face-up draw's public id counted the counters that had left the mix
#: unseen (inverted recruits, dummies, hidden promotions). From ntnd/5 a counter is named when it is
#: taken: face up, the next public name of its type (``<type>-<n>``, n counting the face-up draws of the
#: type after the scenario's own counters: operations.name_public); inverted, a name made of its type
#: and the marker it is drawn into (``vc-cadre-m7``: operations.make_marker ``drawn``), which is all its
#: reveal tells.
MIX_NAMES = Change("ntnd", "4.4", "5",
                   "a counter taken from the counter mix is named when it is taken: face up, the next public "
                   "name of its type (a count of the type's face-up draws); inverted, its type and the marker it "
                   "is drawn into; no name depends on hidden draws or hidden choices made earlier")

#: 6.2: counters of one type in one marker are alike, so which of them a hidden action spends
#: (a promotion, a break-down, a supply unit spent, an expended unit, a bombing or over-stacking loss, a
#: base built or upgraded) is no fact. ntnd/4-5 spent the one the owner named, so a later flip (or the
#: loss's own ``eliminated`` event) showed the public name of the one left (or gone), which told the
#: owner's hidden choice. From ntnd/6 the engine spends the first of the alike counters in the marker,
#: in id order, whichever of them the owner named (operations.alike_first).
ALIKE_CHOICE = Change("ntnd", "6.2", "6",
                      "the owner's choice among alike counters (one type, one marker) is no fact: a hidden "
                      "action spends the first of them in id order, so no later flip or loss tells which one "
                      "the owner named")

VERSIONS = Versions("ntnd", first_stable="4",
                    development={"1": "65eea15e3b35", "2": "c712fa63feb1", "3": "d4e5f1e9b37d"},
                    changes=(FLEET_ENTRY, MIX_NAMES, ALIKE_CHOICE))
