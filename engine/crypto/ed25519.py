"""The one Ed25519 rule of SPEC.md 7.4: which public keys are accepted, which signatures verify.

Libraries disagree at the edges (RFC 8032 leaves room: small-order and non-canonical points,
cofactored or cofactorless equation), so two honest verifiers on two libraries could judge one
log differently. SPEC.md 7.4 fixes one rule, the intersection of what OpenSSL, BoringSSL,
libsodium and @noble/curves accept, so that every verifier reaches it by adding refusals in front
of its library, never by overriding one:

- a public key is accepted only if it is the canonical encoding of a point of the prime-order
  subgroup other than the identity (``key_problem``, pure-Python Edwards arithmetic below; it
  runs once per key and is cached);
- a signature (R, S) verifies only under such a key, with S < L, R canonical and not of small
  order, and the cofactorless equation [S]B = R + [k]A (``verify_signature``: the cheap checks
  here, the equation by libsodium through PyNaCl, whose "encode [S]B - [k]A and compare with R"
  verification is exactly the cofactorless equation with a canonical R; its own refusals, of
  S >= L and of small-order or non-canonical points, come after the same refusals here).

Every Ed25519 signature the project makes is made here too (``sign``, RFC 8032 5.1.6 by libsodium):
deterministic, so the bytes are those of any other RFC 8032 signer (OpenSSL's, WebCrypto's).

Pure and deterministic: no I/O, no randomness.
"""
from __future__ import annotations

import functools
import hashlib

from nacl.bindings import crypto_sign, crypto_sign_open, crypto_sign_seed_keypair
from nacl.exceptions import BadSignatureError

from ..errors import InternalValueError

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493  # order of the prime-order subgroup
D = -121665 * pow(121666, -1, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)

# points in extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z, x*y = T/Z (RFC 8032 5.1.4)
IDENTITY = (0, 1, 1, 0)


def _add(p1, p2):
    x1, y1, z1, t1 = p1
    x2, y2, z2, t2 = p2
    a = (y1 - x1) * (y2 - x2) % P
    b = (y1 + x1) * (y2 + x2) % P
    c = 2 * D * t1 * t2 % P
    d = 2 * z1 * z2 % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def mul(n: int, p):
    """[n]p by double-and-add (variable time: only ever applied to public values)."""
    q = IDENTITY
    while n > 0:
        if n & 1:
            q = _add(q, p)
        p = _add(p, p)
        n >>= 1
    return q


def add(p1, p2):
    return _add(p1, p2)


def equal(p1, p2) -> bool:
    x1, y1, z1, _ = p1
    x2, y2, z2, _ = p2
    return (x1 * z2 - x2 * z1) % P == 0 and (y1 * z2 - y2 * z1) % P == 0


def is_identity(p) -> bool:
    return equal(p, IDENTITY)


