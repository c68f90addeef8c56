"""Fuzzing the command surface: during bot games, junk commands (wrong decision,
out-of-range values, bad teams and outcomes, other seats) are either accepted as
legal or rejected with a stable code, and a rejection changes nothing."""
from afteraction.engine.bots import Prng, random_bot
from afteraction.engine.errors import Rejection
from afteraction.engine.local import LocalGame
from afteraction.v1 import command_pb2

from .util import members


def junk(prng: Prng) -> command_pb2.Command:
    c = command_pb2.Command()
    k = prng.below(13)
    sq = f"{prng.below(13)}-{'ABCDEFGHIJKZ'[prng.below(12)]}"
    if k == 0:
        c.sog.move.square = sq
    elif k == 1:
        c.sog.insert.method, c.sog.insert.row = prng.below(4), prng.below(12)
    elif k == 2:
        c.sog.choose_lz.lz = prng.below(7)
    elif k == 3:
        c.sog.abort.method = prng.below(4)
    elif k == 4:
        c.sog.choose_extraction.method = prng.below(4)
    elif k == 5:
        c.sog.choose_panel.panel = prng.below(5)
    elif k == 6:
        c.sog.add_leader.squad = prng.below(4)
    elif k == 7:
        r = c.sog.action_result
        r.casualties.extend(["ABCDEZ"[prng.below(6)] for _ in range(prng.below(3))])
        r.squads_eliminated.extend([prng.below(4) for _ in range(prng.below(3))])
        r.prisoners_taken, r.prisoners_lost = prng.below(25), prng.below(3)
        it = r.lost_equipment.add()
        it.letter, it.code, it.count = "ABZ"[prng.below(3)], ["RDO", "SMK", "RFL1", "XX"][prng.below(4)], prng.below(3)
        t = r.recovered.add()
        t.from_letter, t.to_letter, t.code, t.count = "AB"[prng.below(2)], "BC"[prng.below(2)], "RDO", prng.below(2)
    elif k == 8:
        c.sog.confirm.SetInParent()
    elif k == 9:
        c.sog.dispute.reason = "x" * prng.below(600)
    elif k == 10:
        from afteraction.engine.games.sog import team as team_mod
        ms = members(prng.below(5), prng.below(11))
        if ms and prng.below(2):
            ms[prng.below(len(ms))]["items"]["HGN3"] = prng.below(40)
        c = team_mod.organise_command(ms)
    elif k == 11:
        c.sog.SetInParent()  # no action at all
    else:
        c.duel.pick.number = 1  # another game's command
    return c


def test_junk_commands_are_rejected_cleanly():
    accepted = rejected = 0
    codes = set()
    for seed in range(6):
        g = LocalGame.create("sog", seed=f"fuzz-{seed}".encode())
        g.handshake()
        prng = Prng(f"junk-{seed}")
        bot = random_bot(seed)
        rs = g.referee.ruleset
        steps = 0
        while not g.referee.ended and steps < 400:
            steps += 1
            d = g.referee.pending()
            for _ in range(3):
                seat = d.seat if prng.below(4) else ("nva" if d.seat == "sog" else "sog")
                seq, state = g.referee.seq, rs.copy_state(g.referee.state)
                ctr = g.seats[seat].counter
                try:
                    g.play(seat, junk(prng))
                    accepted += 1
                    break
                except Rejection as e:
                    rejected += 1
                    codes.add(e.code)
                    assert g.referee.seq == seq and g.referee.state == state
                    assert g.seats[seat].counter == ctr  # a rejected command does not use up a counter
            if g.referee.ended:
                break
            d = g.referee.pending()
            g.play(d.seat, bot(d.seat, rs.legal_commands(g.referee.state, d.seat)))
    assert rejected > 100 and accepted > 0
    assert {"ILLEGAL_COMMAND", "NOT_YOUR_DECISION", "WRONG_GAME_COMMAND"} <= codes
