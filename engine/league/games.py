"""What a league needs from one game's bundle (SPEC.md 15.4): the bundle verified by the game
verifier (engine/log/verify.py, replay included) with the server key and the players' seat keys
pinned, and the facts the league reads from it. Bundle bytes come from the caller: no I/O here."""
from __future__ import annotations

import io
from dataclasses import dataclass

from ..crypto.cosign import cosigner_ids, cosignatures_of
from ..crypto.ed25519 import verify_signature
from ..crypto.note import parse_vkey, split_note, verified_signatures
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
    #: (public key, message, signature) of every Ed25519 signature the verifier found valid in the
    #: final frame (its record, the server's signature of the final checkpoint, the seats' cosignatures)
    verified: frozenset = frozenset()


class BundleProblem(AfteractionError):
    """A bundle that does not verify, or is not the game the league says it is."""


def game_facts(bundle: bytes, server_vkey: str, seat_keys: dict[str, bytes]) -> GameFacts:
    """Verify ``bundle`` (replay, ``server_vkey`` and ``seat_keys`` pinned) and read its facts from
    the records the verifier parsed, in the same pass."""
    seen: dict = {"genesis": None, "decisions": {}, "last": "", "verified": set()}

    def check(public: bytes, msg: bytes, sig: bytes) -> bool:   # SPEC.md 7.4's rule, its verdicts kept
        ok = verify_signature(public, msg, sig)
        if ok:
            seen["verified"].add((public, msg, sig))
        return ok

    def drive(v, header, records, progress):
        v.signature_check = check
        while True:   # verify_frames, keeping what the league reads of each record
            item = next_frame(v, records)
            if item is None:
                break
            seen["verified"] = set()   # the final frame's verdicts are those kept
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
                     split_note(seen["last"])[0], frozenset(seen["verified"]))


def cosigners(note: str, facts: GameFacts) -> list[str]:
    """The seats whose cosignature (SPEC.md 4.5) the result's checkpoint note carries; the note
    must be the bundle's final checkpoint, signed by the server. A signature the bundle's verifier
    already found valid in the final frame (the same key, message and signature: the server's
    signature of the final checkpoint, a seat's cosignature of it) takes that verdict instead of
    being verified again (the same rule, SPEC.md 7.4, computed once)."""
    def check(public: bytes, msg: bytes, sig: bytes) -> bool:
        return (public, msg, sig) in facts.verified or verify_signature(public, msg, sig)
    try:
        text, sigs = split_note(note)
        verified_signatures(text, sigs, [parse_vkey(facts.server_vkey)], check)
    except AfteractionError as e:
        raise BundleProblem(f"the result's checkpoint is not signed by the game's server: {e}") from None
    if text != facts.final_text:
        raise BundleProblem("the result's checkpoint is not the bundle's final checkpoint")
    origin = text.split("\n", 1)[0]
    try:
        return sorted(cosignatures_of(text, sigs, cosigner_ids(origin, facts.seat_keys), facts.seat_keys, check))
    except AfteractionError as e:
        raise BundleProblem(f"a cosignature of the result's checkpoint does not verify: {e}") from None
