"""`aar verify --jobs 2`: the Ed25519 checks of steps 5, 6 and 9 computed ahead in a second process.

A signature's verdict is a pure function of (public key, message, signature): the rule of SPEC.md
7.4, ``engine/crypto/ed25519.verify_signature``. The checks of the Verifier need the log in order;
that function does not. So:

  this process    reads LOOKAHEAD frames ahead of the record being checked and sends them to
                  the signature process in batches; the Verifier's ``signature_check`` (every
                  Ed25519 check it makes) is ``Lookahead.check``: the verdict the signature
                  process computed for exactly that (key, message, signature), if it has arrived,
                  else ``verify_signature`` here;
  the worker      finds in each frame the signatures the Verifier will check (the server's on
                  the checkpoint, the seats' cosignatures, the seat's on a public envelope and,
                  with the header's secret, on a sealed command's envelope), computes
                  ``verify_signature`` for each and sends the verdicts back, keyed by a hash of
                  the length-prefixed triple. It skips the records this process has reached
                  (a shared progress counter): those it checks itself.

The Verifier runs the same code in the same order as with ``--jobs 1``; only where a verdict is
computed changes, so the result (verdict, failing step, record, report) cannot differ. A verdict
for another triple, a frame the worker could not read, a worker that stopped: the lookup misses
and the check is computed here. Memory: at most LOOKAHEAD frames (and READ_AHEAD_BYTES) ahead.
"""
from __future__ import annotations

import hashlib
import mmap
import os
import struct
import subprocess
import sys
import time
from collections import deque

from afteraction.engine.crypto.ed25519 import verify_signature
from afteraction.engine.errors import EncodingError

LOOKAHEAD = 512                 # frames read ahead of the record being checked
READ_AHEAD_BYTES = 8 << 20      # and at most this many bytes of them (frames are up to 2 MB)
BATCH = 32                      # frames per message to the signature process
GAP = 48                        # a worker that finds itself behind resumes this many records ahead
# shared memory (Linux): [0] the index of the record this process is checking, [1] the index of the
# last frame the worker has read
_PROGRESS = struct.Struct("<qq")


def digest(public: bytes, msg: bytes, sig: bytes) -> bytes:
    """One verdict's key: the triple, each part but the last length-prefixed (so no two triples
    share their bytes)."""
    return hashlib.sha256(struct.pack(">II", len(public), len(sig)) + public + sig + msg).digest()


# -- the worker: which signatures a frame holds -------------------------------------------------------
class Signatures:
    """The (public key, message, signature) triples the Verifier will check in each frame of one
    bundle, found without the Verifier's state (frame 0 is the genesis record). Anything unexpected
    yields no triple: the Verifier then checks the frame itself, and judges its shape."""

    def __init__(self, server_vkey: str, secret: bytes | None) -> None:
        from afteraction.engine.crypto import note

        try:
            self.server = note.parse_vkey(server_vkey)
        except Exception:
            self.server = None
        self.secret = secret
        self.seat_keys: dict[str, bytes] = {}
        self.cosigners: dict = {}
        self.game = None
        self.seal_key = None
        self.sizes = None

    def of(self, i: int, raw: bytes, cp: str) -> list[tuple[bytes, bytes, bytes]]:
        try:
            if i == 0:
                self._genesis(raw)
            return self._checkpoint(cp) + ([] if i == 0 else self._record(raw))
        except Exception:
            return []

    def _genesis(self, raw: bytes) -> None:
        from afteraction.engine.crypto import commit
        from afteraction.engine.crypto.cosign import cosigner_ids
        from afteraction.engine.log.genesis import genesis_shape
        from afteraction.engine.protocol import parse_record

        rec = parse_record(raw)
        keys, sizes = genesis_shape(rec)
        self.seat_keys, self.game = keys, rec.game
        self.sizes = sizes if rec.v >= 2 else None
        self.cosigners = cosigner_ids(rec.body["server"]["origin"], keys)
        if self.secret is not None:
            self.seal_key = commit.seal_key(self.secret, rec.game)

    def _checkpoint(self, cp: str) -> list:
        from afteraction.engine.crypto.cosign import cosignature_message
        from afteraction.engine.crypto.note import split_note

        text, sigs = split_note(cp)
        out = []
        for s in sigs:
            who = (s.name, s.key_id)
            if self.server is not None and who == (self.server.name, self.server.key_id):
                out.append((self.server.public, text.encode(), s.signature))
            elif who in self.cosigners and len(s.signature) == 72:
                (ts,) = struct.unpack(">Q", s.signature[:8])
                out.append((self.seat_keys[self.cosigners[who]], cosignature_message(text, ts), s.signature[8:]))
        return out

    def _record(self, raw: bytes) -> list:
        import msgpack

        from afteraction.engine.crypto import commit
        from afteraction.engine.protocol import command_signing_bytes

        d = msgpack.unpackb(raw, raw=False)
        b = d["body"]
        key = self.seat_keys.get(b.get("seat"))
        if key is None:
            return []
        if "env" in b:
            return [(key, command_signing_bytes(b["env"]), b["sig"])]
        if "sealed" in b and self.seal_key is not None and d["kind"] == "command":
            size = None if self.sizes is None else self.sizes["command"][b["seat"]]
            v = commit.unseal(self.seal_key, self.game, d["seq"], 0, b["sealed"]["commit"], b["sealed"]["ct"],
                              size).value
            return [(key, command_signing_bytes(v["env"]), v["sig"])]
        return []


