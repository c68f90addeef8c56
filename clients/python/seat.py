"""The reference client's ``Seat``: one seat of one game, seen from its player (clients/python/
client.py says what it checks; its ending commands are clients/python/endings.py).
"""
from __future__ import annotations

import os
import queue
import time
from typing import Callable

import grpc

from afteraction.engine.crypto import canon
from afteraction.engine.crypto import cosign as _cosign
from afteraction.engine.crypto import note as _note
from afteraction.engine.crypto.commit import commitment
from afteraction.engine.errors import CryptoError, VerificationError
from afteraction.engine.log.verify import Verifier, older_format_notes
from afteraction.engine.protocol import FORMAT_VERSION
from afteraction.engine.seat import Head, SeatSigner
from afteraction.v1 import audit_service_pb2 as au
from afteraction.v1 import game_service_pb2 as gs

from .client import (CLIENT_REFRESH_MS, RESUMABLE, TRANSIENT, BadLog, BadOpening, Client, ClientError, HistoryRewritten,
                     RefusedToSign, client_error, make_auth, now_ms, resumable)
from .endings import Ending, SeatEndings
from .evidence import ENDED_FIRST, SeatEvidence
from afteraction.engine.receipt import NO_DECISION


def _signed_pb(signed: bytes):
    from afteraction.v1 import envelope_pb2

    return envelope_pb2.SignedCommand.FromString(signed)


