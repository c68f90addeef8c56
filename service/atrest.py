"""Secrets at rest: what the store keeps private is encrypted under a data key that is not in
the store (docs/service.md, "What to protect").

The store's private columns are the games' server secrets (with one, anyone can open every
sealed value of a game in progress and compute its dice ahead), the seats' openings (salt and
value of each hidden value) and the exact signed commands (a sealed command's plaintext). Each
is stored as

    0x01 || nonce (12 random bytes) || ChaCha20-Poly1305(game key, nonce, plaintext, ad)
    game key = HMAC-SHA256(data key, "aar-at-rest/v1" 0x00 || game id)
    ad       = lp(column) || lp(game id) || the row's own key fields (seat, counter, seq, k)

so a copied database file, a WAL, a dump or a backup alone opens nothing, and a ciphertext
moved to another row, column or game does not decrypt. The data key is 32 random bytes in a
file (``data.key``, mode 0600) beside the server key, made on first start; losing it loses
every game in progress (ended games' secrets are in their published end records anyway).

A store records that it is encrypted, and a check value of its key, in its ``meta`` table; a
store written before this (plaintext) is encrypted in place, in one transaction, the first time
it is opened with a key (``Store.migrate``).
"""
from __future__ import annotations

import hashlib
import hmac
import os
import threading

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from afteraction.engine.errors import AfteractionError

VERSION = b"\x01"
_LABEL = b"aar-at-rest/v1\x00"
_HEADER = "aar-data-key-v1"
CHECK = b"afteraction data key check"


class AtRestError(AfteractionError):
    """A data key file that is not one, or a stored value that does not open with this key."""


def _lp(b: bytes) -> bytes:
    return len(b).to_bytes(4, "big") + b


def ad(column: str, game_id: str, *fields) -> bytes:
    out = _lp(column.encode()) + _lp(game_id.encode())
    for f in fields:
        out += _lp(str(f).encode())
    return out


class DataKey:
    """The data key and the AEAD over it (one per process; thread-safe)."""

    def __init__(self, key: bytes) -> None:
        if len(key) != 32:
            raise AtRestError("a data key is 32 bytes")
        self._key = key
        self._games: dict[str, ChaCha20Poly1305] = {}
        self._lock = threading.Lock()

    def _aead(self, game_id: str) -> ChaCha20Poly1305:
        a = self._games.get(game_id)
        if a is None:
            k = hmac.new(self._key, _LABEL + game_id.encode(), hashlib.sha256).digest()
            a = ChaCha20Poly1305(k)
            with self._lock:
                if len(self._games) > 4096:  # a cache, bounded
                    self._games.clear()
                self._games[game_id] = a
        return a

    def seal(self, game_id: str, plaintext: bytes, assoc: bytes) -> bytes:
        nonce = os.urandom(12)
        return VERSION + nonce + self._aead(game_id).encrypt(nonce, bytes(plaintext), assoc)

    def open(self, game_id: str, blob: bytes, assoc: bytes) -> bytes:
        blob = bytes(blob)
        if blob[:1] != VERSION or len(blob) < 1 + 12 + 16:
            raise AtRestError(f"game {game_id}: a stored private value is not encrypted (a plaintext store?)")
        try:
            return self._aead(game_id).decrypt(blob[1:13], blob[13:], assoc)
        except InvalidTag:
            raise AtRestError(f"game {game_id}: a stored private value does not open with this data key "
                              "(another key, or a value moved between rows)") from None

    def check_value(self) -> bytes:
        return self.seal("", CHECK, ad("check", ""))

    def opens_check(self, blob: bytes) -> bool:
        try:
            return self.open("", blob, ad("check", "")) == CHECK
        except AtRestError:
            return False


def load_or_create(path: str) -> DataKey:
    """Read the data key file, or create it (mode 0600, never overwriting one that exists)."""
    try:
        with open(path) as f:
            text = f.read().strip()
    except FileNotFoundError:
        d = os.path.dirname(os.path.abspath(path))
        os.makedirs(d, mode=0o700, exist_ok=True)
        key = os.urandom(32)
        tmp = f"{path}.{os.getpid()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(f"{_HEADER} {key.hex()}\n")
            f.flush()
            os.fsync(f.fileno())
        try:  # appears whole or not at all; never replaces a key another process made meanwhile
            os.link(tmp, path)
        except FileExistsError:
            return load_or_create(path)
        finally:
            os.unlink(tmp)
        return DataKey(key)
    head, _, hexkey = text.partition(" ")
    try:
        key = bytes.fromhex(hexkey)
    except ValueError:
        key = b""
    if head != _HEADER or len(key) != 32:
        raise AtRestError(f"data key file {path} is not an afteraction data key")
    return DataKey(key)


def beside(server_key_path: str) -> str:
    """Where the data key of a server whose signing key is at ``server_key_path`` lives."""
    return os.path.join(os.path.dirname(os.path.abspath(server_key_path)), "data.key")