def _worker_loop(conn, progress: mmap.mmap | None) -> None:
    """Per bundle: ("bundle", server key, secret), batches of (index, raw, checkpoint), None. It
    answers each batch with ("v", its last index, [(index, {digest: verdict}), ...]) and the None
    with ("done", its CPU seconds on the bundle, signatures verified)."""
    while True:
        _, server_vkey, secret = conn.recv()
        cpu, n = time.process_time(), 0
        sigs = Signatures(server_vkey, secret)
        skip_until = 0
        while (batch := conn.recv()) is not None:
            out = []
            if progress is not None and batch:
                struct.pack_into("<q", progress, 8, batch[-1][0])
            for i, raw, cp in batch:
                reached = _PROGRESS.unpack_from(progress)[0] if progress is not None else -1
                if i > 0 and (i < skip_until or i <= reached):
                    if i >= skip_until:  # the other process got here first: go ahead of it
                        skip_until = reached + GAP
                    continue
                verdicts = {digest(*t): verify_signature(*t) for t in sigs.of(i, raw, cp)}
                n += len(verdicts)
                if verdicts:
                    out.append((i, verdicts))
            conn.send(("v", batch[-1][0] if batch else -1, out))
        conn.send(("done", time.process_time() - cpu, n))


def _worker_main(conn, progress: mmap.mmap | None) -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C on the terminal: the other process stops it
    try:
        _worker_loop(conn, progress)
    except (EOFError, OSError):  # the other process closed the pipe
        pass


