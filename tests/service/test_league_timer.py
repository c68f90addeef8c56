"""The league's timer (service/league/manager.py ``run_forever``, docs/league.md "A league server"), on a
real server on port 0: a league game's result entry is appended when the game ends, with no league
call in between (confirmed when both seats cosigned its final checkpoint; pending, COSIGN_WAIT_MS
after the end, when a seat withholds its cosignature), and a pending result's window closes by
itself: the timer appends a standings entry once the window has passed, so the ledger read from
the server's store, not through any league call, shows the result counted."""
from __future__ import annotations

import time

from afteraction.client.league import LeagueClient
from afteraction.engine.league.entries import parse_entry
from afteraction.engine.league.ledger import verify_ledger, write_ledger
from afteraction.service.league import manager as service_league

from .test_league_service import ORG, new_league, play


def stored(server, league: str) -> list:
    """The league's entries as the server's store holds them (no league call: no settling)."""
    return [parse_entry(raw) for raw, _ in server.run.service.league.store.entries(league)]


def wait_for(fn, seconds: float):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        v = fn()
        if v:
            return v
        time.sleep(0.05)
    raise AssertionError(f"not within {seconds} s")


def ledger_from_store(server, league: str, vkey: str):
    m = server.run.service.league
    data = write_ledger(league, vkey, m.store.entries(league))
    return verify_ledger(data, m.store.bundles(league), vkey)


def test_the_result_is_entered_when_the_game_ends_without_a_league_call(server):
    with LeagueClient(server.target) as c:
        vkey = new_league(c, players=("ann", "bob", "cat", "dan"), rounds=1)
        g1, g2 = c.open_round("spring", ORG).games
    size = len(stored(server, "spring"))
    # board 1 cosigned by both seats; board 2's second seat withholds its cosignature
    t0 = time.monotonic()
    play(server.target, [g1, g2], cosign={g1.game_id: g1.seats, g2.game_id: (g2.seats[0],)})
    confirmed = wait_for(lambda: [e for e in stored(server, "spring")[size:]
                                  if e.kind == "result" and e.body["game"] == g1.game_id], 10)
    assert confirmed[0].body["checkpoint"].count("\u2014 ") == 3   # the server's signature and both seats'
    pending = wait_for(lambda: [e for e in stored(server, "spring")[size:]
                                if e.kind == "result" and e.body["game"] == g2.game_id], 10)
    # entered only after the wait for the missing cosignature
    assert time.monotonic() - t0 >= service_league.COSIGN_WAIT_MS / 1000
    assert pending[0].body["checkpoint"].count("\u2014 ") == 2
    rep = ledger_from_store(server, "spring", vkey)
    st = {c.game: c.status for c in rep.standings.games}
    assert st == {g1.game_id: "counted", g2.game_id: "pending"}
    assert [e.kind for e in stored(server, "spring")[size:]] == ["result", "result"]


def test_a_pending_results_window_closes_by_itself(server):
    with LeagueClient(server.target) as c:
        vkey = new_league(c, players=("ann", "bob"), rounds=1, window=3000)
        [g] = c.open_round("spring", ORG).games
    play(server.target, [g], cosign={g.game_id: ()})   # neither seat cosigns
    [res] = wait_for(lambda: [e for e in stored(server, "spring") if e.kind == "result"], 10)
    rep = ledger_from_store(server, "spring", vkey)
    assert [c.status for c in rep.standings.games] == ["pending"]
    [pub] = wait_for(lambda: [e for e in stored(server, "spring") if e.kind == "standings"], 10)
    assert pub.at >= res.at + 3000 and pub.seq == res.seq + 1
    rep = ledger_from_store(server, "spring", vkey)
    assert [c.status for c in rep.standings.games] == ["counted"]
    assert sum(r["games"] for r in pub.body["table"]) == 2   # the published table counts it
    time.sleep(2 * service_league.TICK_S)
    assert [e.kind for e in stored(server, "spring")].count("standings") == 1   # once


def test_the_timer_stops_with_the_server(server):
    task = server.run.service.league_timer
    assert not task.done()
    server.stop()
    assert task.cancelled() or task.done()


def test_a_sweep_meeting_a_game_just_ended_waits_for_its_cosignatures(server):
    """The sweep (every SWEEP_S) that finds a league game ended with neither a result nor both
    cosignatures, which the timer has not yet seen end, starts the timer's wait for it: no pending
    result at once (a game ending just before a sweep was entered pending, then corrected and
    entered again at its seats' cosignatures a moment later); after COSIGN_WAIT_MS the timer
    enters it pending."""
    with LeagueClient(server.target) as c:
        new_league(c, players=("ann", "bob"), rounds=1)
        [g] = c.open_round("spring", ORG).games
    play(server.target, [g], cosign={g.game_id: ()})   # neither seat cosigns
    m = server.run.service.league
    with m._lock:   # the timer's next look waits: this is the sweep finding the game first
        m._ended.pop(g.game_id, None)
        m._settle(m.writer("spring"), start_wait=True)
        assert not [e for e in stored(server, "spring") if e.kind == "result"]
        assert g.game_id in m._ended
    t0 = time.monotonic()
    [res] = wait_for(lambda: [e for e in stored(server, "spring") if e.kind == "result"], 10)
    assert time.monotonic() - t0 >= service_league.COSIGN_WAIT_MS / 1000 - 0.5
    assert res.body["checkpoint"].count("\u2014 ") == 1   # the server's signature alone: pending
