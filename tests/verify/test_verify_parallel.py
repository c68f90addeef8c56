"""`aar verify --jobs 2` (clients/cli/verify_parallel.py, verify_signatures.py): the crypto steps
here, their signatures computed ahead in a signature process, the replay in a replay process, and
the same result as the sequential verifier on every fixture bundle and on logs whose replay and
crypto checks fail at different records."""
from __future__ import annotations

import io
import json
import os

import pytest

from afteraction.cli import verify_parallel as vp
from afteraction.cli import verify_signatures as vs
from afteraction.cli.main import main
from afteraction.engine.errors import EncodingError, VerificationError
from afteraction.engine.log.bundle import read_bundle
from afteraction.engine.log.verify import verify_bundle

from conftest import REPO

from .surgery import bodies, join, rechain, split

MANIFEST = json.loads((REPO / "fixtures" / "conformance.json").read_text())


@pytest.fixture(scope="module")
def process():
    with vp.ReplayProcess() as p:  # one process for the module: each start costs a fraction of a second
        yield p


@pytest.fixture(scope="module")
def signatures():
    with vs.SignatureProcess() as p:
        yield p


@pytest.fixture
def patient(monkeypatch):
    """The signature process checks every frame and the Verifier waits for its verdicts: every
    signature verdict the Verifier uses is then the worker's (``Lookahead.hits``)."""
    monkeypatch.setattr(vs.Lookahead, "patient", True)
    counts = {"hits": 0, "misses": 0}
    finish = vs.Lookahead.finish

    def counting(self):
        counts["hits"] += self.hits
        counts["misses"] += self.misses
        finish(self)
    monkeypatch.setattr(vs.Lookahead, "finish", counting)
    return counts


def _outcome(data: bytes, drive, **kw) -> tuple:
    """What `aar verify --json` prints is made of this: the report, or the failure and its report."""
    try:
        return "verified", verify_bundle(io.BytesIO(data), drive=drive, **kw).as_dict()
    except VerificationError as e:
        return "failed", e.as_dict(), e.report.as_dict() if getattr(e, "report", None) else None


def _both(data: bytes, process, signatures, **kw) -> tuple:
    seq = _outcome(data, vp.driver(1), **kw)
    before, sig_before = process.bundles, signatures.bundles
    par = _outcome(data, vp.driver(2, process, signatures), **kw)
    assert par == seq
    try:
        read_bundle(io.BytesIO(data))
        readable = 1
    except EncodingError:
        readable = 0
    assert signatures.bundles == sig_before + readable  # every pipelined bundle: its signatures checked ahead
    return seq, process.bundles - before


@pytest.mark.parametrize("case", MANIFEST["bundles"],
                         ids=[b["file"].removeprefix("fixtures/") for b in MANIFEST["bundles"]])
def test_parallel_gives_the_sequential_result_on_every_fixture_bundle(process, signatures, case):
    data = (REPO / case["file"]).read_bytes()
    out, used = _both(data, process, signatures)
    assert (out[0] == "verified") is (case["exit"] == 0)
    # the worker replayed (a test of the pipeline, not of the sequential path twice) whenever
    # the header carries the secret, genesis passed and the ruleset version is here (every fixture's
    # but the development version's, SPEC.md 10.4)
    try:
        header = read_bundle(io.BytesIO(data))[0]
    except EncodingError:
        header = {}
    genesis_passed = (out[1] if out[0] == "verified" else out[2] or {}).get("records", 0) >= 1
    assert used == (1 if header.get("secret") is not None and genesis_passed and case.get("replayed", True) else 0)
    _both(data, process, signatures, replay=False)
    if "require_cosigned" in case:
        _both(data, process, signatures, require_cosigned=True)


@pytest.mark.parametrize("case", MANIFEST["bundles"],
                         ids=[b["file"].removeprefix("fixtures/") for b in MANIFEST["bundles"]])
