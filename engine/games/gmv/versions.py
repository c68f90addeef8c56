"""GMV's versions (engine/versions.py; docs/rules/gmv.md "Ruleset versions"): gmv/2 is the first
stable one; gmv/1 was a development version. A change of play is declared here as a ``Change`` and
asked by the rule it changes."""
from ...versions import Versions

VERSIONS = Versions("gmv", first_stable="2", development={"1": "947a2124d9a1"})
