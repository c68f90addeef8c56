"""docs/service.md "Writing a client" is enough to write a client: tests/client/example_client.py,
written from it with the stubs, `cryptography`, `msgpack` and hashlib only, plays a whole duel
against a real server, survives a restart of itself (counter and handshake step from the log),
reads a refusal's reason from ErrorInfo, and the log it made verifies."""
from __future__ import annotations

import ast
import pathlib

import grpc
import pytest

from afteraction.cli.main import main
from afteraction.v1 import envelope_pb2 as ev
from afteraction.v1 import game_service_pb2 as gs
from afteraction.v1 import game_service_pb2_grpc as gs_grpc

from .example_client import ExampleSeat, reason_of

HERE = pathlib.Path(__file__).parent


def test_the_example_client_imports_only_the_stubs():
    tree = ast.parse((HERE / "example_client.py").read_text())
    mods = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    mods |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    ours = {m for m in mods if m.startswith("afteraction")}
    assert ours == {"afteraction.v1"}


def test_the_example_client_plays_a_duel_to_the_end(server, tmp_path, capsys):
    ch = grpc.insecure_channel(server.target)
    seats = {s: ExampleSeat(ch, "", s, bytes([i + 1]) * 32, bytes([i + 7]) * 32) for i, s in enumerate("ab")}
    games = gs_grpc.GameServiceStub(ch)
    res = games.CreateGame(gs.CreateGameRequest(
        game="duel", seats=[gs.SeatKey(seat=s, public_key=x.public) for s, x in seats.items()]))
    for x in seats.values():
        x.game_id = res.game_id
    steps = 0
    for _ in range(200):
        if games.GetState(gs.GetStateRequest(game_id=res.game_id)).ended:
            break
        for s in "ab":
            steps += seats[s].step()
        if steps == 3:  # a restarted client: a new object, only the key and entropy kept
            seats["a"] = ExampleSeat(ch, res.game_id, "a", bytes([1]) * 32, bytes([7]) * 32)
    st = games.GetState(gs.GetStateRequest(game_id=res.game_id))
    assert st.ended and steps >= 8
    # a refusal carries its reason in ErrorInfo: a counter that skips ahead is COUNTER_GAP
    env = ev.CommandEnvelope(game_id=res.game_id, seat="b", counter=99, state_seq=1, prev=b"\x00" * 32)
    env.command.duel.guess.number = 1
    raw = env.SerializeToString()
    signed = ev.SignedCommand(envelope=raw, signature=seats["b"].key.sign(b"aar1/command\x00" + raw))
    with pytest.raises(grpc.RpcError) as e:
        games.SubmitCommand(gs.SubmitCommandRequest(command=signed))
    assert e.value.code() == grpc.StatusCode.FAILED_PRECONDITION and reason_of(e.value) == "COUNTER_GAP"
    ch.close()
    from afteraction.client.client import Client

    with Client(server.target) as c:
        (tmp_path / "g.aar").write_bytes(c.export(res.game_id))
        vkey = c.server_vkey()
    assert main(["verify", str(tmp_path / "g.aar"), "--server-key", vkey]) == 0
    assert capsys.readouterr().out.startswith("VERIFIED: ")