class Seat(SeatEndings, SeatEvidence):
    """One seat of one game, seen from its player (its ending commands: clients/python/endings.py)."""

    Refused = RefusedToSign

    def __init__(self, client: Client, game_id: str, seat: str, seed: bytes, entropy: bytes | None = None,
                 server_vkey: str | None = None, checkpoint_file: str | None = None, cosign: bool = True,
                 names: bool = False, evidence_dir: str | None = None,
                 on_fault: Callable[[str], None] | None = None) -> None:
        """``server_vkey``: the server key to expect (pinned; default: the key the server
        names). ``checkpoint_file``: where this seat keeps the latest checkpoint it verified
        (SPEC.md 11); a checkpoint already there must be matched by the log. ``cosign``: once
        the seat has verified the end record, it cosigns the final checkpoint and gives the
        cosignature to the server (SPEC.md 4.5), unless the log ends this seat by time where it holds
        its answer (``withheld`` says why). ``names``: ask for each legal command's name in words with
        the prompts and ``legal()`` (docs/service.md "Commands in words"). ``evidence_dir``: where every
        envelope is written before it is sent, with the server's receipt for it (default
        ``<checkpoint_file>.evidence``; clients/python/evidence.py). ``on_fault(message)``: told of each
        server fault (a missing or bad receipt), which is also kept in ``faults`` and on disk."""
        self.client = client
        self.home: Client | None = None   # where ``play`` was sent: the game's home (PlayJoin.follow_home)
        self.names = names
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
        self.prompt: gs.YourDecision | None = None  # the prompt being answered (decide), with its names
        self._verifier: Verifier | None = None
        self._bad: BadLog | None = None  # the first check the server's log failed: nothing is signed after it
        self._auth: gs.SeatAuth | None = None
        self.cosign = cosign
        self.cosigned_size = 0  # the tree size of the last checkpoint this seat cosigned
        self.evidence_dir = evidence_dir
        self.on_fault = on_fault
        self._evidence_init()

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

    def head(self) -> Head:
        """The end of the log this seat verified, which its next envelope binds. Every envelope is
        signed through here: a game of a format older than the newest is refused (no downgrade,
        SPEC.md 11: an older format lacks guarantees, e.g. v1 binds no history)."""
        if self._bad is not None:
            raise self._bad
        v = self.verifier
        if v.genesis is None:
            raise RefusedToSign(f"seat {self.seat} has verified no record of game {self.game_id}")
        if v.genesis.v < FORMAT_VERSION:
            raise RefusedToSign(f"game {self.game_id} is written in log format v{v.genesis.v}, older than "
                                f"v{FORMAT_VERSION}, the newest: seat {self.seat} plays only the newest format "
                                f"({'; '.join(older_format_notes(v.genesis.v))})")
        return Head(v.tree.size, v.prev, v.genesis.hash)

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
        self.see_evidence(rec)  # SPEC.md 8.2: kept envelopes, and whether the end is contested
        if rec.kind == "end":
            self.outcome = b.get("outcome")
            self.keep_checkpoint()
            if self.cosign and self.withheld is None:
                self.cosign_checkpoint()

    def cosign_checkpoint(self) -> str:
        """Cosign the last checkpoint this seat verified and give the cosignature to the server
        (SPEC.md 4.5): once both seats cosigned the final checkpoint, not even the holder of the
        server key can present another log of this game. Returns the line."""
        v = self.verifier
        text = _note.split_note(v.handoff.checkpoint)[0]
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
            f.write(v.handoff.checkpoint)
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
        self.keep_sent(signed)  # durable before it leaves (SPEC.md 8.2)
        for attempt in range(retries + 1):
            try:
                res = self.client.game.SubmitCommand(req, timeout=self.client.timeout)
                break
            except grpc.RpcError as e:
                if e.code() not in RESUMABLE or attempt == retries:
                    err = client_error(e)
                    if err.reason and err.reason not in NO_DECISION:  # a decision: it has a receipt
                        err.receipt = self.check_receipt(signed, err.receipt, err.reason)
                    self.keep_refused(err.reason, signed)  # SPEC.md 8.2: the seat's evidence, kept
                    if err.reason in ENDED_FIRST:
                        self.keep_refused_receipt(signed, err.receipt)
                    raise err from None
                req.auth.CopyFrom(self.auth())  # a retry may be a duplicate: ask for the openings again
                time.sleep(0.1 * 2 ** attempt)
        self.check_receipt(signed, res.receipt if res.HasField("receipt") else None, None,
                           [r.seq for r in res.records])
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
                                gs.ListLegalCommandsRequest(game_id=self.game_id, auth=self.auth(),
                                                            with_names=self.names))

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
        self.prompt = prompt  # the prompt being answered: a chooser may read its names
        choice = choose(self.seat, list(prompt.legal_commands))
        if choice is None:  # the chooser saw the game move on (e.g. ended): wait for the next prompt
            return None
        if isinstance(choice, Ending):  # signed at the same end of the log as a command would be
            head = self.head()
            make = (lambda: self.signer.resign(self.game_id, head)) if choice.kind == "resign" else \
                (lambda: self.signer.offer(self.game_id, head, choice.winner))
            return self._sign(make)
        return self.sign_command(prompt.state_seq, choice)

    def answer_stands(self, judged: list[bytes], state_seq: int) -> bool:
        """True if an envelope of this seat not yet judged would still make record ``state_seq``:
        format 3 binds it past other seats' offers (SPEC.md 7.2), so a prompt the server sends after
        such an offer is one this seat has answered already."""
        from afteraction.v1 import envelope_pb2

        for signed in judged:
            env = envelope_pb2.CommandEnvelope.FromString(envelope_pb2.SignedCommand.FromString(signed).envelope)
            if env.state_seq < state_seq and self.at_position(env, state_seq):
                return True
        return False

    # -- the Play stream --------------------------------------------------------
    def play(self, choose: Callable[[str, list], object], on_message: Callable | None = None,
             retries: int = 8, on_offer: Callable | None = None) -> dict | None:
        """Play this seat to the end of the game over the Play stream, resuming
        after a broken stream. ``choose(seat, legal)`` picks a command (or an ``Ending``).
        ``on_offer((seq, seat, winner))``: called when another seat's offer stands in the last
        record; True accepts it (SPEC.md 8.1). Returns the outcome.

        A server of several processes may send the join to the game's home (PlayJoin.follow_home):
        the stream goes on at that port of the same host (``self.home``, the client used there).
        A home that cannot be reached is not asked for again: the seat plays where it was."""
        asked = [-1]
        failures = 0
        follow = True
        while self.outcome is None:
            via = self.home or self.client
            stream = _PlayStream(gs.PlayRequest(join=gs.PlayJoin(
                game_id=self.game_id, auth=self.auth(), from_seq=self.next_seq, with_names=self.names, batched=True,
                follow_home=follow and self.home is None)))
            call = via.game.Play(stream.requests())
            got = False
            try:
                for m in unbatch(call):
                    got, failures = True, 0
                    if m.WhichOneof("kind") == "home":   # join again at the game's home, if it answers
                        home = self.client.at_port(m.home.port)
                        self.home = home if home is not None and home.reachable(HOME_CONNECT_S) else None
                        follow = self.home is not None
                        break
                    self._on_play_message(stream, m, choose, on_offer, asked)
                    if on_message:
                        on_message(self, m)
            except grpc.RpcError as e:
                self.home = None    # resumed through the address we were given (which sends us home again)
                if via is not self.client and not got:
                    follow = False  # the home port cannot be reached from here: play where the join lands
                    continue
                if not (resumable(e) or e.code() == grpc.StatusCode.CANCELLED) or failures >= retries:
                    raise client_error(e) from None
                failures += 1
                time.sleep(min(2.0, 0.1 * 2 ** failures))
            finally:
                stream.close()
                call.cancel()
        return self.outcome

    def _on_play_message(self, stream: "_PlayStream", m, choose: Callable, on_offer: Callable | None,
                         asked: list[int]) -> None:
        """One message of the Play stream: a result of ours (its receipt checked), a record, an opening,
        a checkpoint (then an offer may be answered), a decision of ours (answered unless stale)."""
        k = m.WhichOneof("kind")
        if k in ("accepted", "rejected"):
            self._judged(stream, m, k)
        if k == "record":
            self.see_record(m.record)
        elif k == "opening":
            self.see_opening(m.opening)
        elif k == "checkpoint":
            self.see_checkpoint(m.checkpoint.note)
            signed = self._answer_offer(on_offer, asked)  # SPEC.md 8.1
            if signed is not None:
                stream.send(self, signed, _signed_pb(signed))
        elif k == "your_decision" and m.your_decision.state_seq > max(stream.in_flight, default=-1) \
                and not self.answer_stands(stream.judged, m.your_decision.state_seq):
            from afteraction.v1 import envelope_pb2

            signed = self.decide(m.your_decision, choose)
            if signed is not None:   # kept durable before it leaves (SPEC.md 8.2)
                stream.send(self, signed, envelope_pb2.SignedCommand.FromString(signed))
        elif k == "rejected" and m.rejected.reason in ENDED_FIRST:
            pass  # the game ended first (a time-out): kept by _judged; its end record ends the loop
        elif k == "rejected" and m.rejected.reason not in TRANSIENT:
            raise ClientError(f"command refused: {m.rejected.reason}: {m.rejected.message}",
                              m.rejected.code, m.rejected.reason)

    def _judged(self, stream: "_PlayStream", m, k: str) -> None:
        """The server's result for our oldest command in flight: its receipt checked (SPEC.md 7.5), a
        refusal because the game ended first kept."""
        if stream.in_flight:
            stream.in_flight.pop(0)
        if not stream.judged:
            return
        one = stream.judged.pop(0)
        r = getattr(m, k)
        if k == "accepted":
            self.check_receipt(one, r.receipt if r.HasField("receipt") else None, None, list(r.seqs))
        elif r.reason not in NO_DECISION:
            got = self.check_receipt(one, r.receipt if r.HasField("receipt") else None, r.reason)
            if r.reason in ENDED_FIRST:
                self.keep_refused(r.reason, one)
                self.keep_refused_receipt(one, got)


