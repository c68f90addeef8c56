"""No Trumpets No Drums rule 7: Hearts and Minds — the control markers of each corps and country.

``s["hm"][area]`` is the box of each area's marker (campaign_data.H_AND_M_BOXES, Communist end
first: communist_control, pro_communist, neutral, pro_allied, allied_control). Every move of a
marker goes through ``move`` (a public "hearts" event); ``control`` reads it.
"""
from __future__ import annotations

from .campaign_data import H_AND_M_BOXES


def control(s: dict, area: str) -> str:
    """The box of ``area``'s Hearts and Minds marker (7)."""
    return s["hm"][area]


def move(s: dict, area: str, toward: str, boxes: int, ctx, rule: str) -> str:
    """Move ``area``'s marker ``boxes`` boxes toward ``toward``'s control box ("allied" or
    "communist"); a marker already in that control box stays. Returns the new box."""
    if toward not in ("allied", "communist"):
        raise ValueError(toward)
    old = s["hm"][area]
    i = H_AND_M_BOXES.index(old)
    j = min(len(H_AND_M_BOXES) - 1, i + boxes) if toward == "allied" else max(0, i - boxes)
    new = H_AND_M_BOXES[j]
    s["hm"][area] = new
    ctx.emit({"t": "hearts", "area": area, "from": old, "to": new, "rule": rule})
    return new