def test_every_signature_verdict_from_the_signature_process_gives_the_sequential_result(
        process, signatures, patient, case):
    """Every fixture (the tampered logs of fixtures/logs/tampered among them: bad signatures,
    cosignatures, sealed commands) with every Ed25519 verdict computed by the signature process."""
    data = (REPO / case["file"]).read_bytes()
    _both(data, process, signatures, replay=False)
    if "require_cosigned" in case:
        _both(data, process, signatures, require_cosigned=True)


def test_the_signature_process_finds_every_signature_the_verifier_checks(process, signatures, patient):
    """The public envelopes', the sealed commands' (the header's secret), the checkpoints' and
    their seat cosignatures: none is left to this process."""
    for f in ("fixtures/logs/duel-complete.aar", "fixtures/logs/tampered/cosigned-by-both.aar",
              "fixtures/golden/ntnd-tet.aar"):
        data = (REPO / f).read_bytes()
        before = dict(patient)
        out, _ = _both(data, process, signatures)
        assert out[0] == "verified"
        assert patient["misses"] == before["misses"] and patient["hits"] > before["hits"] + out[1]["records"]


def test_aar_verify_json_is_the_same_with_jobs_1_and_2(capsys):
    for f in ("fixtures/logs/duel-complete.aar", "fixtures/logs/tampered/wrong-outcome-11.aar"):
        outs = []
        for jobs in ("1", "2"):
            code = main(["verify", "--json", "--jobs", jobs, str(REPO / f)])
            outs.append((code, capsys.readouterr()))
        assert outs[0] == outs[1]
        assert outs[0][1].err == ""  # --json: no progress, no message


# -- failures at different records on each side, across batches and a full window --------------------
@pytest.fixture(scope="module")
def long_duel():
    from afteraction.engine.bots import random_bot
    from afteraction.engine.local import LocalGame

    g = LocalGame.create("duel", seed=b"tests/verify_parallel", options={"rounds": 150})
    g.handshake()
    g.run_bots(random_bot(b"tests/verify_parallel"))
    return g.bundle(), g.server


def _tampered(data: bytes, server, replay_at: int | None, crypto_at: int | None, cut: int | None = None) -> bytes:
    """A dishonest server's log: record ``replay_at`` changed and re-signed (its crypto checks pass,
    its replay does not); the checkpoint of ``crypto_at`` replaced by its predecessor's (step 5);
    the header's count kept while the log is cut to ``cut`` records (step 1)."""
    header, recs = bodies(data)
    if replay_at is not None:
        game, seq, kind, body = recs[replay_at]
        ev = body["events"]
        i = next(i for i, e in enumerate(ev) if e["t"] == "guess")
        body = dict(body, events=ev[:i] + [dict(ev[i], number=ev[i]["number"] % 6 + 1)] + ev[i + 1:])
        recs[replay_at] = (game, seq, kind, body)
    header, frames = split(rechain(header, recs, server))
    if crypto_at is not None:
        frames[crypto_at] = (frames[crypto_at][0], frames[crypto_at - 1][1])
    if cut is not None:
        frames = frames[:cut]
    return join(header, frames)


def _guess_record(data: bytes, near: int) -> int:
    _, recs = bodies(data)
    return next(i for i in range(near, len(recs)) if any(e["t"] == "guess" for e in recs[i][3]["events"]))


