"""Core property: ``view`` of the opponent (and of spectators) never contains a
hidden value. Checked on the duel toy ruleset, whose pick is hidden from seat b until it
is revealed: for many seeds of random-bot games, at every step, the views of b and of a
spectator, and b's legal commands, are the same whatever a picked (non-interference), and
no public event of the log carries the pick before its reveal. (SOG hides nothing between
its seats; GMV's hidden board has its own checks in tests/gmv/leakcheck.py.)"""
from __future__ import annotations

import pytest

from afteraction.engine.bots import random_bot
from afteraction.engine.crypto import canon
from afteraction.engine.local import LocalGame


def _variants(rs, s):
    """The same public state with every other value of the hidden pick."""
    for n in range(1, 7):
        v = rs.copy_state(s)
        v["pick"] = n
        yield v


@pytest.mark.parametrize("seed", [f"hide-{i}".encode() for i in range(20)])
def test_opponent_and_spectator_views_never_depend_on_the_hidden_pick(seed):
    g = LocalGame.create("duel", seed=seed)
    g.handshake()
    rs = g.referee.ruleset
    bot = random_bot(seed)
    hidden_seen = 0
    while not g.referee.ended:
        s = g.referee.state
        if s["pick"] is not None:  # a's pick is hidden from b and spectators
            hidden_seen += 1
            for who in ("b", None):
                views = {canon.encode(rs.view(v, who)) for v in _variants(rs, s)}
                assert len(views) == 1, f"view of {who} depends on the hidden pick"
            legal = {tuple(c.SerializeToString() for c in rs.legal_commands(v, "b")) for v in _variants(rs, s)}
            assert len(legal) == 1, "b's legal commands depend on the hidden pick"
            assert "pick" in rs.view(s, "a")  # the owner does see it (the check can fail)
        d = g.referee.pending()
        acc = g.play(d.seat, bot(d.seat, rs.legal_commands(s, d.seat)))
        for rec in acc.records:  # public events: the pick only ever appears sealed
            for ev in rec.body.get("events", []):
                assert ev.get("t") != "pick", ev
    assert hidden_seen == 3


def test_the_non_interference_check_catches_a_leaky_view():
    from afteraction.engine.games.duel.rules import DuelRuleset

    class Leaky(DuelRuleset):
        def view(self, s, seat):
            v = super().view(s, seat)
            v["hint"] = (s["pick"] or 0) % 2  # leaks one bit to everyone
            return v

    rs = Leaky()
    s = {"round": 1, "rounds": 3, "score": {"a": 0, "b": 0}, "pick": 3, "pick_ref": [2, 1]}
    assert len({canon.encode(rs.view(v, "b")) for v in _variants(rs, s)}) == 2
