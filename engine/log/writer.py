"""The one log writer: append records to a game's log, keep its Merkle
tree (RFC 6962, SPEC.md section 4) and sign one checkpoint per record.

Pure apart from what it is handed: a ``Signer`` (the server's checkpoint key) and a
``sink``, the callable that keeps what is written (a list in a local game, the durable
store in the service). No I/O, clock or randomness of its own, so the same records give
the same checkpoints byte for byte wherever they are written.

    w = LogWriter(signer, origin, sink)
    entries = w.append(records)   # tree + one checkpoint each, then sink(entries)
    w.follow(records)             # records already in the log (read back): tree only

``append`` is all or nothing: if the sink raises, the tree is put back as it was and the
exception propagates, so a writer never gets ahead of what its sink kept.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from ..crypto.merkle import CompactTree
from ..crypto.note import Checkpoint, Signer, sign_checkpoint
from ..protocol import Record
from ..errors import InternalValueError


def checkpoint_note(signer: Signer, origin: str, size: int, root: bytes) -> str:
    """The signed checkpoint note (C2SP tlog-checkpoint) of a tree of ``size`` with ``root``."""
    return sign_checkpoint(Checkpoint(origin, size, root), signer)


class CachedSigner(Signer):
    """A Signer whose key ID is computed once (checkpoint signing is on every append's path; its
    expanded key is kept by ``ed25519.sign``'s cache); the signatures are the plain Signer's bytes."""

    @property
    def key_id(self) -> bytes:
        kid = self.__dict__.get("_cached_kid")
        if kid is None:
            kid = Signer.key_id.fget(self)
            object.__setattr__(self, "_cached_kid", kid)
        return kid


def cached(signer: Signer) -> Signer:
    """A plain Signer as a CachedSigner; any other (a subclass with signing of its own) as it is."""
    return CachedSigner(signer.name, signer.seed) if type(signer) is Signer else signer


@dataclass(frozen=True)
class Entry:
    """One written record and the signed checkpoint over records 0..record.seq."""
    record: Record
    checkpoint: str


Sink = Callable[[list[Entry]], None]


class LogWriter:
    """One game's log being written: its tree and the checkpoint signer."""

    __slots__ = ("signer", "origin", "sink", "tree")

    def __init__(self, signer: Signer, origin: str, sink: Sink | None = None) -> None:
        self.signer = cached(signer)
        self.origin = origin
        self.sink = sink
        self.tree = CompactTree()

    @property
    def size(self) -> int:
        return self.tree.size

    def root(self) -> bytes:
        return self.tree.root()

    def sign(self, records: Sequence[Record]) -> list[Entry]:
        """Records into the tree with one checkpoint each, without handing them to a sink
        (``append`` calls it; on its own the caller keeps the entries and must ``rewind``
        or drop the writer if they are not kept)."""
        out = []
        for r in records:
            if r.seq != self.tree.size:
                raise InternalValueError(f"record {r.seq} does not follow a log of {self.tree.size}")
            self.tree.append(r.leaf)
            out.append(Entry(r, checkpoint_note(self.signer, self.origin, self.tree.size, self.tree.root())))
        return out

    def append(self, records: Sequence[Record], sink: Sink | None = None) -> list[Entry]:
        """Write ``records`` (the next ones of the log): tree, checkpoints, then ``sink`` (this
        call's, else the writer's). If the sink raises, the writer is as before the call."""
        mark = self.mark()
        try:
            entries = self.sign(records)
            keep = sink or self.sink
            if keep is not None:
                keep(entries)
        except BaseException:
            self.rewind(mark)
            raise
        return entries

    def follow(self, records: Iterable[Record]) -> None:
        """Records already written (read back from where a sink kept them): into the tree only;
        their stored checkpoints stand."""
        for r in records:
            if r.seq != self.tree.size:
                raise InternalValueError(f"record {r.seq} does not follow a log of {self.tree.size}")
            self.tree.append(r.leaf)

    def mark(self) -> tuple[int, list[bytes]]:
        return self.tree.size, list(self.tree._stack)

    def rewind(self, mark: tuple[int, list[bytes]]) -> None:
        self.tree.size, self.tree._stack = mark[0], list(mark[1])
