"""What a league needs from one game's bundle (SPEC.md 15.4): the bundle verified by the game
verifier (engine/log/verify.py, replay included) with the server key and the players' seat keys
pinned, and the facts the league reads from it. Bundle bytes come from the caller: no I/O here."""
from __future__ import annotations

import io
from dataclasses import dataclass

from ..crypto.cosign import seat_cosignatures
from ..crypto.note import open_note, parse_vkey, split_note
from ..errors import AfteractionError, VerificationError
from ..log.verify import check_end_of_log, next_frame, verify_bundle

ENDING_EVENTS = frozenset({"resign", "offer", "accept"})


@dataclass(frozen=True)
class GameFacts:
    game: str
    genesis_hash: bytes
    ruleset: str
    scenario: str
    seats: tuple[str, ...]           # in genesis order
    seat_keys: dict[str, bytes]
    match: dict | None
    server_vkey: str
    winner: str | None               # a seat
    cause: str                       # rules, resign, agree, timeout, abandon
    cause_seat: str | None           # the seat a time-out is charged to
    decisions: dict[str, int]        # game commands per seat (8.1's ending commands not counted)
    final_text: str                  # the final checkpoint's text (without signatures)
    final_note: str = ""             # the final checkpoint note as the bundle holds it (signature lines too)
    final_cosigned: tuple[str, ...] = ()   # the seats whose cosignature of it the verifier checked


class BundleProblem(Exception):
    """A bundle that does not verify, or is not the game the league says it is."""


def game_facts(bundle: bytes, server_vkey: str, seat_keys: dict[str, bytes]) -> GameFacts:
    """Verify ``bundle`` (replay, ``server_vkey`` and ``seat_keys`` pinned) and read its facts from
    the records the verifier parsed, in the same pass."""
    seen: dict = {"genesis": None, "decisions": {}, "last": ""}

    def drive(v, header, records, progress):
        while True:   # verify_frames, keeping what the league reads of each record
            item = next_frame(v, records)
            if item is None:
                break
            rec = v.add(*item)
            if seen["genesis"] is None:
                seen["genesis"] = rec
                seen["decisions"] = {s["name"]: 0 for s in rec.body["seats"]}
            elif rec.kind == "command" and "seat" in rec.body:
                evs = rec.body.get("events") or []
                if not (len(evs) == 1 and isinstance(evs[0], dict) and evs[0].get("t") in ENDING_EVENTS):
                    seen["decisions"][rec.body["seat"]] += 1
            seen["last"] = item[1]
        check_end_of_log(v, header)
        return v.finish()

    try:
        report = verify_bundle(io.BytesIO(bundle), pinned_vkey=server_vkey, pinned_seat_keys=seat_keys, drive=drive)
    except VerificationError as e:
        raise BundleProblem(f"the bundle does not verify: {e}") from None
    except AfteractionError as e:
        raise BundleProblem(f"the bundle does not verify: {type(e).__name__}: {e}") from None
    if not report.ended:
        raise BundleProblem("the game has not ended")
    cause = report.cause or {"kind": "rules"}
    g = seen["genesis"].body
    return GameFacts(report.game, seen["genesis"].hash, g["ruleset"]["game"], g["scenario"],
                     tuple(s["name"] for s in g["seats"]), dict(report.seat_keys), g.get("match"),
                     g["server"]["vkey"], (report.outcome or {}).get("winner"), cause["kind"],
                     cause.get("seat") if cause["kind"] == "timeout" else None, dict(seen["decisions"]),
                     split_note(seen["last"])[0], seen["last"], tuple(report.cosigned))


def cosigners(note: str, facts: GameFacts) -> list[str]:
    """The seats whose cosignature (SPEC.md 4.5) the result's checkpoint note carries; the note
    must be the bundle's final checkpoint, signed by the server. A note that is, byte for byte, the
    bundle's final checkpoint note was verified with the bundle (its server signature and every
    seat cosignature, SPEC.md 10 step 5): the verifier's verdict is taken, not computed again."""
    if facts.final_note and note == facts.final_note:
        return sorted(facts.final_cosigned)
    try:
        text, _ = open_note(note, [parse_vkey(facts.server_vkey)])
    except AfteractionError as e:
        raise BundleProblem(f"the result's checkpoint is not signed by the game's server: {e}") from None
    if text != facts.final_text:
        raise BundleProblem("the result's checkpoint is not the bundle's final checkpoint")
    origin = text.split("\n", 1)[0]
    try:
        return sorted(seat_cosignatures(note, origin, facts.seat_keys))
    except AfteractionError as e:
        raise BundleProblem(f"a cosignature of the result's checkpoint does not verify: {e}") from None
