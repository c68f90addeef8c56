"""Pairings (SPEC.md 15.6): round robin by Berger tables and Swiss by score groups, each a pure
function of the players, what the ledger says so far and the round's revealed seed.

A pairing is ``(pairs, byes)``: ``pairs`` a list of (first seat's player, second seat's player) in
board order (board 1 first), ``byes`` the players without a game this round. Players are names."""
from __future__ import annotations

from fractions import Fraction

from ..crypto.hashing import lp, tagged_hash
from .entries import TAG_ORDER

SEARCH_BUDGET = 100000   # candidate pairs the Swiss search tries before it allows rematches


def berger(players: list[str], round_no: int) -> tuple[list[tuple[str, str]], list[str]]:
    """Round ``round_no`` (1-based) of the Berger tables over ``players`` (numbered 1..n in this
    order; an odd n gets a dummy n+1 whose opponent has the bye). With n' = n rounded up to even
    and m = n' - 1, in round r (0-based within its cycle, cycle c = (round_no - 1) // m): x = 1 +
    (r * n'/2) mod m faces n' on board 1 (x has the first seat when r is even, n' when r is odd),
    and board j+1 (j = 1 .. n'/2 - 1) is ((x - 1 + j) mod m) + 1 against ((x - 1 - j) mod m) + 1, the
    first of these with the first seat. In odd cycles every pair's seats are swapped."""
    n = len(players)
    if n < 2:
        return [], list(players)
    np_ = n + (n % 2)
    m = np_ - 1
    cycle, r = divmod(round_no - 1, m)
    x = 1 + (r * (np_ // 2)) % m
    boards = [(x, np_) if r % 2 == 0 else (np_, x)]
    for j in range(1, np_ // 2):
        boards.append((((x - 1 + j) % m) + 1, ((x - 1 - j) % m) + 1))
    pairs, byes = [], []
    for a, b in boards:
        if cycle % 2 == 1:
            a, b = b, a
        if a > n or b > n:
            byes.append(players[min(a, b) - 1])
        else:
            pairs.append((players[a - 1], players[b - 1]))
    return pairs, byes


def order_key(league: str, round_no: int, seed: bytes, key: bytes) -> bytes:
    return tagged_hash(TAG_ORDER, lp(league.encode()) + round_no.to_bytes(4, "big") + seed + key)


def swiss(players: list[tuple[str, bytes]], points: dict[str, Fraction], byes_had: dict[str, int],
          met: set[frozenset], sides: dict[str, int], league: str, round_no: int,
          seed: bytes) -> tuple[list[tuple[str, str]], list[str]]:
    """One Swiss round. ``players``: (name, key) of every player in the round; ``points``: each one's
    counted points before the round; ``byes_had``: byes so far; ``met``: pairs of players paired in
    an earlier round; ``sides``: first seats minus second seats so far.

    1. Order: points descending, then ``order_key`` (the seed's draw inside a score group) ascending.
    2. An odd number: the bye goes to the last player in that order among those with the fewest byes.
    3. Pairs: the first unpaired player meets the first player after it in the order with whom the
       rest can still be paired without a rematch (depth first, at most SEARCH_BUDGET tries); if no
       such pairing exists (or the budget runs out), the order is paired 1-2, 3-4, ...
    4. Sides: the player with the lower ``sides`` takes the first seat; on a tie the one earlier in
       the order does in odd rounds, the later one in even rounds."""
    order = sorted(players, key=lambda p: (-points.get(p[0], Fraction(0)), order_key(league, round_no, seed, p[1])))
    names = [p[0] for p in order]
    byes = []
    if len(names) % 2 == 1:
        fewest = min(byes_had.get(n, 0) for n in names)
        bye = [n for n in names if byes_had.get(n, 0) == fewest][-1]
        names.remove(bye)
        byes.append(bye)
    budget = [SEARCH_BUDGET]

    def search(rest: list[str]) -> list[tuple[str, str]] | None:
        if not rest:
            return []
        first = rest[0]
        for i in range(1, len(rest)):
            if budget[0] <= 0:
                return None
            budget[0] -= 1
            other = rest[i]
            if frozenset((first, other)) in met:
                continue
            tail = search(rest[1:i] + rest[i + 1:])
            if tail is not None:
                return [(first, other)] + tail
        return None

    found = search(names)
    if found is None:
        found = [(names[i], names[i + 1]) for i in range(0, len(names), 2)]
    pairs = []
    for a, b in found:
        sa, sb = sides.get(a, 0), sides.get(b, 0)
        if sa < sb or (sa == sb and round_no % 2 == 1):
            pairs.append((a, b))
        else:
            pairs.append((b, a))
    return pairs, byes