@pytest.mark.parametrize("replay_near,crypto_after,cut,want", [
    (200, None, None, "11 (replay)"),        # the replay fails alone, after several windows
    (100, 150, None, "11 (replay)"),         # the replay fails first; the crypto steps 150 records later
    (250, -150, None, "5 (checkpoint)"),     # the crypto steps fail first (the replay never gets there)
    (150, None, 200, "11 (replay)"),         # a log cut short (step 1 at the end) fails its replay first
    (None, None, 200, "1 (bundle)"),
    (7, 1, None, "11 (replay)"),             # in the first batch, neighbours
])
@pytest.mark.parametrize("wait", [False, True], ids=["signatures-as-they-come", "every-signature-from-the-worker"])
def test_the_first_failure_wins_whichever_side_finds_it(process, signatures, long_duel, monkeypatch,
                                                        replay_near, crypto_after, cut, want, wait):
    monkeypatch.setattr(vp, "BATCH", 8)
    monkeypatch.setattr(vp, "WINDOW", 32)  # a window much shorter than the log: this side waits
    monkeypatch.setattr(vs, "LOOKAHEAD", 40)  # read ahead much less than the log
    monkeypatch.setattr(vs, "BATCH", 8)
    monkeypatch.setattr(vs.Lookahead, "patient", wait)
    data, server = long_duel
    at = None if replay_near is None else _guess_record(data, replay_near)
    crypto_at = None if crypto_after is None else at + crypto_after
    out, used = _both(_tampered(data, server, at, crypto_at, cut), process, signatures)
    assert used == 1 and out[0] == "failed" and out[1]["step"] == want
    assert out[1]["seq"] == {"11 (replay)": at, "5 (checkpoint)": crypto_at, "1 (bundle)": cut}[want]
    assert out[2]["records"] == out[1]["seq"]  # the report as far as the sequential verifier got


def test_a_long_log_verifies_through_the_window_and_no_more_is_in_flight(process, signatures, long_duel, monkeypatch):
    monkeypatch.setattr(vp, "BATCH", 8)
    monkeypatch.setattr(vp, "WINDOW", 32)
    most = []
    send = vp._Flight.send

    def counting(self, *a):
        send(self, *a)
        most.append(len(self.flight))
    monkeypatch.setattr(vp._Flight, "send", counting)
    out, used = _both(long_duel[0], process, signatures)
    assert used == 1 and out[0] == "verified" and out[1]["replayed"] is True and out[1]["records"] > 300
    assert max(most) <= 32 and len(most) == out[1]["records"]  # the memory bound: WINDOW records at most


def test_a_replay_process_that_dies_fails_the_log_and_never_verifies_it(signatures, long_duel):
    p = vp.ReplayProcess()
    try:
        p.proc.kill()
        p.proc.wait()
        out = _outcome(long_duel[0], vp.driver(2, p, signatures))
        assert out[0] == "failed" and out[1]["step"] == "11 (replay)" and "stopped" in out[1]["check"]
    finally:
        p.close()


@pytest.mark.parametrize("case", [None,
                                  "fixtures/logs/tampered/forged-seat-signature-6.aar"])
def test_a_signature_process_that_dies_changes_nothing(process, long_duel, patient, case):
    """Its verdicts only spare this process work: without them every check is computed here."""
    data = long_duel[0] if case is None else (REPO / case).read_bytes()
    p = vs.SignatureProcess()
    try:
        p.proc.kill()
        p.proc.wait()
        assert _outcome(data, vp.driver(2, process, p)) == _outcome(data, vp.driver(1))
        assert patient["hits"] == 0 and patient["misses"] > 0
    finally:
        p.close()


def test_a_verdict_is_used_only_for_its_own_key_message_and_signature(monkeypatch):
    """The worker's verdicts are keyed by a hash of the length-prefixed triple: a verdict on other
    bytes (a signature one byte longer, its message one byte shorter) is never taken."""
    from afteraction.engine.crypto.note import Signer

    s = Signer("x", bytes(32))
    msg = b"aar1/command\x00envelope"
    sig = s.sign(msg)
    assert vs.digest(s.public, msg, sig) != vs.digest(s.public, msg[1:], sig + msg[:1])

    class _Conn:
        def send(self, m):
            pass

        def poll(self):
            return False

    class _P:
        progress, conn, bundles, in_pipe = None, _Conn(), 0, 1 << 20

    look = vs.Lookahead(_P(), {"server_vkey": "", "secret": None})
    look.current = 0
    look.ready.append((0, {vs.digest(s.public, msg, sig): True, vs.digest(s.public, b"other", sig): True}))
    assert look.check(s.public, msg, sig) is True and look.hits == 1
    assert look.check(s.public, msg[1:], sig + msg[:1]) is False and look.misses == 1  # computed here
    assert look.check(s.public, b"other", sig) is True  # the worker's verdict (a lie here) on its own triple


