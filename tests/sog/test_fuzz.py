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


# ---------------------------------------------------------------------------
# Odd commands at every kind of decision, applied straight to the ruleset: each one
# is accepted or rejected with a stable code whose message names a SOG rule; never
# a traceback, never a change to the state it was applied to.
CODES = {"WRONG_GAME_COMMAND", "ILLEGAL_COMMAND", "ILLEGAL_TEAM", "ILLEGAL_INSERTION", "ILLEGAL_LZ", "ILLEGAL_MOVE",
         "ILLEGAL_ABORT", "ILLEGAL_EXTRACTION", "ILLEGAL_PANEL", "ILLEGAL_LEADER", "ILLEGAL_RESULT", "GAME_OVER"}
BIG = 2**32 - 1


def odd_commands() -> list:
    from afteraction.engine.games.sog import team as team_mod
    out = [command_pb2.Command()]                       # no game at all
    c = command_pb2.Command()
    c.sog.SetInParent()                                 # empty oneof
    out.append(c)
    c = command_pb2.Command()
    c.duel.pick.number = 1                              # another game's branch
    out.append(c)
    c = command_pb2.Command()
    c.gmv.SetInParent()
    out.append(c)
    for sq in ("", "-", "0-A", "11-A", "5-K", "5-a", "²-A", "١-A", "5--A", "5-AB", "x" * 1000, "8-A\x00", "05-A"):
        c = command_pb2.Command()
        c.sog.move.square = sq
        out.append(c)
    for method, row in ((0, 1), (3, 1), (-5, 1), (99, 1), (1, 0), (1, 11), (1, BIG), (2, BIG)):
        c = command_pb2.Command()
        c.sog.insert.method, c.sog.insert.row = method, row
        out.append(c)
    for field, attr, values in (("choose_lz", "lz", (0, 6, BIG)), ("abort", "method", (0, 3, -5, 99)),
                                ("choose_extraction", "method", (0, 3, -5, 99)), ("choose_panel", "panel", (0, 1, 4, BIG)),
                                ("add_leader", "squad", (3, BIG))):
        for v in values:
            c = command_pb2.Command()
            setattr(getattr(c.sog, field), attr, v)
            out.append(c)
    # teams: no one, 13 men, unknown / lower-case / empty / double letters, a 27th letter,
    # a rank other than 5 and A, a squad weapon, unknown or zero equipment, too many items
    base = team_mod.TEMPLATES["twelve (3 Americans, 9 Nung)"]
    variants = [[], base + [dict(base[-1], letter="M")], [*base[:-1], dict(base[-1], letter="a")],
                [*base[:-1], dict(base[-1], letter="")], [*base[:-1], dict(base[-1], letter="AB")],
                [*base[:-1], dict(base[-1], letter="Ä")], [*base[:-1], dict(base[-1], letter="A")],
                [*base[:-1], dict(base[-1], rank="1S")], [*base[:-1], dict(base[-1], weapon="LMG6")],
                [*base[:-1], dict(base[-1], items={"XYZ": 1})], [*base[:-1], dict(base[-1], items={"SMK": 0})],
                [*base[:-1], dict(base[-1], items={"HGN3": BIG})], [*base[:-1], dict(base[-1], items={"BDA": 2})],
                [*base[:-1], dict(base[-1], weapon="W" * 5000)], [*base[:-1], dict(base[-1], rank="R" * 5000)],
                [*base[:-1], dict(base[-1], items={"Q" * 5000: 1})]]
    for ms in variants:
        out.append(team_mod.organise_command(ms))
    # outcomes: unknown / empty / repeated letters, squads 0 and 3, too many prisoners,
    # equipment not carried, recovery from a survivor, to a casualty, huge counts and VP
    def res(**kw):
        c = command_pb2.Command()
        r = c.sog.action_result
        r.casualties.extend(kw.get("cas", ()))
        r.squads_eliminated.extend(kw.get("elim", ()))
        r.prisoners_taken, r.prisoners_lost = kw.get("taken", 0), kw.get("lost", 0)
        r.sog_vp, r.nva_vp = kw.get("vp", (0, 0))
        for letter, code, n in kw.get("le", ()):
            it = r.lost_equipment.add()
            it.letter, it.code, it.count = letter, code, n
        for f, t, code, n in kw.get("rec", ()):
            it = r.recovered.add()
            it.from_letter, it.to_letter, it.code, it.count = f, t, code, n
        return c
    out += [res(cas=["Z"]), res(cas=[""]), res(cas=["A", "A"]), res(cas=["a"]), res(cas=list("ABCDEFGHIJKLMNOP")),
            res(elim=[0]), res(elim=[3]), res(elim=[1, 1]), res(elim=[BIG]), res(taken=BIG), res(lost=BIG),
            res(le=[("A", "XYZ", 1)]), res(le=[("A", "RDO", BIG)]), res(le=[("A", "RDO", 0)]), res(le=[("Q", "RDO", 1)]),
            res(rec=[("A", "B", "RDO", 1)]), res(cas=["A"], rec=[("A", "A", "RDO", 1)]),
            res(cas=["A"], rec=[("A", "Z", "RDO", 1)]), res(cas=["A"], rec=[("A", "B", "RDO", BIG)]),
            res(vp=(BIG, BIG)), res(le=[("Z" * 5000, "Q" * 5000, 1)]), res(le=[("A", "Q" * 5000, 1)]),
            res(cas=["A"], rec=[("A", "B", "Q" * 5000, 1)])]
    c = command_pb2.Command()
    c.sog.confirm.SetInParent()
    out.append(c)
    for reason in ("", "é" * 5000):
        c = command_pb2.Command()
        c.sog.dispute.reason = reason
        out.append(c)
    return out


