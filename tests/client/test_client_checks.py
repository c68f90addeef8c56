"""The reference client checks before it signs, with the verifier of `aar verify` run
as records arrive. Played as a dishonest server against the real client class: an early reveal
prompt (attack 1), a foreign log (attack 3), a position the seat has not verified (attack 4);
and a seat keeps its latest verified checkpoint for `aar verify --checkpoint` (SPEC.md 11)."""
from __future__ import annotations

import io
import json
import threading

import pytest

from afteraction.cli import main as cli
from afteraction.client.client import BadLog, Client, RefusedToSign, new_seat_key
from afteraction.client.seat import Seat
from afteraction.engine.bots import random_bot
from afteraction.engine.crypto.merkle import CompactTree
from afteraction.engine.local import checkpoint_note
from afteraction.engine.protocol import make_record
from afteraction.engine.log.verify import verify_bundle
from afteraction.engine.referee import Referee
from afteraction.engine import registry
from afteraction.engine.seat import SeatSigner
from afteraction.v1 import audit_service_pb2 as au
from afteraction.v1 import command_pb2
from afteraction.v1 import game_service_pb2 as gs


def new_game(c: Client, keys: dict[str, bytes]) -> str:
    return c.create_game("duel", {s: SeatSigner(s, k).public for s, k in keys.items()}).game_id


def records_of(c: Client, gid: str) -> list[gs.LogRecord]:
    return list(c.audit.GetRecords(au.GetRecordsRequest(game_id=gid)).records)


@pytest.fixture
def duel(server):
    c = Client(server.target)
    keys = {s: new_seat_key() for s in ("a", "b")}
    gid = new_game(c, keys)
    seats = {s: Seat(c, gid, s, keys[s]) for s in keys}
    yield c, gid, keys, seats
    c.close()


def _cmd(action: str, n: int) -> command_pb2.Command:
    c = command_pb2.Command()
    getattr(c.duel, action).number = n
    return c


def test_issue_23_attack_1_the_client_refuses_to_reveal_before_every_commit_is_in_its_log(duel):
    """The server prompts seat a for entropy again right after a's own commit: the client must
    not reveal while b's commitment is not in the log it verified (SPEC.md 5.2)."""
    c, gid, keys, seats = duel
    a = seats["a"]
    a.submit(a.sign_commit())
    prompt = gs.YourDecision(state_seq=a.next_seq, decision=gs.Decision(seat="*", kind="entropy"))
    with pytest.raises(RefusedToSign, match="no entropy commitment of seat b"):
        a.decide(prompt, random_bot(b"x"))
    with pytest.raises(RefusedToSign):
        a.sign_reveal()
    b = seats["b"]
    b.submit(b.sign_commit())
    assert a.decide(prompt, random_bot(b"x")) is not None  # now in a's verified log (read from the server)


def test_issue_23_attack_3_the_client_refuses_a_foreign_log(server, duel):
    """The server streams another game's records to seat a of this game: refused at record 0
    (step 4, game id); a seat that saw a bad log signs nothing more."""
    c, gid, keys, seats = duel
    other = new_game(c, keys)  # same seats and keys, another game
    seats["a"].catch_up()
    seats["a"].submit(seats["a"].sign_commit())
    b = Seat(c, other, "b", keys["b"])
    b.submit(b.sign_commit())
    a = Seat(c, gid, "a", keys["a"])
    with pytest.raises(BadLog) as e:
        for r in records_of(c, other):
            a.see_record(r)
    assert (e.value.error.step, e.value.error.seq) == ("4 (genesis)", 0)
    assert (e.value.error.expected, e.value.error.found) == (gid, other)
    with pytest.raises(BadLog):
        a.sign_command(a.next_seq, duel_pick())


def duel_pick():
    return _cmd("pick", 3)


def _fake_genesis(server, gid, seat_keys, origin=None, vkey=None):
    """A genesis record of game ``gid`` written by the server with the keys it likes, and its
    checkpoint, as a LogRecord."""
    signer = server.service.games.signer
    rs = registry.get("duel")
    origin = origin or f"{signer.name}/game/{gid}"
    gen = Referee.new_genesis(gid, rs, "standard", {}, seat_keys, vkey or signer.verifier.vkey, origin, bytes(32))
    t = CompactTree()
    t.append(gen.leaf)
    return gs.LogRecord(seq=0, record=gen.raw, record_hash=gen.hash,
                        checkpoint=checkpoint_note(signer, origin, 1, t.root()))


