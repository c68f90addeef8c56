"""No Trumpets No Drums: the state model.

The state is plain state data (dicts, lists, ints, str, bool, None: engine/snapshot.py), so the
engine's one copy and digest apply to it and every view is built from it directly.

    s["units"][uid]      one record per counter of the scenario's counter mix:
        id      "C014" (Communist) / "A031" (Allied): private for inverted units
        type    counters.json unit type ("vc_cadre", "us_infantry_brigade", ...)
        nat     nationality ("VC", "NVA", "US", ...)
        side    "communist" | "allied"
        name    printed designation (Allied units: "1/1 US Inf"), "" if none
        group   divisional group for NTND 5.2.2 / 5.7 ("US 1st Inf"), "" if none
        status  "mix" (counter mix / not yet in play) | "map" | "dead" | "sched"
                (scheduled reinforcement) | "out" (withdrawn, destroyed dummy
                returned to the mix is "mix" again)
        loc     hex id or zone id while on the map, else None
        inv     True while inverted (NTND 6.2); then ``mk`` names its marker
        corps   Allied corps assignment ("I".."IV", "CA", "LA") or None (NTND 5)
        moved   moved this phase (NTND 8; airmobile reaction 8.8.1.1 looks at it)
        arrive  turn from which a scheduled unit may enter (NTND 4.2.1, 4.2.7)
    s["markers"][mid]    an inverted Communist stack (NTND 6.2, 17):
        loc     where it stands (public)
        units   the uids inside (private)
        ref     the Ref of the sealed identity event (opened when it flips, or at the end)

Campaign keys of the Allied political war (created only where their feature is in force, so the Tet
state has none of them): ``rp_half`` (a saved half replacement point per pool, 4.2.6), ``draft``
({"year", "count"}, 4.5.3), ``elections`` (one record per election, 23: elections.py),
``vietnamization`` / ``vietnamization_reversed`` / ``vietnamization_forced`` / ``election_extra_dice`` /
``vietnamization_us_withdrawn`` (24: vietnamization.py); a unit bought and not yet arrived carries
``paid`` (23.3); ``s["phase"]["wd"]`` holds the reinforcement phase's withdrawal obligations
(withdrawals.py).

Hidden information: an inverted unit's identity lives only in ``units`` of its
marker and in the sealed event committed when it was placed or inverted; views
for the Allied seat and spectators show markers by their public marker id and
location only. Marker ids are allocated in order ("M1", "M2", ...), never reused,
and do not depend on what is inside.
"""
from __future__ import annotations

COMMUNIST = "communist"
ALLIED = "allied"
SEATS = (COMMUNIST, ALLIED)


def other(seat: str) -> str:
    return ALLIED if seat == COMMUNIST else COMMUNIST


# ---------------------------------------------------------------------------
# queries
# ---------------------------------------------------------------------------

def on_map(s: dict, side: str | None = None) -> list[dict]:
    """Units on the map (sorted by id), optionally of one side."""
    return [u for uid, u in sorted(s["units"].items())
            if u["status"] == "map" and (side is None or u["side"] == side)]


def units_at(s: dict, loc: str, side: str | None = None) -> list[dict]:
    return [u for u in on_map(s, side) if u["loc"] == loc]


def occupancy(s: dict) -> dict[str, dict[str, int]]:
    """loc -> {"communist": n, "allied": n} counting every unit on the map (inverted too)."""
    occ: dict[str, dict[str, int]] = {}
    for u in s["units"].values():
        if u["status"] == "map":
            d = occ.setdefault(u["loc"], {COMMUNIST: 0, ALLIED: 0})
            d[u["side"]] += 1
    return occ


def markers_at(s: dict, loc: str) -> list[str]:
    return sorted(m for m, v in s["markers"].items() if v["loc"] == loc)


def piece_units(s: dict, piece: str) -> list[str]:
    """The uids a public piece id stands for: a marker's units or the unit itself."""
    if piece in s["markers"]:
        return list(s["markers"][piece]["units"])
    u = s["units"].get(piece)
    if u is None or u["status"] != "map" or u["inv"]:
        return []
    return [piece]


def piece_loc(s: dict, piece: str) -> str | None:
    if piece in s["markers"]:
        return s["markers"][piece]["loc"]
    u = s["units"].get(piece)
    return u["loc"] if u and u["status"] == "map" else None


def new_marker_id(s: dict) -> str:
    s["meta"]["next_marker"] += 1
    return f"M{s['meta']['next_marker']}"


