"""Appends told between the server processes of one SQLite store (`aar serve --workers N`), as
PostgreSQL's LISTEN/NOTIFY tells them there (``Store.listen``): without it a Play or Watch stream in
one worker learned of a command another worker stored only at the next poll (``STREAM_POLL_S``, 1 s),
so a game whose two seats' connections landed on different workers moved once a second.

Each listening process binds a Unix stream socket in the abstract namespace (no file, no path
length limit), named by the store's path and its pid, and marks itself with an empty file
``PATH-wake-PID`` beside the database (0600, like the database's other files). After each committed batch the store's writer writes the batch's
``game_id size`` lines on its connection to every other marked process (connected once, again after
an error; the list of processes is read again only when the directory changes). A stream socket,
not datagrams: a Unix datagram socket queues ten datagrams by default (net.unix.max_dgram_qlen), and
a listener that a busy interpreter keeps from the GIL for a few milliseconds lost wakes. A wake lost
anyway (a process starting, an error) costs that stream a poll's delay, not a record: the stream
reads the store itself, and the poll still runs (``SAFETY_POLL_S`` while listening). A wake only
makes streams read the store, so a forged one can delay a stream's wake-up at most until the safety
poll, never show it anything.
"""
from __future__ import annotations

import hashlib
import logging
import os
import selectors
import socket
import threading

log = logging.getLogger("afteraction.service")
SEND_TIMEOUT_S = 0.05   # a peer whose buffer is full: the writer waits this long at most, then drops the datagram
RECV_WAIT_S = 0.5       # the listener thread checks for its stop this often


class Wakes:
    def __init__(self, path: str) -> None:
        real = os.path.realpath(path)
        self.dir = os.path.dirname(real)
        self._prefix = os.path.basename(real) + "-wake-"
        self._key = hashlib.sha256(real.encode()).hexdigest()[:16]
        self._conns: dict[int, socket.socket] = {}
        self._peers: list[int] = []
        self._seen: int | None = None
        self._lock = threading.Lock()

    def _name(self, pid: int) -> bytes:
        return f"\0aar-wake-{self._key}-{pid}".encode()

    def peers(self) -> list[int]:
        """The other listening processes of this store (the markers, read again when the directory changed)."""
        try:
            m = os.stat(self.dir).st_mtime_ns
        except OSError:
            return []
        if m != self._seen:
            me = os.getpid()
            try:
                pids = (n[len(self._prefix):] for n in os.listdir(self.dir) if n.startswith(self._prefix))
                self._peers = [int(p) for p in pids if p.isdigit() and int(p) != me]
            except OSError:
                self._peers = []
            self._seen = m
        return self._peers

    def tell(self, sizes: list[tuple[str, int]]) -> None:
        """Tell every other process that these games now have these sizes (the store's writer, after a commit)."""
        if not sizes:
            return
        with self._lock:
            peers = self.peers()
            if not peers:
                return
            msg = "".join(f"{g} {n}\n" for g, n in sizes).encode()
            for pid in peers:
                c = self._conns.get(pid)
                try:
                    if c is None:
                        c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                        c.settimeout(SEND_TIMEOUT_S)
                        c.connect(self._name(pid))
                        self._conns[pid] = c
                    c.sendall(msg)
                except OSError:   # gone, or stuck: its poll finds the append; connect again next time
                    if c is not None:
                        c.close()
                    self._conns.pop(pid, None)
            for pid in set(self._conns) - set(peers):
                self._conns.pop(pid).close()

    def listen(self, on_append, on_state):
        """``Store.listen``'s contract: ``on_append(game_id, size)`` for each append another process
        told, ``on_state(True)`` once listening; returns the function that stops it."""
        me = os.getpid()
        srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            srv.bind(self._name(me))
            srv.listen(64)
        except OSError:  # this process listens on this store already (two servers in one process): poll
            srv.close()
            return lambda: None
        marker = os.path.join(self.dir, f"{self._prefix}{me}")
        os.close(os.open(marker, os.O_WRONLY | os.O_CREAT, 0o600))
        stop = threading.Event()
        sel = selectors.DefaultSelector()
        sel.register(srv, selectors.EVENT_READ)
        partial: dict[socket.socket, bytes] = {}

        def run() -> None:
            try:
                serve()
            finally:  # the sockets go with the thread (close() does not wait for it: it runs on the event loop)
                for key in list(sel.get_map().values()):
                    key.fileobj.close()
                sel.close()

        def serve() -> None:
            while not stop.is_set():
                for key, _ in sel.select(RECV_WAIT_S):
                    s = key.fileobj
                    if s is srv:
                        c, _ = srv.accept()
                        sel.register(c, selectors.EVENT_READ)
                        partial[c] = b""
                        continue
                    try:
                        data = s.recv(1 << 16)
                    except OSError:
                        data = b""
                    if not data:
                        sel.unregister(s)
                        partial.pop(s, None)
                        s.close()
                        continue
                    *lines, partial[s] = (partial[s] + data).split(b"\n")
                    for line in lines:
                        gid, _, size = line.decode("ascii", "replace").partition(" ")
                        if size.isdigit():
                            on_append(gid, int(size))
        t = threading.Thread(target=run, name="aar-store-wakes", daemon=True)
        t.start()
        on_state(True)

        def close() -> None:
            stop.set()
            try:
                os.unlink(marker)
            except OSError:
                pass
        return close
