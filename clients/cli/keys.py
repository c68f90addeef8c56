"""Key files and key arguments of the `aar` command line (docs/service.md "Key files"):

- a seat key file (``aar keygen``): the 32-byte Ed25519 seed as 64 hex digits and a newline, mode 0600;
- the server key file (``server.key``, made by ``aar serve``): the C2SP signer key text
  ``PRIVATE+KEY+NAME+ID+BASE64``, mode 0600; after ``aar key rotate``, one such line per key of the
  server's key ring, oldest first, with the public key history beside it (``server.key.history``,
  SPEC.md 4.6).

Wherever a command asks for a key it takes the key's text or a file holding it; a private key is
read only to derive its public half and is never printed, not even in an error.
`aar key show FILE` prints the public half of either kind of file."""
from __future__ import annotations

import os
import re

from .common import _one_line, default_data_dir

MAX_KEY_FILE = 65536  # characters read from a key file at most: a ring of 500 server keys is shorter
PRIVATE_PREFIX = "PRIVATE+KEY+"


class KeyArgError(ValueError):
    """A key argument or key file that cannot be used: the message never holds key material."""


def read_text(path: str, what: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            raw = f.read(MAX_KEY_FILE + 1)
    except UnicodeDecodeError:
        raise KeyArgError(f"{what}: {path} is not a text key file") from None
    except OSError as e:
        raise KeyArgError(f"{what}: cannot read {path}: {e.strerror or e}") from None
    if len(raw) > MAX_KEY_FILE:
        raise KeyArgError(f"{what}: {path} is longer than any key file ({MAX_KEY_FILE} characters at most)")
    return raw.strip()


def seed_from_text(raw: str) -> bytes | None:
    try:
        seed = bytes.fromhex(raw)
    except ValueError:
        return None
    return seed if len(seed) == 32 else None


def read_seat_seed(path: str, what: str = "seat key") -> bytes:
    """The seed of a seat key file (64 hex digits, ``aar keygen``)."""
    seed = seed_from_text(read_text(path, what))
    if seed is None:
        raise KeyArgError(f"{what}: {path} is not a seat key file (64 hex digits, made by `aar keygen`)")
    return seed


def seat_public(seed: bytes) -> bytes:
    from afteraction.engine.seat import SeatSigner

    return SeatSigner("", seed).public


def seat_public_arg(value: str, what: str) -> bytes:
    """A seat's public key given as 64 hex digits or as a seat key file (its public half)."""
    if os.path.isfile(value):
        return seat_public(read_seat_seed(value, what))
    try:
        key = bytes.fromhex(value)
    except ValueError:
        key = None
    if key is None and not re.fullmatch(r"[0-9A-Fa-f\s]*", value):  # not hex: meant as a file
        shown = "".join(c if c.isprintable() else "?" for c in value[:80])
        why = "is not a file" if os.path.exists(value) else "no such file"
        raise KeyArgError(f"{what}: {shown}: {why} (give a seat key file made by `aar keygen`, or the seat's "
                          f"public key as 64 hex digits)")
    if key is None or len(key) != 32:
        raise KeyArgError(f"{what}: expected a 32-byte Ed25519 public key in hex (64 digits) or a seat key file")
    return key


def server_vkey_arg(value: str, what: str = "--server-key") -> str:
    """The server's verifier key (NAME+ID+BASE64) given as its text, a file holding it, or the
    server's own ``server.key`` (its verifier half); checked (SPEC.md 4.2, 7.4); never echoed if private."""
    from afteraction.engine.crypto.note import parse_skey, parse_vkey
    from afteraction.engine.errors import CryptoError

    text = value.strip()
    if text.startswith(PRIVATE_PREFIX):
        raise KeyArgError(f"{what}: that is a server's private signing key, not its verifier key (not shown); "
                          f"keep it secret and print its verifier key with `aar key show server.key`")
    if os.path.isfile(value):
        text = read_text(value, what)
        if text.startswith(PRIVATE_PREFIX):
            if len(text.splitlines()) > 1:
                raise KeyArgError(f"{what}: {value} is a key ring of {len(text.splitlines())} server keys: pin the "
                                  f"first one's verifier key with --key-history {value}.history (or one key's text)")
            try:
                return parse_skey(text).verifier.vkey
            except CryptoError:
                raise KeyArgError(f"{what}: {value} is not a valid server key file") from None
    try:
        return parse_vkey(text).vkey
    except CryptoError as e:
        why = str(e).split(": ", 1)[1] if ": " in str(e) else "malformed"
        raise KeyArgError(f"{what}: not a server verifier key (NAME+ID+BASE64, as `aar serve` prints it, or a "
                          f"file holding one): {why}") from None


def describe_key_file(path: str) -> list[str]:
    """`aar key show`: the public half of a seat key file, a server key file or a verifier key file."""
    from afteraction.engine.crypto.note import parse_skey, parse_vkey
    from afteraction.engine.errors import CryptoError

    text = read_text(path, "aar key show")
    seed = seed_from_text(text)
    if seed is not None:
        return [f"seat key file {path}", f"public key: {seat_public(seed).hex()}"]
    if text.startswith(PRIVATE_PREFIX):
        try:
            ring = [parse_skey(ln.strip()) for ln in text.splitlines()]
        except CryptoError:
            raise KeyArgError(f"aar key show: {path} looks like a server key file but is malformed") from None
        if len(ring) == 1:
            return [f"server key file {path} (key name {ring[0].name})", f"verifier key: {ring[0].verifier.vkey}"]
        return [f"server key ring {path}: {len(ring)} keys, oldest first; new games are signed by the last"] + [
            f"verifier key {i}: {s.verifier.vkey}" for i, s in enumerate(ring)]
    try:
        v = parse_vkey(text)
    except CryptoError:
        raise KeyArgError(f"aar key show: {path} is neither a seat key file (64 hex digits), a server key "
                          f"file (PRIVATE+KEY+...) nor a verifier key") from None
    return [f"verifier key file {path} (key name {v.name})", f"verifier key: {v.vkey}"]


def cmd_key_show(args) -> int:
    import sys

    try:
        lines = describe_key_file(args.file)
    except KeyArgError as e:
        print(str(e), file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


def register(sub) -> None:
    import argparse

    p = sub.add_parser("key", help="show the public half of a key file; rotate the server key",
                       description="Show the public half of a key file (never the private key).")
    ks = p.add_subparsers(dest="key_command", required=True)
    s = ks.add_parser("show", help="print a seat key file's public key or server.key's verifier key",
                      description="Print a seat key file's public key, or the verifier key of a server key "
                                  "file (server.key) or of a verifier key file. The private key is never printed.",
                      formatter_class=argparse.RawDescriptionHelpFormatter,
                      epilog="example: aar key show alice.key; aar key show data/server.key")
    s.add_argument("file", help="a seat key file (aar keygen), server.key (aar serve) or a verifier key file")
    s.set_defaults(func=cmd_key_show)
    r = ks.add_parser("rotate", help="add a new server key to the key ring, signed into the key history",
                      description="Add a fresh key to the server's key ring (the key file, oldest key first) and "
                                  "append it to the public key history beside it (KEYFILE.history, SPEC.md 4.6), "
                                  "signed by the key before it. Servers read the ring when they start: restart "
                                  "every server of the store with the new key file. New games are then signed by "
                                  "the new key; every existing game keeps the key its genesis names.",
                      formatter_class=argparse.RawDescriptionHelpFormatter,
                      epilog="example: aar key rotate --data-dir data; then publish data/server.key.history")
    r.add_argument("--key", metavar="FILE", help="the server key file (default DATA_DIR/server.key)")
    r.add_argument("--data-dir", metavar="DIR", help="the server's data directory (aar serve --data-dir)")
    r.set_defaults(func=cmd_key_rotate)


def cmd_key_rotate(args) -> int:
    import sys

    from afteraction.service.keyring import history_path, rotate
    from afteraction.service.store import StoreError


    path = args.key or os.path.join(args.data_dir or default_data_dir(), "server.key")
    if not os.path.isfile(path):
        print(f"aar key rotate: no server key file {path} (aar serve makes it on its first start)", file=sys.stderr)
        return 2
    try:
        ring, _, added = rotate(path)
    except (StoreError, OSError) as e:
        print(f"aar key rotate: {getattr(e, 'strerror', None) or e}", file=sys.stderr)
        return 2
    if added:
        print(f"new server key: {ring.newest.verifier.vkey} (key {len(ring.signers) - 1} of the ring; new games "
              f"are signed by it once the servers restart)")
    else:
        print(f"completed the key history with key {len(ring.signers) - 1} (an interrupted rotation); no key added")
    print(f"key file: {os.path.abspath(path)} ({len(ring.signers)} keys, keep it secret; every server of the "
          f"store needs this file)")
    print(f"key history: {os.path.abspath(history_path(path))} (public: publish it; clients check a log with "
          f"aar verify FILE --key-history {os.path.basename(history_path(path))})")
    return 0


def pinned_seat_keys(items: list[str] | None) -> dict[str, bytes]:
    """``--seat-key SEAT=HEX`` or ``SEAT=KEYFILE`` values (aar verify, aar evidence) as seat -> public
    key; ValueError with the message for the user on a malformed item, a seat given twice, or a key
    the key rule of SPEC.md 7.4 refuses (no genesis may name it, so pinning it is a usage error)."""
    from afteraction.engine.crypto.ed25519 import key_problem


    keys: dict[str, bytes] = {}
    for item in items or []:
        seat, sep, val = item.partition("=")
        if not sep or not seat:
            raise ValueError(f"--seat-key {_one_line(item[:80])!r}: expected SEAT=HEX (a 32-byte Ed25519 public "
                             f"key in hex) or SEAT=KEYFILE")
        try:
            key = seat_public_arg(val, f"--seat-key {_one_line(seat[:40])}")
        except KeyArgError as e:
            raise ValueError(str(e)) from None
        if seat in keys:
            raise ValueError(f"--seat-key: seat {seat!r} given twice")
        why = key_problem(key)
        if why is not None:
            raise ValueError(f"--seat-key {seat}: weak key: the public key {why} (SPEC.md 7.4)")
        keys[seat] = key
    return keys
