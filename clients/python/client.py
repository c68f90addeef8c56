"""The reference client: a thin library over GameService and AuditService.

- ``Client``: a channel to a server; create games, export and verify logs.
- ``Seat`` (clients/python/seat.py): one seat of one game. Verifies every record as it arrives with the
  verifier of ``aar verify`` (``engine/log/verify.py`` ``Verifier``: this game,
  a genesis listing the seat's own key and the expected server key and origin,
  each record's checkpoint), and signs only at the end of the log it verified
  (format version 2 binds that end into the envelope, SPEC.md 7.1); reveals its
  entropy only once every seat's commitment is in that log (SPEC.md 5.2); keeps
  its latest verified checkpoint in a file when given one (SPEC.md 11); runs the
  handshake, submits commands (a retry after a lost reply sends the same
  bytes), follows the Play stream with automatic resume, and checks each
  private opening against its public commitment.
- ``CheckpointTracker``: keeps the latest checkpoint; each new one must be
  consistent with it (RFC 9162 proofs from the server) for a client that does
  not hold the records (``HistoryRewritten``).
"""
from __future__ import annotations

import io
import os
import time
from typing import Callable

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from afteraction.engine.codes import RETRY
from afteraction.engine.crypto import note as _note
from afteraction.engine.crypto.merkle import CompactTree, verify_consistency
from afteraction.engine.errors import AfteractionError, CryptoError, VerificationError
from afteraction.engine.log.verify import Verifier
from afteraction.engine.protocol import seat_auth
from afteraction.v1 import audit_service_pb2 as au
from afteraction.v1 import audit_service_pb2_grpc as au_grpc
from afteraction.v1 import game_service_pb2 as gs
from afteraction.v1 import game_service_pb2_grpc as gs_grpc

from .endings import Ending  # noqa: F401 (Ending is part of this module's API)

RESUMABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.ABORTED)
# refusals inside a Play stream after which the server prompts again (or the stream resumes):
# the codes of engine/codes.py marked retry; WRONG_HISTORY is not one: the seat signed against a
# history the server's log does not have
TRANSIENT = RETRY
CLIENT_REFRESH_MS = 60 * 1000  # a SeatAuth is signed afresh after a minute (the server takes five)


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def make_auth(seed: bytes, game_id: str, seat: str) -> gs.SeatAuth:
    """A SeatAuth for ``seat`` signed now (docs/service.md; the bytes are engine/protocol.py's)."""
    return seat_auth(seed, game_id, seat, now_ms(), os.urandom(16))


def _detail(err: grpc.RpcError, cls):
    try:
        st = rpc_status.from_call(err) if hasattr(err, "trailing_metadata") else None
    except ValueError:  # a status whose details do not match its code and message
        return None
    if st is None:
        return None
    for d in st.details:
        if d.Is(cls.DESCRIPTOR):
            out = cls()
            d.Unpack(out)
            return out
    return None


def error_info(err: grpc.RpcError) -> error_details_pb2.ErrorInfo | None:
    """The ErrorInfo of a failed call (its ``reason`` is a code of engine/codes.py), or None."""
    return _detail(err, error_details_pb2.ErrorInfo)


def error_receipt(err: grpc.RpcError) -> gs.Receipt | None:
    """The server's signed Receipt a refused SubmitCommand carries beside its ErrorInfo (SPEC.md 7.5)."""
    return _detail(err, gs.Receipt)


class ClientError(AfteractionError):
    """A call failed; ``reason`` is the server's ErrorInfo reason when there is one."""

    def __init__(self, message: str, code=None, reason: str = "", receipt: gs.Receipt | None = None) -> None:
        self.code = code
        self.reason = reason
        self.receipt = receipt  # the server's signed receipt of a refused envelope (SPEC.md 7.5)
        super().__init__(message)


class HistoryRewritten(ClientError):
    """The server showed a checkpoint that does not extend the one seen before."""


class BadOpening(ClientError):
    """A private opening does not match its public commitment."""


class BadRecord(ClientError):
    """A record from the server that is not a well-formed record (SPEC.md 1.2-1.4)."""


class BadLog(HistoryRewritten, BadRecord):
    """A record the server sent fails a check of the verifier (``error``: which step, which
    record, what was expected and found): another game, a genesis without this seat's key or
    with another server key or origin, a bad checkpoint, a broken chain or signature."""

    def __init__(self, error: VerificationError) -> None:
        self.error = error
        super().__init__(f"the server's log does not verify: {error}")


