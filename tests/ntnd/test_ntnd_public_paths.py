"""The Communist seat's own legal moves offer one path per destination; the path must not follow from
what an inverted marker holds beyond what the rules expose (docs/rules/ntnd.md "What the opponent can
see", "Bots and the first offered command"). A client or bot that plays the offered path publishes it
(``marker M7 moved 1713-1612-...``): ranked by the marker's own search (its contents' movement costs and
limits), the route told the Allied player what the marker held. From now on each destination's path is
the one the first of a fixed list of stand-ins (``movement/paths.py`` ``STAND_INS``) would take, where the
real contents may take it with no more infiltration rolls (``public_paths``)."""
from __future__ import annotations

import pytest

from afteraction.engine.games.ntnd.movement import paths as move_paths
from afteraction.engine.games.ntnd.movement.sea import sea_key
from afteraction.engine.games.ntnd.rules import cmd
from afteraction.engine.games.ntnd.sequence import answers

from .leakcheck import applied
from .mapplay import at, blank, put
from .test_ntnd_rules import hide

CONTENTS = (["nva-3"], ["communist-dummy-1"], ["vc-dak-to"], ["nva-3", "vc-dak-to"], ["sup-353"], ["kr-cadre-1"],
            ["pl-cadre-1"])


def _offered(units: list[str], loc: str, public: bool = True) -> tuple[dict, dict, str]:
    s = blank()
    put(s, "us-1-4", "1715")
    mk = hide(s, units, loc)
    s = at(s, "c_move")
    if not public:
        keep = move_paths.public_paths
        move_paths.public_paths = lambda s, p, paths, env: paths
        try:
            opts = answers.move_options(s)
        finally:
            move_paths.public_paths = keep
    else:
        opts = answers.move_options(s)
    return s, {sea_key(list(p)): list(p) for piece, p in opts if piece == mk}, mk


def _differing(loc: str, public: bool = True) -> list:
    got = [_offered(c, loc, public)[1] for c in CONTENTS]
    out = []
    for i in range(len(got)):
        for j in range(i + 1, len(got)):
            out += [(CONTENTS[i], CONTENTS[j], d) for d in sorted(set(got[i]) & set(got[j])) if got[i][d] != got[j][d]]
    return out


@pytest.mark.parametrize("loc", ["1713", "0924", "1412", "2113", "0216", "0805"])
def test_ntnd_8_a_markers_offered_path_to_a_destination_does_not_depend_on_what_it_holds(loc):
    """Markers holding an NVA regiment, a dummy, a VC regiment, both regiments, a supply unit, a Khmer
    Rouge or a Pathet Lao cadre, at one hex (in South Vietnam, Cambodia or Laos): to every destination
    each can reach, the path offered is the same."""
    assert _differing(loc) == []


def test_ntnd_8_the_markers_own_search_told_its_contents():
    """The same positions ranked by each marker's own search (as before): the VC regiment keeps out of
    Laos and Cambodia (10), the others cross, so the path to one destination tells them apart."""
    assert _differing("1713", public=False)


@pytest.mark.parametrize("units", CONTENTS)
def test_ntnd_8_every_offered_path_of_a_marker_is_accepted(units):
    """Each offered move (a stand-in's route) is legal for the real contents: the referee accepts it (a
    Khmer Rouge cadre in Cambodia, a Pathet Lao one in Laos, the others in South Vietnam)."""
    s, offered, mk = _offered(units, {"kr-cadre-1": "0216", "pl-cadre-1": "0805"}.get(units[0], "1713"))
    assert offered
    for path in list(offered.values())[::3]:
        after = applied(s, "communist", cmd("move", piece=mk, path=path))
        assert mk in after["phase"].get("moved", ())   # accepted: the marker has moved


def test_ntnd_8_shared_destinations_offered_other_paths_before_and_now():
    """The count docs/rules/ntnd.md gives: over seven hexes, of the destinations two of the five
    contents share, how many are offered different paths, ranked by each marker's own search and now."""
    hexes = ["1713", "1412", "0924", "1518", "1020", "0716", "2113", "0216", "0805"]
    assert (sum(len(_differing(h, public=False)) for h in hexes), sum(len(_differing(h)) for h in hexes)) == (533, 0)
