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
