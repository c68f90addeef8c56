"""The verifier's step names, its report, and how a failed check is reported (SPEC.md 10)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import VerificationError
from ..protocol import FORMAT_VERSION, VERSION_ADDS

STEPS = {
    "1": "bundle", "2": "encoding", "3": "chain", "4": "genesis", "5": "checkpoint",
    "6": "seats", "7": "openings", "8": "end", "9": "sealed", "10": "dice", "11": "replay",
}


@dataclass
class Report:
    verified: bool = True
    game: str = ""
    ruleset: str = ""
    records: int = 0
    ended: bool = False
    outcome: dict | None = None
    rolls: int = 0
    sealed: int = 0
    opened: int = 0
    replayed: bool = False
    replayed_with: str = ""  # the ruleset (game/version) whose rules step 11 re-ran; empty when not replayed
    server_vkey: str = ""
    pinned: bool = False
    pinned_seats: list[str] = field(default_factory=list)  # seats whose genesis key matched a pinned key
    kept_checkpoint: int = 0  # tree size of a checkpoint kept by a seat that the log matched (0: none given)
    cosigned: list[str] = field(default_factory=list)  # seats whose cosignature the last checkpoint carries (4.5)
    cause: dict | None = None  # how the game ended (SPEC.md 8.3): the end record's cause, {"kind": "rules"}, None
    notes: list[str] = field(default_factory=list)
    seat_keys: dict[str, bytes] = field(default_factory=dict)  # each seat's public key, from genesis
    match: dict | None = None  # genesis's match data (SPEC.md 1.3, v >= 2), None when it has none
    format: int | None = None  # genesis's format version (SPEC.md 1.2), None before record 0 is read

    def as_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass
class Handoff:
    """What the steps of a record hand on beyond the checks' own state, for readers outside the core:
    the last checkpoint verified (a seat's client cosigns and keeps it), and step 9's openings of a
    record, which step 11 takes instead of opening again and `aar verify --jobs 2` ships with the
    record to its replay process."""
    checkpoint: str = ""  # the note of the last record verified
    opened: tuple[int, bytes, bytes] | None = None  # (seq, envelope, signature) of the sealed command step 9 opened
    unsealed: tuple[int, dict] | None = None  # (seq, {k: (size, salt, value)}) the hidden values step 9 opened


def _fail(step: str, seq: int | None, check: str, expected=None, found=None, detail: str = "") -> VerificationError:
    return VerificationError(f"{step} ({STEPS[step]})", seq, check, expected, found, detail)




def older_format_notes(v: int) -> list[str]:
    """What a log of format ``v`` does not guarantee that the newest format does (SPEC.md 11): one
    line per guarantee of each later version (protocol.VERSION_ADDS); none for the newest."""
    return [f"format v{v}, older than v{FORMAT_VERSION} (the newest), does not guarantee what v{k} added: {g}"
            for k in range(v + 1, FORMAT_VERSION + 1) for g in VERSION_ADDS[k]]


def describe_record(rec) -> str:
    """What a record is, in words, for a failure message: "a command record of seat b with a
    roll event", "the genesis record", "the end record"."""
    if rec.kind in ("genesis", "end"):
        return f"the {rec.kind} record"
    b = rec.body if isinstance(rec.body, dict) else {}
    seat = b.get("seat")
    who = f" of seat {seat}" if isinstance(seat, str) else ""
    kinds = sorted({e.get("t") for e in b.get("events", []) if isinstance(e, dict) and isinstance(e.get("t"), str)}) \
        if isinstance(b.get("events"), list) else []
    sealed = " (a sealed command)" if "sealed" in b else ""
    evs = f" with {', '.join(kinds)} event{'s' if len(kinds) > 1 else ''}" if kinds else ""
    return f"a {rec.kind} record{who}{sealed}{evs}"
