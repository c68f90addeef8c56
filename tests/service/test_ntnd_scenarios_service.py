"""The NTND scenarios of rule 2 the project authored (Year of the Rat, 1975, 1965-68, 1968-72,
1972-75) played over the real service: a server on port 0 (stopped after), both seats played by the
game's demo bots over gRPC, the log exported and verified (replayed byte for byte).

Default suite: the two short scenarios to their end; the three long ones for their first turns (the
Allied seat resigns once the public view shows a later turn: a complete, verifiable log). Marked
``long`` (``make test-long``): the long ones to their end.
"""
from __future__ import annotations

import threading

import pytest

from afteraction.cli.campaign_summary import public_events
from afteraction.client.client import Client, Ending
from afteraction.client.seat import Seat
from afteraction.engine import registry
from afteraction.engine.crypto import canon
from afteraction.engine.games.ntnd.components import scenario_data as sd
from afteraction.engine.local import derive_bytes
from afteraction.engine.seat import SeatSigner

FIRST_TURNS = 1   # the long scenarios in the default suite: turn 1, resigned early in turn 2


def play(server, scenario: str, seed: bytes, stop_after: int | None = None):
    """(outcome, exported log, verification report) of one bot game of ``scenario`` over the service;
    with ``stop_after`` the Allied seat resigns at its first decision after that turn."""
    rs = registry.get("ntnd")
    c = Client(server.target, timeout=120)
    keys = {s: derive_bytes(seed, f"key/{s}") for s in rs.seats}
    gid = c.create_game("ntnd", {s: SeatSigner(s, k).public for s, k in keys.items()}, scenario=scenario).game_id
    seats = [Seat(Client(server.target, timeout=120), gid, s, keys[s], entropy=derive_bytes(seed, f"entropy/{s}"))
             for s in rs.seats]
    errors: list[BaseException] = []

    def run(seat: Seat) -> None:
        bot = rs.demo_bot(f"{seed.decode()}/{seat.seat}", lambda _s: canon.decode(seat.state().view))

        asked = [0]

        def choose(who, legal):   # the turn from the seat's own view, every 8th Allied decision (cheap)
            asked[0] += 1
            if stop_after is not None and who == "allied" and asked[0] % 8 == 0 \
                    and canon.decode(seat.state().view)["turn"] > stop_after:
                return Ending("resign")
            return bot(who, legal)
        try:
            seat.play(choose)
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(s,), daemon=True) for s in seats]
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)
    assert not errors, errors
    assert not any(t.is_alive() for t in threads)
    outcome = seats[0].outcome
    for s in seats:
        s.client.close()
    data = c.export(gid)
    rep = c.verify(data)
    c.close()
    return outcome, data, rep


def _turns(data: bytes) -> list[int]:
    return sorted({e["turn"] for _, e in public_events(data) if e.get("t") == "phase"})


def _scenario_event(data: bytes) -> dict:
    return next(e for _, e in public_events(data) if e.get("t") == "scenario")


@pytest.mark.parametrize("scenario", ["rat", "1975"])
def test_ntnd_2_short_scenario_plays_to_its_end_over_the_service(server, scenario):
    sc = sd.load_period(scenario)
    outcome, data, rep = play(server, scenario, f"svc/{scenario}".encode())
    assert rep.replayed and rep.records > 100
    assert _scenario_event(data)["id"] == sc["id"] and _scenario_event(data)["turns"] == 4
    turns = _turns(data)
    assert turns == list(range(1, turns[-1] + 1)) and turns[-1] <= 4
    reason = outcome["reason"]
    # 22.4: a sudden victory at the end of a political phase, else the scenario's own end after turn 4
    assert reason.startswith("NTND 22.4") or (turns[-1] == 4 and reason.startswith("scenario end")), outcome
    skipped = {e["phase"] for _, e in public_events(data) if e.get("t") == "phase-skipped"}
    assert {"c_hearts", "a_hearts", "a_random"} <= skipped, skipped              # purely military (2)


@pytest.mark.parametrize("scenario", ["1965_68", "1968_72", "1972_75"])
def test_ntnd_2_long_scenario_plays_its_first_turns_over_the_service(server, scenario):
    sc = sd.load_period(scenario)
    outcome, data, rep = play(server, scenario, f"svc/{scenario}".encode(), stop_after=FIRST_TURNS)
    assert rep.replayed
    assert _scenario_event(data)["id"] == sc["id"] and _scenario_event(data)["turns"] == len(sc["turns"])
    turns = _turns(data)
    assert turns == list(range(1, FIRST_TURNS + 2)), turns     # every phase of turn 1, then turn 2 begun
    skipped = {e["phase"] for t, e in public_events(data) if e.get("t") == "phase-skipped" and t == 1}
    assert not {"c_hearts", "a_hearts", "a_random"} & skipped, skipped            # the political war plays
    assert outcome is not None


@pytest.mark.long
@pytest.mark.parametrize("scenario", ["1965_68", "1968_72", "1972_75"])
def test_ntnd_2_long_scenario_plays_to_its_end_over_the_service(server, scenario):
    sc = sd.load_period(scenario)
    outcome, data, rep = play(server, scenario, f"svc/{scenario}".encode())
    assert rep.replayed
    turns = _turns(data)
    assert turns == list(range(1, turns[-1] + 1)) and turns[-1] <= len(sc["turns"])
    reason = outcome["reason"]
    assert reason.startswith(("NTND 22.4", "NTND 24.4.3")) or (
        turns[-1] == len(sc["turns"]) and reason.startswith("scenario end")), outcome


@pytest.mark.long
def test_ntnd_2_the_campaign_game_plays_to_its_end_over_the_service(server):
    """Rule 2's campaign game (63 turns, every rule family) played by the demo bots over the service to
    its end; the log verifies with replay (`make test-long`; 77 s in one run here, 15:29 UTC)."""
    outcome, data, rep = play(server, "campaign", b"svc/campaign")
    assert rep.replayed
    turns = _turns(data)
    assert turns == list(range(1, turns[-1] + 1)) and turns[-1] <= 63
    assert outcome["reason"].startswith(("NTND 22.4", "NTND 24.4.3")) or (
        turns[-1] == 63 and outcome["reason"].startswith("scenario end")), outcome
