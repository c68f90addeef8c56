"""``aar serve --workers 2``: two server processes on one port (SO_REUSEPORT) and
one SQLite store. A whole duel is played through several channels (each its own
connection, so the kernel spreads them over both workers, checked from
/proc/net/tcp), the log is exported and verified, and SIGTERM to the parent stops
every worker (no orphan)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import grpc
import pytest

from afteraction.client.client import Client

from afteraction.client.seat import Seat
from afteraction.engine.bots import random_bot
from afteraction.engine.local import derive_bytes
from afteraction.engine.seat import SeatSigner
from afteraction.v1 import audit_service_pb2_grpc as au_grpc
from afteraction.v1 import game_service_pb2_grpc as gs_grpc

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux) to find the workers")
CHANNELS = 16  # all on one worker by chance: 2 * 2**-16


def own_connection_client(target: str) -> Client:
    """A Client whose channel has its own TCP connection (grpc otherwise shares one per target in a process)."""
    c = Client(target, timeout=30)
    c.channel.close()
    c.channel = grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)])
    c.game, c.audit = gs_grpc.GameServiceStub(c.channel), au_grpc.AuditServiceStub(c.channel)
    grpc.channel_ready_future(c.channel).result(timeout=30)
    return c


def children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(d))
            except (OSError, ValueError, IndexError):
                pass
    return out


def established_on(pid: int, port: int) -> int:
    """How many ESTABLISHED connections to ``port`` the process ``pid`` holds."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(link[8:-1])
    n = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for ln in lines:
            f = ln.split()
            if int(f[1].rsplit(":", 1)[1], 16) == port and f[3] == "01" and f[9] in inodes:
                n += 1
    return n


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_serve_workers_2_plays_a_duel_over_many_channels_and_sigterm_stops_all(tmp_path):
    p = subprocess.Popen([sys.executable, "-m", "afteraction.cli", "serve", "--workers", "2",
                          "--listen", "127.0.0.1:0", "--store", f"sqlite:{tmp_path / 'store.sqlite'}",
                          "--data-dir", str(tmp_path)],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         env=dict(os.environ, PYTHONUNBUFFERED="1"))
    workers: list[int] = []
    clients: list[Client] = []
    try:
        first = p.stdout.readline()
        assert "listening on 127.0.0.1:" in first, first
        target = first.strip().rsplit(" ", 1)[1]
        port = int(target.rsplit(":", 1)[1])
        assert p.stdout.readline().startswith("server key: ")
        workers = children(p.pid)
        assert len(workers) == 2, workers
        clients = [own_connection_client(target) for _ in range(CHANNELS)]
        per_worker = [established_on(w, port) for w in workers]
        assert sum(per_worker) == CHANNELS and all(per_worker), per_worker  # both workers serve

        keys = {s: derive_bytes(b"workers", f"key/{s}") for s in ("a", "b")}
        gid = clients[0].create_game("duel", {s: SeatSigner(s, k).public for s, k in keys.items()}).game_id
        seats = {s: Seat(clients[0], gid, s, keys[s], entropy=derive_bytes(b"workers", f"e/{s}")) for s in keys}
        bots = {s: random_bot(f"workers/{s}") for s in seats}
        i = 0
        for step in ("sign_commit", "sign_reveal"):  # the entropy handshake (decision seat "*"), one channel each
            for seat in seats.values():
                seat.client = clients[i % CHANNELS]
                i += 1
                seat.submit(getattr(seat, step)())
        while True:  # every call through the next channel: the game alternates between the workers
            c = clients[i % CHANNELS]
            i += 1
            st = c.state(gid)
            if st.ended:
                break
            seat = seats[st.decision.seat]
            seat.client = c
            seat.catch_up()
            lg = seat.legal()
            seat.submit(seat.sign_command(lg.state_seq, bots[seat.seat](seat.seat, list(lg.commands))))
        assert i > 10
        bundle = clients[1].export(gid)
        assert bundle == clients[2].export(gid)
        rep = clients[3].verify(bundle)
        assert rep.verified and rep.ended and rep.replayed and rep.pinned
    finally:
        for c in clients:
            c.close()
        p.send_signal(signal.SIGTERM)
        rc = p.wait(60)
    assert rc == 0
    deadline = time.monotonic() + 10
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert workers and not any(alive(w) for w in workers), "a worker outlived SIGTERM to the parent"


def _first_message(target: str, gid: str, seat: str, seed: bytes, follow: bool):
    """The first message (batches opened) of a Play stream joined at ``target``."""
    from afteraction.service.auth import make_auth
    from afteraction.v1 import game_service_pb2 as gs

    with grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
        call = gs_grpc.GameServiceStub(ch).Play(iter([gs.PlayRequest(join=gs.PlayJoin(
            game_id=gid, auth=make_auth(seed, gid, seat), batched=True, follow_home=follow))]), timeout=30)
        try:
            m = next(call)
            return m.batch.items[0] if m.WhichOneof("kind") == "batch" else m
        finally:
            call.cancel()


