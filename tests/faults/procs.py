"""`aar serve` as a subprocess for the fault suite: started on 127.0.0.1 port 0 in its own
process group (so SIGKILL reaches the parent and every worker at once, as a power cut would),
the listening address and the server key read from its stdout, and always stopped."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading

import grpc

START_TIMEOUT_S = 60
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]  # grpc otherwise shares one connection per target


class Serve:
    def __init__(self, tmp_path, store: str, workers: int = 1) -> None:
        self.tmp_path = tmp_path
        self.store = store
        self.workers = workers
        self.p: subprocess.Popen | None = None
        self.target = ""
        self.vkey = ""
        self.start()

    def start(self) -> "Serve":
        d = self.tmp_path / "data"
        self.errlog = open(self.tmp_path / f"serve-{os.getpid()}-{id(self)}.err", "ab")
        self.p = subprocess.Popen(
            [sys.executable, "-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0",
             "--store", self.store, "--data-dir", str(d), "--workers", str(self.workers)],
            stdout=subprocess.PIPE, stderr=self.errlog, text=True, start_new_session=True,
            env=dict(os.environ, PYTHONUNBUFFERED="1"))
        lines: list[str] = []
        timer = threading.Timer(START_TIMEOUT_S, self.kill9)  # a server that never says it listens
        timer.start()
        try:
            for line in self.p.stdout:
                lines.append(line)
                if line.startswith("server key:"):
                    break
        finally:
            timer.cancel()
        listen = [ln for ln in lines if "listening on" in ln]
        if not listen or not lines[-1].startswith("server key:"):
            self.kill9()
            raise RuntimeError(f"aar serve did not start: {lines!r}")
        self.target = listen[0].strip().rsplit(" ", 1)[1]
        assert self.target.startswith("127.0.0.1:"), self.target
        self.vkey = lines[-1].split(": ", 1)[1].strip()
        return self

    def kill9(self) -> None:
        """SIGKILL to the whole process group: no handler runs, nothing is flushed."""
        if self.p is not None and self.p.poll() is None:
            try:
                os.killpg(self.p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.p.wait(30)
        self._close_files()

    def _close_files(self) -> None:
        if self.p is not None and self.p.stdout is not None and not self.p.stdout.closed:
            self.p.stdout.close()
        if getattr(self, "errlog", None) is not None and not self.errlog.closed:
            self.errlog.close()

    def stop(self) -> None:
        """SIGTERM (a graceful stop), SIGKILL to the group if it does not exit in time."""
        if self.p is None:
            return
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(30)
            except subprocess.TimeoutExpired:
                pass
        try:  # a worker left behind by a parent killed earlier
            os.killpg(self.p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.p.poll() is None:
            self.p.wait(30)
        self._close_files()

    def restart(self) -> "Serve":
        self.stop()
        return self.start()


def own_channel(target: str) -> grpc.Channel:
    ch = grpc.insecure_channel(target, options=OWN_CONNECTION)
    grpc.channel_ready_future(ch).result(timeout=30)
    return ch