# -- this process -------------------------------------------------------------------------------------
class SignatureProcess:
    """The second process, `python -m afteraction.cli.verify_signatures` (as ReplayProcess): checks
    the signatures of one bundle after the other."""

    def __init__(self) -> None:
        from .pipes import Duplex, widen

        to_worker, from_worker = os.pipe(), os.pipe()
        widen(to_worker[1])
        widen(from_worker[1])  # its verdicts wait there until the Verifier reaches their records
        self.in_pipe = 32 * 1024  # bytes of frames sent and not yet read by the worker, at most:
        try:                      # half the pipe, so that a send never waits
            import fcntl

            self.in_pipe = fcntl.fcntl(to_worker[1], fcntl.F_GETPIPE_SZ) // 2
        except (ImportError, AttributeError, OSError):
            pass
        fds = [to_worker[0], from_worker[1]]
        self.progress = None
        try:  # Linux: a shared counter, so the worker skips what this process already checks
            pfd = os.memfd_create("aar-verify-progress")
            os.ftruncate(pfd, _PROGRESS.size)
            self.progress = mmap.mmap(pfd, _PROGRESS.size)
            fds.append(pfd)
        except (AttributeError, OSError):
            pfd = None
        self.proc = subprocess.Popen([sys.executable, "-m", "afteraction.cli.verify_signatures",
                                      *map(str, fds)], pass_fds=fds, stdin=subprocess.DEVNULL)
        for fd in fds:
            os.close(fd)
        self.conn = Duplex(from_worker[0], to_worker[1])
        self.bundles = 0  # bundles it was given
        self.cpu_s = 0.0  # its CPU seconds on them
        self.verified = 0  # signatures it verified
        self.alive = True

    def close(self) -> None:
        self.conn.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self) -> "SignatureProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Lookahead:
    """One bundle's frames: read ahead and sent to the SignatureProcess (``frames``), and the
    Verifier's ``signature_check`` (``check``). ``patient`` (tests): the worker checks every frame
    sent and ``check`` waits for its verdicts, so that every verdict it has is used."""

    patient = False

    def __init__(self, p: SignatureProcess, header: dict) -> None:
        self.p = p
        self.current = -1  # index of the frame the Verifier checks
        self.answered = -1  # the worker's verdicts have arrived for the frames up to this one
        self.ready: deque[tuple[int, dict]] = deque()  # (index, {digest: verdict}) of frames >= current
        self.hits = self.misses = 0
        self.dropped = 0  # frames not sent: the worker was too far behind
        self.sent = 0  # frames 0 .. sent - 1 were sent (or dropped)
        self.done = False
        self.in_pipe: deque[tuple[int, int]] = deque()  # (last frame index, bytes) of batches sent, maybe unread
        p.bundles += 1
        if p.progress is not None:
            _PROGRESS.pack_into(p.progress, 0, -1, -1)
        self._send(("bundle", header["server_vkey"], header.get("secret")))

    def frames(self, records):
        """``records`` (engine/log/bundle.py), read up to LOOKAHEAD frames ahead. A read error
        (step 1) is raised where ``records`` raised it: after the frames before it."""
        buf: deque = deque()
        batch: list = []
        n = size = 0
        error = None
        while True:
            if len(buf) <= LOOKAHEAD - BATCH:  # refill a batch at a time
                while error is None and len(buf) < LOOKAHEAD and size < READ_AHEAD_BYTES:
                    try:
                        item = next(records, None)
                    except EncodingError as e:
                        error = e
                        break
                    if item is None:
                        error = StopIteration
                        break
                    buf.append(item)
                    size += len(item[0]) + len(item[1])
                    batch.append((n, *item))
                    n += 1
                    if len(batch) >= BATCH:
                        self._send_frames(batch)
                        batch = []
                if batch and (error is not None or not buf or size >= READ_AHEAD_BYTES):
                    self._send_frames(batch)
                    batch = []
            if not buf:
                if error is StopIteration:
                    return
                raise error
            item = buf.popleft()
            size -= len(item[0]) + len(item[1])
            self.current += 1
            self._set_progress(self.current)
            yield item

    def check(self, public: bytes, msg: bytes, sig: bytes) -> bool:
        """``verify_signature(public, msg, sig)``, computed by the worker if it already has."""
        ready = self.ready
        while ready and ready[0][0] < self.current:
            ready.popleft()
        if (not ready or ready[0][0] != self.current) and not self.done:
            self._receive()
            while self.patient and self.answered < self.current and not self.done and self.sent > self.current:
                self._receive(block=True, until=self.current)
            while ready and ready[0][0] < self.current:
                ready.popleft()
        if ready and ready[0][0] == self.current:
            ok = ready[0][1].get(digest(public, msg, sig))
            if ok is not None:
                self.hits += 1
                return ok
        self.misses += 1
        return verify_signature(public, msg, sig)

    def finish(self) -> None:
        """End of this bundle (verified or not): the worker skips what it has left."""
        self._set_progress(2**62)
        self._send(None)
        while not self.done:
            self._receive(block=True)
        self.ready.clear()

    def _send_frames(self, batch: list) -> None:
        """Send a batch unless the worker has half a pipe to read (it is behind, descheduled on a
        busy machine): this process never waits for it; the Verifier checks those frames itself."""
        size = sum(len(x[1]) + len(x[2]) for x in batch)
        if self.p.progress is not None and not self.patient:
            read = struct.unpack_from("<q", self.p.progress, 8)[0]
            while self.in_pipe and self.in_pipe[0][0] <= read:
                self.in_pipe.popleft()
            if sum(b for _, b in self.in_pipe) + size > self.p.in_pipe:
                self.dropped += len(batch)
                return
            self.in_pipe.append((batch[-1][0], size))
        self._send(batch)
        self.sent = batch[-1][0] + 1
        if not self.done:
            self._receive()  # the verdicts the worker has sent: its pipe never fills

    def _set_progress(self, i: int) -> None:
        if self.p.progress is not None and not (self.patient and i < 2**62):
            struct.pack_into("<q", self.p.progress, 0, i)

    def _send(self, msg) -> None:
        if self.done:
            return
        try:
            self.p.conn.send(msg)
        except OSError:  # the process died: every check is computed here
            self.done = True

    def _receive(self, block: bool = False, until: int | None = None) -> None:
        conn = self.p.conn
        try:
            while block or conn.poll():
                msg = conn.recv()
                if msg[0] == "v":
                    self.answered = max(self.answered, msg[1])
                    self.ready.extend(x for x in msg[2] if x[0] >= self.current)
                    if until is not None and self.answered >= until:
                        return
                else:
                    self.p.cpu_s += msg[1]
                    self.p.verified += msg[2]
                    self.done = True
                    return
        except (EOFError, OSError):
            self.done = True


if __name__ == "__main__":  # the signature process: its pipe ends and (Linux) the progress counter
    from afteraction.cli.pipes import Duplex

    _fds = [int(x) for x in sys.argv[1:]]
    _progress = mmap.mmap(_fds[2], _PROGRESS.size) if len(_fds) > 2 else None
    _worker_main(Duplex(_fds[0], _fds[1]), _progress)
