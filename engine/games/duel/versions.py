"""The duel's versions (engine/versions.py): duel/1 is the first and only one."""
from ...versions import Versions

VERSIONS = Versions("duel", first_stable="1")
