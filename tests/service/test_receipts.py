"""Over the real service (port 0, SQLite) with the reference client: every
envelope is written durably before it is sent and answered with a signed receipt (SPEC.md 7.5);
a forged time-out or a received command missing from the log leaves the wronged seat a proof that
`aar evidence` accepts, and the seat does not cosign such an end. The dishonest server is the real
one with its clock or its store patched (the service's clock is injected: nothing sleeps); a
rewritten log is re-signed with the server's own key, as only a dishonest server could."""
from __future__ import annotations

import io
import json
import os

import grpc
import pytest

from afteraction.cli.main import main as aar
from afteraction.client.client import Client, ClientError
from afteraction.client.seat import Seat
from afteraction.engine import receipt as R
from afteraction.engine.crypto.merkle import CompactTree
from afteraction.engine.errors import Rejection
from afteraction.engine.local import checkpoint_note, derive_bytes
from afteraction.engine.log.bundle import read_bundle, write_bundle
from afteraction.engine.protocol import parse_record
from afteraction.engine.referee import Referee
from afteraction.engine import registry
from afteraction.engine.seat import SeatSigner
from afteraction.service.store import StoreError
from afteraction.v1 import game_service_pb2 as gs

from .conftest import handshake

T0 = 1_764_000_000_000


class FakeClock:
    def __init__(self) -> None:
        self.t = T0

    def __call__(self) -> int:
        return self.t


def duel(server, tmp_path, clock=None, seed: bytes = b"receipts"):
    fake = FakeClock()
    server.games.now = fake
    c = Client(server.target, timeout=10)
    keys = {s: derive_bytes(seed, f"key/{s}") for s in ("a", "b")}
    gid = c.create_game("duel", {s: SeatSigner(s, k).public for s, k in keys.items()}, clock=clock).game_id
    faults = {s: [] for s in keys}
    seats = {s: Seat(c, gid, s, keys[s], entropy=derive_bytes(seed, f"entropy/{s}"),
                     checkpoint_file=str(tmp_path / f"{s}.checkpoint"), on_fault=faults[s].append) for s in keys}
    return c, gid, seats, fake, faults


def export(c: Client, gid: str, tmp_path) -> str:
    path = tmp_path / f"{gid}.aar"
    path.write_bytes(c.export(gid))
    return str(path)


def run(capsys, *args) -> tuple[int, str]:
    capsys.readouterr()
    code = aar(list(args))
    return code, capsys.readouterr().out


def kept(seat: Seat, ext: str) -> list[str]:
    d = seat.evidence_folder
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith("." + ext))


def test_every_answer_carries_a_receipt_the_client_checks_and_keeps_until_the_record_is_verified(server, tmp_path):
    c, gid, seats, fake, faults = duel(server, tmp_path)
    handshake(seats)
    a = seats["a"]
    lg = a.legal()
    signed = a.sign_command(lg.state_seq, lg.commands[0])
    res = a.submit(signed)
    key = a.verifier.server.public
    assert R.problem(res.receipt, key, gs_envelope(signed)) is None
    assert (res.receipt.decision, res.receipt.seq, res.receipt.received_ms) == ("accepted", res.records[0].seq, T0)
    # a refusal (an RPC error) carries its receipt beside its ErrorInfo
    with pytest.raises(ClientError) as e:
        a.submit(a.sign_command(a.next_seq, lg.commands[0]))
    assert e.value.reason == "NOT_YOUR_DECISION" and e.value.receipt.decision == "refused/NOT_YOUR_DECISION"
    assert R.problem(e.value.receipt, key) is None
    # the Play stream's acceptances carry theirs (the game played to its end by both seats)
    from afteraction.engine.bots import random_bot

    bot = random_bot(b"r")
    import threading

    outs = {}
    ts = [threading.Thread(target=lambda s=s: outs.__setitem__(s, seats[s].play(bot))) for s in ("a", "b")]
    for t in ts:
        t.start()
    for t in ts:
        t.join(60)
    assert outs["a"] is not None and faults == {"a": [], "b": []}
    # every envelope was carried by a verified record or refused with a verified receipt: nothing is left
    assert kept(a, "env") == [] and kept(seats["b"], "env") == []
    assert a.cosigned_size == a.next_seq and a.withheld is None


