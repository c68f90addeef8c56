"""The pipes between `aar verify` and its helper processes (verify_parallel's replay process,
verify_signatures' signature process): below both, so neither imports the other's module."""
from __future__ import annotations

from multiprocessing.connection import Connection

PIPE_BYTES = 1024 * 1024     # the pipe to the replay process (Linux's default pipe-max-size)


class Duplex:
    """Two one-way pipes as one connection (multiprocessing's message framing, pickled messages)."""

    def __init__(self, inp: int, out: int) -> None:
        self.inp = Connection(inp, writable=False)
        self.out = Connection(out, readable=False)
        self.recv, self.poll, self.send = self.inp.recv, self.inp.poll, self.out.send

    def close(self) -> None:
        self.out.close()
        self.inp.close()


def widen(fd: int) -> None:
    """A batch of NTND records (about 270 KB) is larger than a default pipe (64 KB): a send would wait
    until the replay process finished its batch and read the next, so the two would take turns.
    With room for several batches, this process waits only when the replay is PIPE_BYTES behind."""
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (ImportError, AttributeError, OSError):  # not Linux, or above /proc/sys/fs/pipe-max-size
        pass