def _play_together(seats: dict, seed: str) -> dict:
    """Every seat plays over its Play stream (``Seat.play``) in a thread of its own, a random bot each:
    the outcome each seat got, by seat."""
    import threading

    outcomes: dict = {}
    threads = [threading.Thread(target=lambda s=s: outcomes.setdefault(s, seats[s].play(random_bot(f"{seed}/{s}"))))
               for s in seats]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return outcomes


def test_play_joins_that_follow_homes_meet_in_the_process_of_their_game(tmp_path):
    """Each worker also listens on a port of its own; a join that follows homes (PlayJoin.follow_home)
    and reaches a worker that is not its game's home gets that home's port and nothing else, before
    any authentication; a join that does not follow homes is played where it lands. The reference
    client follows: one seat joined at the home, the other at the other worker, the game is played
    to its end with both seats' streams at the home, and its log verifies."""
    from afteraction.service.servicer import home_of
    from afteraction.service.workers import serve_workers
    from .conftest import new_duel

    w = serve_workers(2, "127.0.0.1:0", f"sqlite:{tmp_path / 'store.sqlite'}", None, str(tmp_path))
    clients: list[Client] = []
    try:
        assert len(w.homes) == 2 and w.port not in w.homes and w.homes[0] != w.homes[1]
        admin, gid, seats = new_duel(f"127.0.0.1:{w.port}", b"homes")
        clients.append(admin)
        h = home_of(gid, 2)
        home, other = (f"127.0.0.1:{p}" for p in (w.homes[h], w.homes[1 - h]))
        seed = derive_bytes(b"homes", "key/a")
        sent = _first_message(other, gid, "a", seed, True)
        assert sent.WhichOneof("kind") == "home" and sent.home.port == w.homes[h]
        stranger = _first_message(other, gid, "a", b"\0" * 32, True)   # no key is checked before the home
        assert stranger.WhichOneof("kind") == "home" and stranger.home.port == w.homes[h]
        assert _first_message(home, gid, "a", seed, True).WhichOneof("kind") == "record"
        assert _first_message(other, gid, "a", seed, False).WhichOneof("kind") == "record"

        for s, target in (("a", home), ("b", other)):
            seats[s].client = Client(target, timeout=30)
            clients.append(seats[s].client)
        outcomes = _play_together(seats, "homes")
        assert outcomes["a"] == outcomes["b"] is not None
        assert seats["a"].home is None                                   # joined at the home: not sent on
        assert seats["b"].home is not None and seats["b"].home.target == home
        rep = admin.verify(admin.export(gid))
        assert rep.verified and rep.ended and rep.replayed
    finally:
        for c in clients:
            c.close()
        w.stop(5)


@pytest.mark.parametrize("home", ["refused", "silent"])
def test_a_seat_sent_to_a_home_it_cannot_reach_plays_where_its_join_landed(server, home, monkeypatch):
    """A home port that refuses connections (a proxy in front forwards only the shared port, say),
    or one that takes the connection and never answers (a port held by something else): the
    reference client asks whether the home connects (``Client.reachable``, HOME_CONNECT_S at most,
    not gRPC's connection timeout of a call), is told no, joins again where it was without
    following homes, and plays the game there to its end; a join that follows homes to such a
    server still gets the home's port."""
    import socket

    from .conftest import new_duel

    asked = []
    real_reachable = Client.reachable

    def reachable(self, timeout):
        asked.append((self.target, real_reachable(self, timeout)))
        return asked[-1][1]
    monkeypatch.setattr(Client, "reachable", reachable)

    dead, held = [], []
    for _ in range(2):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        dead.append(s.getsockname()[1])
        if home == "silent":
            s.listen(8)      # the kernel completes the connection; nobody ever reads or answers it
            held.append(s)
        else:
            s.close()
    svc = server.run.service
    svc.homes, svc.home = tuple(dead), -1          # every game's home is elsewhere, and nobody listens there
    admin, gid, seats = new_duel(server.target, b"dead home")
    try:
        first = _first_message(server.target, gid, "a", derive_bytes(b"dead home", "key/a"), True)
        assert first.WhichOneof("kind") == "home" and first.home.port in dead
        outcomes = _play_together(seats, "dead")
        assert outcomes["a"] == outcomes["b"] is not None
        assert seats["a"].home is None and seats["b"].home is None
        assert len(asked) >= 2 and all(t.rsplit(":", 1)[1] in map(str, dead) and not ok for t, ok in asked), asked
        assert admin.verify(admin.export(gid)).verified
    finally:
        admin.close()
        for s in held:
            s.close()
