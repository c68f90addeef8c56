"""`aar verify` on two cores: the crypto steps and the rules replay in two processes.

The one Verifier (engine/log/verify.py) does every check; this module only feeds it. Steps 2-10
of a record (encoding, chain, genesis, checkpoint and Merkle root, seat signatures, openings, end,
sealed values, dice) depend on the records before it, and so does step 11 (the replay), but the two
do not depend on each other: they meet only at the verdict of each record. So:

  this process    reads the bundle frame by frame, runs steps 1-10 (``Verifier.add`` with
                  ``replay_apart``) and sends each record that passed them to the worker, in
                  batches of BATCH records;
  the worker      a second Verifier (same arguments) replays those records (``replay_record``)
                  and acknowledges each batch, or sends the first step-11 failure.

Identical result to the sequential verifier (tests/verify/test_verify_parallel.py runs both on
every fixture): the sequential verifier fails at the first record where some step fails, steps
2-10 before step 11. The worker only sees records that passed steps 2-10 here, so a failure of
this process at record c comes after the replay of every record sent (< c): before raising it, the
worker is drained, and a replay failure at r < c wins. The report of a replay failure at r is the
one this process had after steps 2-10 of record r (kept per record in flight).

Memory is bounded: frames are read one at a time (engine/log/bundle.py), and at most WINDOW records
(and their report snapshots) are in flight between the processes before this one waits.

Beside both, a signature process (clients/cli/verify_signatures.py) computes the Ed25519 verdicts
of steps 5, 6 and 9 ahead of this process, which takes each one that has arrived instead of
computing it (same function, same verdict); it runs also when nothing is replayed (a game in
progress, --no-replay, a ruleset not available here).

Below PARALLEL_MIN_RECORDS records (the bundle header's count), or with --jobs 1, verification
stays sequential.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import deque
from typing import Callable, TextIO

from afteraction.engine.errors import VerificationError
from afteraction.engine.log.verify import Report, Verifier, verify_frames, check_end_of_log, next_frame

from .pipes import Duplex, widen

PARALLEL_MIN_RECORDS = 2000  # shorter logs do not repay the replay process's start (0.25-1.7 s here)
BATCH = 128                  # records per message to the worker
WINDOW = 32 * BATCH          # records in flight (sent, not yet acknowledged) before this process waits


def choose_jobs(jobs: str | int | None, header: dict, replay: bool) -> int:
    """1 (sequential) or 2 (pipelined). ``jobs``: "auto"/None, 1 or 2. Auto: 2 for a bundle of at
    least PARALLEL_MIN_RECORDS records on a machine with two cores or more. Pipelined, the
    signatures are checked ahead in a signature process (clients/cli/verify_signatures.py), and
    an ended game's replay (``replay`` and a header with the secret) runs in a replay process."""
    if jobs in (1, "1"):
        return 1
    if jobs in (2, "2"):
        return 2
    return 2 if header["records"] >= PARALLEL_MIN_RECORDS and (os.cpu_count() or 1) >= 2 else 1


def driver(jobs: str | int | None = "auto", process: "ReplayProcess | None" = None,
           signatures=None) -> Callable:
    """A ``drive`` for ``verify_bundle``: sequential or pipelined as ``choose_jobs`` says. ``process``
    (a ReplayProcess), ``signatures`` (a verify_signatures.SignatureProcess): kept for several
    bundles (a test, a benchmark); by default each pipelined bundle starts its own and stops them
    at the end."""
    def drive(v: Verifier, header: dict, records, progress) -> Report:
        if choose_jobs(jobs, header, v.want_replay) == 1:
            return verify_frames(v, header, records, progress)
        from .verify_signatures import Lookahead, SignatureProcess

        sp = signatures if signatures is not None else SignatureProcess()
        look = Lookahead(sp, header)
        v.signature_check = look.check
        ok = False
        try:
            report = _pipelined(v, header, look.frames(records), progress, process)
            ok = True
            return report
        except VerificationError:
            ok = True
            raise
        finally:
            v.signature_check = None
            if ok:
                look.finish()
            if signatures is None or not ok:  # interrupted: the process's state is unknown
                sp.close()
    return drive


