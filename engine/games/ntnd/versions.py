"""NTND's versions (engine/versions.py; docs/rules/ntnd.md "Ruleset versions"): ntnd/4 is the first
stable one; ntnd/1-3 were development versions. A change of play is declared here as a ``Change``
and asked by the rule it changes."""
from ...versions import Versions

VERSIONS = Versions("ntnd", first_stable="4",
                    development={"1": "65eea15e3b35", "2": "c712fa63feb1", "3": "d4e5f1e9b37d"})