def decision_states() -> dict:
    """One state per decision kind (and a finished game), from random- and sensible-bot play on the ruleset."""
    from afteraction.engine.games.sog.bots import sensible_bot
    from afteraction.engine.games.sog.rules import SogRuleset
    from afteraction.engine.ruleset import Context
    rs = SogRuleset()
    found: dict = {}
    for seed in range(40):
        ctx = Context.for_tests(key=seed.to_bytes(32, "big"))
        s = rs.setup("mission", rs.check_options("mission", {}), ctx)
        bot = random_bot(seed) if seed % 2 else sensible_bot(seed, lambda seat: rs.view(s, seat))
        for _ in range(3000):
            d = rs.pending(s)
            key = "over" if d is None else d.kind
            found.setdefault(key, rs.copy_state(s))
            if d is None:
                break
            s = rs.apply(rs.copy_state(s), d.seat, bot(d.seat, rs.legal_commands(s, d.seat)), ctx)
        if len(found) == 11:
            break
    return found


def test_odd_commands_at_every_decision_reject_cleanly():
    from afteraction.engine.games.sog.rules import SogRuleset
    from afteraction.engine.ruleset import Context
    rs = SogRuleset()
    states = decision_states()
    assert set(states) == {*(k.name for k in rs.decisions.kinds), "over"}, sorted(states)
    codes = set()
    for kind, s in sorted(states.items()):
        seat = rs.pending(s).seat if kind != "over" else "sog"
        before = rs.copy_state(s)
        for c in odd_commands():
            try:
                rs.apply(rs.copy_state(s), seat, c, Context.for_tests(key=b"\x01" * 32))
            except Rejection as e:
                assert e.code in CODES, (kind, e.code)
                assert "SOG" in e.message and len(e.message) < 600, (kind, e.code, e.message)
                codes.add(e.code)
            assert s == before
    # ILLEGAL_ABORT guards extraction.abort itself: an abort only answers abort_or_move,
    # which is pending only while the Target has not been reached (SOG 3.9)
    assert codes == CODES - {"ILLEGAL_ABORT"}, sorted(CODES - codes)
