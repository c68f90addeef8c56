"""The public footprint of the NVA's own hidden actions is the same whatever is hidden
(docs/rules/gmv.md "What the opponent can see"). Two positions the rules make indistinguishable to
the US seat and a spectator, differing only in hidden content; the same NVA action on both through
the game's own path; what is public compared (openings with their values)."""
from __future__ import annotations

from afteraction.engine.games.gmv import combat
from afteraction.engine.ruleset import Context

from .leakcheck import check_owner_action
from .util import RS, add, cmd, empty


def _two(origin_s: str, origin_p: str, side="nva", phase=3):
    out = []
    for origin in (origin_s, origin_p):
        s = empty(side=side, phase=phase)
        add(s, "inf", "us", "pleiku")
        (a,) = add(s, "inf", "nva", origin, hidden=True)
        s["units"][a]["ref"] = [7, 0]
        out.append((s, a))
    return out


def test_gmv_nva_3_attack_reveals_the_attackers_in_the_zone_attacked_not_their_hidden_origin():
    """Leak 6: a hidden unit attacking Pleiku from Kontum or from Ia Drang (both adjacent): the
    rules reveal the attacking units (text 004, "all attacking units ... are revealed"), in the zone
    attacked; where they stood on the hidden board stays sealed until the end of the game."""
    (s, a), (p, _) = _two("kontum", "ia_drang")
    check_owner_action(s, p, [cmd("attack", unit_ids=[a], zone="pleiku")])


def test_gmv_combat_hidden_infantry_support_does_not_show_where_it_stood():
    """Leak 6 (support): hidden infantry called in from an adjacent zone to a battle in Pleiku (the
    US attacked exposed NVA there): revealed entering the battle, not where it stood."""
    (s, a), (p, _) = _two("kontum", "ia_drang", side="us")
    for x in (s, p):
        add(x, "inf", "nva", "pleiku")
        combat.start(x, "pleiku", "us", Context.for_tests(), "attack")
        x["battle"]["ask"] = "nva"  # the US called for no support
    assert RS.pending(s).seat == "nva" and RS.pending(s).kind == "support"
    check_owner_action(s, p, [cmd("support", unit_ids=[a])])


def test_gmv_nva_3_the_hidden_turn_leaves_one_trace_whether_or_not_a_unit_moved():
    """Leak 7: the NVA's hidden turn (phase 4) with a hidden unit moving, or none: the US sees one
    sealed order, the same public events and the same view (hidden_moves) after it."""
    s = empty(side="nva", phase=4)
    (a,) = add(s, "inf", "nva", "kontum", hidden=True)
    s["units"][a]["ref"] = [7, 0]
    check_owner_action(s, s, [cmd("hidden_move", unit_ids=[a], to_zone="pleiku")], q=[cmd("hidden_move")])


def test_gmv_nva_3_a_hidden_move_order_of_20_single_unit_groups_fits_the_padded_size():
    """docs/rules/gmv.md "Padded sizes": the turn's one hidden-move order holds 20 groups
    of one unit each with the longest ids and zone names, with 64 bytes for the envelope to grow;
    larger orders are refused with COMMAND_TOO_LARGE (units moving together form one group)."""
    from afteraction.engine.crypto.commit import padded_length
    from afteraction.engine.games.gmv.zones import ZONES
    from afteraction.v1 import command_pb2, gmv_pb2

    from engine.test_sealed_lengths import _envelope_value  # tests/engine (tests/ is on sys.path: conftest.py)
    z = max(ZONES, key=len)

    def size(n):
        c = command_pb2.Command(gmv=gmv_pb2.GmvCommand(hidden_move=gmv_pb2.GmvHiddenMove(
            groups=[gmv_pb2.GmvHiddenGroup(unit_ids=["u99999"], to_zone=z) for _ in range(n)])))
        return padded_length(_envelope_value(c, "nva")) + 64
    assert size(20) <= RS.sealed_sizes["command"]["nva"] < size(21)
