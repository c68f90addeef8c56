"""SOG's versions (engine/versions.py; docs/rules/sog.md "Ruleset versions"): sog/1 is the first
stable one. A change of play is declared here as a ``Change`` and asked by the rule it changes."""
from ...versions import Versions

VERSIONS = Versions("sog", first_stable="1")