class RefusedToSign(ClientError):
    """The client will not sign what it was asked to: a position it has not verified, or a
    reveal before every seat's commitment is in the log it verified."""


def resumable(e: grpc.RpcError) -> bool:
    """Whether a stream that ended with ``e`` is opened again from where it was: the server went
    away or timed out, or it ended the stream because this client read nothing for a while
    (RESOURCE_EXHAUSTED / SLOW_READER: a slow callback, docs/service-limits.md)."""
    if e.code() in RESUMABLE:
        return True
    if e.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
        return False
    info = error_info(e)
    return info is not None and info.reason == "SLOW_READER"


def client_error(e: grpc.RpcError) -> ClientError:
    info = error_info(e)
    reason = info.reason if info else ""
    return ClientError(f"{e.code().name}{' ' + reason if reason else ''}: {e.details()}", e.code(), reason,
                       error_receipt(e))


def new_seat_key() -> bytes:
    """A fresh 32-byte Ed25519 seed for a seat."""
    return os.urandom(32)


class Client:
    def __init__(self, target: str, timeout: float = 30.0, tls_ca: str | bytes | None = None,
                 options: list | None = None) -> None:
        """``tls_ca``: a PEM CA file (or its bytes) to connect with TLS; plaintext without it."""
        self.target = target
        self.timeout = timeout
        if isinstance(tls_ca, str):
            with open(tls_ca, "rb") as f:
                tls_ca = f.read()
        self._tls_ca, self._options = tls_ca, options
        if tls_ca is None:
            self.channel = grpc.insecure_channel(target, options=options)
        else:
            self.channel = grpc.secure_channel(target, grpc.ssl_channel_credentials(root_certificates=tls_ca),
                                               options=options)
        self.game = gs_grpc.GameServiceStub(self.channel)
        self.audit = au_grpc.AuditServiceStub(self.channel)
        self._vkey: str | None = None
        self._homes: dict[int, Client] = {}

    def close(self) -> None:
        for c in self._homes.values():
            c.close()
        self.channel.close()

    def reachable(self, timeout: float) -> bool:
        """Whether this client's server answers within ``timeout`` seconds: one GetServerKey call,
        which fails at once on a refused connection and at its deadline on a host that drops the
        packets or a port that never answers (no connectivity watch: its thread outlives the call)."""
        try:
            self.game.GetServerKey(gs.GetServerKeyRequest(), timeout=timeout)
            return True
        except grpc.RpcError:
            return False

    def at_port(self, port: int) -> "Client | None":
        """A client of the same host at ``port`` (a game's home, PlayJoin.follow_home), with this
        one's TLS and options, made once per port and closed with this one; None when the target
        names no host and port (e.g. ``unix:PATH``), where there is no other port to go to."""
        host, sep, own = self.target.rpartition(":")
        if not sep or not own.isdigit() or "/" in host or not host:
            return None
        if port not in self._homes:
            self._homes[port] = Client(f"{host}:{port}", self.timeout, self._tls_ca, self._options)
        return self._homes[port]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def call(self, method, request, **kw):
        try:
            return method(request, timeout=kw.pop("timeout", self.timeout), **kw)
        except grpc.RpcError as e:
            raise client_error(e) from None

    def server_vkey(self) -> str:
        if self._vkey is None:
            self._vkey = self.call(self.game.GetServerKey, gs.GetServerKeyRequest()).vkey
        return self._vkey

    def key_history(self) -> list[str]:
        """The server's keys, oldest first, from GetServerKey's key history (SPEC.md 4.6), whose
        signatures are checked here (each key signed by the one before; the last is ``server_vkey``);
        ``[server_vkey]`` for a server that has had one key. ClientError if it does not verify."""
        keys = self.__dict__.get("_history")
        if keys is None:
            from afteraction.engine.crypto import key_history

            res = self.call(self.game.GetServerKey, gs.GetServerKeyRequest())
            keys = [res.vkey]
            if res.key_history:
                try:
                    keys = key_history.parse(res.key_history)
                except CryptoError as e:
                    raise ClientError(f"the server's key history does not verify: {e}") from None
                if keys[-1] != res.vkey:
                    raise ClientError(f"the server's key history does not end with its key {res.vkey}")
            self._history = keys
        return keys

    def linked_vkey(self, vkey: str, pinned: str | None = None) -> bool:
        """Whether the server's key history links ``vkey`` to ``pinned`` (default: the history's first
        key): ``vkey`` is ``pinned``, or a key after it in the history, so signed by ``pinned`` or by a key
        that ``pinned`` named through the chain. A key *before* the pinned one is not linked: naming a
        successor proves nothing about the predecessor."""
        if vkey == pinned:
            return True
        keys = self.key_history()
        root = keys[0] if pinned is None else pinned
        return root in keys and vkey in keys[keys.index(root):]

    def game_vkey(self, game_id: str) -> str:
        """The server key a game's genesis names: a server with a key ring (SPEC.md 4.6) signs each
        game with the key its genesis names, and ``server_vkey`` (GetServerKey) is its newest, for
        new games. Unpinned, a client trusts this key as it trusts GetServerKey's (both come from
        the server); ``aar verify --key-history`` ties it to the key a player pinned."""
        known = self.__dict__.setdefault("_game_vkeys", {})   # (a Client built around other stubs has none yet)
        v = known.get(game_id)
        if v is None:
            from afteraction.engine.protocol import parse_record

            res = self.call(self.audit.GetRecords, au.GetRecordsRequest(game_id=game_id, from_seq=0, limit=1))
            try:
                v = parse_record(res.records[0].record).body["server"]["vkey"]
                _note.parse_vkey(v)
            except Exception:  # noqa: BLE001 -- no or a bad genesis: the verifier says what is wrong with it
                return self.server_vkey()
            known[game_id] = v
        return v

    def create_game(self, game: str, seat_keys: dict[str, bytes], scenario: str = "", options: dict | None = None,
                    version: str = "", match: gs.MatchInfo | None = None,
                    clock: dict | None = None) -> gs.CreateGameResponse:
        """``match``: the match data to write into genesis (label, player names by seat, date).
        ``clock``: a time control, ``{"decision_ms": ..., "total_ms": ..., "abandon_ms": ...}`` (any
        of them; 0 or absent = not set, docs/service.md "Time controls")."""
        import json

        req = gs.CreateGameRequest(game=game, version=version, scenario=scenario,
                                   options_json=json.dumps(options) if options else "",
                                   seats=[gs.SeatKey(seat=s, public_key=k) for s, k in seat_keys.items()])
        if match is not None:
            req.match.CopyFrom(match)
        if clock is not None:
            req.clock.CopyFrom(gs.TimeControl(**clock))
        return self.call(self.game.CreateGame, req)

    def list_games(self, status: int = 0, page_size: int = 0, page_token: str = "") -> gs.ListGamesResponse:
        """One page of the server's games (``status``: a gs.GameStatus; 0 = every game)."""
        return self.call(self.game.ListGames, gs.ListGamesRequest(status=status, page_size=page_size,
                                                                    page_token=page_token))

    def list_rulesets(self) -> gs.ListRulesetsResponse:
        """Every ruleset the server runs: seats, scenarios (with their titles and descriptions), options."""
        return self.call(self.game.ListRulesets, gs.ListRulesetsRequest())

    def state(self, game_id: str, auth: gs.SeatAuth | None = None) -> gs.GetStateResponse:
        req = gs.GetStateRequest(game_id=game_id)
        if auth is not None:
            req.auth.CopyFrom(auth)
        return self.call(self.game.GetState, req)

    def export(self, game_id: str) -> bytes:
        try:
            return b"".join(c.chunk for c in self.audit.ExportBundle(au.ExportBundleRequest(game_id=game_id),
                                                                        timeout=max(self.timeout, 120)))
        except grpc.RpcError as e:
            raise client_error(e) from None

    def verify(self, bundle: bytes, progress=None):
        """Verify a downloaded bundle offline, pinning the server key this client knows."""
        from afteraction.engine.log.verify import verify_bundle

        from afteraction.engine.log.bundle import read_bundle

        pinned = self.server_vkey()
        try:   # a game created before a key rotation: its genesis key, if the server's key history has it
            vkey = read_bundle(io.BytesIO(bundle))[0]["server_vkey"]
            if vkey != pinned and self.linked_vkey(vkey):
                pinned = vkey
        except Exception:  # noqa: BLE001 -- a bundle that does not read: verify_bundle says what is wrong
            pass
        return verify_bundle(io.BytesIO(bundle), pinned_vkey=pinned, progress=progress)

    def log_verifier(self, game_id: str, server_vkey: str | None = None, **kw) -> Verifier:
        """The verifier of ``aar verify`` for a log read record by record from this server:
        this game, the server key (pinned when ``server_vkey`` is given) and its origin
        ``<key name>/game/<game id>`` (the reference server's, SPEC.md 4.2)."""
        vkey = self.game_vkey(game_id)  # the verifier compares it with a pinned key first (SPEC.md 10 step 4)
        if server_vkey is not None and vkey != server_vkey and self.linked_vkey(vkey, server_vkey):
            server_vkey = vkey   # a later key of the pinned one's history (a key rotation, SPEC.md 4.6)
        name = _note.parse_vkey(vkey).name
        return Verifier(vkey, server_vkey, None, replay=False, expected_game=game_id,
                        expected_origin=f"{name}/game/{game_id}", **kw)

    def watch(self, game_id: str, on_record: Callable[[gs.LogRecord], None] | None = None, from_seq: int = 0,
              retries: int = 5, server_vkey: str | None = None, on_clocks: Callable | None = None) -> Verifier:
        """Follow the public log to its end record (resuming after a broken
        stream, or one that ended before the game did), verifying every record
        and its checkpoint from genesis on as ``aar verify`` does (records before
        ``from_seq`` are verified but not passed to ``on_record``). ``on_clocks(gs.Clocks)``: each seat's
        time left, after each checkpoint of a game with a time control (SPEC.md 8.2)."""
        v = self.log_verifier(game_id, server_vkey)
        nxt = 0
        failures = 0
        ended = False
        while True:
            try:
                for m in self.game.Watch(gs.WatchRequest(game_id=game_id, from_seq=nxt)):
                    if m.WhichOneof("kind") == "record":
                        if m.record.seq != nxt:
                            raise HistoryRewritten(f"expected record {nxt}, got {m.record.seq}")
                        try:
                            rec = v.add(m.record.record, m.record.checkpoint)
                        except VerificationError as e:
                            raise BadLog(e) from None
                        ended = rec.kind == "end"
                        nxt += 1
                        if on_record and m.record.seq >= from_seq:
                            on_record(m.record)
                    elif m.WhichOneof("kind") == "clocks":
                        if on_clocks:
                            on_clocks(m.clocks)
                    else:
                        try:
                            v.check_checkpoint(m.checkpoint.note)
                        except VerificationError as e:
                            raise BadLog(e) from None
                    failures = 0
                if ended:
                    return v
                # the stream ended before the game did (a server shutting down): resume
                if failures >= retries:
                    raise ClientError(f"the Watch stream of game {game_id} keeps ending before the game does")
            except grpc.RpcError as e:
                if not resumable(e) or failures >= retries:
                    raise client_error(e) from None
            failures += 1
            time.sleep(min(2.0, 0.2 * 2 ** failures))


