"""The positions of seeded bot games, for the property tests that compare two computations on many
real states: (ruleset, state, pending decision) before each command of a Tet game played by the
random bot, or of another scenario's played by the campaign bot."""
from __future__ import annotations

from afteraction.engine.bots import random_bot
from afteraction.engine.games.ntnd.bots import campaign_bot
from afteraction.engine.local import LocalGame


def positions(tag: str, seed: int, commands: int, scenario: str | None = None):
    """(ruleset, state, decision) before each of the first ``commands`` commands of the game seeded
    ``tag-seed`` (``scenario``: of that scenario, played by the campaign bots)."""
    g = LocalGame.create("ntnd", seed=f"{tag}-{seed}".encode(), scenario=scenario)
    g.handshake()
    rs = g.referee.ruleset
    bot = random_bot(seed) if scenario is None else campaign_bot(seed)
    for _ in range(commands):
        if g.referee.ended:
            return
        d = g.referee.pending()
        yield rs, g.referee.state, d
        g.play(d.seat, bot(d.seat, rs.legal_commands(g.referee.state, d.seat)))
