"""The server's key ring: every checkpoint signing key it ever had, oldest first.

The key file (``--key``, default ``DATA_DIR/server.key``) holds one C2SP signer key per line,
oldest first. New games are created under the newest (the last line); a game keeps the key its
genesis names for its whole life, so an older key stays in the ring while games signed by it go
on. Beside it, ``KEYFILE.history`` is the public key history (SPEC.md 4.6): the same keys' verifier
keys, each signed by the one before; it is what a client that pinned the first key checks a newer
key against (``aar verify --key-history``). ``aar key rotate`` appends a key to both.

A ring of one key needs no history (every server before rotation: its key file is unchanged). A
ring of more has one, and the two must name the same keys in the same order, or the server does
not start."""
from __future__ import annotations

import os
from dataclasses import dataclass

from afteraction.engine.crypto import key_history
from afteraction.engine.crypto.note import Signer, parse_skey
from afteraction.engine.errors import CryptoError

from .store import StoreError

DEFAULT_NAME = "afteraction.local"   # the server key's name unless --key-name gives one


@dataclass(frozen=True)
class KeyRing:
    signers: tuple[Signer, ...]   # oldest first; never empty
    history: str = ""             # the text of KEYFILE.history (checked against the ring); "" for one key

    @property
    def newest(self) -> Signer:
        return self.signers[-1]

    @property
    def vkeys(self) -> list[str]:
        return [s.verifier.vkey for s in self.signers]

    def text(self) -> str:
        return "".join(s.skey + "\n" for s in self.signers)


def history_path(key_path: str) -> str:
    """Where the key history of the key file ``key_path`` lives."""
    return key_path + ".history"


def parse_ring(text: str, where: str) -> KeyRing:
    lines = [ln.strip() for ln in text.strip().splitlines()]
    if not lines or not lines[0]:
        raise StoreError(f"key file {where} is empty")
    signers = []
    for n, ln in enumerate(lines, start=1):
        try:
            signers.append(parse_skey(ln))
        except CryptoError as e:
            raise StoreError(f"key file {where} line {n} is not a signer key: {e}") from None
    if len({s.verifier.public for s in signers}) != len(signers):
        raise StoreError(f"key file {where} holds one key twice")
    return KeyRing(tuple(signers))


def read_history(path: str) -> list[str] | None:
    """The verifier keys of the history beside the key file ``path``, or None if it has none."""
    got = _read_history(path)
    return None if got is None else got[0]


def _read_history(path: str) -> tuple[list[str], str] | None:
    hpath = history_path(path)
    try:
        with open(hpath, "rb") as f:
            raw = f.read(key_history.MAX_BYTES + 1)
        return key_history.parse(raw), raw.decode("utf-8")
    except FileNotFoundError:
        return None
    except CryptoError as e:
        raise StoreError(str(e).replace("key history", f"key history {hpath}", 1)) from None


def read_ring(path: str) -> KeyRing:
    """The ring in ``path``, checked against its history (KEYFILE.history) when it holds more than
    one key; StoreError (one line) otherwise. FileNotFoundError if there is no key file."""
    with open(path) as f:
        ring = parse_ring(f.read(), path)
    got = _read_history(path)
    hist = None if got is None else got[0]
    hpath = history_path(path)
    if hist is None and len(ring.signers) > 1:
        raise StoreError(f"key file {path} holds {len(ring.signers)} keys but there is no key history "
                         f"{hpath}: restore it from a backup (aar key rotate writes both)")
    if hist is not None and hist != ring.vkeys:
        if hist == ring.vkeys[:-1]:
            raise StoreError(f"the key history {hpath} lacks the newest key of {path} (aar key rotate was "
                             f"interrupted): run aar key rotate --key {path} again, it completes the history")
        raise StoreError(f"the key file {path} ({len(ring.signers)} keys) and the key history {hpath} "
                         f"({len(hist)} keys) do not name the same keys in the same order")
    return ring if got is None else KeyRing(ring.signers, got[1])


def load_or_create(path: str, name: str) -> KeyRing:
    """The ring in ``path``, or a new ring of one fresh key written there (mode 0600)."""
    try:
        return read_ring(path)
    except FileNotFoundError:
        pass
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, mode=0o700, exist_ok=True)
    signer = Signer(name, os.urandom(32))
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(signer.skey + "\n")
    return KeyRing((signer,))


def load_or_create_key(path: str, name: str = DEFAULT_NAME) -> Signer:
    """The server's checkpoint signing key for new games: the newest of the key ring in ``path``
    (this module), generated there on first start (file mode 0600, the C2SP signer key text)."""
    return load_or_create(path, name).newest



def _write_atomic(path: str, data: str, mode: int) -> None:
    tmp = f"{path}.tmp-{os.getpid()}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    dfd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def rotate(path: str, seed: bytes | None = None) -> tuple[KeyRing, str, bool]:
    """Append a fresh key (same name as the newest) to the ring in ``path`` and to its history,
    signed by the newest key. Returns the new ring, the history text, and whether a key was added.

    The key file is written first, then the history: a crash between the two leaves a history one
    key behind the ring, which the server refuses to start on by name, and which the next
    ``rotate`` completes (signing the missing entry, adding no key) instead of adding another."""
    with open(path) as f:
        ring = parse_ring(f.read(), path)
    hpath = history_path(path)
    if os.path.exists(hpath):
        with open(hpath) as f:
            hist = f.read()
    else:
        if len(ring.signers) > 1:
            raise StoreError(f"key file {path} holds {len(ring.signers)} keys but there is no key history {hpath}")
        hist = key_history.start(ring.signers[0].verifier)
    try:
        have = key_history.parse(hist)
    except CryptoError as e:
        raise StoreError(f"key history {hpath}: {e}") from None
    if have == ring.vkeys[:-1]:  # an interrupted rotation: complete the history, add no key
        hist = key_history.extend(hist, ring.signers[-2], ring.newest.verifier)
        _write_atomic(hpath, hist, 0o644)
        return ring, hist, False
    if have != ring.vkeys:
        raise StoreError(f"the key file {path} and the key history {hpath} do not name the same keys")
    new = Signer(ring.newest.name, seed if seed is not None else os.urandom(32))
    hist = key_history.extend(hist, ring.newest, new.verifier)
    ring = KeyRing(ring.signers + (new,))
    _write_atomic(path, ring.text(), 0o600)
    _write_atomic(hpath, hist, 0o644)
    return ring, hist, True
