"""C2SP signed notes, Ed25519 keys, and tlog checkpoints (SPEC.md section 4).

Follows https://c2sp.org/signed-note and https://c2sp.org/tlog-checkpoint, the
text format that golang.org/x/mod/sumdb/note reads, so existing note tooling can
read afteraction checkpoints.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass

from ..errors import CryptoError
from .ed25519 import key_problem, public_of, sign, verify_signature

ALG_ED25519 = 0x01
SIG_PREFIX = "\u2014 "  # EM DASH and a space
MAX_SIGNATURES = 100     # golang.org/x/mod/sumdb/note's limit; C2SP requires at least 16


def key_id(name: str, alg_and_pub: bytes) -> bytes:
    """C2SP key ID: SHA-256(name || 0x0A || type || public key)[:4]."""
    return hashlib.sha256(name.encode() + b"\n" + alg_and_pub).digest()[:4]


def valid_key_name(name: str) -> bool:
    return bool(name) and "+" not in name and not any(c.isspace() for c in name)


@dataclass(frozen=True)
class Verifier:
    name: str
    key_id: bytes
    public: bytes  # 32-byte Ed25519 public key

    @property
    def vkey(self) -> str:
        """The C2SP verifier key string: name+hex(keyID)+base64(0x01 || pub)."""
        return f"{self.name}+{self.key_id.hex()}+{base64.b64encode(bytes([ALG_ED25519]) + self.public).decode()}"

    def verify(self, msg: bytes, sig: bytes) -> bool:
        return verify_signature(self.public, msg, sig)  # the one rule of SPEC.md 7.4


@dataclass(frozen=True)
class Signer:
    name: str
    seed: bytes  # 32-byte Ed25519 private seed

    @property
    def public(self) -> bytes:
        return public_of(self.seed)

    @property
    def key_id(self) -> bytes:
        return key_id(self.name, bytes([ALG_ED25519]) + self.public)

    @property
    def verifier(self) -> Verifier:
        return Verifier(self.name, self.key_id, self.public)

    @property
    def skey(self) -> str:
        """Go's signer key string: PRIVATE+KEY+name+hex(keyID)+base64(0x01 || seed)."""
        return f"PRIVATE+KEY+{self.name}+{self.key_id.hex()}+{base64.b64encode(bytes([ALG_ED25519]) + self.seed).decode()}"

    def sign(self, msg: bytes) -> bytes:
        return sign(self.seed, msg)


def parse_vkey(vkey: str) -> Verifier:
    if vkey.startswith("PRIVATE+KEY+"):  # a signer key pasted where a verifier key goes: never echoed
        raise CryptoError("malformed verifier key: this is a private signer key (not shown), not a verifier key")
    parts = vkey.split("+", 2)
    if len(parts) != 3:
        raise CryptoError(f"malformed verifier key {vkey!r}")
    name, hid, b64 = parts
    if not valid_key_name(name) or not re.fullmatch(r"[0-9a-f]{8}", hid):
        raise CryptoError(f"malformed verifier key {vkey!r}")
    raw = _b64_strict(b64)  # SPEC.md 4.2: one spelling per key, so comparing vkey strings compares keys
    if raw is None:
        raise CryptoError(f"malformed verifier key {vkey!r}: not canonical base64")
    if len(raw) != 33 or raw[0] != ALG_ED25519:
        raise CryptoError(f"verifier key {vkey!r}: not an Ed25519 key (type 0x01, 32 bytes)")
    kid = bytes.fromhex(hid)
    if key_id(name, raw) != kid:
        raise CryptoError(f"verifier key {vkey!r}: key ID does not match the key")
    why = key_problem(raw[1:])
    if why is not None:  # SPEC.md 7.4: anyone could sign for a weak key
        raise CryptoError(f"verifier key {vkey!r}: weak key: the public key {why} (SPEC.md 7.4)")
    return Verifier(name, kid, raw[1:])


def parse_skey(skey: str) -> Signer:
    parts = skey.split("+", 4)
    if len(parts) != 5 or parts[0] != "PRIVATE" or parts[1] != "KEY":
        raise CryptoError("malformed signer key")
    name, hid, b64 = parts[2], parts[3], parts[4]
    try:
        raw = base64.b64decode(b64, validate=True)
    except (binascii.Error, ValueError):
        raise CryptoError("malformed signer key: bad base64") from None
    if not valid_key_name(name) or len(raw) != 33 or raw[0] != ALG_ED25519:
        raise CryptoError("malformed signer key")
    s = Signer(name, raw[1:])
    if s.key_id.hex() != hid:
        raise CryptoError("signer key: key ID does not match the key")
    return s


def _b64_strict(s: str) -> bytes | None:
    """Standard padded base64 in its one canonical spelling (RFC 4648 3.5: pad bits zero),
    or None. Without this, a signature or root line could change in its unused bits and
    still decode to the same bytes, so a checkpoint's text would be malleable."""
    try:
        raw = base64.b64decode(s, validate=True)
    except (binascii.Error, ValueError):
        return None
    if not s or base64.b64encode(raw).decode() != s:
        return None
    return raw