def encode(p) -> bytes:
    x, y, z, _ = p
    zi = pow(z, -1, P)
    x, y = x * zi % P, y * zi % P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def _recover_x(y: int) -> int | None:
    """An x with x^2 = (y^2 - 1) / (d y^2 + 1), or None if there is none (RFC 8032 5.1.3)."""
    u, v = (y * y - 1) % P, (D * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    if (v * x * x - u) % P == 0:
        return x
    if (v * x * x + u) % P == 0:
        return x * SQRT_M1 % P
    return None


def decode(b: bytes):
    """(point, None) for a canonical encoding of a curve point, else (None, (clause, why)),
    the clause of the key rule of SPEC.md 7.4 it fails (0: not 32 bytes).

    Canonical: y < p, and not x = 0 with the sign bit set (the two encodings RFC 8032 5.1.3
    calls failures, which some libraries nevertheless decode)."""
    if len(b) != 32:
        return None, (0, f"is {len(b)} bytes, not 32")
    n = int.from_bytes(b, "little")
    y, sign = n & ((1 << 255) - 1), n >> 255
    if y >= P:
        return None, (1, "is not canonical (y >= p)")
    x = _recover_x(y)
    if x is None:
        return None, (2, "is not the encoding of a curve point")
    if x == 0 and sign:
        return None, (3, "is not canonical (x = 0 with the sign bit set)")
    if x & 1 != sign:
        x = P - x
    return (x, y, 1, x * y % P), None


def point_check(b: bytes) -> tuple[int, str] | None:
    """None if ``b`` is the canonical encoding of a point of the prime-order subgroup other
    than the identity; otherwise (the clause of the key rule of SPEC.md 7.4 it fails, what is
    wrong, in words)."""
    p, why = decode(b)
    if p is None:
        return why
    if is_identity(p):
        return 4, "is the identity point (small order 1)"
    q = p
    for order in (2, 4, 8):
        q = _add(q, q)
        if is_identity(q):
            return 4, f"has small order {order}"
    if not is_identity(mul(L, p)):
        return 5, "has mixed order (outside the prime-order subgroup)"
    return None


def point_problem(b: bytes) -> str | None:
    """What the key rule of SPEC.md 7.4 refuses ``b`` for, in words, or None."""
    c = point_check(b)
    return None if c is None else c[1]


#: keys whose check is remembered by the cache below: a server's live games hold two or more seat keys each,
#: and a league of 10,000 live games about 20,000 (each entry about 200 bytes); past it a key's check runs
#: again in pure Python for each signature (when the benches' hundreds of pooled games passed 1,024,
#: that was 5% of a duel command's server CPU)
KEY_CACHE = 1 << 15


@functools.lru_cache(maxsize=KEY_CACHE)
def key_problem(public: bytes) -> str | None:
    """The key check of SPEC.md 7.4, once per key (cached): None if ``public`` may be a
    public key, else the reason it is refused ("has small order 8", ...)."""
    return point_problem(bytes(public))


# The canonical encodings of the eight points of small order (the 8-torsion: [8]T = identity).
# A cofactorless verification under a prime-order key can only ever meet the identity among them
# (the equation forces R into the prime-order subgroup), but the rule refuses the whole set, so
# a verifier on a cofactored library reaches the same verdict with the same list.
def _small_order_encodings() -> frozenset[bytes]:
    y = 2
    while True:  # the torsion part [L]Q of a curve point Q; the first of order 8 generates them all
        q, _ = decode(y.to_bytes(32, "little"))
        if q is not None:
            t = mul(L, q)
            if not is_identity(mul(4, t)):
                break
        y += 1
    out, p = set(), IDENTITY
    for _ in range(8):
        out.add(encode(p))
        p = _add(p, t)
    return frozenset(out)


SMALL_ORDER_ENCODINGS = _small_order_encodings()
BASE = decode((4 * pow(5, -1, P) % P).to_bytes(32, "little"))[0]  # B: y = 4/5, x even (RFC 8032 5.1)


#: signature verdicts remembered (``signature_problem``), by a SHA-256 of the key, the signature and the
#: message (emptied when full): a log verified again, or with one record
#: changed (a tampered copy), a league's games checked again, and a command a client sends again (a retry)
#: cost one hash a signature, not a verification (a stored command replayed is not checked at all:
#: service/games.py's catch-up passes signature_checked)
SIGNATURE_CACHE = 1 << 16
_verdicts: dict[bytes, str | None] = {}
_UNKNOWN = object()


def signature_problem(public: bytes, msg: bytes, sig: bytes) -> str | None:
    """The signature check of SPEC.md 7.4: None if ``sig`` verifies, else "N (name): why"
    with N the first clause of the signature rule it fails. A pure function of its three arguments, so
    its verdicts are remembered (``SIGNATURE_CACHE``)."""
    h = hashlib.sha256(len(public).to_bytes(8, "little"))
    h.update(public)
    h.update(len(sig).to_bytes(8, "little"))
    h.update(sig)
    h.update(msg)
    key = h.digest()
    why = _verdicts.get(key, _UNKNOWN)
    if why is _UNKNOWN:
        why = _signature_problem(public, msg, sig)
        if len(_verdicts) >= SIGNATURE_CACHE:
            _verdicts.clear()
        _verdicts[key] = why
    return why


def forget_verdicts() -> None:
    """Empties the remembered verdicts: a benchmark timing verification starts from none."""
    _verdicts.clear()


def _signature_problem(public: bytes, msg: bytes, sig: bytes) -> str | None:
    why = key_problem(bytes(public))
    if why is not None:
        return f"1 (key): the key {why}"
    if len(sig) != 64:
        return f"2 (length): a signature is 64 bytes, not {len(sig)}"
    r, s = bytes(sig[:32]), int.from_bytes(sig[32:], "little")
    if s >= L:
        return "3 (S): S >= L"
    ry = int.from_bytes(r, "little") & ((1 << 255) - 1)
    if ry >= P:
        return "4 (R): R is not canonical (y >= p)"
    if ry in (1, P - 1) and r[31] & 0x80:  # exactly the points with x = 0
        return "4 (R): R is not canonical (x = 0 with the sign bit set)"
    if r in SMALL_ORDER_ENCODINGS:
        return "5 (R): R has small order"
    try:  # libsodium: the cofactorless equation (clause 6), which no R that is not a point meets (clause 4)
        crypto_sign_open(bytes(sig) + bytes(msg), bytes(public))
    except BadSignatureError:
        if decode(r)[0] is None:  # only on a refusal: which of the two clauses refused it
            return "4 (R): R is not the encoding of a curve point"
        return "6 (equation): [S]B != R + [k]A"
    return None


def verify_signature(public: bytes, msg: bytes, sig: bytes) -> bool:
    """True if ``sig`` is a signature of ``msg`` under ``public`` by the rule of SPEC.md 7.4.
    Every Ed25519 signature the project checks goes through here."""
    return signature_problem(public, msg, sig) is None


#: the signing keys whose expanded form is kept (``sign``, ``public_of``): a server signs with one or a
#: few (its key ring), a client with its seats'; expanding the seed again took as long as the signature
SIGNER_CACHE = 64


@functools.lru_cache(maxsize=SIGNER_CACHE)
def _keypair(seed: bytes) -> tuple[bytes, bytes]:
    if len(seed) != 32:
        raise InternalValueError(f"an Ed25519 private key is a 32-byte seed, not {len(seed)} bytes")
    return crypto_sign_seed_keypair(bytes(seed))


def public_of(seed: bytes) -> bytes:
    """The 32-byte public key of a 32-byte seed (RFC 8032 5.1.5)."""
    return _keypair(bytes(seed))[0]


def sign(seed: bytes, msg: bytes) -> bytes:
    """The 64-byte RFC 8032 signature of ``msg`` under the key of ``seed`` (deterministic)."""
    return crypto_sign(bytes(msg), _keypair(bytes(seed))[1])[:64]


class SigningKey:
    """A 32-byte seed as a signing key (its length checked when made): ``sign(msg)``, ``public``."""
    __slots__ = ("seed",)

    def __init__(self, seed: bytes) -> None:
        self.seed = bytes(seed)
        _keypair(self.seed)

    def sign(self, msg: bytes) -> bytes:
        return sign(self.seed, msg)

    @property
    def public(self) -> bytes:
        return public_of(self.seed)


def sha512_scalar(*parts: bytes) -> int:
    """SHA-512 of the parts as a little-endian integer mod L (the k of RFC 8032 5.1.7)."""
    return int.from_bytes(hashlib.sha512(b"".join(parts)).digest(), "little") % L
