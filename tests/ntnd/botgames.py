"""The positions of seeded bot games, for the property tests that compare two computations on many
real states: (ruleset, state, pending decision) before each command of a Tet game played by the
random bot, or of another scenario's played by the campaign bot."""
from __future__ import annotations

from afteraction.engine.bots import random_bot
from afteraction.engine.games.ntnd.bots.military import campaign_bot
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


def ground_searches(s: dict, seat: str):
    """(piece, its mover, its whole ground search's arguments) of every piece of ``seat`` that moves over
    the map's ground and stands on a hex bordering no zone, in this state (markers first, then face-up
    units, each in id order; one ``Env`` for the state)."""
    from afteraction.engine.games.ntnd.movement import ground as movement, offboard, reach

    env = movement.Env(s)
    pieces = sorted(s["markers"]) if seat == "communist" else []
    pieces += sorted(u["id"] for u in s["units"].values() if u["status"] == "map" and u["side"] == seat and not u["inv"])
    for piece in pieces:
        mv = movement.mover(s, piece)
        if movement.movement_kind(mv) != "ground" or offboard.touches_zone(mv["loc"]):
            continue
        yield piece, mv, reach._ground_args(s, mv, env, False, movement.allowance_q(s, mv))[0]
