"""The web transport (service/web.py): the same RPCs, limits, seat authentication, ErrorInfo and
store over Connect and gRPC-Web, on a port beside the native gRPC one (docs/service.md "Browsers")."""
from __future__ import annotations

import base64
import json
import shutil
import subprocess
import urllib.request

import pytest

from afteraction.service import limits
from afteraction.service.auth import make_auth
from afteraction.v1 import game_service_pb2 as gs

from .conftest import WebServer
from .webcall import Web, WebError, web_client


def _duel(client, seed=b"w"):
    from afteraction.client.seat import Seat
    from afteraction.engine.local import derive_bytes
    from afteraction.engine.seat import SeatSigner

    keys = {s: derive_bytes(seed, f"key/{s}") for s in ("a", "b")}
    res = client.create_game("duel", {s: SeatSigner(s, k).public for s, k in keys.items()})
    seats = {s: Seat(client, res.game_id, s, keys[s], entropy=derive_bytes(seed, f"entropy/{s}")) for s in keys}
    return res.game_id, seats, keys


def _play_out(client, gid, seats):
    for s in seats.values():
        s.submit(s.sign_commit())
    for s in seats.values():
        s.submit(s.sign_reveal())
    while True:
        st = client.state(gid)
        if st.ended:
            return
        seat = seats[st.decision.seat]
        legal = seat.legal()
        assert seat.submit(seat.sign_command(legal.state_seq, legal.commands[0])).records


def test_curl_get_server_key_with_the_json_codec(web_server):
    """docs/service.md's plain-HTTP check, exactly as documented."""
    curl = shutil.which("curl")
    url = f"{web_server.base}/afteraction.v1.GameService/GetServerKey"
    if curl:
        out = subprocess.run([curl, "-s", "-X", "POST", "-H", "Content-Type: application/json", "-d", "{}", url],
                             capture_output=True, text=True, timeout=30, check=True).stdout
    else:  # the same request without curl
        req = urllib.request.Request(url, b"{}", {"Content-Type": "application/json"})
        out = urllib.request.urlopen(req, timeout=30).read().decode()
    assert json.loads(out) == {"vkey": web_server.run.vkey}


def test_a_whole_duel_over_connect_with_the_reference_client_checks(web_server):
    """The reference Seat (verifier, openings against commitments, checkpoints) over Connect only:
    handshake, commands, the seat's openings from an authenticated Watch, the exported bundle."""
    c = web_client("127.0.0.1", web_server.web_port)
    gid, seats, keys = _duel(c)
    for s in seats.values():
        s.submit(s.sign_commit())
    for s in seats.values():
        s.submit(s.sign_reveal())
    while True:
        st = c.state(gid)
        if st.ended:
            break
        seat = seats[st.decision.seat]
        legal = seat.legal()
        res = seat.submit(seat.sign_command(legal.state_seq, legal.commands[0]))
        assert res.records
    # an authenticated Watch brings seat a's openings (its hidden pick), checked against commitments
    a = seats["a"]
    from afteraction.client.seat import Seat
    fresh = Seat(c, gid, "a", keys["a"])
    kinds = []
    for m in c.game.Watch(gs.WatchRequest(game_id=gid, auth=fresh.auth())):
        k = m.WhichOneof("kind")
        kinds.append(k)
        if k == "record":
            fresh.see_record(m.record)
        elif k == "opening":
            fresh.see_opening(m.opening)
        elif k == "checkpoint":
            fresh.see_checkpoint(m.checkpoint.note)
    a.catch_up()
    assert "opening" in kinds and fresh.openings == a.openings and fresh.outcome == a.outcome
    bundle = b"".join(m.chunk for m in c.audit.ExportBundle(
        __import__("afteraction.v1.audit_service_pb2", fromlist=["x"]).ExportBundleRequest(game_id=gid)))
    assert c.verify(bundle).verified


def test_a_spectator_watch_over_the_web_has_no_openings_and_no_prompts(web_server):
    c = web_client("127.0.0.1", web_server.web_port)
    gid, seats, _ = _duel(c, b"spect")
    _play_out(c, gid, seats)
    kinds = {m.WhichOneof("kind") for m in c.game.Watch(gs.WatchRequest(game_id=gid))}
    assert kinds == {"record", "checkpoint"}


