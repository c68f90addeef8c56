"""League ledgers (engine/league, SPEC.md 15): a league of real duels verifies, and every forged
result, pairing or standing fails with the entry named; which results count, and when."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from afteraction.engine.crypto import canon
from afteraction.engine.league.entries import Author, bundle_hash, parse_entry
from afteraction.engine.league.ledger import read_ledger, verify_ledger, write_ledger
from afteraction.engine.league.local import LEAGUE, LocalLeague
from afteraction.engine.league.state import LeagueError
from afteraction.engine.local import derive_bytes


def _status(rep, game):
    return next(c.status for c in rep.standings.games if c.game == game)


def _fails(data, bundles, seq, check):
    with pytest.raises(LeagueError) as e:
        verify_ledger(data, bundles)
    assert (e.value.seq, e.value.check) == (seq, check), str(e.value)
    return e.value


def resigned(L: LocalLeague, edit) -> bytes:
    return L.resigned(edit)


def seq_of(L: LocalLeague, kind: str, n: int = 0) -> int:
    return [e.seq for e in L.w.entries if e.kind == kind][n]


@pytest.fixture(scope="module")
def league():
    L = LocalLeague(players=5)
    for _ in range(3):
        L.play_round()
    L.publish()
    return L


def test_a_league_verifies_and_its_standings_are_recomputed(league):
    rep = verify_ledger(league.ledger(), league.bundles)
    assert rep.entries == len(league.w.entries) and len(rep.state.rounds) == 3
    assert [c.status for c in rep.standings.games] == ["counted"] * 6
    t = rep.standings.table
    assert [r["rank"] for r in t] == [1, 2, 3, 4, 5]
    assert sum(r["games"] for r in t) == 12 and sum(r["byes"] for r in t) == 3
    assert set(rep.standings.ratings) == {"duel"}


def test_the_ledger_file_round_trips(league):
    lid, vkey, items = read_ledger(league.ledger())
    assert lid == LEAGUE and vkey == league.w.vkey and len(items) == len(league.w.entries)
    assert [parse_entry(r).hash for r, _ in items] == [e.hash for e in league.w.entries]


# -- forgeries: each fails at its entry -----------------------------------------------------------
def test_a_bundle_that_does_not_verify():
    L = LocalLeague(players=2, seed=b"bad-bundle")
    L.round()
    g = L.make_game(1, 1)
    L.game_entry(1, 1, g)
    L.finish(g)
    bundle = bytearray(g.bundle())
    bundle[-40] ^= 1   # a byte of the last checkpoint's signature
    body = L.result_body(g, bundle=bytes(bundle))
    with pytest.raises(LeagueError) as e:   # the league's own writer refuses it
        L.append("result", body)
    assert e.value.check == "bundle" and "does not verify" in e.value.detail
    forged = L.with_entry("result", body)   # a ledger that carries it anyway
    n = len(L.w.entries)
    err = _fails(forged, L.bundles, n, "bundle")
    assert f"entry {n} (result)" in str(err) and "does not verify" in str(err)


def _one_game(seed, **make):
    L = LocalLeague(players=2, seed=seed)
    L.round()
    g = L.make_game(1, 1, **make)
    L.game_entry(1, 1, g)
    L.finish(g)
    return L, g


def _forged_result(L, g, **kw):
    body = L.result_body(g, **kw)
    with pytest.raises(LeagueError):
        L.append("result", body)
    return L.with_entry("result", body), len(L.w.entries)


def test_another_players_key():
    L, g = _one_game(b"other-key", keys={"b": derive_bytes(b"someone", "key")})
    data, seq = _forged_result(L, g)
    err = _fails(data, L.bundles, seq, "bundle")
    assert "seat key" in err.detail or "pinned" in err.detail


def test_a_game_that_is_not_the_pairing():
    L, g = _one_game(b"not-pairing", label=f"{LEAGUE} round 1 board 2")
    data, seq = _forged_result(L, g)
    err = _fails(data, L.bundles, seq, "pairing")
    assert "round 1 board 1" in err.detail


def test_sides_swapped_is_not_the_pairing():
    L, g = _one_game(b"swapped", swap=True)
    data, seq = _forged_result(L, g)
    _fails(data, L.bundles, seq, "bundle")   # the first seat's key is the second player's


def test_a_result_changed_after_the_fact(league):
    seq = seq_of(league, "result", 0)
    lid, vkey, items = read_ledger(league.ledger())
    d = canon.decode(items[seq][0])
    loser = d["body"]["winner"]
    d["body"]["winner"] = None if loser else "player1"
    items[seq] = (canon.encode(d), items[seq][1])
    _fails(write_ledger(lid, vkey, items), league.bundles, seq, "checkpoint")  # the league's tree does not hold it
    # ... and re-signed by the league key, with a new chain and checkpoints: the bundle says otherwise
    data = resigned(league, lambda s, b: dict(b, winner=None if b["winner"] else "player1") if s == seq else b)
    _fails(data, league.bundles, seq, "outcome")


def test_an_entry_taken_out_of_the_ledger(league):
    lid, vkey, items = read_ledger(league.ledger())
    seq = seq_of(league, "result", 1)
    _fails(write_ledger(lid, vkey, items[:seq] + items[seq + 1:]), league.bundles, seq, "chain")


def test_a_pairing_the_seed_does_not_give(league):
    seq = seq_of(league, "round", 1)
    swapped = resigned(league, lambda s, b: dict(b, pairings=[[p[1], p[0]] for p in b["pairings"]]) if s == seq else b)
    err = _fails(swapped, league.bundles, seq, "pairing")
    assert "expected" in err.detail
    other_seed = resigned(league, lambda s, b: dict(b, seed=b"\x01" * 32) if s == seq else b)
    _fails(other_seed, league.bundles, seq, "seed")


def test_published_standings_that_differ(league):
    seq = seq_of(league, "standings")
    def edit(s, b):
        if s != seq:
            return b
        t = [dict(r) for r in b["table"]]
        t[0]["points"] = [9, 1]
        return dict(b, table=t)
    err = _fails(resigned(league, edit), league.bundles, seq, "standings")
    assert "points" in err.detail


def test_a_missing_bundle(league):
    seq = seq_of(league, "result", 2)
    missing = {h: b for h, b in league.bundles.items() if h != league.w.entries[seq].body["bundle"]}
    _fails(league.ledger(), missing, seq, "bundle")


def test_another_league_key_for_the_checkpoints(league):
    from afteraction.engine.crypto.note import Signer
    lid, _, items = read_ledger(league.ledger())
    other = Signer("league.test", derive_bytes(b"other", "league-key")).verifier.vkey
    _fails(write_ledger(lid, other, items), league.bundles, 0, "vkey")
    with pytest.raises(LeagueError) as e:
        verify_ledger(league.ledger(), league.bundles, pinned_vkey=other)
    assert e.value.seq is None


# -- who may write what ---------------------------------------------------------------------------
def test_authors():
    L = LocalLeague(players=2, seed=b"authors")
    stranger = Author(derive_bytes(b"x", "stranger"))
    with pytest.raises(LeagueError, match="signed by the key it registers"):
        L.append("player", {"name": "mallory", "key": L.w.author.public}, stranger)
    with pytest.raises(LeagueError, match="league key"):
        L.append("round", L.round_body(), stranger)
    L.round()
    g = L.make_game(1, 1)
    L.game_entry(1, 1, g)
    with pytest.raises(LeagueError, match="one of the game's players"):
        L.append("dispute", {"game": g.referee.game_id, "claim": "no", "evidence": []}, stranger)
    with pytest.raises(LeagueError, match="arbiter"):
        L.append("ruling", {"game": g.referee.game_id, "decision": "annul", "reason": "r", "dispute": None}, stranger)
    with pytest.raises(LeagueError, match="already in the ledger"):
        L.register("player1")   # the same signed registration again
    other = Author(derive_bytes(b"x", "other"))
    with pytest.raises(LeagueError, match="already registered"):
        L.append("player", {"name": "player1", "key": other.public}, other)
    with pytest.raises(LeagueError, match="already played"):
        L.game_entry(1, 1, L.make_game(1, 1, game_id="again"))


# -- which results count ----------------------------------------------------------------------------
def _played(seed, cosigned=("a", "b"), resign=None, **pol):
    L = LocalLeague(players=2, seed=seed, **pol)
    L.round()
    g = L.make_game(1, 1)
    L.game_entry(1, 1, g)
    L.finish(g, resign=resign)
    L.append("result", L.result_body(g, cosigned))
    return L, g.referee.game_id


def test_uncosigned_result_waits_for_the_window():
    L, gid = _played(b"window", cosigned=("a",))
    assert _status(verify_ledger(L.ledger(), L.bundles), gid) == "pending"
    L.publish()   # published while pending: the game is not in the table
    assert sum(r["games"] for r in L.w.entries[-1].body["table"]) == 0
    L.tick(60_000)
    L.publish()   # the window has passed: it counts
    rep = verify_ledger(L.ledger(), L.bundles)
    assert _status(rep, gid) == "counted"
    assert sum(r["games"] for r in L.w.entries[-1].body["table"]) == 2


def test_a_dispute_holds_and_a_ruling_settles():
    L, gid = _played(b"dispute", cosigned=("a",))
    a = Author(L.players["player1"])
    d = L.append("dispute", {"game": gid, "claim": "I answered in time", "evidence": [b"envelope"]}, a)
    L.tick(120_000)
    assert _status(verify_ledger(L.ledger(), L.bundles), gid) == "disputed"
    L.append("ruling", {"game": gid, "decision": "annul", "reason": "server fault", "dispute": d.seq}, L.arbiter)
    assert _status(verify_ledger(L.ledger(), L.bundles), gid) == "void: ruled annul"


def test_uphold_counts_at_once():
    L, gid = _played(b"uphold", cosigned=())
    L.append("ruling", {"game": gid, "decision": "uphold", "reason": "checked", "dispute": None}, L.arbiter)
    assert _status(verify_ledger(L.ledger(), L.bundles), gid) == "counted"


def test_replay_frees_the_pairing():
    L, gid = _played(b"replay")
    L.append("ruling", {"game": gid, "decision": "replay", "reason": "r", "dispute": None}, L.arbiter)
    g = L.make_game(1, 1, game_id="replayed")
    L.game_entry(1, 1, g)
    L.finish(g)
    L.append("result", L.result_body(g))
    rep = verify_ledger(L.ledger(), L.bundles)
    assert [(c.game, c.status) for c in rep.standings.games] == [(gid, "void: ruled replay"), ("replayed", "counted")]


def test_an_early_resignation_is_void_under_min_decisions():
    L, gid = _played(b"early", resign="a",
                     min_decisions={"rules": 0, "resign": 1, "agree": 2, "timeout": 0, "abandon": 0})
    rep = verify_ledger(L.ledger(), L.bundles)
    assert _status(rep, gid).startswith("void: 0 decisions")
    L2, gid2 = _played(b"early2", resign="a")
    assert _status(verify_ledger(L2.ledger(), L2.bundles), gid2) == "counted"


def test_a_voided_ending():
    L, gid = _played(b"void-resign", resign="b",
                     endings={"rules": "count", "resign": "void", "agree": "count", "timeout": "count",
                              "abandon": "void"})
    assert _status(verify_ledger(L.ledger(), L.bundles), gid) == "void: the policy does not count resign endings"


def test_repeat_cap():
    L = LocalLeague(players=2, seed=b"repeat", repeat_cap=1)
    for _ in range(2):
        L.play_round()
    rep = verify_ledger(L.ledger(), L.bundles)
    assert [c.status for c in rep.standings.games] == ["counted", "void: the pair already met 1 times"]


def test_a_correction_withdraws_a_result():
    L, _ = _played(b"correct")
    seq = L.w.entries[-1].seq
    L.append("correction", {"entry": seq, "reason": "wrong bundle"})
    rep = verify_ledger(L.ledger(), L.bundles)
    assert rep.standings.games == []
    with pytest.raises(LeagueError, match="already withdrawn"):
        L.append("correction", {"entry": seq, "reason": "again"})


def test_round_robin_league():
    L = LocalLeague(players=4, seed=b"rr", pairing="round-robin", rounds=3)
    for _ in range(3):
        L.play_round()
    L.publish()
    rep = verify_ledger(L.ledger(), L.bundles)
    met = {frozenset((c.first, c.second)) for c in rep.standings.games}
    assert len(met) == 6 and all(r["games"] == 3 for r in rep.standings.table)


def test_bundle_hash_is_tagged():
    assert bundle_hash(b"") != __import__("hashlib").sha256(b"").digest()


def test_league_tags_are_their_own():
    from afteraction.engine.crypto.hashing import TAGS
    from afteraction.engine.league.entries import LEAGUE_TAGS, TAG_SIGN, statement
    assert len(set(LEAGUE_TAGS)) == len(LEAGUE_TAGS) and not set(LEAGUE_TAGS) & set(TAGS)
    assert all("\x00" not in t for t in LEAGUE_TAGS)
    s = statement("x", "player", {"name": "n", "key": b"k" * 32})
    assert s.startswith(TAG_SIGN.encode() + b"\x00")   # never a command's, a note's or a cosignature's bytes


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_any_changed_byte_fails_with_a_league_error(league, data):
    """Whatever byte of the ledger file changes, the verdict is a LeagueError naming where (never
    another exception, never a verified ledger)."""
    raw = bytearray(league.ledger())
    i = data.draw(st.integers(min_value=0, max_value=len(raw) - 1))
    raw[i] ^= data.draw(st.integers(min_value=1, max_value=255))
    with pytest.raises(LeagueError):
        verify_ledger(bytes(raw), league.bundles)


def test_a_new_policy_applies_from_the_next_round():
    """Policy version 2 (a win now worth 3) changes the rounds paired after it, not the games before."""
    from afteraction.engine.league.local import policy
    L = LocalLeague(players=2, seed=b"policy2")
    L.play_round()
    with pytest.raises(LeagueError, match="expected policy version 2"):
        L.append("policy", policy(version=3))
    L.append("policy", policy(version=2, points={"win": [3, 1], "draw": [1, 1], "loss": [0, 1], "bye": [1, 1]},
                              arbiters=[L.arbiter.public]))
    L.play_round()
    rep = verify_ledger(L.ledger(), L.bundles)
    pts = {r["player"]: r["points"] for r in rep.standings.table}
    first, second = rep.standings.games
    want = {"player1": 0, "player2": 0}
    for g, win, draw in ((first, 1, [1, 2]), (second, 3, [1, 1])):
        for p in ("player1", "player2"):
            want[p] += win if g.winner == p else 0 if g.winner else draw[0] / draw[1]
    assert {p: v[0] / v[1] for p, v in pts.items()} == want


def test_undefined_ratings_fail_at_the_entry(league, monkeypatch):
    """Ratings that leave SPEC.md 15.7's range (here: a division by zero forced) fail with the check
    ``ratings`` at the standings entry that would publish them, never with another exception."""
    from afteraction.engine.league import glicko2

    def boom(*a, **k):
        raise ZeroDivisionError("fixed-point division by zero")
    monkeypatch.setattr(glicko2, "update", boom)
    _fails(league.ledger(), league.bundles, seq_of(league, "standings"), "ratings")


def test_rating_constants_out_of_bounds_are_refused():
    from afteraction.engine.league.entries import policy_problem
    from afteraction.engine.league.local import policy
    p = policy()
    assert policy_problem(p) is None
    for k, bad in (("sigma", 0), ("rd", 10), ("tau", 10**17), ("epsilon", 0)):
        assert "policy rating" in policy_problem(dict(p, rating=dict(p["rating"], **{k: bad})))


def test_players_cosign_the_leagues_checkpoints():
    """A player's cosignature of a league checkpoint (SPEC.md 15.2) is verified and reported; a bad
    one fails at its entry; a kept checkpoint catches a league that shows another history."""
    from afteraction.engine.crypto.cosign import cosign
    from afteraction.engine.errors import CryptoError
    from afteraction.engine.league.ledger import cosigner
    L = LocalLeague(players=3, seed=b"cosign")
    L.play_round()
    L.cosign("player1", 5)
    L.cosign("player2")
    kept = L.w.checkpoints[-1]
    rep = verify_ledger(L.ledger(), L.bundles, kept_checkpoint=kept)
    assert rep.cosigned == {"player1": 6, "player2": len(L.w.entries)} and rep.kept_checkpoint == len(L.w.entries)
    stranger = cosign(kept[: kept.rfind("\n\n") + 1], L.w.origin, "9", derive_bytes(b"x", "k"), 1)
    with pytest.raises(CryptoError):
        L.w.add_cosignature(len(L.w.entries) - 1, stranger)   # not a registered player's
    # a cosignature line of player3's name and key ID whose signature is another checkpoint's
    p3 = L.w.state.players["player3"]
    other = L.w.checkpoints[4]
    line = cosign(other[: other.rfind("\n\n") + 1], L.w.origin, cosigner(p3), L.players["player3"], 1)
    lid, vkey, items = read_ledger(L.ledger())
    items[6] = (items[6][0], items[6][1] + line)
    _fails(write_ledger(lid, vkey, items), L.bundles, 6, "cosignature")
    # the league rewrites round 1's first result and signs everything again: player2's kept checkpoint
    s = seq_of(L, "result", 0)
    forged = L.resigned(lambda q, b: dict(b, winner=None) if q == s else b)
    with pytest.raises(LeagueError):
        verify_ledger(forged, L.bundles)            # fails anyway (the outcome) ...
    # the league changes its policy's window after the fact and signs everything again: the ledger
    # verifies on its own, but not against the checkpoint player2 kept
    other_history = L.resigned(lambda q, b: dict(b, window=b["window"] + 1) if q == 1 else b)
    verify_ledger(other_history, L.bundles)
    _, _, items2 = read_ledger(other_history)
    with pytest.raises(LeagueError, match="another history") as e:
        verify_ledger(other_history, L.bundles, kept_checkpoint=kept)
    assert e.value.seq == len(items2) - 1
    _, _, items = read_ledger(L.ledger())
    short = write_ledger(lid, vkey, items[:s])      # ... and a ledger cut before it: the kept one shows it
    verify_ledger(short, L.bundles)
    with pytest.raises(LeagueError, match="entries were removed"):
        verify_ledger(short, L.bundles, kept_checkpoint=kept)
