"""The server key history (SPEC.md 4.6): an append-only list of a server's verifier keys, oldest
first, in which each key after the first is signed by the key before it. A log signed by any key
of a verified history is tied, through the history, to its first key: the one clients pinned.

Pure: bytes in, verifier keys out (no files here; ``aar key rotate`` and ``aar serve`` read and
write them, ``aar verify --key-history`` checks them)."""
from __future__ import annotations

import base64

from ..errors import CryptoError
from .hashing import lp, tag_prefix, u64
from .note import Signer, Verifier, _b64_strict, parse_vkey

HEADER = "afteraction key history v1"
TAG_KEY_ROTATION = "aar1/key-rotation"   # prefix of what the old key signs (SPEC.md 2 and 4.6)
MAX_KEYS = 1000                          # keys in one history at most
MAX_BYTES = 1 << 20                      # a history file's bytes at most


def rotation_message(index: int, old_vkey: str, new_vkey: str) -> bytes:
    """What key ``index - 1`` signs to name key ``index`` its successor (SPEC.md 4.6)."""
    return tag_prefix(TAG_KEY_ROTATION) + u64(index) + lp(old_vkey.encode()) + lp(new_vkey.encode())


def start(first: Verifier) -> str:
    """The history of a server's first key: the header and that key."""
    return f"{HEADER}\n{first.vkey}\n"


def extend(history: str, old: Signer, new: Verifier) -> str:
    """``history`` with ``new`` appended, signed by ``old`` (which must be its last key)."""
    keys = parse(history)
    if keys[-1] != old.verifier.vkey:
        raise CryptoError("the signing key is not the history's last key: only the newest key can name its successor")
    if new.vkey in keys or any(parse_vkey(k).public == new.public for k in keys):
        raise CryptoError("the new key is already in the history")
    sig = old.sign(rotation_message(len(keys), keys[-1], new.vkey))
    return history + f"{new.vkey} {base64.b64encode(sig).decode()}\n"


def parse(text: str | bytes) -> list[str]:
    """The verifier keys of a history, oldest first, after checking every line and signature;
    CryptoError naming the first line that fails."""
    if isinstance(text, bytes):
        if len(text) > MAX_BYTES:
            raise CryptoError(f"key history: longer than {MAX_BYTES} bytes")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise CryptoError("key history: not UTF-8") from None
    if len(text) > MAX_BYTES:
        raise CryptoError(f"key history: longer than {MAX_BYTES} bytes")
    if not text.endswith("\n"):
        raise CryptoError("key history: does not end with a newline")
    lines = text[:-1].split("\n")
    if lines[0] != HEADER:
        raise CryptoError(f"key history: line 1 is not {HEADER!r}")
    if len(lines) < 2:
        raise CryptoError("key history: no key")
    if len(lines) - 1 > MAX_KEYS:
        raise CryptoError(f"key history: more than {MAX_KEYS} keys")
    keys: list[str] = []
    publics: set[bytes] = set()
    prev: Verifier | None = None
    for n, line in enumerate(lines[1:], start=2):
        i = n - 2  # the key's index
        parts = line.split(" ")
        if len(parts) != (1 if i == 0 else 2):
            raise CryptoError(f"key history line {n}: expected "
                              + ("the first verifier key alone" if i == 0 else "a verifier key, one space, a signature"))
        try:
            v = parse_vkey(parts[0])
        except CryptoError as e:
            raise CryptoError(f"key history line {n}: {e}") from None
        if v.public in publics:
            raise CryptoError(f"key history line {n}: the key is already in the history")
        if prev is not None:
            sig = _b64_strict(parts[1])
            if sig is None or len(sig) != 64:
                raise CryptoError(f"key history line {n}: the signature is not canonical base64 of 64 bytes")
            if not prev.verify(rotation_message(i, keys[-1], parts[0]), sig):
                raise CryptoError(f"key history line {n}: key {i} is not signed by key {i - 1} ({keys[-1]})")
        keys.append(parts[0])
        publics.add(v.public)
        prev = v
    return keys


def extends(old: str, new: str) -> bool:
    """Whether the history ``new`` is ``old`` with keys appended (append-only)."""
    return new.startswith(old) and old.endswith("\n")
