"""The SPEC-only verifier's reading of SPEC.md 9 (a frame's maps, its nesting) and 1.4 (where core
events stand), in their own file (tests/crypto/test_vectors_spec_verifier.py stays under 600 lines).
It imports nothing from afteraction."""
from __future__ import annotations


class Fail(Exception):
    def __init__(self, step: int, seq, what: str) -> None:
        super().__init__(f"step {step} at {seq}: {what}")
        self.step, self.seq = step, seq


def frame_map(pairs) -> dict:
    """SPEC 9: a frame's maps have text keys, each once."""
    d = dict(pairs)
    if len(d) != len(pairs) or not all(type(k) is str for k in d):
        raise ValueError("frame map keys")
    return d


def frame_depth(frame) -> None:
    """SPEC 9 and 1.1 rule 6: a frame nests at most 64 arrays/maps, the frame itself at depth 1."""
    todo = [(frame, 1)]
    while todo:
        v, d = todo.pop()
        if isinstance(v, (dict, list)):
            if d > 64:
                raise ValueError("frame nesting")
            todo.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))


#: SPEC 1.4: where each core event may stand; "play": setup's events (after start) and a game command's
PLACES = {"entropy-commit": "commit", "entropy-reveal": "reveal", "start": "start", "resign": "ending",
          "offer": "ending", "accept": "ending", "roll": "play", "sealed": "play", "open": "play"}


def placed(events, first: int, n: int) -> None:
    for ev in events[first:]:
        if isinstance(ev, dict) and PLACES.get(ev.get("t"), "play") != "play":
            raise Fail(6, n, f"a {ev['t']} event among setup's or a game command's events")


def hidden_ok(value) -> bool:
    """SPEC 1.4: a hidden value (a sealed event's) is the ruleset's own event or a roll."""
    return not (isinstance(value, dict) and value.get("t") in PLACES and value["t"] != "roll")
