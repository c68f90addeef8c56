"""The AuditService servicer (grpc.aio): the log's records, checkpoints, Merkle proofs, the bundle
export, the revealed secret and the seats' cosignatures, read from service/games.py. Registered as
service/servicer.py's GameServicer is (``methods()``, ``handlers()``), on the same ``Service``.
"""
from __future__ import annotations

import io

from afteraction.engine.crypto import merkle
from afteraction.engine.errors import CryptoError, Rejection
from afteraction.engine.codes import Code
from afteraction.engine.log.bundle import write_bundle
from afteraction.v1 import audit_service_pb2 as au
from afteraction.v1 import game_service_pb2 as gs

from . import limits
from .calls import SERVER_STREAM, UNARY, Method, grpc_handlers, in_log, parse
from .servicer import Service, record_pb
from .status import Refusal

CHUNK = limits.EXPORT_CHUNK_BYTES
MAX_RESPONSE_BYTES = limits.MAX_RESPONSE_BYTES


class AuditServicer:
    def __init__(self, svc: Service) -> None:
        self.svc = svc
        self.games = svc.games

    def methods(self) -> list[Method]:
        """Every RPC of AuditService (both transports serve them all)."""
        return [
            Method("GetRecords", UNARY, au.GetRecordsRequest, self.GetRecords),
            Method("GetCheckpoint", UNARY, au.GetCheckpointRequest, self.GetCheckpoint),
            Method("GetInclusionProof", UNARY, au.GetInclusionProofRequest, self.GetInclusionProof),
            Method("GetConsistencyProof", UNARY, au.GetConsistencyProofRequest, self.GetConsistencyProof),
            Method("ExportBundle", SERVER_STREAM, au.ExportBundleRequest, self.ExportBundle),
            Method("GetReveal", UNARY, au.GetRevealRequest, self.GetReveal),
            Method("AddCosignature", UNARY, au.AddCosignatureRequest, self.AddCosignature),
        ]

    def handlers(self) -> dict:
        return grpc_handlers(self.svc, self.methods())

    def GetRecords(self, request, context):
        limit = request.limit or limits.MAX_RECORDS_PER_CALL
        with self.games.locked(request.game_id) as live:
            size = live.size
        in_log("from_seq", request.from_seq, size, request.game_id)
        recs = self.games.store.records(request.game_id, request.from_seq, min(limit, limits.MAX_RECORDS_PER_CALL))
        out = au.GetRecordsResponse(size=size)
        total = 0
        for r in recs:  # stay well under gRPC's default 4 MiB message limit; the caller asks again
            total += len(r.raw) + len(r.checkpoint) + 48
            if total > MAX_RESPONSE_BYTES and out.records:
                break
            out.records.append(record_pb(r))
        return out

    def GetCheckpoint(self, request, context):
        with self.games.locked(request.game_id):
            last = self.games.store.latest(request.game_id)
        note = self.games.cosigned_note(request.game_id, last.seq + 1, last.checkpoint)  # SPEC.md 4.5
        return au.GetCheckpointResponse(checkpoint=gs.SignedCheckpoint(size=last.seq + 1, note=note))

    def AddCosignature(self, request, context):
        note = self.games.add_cosignature(request.game_id, request.seat, request.size, request.line)
        return au.AddCosignatureResponse(checkpoint=gs.SignedCheckpoint(size=request.size, note=note))

    def GetInclusionProof(self, request, context):
        with self.games.locked(request.game_id) as live:
            leaves = list(live.leaves)
        size = request.tree_size or len(leaves)
        if not request.seq < size <= len(leaves):
            raise Refusal(Code.OUT_OF_RANGE, f"need seq < tree_size <= {len(leaves)}", size=len(leaves))
        return au.GetInclusionProofResponse(tree_size=size, hashes=merkle.inclusion_proof(leaves[:size], request.seq))

    def GetConsistencyProof(self, request, context):
        with self.games.locked(request.game_id) as live:
            leaves = list(live.leaves)
        to = request.to_size or len(leaves)
        if not 0 < request.from_size <= to <= len(leaves):
            raise Refusal(Code.OUT_OF_RANGE, f"need 0 < from_size <= to_size <= {len(leaves)}", size=len(leaves))
        try:
            proof = merkle.consistency_proof(leaves[:to], request.from_size)
        except CryptoError as e:
            raise Rejection(Code.OUT_OF_RANGE, str(e)) from None
        return au.GetConsistencyProofResponse(from_size=request.from_size, to_size=to, hashes=proof)

    async def ExportBundle(self, raw, context):
        req = parse(au.ExportBundleRequest, raw)
        svc = self.svc
        if svc.exports >= limits.MAX_EXPORTS:  # each one holds its bundle in memory while it is sent
            raise Refusal(Code.OVERLOADED, f"{svc.exports} exports are in progress; retry later", limit=limits.MAX_EXPORTS)
        svc.exports += 1
        try:
            data = await svc.run_stream(self.export, req.game_id)
            for i in range(0, len(data), CHUNK):
                yield au.ExportBundleResponse(chunk=data[i:i + CHUNK])
        finally:
            svc.exports -= 1

    def export(self, gid: str) -> bytes:
        return export_bundle(self.games, gid)

    def GetReveal(self, request, context):
        with self.games.locked(request.game_id) as live:
            if not live.referee.ended:
                raise Rejection(Code.NOT_ENDED, "the server secret is revealed only after the game has ended")
            return au.GetRevealResponse(secret=live.row.secret)


def export_bundle(games, gid: str) -> bytes:
    """The game's bundle (SPEC.md 9) as it is now, read from ``games`` (a GameManager): the export
    RPC's, and ``aar restore``'s (service/backup.py)."""
    with games.locked(gid) as live:
        size = live.size
        ended = live.referee.ended
        vkey = live.referee.genesis.body["server"]["vkey"]
        secret = live.row.secret if ended else None
    out = io.BytesIO()

    def items():
        seq = 0
        while seq < size:
            for r in games.store.records(gid, seq, min(1000, size - seq)):
                # the final checkpoint with the seats' cosignatures of it (SPEC.md 4.5, 9)
                yield r.raw, (games.cosigned_note(gid, size, r.checkpoint) if r.seq == size - 1
                              else r.checkpoint)
                seq = r.seq + 1
    write_bundle(out, gid, vkey, items(), size, secret)
    return out.getvalue()