def test_errors_carry_the_same_error_info_as_native_grpc(web_server):
    web = Web("127.0.0.1", web_server.web_port)
    with pytest.raises(WebError) as e:
        web.unary("GameService/GetState", gs.GetStateRequest(game_id="nope"), gs.GetStateResponse)
    assert (e.value.code().name, e.value.reason, e.value.http_status) == ("NOT_FOUND", "UNKNOWN_GAME", 404)


def test_the_request_limits_apply_on_the_web_port(web_server):
    web = Web("127.0.0.1", web_server.web_port)
    big = gs.CreateGameRequest(game="duel", options_json="x" * 10, seats=[
        gs.SeatKey(seat="a", public_key=b"k" * 900)] * 16, scenario="")
    raw = big.SerializeToString() + gs.CreateGameRequest(version="v" * 40).SerializeToString() * 1800
    assert len(raw) > limits.MAX_REQUEST_BYTES
    with pytest.raises(WebError) as e:
        web.unary("GameService/CreateGame", raw, gs.CreateGameResponse)
    assert (e.value.code().name, e.value.reason) == ("RESOURCE_EXHAUSTED", "REQUEST_TOO_LARGE")
    with pytest.raises(WebError) as e:
        web.unary("GameService/GetState", gs.GetStateRequest(game_id="g" * (limits.MAX_GAME_ID_CHARS + 1)),
                  gs.GetStateResponse)
    assert e.value.reason == "FIELD_TOO_LONG"
    with pytest.raises(WebError) as e:
        web.unary("GameService/GetState", b"\xff\xff\xff", gs.GetStateResponse)
    assert e.value.reason == "MALFORMED"


