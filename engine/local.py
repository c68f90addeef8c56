"""A whole game in one process, without I/O: the referee, a checkpoint signer and
the seats. Tests, fixtures, benchmarks and the verifier's own tests use it; the
service does the same with a durable store in between."""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Callable

from . import registry
from .crypto.hashing import tagged_hash
from .crypto.note import Signer
from .errors import Rejection
from .codes import Code
from .log.bundle import write_bundle
from .protocol import Record
from .log.writer import Entry, LogWriter, Sink, checkpoint_note  # noqa: F401  (checkpoint_note: tests' import)
from .referee import Accepted, Referee
from .ruleset import Ruleset
from .seat import Head, SeatSigner


def derive_bytes(seed: bytes, label: str) -> bytes:
    """Deterministic 32-byte test material (keys, entropy, secrets) from a seed.

    For tests, fixtures and demos only: a real server and real seats use os.urandom."""
    return tagged_hash("aar1/test-material", seed + b"\x00" + label.encode())


@dataclass
class LocalGame:
    referee: Referee
    server: Signer
    seats: dict[str, SeatSigner]
    entropy: dict[str, bytes]
    records: list[Record] = field(default_factory=list)
    checkpoints: list[str] = field(default_factory=list)
    writer: LogWriter = None

    @classmethod
    def start(cls, referee: Referee, server: Signer, seats: dict[str, SeatSigner], entropy: dict[str, bytes],
              sink: Sink | None = None) -> "LocalGame":
        """A game from its referee (genesis not yet written): writes the genesis. ``sink``: where the
        log goes (default: ``records`` and ``checkpoints`` of this object, which ``bundle`` reads)."""
        g = cls(referee, server, seats, entropy)
        g.writer = LogWriter(server, referee.genesis.body["server"]["origin"], sink or g._keep)
        g.writer.append([referee.genesis])
        return g

    def _keep(self, entries: list[Entry]) -> None:
        self.records.extend(e.record for e in entries)
        self.checkpoints.extend(e.checkpoint for e in entries)

    @classmethod
    def create(cls, game: str, seed: bytes = b"seed", scenario: str | None = None, options: dict | None = None,
               game_id: str | None = None, server_name: str = "afteraction.test",
               ruleset: Ruleset | None = None, version: int | None = None, sink: Sink | None = None,
               clock: dict | None = None, now: int | None = None) -> "LocalGame":
        """``clock``: a time control (engine/endings.py ``control``), ``now`` the creation time; the
        game's time is then ``self.now``, which the caller sets (no clock is read)."""
        rs = ruleset or registry.get(game)
        server = Signer(server_name, derive_bytes(seed, "server-key"))
        seats = {s: SeatSigner(s, derive_bytes(seed, f"seat-key/{s}")) for s in rs.seats}
        gid = game_id or derive_bytes(seed, "game-id")[:8].hex()
        secret = derive_bytes(seed, "server-secret")
        genesis = Referee.new_genesis(
            gid, rs, scenario or rs.scenarios[0], options or {}, {s: k.public for s, k in seats.items()},
            server.verifier.vkey, f"{server_name}/game/{gid}", secret,
            **({} if version is None else {"version": version}), clock=clock, now=now)
        g = cls.start(Referee(genesis, rs, secret), server, seats,
                      {s: derive_bytes(seed, f"entropy/{s}") for s in rs.seats}, sink)
        g.now = now
        return g

    now: int | None = None  # the game's time (ms) for a game with a clock; the caller advances it

    def submit(self, signed: bytes) -> Accepted:
        acc = self.referee.accept(signed, now=self.now)
        self.writer.append(acc.records)
        return acc

    def expire(self) -> Accepted | None:
        """End the game by time-out or abandonment if a deadline passed before ``self.now``."""
        acc = self.referee.expire(self.now)
        if acc is not None:
            self.writer.append(acc.records)
        return acc

    def head(self) -> Head | None:
        """The end of the log, which a version 2 envelope binds (None in version 1): in-process
        every seat has seen the whole log."""
        r = self.referee
        return Head(r.seq, r.prev, r.genesis.hash) if r.version >= 2 else None

    def handshake(self) -> None:
        gid = self.referee.game_id
        for s, k in self.seats.items():
            self.submit(k.entropy_commit(gid, self.entropy[s], self.head()))
        for s, k in self.seats.items():
            self.submit(k.entropy_reveal(gid, self.entropy[s], self.head()))

    def play(self, seat: str, command) -> Accepted:
        """Sign and submit; a rejected command does not use up the seat's counter
        (the referee only advances counters on acceptance)."""
        signer = self.seats[seat]
        try:
            return self.submit(signer.command(self.referee.game_id, self.referee.seq, command, self.head()))
        except Rejection:
            signer.counter -= 1
            raise

    def run_bots(self, choose: Callable[[str, list], object], max_commands: int = 100000) -> int:
        """Play until the game ends: ``choose(seat, legal)`` picks a command."""
        n = 0
        rs = self.referee.ruleset
        while not self.referee.ended and n < max_commands:
            d = self.referee.pending()
            legal = rs.legal_commands(self.referee.state, d.seat)
            if not legal:
                raise Rejection(Code.NO_LEGAL_COMMAND, f"seat {d.seat} has no legal command at {d.kind}")
            self.play(d.seat, choose(d.seat, legal))
            n += 1
        return n

    def bundle(self) -> bytes:
        out = io.BytesIO()
        secret = self.records[-1].body["secret"] if self.referee.ended else None
        write_bundle(out, self.referee.game_id, self.server.verifier.vkey,
                     ((r.raw, c) for r, c in zip(self.records, self.checkpoints)), len(self.records), secret)
        return out.getvalue()