def gs_envelope(signed: bytes) -> bytes:
    from afteraction.v1 import envelope_pb2

    return envelope_pb2.SignedCommand.FromString(signed).envelope


def test_a_missing_or_bad_receipt_is_a_server_fault_reported_and_kept(server, tmp_path, monkeypatch):
    c, gid, seats, fake, faults = duel(server, tmp_path)
    handshake(seats)
    a = seats["a"]
    from afteraction.service import servicer as S

    monkeypatch.setattr(S.GameServicer, "_receipt", lambda self, cmd, env, code, res=None, at=None:
                        R.make(lambda m: bytes(64), cmd.envelope, env, code, 0 if res is None else res.records[0].seq,
                               at or 0))
    lg = a.legal()
    a.submit(a.sign_command(lg.state_seq, lg.commands[0]))
    assert len(faults["a"]) == 1 and "signature does not verify" in faults["a"][0]
    d = a.evidence_folder
    fault = [f for f in os.listdir(d) if f.startswith("fault-")]
    assert len(fault) == 1 and "signature does not verify" in open(os.path.join(d, fault[0])).read()


def test_the_envelope_is_on_disk_before_it_is_sent_and_a_time_out_at_its_position_is_not_cosigned(
        server, tmp_path, capsys, monkeypatch):
    """Found item 1: a server that never answers seat a and writes a time-out. Before the fix the
    client kept nothing (the envelope was written only after a refusal) and cosigned the end."""
    c, gid, seats, fake, faults = duel(server, tmp_path, clock={"decision_ms": 60_000})
    handshake(seats)
    a = seats["a"]
    lg = a.legal()
    signed = a.sign_command(lg.state_seq, lg.commands[0])
    games = server.games
    seen_on_disk = []

    def never_answers(live, cmd):  # the dishonest server: drops it, and its clock jumps
        seen_on_disk.append([open(p, "rb").read() for p in kept(a, "env")])
        fake.t += 60_001
        raise StoreError("dropped")
    monkeypatch.setattr(games, "_accept", never_answers)
    with pytest.raises(ClientError):
        a.submit(signed, retries=0)
    assert seen_on_disk == [[signed]]
    monkeypatch.undo()
    server.games.now = fake
    assert json.loads(c.state(gid).cause_json)["kind"] == "timeout"  # written on the next use
    a.catch_up()
    assert a.outcome is not None and a.cosigned_size == 0 and "does not cosign" in a.withheld
    env_file = kept(a, "env")
    assert len(env_file) == 1 and open(env_file[0], "rb").read() == signed
    bundle = export(c, gid, tmp_path)
    code, out = run(capsys, "evidence", env_file[0], bundle)
    assert code == 3 and "CONTESTED" in out and f"a time-out of seat a" in out, out
    code, out = run(capsys, "verify", bundle, "--server-key", c.server_vkey(), "--require-cosigned")
    assert code != 0  # the wronged seat withheld its cosignature


@pytest.mark.parametrize("clock,kind", [({"decision_ms": 60_000}, "timeout"), ({"abandon_ms": 60_000}, "abandon")])
def test_a_forged_time_out_is_proved_by_the_receipt(server, tmp_path, capsys, monkeypatch, clock, kind):
    """Found item 1: seat a answers at once; the server refuses it TIME_EXPIRED as if its clock had
    passed the deadline and writes the time-out (or, with only an abandonment limit, the
    abandonment). Its own receipt says it had the envelope in time."""
    c, gid, seats, fake, faults = duel(server, tmp_path, clock=clock)
    handshake(seats)
    a = seats["a"]
    lg = a.legal()
    fake.t += 1_000  # a answers after one second
    signed = a.sign_command(lg.state_seq, lg.commands[0])
    games = server.games
    orig = games._accept

    def lies_about_time(live, cmd):
        true = fake.t
        fake.t += 120_000  # the server's clock "jumps" past the deadline
        try:
            return orig(live, cmd)
        except Rejection as e:
            e.received_ms = true  # its receipt still says when it had the envelope
            raise
    monkeypatch.setattr(games, "_accept", lies_about_time)
    with pytest.raises(ClientError) as e:
        a.submit(signed)
    monkeypatch.undo()
    assert e.value.reason == "TIME_EXPIRED" and e.value.receipt.received_ms == T0 + 1_000 and faults["a"] == []
    assert json.loads(c.state(gid).cause_json)["kind"] == kind
    a.catch_up()
    assert a.cosigned_size == 0 and a.withheld  # a does not cosign its own forged time-out
    receipt = tmp_path / f"a.checkpoint.refused-{e.value.receipt.counter}.receipt"
    assert receipt.exists()
    bundle = export(c, gid, tmp_path)
    code, out = run(capsys, "evidence", str(receipt), bundle)
    assert code == 1 and f"the {kind} is forged" in out, out
    # the same receipt under another key proves nothing
    other = gs.Receipt.FromString(receipt.read_bytes())
    other.signature = bytes(64)
    (tmp_path / "bad.receipt").write_bytes(other.SerializeToString())
    code, out = run(capsys, "evidence", str(tmp_path / "bad.receipt"), bundle)
    assert code == 0 and "proves nothing" in out


