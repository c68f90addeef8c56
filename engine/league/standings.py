"""Standings and ratings (SPEC.md 15.5, 15.7): pure functions of the league state (state.py, the
ledger folded with the verified bundles) and the ledger's time ``now``.

Which results count, in this order: a withdrawn result never does; the game's last ruling decides
if there is one (annul and replay: void; uphold: the result stands); else an open dispute holds it;
else it counts once confirmed (both seats cosigned its checkpoint) or once ``window`` has passed
since its entry. A standing result is still void when the policy voids its ending, when a seat made
fewer decisions than the policy asks for that ending, or when the pair has already met
``repeat_cap`` times in counted games (in the order of the game entries)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..errors import AfteractionError
from . import glicko2
from .entries import fraction, frac_value
from .fixed import ONE


@dataclass(frozen=True)
class Counted:
    game: str
    round: int
    board: int
    first: str            # the first seat's player
    second: str
    seats: tuple[str, str]
    winner: str | None    # a player, None for a draw or no result
    cause: str
    cause_seat: str | None
    status: str           # counted, pending, disputed, void: ...
    title: str


def statuses(lg, now: int) -> list[Counted]:
    """Every game with a live result, in the order of the game entries, with its status."""
    out = []
    met: dict[frozenset, int] = {}
    for g in sorted(lg.games.values(), key=lambda g: g.seq):
        if g.withdrawn:
            continue
        res = lg.live_result(g.id)
        if res is None:
            continue
        rnd = lg.rounds[g.round - 1]
        pol = rnd.policy
        f = res.facts
        decision = lg.decision(g.id)
        last_ruling = max([s for s, gid, _ in lg.rulings if gid == g.id], default=-1)
        disputed = any(gid == g.id and s > last_ruling for s, gid in lg.disputes)
        if decision in ("annul", "replay"):
            status = f"void: ruled {decision}"
        elif decision == "uphold":
            status = "counted"
        elif disputed:
            status = "disputed"
        elif len(res.cosigned) == len(f.seats):
            status = "counted"
        elif res.at + pol["window"] <= now:
            status = "counted"
        else:
            status = "pending"
        if status == "counted":
            least = min(f.decisions.values())
            pair = frozenset(g.pair)
            if pol["endings"][f.cause] == "void":
                status = f"void: the policy does not count {f.cause} endings"
            elif least < pol["min_decisions"][f.cause]:
                status = f"void: {least} decisions, the policy needs {pol['min_decisions'][f.cause]} for {f.cause}"
            elif pol["repeat_cap"] and met.get(pair, 0) >= pol["repeat_cap"]:
                status = f"void: the pair already met {pol['repeat_cap']} times"
            else:
                met[pair] = met.get(pair, 0) + 1
        cs = None if f.cause_seat is None else g.pair[f.seats.index(f.cause_seat)]
        out.append(Counted(g.id, g.round, g.board, g.pair[0], g.pair[1], f.seats[:2], res.body["winner"],
                           f.cause, cs, status, rnd.title["game"]))
    return out


def _score(c: Counted, player: str) -> Fraction:
    if c.winner is None:
        return Fraction(1, 2)
    return Fraction(1) if c.winner == player else Fraction(0)


def _points(c: Counted, player: str, pol: dict) -> Fraction:
    p = pol["points"]
    if c.winner is None:
        return fraction(p["draw"])
    return fraction(p["win"] if c.winner == player else p["loss"])


def counted_points(lg, now: int | None = None) -> dict[str, Fraction]:
    """Each player's points from counted games and byes, as of ``now`` (default: the ledger's time)."""
    now = lg.now if now is None else now
    pts = {n: Fraction(0) for n in lg.players}
    for r in lg.rounds:
        for n in r.byes:
            pts[n] += fraction(r.policy["points"]["bye"])
    for c in statuses(lg, now):
        if c.status == "counted":
            pol = lg.rounds[c.round - 1].policy
            for n in (c.first, c.second):
                pts[n] += _points(c, n, pol)
    return pts


@dataclass
class Standings:
    table: list[dict]
    ratings: dict[str, list[dict]]
    head_to_head: dict[tuple[str, str], list[int]]   # (a, b) with a registered first -> [a wins, draws, b wins]
    sides: dict[str, dict[str, list[int]]]           # player -> "title/seat" -> [wins, draws, losses]
    games: list[Counted]
    history: dict[str, dict[str, list[list[int]]]]   # title -> player -> [[round, r, rd], ...] after each round


class RatingsUndefined(AfteractionError):
    """The ratings left the range of SPEC.md 15.7's arithmetic (a division by zero, an exponent
    beyond +-2048): a league whose games give such ratings cannot publish them."""


def standings(lg, now: int) -> Standings:
    games = statuses(lg, now)
    counted = [c for c in games if c.status == "counted"]
    pts = counted_points(lg, now)
    order = {n: p.seq for n, p in lg.players.items()}
    rows = {n: {"player": n, "points": Fraction(0), "buchholz": Fraction(0), "sb": Fraction(0), "games": 0,
                "wins": 0, "draws": 0, "losses": 0, "byes": 0, "timeouts": 0, "abandons": 0} for n in lg.players}
    for r in lg.rounds:
        for n in r.byes:
            rows[n]["byes"] += 1
    h2h: dict[tuple[str, str], list[int]] = {}
    sides: dict[str, dict[str, list[int]]] = {n: {} for n in lg.players}
    for c in games:  # reliability: every game with a live result, counted or not, unless ruled void
        if c.status.startswith("void: ruled"):
            continue
        if c.cause == "timeout" and c.cause_seat is not None:
            rows[c.cause_seat]["timeouts"] += 1
        if c.cause == "abandon":
            rows[c.first]["abandons"] += 1
            rows[c.second]["abandons"] += 1
    for c in counted:
        for me, other, seat in ((c.first, c.second, c.seats[0]), (c.second, c.first, c.seats[1])):
            row = rows[me]
            s = _score(c, me)
            row["games"] += 1
            row["buchholz"] += pts[other]
            row["sb"] += s * pts[other]
            k = "wins" if s == 1 else "losses" if s == 0 else "draws"
            row[k] += 1
            side = sides[me].setdefault(f"{c.title}/{seat}", [0, 0, 0])
            side[0 if s == 1 else 2 if s == 0 else 1] += 1
        a, b = sorted((c.first, c.second), key=order.get)
        rec = h2h.setdefault((a, b), [0, 0, 0])
        rec[1 if c.winner is None else 0 if c.winner == a else 2] += 1
    for n, row in rows.items():
        row["points"] = pts[n]
    ranked = sorted(rows.values(), key=lambda r: (-r["points"], -r["buchholz"], -r["sb"], -r["wins"],
                                                   order[r["player"]]))
    table = [{**r, "rank": i + 1, "points": frac_value(r["points"]), "buchholz": frac_value(r["buchholz"]),
              "sb": frac_value(r["sb"])} for i, r in enumerate(ranked)]
    history: dict = {}
    try:
        rated = ratings(lg, counted, order, history)
    except (ArithmeticError, ValueError) as e:
        raise RatingsUndefined(f"the ratings leave the range of SPEC.md 15.7's arithmetic: {e}") from None
    return Standings(table, rated, h2h, sides, games, history)


def ratings(lg, counted: list[Counted], order: dict[str, int], history: dict | None = None) -> dict[str, list[dict]]:
    """Glicko-2 per game title, one rating period per round of that title (SPEC.md 15.7). The
    state after each round is kept on ``lg`` under everything it depends on (the rounds so far and
    their counted games, in order), so a ledger's successive standings do not redo the periods
    nothing changed in: the same numbers, computed once."""
    state: dict[str, dict[str, glicko2.Rating]] = {}
    played: dict[str, dict[str, int]] = {}
    provisional: dict[str, int] = {}
    memo = lg.__dict__.setdefault("_ratings_memo", {})
    key: tuple = ()
    for rnd in lg.rounds:
        title = rnd.title["game"]
        rp = rnd.policy["rating"]
        provisional[title] = rp["provisional"]
        games = sorted((c for c in counted if c.round == rnd.no), key=lambda c: c.board)
        key = (key, rnd.seq, tuple((c.game, c.winner) for c in games))
        hit = memo.get(key)
        if hit is not None:
            state, played = {t: dict(x) for t, x in hit[0].items()}, {t: dict(x) for t, x in hit[1].items()}
            _record(history, rnd, state)
            continue
        rated = state.setdefault(title, {})
        counts = played.setdefault(title, {})
        start = dict(rated)
        init = glicko2.Rating(rp["r"], rp["rd"], rp["sigma"])
        for c in games:
            for n in (c.first, c.second):
                start.setdefault(n, init)
        new = {}
        for n in sorted(start, key=order.get):
            mine = []
            for c in games:
                if n in (c.first, c.second):
                    other = c.second if n == c.first else c.first
                    s = _score(c, n)
                    mine.append((start[other], ONE if s == 1 else 0 if s == 0 else ONE // 2))
            new[n] = glicko2.update(start[n], mine, rp["tau"], rp["epsilon"])
            counts[n] = counts.get(n, 0) + len(mine)
        rated.update(new)
        memo[key] = ({t: dict(x) for t, x in state.items()}, {t: dict(x) for t, x in played.items()})
        _record(history, rnd, state)
    return {t: [{"player": n, "r": x.r, "rd": x.rd, "sigma": x.sigma, "games": played[t][n],
                 "provisional": x.rd > provisional[t]} for n, x in sorted(rs.items(), key=lambda i: order[i[0]])]
            for t, rs in sorted(state.items()) if rs}


def _record(history: dict | None, rnd, state: dict) -> None:
    """The ratings of the round's title after the round (the rating history a page draws)."""
    if history is None:
        return
    t = rnd.title["game"]
    for n, x in state.get(t, {}).items():
        history.setdefault(t, {}).setdefault(n, []).append([rnd.no, x.r, x.rd])


def published(lg, now: int) -> dict:
    """The body of a standings entry appended at time ``now`` to the ledger ``lg`` holds."""
    s = standings(lg, now)
    return {"table": s.table, "ratings": s.ratings}
