"""The service's fast path measured: each seat plays over its own ``Play`` stream.

A client process (``PlayProc``, JSON lines on stdin/stdout like bench_service_games' ``ClientProc``)
drives N concurrent games of one ruleset with grpc.aio: each slot has two connections, seat a's and
seat b's (each seat its own connection, as the peer benchmark's clients), and a pool of games made
ahead (CreateGame and the entropy handshake over unary calls, then both seats' streams joined, so a
window measures moves only, as the peer's pooled matches). A seat's prompt (``your_decision``) carries
its legal commands; the seat signs one (a random choice) bound to the log's end it saw on its stream
and sends it as one message (a join that a server of several workers sends to its game's home, with
PlayJoin.follow_home, is made again there, on that seat's own connection to that port); the latency is from that write to its ``accepted`` on the same stream.
A slot whose game ends goes on with the next game of its pool.

Used by bench/peer/compare.py (system ``service_play``); ``python bench/play_load.py --client TARGET
GAME N`` is the client process itself.
"""
from __future__ import annotations

import asyncio
import json
import os
import sys
import time

try:
    from .common import JsonLinesProc
except ImportError:  # run as a script: the client process, which needs no process class of its own
    JsonLinesProc = object

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]


class Game:
    """One pooled game: both seats' streams, joined; they answer prompts while ``go`` is set."""

    def __init__(self, slot: "Slot", gid: str, signers: dict, seeds: dict, head) -> None:
        self.slot, self.gid, self.signers, self.seeds = slot, gid, signers, seeds
        self.heads = {s: head for s in signers}
        self.go = asyncio.Event()
        self.done = asyncio.Event()
        self.finished = 0
        self.tasks: list = []

    def start(self, stubs: dict) -> None:
        self.tasks = [asyncio.create_task(self._seat(s, stubs[s])) for s in self.signers]

    async def _seat(self, seat: str, stub) -> None:
        """Seat ``seat``'s stream, joined again at the game's home when the server sends it there
        (PlayJoin.follow_home: `aar serve --workers N`, before the pool's game starts)."""
        port = await self._stream(seat, stub, True)
        if port:
            await self._stream(seat, self.slot.stub_at(seat, port), False)

    async def _stream(self, seat: str, stub, follow: bool) -> int:
        """One Play stream of ``seat`` played to the game's end; 0, or the home's port it was sent to."""
        from afteraction.engine.seat import Head
        from afteraction.service.auth import make_auth
        from afteraction.v1 import envelope_pb2
        from afteraction.v1 import game_service_pb2 as gs

        q: asyncio.Queue = asyncio.Queue()
        join = gs.PlayJoin(game_id=self.gid, auth=make_auth(self.seeds[seat], self.gid, seat),
                           from_seq=self.heads[seat].seq, batched=True)
        if "follow_home" in join.DESCRIPTOR.fields_by_name:   # not in a --base commit's protos before it
            join.follow_home = follow
        await q.put(gs.PlayRequest(join=join))

        async def requests():
            while True:
                m = await q.get()
                if m is None:
                    return
                yield m
        call = stub.Play(requests())
        sent_at = None
        slot = self.slot
        try:
            async for b in call:
                if b.WhichOneof("kind") == "home":
                    return b.home.port
                if slot.running:
                    slot.msgs += 1   # every stream message to a seat, a batch counting one
                for m in (b.batch.items if b.WhichOneof("kind") == "batch" else (b,)):
                    k = m.WhichOneof("kind")
                    if k == "record":
                        h = self.heads[seat]
                        self.heads[seat] = Head(m.record.seq + 1, m.record.record_hash, h.genesis)
                    elif k == "your_decision":
                        await self.go.wait()
                        while not slot.running:          # between windows: hold the prompt
                            await slot.resume.wait()
                        d = m.your_decision
                        choice = slot.prng.choice(list(d.legal_commands))
                        signed = self.signers[seat].command(self.gid, d.state_seq, choice, self.heads[seat])
                        sent_at = time.monotonic()
                        await q.put(gs.PlayRequest(command=envelope_pb2.SignedCommand.FromString(signed)))
                    elif k == "accepted" and sent_at is not None:
                        slot.meter(sent_at, time.monotonic())
                        slot.accepted += slot.running
                        sent_at = None
                    elif k == "rejected":
                        raise RuntimeError(f"refused: {m.rejected.reason}: {m.rejected.message}")
            self.finished += 1   # the stream completes (OK) once the end record (and the last result) was sent
            if self.finished == len(self.signers):
                self.done.set()
            return 0
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 -- shown: a bench that plays nothing must say why
            print(f"play_load: seat {seat} of game {self.gid}: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
            raise
        finally:
            await q.put(None)
            call.cancel()


class Slot:
    """One concurrent game slot: seat a's and seat b's connections, a pool of joined games."""

    def __init__(self, target: str, game: str, lat: list) -> None:
        import grpc

        from afteraction.engine.bots import Prng
        from afteraction.engine import registry
        from afteraction.v1 import game_service_pb2_grpc as gs_grpc

        self.game = game
        self.seats = list(registry.get(game).seats)
        self.target = target
        self.channels = {s: grpc.aio.insecure_channel(target, options=OWN_CONNECTION) for s in self.seats}
        self.homes: dict[tuple[str, int], object] = {}   # (seat, port): that seat's connection to a game's home
        self.stubs = {s: gs_grpc.GameServiceStub(ch) for s, ch in self.channels.items()}
        self.admin = self.stubs[self.seats[0]]
        self.pool: list[Game] = []
        self.current: Game | None = None
        self.prng = Prng(os.urandom(8))
        self.lat = lat
        self.window = (0.0, 0.0)
        self.running = False
        self.resume = asyncio.Event()
        self.ended = self.inline = 0
        self.msgs = self.accepted = 0   # while running: stream messages received, commands accepted

    def stub_at(self, seat: str, port: int):
        """Seat ``seat``'s stub at ``port`` of the target's host (a game's home), its own connection."""
        import grpc

        from afteraction.v1 import game_service_pb2_grpc as gs_grpc

        if (seat, port) not in self.homes:
            ch = grpc.aio.insecure_channel(f"{self.target.rpartition(':')[0]}:{port}", options=OWN_CONNECTION)
            self.homes[seat, port] = (ch, gs_grpc.GameServiceStub(ch))
        return self.homes[seat, port][1]

    def meter(self, t0: float, t1: float) -> None:
        if self.window[0] <= t0 and t1 <= self.window[1]:
            self.lat.append(t1 - t0)

    async def new_game(self) -> Game:
        from afteraction.engine.seat import Head, SeatSigner
        from afteraction.v1 import envelope_pb2
        from afteraction.v1 import game_service_pb2 as gs

        seeds = {s: os.urandom(32) for s in self.seats}
        signers = {s: SeatSigner(s, seeds[s]) for s in seeds}
        created = await self.admin.CreateGame(gs.CreateGameRequest(game=self.game, seats=[
            gs.SeatKey(seat=s, public_key=signers[s].public) for s in signers]), timeout=60)
        gid = created.game_id
        head = Head(1, created.genesis.record_hash, created.genesis.record_hash)
        ent = {s: os.urandom(32) for s in signers}
        for step in ("entropy_commit", "entropy_reveal"):
            for s, sg in signers.items():
                res = await self.admin.SubmitCommand(gs.SubmitCommandRequest(
                    command=envelope_pb2.SignedCommand.FromString(getattr(sg, step)(gid, ent[s], head))), timeout=60)
                head = Head(res.records[-1].seq + 1, res.records[-1].record_hash, head.genesis)
        g = Game(self, gid, signers, seeds, head)
        g.start(self.stubs)
        return g

    async def top_up(self, n: int) -> None:
        while len(self.pool) < n:
            self.pool.append(await self.new_game())

    async def play_forever(self) -> None:
        """Play the pool's games one after the other (each while ``running``)."""
        while True:
            if not self.pool:
                self.inline += 1
                self.pool.append(await self.new_game())
            g = self.current = self.pool.pop(0)
            g.go.set()
            await g.done.wait()
            for t in g.tasks:
                t.cancel()
            self.ended += 1

    async def close(self) -> None:
        for g in ([self.current] if self.current else []) + self.pool:
            for t in g.tasks:
                t.cancel()
        for ch in [*self.channels.values(), *(ch for ch, _ in self.homes.values())]:
            await ch.close()


async def client_main(target: str, game: str, n: int) -> None:
    lat: list[float] = []
    slots = [Slot(target, game, lat) for _ in range(n)]
    players = None
    loop = asyncio.get_running_loop()
    out = sys.stdout
    sys.stdout = sys.stderr
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = await reader.readline()
        if not line:
            break
        msg = json.loads(line)
        op = msg["op"]
        if op == "close":
            break
        if op == "top_up":
            await asyncio.gather(*(s.top_up(msg["want"]) for s in slots))
            ans = {}
        elif op == "service":
            t_start, warm, window = msg["t_start"], msg["warmup"], msg["window"]
            del lat[:]
            ended0, inline0 = sum(s.ended for s in slots), sum(s.inline for s in slots)
            for s in slots:
                s.msgs = s.accepted = 0
            for s in slots:
                s.window = (t_start + warm, t_start + warm + window)
            await asyncio.sleep(max(0.0, t_start - time.monotonic()))
            cpu0 = time.process_time()
            for s in slots:
                s.running = True
                s.resume.set()
            if players is None:
                players = [asyncio.create_task(s.play_forever()) for s in slots]
            await asyncio.sleep(max(0.0, t_start + warm + window - time.monotonic()))
            for s in slots:
                s.running = False
                s.resume.clear()
            ans = {"lat": list(lat), "cpu": time.process_time() - cpu0,
                   "ended": sum(s.ended for s in slots) - ended0, "inline": sum(s.inline for s in slots) - inline0,
                   "msgs": sum(s.msgs for s in slots), "accepted": sum(s.accepted for s in slots),
                   "ended_by_slot": [s.ended for s in slots]}   # since the first window: how even the slots are
        else:
            raise ValueError(op)
        out.write(json.dumps(ans) + "\n")
        out.flush()
    for p in players or ():
        p.cancel()
    for s in slots:
        await s.close()


class PlayProc(JsonLinesProc):
    """The client process, from the parent (bench/peer/compare.py)."""

    def __init__(self, target: str, game: str, n: int) -> None:
        super().__init__([os.path.abspath(__file__), "--client", target, game, str(n)], "the Play bench client")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--client"]:
        asyncio.run(client_main(sys.argv[2], sys.argv[3], int(sys.argv[4])))