class _PlayStream:
    """One Play stream: the requests to send (a queue the stream reads, ended by close) and our
    commands sent on it not yet judged. ``in_flight``: the state each was signed for, in the order
    sent (the server judges them in that order, one result each): a prompt for such a state (or an
    earlier one) was made before that command was judged and is stale; a later one is answered.
    ``judged``: their envelopes, in the same order."""

    def __init__(self, join) -> None:
        self.reqs: queue.Queue = queue.Queue()
        self.reqs.put(join)
        self.in_flight: list[int] = []
        self.judged: list[bytes] = []

    def requests(self):
        while True:
            item = self.reqs.get()
            if item is None:
                return
            yield item

    def send(self, seat: "Seat", signed: bytes, pb) -> None:
        """A signed command, in flight for the state sign_* signed it at, kept before it leaves."""
        self.in_flight.append(seat.next_seq)
        seat.keep_sent(signed)
        self.judged.append(signed)
        self.reqs.put(gs.PlayRequest(command=pb))

    def close(self) -> None:
        self.reqs.put(None)


#: how long ``Seat.play`` waits for a game's home to answer a call (``Client.reachable``) before it plays where
#: its join landed
HOME_CONNECT_S = 2.0


def unbatch(stream):
    """A Play stream's messages one by one: a ``batch`` (PlayJoin.batched: what the server sends at one
    time, as one message) gives its items in order."""
    for m in stream:
        if m.WhichOneof("kind") == "batch":
            yield from m.batch.items
        else:
            yield m
