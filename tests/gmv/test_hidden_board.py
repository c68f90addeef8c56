"""The whole-game leak checks
(test_games.play_checked, tests/gmv/leakcheck.py) really catch each kind of
leak. Each test plants one leak in the engine and plays a short bot game: the
checker must fail. Without the plant the same game passes
(test_gmv_hidden_board_unplanted_short_game_passes)."""
from __future__ import annotations

import pytest

from afteraction.engine.codes import Code
from afteraction.engine.errors import Rejection
from afteraction.engine.games.gmv import board, noncombat, nva
from afteraction.engine.games.gmv.rules import GmvRuleset

from .test_games import play_checked
from .util import plant

SEED = b"gmv-plant"


def _fails(match: str) -> None:
    with pytest.raises(AssertionError, match=match):
        play_checked(SEED, turns=1, probe_every=1)


def test_gmv_hidden_board_unplanted_short_game_passes():
    g, n = play_checked(SEED, turns=1, probe_every=1)
    assert n["views"] and n["us_commands"] and n["sealed_alternatives"], n


def test_gmv_hidden_board_plant_view_shows_hidden_zones(monkeypatch):
    orig = GmvRuleset.view

    def view(self, s, seat):
        v = orig(self, s, seat)
        v["hint"] = sorted({u["zone"] for u in board.units(s, hidden=True)})  # no ids: only zones
        return v
    monkeypatch.setattr(GmvRuleset, "view", view)
    _fails("view of us depends on the hidden board")


def test_gmv_hidden_board_plant_view_shows_hidden_composition(monkeypatch):
    orig = GmvRuleset.view

    def view(self, s, seat):
        v = orig(self, s, seat)
        v["hint"] = sorted(u["type"] for u in board.units(s, hidden=True))
        return v
    monkeypatch.setattr(GmvRuleset, "view", view)
    _fails("view of us depends on the hidden board")


def test_gmv_hidden_board_plant_public_event_names_hidden_destination(monkeypatch):
    orig = nva.hidden_move

    def hidden_move(s, seat, msg, ctx):
        orig(s, seat, msg, ctx)
        ctx.emit({"t": "hint", "zone": msg.to_zone})  # a bare zone: no unit id next to it
    plant(monkeypatch, nva, "hidden_move", hidden_move)
    _fails("public events tell")


def test_gmv_hidden_board_plant_public_event_pairs_hidden_unit_and_zone(monkeypatch):
    orig = nva.infiltrate

    def infiltrate(s, seat, msg, ctx):
        orig(s, seat, msg, ctx)
        ctx.emit({"t": "hint", "id": msg.unit_ids[0], "zone": msg.to_zone})
    plant(monkeypatch, nva, "infiltrate", infiltrate)
    _fails("public event places a hidden unit|public events tell")


def test_gmv_hidden_board_plant_rejection_depends_on_hidden_units(monkeypatch):
    orig = noncombat.move

    def move(s, seat, msg, ctx):
        if seat == "us" and msg.path and board.units(s, msg.path[-1], "nva", hidden=True):
            raise Rejection(Code.ILLEGAL_MOVE, "GMV: the jungle is too quiet")
        return orig(s, seat, msg, ctx)
    plant(monkeypatch, noncombat, "move", move)
    _fails("American command's fate depends on the hidden board")


def test_gmv_hidden_board_plant_hidden_move_command_left_public(monkeypatch):
    orig = GmvRuleset.is_private

    def is_private(self, s, seat, command, pending=None):
        if command.gmv.WhichOneof("action") == "hidden_move":
            return False
        return orig(self, s, seat, command, pending)
    monkeypatch.setattr(GmvRuleset, "is_private", is_private)
    _fails("public command")


def test_gmv_hidden_board_plant_rejection_message_names_hidden_zone(monkeypatch):
    orig = board.get_units

    def get_units(s, ids, seat, rule):
        for uid in ids:
            u = s["units"].get(uid)
            if seat == "us" and u is not None and u["hidden"]:
                raise Rejection(Code.BAD_UNIT, f"{rule}: {uid!r} is not one of your units (it is in {u['zone']})")
        return orig(s, ids, seat, rule)
    monkeypatch.setattr(board, "get_units", get_units)
    _fails("fate depends on the hidden board")


