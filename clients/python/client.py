"""The reference client: a thin library over GameService and AuditService.

- ``Client``: a channel to a server; create games, export and verify logs.
- ``Seat``: one seat of one game. Verifies every record as it arrives with the
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
import queue
import time
from typing import Callable

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from afteraction.engine.codes import RETRY
from afteraction.engine.crypto import canon
from afteraction.engine.crypto import cosign as _cosign
from afteraction.engine.crypto import note as _note
from afteraction.engine.crypto.commit import commitment
from afteraction.engine.crypto.merkle import CompactTree, verify_consistency
from afteraction.engine.errors import AfteractionError, CryptoError, VerificationError
from afteraction.engine.log.verify import Verifier
from afteraction.engine.protocol import seat_auth
from afteraction.engine.seat import Head, SeatSigner
from afteraction.v1 import audit_service_pb2 as au
from afteraction.v1 import audit_service_pb2_grpc as au_grpc
from afteraction.v1 import game_service_pb2 as gs
from afteraction.v1 import game_service_pb2_grpc as gs_grpc

from .endings import Ending, SeatEndings  # noqa: F401 (Ending is part of this module's API)

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


def error_info(err: grpc.RpcError) -> error_details_pb2.ErrorInfo | None:
    """The ErrorInfo of a failed call (its ``reason`` is a code of engine/codes.py), or None."""
    st = rpc_status.from_call(err) if hasattr(err, "trailing_metadata") else None
    if st is None:
        return None
    for d in st.details:
        if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            d.Unpack(info)
            return info
    return None


class ClientError(AfteractionError):
    """A call failed; ``reason`` is the server's ErrorInfo reason when there is one."""

    def __init__(self, message: str, code=None, reason: str = "") -> None:
        self.code = code
        self.reason = reason
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


def client_error(e: grpc.RpcError) -> ClientError:
    info = error_info(e)
    reason = info.reason if info else ""
    return ClientError(f"{e.code().name}{' ' + reason if reason else ''}: {e.details()}", e.code(), reason)


def new_seat_key() -> bytes:
    """A fresh 32-byte Ed25519 seed for a seat."""
    return os.urandom(32)


class Client:
    def __init__(self, target: str, timeout: float = 30.0, tls_ca: str | bytes | None = None,
                 options: list | None = None) -> None:
        """``tls_ca``: a PEM CA file (or its bytes) to connect with TLS; plaintext without it."""
        self.target = target
        self.timeout = timeout
        if tls_ca is None:
            self.channel = grpc.insecure_channel(target, options=options)
        else:
            if isinstance(tls_ca, str):
                with open(tls_ca, "rb") as f:
                    tls_ca = f.read()
            self.channel = grpc.secure_channel(target, grpc.ssl_channel_credentials(root_certificates=tls_ca),
                                               options=options)
        self.game = gs_grpc.GameServiceStub(self.channel)
        self.audit = au_grpc.AuditServiceStub(self.channel)
        self._vkey: str | None = None

    def close(self) -> None:
        self.channel.close()

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

        return verify_bundle(io.BytesIO(bundle), pinned_vkey=self.server_vkey(), progress=progress)

    def log_verifier(self, game_id: str, server_vkey: str | None = None, **kw) -> Verifier:
        """The verifier of ``aar verify`` for a log read record by record from this server:
        this game, the server key (pinned when ``server_vkey`` is given) and its origin
        ``<key name>/game/<game id>`` (the reference server's, SPEC.md 4.2)."""
        vkey = self.server_vkey()
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
                if e.code() not in RESUMABLE or failures >= retries:
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
        self.verifier = _note.parse_vkey(client.server_vkey())
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


def _signed_pb(signed: bytes):
    from afteraction.v1 import envelope_pb2

    return envelope_pb2.SignedCommand.FromString(signed)


