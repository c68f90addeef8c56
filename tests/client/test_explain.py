"""`aar explain`: the evidence for one record, roll or hidden value, on the golden logs of each
game, on logs forged by a dishonest server (fixtures/logs/tampered) and on a game in progress."""
from __future__ import annotations

import io
import json
import pathlib

import jsonschema
import pytest

from afteraction.cli.main import main
from afteraction.cli.logwalk import envelope_fields
from afteraction.engine.log.bundle import read_bundle, write_bundle
from afteraction.engine.log.verify import verify_bundle
from afteraction.v1 import envelope_pb2

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "fixtures" / "golden"
TAMPERED = ROOT / "fixtures" / "logs" / "tampered"
SCHEMA = json.loads((ROOT / "docs" / "explain.schema.json").read_text())


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = main(["explain", *map(str, argv)])
    out, err = capsys.readouterr()
    return rc, out, err


def run_json(capsys, *argv) -> tuple[int, dict]:
    rc, out, _ = run(capsys, *argv, "--json")
    d = json.loads(out)
    jsonschema.validate(d, SCHEMA)  # every JSON output of these tests follows the documented schema
    return rc, d


def oks(checks) -> list:
    return [c["ok"] for c in checks]


def test_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_record_with_a_roll_sog(capsys):
    """SOG record 10: the team moves, the SOG 3.5 contact roll; every derivation step is shown
    and checked, the signed envelope is printed field by field with what it is bound to."""
    rc, d = run_json(capsys, GOLDEN / "sog.aar", "--record", 10)
    assert rc == 0 and d["verification"]["verified"] and d["verification"]["replayed"]
    r = d["record"]
    s = r["submitter"]
    assert s["seat"] == "sog" and s["key"] == d["seats"][0]["key"] and not s["sealed"]
    assert s["envelope"]["state_seq"] == 10 and s["envelope"]["counter"] == s["counter"]
    assert set(s["bound_to"]) >= {"game_id", "seat", "counter", "state_seq"} and "command" not in s["bound_to"]
    assert s["command"] == 'sog { move { square: "6-E" } }'
    assert all(oks(s["checks"])) and all(oks(r["checks"]))
    assert r["decision"]["seat"] == "sog" and "SOG 3.9" in r["decision"]["prompt"]
    assert "SOG 3.5" in r["rules_cited"]
    (roll,) = r["rolls"]
    assert roll["index"] == 8 and roll["die"] == "d10"
    assert roll["derived"]["faces"] == roll["logged"]["faces"] == [roll["faces"][0]["face"]]
    att = roll["faces"][0]["attempts"][0]
    assert att["hmac_input"].startswith(b"aar1/roll\x00".hex()) and len(att["block"]) == 64
    assert [c["accepted"] for c in att["candidates"]].count(True) == 1
    assert all(oks(roll["checks"])) and len(roll["checks"]) >= 6
    rc, out, _ = run(capsys, GOLDEN / "sog.aar", "--record", 10)
    assert "[FAILED]" not in out and "dice key = HMAC-SHA256(server secret" in out and "face = 9" in out


def test_roll_k_is_the_same_roll(capsys):
    rc, d = run_json(capsys, GOLDEN / "sog.aar", "--roll", 8)
    assert d["roll"]["record"] == 10 and d["roll"]["logged"]["i"] == 8 and all(oks(d["roll"]["checks"]))
    rc, out, err = run(capsys, GOLDEN / "sog.aar", "--roll", 100000)
    assert rc == 2 and "no roll with index 100000" in err


def test_hidden_ntnd_marker_is_what_it_was(capsys):
    """NTND: an inverted marker placed at setup (record 4, k = 1): its commitment, the seat it was
    sealed for, the public opening later in the game, and the checks of every opening."""
    rc, d = run_json(capsys, GOLDEN / "ntnd-tet.aar", "--hidden", "4:1")
    h = d["hidden"]
    assert h["to"] == "communist" and h["sealed_in"] == 4
    assert h["value"]["t"] == "marker-identity" and h["value"]["units"]
    assert h["openings"] and h["openings"][0]["record"] > 4
    assert h["sealed_opening"]["value"] == h["value"]
    assert all(oks(h["checks"])) and len(h["checks"]) >= 4


def test_sealed_command_gmv(capsys):
    """GMV record 16 is a sealed NVA command: the envelope comes out of the sealed value, its
    signature and fields are checked, and the record explanation shows it."""
    rc, d = run_json(capsys, GOLDEN / "gmv.aar", "--record", 16)
    s = d["record"]["submitter"]
    assert s["sealed"] and s["seat"] == "nva" and s["command"].startswith("gmv {")
    assert s["commitment"] and all(oks(s["checks"]))
    rc, d = run_json(capsys, GOLDEN / "gmv.aar", "--hidden", "16:0")
    assert d["hidden"]["sealed_command"]["command"] == s["command"]


