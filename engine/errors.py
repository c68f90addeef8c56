"""The one error root: every exception the engine raises is an ``AfteractionError``
(tests/engine/test_codes.py checks every class and every ``raise`` of engine/ with ``ast``).

- ``Rejection``: bad input (a command, a genesis, a request), with a ``Code``; nothing changed;
- ``VerificationError``: a log that does not verify (the step, the record, what differed);
- ``EncodingError``, ``CryptoError``: bytes that are not canonical data, a bad key or signature;
- ``InternalError``: a bug, never a player's input: the engine, a ruleset or their caller broke an
  invariant (a ruleset emitting a core event, a unit id that is not well formed, a hex off the
  map). The service answers INTERNAL with an incident id. Its ``Internal*Error`` subclasses are
  also the builtin exception a Python caller expects (``except KeyError`` catches
  ``InternalKeyError``, and its ``str`` is the builtin's).
"""
from .codes import Code


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


class InternalError(AfteractionError):
    """A bug, not bad input: an invariant of the engine or of a ruleset does not hold."""


class InternalValueError(InternalError, ValueError):
    """An argument or a piece of data outside its domain (a bug of the caller or of game data)."""


class InternalTypeError(InternalError, TypeError):
    """A value of the wrong type (a float where the engine counts in integers and fractions)."""


class InternalKeyError(InternalError, KeyError):
    """A lookup of something that does not exist (a hex not on the map, a counter type)."""


class InternalIndexError(InternalError, IndexError):
    """An index out of range."""


class NoGameModule(InternalError, ModuleNotFoundError):
    """A game has no module of that role (``registry.game_module``: a picture or names of its own);
    the caller falls back, as it would for any module not found."""


class Rejection(AfteractionError):
    """A command the rules (or the referee, or the service) refuse.

    ``code``: a member of ``engine/codes.py``'s ``Code`` (a plain string is refused: the code is
    typed at the raise site; ``.code`` is its plain name, what goes on the wire); ``message``: names the rule; ``rule``: the rule's number (e.g. "NTND 19.2.6"), when the
    raise site gives it; ``input``: the offending input (the sender's own command or a part of it).

    A rejection never changes state and never carries a hidden value: ``message`` and ``rule``
    may reach the sender and the logs; ``input`` is the sender's own and goes back to nobody
    else (it is not in ``str(e)``, ``e.args``, the service's ErrorInfo or a verifier's report).
    """

    def __init__(self, code: Code, message: str, *, rule: str | None = None, input: object = None) -> None:
        if not isinstance(code, Code):
            raise InternalTypeError(f"a Rejection's code is a member of engine/codes.py's Code, not {code!r}")
        self.code: str = code.value
        self.message = message
        self.rule = rule
        self.input = input
        super().__init__(f"{self.code}: {message}")


def _short(v: object) -> object:
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    if v is None or isinstance(v, (int, str, bool)):
        return v
    return repr(v)