# -- the pipeline ------------------------------------------------------------------------------------
class ReplayProcess:
    """The second process, `python -m afteraction.cli.verify_parallel` (not multiprocessing's spawn,
    which re-runs the caller's main script): replays the records of one bundle after the other."""

    def __init__(self) -> None:
        to_worker, from_worker = os.pipe(), os.pipe()
        widen(to_worker[1])
        self.proc = subprocess.Popen([sys.executable, "-m", "afteraction.cli.verify_parallel",
                                      str(to_worker[0]), str(from_worker[1])],
                                     pass_fds=(to_worker[0], from_worker[1]), stdin=subprocess.DEVNULL)
        os.close(to_worker[0])
        os.close(from_worker[1])
        self.conn = Duplex(from_worker[0], to_worker[1])
        self.bundles = 0  # bundles it was given
        self.cpu_s = 0.0  # CPU seconds it spent on them (the benchmark's critical path)

    def close(self) -> None:
        self.conn.close()  # the worker reads the end of its input and exits
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self) -> "ReplayProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class _Flight:
    """One bundle's records in flight to the ReplayProcess."""

    def __init__(self, p: ReplayProcess, header: dict) -> None:
        self.p = p
        self.batch: list[tuple] = []  # (record bytes, opened, unsealed)
        self.flight: deque[tuple[int, Report]] = deque()  # (seq, report after its steps 2-10), unacknowledged
        self.acked = 0  # records the worker replayed
        self.failure: VerificationError | None = None
        self.done: tuple | None = None
        p.bundles += 1
        self._send(("bundle", header["server_vkey"], header.get("secret"), header["game"]))

    def send(self, raw: bytes, seq: int, report: Report, opened: tuple | None = None,
             unsealed: dict | None = None) -> None:
        self.batch.append((raw, opened, unsealed))
        self.flight.append((seq, report))
        if len(self.batch) >= (BATCH if seq >= BATCH else min(16, BATCH)) or seq == 0:  # start early
            self.flush()
        while len(self.flight) > WINDOW and self.failure is None:
            self._receive()

    def flush(self) -> None:
        if self.batch and self.failure is None:
            self._send(self.batch)
        self.batch = []
        while self.failure is None and self.p.conn.poll():
            self._receive()

    def drain(self) -> None:
        """Wait for the verdict on every record sent; raise the replay failure if there is one."""
        self.flush()
        self._send(None)  # end of this bundle's records
        while self.done is None:
            self._receive()
        if self.failure is not None:
            raise self.failure

    def _send(self, msg) -> None:
        if self.done is not None:
            return
        try:
            self.p.conn.send(msg)
        except OSError:  # BrokenPipeError: the process died
            self._stopped()

    def _receive(self) -> None:
        try:
            msg = self.p.conn.recv()
        except (EOFError, OSError):
            self._stopped()
            return
        if msg[0] == "ok":
            while self.flight and self.flight[0][0] < msg[1]:
                self.flight.popleft()
            self.acked = msg[1]
        elif msg[0] == "fail":
            self._fail(VerificationError(*msg[1]), msg[1][1])
        else:
            self.done = msg[1:]
            self.p.cpu_s += msg[3]

    def _stopped(self) -> None:
        """The replay process is gone (killed, out of memory): the log is not verified."""
        seq = self.flight[0][0] if self.flight else self.acked
        try:
            code = self.p.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            code = None
        if self.failure is None:
            self._fail(VerificationError("11 (replay)", seq, "the replay process stopped (the log is not verified)",
                                         detail=f"exit code {code}"), seq)
        self.done = ([], False)

    def _fail(self, e: VerificationError, seq: int) -> None:
        while self.flight and self.flight[0][0] < seq:
            self.flight.popleft()
        e.report = self.flight[0][1] if self.flight else None
        self.failure = e


def _snapshot(r: Report, seq: int) -> Report:
    """The report as the sequential verifier has it when step 11 of record ``seq`` fails."""
    s = Report(**{k: (list(x) if type(x) is list else x) for k, x in r.__dict__.items()})
    s.records = seq
    return s


