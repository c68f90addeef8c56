"""Bot games through the real client (``Client``/``Seat``), for the fault suite: each game
remembers every record an OK reply acknowledged, so a test can check after a crash that
none was lost, then finish the game on the restarted server and verify its export."""
from __future__ import annotations

import io
import threading
from dataclasses import dataclass, field

import grpc

from afteraction.client.client import Client, ClientError

from afteraction.client.seat import Seat
from afteraction.engine import registry
from afteraction.engine.bots import random_bot
from afteraction.engine.local import derive_bytes
from afteraction.engine.log.verify import verify_bundle
from afteraction.engine.seat import SeatSigner
from afteraction.v1 import audit_service_pb2 as au
from afteraction.v1 import audit_service_pb2_grpc as au_grpc
from afteraction.v1 import game_service_pb2_grpc as gs_grpc

from .procs import OWN_CONNECTION


def client(target: str, own_connection: bool = True, timeout: float = 10.0) -> Client:
    """The reference client; with its own TCP connection (so ``--workers 2`` spreads games)."""
    c = Client(target, timeout=timeout)
    if own_connection:
        c.channel.close()
        c.channel = grpc.insecure_channel(target, options=OWN_CONNECTION)
        c.game, c.audit = gs_grpc.GameServiceStub(c.channel), au_grpc.AuditServiceStub(c.channel)
    return c


@dataclass
class BotGame:
    game: str
    seed: bytes
    options: dict | None = None
    gid: str = ""
    acked: dict[int, bytes] = field(default_factory=dict)  # seq -> record bytes an OK reply carried
    seats: dict[str, Seat] = field(default_factory=dict)
    commands: int = 0
    ended: bool = False

    def key(self, seat: str) -> bytes:
        return derive_bytes(self.seed, f"key/{seat}")

    def create(self, c: Client) -> "BotGame":
        names = registry.get(self.game).seats
        res = c.create_game(self.game, {s: SeatSigner(s, self.key(s)).public for s in names}, options=self.options)
        self.gid = res.game_id
        self.acked[0] = res.genesis.record
        self.attach(c)
        return self

    def attach(self, c: Client) -> None:
        """Seats on client ``c`` (a new server, a new connection), caught up from the log."""
        self.seats = {s: Seat(c, self.gid, s, self.key(s), entropy=derive_bytes(self.seed, f"entropy/{s}"))
                      for s in registry.get(self.game).seats}
        for s in self.seats.values():
            s.catch_up()

    def _ack(self, res) -> None:
        for r in res.records:
            self.acked[r.seq] = r.record
        self.commands += 1

    def step(self, bot) -> bool:
        """One command of whichever seat the game waits for; False once the game has ended."""
        any_seat = next(iter(self.seats.values()))
        st = any_seat.client.state(self.gid)
        if st.ended:
            self.ended = True
            return False
        if st.decision.kind == "entropy":  # the handshake: every seat commits, then every seat reveals
            for s in self.seats.values():
                s.catch_up()
                if not s.committed:
                    self._ack(s.submit(s.sign_commit()))
                    return True
            for s in self.seats.values():
                if not s.revealed:
                    self._ack(s.submit(s.sign_reveal()))
                    return True
            raise AssertionError(f"{self.gid}: an entropy decision with every seat revealed")
        s = self.seats[st.decision.seat]
        s.catch_up()
        lg = s.legal()
        self._ack(s.submit(s.sign_command(lg.state_seq, bot(s.seat, list(lg.commands)))))
        return True

    def play(self, bot, max_commands: int = 100000) -> None:
        for _ in range(max_commands):
            if not self.step(bot):
                return

    def stored(self, c: Client) -> dict[int, bytes]:
        out: dict[int, bytes] = {}
        while True:
            res = c.audit.GetRecords(au.GetRecordsRequest(game_id=self.gid, from_seq=len(out)), timeout=30)
            for r in res.records:
                assert r.seq == len(out), f"{self.gid}: record {r.seq} after {len(out) - 1}"
                out[r.seq] = r.record
            if len(out) >= res.size or not res.records:
                return out

    def verify(self, c: Client, vkey: str):
        rep = verify_bundle(io.BytesIO(c.export(self.gid)), pinned_vkey=vkey)
        assert rep.verified and rep.replayed and rep.pinned, rep
        return rep


class Load:
    """``threads`` drivers, each playing games of ``games`` (cycled) one after the other on its
    own client until ``stop`` is set. Errors after ``stop`` (the server was killed) end the
    driver quietly; an error before it is kept and fails the test."""

    def __init__(self, target: str, games: list[str], threads: int, seed: bytes,
                 options: dict[str, dict] | None = None) -> None:
        self.options = options or {}
        self.target = target
        self.stop = threading.Event()
        self.games: list[BotGame] = []
        self.errors: list[BaseException] = []
        self.lock = threading.Lock()
        self.ts = [threading.Thread(target=self._drive, args=(games[i % len(games)], seed + b"/%d" % i), daemon=True)
                   for i in range(threads)]

    def start(self) -> "Load":
        for t in self.ts:
            t.start()
        return self

    def acked_commands(self) -> int:
        with self.lock:
            return sum(g.commands for g in self.games)

    def _drive(self, game: str, seed: bytes) -> None:
        c = client(self.target)
        bot = random_bot(seed)
        n = 0
        try:
            while not self.stop.is_set():
                g = BotGame(game, seed + b"/%d" % n, self.options.get(game))
                n += 1
                g.create(c)
                with self.lock:
                    self.games.append(g)
                while not self.stop.is_set() and g.step(bot):
                    pass
        except (ClientError, grpc.RpcError) as e:
            if not self.stop.is_set():
                self.errors.append(e)
        except BaseException as e:  # noqa: BLE001 -- reported by the test
            self.errors.append(e)
        finally:
            c.close()

    def join(self, timeout: float = 60.0) -> None:
        for t in self.ts:
            t.join(timeout)
        assert not any(t.is_alive() for t in self.ts), "a load driver did not stop"