def test_genesis_and_end_records(capsys):
    rc, d = run_json(capsys, GOLDEN / "ntnd-tet.aar", "--record", 0)
    assert d["record"]["kind"] == "genesis" and d["record"]["genesis"]["ruleset"]["game"] == "ntnd"
    with open(GOLDEN / "ntnd-tet.aar", "rb") as f:
        last = read_bundle(f)[0]["records"] - 1  # the end record: found, not named (logs get re-recorded)
    rc, d = run_json(capsys, GOLDEN / "ntnd-tet.aar", "--record", last)
    # the outcome the verifier's replay reached (the re-recorded Tet game is a draw)
    with open(GOLDEN / "ntnd-tet.aar", "rb") as f:
        outcome = verify_bundle(f).as_dict()["outcome"]
    assert d["record"]["kind"] == "end" and d["record"]["end"]["outcome"] == outcome and "winner" in outcome
    assert all(oks(d["record"]["checks"]))


def test_forged_roll_is_marked_failed_at_its_record(capsys):
    """A die face changed by the server (re-chained and re-signed): the derivation disagrees."""
    rc, d = run_json(capsys, TAMPERED / "wrong-roll-10.aar", "--record", 10)
    assert rc == 1 and not d["verification"]["verified"] and d["verification"]["failure"]["seq"] == 10
    (roll,) = d["record"]["rolls"]
    by = {c["what"]: c["ok"] for c in roll["checks"]}
    assert by["logged faces equal the derived faces"] is False
    assert by["server secret matches the genesis commitment (SPEC.md 5.1)"] is True
    assert d["record"]["checks"][0]["ok"] is False
    rc, out, _ = run(capsys, TAMPERED / "wrong-roll-10.aar", "--record", 10)
    assert "NOT VERIFIED: step 10 (dice) failed at record 10" in out
    assert "[FAILED] logged faces equal the derived faces (expected" in out


def test_forged_reveal_is_marked_failed(capsys):
    rc, d = run_json(capsys, TAMPERED / "wrong-reveal-8.aar", "--record", 8)
    assert rc == 1
    (h,) = [x for x in d["record"]["events"] if x["t"] == "open"]
    rc, d = run_json(capsys, TAMPERED / "wrong-reveal-8.aar", "--hidden", f"{h['opens'][0]}:{h['opens'][1]}")
    assert False in oks(d["hidden"]["checks"])


def test_forged_seat_signature(capsys):
    rc, d = run_json(capsys, TAMPERED / "forged-seat-signature-6.aar", "--record", 6)
    sig = d["record"]["submitter"]["checks"][0]
    assert rc == 1 and sig["what"].startswith("Ed25519 signature") and sig["ok"] is False


def _in_progress(tmp_path, name: str, n: int) -> pathlib.Path:
    """The first n records of a golden log, exported as a game in progress (no secret)."""
    with open(GOLDEN / name, "rb") as f:
        header, frames = read_bundle(f)
        frames = list(frames)[:n]
    out = io.BytesIO()
    write_bundle(out, header["game"], header["server_vkey"], frames, n, None)
    p = tmp_path / f"progress-{name}"
    p.write_bytes(out.getvalue())
    return p


def test_game_in_progress_says_what_cannot_be_shown(tmp_path, capsys):
    p = _in_progress(tmp_path, "gmv.aar", 30)
    rc, d = run_json(capsys, p, "--record", 16)
    assert rc == 0 and d["verification"]["verified"] and not d["verification"]["secret_known"]
    r = d["record"]
    assert r["submitter"]["sealed"] and r["submitter"]["envelope"] is None
    assert any("hidden until the end" in c for c in r["cannot_show"])
    assert any("decision" in c for c in r["cannot_show"])
    rc, d = run_json(capsys, p, "--hidden", "16:0")
    assert d["hidden"]["value"] is None and None in oks(d["hidden"]["checks"]) and d["hidden"]["cannot_show"]
    rc, out, _ = run(capsys, p, "--record", 4)
    assert "game in progress" in out and "[n/a]" in out
    sog = _in_progress(tmp_path, "sog.aar", 12)
    rc, d = run_json(capsys, sog, "--roll", 8)
    assert d["roll"]["record"] == 10 and d["roll"]["checks"][0]["ok"] is None and "faces" not in d["roll"]


