"""One error root for everything the crypto core and verifier raise."""


class AfteractionError(Exception):
    """Root of all afteraction errors."""


class EncodingError(AfteractionError):
    """Bytes that are not canonical data, or data that cannot be encoded canonically."""


class CryptoError(AfteractionError):
    """A malformed key, signature, note, proof or sealed value."""


class VerificationError(AfteractionError):
    """A log that does not verify. Carries the step, the record and what differed."""

    def __init__(self, step: str, seq: int | None, check: str, expected: object = None,
                 found: object = None, detail: str = "") -> None:
        self.step = step
        self.seq = seq
        self.check = check
        self.expected = expected
        self.found = found
        self.detail = detail
        where = f"record {seq}" if seq is not None else "bundle"
        msg = f"step {step} failed at {where}: {check}"
        if expected is not None or found is not None:
            msg += f" (expected {_short(expected)}, found {_short(found)})"
        if detail:
            msg += f": {detail}"
        super().__init__(msg)

    def as_dict(self) -> dict:
        return {
            "verified": False, "step": self.step, "seq": self.seq, "check": self.check,
            "expected": _short(self.expected), "found": _short(self.found),
            "detail": self.detail, "message": str(self),
        }


class Rejection(AfteractionError):
    """A command the rules (or the referee) refuse. Stable ``code``; ``message`` names the rule.

    A rejection never changes state and never carries a hidden value.
    """

    def __init__(self, code: str, message: str, *, rule: str | None = None, input: object = None) -> None:
        self.code = code
        self.message = message
        self.rule = rule    # the rule refused under ("SOG 3.5"), when the refusal names one
        self.input = input  # the offending input (the action, field or value sent), when known
        super().__init__(f"{code}: {message}")


def _short(v: object) -> object:
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    if v is None or isinstance(v, (int, str, bool)):
        return v
    return repr(v)