def test_json_that_is_not_the_request_is_malformed_with_error_info(web_server):
    req = urllib.request.Request(f"{web_server.base}/afteraction.v1.GameService/GetState", b'{"bogus": 1}',
                                 {"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=30)
    body = json.loads(e.value.read())
    assert body["code"] == "invalid_argument"
    from google.rpc import error_details_pb2
    info = error_details_pb2.ErrorInfo.FromString(base64.b64decode(body["details"][0]["value"] + "=="))
    # the unknown field is named, in the message and the ErrorInfo
    assert info.reason == "MALFORMED" and 'no field "bogus"' in body["message"], body
    assert info.metadata["field"] == "bogus"
    # a value of the wrong type names its field; anything else of the input is not echoed
    req = urllib.request.Request(f"{web_server.base}/afteraction.v1.GameService/GetState",
                                 b'{"gameId": {"x": "<script>"}}', {"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=30)
    body = json.loads(e.value.read())
    assert 'field "gameId" has a value of the wrong type' in body["message"] and "<script>" not in body["message"], body


def test_seat_authentication_on_the_web_port(web_server):
    c = web_client("127.0.0.1", web_server.web_port)
    gid, seats, keys = _duel(c, b"auth")
    web = Web("127.0.0.1", web_server.web_port)
    bad = make_auth(keys["b"], gid, "a")          # seat a's name, seat b's key
    with pytest.raises(WebError) as e:
        web.unary("GameService/GetState", gs.GetStateRequest(game_id=gid, auth=bad), gs.GetStateResponse)
    assert (e.value.code().name, e.value.reason) == ("UNAUTHENTICATED", "BAD_AUTH")
    with pytest.raises(WebError) as e:
        list(web.stream("GameService/Watch", gs.WatchRequest(game_id=gid, auth=bad), gs.WatchResponse))
    assert e.value.reason == "BAD_AUTH"
    ok = web.unary("GameService/GetState", gs.GetStateRequest(game_id=gid, auth=make_auth(keys["a"], gid, "a")),
                   gs.GetStateResponse)
    assert ok.seat == "a"


def test_grpc_web_framing_unary_stream_and_errors(web_server):
    web = Web("127.0.0.1", web_server.web_port)
    msgs, tr = web.grpc_web("GameService/GetServerKey", gs.GetServerKeyRequest(), gs.GetServerKeyResponse)
    assert [m.vkey for m in msgs] == [web_server.run.vkey] and tr["grpc-status"] == "0"
    c = web_client("127.0.0.1", web_server.web_port)
    gid, seats, _ = _duel(c, b"gw")
    _play_out(c, gid, seats)
    msgs, tr = web.grpc_web("GameService/Watch", gs.WatchRequest(game_id=gid, from_seq=1), gs.WatchResponse)
    size = c.state(gid).state_seq
    assert tr["grpc-status"] == "0" and [m.record.seq for m in msgs if m.HasField("record")] == list(range(1, size))
    msgs, tr = web.grpc_web("GameService/GetState", gs.GetStateRequest(game_id="nope"), gs.GetStateResponse)
    from google.rpc import status_pb2
    st = status_pb2.Status.FromString(base64.b64decode(tr["grpc-status-details-bin"] + "=="))
    assert (msgs, tr["grpc-status"]) == ([], "5") and b"UNKNOWN_GAME" in st.details[0].value
    msgs, tr = web.grpc_web("GameService/Play", gs.PlayRequest(), gs.PlayResponse)
    assert tr["grpc-status"] == "12"   # Play is gRPC-only: UNIMPLEMENTED/UNKNOWN_RPC


def test_play_is_not_on_the_web_port(web_server):
    web = Web("127.0.0.1", web_server.web_port)
    with pytest.raises(WebError) as e:
        web.unary("GameService/Play", gs.PlayRequest(), gs.PlayResponse)
    assert (e.value.code().name, e.value.reason) == ("UNIMPLEMENTED", "UNKNOWN_RPC")


def _cors_headers(base, origin, method="POST"):
    req = urllib.request.Request(f"{base}/afteraction.v1.GameService/GetServerKey", b"{}" if method == "POST" else None,
                                 {"Content-Type": "application/json", "Origin": origin,
                                  "Access-Control-Request-Method": "POST"}, method=method)
    try:
        r = urllib.request.urlopen(req, timeout=30)
    except urllib.error.HTTPError as e:
        r = e
    return r.status, {k.lower(): v for k, v in r.headers.items()}


def test_no_cors_by_default(web_server):
    status, hs = _cors_headers(web_server.base, "http://evil.example", "OPTIONS")
    assert status == 403 and "access-control-allow-origin" not in hs
    status, hs = _cors_headers(web_server.base, "http://evil.example")
    assert status == 200 and "access-control-allow-origin" not in hs


def test_cors_only_for_the_origins_given(tmp_path):
    s = WebServer(tmp_path, origins=["http://ui.example:8080"])
    try:
        status, hs = _cors_headers(s.base, "http://ui.example:8080", "OPTIONS")
        assert status == 204 and hs["access-control-allow-origin"] == "http://ui.example:8080"
        assert "connect-protocol-version" in hs["access-control-allow-headers"]
        status, hs = _cors_headers(s.base, "http://ui.example:8080")
        assert hs["access-control-allow-origin"] == "http://ui.example:8080"
        assert "grpc-status-details-bin" in hs["access-control-expose-headers"]
        status, hs = _cors_headers(s.base, "http://other.example")
        assert "access-control-allow-origin" not in hs
    finally:
        s.stop()


def test_both_ports_share_one_store(web_server):
    from afteraction.client.client import Client

    c = web_client("127.0.0.1", web_server.web_port)
    gid, _, _ = _duel(c, b"store")
    with Client(web_server.target) as native:
        assert native.state(gid).state_seq == c.state(gid).state_seq == 1


def test_unary_calls_on_one_connection_are_not_held_by_nagle(web_server):
    """Responses go out as headers then body: without TCP_NODELAY on the accepted sockets each
    call waits ~40 ms for the delayed ACK (measured: 44 ms a call before the fix, under 1 ms after)."""
    import http.client
    import time

    conn = http.client.HTTPConnection("127.0.0.1", web_server.web_port, timeout=30)
    conn.request("POST", "/afteraction.v1.GameService/GetServerKey", b"", {"Content-Type": "application/proto"})
    conn.getresponse().read()
    t = time.perf_counter()
    for _ in range(10):
        conn.request("POST", "/afteraction.v1.GameService/GetServerKey", b"", {"Content-Type": "application/proto"})
        assert conn.getresponse().read()
    assert time.perf_counter() - t < 0.3   # 10 x 44 ms with the delayed ACK
    conn.close()


def test_bench_web_runs_in_quick_mode_and_prints_its_ratios():
    import pathlib
    import sys

    root = pathlib.Path(__file__).resolve().parents[2]
    p = subprocess.run([sys.executable, str(root / "bench" / "bench_web.py"), "--quick"], capture_output=True,
                       text=True, timeout=240)
    assert p.returncode == 0, p.stderr[-2000:]
    ratios = dict(line.split()[1:] for line in p.stdout.splitlines() if line.startswith("ratio "))
    assert set(ratios) == {"web_vs_grpc", "web_p99_ms", "grpc_p99_ms"}, p.stdout
    assert float(ratios["web_vs_grpc"]) > 0


def test_the_web_port_serves_the_servicers_tables_less_play(web_server):
    """One table per servicer feeds both transports: every method but the bidirectional Play is on
    the web port, and nothing else is."""
    from afteraction.service.audit_servicer import AuditServicer
    from afteraction.service.servicer import GameServicer

    svc = web_server.run.service
    want = {f"/afteraction.v1.GameService/{m.name}" for m in GameServicer(svc).methods() if m.name != "Play"}
    want |= {f"/afteraction.v1.AuditService/{m.name}" for m in AuditServicer(svc).methods()}
    from afteraction.service.league.servicer import LeagueServicer

    want |= {f"/afteraction.v1.LeagueService/{m.name}" for m in LeagueServicer(svc, svc.league).methods()}
    assert web_server.run.web.server.config.app.paths == want


def test_aar_serve_web_listen_prints_where_to_point_a_browser(tmp_path):
    import re
    import sys

    p = subprocess.Popen([sys.executable, "-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0",
                          "--web-listen", "127.0.0.1:0", "--data-dir", str(tmp_path / "d")],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = None
        for line in p.stdout:
            m = re.search(r"play at (http://127\.0\.0\.1:[0-9]+/)", line)
            if m:
                url = m.group(1)
                break
        assert url
        page = urllib.request.urlopen(url, timeout=30).read().decode()
        assert '<script type="module" src="app.js">' in page
        assert urllib.request.urlopen(url + "app.js", timeout=30).headers["Content-Type"] == "text/javascript"
        key = urllib.request.urlopen(urllib.request.Request(url + "afteraction.v1.GameService/GetServerKey", b"{}",
                                                            {"Content-Type": "application/json"}), timeout=30)
        assert json.loads(key.read())["vkey"].startswith("afteraction.local+")
    finally:
        p.terminate()
        p.wait(30)


@pytest.mark.parametrize("args", [["--web-origin", "http://x.example"],
                                  ["--web-listen", "127.0.0.1:0", "--workers", "2"]])
def test_aar_serve_web_flags_usage_errors(args, tmp_path, capsys):
    from afteraction.cli.main import main

    assert main(["serve", "--listen", "127.0.0.1:0", "--data-dir", str(tmp_path), *args]) == 2


def test_native_grpc_on_the_web_port_is_told_where_to_go(web_server):
    web = Web("127.0.0.1", web_server.web_port)
    conn, r = web.post("/afteraction.v1.GameService/GetServerKey", b"\x00\x00\x00\x00\x00", "application/grpc")
    try:
        assert r.status == 415 and b"gRPC port" in r.read()
    finally:
        conn.close()


def test_receipts_travel_over_connect_as_over_grpc(web_server, tmp_path):
    """SPEC.md 7.5: SubmitCommand's receipt, and a refusal's receipt as the second detail
    of the Connect error, reach the reference client over the web port; it checks both (no fault)."""
    from afteraction.client.client import ClientError
    from afteraction.engine import receipt as R

    c = web_client("127.0.0.1", web_server.web_port)
    gid, seats, _ = _duel(c, b"receipts-web")
    faults = []
    for s in seats.values():
        s.on_fault = faults.append
        s.evidence_dir = str(tmp_path / s.seat)
    for s in seats.values():
        res = s.submit(s.sign_commit())
        assert res.receipt.decision == "accepted" and R.problem(res.receipt, s.verifier.server.public) is None
    a = seats["a"]
    with pytest.raises(ClientError) as e:
        a.submit(a.sign_commit())   # committed already
    assert e.value.reason == "ALREADY_COMMITTED" and e.value.receipt.decision == "refused/ALREADY_COMMITTED"
    assert R.problem(e.value.receipt, a.verifier.server.public) is None and faults == []
