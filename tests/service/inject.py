"""Fault injection into a store's appends, on both of the service's paths: the blocking
``append`` (the pool's) and ``append_async`` (SubmitCommand on the event loop)."""
from __future__ import annotations

import threading
from contextlib import contextmanager


@contextmanager
def appends_through(store, fn):
    """Inside, every append of ``store`` is ``fn(append)`` (``fn`` may call the real blocking
    ``store.append``, captured before); ``append_async`` runs it in a thread and resolves its
    future on the caller's loop as the real one does."""
    def append_async(ap, loop):
        fut = loop.create_future()

        def work():
            try:
                fn(ap)
                err = None
            except BaseException as e:  # noqa: BLE001 -- handed to the future
                err = e
            loop.call_soon_threadsafe(lambda: fut.done() or (fut.set_exception(err) if err else fut.set_result(None)))
        threading.Thread(target=work, daemon=True).start()
        return fut

    store.append, store.append_async = fn, append_async
    try:
        yield
    finally:
        del store.append, store.append_async
