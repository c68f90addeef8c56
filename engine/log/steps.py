"""The verifier's step names, its report, and how a failed check is reported (SPEC.md 10)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import VerificationError

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
    server_vkey: str = ""
    pinned: bool = False
    pinned_seats: list[str] = field(default_factory=list)  # seats whose genesis key matched a pinned key
    kept_checkpoint: int = 0  # tree size of a checkpoint kept by a seat that the log matched (0: none given)
    cosigned: list[str] = field(default_factory=list)  # seats whose cosignature the last checkpoint carries (4.5)
    cause: dict | None = None  # how the game ended (SPEC.md 8.3): the end record's cause, {"kind": "rules"}, None
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def _fail(step: str, seq: int | None, check: str, expected=None, found=None, detail: str = "") -> VerificationError:
    return VerificationError(f"{step} ({STEPS[step]})", seq, check, expected, found, detail)


