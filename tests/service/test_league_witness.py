"""The league server as a witness of its games (SPEC.md 15.11, engine/league/witness.py,
service/league/manager.py): it cosigns a game checkpoint a seat shows it only when it is the game's log at
that size (a checkpoint signed by the game's key for another history is refused: the seat keeps a
fork proof), and it timestamps an envelope a player of the game signed, with a signed,
domain-separated statement whose bytes SPEC.md 15.11 gives."""
from __future__ import annotations

import grpc
import pytest

from afteraction.client.client import Client
from afteraction.client.league import LeagueClient
from afteraction.client.seat import Seat
from afteraction.engine.crypto import canon
from afteraction.engine.crypto.cosign import add_cosignatures
from afteraction.engine.crypto.hashing import tagged_hash
from afteraction.engine.crypto.note import Checkpoint, open_checkpoint, parse_skey, parse_vkey, sign_checkpoint
from afteraction.engine.league.entries import LEAGUE_TAGS, Author
from afteraction.engine.league.ledger import league_origin
from afteraction.engine.league.witness import (envelope_hash, timestamp_ok, timestamp_statement, witness_cosign,
                                               witness_cosigned, witness_name)
from afteraction.engine.local import derive_bytes

from .conftest import Server
from .test_league_service import ORG, key, new_league, refused


@pytest.fixture
def league(tmp_path):
    s = Server(tmp_path)
    try:
        with LeagueClient(s.target) as c:
            vkey = new_league(c, players=("ann", "bob"))
            [g] = c.open_round("spring", ORG).games
            seats = {st: Seat(Client(s.target), g.game_id, st, key(p)) for st, p in zip(g.seats, (g.first, g.second))}
            for step in ("commit", "reveal"):
                for x in seats.values():
                    x.submit(x.sign_commit() if step == "commit" else x.sign_reveal())
            yield s, c, vkey, g, seats
    finally:
        s.stop()


def test_the_witness_cosigns_the_games_checkpoint_and_refuses_another_history(league, tmp_path):
    s, c, vkey, g, seats = league
    note = Client(s.target).audit.GetCheckpoint(
        __import__("afteraction.v1.audit_service_pb2", fromlist=["x"]).GetCheckpointRequest(game_id=g.game_id)
    ).checkpoint.note
    line = c.witness("spring", g.game_id, note, vkey)      # checked against the league key by the client
    v = parse_vkey(vkey)
    origin = league_origin(v.name, "spring")
    assert line.startswith(f"\u2014 {witness_name(origin)} ")
    assert witness_cosigned(add_cosignatures(note, [line]), origin, v.public) is not None
    assert witness_cosigned(note, origin, v.public) is None
    # another league key's line is not the witness's
    other = Author(derive_bytes(b"x", "other"))
    assert witness_cosigned(add_cosignatures(note, [line]), origin, other.public) is None
    # a checkpoint the game's key signed for another history at the same size: refused, nothing cosigned
    server_key = parse_skey((tmp_path / "server.key").read_text().strip())
    cp = open_checkpoint(note, parse_vkey(s.run.vkey))
    forked = sign_checkpoint(Checkpoint(cp.origin, cp.size, bytes(32)), server_key)
    e = refused(lambda: c.witness("spring", g.game_id, forked, vkey), grpc.StatusCode.FAILED_PRECONDITION,
                "NOT_A_LEAGUE_GAME")
    assert "another history" in str(e)
    # a size the log does not have, a note not signed by the game's server, a game not of the league
    ahead = sign_checkpoint(Checkpoint(cp.origin, cp.size + 5, cp.root), server_key)
    refused(lambda: c.witness("spring", g.game_id, ahead, vkey), grpc.StatusCode.FAILED_PRECONDITION,
            "NOT_A_LEAGUE_GAME")
    refused(lambda: c.witness("spring", g.game_id, note.replace("\n\n", "\n\nx", 1), vkey),
            grpc.StatusCode.FAILED_PRECONDITION, "NOT_A_LEAGUE_GAME")
    refused(lambda: c.witness("spring", "0123456789abcdef", note, vkey), grpc.StatusCode.FAILED_PRECONDITION,
            "NOT_A_LEAGUE_GAME")


def test_the_witness_timestamps_a_players_envelope(league):
    s, c, vkey, g, seats = league
    pending = Client(s.target).state(g.game_id).decision.seat
    seat = seats[pending]
    lg_ = seat.legal()
    signed = seat.sign_command(lg_.state_seq, list(lg_.commands)[0])
    at, sig = c.timestamp("spring", g.game_id, signed, vkey)   # checked with the league key by the client
    public = parse_vkey(vkey).public
    # the statement, byte for byte (SPEC.md 15.11)
    want = b"aar1/league-timestamp\x00" + canon.encode({"at": at, "envelope": tagged_hash(
        "aar1/league-envelope", signed), "game": g.game_id, "league": "spring"})
    assert timestamp_statement("spring", g.game_id, signed, at) == want
    assert envelope_hash(signed) == tagged_hash("aar1/league-envelope", signed)
    assert {"aar1/league-timestamp", "aar1/league-envelope"} <= set(LEAGUE_TAGS)
    assert timestamp_ok(public, "spring", g.game_id, signed, at, sig)
    assert not timestamp_ok(public, "spring", g.game_id, signed, at + 1, sig)
    assert not timestamp_ok(public, "autumn", g.game_id, signed, at, sig)
    # an envelope whose signature is no player's, and bytes that are not an envelope
    sc = __import__("afteraction.v1.envelope_pb2", fromlist=["x"]).SignedCommand.FromString(signed)
    sc.signature = bytes(64)
    refused(lambda: c.timestamp("spring", g.game_id, sc.SerializeToString(), vkey),
            grpc.StatusCode.UNAUTHENTICATED, "BAD_SIGNATURE")
    refused(lambda: c.timestamp("spring", g.game_id, b"\xff\xff", vkey), grpc.StatusCode.INVALID_ARGUMENT,
            "MALFORMED")


def test_witness_lines_never_verify_as_a_seats_cosignature():
    """The witness signs under ``<league origin>/witness``: a seat's cosigner name is
    ``<game origin>/seat/<seat>`` (SPEC.md 4.5), so its line cannot stand for a seat's."""
    from afteraction.engine.crypto.cosign import seat_cosignatures
    from afteraction.engine.crypto.note import Signer

    seed = derive_bytes(b"w", "league")
    league_key = Signer("league.test", seed)
    game = Signer("games.test", derive_bytes(b"w", "games"))
    note = sign_checkpoint(Checkpoint("games.test/game/g1", 3, bytes(range(32))), game)
    text = note[: note.rfind("\n\n") + 1]
    line = witness_cosign(text, "league.test/league/spring", seed, 7)
    both = add_cosignatures(note, [line])
    assert witness_cosigned(both, "league.test/league/spring", league_key.verifier.public) == 7
    assert seat_cosignatures(both, "games.test/game/g1", {"a": league_key.verifier.public}) == {}