def test_issue_23_attack_3_the_client_checks_genesis_key_origin_and_server_key(server, duel):
    c, gid, keys, seats = duel
    pub = {s: SeatSigner(s, k).public for s, k in keys.items()}
    cases = [
        ({**pub, "a": SeatSigner("a", bytes(range(1, 33))).public}, {}, "4 (genesis)",
         "seat a key differs from the pinned key"),
        (pub, {"origin": f"elsewhere/game/{gid}"}, "4 (genesis)", "checkpoint origin in genesis"),
    ]
    for seat_keys, kw, step, check in cases:
        a = Seat(c, gid, "a", keys["a"])
        with pytest.raises(BadLog) as e:
            a.see_record(_fake_genesis(server, gid, seat_keys, **kw))
        assert (e.value.error.step, e.value.error.seq) == (step, 0) and check in e.value.error.check, e.value
    # a server key other than the one the seat was given
    from afteraction.engine.crypto.note import Signer

    other = Signer("afteraction.local", bytes(range(32))).verifier.vkey
    a = Seat(c, gid, "a", keys["a"], server_vkey=other)
    with pytest.raises(BadLog) as e:
        a.see_record(records_of(c, gid)[0])
    assert e.value.error.step == "4 (genesis)" and "pinned" in e.value.error.check
    # the honest genesis passes with the right key pinned
    a = Seat(c, gid, "a", keys["a"], server_vkey=server.vkey)
    a.see_record(records_of(c, gid)[0])
    assert a.next_seq == 1


def test_issue_23_attack_4_the_client_refuses_a_position_it_has_not_verified(duel):
    """The server asks seat b to sign for state 9 while the log b verified (and the server's own
    log) holds 6 records: refused; nor does b sign for a state behind its verified log."""
    c, gid, keys, seats = duel
    for s in seats.values():
        s.submit(s.sign_commit())
    for s in seats.values():
        s.submit(s.sign_reveal())
    a, b = seats["a"], seats["b"]
    a.submit(a.sign_command(c.state(gid).state_seq, _cmd("pick", 2)))
    b.catch_up()
    assert b.next_seq == 6
    prompt = gs.YourDecision(state_seq=9, decision=gs.Decision(seat="b", kind="guess"),
                             legal_commands=[_cmd("guess", 1)])
    with pytest.raises(RefusedToSign, match="state 9, but the log it verified ends at state 6"):
        b.decide(prompt, lambda seat, legal: legal[0])
    with pytest.raises(RefusedToSign):
        b.sign_command(5, _cmd("guess", 1))
    signed = b.sign_command(6, _cmd("guess", 1))
    res = b.submit(signed)  # the end of its verified log: signed and accepted
    assert res.records[0].seq == 6
    a.submit(a.sign_command(c.state(gid).state_seq, _cmd("pick", 4)))
    b.catch_up()
    again = b.submit(signed)  # a retry answered late: its records and checkpoint are older than b's log
    assert again.duplicate and b.next_seq == 8


def test_seats_keep_their_checkpoint_and_aar_verify_checks_a_bundle_against_it(server, tmp_path, capsys):
    c = Client(server.target)
    keys = {s: new_seat_key() for s in ("a", "b")}
    gid = new_game(c, keys)
    files = {s: str(tmp_path / f"{s}.checkpoint") for s in keys}
    seats = {s: Seat(Client(server.target), gid, s, keys[s], server_vkey=server.vkey, checkpoint_file=files[s])
             for s in keys}
    ts = [threading.Thread(target=s.play, args=(random_bot(s.seat.encode()),)) for s in seats.values()]
    for t in ts:
        t.start()
    for t in ts:
        t.join(60)
    n = len(records_of(c, gid))
    kept = open(files["a"]).read()
    assert kept.split("\n")[1] == str(n)  # the final checkpoint
    bundle = c.export(gid)
    path = tmp_path / "g.aar"
    path.write_bytes(bundle)
    capsys.readouterr()
    assert cli.main(["verify", str(path), "--server-key", server.vkey, "--checkpoint", files["a"]]) == 0
    assert f"kept checkpoint: the log holds its tree size {n} with the same root" in capsys.readouterr().out
    # a log cut before the seat's checkpoint (a valid game in progress on its own) fails step 5
    from afteraction.engine.log.bundle import read_bundle, write_bundle

    header, frames = read_bundle(io.BytesIO(bundle))
    frames = list(frames)[:6]
    out = io.BytesIO()
    write_bundle(out, gid, header["server_vkey"], frames, len(frames), None)
    short = tmp_path / "short.aar"
    short.write_bytes(out.getvalue())
    assert verify_bundle(io.BytesIO(out.getvalue())).records == 6
    assert cli.main(["verify", str(short), "--json", "--checkpoint", files["a"]]) == 1
    d = json.loads(capsys.readouterr().out)
    assert (d["step"], d["seq"]) == ("5 (checkpoint)", 6) and "shorter" in d["check"]
    # a checkpoint of another game, and an unreadable file
    other = tmp_path / "other.checkpoint"
    other.write_text(checkpoint_note(server.service.games.signer, "afteraction.local/game/0000", n, bytes(32)))
    assert cli.main(["verify", str(path), "--json", "--checkpoint", str(other)]) == 1
    assert json.loads(capsys.readouterr().out)["step"] == "5 (checkpoint)"
    assert cli.main(["verify", str(path), "--checkpoint", str(tmp_path / "missing")]) == 2
    # a restarted seat requires the log to match the checkpoint it kept
    again = Seat(c, gid, "a", keys["a"], checkpoint_file=files["a"])
    again.catch_up()
    assert again.next_seq == n
    with pytest.raises(BadLog) as e:
        Seat(c, gid, "a", keys["a"], checkpoint_file=str(other)).catch_up()
    assert (e.value.error.step, e.value.error.seq) == ("5 (checkpoint)", 0)
    c.close()
