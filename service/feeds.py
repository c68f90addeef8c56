"""Waking open streams without holding a thread per stream.

Every open Watch/Play stream of a game waits on its own ``asyncio.Event``,
registered here under the game id while the stream is open (nothing is kept for
a game nobody watches). An append in this process sets the game's events at
once (``notify``, called thread-safe from the executor). Appends by other
processes on the same store: on a store that can tell (PostgreSQL's ``LISTEN``/``NOTIFY``,
``Store.listen``), each is told as soon as it is committed and wakes that game's streams; on one
that cannot (SQLite), or while the listening connection is down, one poller task asks the store
for the size of every watched game each ``STREAM_POLL_S`` -- one query per watched game, not one
per stream (after the connection comes back every watched game is woken once: an append may
have been missed meanwhile); while it is up, the poll runs only every ``SAFETY_POLL_S``. Everything here runs on the server's event loop.
"""
from __future__ import annotations

import asyncio
import logging
import time

from . import limits

log = logging.getLogger("afteraction.service")
#: while the store's LISTEN connection is up, the poll still runs this seldom: it finds an append
#: whose NOTIFY was lost (its server died between the commit and the notification)
SAFETY_POLL_S = 30.0


class Feeds:
    def __init__(self) -> None:
        self._subs: dict[str, set[asyncio.Event]] = {}
        self._sizes: dict[str, int] = {}
        #: (told(gid, size), listening(up)), called on the store's listener thread: the games manager
        #: knows from them whether a cached game is behind the store without asking it
        self.told_hooks = (lambda gid, size: None, lambda up: None)

    def subscribe(self, gid: str) -> asyncio.Event:
        ev = asyncio.Event()
        self._subs.setdefault(gid, set()).add(ev)
        return ev

    def unsubscribe(self, gid: str, ev: asyncio.Event) -> None:
        subs = self._subs.get(gid)
        if subs is None:
            return
        subs.discard(ev)
        if not subs:
            del self._subs[gid]
            self._sizes.pop(gid, None)

    def is_watched(self, gid: str) -> bool:
        """Whether a stream of ``gid`` is open (a dict lookup: may be asked from any thread)."""
        return gid in self._subs

    def notify(self, gid: str) -> None:
        for ev in self._subs.get(gid, ()):
            ev.set()

    def wake_all(self) -> None:
        for gid in list(self._subs):
            self.notify(gid)

    def watched(self) -> int:
        return len(self._subs)

    def _told(self, gid: str, size: int) -> None:
        """Another process appended to ``gid`` (its log now has ``size`` records)."""
        if gid in self._subs and self._sizes.get(gid, -1) < size:
            self._sizes[gid] = size
            self.notify(gid)

    def _listening(self, up: bool) -> None:
        if up and not self.listening:
            self.wake_all()   # appends committed while nobody listened were not told
        self.listening = up

    listening = False   # True while the store's LISTEN connection is up (no polling then)

    async def poll_forever(self, run, size_of, store=None) -> None:
        """Find appends by other processes: told by ``store.listen`` where the store can (the poll
        then runs only while its connection is down), else by polling: ``size_of(gids) -> {gid:
        size}`` runs in the executor."""
        stop = None
        listen = getattr(store, "listen", None)
        if listen is not None:
            loop = asyncio.get_running_loop()

            sizes, listening = self.told_hooks

            def told(gid: str, size: int) -> None:
                sizes(gid, size)
                if gid in self._subs:  # a game nobody here watches costs no wake-up of the loop
                    loop.call_soon_threadsafe(self._told, gid, size)

            def state(up: bool) -> None:
                listening(up)
                loop.call_soon_threadsafe(self._listening, up)
            stop = listen(told, state)
        try:
            await self._poll(run, size_of)
        finally:
            if stop is not None:
                stop()   # does not wait: the store's close does

    async def _poll(self, run, size_of) -> None:
        last = time.monotonic()
        while True:
            await asyncio.sleep(limits.STREAM_POLL_S)
            if self.listening and time.monotonic() - last < SAFETY_POLL_S:
                continue
            last = time.monotonic()
            gids = list(self._subs)
            if not gids:
                continue
            try:
                sizes = await run(size_of, gids)
            except Exception as e:  # noqa: BLE001 -- the store is down: streams see it on their next read
                log.warning("stream poll failed: %s", type(e).__name__)
                continue
            for gid, n in sizes.items():
                if gid in self._subs and self._sizes.get(gid) != n:
                    self._sizes[gid] = n
                    self.notify(gid)  # also on the first sighting: an append may have landed before it
