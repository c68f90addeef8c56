"""A minimal third-party client of the afteraction service, written from docs/service.md
"Writing a client" alone: the generated stubs (afteraction.v1), `cryptography` for Ed25519,
`msgpack` to read records, hashlib. It imports nothing else of afteraction (a test checks),
so it is what a client in another language has to do, in Python.

One seat per object; `step()` does what the game waits for from this seat, if anything. It
keeps no state between calls but its key and entropy: its counter, whether to commit or to
reveal, and the `prev` it signs are all read from the public log every time, so a restarted
client simply goes on (docs/service.md "Counters")."""
from __future__ import annotations

import hashlib
import os
import struct
import time

import grpc
import msgpack
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from afteraction.v1 import audit_service_pb2 as au
from afteraction.v1 import audit_service_pb2_grpc as au_grpc
from afteraction.v1 import envelope_pb2 as ev
from afteraction.v1 import game_service_pb2 as gs
from afteraction.v1 import game_service_pb2_grpc as gs_grpc


def lp(b: bytes) -> bytes:
    return struct.pack(">I", len(b)) + b


def tagged_hash(tag: str, data: bytes) -> bytes:
    return hashlib.sha256(tag.encode() + b"\x00" + data).digest()


def reason_of(e: grpc.RpcError) -> str:
    """The refusal's reason: google.rpc.ErrorInfo in the status details (grpc-status-details-bin)."""
    from google.rpc import error_details_pb2, status_pb2

    for key, value in e.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            st = status_pb2.Status.FromString(value)
            for d in st.details:
                if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                    info = error_details_pb2.ErrorInfo()
                    d.Unpack(info)
                    return info.reason
    return ""


class ExampleSeat:
    def __init__(self, channel: grpc.Channel, game_id: str, seat: str, seed: bytes, entropy: bytes) -> None:
        self.game_id, self.seat, self.entropy = game_id, seat, entropy
        self.key = Ed25519PrivateKey.from_private_bytes(seed)  # the seat key file holds this seed (hex)
        self.games = gs_grpc.GameServiceStub(channel)
        self.audit = au_grpc.AuditServiceStub(channel)

    @property
    def public(self) -> bytes:
        return self.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    def auth(self) -> gs.SeatAuth:
        issued, nonce = int(time.time() * 1000), os.urandom(16)
        msg = (b"aar1/auth\x00" + lp(self.game_id.encode()) + lp(self.seat.encode())
               + struct.pack(">Q", issued) + lp(nonce))
        return gs.SeatAuth(seat=self.seat, issued_at_ms=issued, nonce=nonce, signature=self.key.sign(msg))

    def log(self) -> list[tuple[bytes, dict]]:
        """Every record so far: (its bytes, decoded), read with the public GetRecords."""
        out: list[tuple[bytes, dict]] = []
        while True:
            res = self.audit.GetRecords(au.GetRecordsRequest(game_id=self.game_id, from_seq=len(out)))
            out += [(r.record, msgpack.unpackb(r.record, raw=False)) for r in res.records]
            if len(out) >= res.size:
                return out

    def step(self) -> bool:
        """Answer what the game waits for from this seat; False when it waits for someone else."""
        recs = self.log()
        genesis = recs[0][1]
        v = genesis["v"]
        st = self.games.GetState(gs.GetStateRequest(game_id=self.game_id))
        if st.ended:
            return False
        mine = [r for _, r in recs if r["body"].get("seat") == self.seat]
        counter = 1 + max((r["body"]["ctr"] for r in mine), default=0)  # counters: from the log
        env = ev.CommandEnvelope(game_id=self.game_id, seat=self.seat, counter=counter, state_seq=len(recs))
        if v >= 2:  # the envelope names the last record this seat saw
            env.prev = tagged_hash("aar1/record", recs[-1][0])
        if st.decision.kind == "entropy":  # the handshake: the log says which step is ours
            seats = {s["name"] for s in genesis["body"]["seats"]}
            committed = {r["body"]["seat"] for _, r in recs if r["kind"] == "commit"}
            if not any(r["kind"] == "commit" for r in mine):
                g = tagged_hash("aar1/record", recs[0][0]) if v >= 2 else b""
                env.entropy_commit.commitment = tagged_hash(
                    "aar1/seat-entropy", lp(self.game_id.encode()) + lp(self.seat.encode()) + g + self.entropy)
            elif committed == seats and not any(r["kind"] == "reveal" for r in mine):
                env.entropy_reveal.entropy = self.entropy
            else:
                return False
        elif st.decision.seat == self.seat:
            legal = self.games.ListLegalCommands(gs.ListLegalCommandsRequest(game_id=self.game_id, auth=self.auth()))
            env.state_seq = legal.state_seq
            env.command.CopyFrom(legal.commands[0])  # sent in the clear: the server seals a private one
        else:
            return False
        raw = env.SerializeToString()
        signed = ev.SignedCommand(envelope=raw, signature=self.key.sign(b"aar1/command\x00" + raw))
        self.games.SubmitCommand(gs.SubmitCommandRequest(command=signed, auth=self.auth()))
        return True