@dataclass(frozen=True)
class NoteSignature:
    name: str
    key_id: bytes
    signature: bytes  # without the 4-byte key ID
    line: str


def sign_note(text: str, signers: list[Signer]) -> str:
    if not text.endswith("\n"):
        raise CryptoError("note text must end with a newline")
    _check_text(text.encode())
    out = text + "\n"
    for s in signers:
        sig = s.sign(text.encode())
        out += f"{SIG_PREFIX}{s.name} {base64.b64encode(s.key_id + sig).decode()}\n"
    return out


_CONTROL = re.compile("[\x00-\x09\x0b-\x1f]")


def _check_text(b: bytes) -> None:
    try:
        s = b.decode("utf-8")
    except UnicodeDecodeError:
        raise CryptoError("malformed note: not UTF-8") from None
    if _CONTROL.search(s):
        raise CryptoError("malformed note: control character")


def split_note(note: bytes | str) -> tuple[str, list[NoteSignature]]:
    """Parse a signed note into (text, signatures) without verifying anything."""
    b = note.encode() if isinstance(note, str) else bytes(note)
    _check_text(b)
    s = b.decode()
    i = s.rfind("\n\n")
    if i < 0:
        raise CryptoError("malformed note: no signature block")
    text, block = s[: i + 1], s[i + 2 :]
    if not block or not block.endswith("\n"):
        raise CryptoError("malformed note: empty or unterminated signature block")
    sigs: list[NoteSignature] = []
    for line in block[:-1].split("\n"):
        if not line.startswith(SIG_PREFIX):
            raise CryptoError("malformed note: bad signature line")
        rest = line[len(SIG_PREFIX):]
        name, _, b64 = rest.partition(" ")
        raw = _b64_strict(b64)
        if not valid_key_name(name) or raw is None or len(raw) < 5:
            raise CryptoError("malformed note: bad signature line")
        sigs.append(NoteSignature(name, raw[:4], raw[4:], line))
        if len(sigs) > MAX_SIGNATURES:
            raise CryptoError("malformed note: too many signatures")
    return text, sigs


def open_note(note: bytes | str, verifiers: list[Verifier]) -> tuple[str, list[NoteSignature]]:
    """Verify a signed note; returns (text, verified signatures).

    Signatures by unknown keys are ignored; a bad signature by a known key is an
    error; at least one known key must have signed.
    """
    text, sigs = split_note(note)
    return text, verified_signatures(text, sigs, verifiers)


def verified_signatures(text: str, sigs: list[NoteSignature], verifiers: list[Verifier],
                        check=None) -> list[NoteSignature]:
    """``open_note`` on a note already split (``split_note``): the verified signatures, or
    CryptoError. ``check(public, msg, sig) -> bool``: the signature rule of SPEC.md 7.4 (the
    default, None), or a caller's way of computing that same rule (clients/cli/verify_signatures.py)."""
    check = check or verify_signature
    known = {(v.name, v.key_id): v for v in verifiers}
    seen: set[tuple[str, bytes]] = set()
    good: list[NoteSignature] = []
    for sig in sigs:
        v = known.get((sig.name, sig.key_id))
        if v is None:
            continue
        if (sig.name, sig.key_id) in seen:
            continue
        seen.add((sig.name, sig.key_id))
        if not check(v.public, text.encode(), sig.signature):
            raise CryptoError(f"invalid signature by {sig.name}")
        good.append(sig)
    if not good:
        raise CryptoError("no signature by a known key")
    return good


@dataclass(frozen=True)
class Checkpoint:
    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    def text(self) -> str:
        lines = [self.origin, str(self.size), base64.b64encode(self.root).decode(), *self.extensions]
        return "\n".join(lines) + "\n"


_SIZE = re.compile(r"0|[1-9][0-9]*")


def parse_checkpoint(text: str) -> Checkpoint:
    """Parse a checkpoint body (the note text, without signatures)."""
    if not text.endswith("\n"):
        raise CryptoError("malformed checkpoint: no final newline")
    lines = text[:-1].split("\n")
    if len(lines) < 3:
        raise CryptoError("malformed checkpoint: fewer than three lines")
    origin, size_s, root_s, *ext = lines
    if not origin:
        raise CryptoError("malformed checkpoint: empty origin")
    if not _SIZE.fullmatch(size_s) or int(size_s) >= 2**64:
        raise CryptoError(f"malformed checkpoint: bad tree size {size_s!r}")
    root = _b64_strict(root_s)
    if root is None:
        raise CryptoError("malformed checkpoint: root is not canonical base64")
    if len(root) != 32:
        raise CryptoError(f"malformed checkpoint: root hash is {len(root)} bytes, not 32")
    if any(not e for e in ext):
        raise CryptoError("malformed checkpoint: empty extension line")
    return Checkpoint(origin, int(size_s), root, tuple(ext))


def sign_checkpoint(cp: Checkpoint, signer: Signer) -> str:
    return sign_note(cp.text(), [signer])


def open_checkpoint(note: bytes | str, verifier: Verifier) -> Checkpoint:
    text, _ = open_note(note, [verifier])
    return parse_checkpoint(text)
