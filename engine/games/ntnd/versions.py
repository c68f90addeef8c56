"""NTND's versions (engine/versions.py; docs/rules/ntnd.md "Ruleset versions"): ntnd/4 is the first
stable one; ntnd/1-3 were development versions. A change of play is declared here as a ``Change``
and asked by the rule it changes."""
from ...versions import Change, Versions

#: 14.2.1: Communist ground units may move into a land hex held by the fleet alone (it then moves one
#: hex out to sea); ntnd/4 refused the move ("not reachable") and applied 14.2.1 only to an advance
FLEET_ENTRY = Change("ntnd", "14.2.1", since="5",
                     what="a Communist ground move may end in a land hex held by the fleet alone (next to a sea "
                          "hex); the fleet then moves one hex out to sea (ntnd/4: the hex could not be entered)")

VERSIONS = Versions("ntnd", first_stable="4",
                    development={"1": "65eea15e3b35", "2": "c712fa63feb1", "3": "d4e5f1e9b37d"},
                    changes=(FLEET_ENTRY,))