def _pipelined(v: Verifier, header: dict, records, progress, process: ReplayProcess | None) -> Report:
    total = header["records"]
    own = None
    w: _Flight | None = None
    try:
        while True:
            try:
                item = next_frame(v, records)
                if item is None:
                    break
                rec = v.add(*item)
            except VerificationError:
                if w is not None:
                    _join(v, w)  # a replay failure at an earlier record comes first
                raise
            if w is None and rec.seq == 0 and v.referee is not None:  # genesis: the game is replayed
                v.replay_apart = True
                if process is None:
                    process = own = ReplayProcess()
                w = _Flight(process, header)
            if w is not None:
                o = v.handoff.opened  # a sealed command step 9 opened: the replay does not open it again
                p = v.handoff.unsealed  # the hidden values step 9 opened: the replay does not seal them again
                w.send(rec.raw, rec.seq, _snapshot(v.report, rec.seq),
                       o[1:] if o is not None and o[0] == rec.seq else None,
                       p[1] if p is not None and p[0] == rec.seq and p[1] else None)
                if w.failure is not None:
                    _join(v, w)  # the first failure of the log: nothing after it matters
            if progress is not None:
                progress(w.acked if w is not None else v.report.records, total)
        if w is not None:
            _join(v, w)
        check_end_of_log(v, header)
        report = v.finish()
        if progress is not None:
            progress(report.records, total)
        return report
    except VerificationError as e:
        if w is not None and w.failure is e and e.report is not None:
            v.report = e.report  # verify_bundle reports what was verified before the failure
        raise
    except BaseException:  # KeyboardInterrupt, a broken pipe...: the process's state is unknown
        if process is not None and own is None:
            process.close()
        raise
    finally:
        if own is not None:
            own.close()


def _join(v: Verifier, w: _Flight) -> None:
    """Every record sent replayed: the replay's state at the end of the log is the Verifier's, as if
    it had replayed them itself (``finish`` checks it). Raises the replay failure if there is one."""
    w.drain()
    v.expected, v.report.replayed = w.done[0], w.done[1]
    v.replay_apart = False


def _worker_main(conn) -> None:
    """The replay process. Per bundle: ("bundle", server key, secret, game), batches of records, None;
    it answers each batch with ("ok", records replayed) or, once, ("fail", error), and the None with
    ("done", records the replay produced ahead of the log, replayed, its CPU seconds on the bundle)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C on the terminal: the other process stops it
    try:
        _worker_loop(conn)
    except (EOFError, OSError):  # the other process closed the pipe (it stopped, or was interrupted)
        pass


def _worker_loop(conn) -> None:
    from afteraction.engine import registry

    while True:
        msg = conn.recv()
        _, server_vkey, secret, game = msg
        cpu = time.process_time()
        # in place, as verify_bundle's: this Verifier keeps no state or view of an earlier record, and
        # copying the state before each command cost the replay about 40% (bench campaign, 2026-12-02)
        rv = Verifier(server_vkey, None, secret, True, registry.get, game, replay_in_place=True)
        failed = False
        while (batch := conn.recv()) is not None:
            if failed:
                continue  # keep reading: the other side may be blocked sending
            try:
                for raw, opened, unsealed in batch:
                    rv.replay_record(raw, opened, unsealed)
            except VerificationError as e:
                failed = True
                conn.send(("fail", (e.step, e.seq, e.check, e.expected, e.found, e.detail)))
                continue
            conn.send(("ok", rv.report.records))
        conn.send(("done", rv.expected, rv.report.replayed, time.process_time() - cpu))


# -- progress on a terminal --------------------------------------------------------------------------
class TerminalProgress:
    """``progress(done, total)`` for verify_bundle: on a terminal only (``stream.isatty()``), and only
    once verification has taken DELAY_S seconds (a short log prints nothing); one line rewritten in
    place, ended when done == total. ``aar verify --json`` passes no progress at all."""

    DELAY_S = 1.0
    EVERY_S = 0.1

    def __init__(self, stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        try:
            self.on = self.stream.isatty()
        except (AttributeError, ValueError):
            self.on = False
        self.start = clock()
        self.last = None
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        if not self.on:
            return
        now = self.clock()
        end = done >= total
        if now - self.start < self.DELAY_S or (not end and self.last is not None and now - self.last < self.EVERY_S):
            return
        if end and not self.shown:
            return  # the log took under a second... or finished before the first line: nothing to end
        self.last = now
        self.shown = True
        pct = 100 * done // total if total else 100
        self.stream.write(f"\rverifying: {done}/{total} records ({pct}%)" + ("\n" if end else ""))
        self.stream.flush()
        if end:
            self.on = False

    def close(self) -> None:
        """End a line left open (verification stopped before the last record)."""
        if self.on and self.shown:
            self.stream.write("\n")
            self.stream.flush()
        self.on = False


if __name__ == "__main__":  # the replay process: its two pipe ends, from ReplayProcess
    _worker_main(Duplex(int(sys.argv[1]), int(sys.argv[2])))