def test_envelope_fields_are_read_generically():
    """Every field of CommandEnvelope that is set comes out by its proto name, including any field
    added to envelope.proto later (this test iterates over the descriptor, not a list of names)."""
    env = envelope_pb2.CommandEnvelope()
    want = set()
    for fd in env.DESCRIPTOR.fields:
        if fd.containing_oneof is not None:
            continue
        if fd.type == fd.TYPE_STRING:
            setattr(env, fd.name, "x")
        elif fd.type == fd.TYPE_BYTES:
            setattr(env, fd.name, b"\x01\x02")
        elif fd.type == fd.TYPE_MESSAGE:
            continue
        else:
            setattr(env, fd.name, 7)
        want.add(fd.name)
    env.entropy_commit.commitment = bytes(32)
    got = envelope_fields(env)
    assert want <= set(got) and got["entropy_commit"] == {"commitment": "00" * 32}


def test_a_bundle_that_breaks_off_fails_as_aar_verify_says(capsys):
    """SPEC.md 10.2: a frame cut off, or bytes after the last complete frame, is not an unreadable
    bundle (exit 2) but a failure of step 1 at the record after the last complete frame (exit 1);
    explain still explains the records before it."""
    for name in ("truncated-tail", "trailing-partial-frame"):
        assert main(["verify", "--json", str(TAMPERED / f"{name}.aar")]) == 1
        want = json.loads(capsys.readouterr().out)
        rc, d = run_json(capsys, TAMPERED / f"{name}.aar", "--record", 3)
        f = d["verification"]["failure"]
        assert rc == 1 and (f["step"], f["seq"]) == (want["step"], want["seq"]) and f["step"].startswith("1 "), name
        assert d["record"]["kind"] == "reveal" and all(oks(d["record"]["checks"])), name


def test_usage_errors(capsys, tmp_path):
    rc, _, err = run(capsys, GOLDEN / "sog.aar")
    assert rc == 2 and "--record N, --roll K or --hidden" in err
    rc, _, err = run(capsys, GOLDEN / "sog.aar", "--record", 39)
    assert rc == 2 and "between 0 and 38" in err
    rc, _, err = run(capsys, GOLDEN / "sog.aar", "--hidden", "5:1")
    assert rc == 2 and "no hidden value at 5:1" in err
    rc, _, err = run(capsys, tmp_path / "missing.aar", "--record", 1)
    assert rc == 2 and "cannot read" in err
    rc, _, err = run(capsys, TAMPERED / "bad-magic.aar", "--record", 1)
    assert rc == 2 and "not a readable bundle" in err
    assert main(["explain", str(GOLDEN / "sog.aar"), "--hidden", "x"]) == 2


def test_server_key_pinning(capsys):
    from afteraction.engine.log.bundle import read_bundle

    with open(GOLDEN / "sog.aar", "rb") as f:
        vkey = read_bundle(f)[0]["server_vkey"]
    rc, d = run_json(capsys, GOLDEN / "sog.aar", "--record", 4, "--server-key", vkey)
    assert rc == 0 and d["server_key_pinned"]
    with open(GOLDEN / "gmv.aar", "rb") as f:
        other = read_bundle(f)[0]["server_vkey"]
    rc, d = run_json(capsys, GOLDEN / "sog.aar", "--record", 4, "--server-key", other)
    assert rc == 1 and d["verification"]["failure"]["check"] == "server key differs from the pinned key"
    rc, _, err = run(capsys, GOLDEN / "sog.aar", "--record", 4, "--server-key", "nonsense")
    assert rc == 2
    rc, out, _ = run(capsys, GOLDEN / "sog.aar", "--record", 4)
    assert "(from the bundle; pin it with --server-key)" in out


def test_format_3_a_command_bound_before_the_other_seats_offer_is_explained_as_in_place(capsys, tmp_path):
    """A seat's command signed before the other seat's offer is
    accepted one record later; `aar explain` checks its position by the referee's rule (before,
    it marked the envelope's state_seq as failed)."""
    from afteraction.engine.bots import random_bot
    from afteraction.engine.local import LocalGame

    g = LocalGame.create("duel", seed=b"explain-v3")
    g.handshake()
    bot = random_bot(b"explain-v3")
    gid = g.referee.game_id
    for _ in range(6):  # to a public command: the seat whose command is not sealed
        d = g.referee.pending().seat
        cmd = bot(d, g.referee.ruleset.legal_commands(g.referee.state, d))
        if not g.referee.ruleset.is_private(g.referee.state, d, cmd, g.referee.pending()):
            break
        g.play(d, cmd)
    other = "b" if d == "a" else "a"
    signed = g.seats[d].command(gid, g.referee.seq, cmd, g.head())
    g.submit(g.seats[other].offer(gid, g.head(), None))
    n = g.referee.seq
    g.submit(signed)
    path = tmp_path / "v3.aar"
    path.write_bytes(g.bundle())
    rc, dd = run_json(capsys, path, "--record", n)
    s = dd["record"]["submitter"]
    assert rc == 0 and s["bound_to"]["state_seq"] == n - 1 and all(oks(s["checks"])), s["checks"]