def rewrite_from(server, gid: str, bundle: str, keep: int, end_at) -> bytes:
    """A dishonest server's rewrite: records 0..keep-1 of the game, then a time-out written by its
    own referee at ``end_at``, re-signed with its own key (the log verifies)."""
    games = server.games
    live = games._live[gid]
    secret = live.referee._secret
    with open(bundle, "rb") as f:
        header, frames = read_bundle(f)
        recs = [parse_record(raw) for raw, _ in frames]
    g = recs[0]
    ref = Referee(g, registry.get(g.body["ruleset"]["game"], g.body["ruleset"]["version"]), secret)
    from afteraction.v1 import envelope_pb2

    for r in recs[1:keep]:
        sc = envelope_pb2.SignedCommand(envelope=r.body["env"], signature=r.body["sig"]).SerializeToString()
        ref.accept(sc, now=r.body["at"])
    out_recs = recs[:keep] + ref.expire(end_at).records
    tree, out = CompactTree(), []
    origin = g.body["server"]["origin"]
    for r in out_recs:
        tree.append(r.leaf)
        out.append((r.raw, checkpoint_note(games.signer, origin, tree.size, tree.root())))
    buf = io.BytesIO()
    write_bundle(buf, header["game"], header["server_vkey"], out, len(out), secret)
    return buf.getvalue()


def test_an_accepted_command_missing_from_the_log_is_proved_by_its_receipt(server, tmp_path, capsys):
    """The server accepts seat a's command (its signed receipt says so), then shows a log in which a
    timed out at that position instead: the log verifies, the receipt proves the command missing."""
    c, gid, seats, fake, faults = duel(server, tmp_path, clock={"decision_ms": 60_000})
    handshake(seats)
    a = seats["a"]
    lg = a.legal()
    fake.t += 1_000
    signed = a.sign_command(lg.state_seq, lg.commands[0])
    res = a.submit(signed)
    receipt = tmp_path / "accepted.receipt"
    receipt.write_bytes(res.receipt.SerializeToString())
    honest = export(c, gid, tmp_path)
    code, out = run(capsys, "evidence", str(receipt), honest)
    assert code == 0 and "carries the envelope" in out, out
    forged = tmp_path / "forged.aar"
    forged.write_bytes(rewrite_from(server, gid, honest, lg.state_seq, T0 + 61_001))
    code, out = run(capsys, "verify", str(forged), "--server-key", c.server_vkey())
    assert code == 0, out  # the rewritten log verifies on its own
    code, out = run(capsys, "evidence", str(receipt), str(forged))
    assert code == 1 and "missing from the log" in out, out


def test_a_receipt_after_the_deadline_is_consistent_with_an_honest_time_out(server, tmp_path, capsys):
    c, gid, seats, fake, faults = duel(server, tmp_path, clock={"decision_ms": 5_000})
    handshake(seats)
    a = seats["a"]
    lg = a.legal()
    signed = a.sign_command(lg.state_seq, lg.commands[0])
    fake.t += 5_001
    with pytest.raises(ClientError) as e:
        a.submit(signed)
    assert e.value.reason == "GAME_OVER" and faults["a"] == []
    assert e.value.receipt.received_ms == T0 + 5_001
    receipt = tmp_path / f"a.checkpoint.refused-{e.value.receipt.counter}.receipt"
    code, out = run(capsys, "evidence", str(receipt), export(c, gid, tmp_path))
    assert code == 0 and "after it" in out, out
