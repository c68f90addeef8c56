"""Waking open streams without holding a thread per stream.

Every open Watch/Play stream of a game waits on its own ``asyncio.Event``,
registered here under the game id while the stream is open (nothing is kept for
a game nobody watches). An append in this process sets the game's events at
once (``notify``, called thread-safe from the executor); appends by other
processes on the same store are found by one poller task that asks the store
for the size of every watched game each ``STREAM_POLL_S`` -- one query per
watched game, not one per stream. Everything here runs on the server's event loop.
"""
from __future__ import annotations

import asyncio
import logging

from . import limits

log = logging.getLogger("afteraction.service")


class Feeds:
    def __init__(self) -> None:
        self._subs: dict[str, set[asyncio.Event]] = {}
        self._sizes: dict[str, int] = {}

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

    async def poll_forever(self, run, size_of) -> None:
        """Find appends by other processes: ``size_of(gids) -> {gid: size}`` runs in the executor."""
        while True:
            await asyncio.sleep(limits.STREAM_POLL_S)
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