# -- when it runs in two processes ----------------------------------------------------------------------
def test_choose_jobs_threshold_and_flags():
    big = {"records": vp.PARALLEL_MIN_RECORDS, "secret": bytes(32)}
    small = {"records": vp.PARALLEL_MIN_RECORDS - 1, "secret": bytes(32)}
    two = (os.cpu_count() or 1) >= 2
    assert vp.choose_jobs("auto", big, True) == (2 if two else 1)
    assert vp.choose_jobs("auto", small, True) == 1
    assert vp.choose_jobs("2", small, True) == 2 and vp.choose_jobs("1", big, True) == 1
    # nothing to replay (a game in progress: no secret; --no-replay): the signatures still go ahead
    assert vp.choose_jobs("2", {"records": 10**6}, True) == 2
    assert vp.choose_jobs("2", big, False) == 2 and vp.choose_jobs("1", big, False) == 1
    assert vp.choose_jobs("auto", {"records": vp.PARALLEL_MIN_RECORDS}, False) == (2 if two else 1)


def test_aar_verify_help_documents_jobs(capsys):
    assert main(["verify", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--jobs {auto,1,2}" in out and str(vp.PARALLEL_MIN_RECORDS) in out


# -- progress on a terminal -----------------------------------------------------------------------------
class _Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def _pty():
    master, slave = os.openpty()
    return master, os.fdopen(slave, "w")


def _read(master: int) -> str:
    import select

    out = b""
    while select.select([master], [], [], 0)[0]:
        out += os.read(master, 65536)
    return out.decode()


def test_progress_on_a_terminal_only_after_a_second():
    master, tty = _pty()
    try:
        clock = _Clock()
        p = vp.TerminalProgress(tty, clock)
        p(10, 1000)
        clock.t += 0.9
        p(500, 1000)
        assert _read(master) == ""  # under a second: nothing
        clock.t += 0.2
        p(600, 1000)
        p(601, 1000)  # within EVERY_S of the last line: not rewritten
        clock.t += 0.5
        p(1000, 1000)
        out = _read(master)
        assert "verifying: 600/1000 records (60%)" in out and "601/" not in out
        assert out.rstrip("\r\n").endswith("1000/1000 records (100%)")
    finally:
        tty.close()
        os.close(master)


def test_no_progress_when_not_a_terminal_or_short(tmp_path):
    clock = _Clock()
    buf = io.StringIO()
    p = vp.TerminalProgress(buf, clock)
    clock.t += 5
    p(10, 20)
    p(20, 20)
    assert buf.getvalue() == ""
    master, tty = _pty()
    try:
        p = vp.TerminalProgress(tty, clock)
        p(20, 20)  # done within the second
        p.close()
        assert _read(master) == ""
    finally:
        tty.close()
        os.close(master)


def test_aar_verify_progress_goes_to_a_terminal_stderr_and_never_with_json(monkeypatch, capsys):
    master, tty = _pty()
    try:
        monkeypatch.setattr(vp.TerminalProgress, "DELAY_S", 0.0)  # the golden log takes under a second here
        monkeypatch.setattr(vp.TerminalProgress, "EVERY_S", 0.0)
        monkeypatch.setattr("sys.stderr", tty)
        log = str(REPO / "fixtures" / "logs" / "duel-complete.aar")
        assert main(["verify", "--json", log]) == 0
        assert _read(master) == ""
        capsys.readouterr()
        assert main(["verify", log]) == 0
        out = _read(master)
        assert "verifying: 12/12 records (100%)" in out
        assert capsys.readouterr().out.startswith("VERIFIED")  # stdout holds the report only
    finally:
        tty.close()
        os.close(master)