class Seat(SeatEndings):
    """One seat of one game, seen from its player (its ending commands: clients/python/endings.py)."""

    Refused = RefusedToSign

    def __init__(self, client: Client, game_id: str, seat: str, seed: bytes, entropy: bytes | None = None,
                 server_vkey: str | None = None, checkpoint_file: str | None = None, cosign: bool = True) -> None:
        """``server_vkey``: the server key to expect (pinned; default: the key the server
        names). ``checkpoint_file``: where this seat keeps the latest checkpoint it verified
        (SPEC.md 11); a checkpoint already there must be matched by the log. ``cosign``: once
        the seat has verified the end record, it cosigns the final checkpoint and gives the
        cosignature to the server (SPEC.md 4.5)."""
        self.client = client
        self.game_id = game_id
        self.signer = SeatSigner(seat, seed)
        self.seat = seat
        self.entropy = entropy if entropy is not None else os.urandom(32)
        self.server_vkey = server_vkey
        self.checkpoint_file = checkpoint_file
        self._kept_size = 0
        self.openings: dict[tuple[int, int], object] = {}  # (seq, k) -> value, checked
        self.log_counter = 0
        self.outcome: dict | None = None
        self._verifier: Verifier | None = None
        self._bad: BadLog | None = None  # the first check the server's log failed: nothing is signed after it
        self._auth: gs.SeatAuth | None = None
        self.cosign = cosign
        self.cosigned_size = 0  # the tree size of the last checkpoint this seat cosigned

    # -- what the seat has verified ---------------------------------------------
    @property
    def verifier(self) -> Verifier:
        """The verifier of ``aar verify`` (steps 1-8 as records arrive; no secret, no replay)."""
        if self._verifier is None:
            kept = None
            if self.checkpoint_file and os.path.exists(self.checkpoint_file):
                with open(self.checkpoint_file) as f:
                    kept = f.read()
            try:
                self._verifier = self.client.log_verifier(self.game_id, self.server_vkey,
                                                          pinned_seat_keys={self.seat: self.signer.public},
                                                          kept_checkpoint=kept)
            except VerificationError as e:
                self._bad = BadLog(e)
                raise self._bad from None
        return self._verifier

    @property
    def next_seq(self) -> int:
        return 0 if self._verifier is None else self._verifier.tree.size

    @property
    def committed(self) -> bool:
        return self._verifier is not None and self.seat in self._verifier.entropy_commits

    @property
    def revealed(self) -> bool:
        return self._verifier is not None and self.seat in self._verifier.entropy

    def head(self) -> Head | None:
        """The end of the log this seat verified, which its next envelope binds (None for a
        version 1 game, whose envelopes bind no history)."""
        if self._bad is not None:
            raise self._bad
        v = self.verifier
        if v.genesis is None:
            raise RefusedToSign(f"seat {self.seat} has verified no record of game {self.game_id}")
        return Head(v.tree.size, v.prev, v.genesis.hash) if v.genesis.v >= 2 else None

    # -- authentication -------------------------------------------------------
    def auth(self) -> gs.SeatAuth:
        if self._auth is None or now_ms() - self._auth.issued_at_ms > CLIENT_REFRESH_MS:
            self._auth = make_auth(self.signer.seed, self.game_id, self.seat)
        return self._auth

    # -- what the seat learns -------------------------------------------------
    def see_record(self, r: gs.LogRecord) -> None:
        """Verify the next record with its checkpoint (a record already seen is skipped)."""
        if r.seq != self.next_seq:
            if r.seq < self.next_seq:
                return
            raise HistoryRewritten(f"expected record {self.next_seq}, got {r.seq}")
        if self._bad is not None:
            raise self._bad
        try:
            rec = self.verifier.add(r.record, r.checkpoint)
        except VerificationError as e:
            self._bad = BadLog(e)
            raise self._bad from None
        b = rec.body
        if b.get("seat") == self.seat:
            self.log_counter = max(self.log_counter, b.get("ctr", 0))
        if rec.kind == "end":
            self.outcome = b.get("outcome")
            self.keep_checkpoint()
            if self.cosign:
                self.cosign_checkpoint()

    def cosign_checkpoint(self) -> str:
        """Cosign the last checkpoint this seat verified and give the cosignature to the server
        (SPEC.md 4.5): once both seats cosigned the final checkpoint, not even the holder of the
        server key can present another log of this game. Returns the line."""
        v = self.verifier
        text = _note.split_note(v.last_checkpoint)[0]
        line = _cosign.cosign(text, v.origin, self.seat, self.signer.seed, int(time.time()))
        self.client.call(self.client.audit.AddCosignature, au.AddCosignatureRequest(
            game_id=self.game_id, seat=self.seat, size=v.tree.size, line=line))
        self.cosigned_size = v.tree.size
        return line

    def keep_checkpoint(self) -> None:
        """Write the latest verified checkpoint to ``checkpoint_file`` (atomically), so that
        this seat can later expose a rewritten log (``aar verify --checkpoint``)."""
        v = self._verifier
        if not self.checkpoint_file or v is None or v.tree.size <= self._kept_size:
            return
        tmp = f"{self.checkpoint_file}.tmp"
        with open(tmp, "w") as f:
            f.write(v.last_checkpoint)
        os.replace(tmp, self.checkpoint_file)
        self._kept_size = v.tree.size

    def see_opening(self, o: gs.SeatOpening) -> None:
        want = self.verifier.commitments.get((o.seq, o.k))
        value = canon.decode(o.value)
        if want is None or commitment(o.salt, value) != want:
            raise BadOpening(f"the opening of ({o.seq}, {o.k}) does not match its public commitment")
        self.openings[(o.seq, o.k)] = value

    def see_checkpoint(self, note: str) -> None:
        if self._bad is not None:
            raise self._bad
        try:
            size = _note.parse_checkpoint(_note.split_note(note)[0]).size
        except (CryptoError, ValueError):
            size = self.next_seq  # not a checkpoint: the verifier says what is wrong with it
        if size < self.next_seq:
            return  # an older one (a retried submit's reply): its records were verified with their own
        try:
            self.verifier.check_checkpoint(note)
        except VerificationError as e:
            self._bad = BadLog(e)
            raise self._bad from None
        self.keep_checkpoint()

    def catch_up(self) -> None:
        """Read the public log from where this seat is (e.g. after a restart)."""
        while True:
            res = self.client.call(self.client.audit.GetRecords,
                                   au.GetRecordsRequest(game_id=self.game_id, from_seq=self.next_seq))
            for r in res.records:
                self.see_record(r)
            if self.next_seq >= res.size or not res.records:
                self.keep_checkpoint()
                return

    # -- commands -------------------------------------------------------------
    # Every envelope is signed at the end of the log this seat has verified (read up to the
    # server's current size first), and binds that end (format version 2, SPEC.md 7.1).
    def _sign(self, make) -> bytes:
        self.signer.counter = self.log_counter  # the log is the truth: a lost unsent command is reused
        self.keep_checkpoint()  # what the seat signs against is kept before it is sent
        return make()

    def sign_commit(self) -> bytes:
        self.catch_up()
        head = self.head()
        return self._sign(lambda: self.signer.entropy_commit(self.game_id, self.entropy, head))

    def sign_reveal(self) -> bytes:
        """Reveal only into a verified log that holds every seat's commitment: whoever held an
        earlier reveal could choose a commitment knowing this entropy (SPEC.md 5.2, 11)."""
        self.catch_up()
        head = self.head()
        v = self.verifier
        missing = [s for s in v.seat_keys if s not in v.entropy_commits]
        if missing:
            raise RefusedToSign(f"seat {self.seat} will not reveal its entropy: the log it verified "
                                f"({v.tree.size} records) has no entropy commitment of seat "
                                f"{', '.join(missing)} (SPEC.md 5.2)")
        return self._sign(lambda: self.signer.entropy_reveal(self.game_id, self.entropy, head))

    def sign_command(self, state_seq: int, command) -> bytes:
        """Sign ``command`` for ``state_seq``, which must be the end of the log this seat
        verified (after reading what the server has): a seat signs no position it has not seen."""
        if state_seq != self.next_seq:
            self.catch_up()
        if state_seq != self.next_seq:
            raise RefusedToSign(f"seat {self.seat} was asked to sign for state {state_seq}, but the log it "
                                f"verified ends at state {self.next_seq}")
        head = self.head()
        return self._sign(lambda: self.signer.command(self.game_id, state_seq, command, head))

    def submit(self, signed: bytes, retries: int = 3) -> gs.SubmitCommandResponse:
        """Submit; on a lost reply (UNAVAILABLE, DEADLINE_EXCEEDED) send the same bytes again."""
        from afteraction.v1 import envelope_pb2

        req = gs.SubmitCommandRequest(command=envelope_pb2.SignedCommand.FromString(signed))
        for attempt in range(retries + 1):
            try:
                res = self.client.game.SubmitCommand(req, timeout=self.client.timeout)
                break
            except grpc.RpcError as e:
                if e.code() not in RESUMABLE or attempt == retries:
                    err = client_error(e)
                    self.keep_refused(err.reason, signed)  # SPEC.md 8.2: the seat's evidence, kept
                    raise err from None
                req.auth.CopyFrom(self.auth())  # a retry may be a duplicate: ask for the openings again
                time.sleep(0.1 * 2 ** attempt)
        if self.next_seq < res.records[0].seq:
            self.catch_up()
        for r in res.records:
            self.see_record(r)
        for o in res.openings:
            self.see_opening(o)
        self.see_checkpoint(res.checkpoint.note)
        return res

    def legal(self) -> gs.ListLegalCommandsResponse:
        return self.client.call(self.client.game.ListLegalCommands,
                                gs.ListLegalCommandsRequest(game_id=self.game_id, auth=self.auth()))

    def state(self) -> gs.GetStateResponse:
        return self.client.state(self.game_id, self.auth())

    def decide(self, prompt: gs.YourDecision, choose: Callable[[str, list], object]) -> bytes | None:
        """The signed answer to a prompt, or None for a prompt the log has overtaken (made
        for a state before the end of the log this seat verified; the server prompts again)."""
        if prompt.state_seq < self.next_seq:
            return None
        if prompt.decision.kind == "entropy":
            if self.revealed:
                return None
            return self.sign_reveal() if self.committed else self.sign_commit()
        choice = choose(self.seat, list(prompt.legal_commands))
        if choice is None:  # the chooser saw the game move on (e.g. ended): wait for the next prompt
            return None
        if isinstance(choice, Ending):  # signed at the same end of the log as a command would be
            head = self.head()
            make = (lambda: self.signer.resign(self.game_id, head)) if choice.kind == "resign" else \
                (lambda: self.signer.offer(self.game_id, head, choice.winner))
            return self._sign(make)
        return self.sign_command(prompt.state_seq, choice)

    # -- the Play stream --------------------------------------------------------
    def play(self, choose: Callable[[str, list], object], on_message: Callable | None = None,
             retries: int = 8, on_offer: Callable | None = None) -> dict | None:
        """Play this seat to the end of the game over the Play stream, resuming
        after a broken stream. ``choose(seat, legal)`` picks a command (or an ``Ending``).
        ``on_offer((seq, seat, winner))``: called when another seat's offer stands in the last
        record; True accepts it (SPEC.md 8.1). Returns the outcome."""
        asked, sent = [-1], [None]
        failures = 0
        while self.outcome is None:
            reqs: queue.Queue = queue.Queue()
            reqs.put(gs.PlayRequest(join=gs.PlayJoin(game_id=self.game_id, auth=self.auth(), from_seq=self.next_seq)))

            def gen():
                while True:
                    item = reqs.get()
                    if item is None:
                        return
                    yield item

            call = self.client.game.Play(gen())
            # the state each of our commands not yet judged was signed for, in the order sent (the
            # server judges them in that order, one result each): a prompt for such a state (or an
            # earlier one) was made before that command was judged and is stale; a later one is answered
            in_flight: list[int] = []
            try:
                for m in call:
                    failures = 0
                    k = m.WhichOneof("kind")
                    if k in ("accepted", "rejected") and in_flight:
                        in_flight.pop(0)
                    if k == "record":
                        self.see_record(m.record)
                    elif k == "opening":
                        self.see_opening(m.opening)
                    elif k == "checkpoint":
                        self.see_checkpoint(m.checkpoint.note)
                        signed = self._answer_offer(on_offer, asked)  # SPEC.md 8.1
                        if signed is not None:
                            in_flight.append(self.next_seq)
                            reqs.put(gs.PlayRequest(command=_signed_pb(signed)))
                    elif k == "your_decision" and m.your_decision.state_seq > max(in_flight, default=-1):
                        from afteraction.v1 import envelope_pb2

                        signed = self.decide(m.your_decision, choose)
                        if signed is not None:
                            in_flight.append(self.next_seq)  # where sign_* signed it
                            sent[0] = signed
                            reqs.put(gs.PlayRequest(command=envelope_pb2.SignedCommand.FromString(signed)))
                    elif k == "rejected" and self.keep_refused(m.rejected.reason, sent[0]):
                        pass  # the game ended first (a time-out): its end record ends this loop
                    elif k == "rejected" and m.rejected.reason not in TRANSIENT:
                        raise ClientError(f"command refused: {m.rejected.reason}: {m.rejected.message}",
                                          m.rejected.code, m.rejected.reason)
                    if on_message:
                        on_message(self, m)
            except grpc.RpcError as e:
                if e.code() not in RESUMABLE + (grpc.StatusCode.CANCELLED,) or failures >= retries:
                    raise client_error(e) from None
                failures += 1
                time.sleep(min(2.0, 0.1 * 2 ** failures))
            finally:
                reqs.put(None)
                call.cancel()
        return self.outcome