def test_gmv_hidden_board_plant_stale_commitment_after_hidden_move(monkeypatch):
    """A hidden move that does not renew the commitment still replays (the engine
    is deterministic), so only the opening-equals-unit check can catch it."""
    monkeypatch.setattr(nva.board, "commit_hidden", _commit_only_new(nva.board.commit_hidden))
    with pytest.raises(AssertionError, match="is not the revealed unit"):
        play_checked(b"gmv-1", turns=2, probe_every=50)


def _commit_only_new(orig):
    def commit_hidden(s, ctx):
        fresh = [u for u in board.units(s, hidden=True) if u["ref"] is None]
        if len(fresh) == len(board.units(s, hidden=True)) or fresh:
            return orig(s, ctx)  # setup, infiltration, placement: commit as before
    return commit_hidden


def test_gmv_hidden_board_plant_us_legal_commands_avoid_hidden_units(monkeypatch):
    orig = GmvRuleset.legal_commands

    def legal_commands(rs, s, seat):
        out = orig(rs, s, seat)
        if seat != "us":
            return out
        return [c for c in out if not (c.gmv.WhichOneof("action") == "patrol"
                                       and board.units(s, s["units"][c.gmv.patrol.unit_ids[0]]["zone"], "nva",
                                                       hidden=True))]
    monkeypatch.setattr(GmvRuleset, "legal_commands", legal_commands)
    _fails("legal commands depend on the hidden board")


def test_gmv_hidden_board_hot_lz_reinfiltration_is_not_a_leak_but_stays_checked():
    """Hot LZ, every helicopter shot down: the firing units were seen (opened) and
    re-hide at once. The record checker accepts that, and still catches a unit of
    the same record that was never revealed being placed."""
    from .leakcheck import check_record
    from .test_us import airlift
    from .util import add, empty, play
    s = empty()
    (h,) = add(s, "heli", "us", "saigon")
    inf = add(s, "inf", "us", "saigon", 2)
    vc = add(s, "vc", "nva", "bien_hoa", 2, hidden=True)
    (other,) = add(s, "vc", "nva", "tay_ninh", hidden=True)
    s, _ = play(s, "us", airlift([(h, inf)], "bien_hoa", "saigon"))
    s2, ctx = play(s, "nva", cmd_hot_lz(vc), faces=[1, 6])
    body = {"events": [dict(ev) for ev, to in ctx.events if to is None]}
    # gmv/5 (KEPT_REVEALS): the firing units are revealed under fresh ids, their commitments kept
    shown = [ev["id"] for ev in body["events"] if ev["t"] == "revealed"]
    hidden = {u["id"]: u["zone"] for u in board.units(s2, hidden=True)}
    assert len(shown) == 2 and set(shown) <= set(hidden) and not set(vc) & set(hidden)
    assert check_record(body, None, hidden) == 0
    body["events"].append({"t": "x", "id": other, "zone": "tay_ninh"})
    with pytest.raises(AssertionError, match="places a hidden unit"):
        check_record(body, None, hidden)


def cmd_hot_lz(ids):
    from .util import cmd
    return cmd("hot_lz", unit_ids=ids)


def test_gmv_hidden_board_plant_patrol_event_tells_hidden_numbers_or_types(monkeypatch):
    """A US command's public events may depend on whether a zone holds hidden units
    (the patrol's "none here"), never on how many or which."""
    from afteraction.engine.games.gmv import us

    from .leakcheck import check_us_commands
    from .util import add, cmd, empty
    s = empty()
    (i,) = add(s, "inf", "us", "da_nang")
    add(s, "vc", "nva", "da_nang", 2, hidden=True)
    add(s, "inf", "nva", "hue", hidden=True)
    patrol = [cmd("patrol", unit_ids=[i])]
    check_us_commands(s, patrol)  # unplanted: passes
    orig = us.patrol
    for leak in (lambda h: len(h), lambda h: sorted(u["type"] for u in h)):
        def planted(s, seat, msg, ctx, leak=leak):
            orig(s, seat, msg, ctx)
            ctx.emit({"t": "hint", "x": leak(board.units(s, "da_nang", "nva", hidden=True))})
        plant(monkeypatch, us, "patrol", planted)
        with pytest.raises(AssertionError, match="public events depend on the hidden board"):
            check_us_commands(s, patrol)