class CheckpointTracker:
    """The latest checkpoint seen for a game; each new one must be signed by the
    server and consistent with it (RFC 9162 consistency proof from the server,
    or the root of the records received when the caller has them all)."""

    def __init__(self, client: Client, game_id: str, use_proofs: bool = True) -> None:
        self.client = client
        self.game_id = game_id
        self.verifier = _note.parse_vkey(client.game_vkey(game_id))   # the key its genesis names
        self.size = 0
        self.root = b""
        self.note = ""
        self.use_proofs = use_proofs

    def update(self, note: str, tree: CompactTree | None = None) -> None:
        try:
            cp = _note.open_checkpoint(note, self.verifier)
        except CryptoError as e:
            raise HistoryRewritten(f"checkpoint not signed by the server key: {e}") from None
        if tree is not None and tree.size == cp.size:
            # the caller holds every record from genesis: the root itself is the check, and every
            # earlier checkpoint matched a prefix of the same append-only tree
            if tree.root() != cp.root:
                raise HistoryRewritten(f"checkpoint {cp.size} does not match the records received")
        elif self.size and self.use_proofs and cp.size != self.size:
            a, b = (self.size, cp.size) if cp.size > self.size else (cp.size, self.size)
            ra, rb = (self.root, cp.root) if cp.size > self.size else (cp.root, self.root)
            proof = self.client.call(self.client.audit.GetConsistencyProof,
                                     au.GetConsistencyProofRequest(game_id=self.game_id, from_size=a, to_size=b))
            try:
                verify_consistency(a, b, list(proof.hashes), ra, rb)
            except CryptoError as e:
                raise HistoryRewritten(f"checkpoint {cp.size} is not consistent with checkpoint {self.size}: {e}") from None
        elif self.size and cp.size == self.size and cp.root != self.root:
            raise HistoryRewritten(f"two different checkpoints for tree size {cp.size}")
        if cp.size >= self.size:
            self.size, self.root, self.note = cp.size, cp.root, note
