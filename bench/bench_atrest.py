"""What encrypting the store's private columns at rest costs (service/atrest.py).

Measured in the same run, interleaved game by game: a SQLite store (WAL, synchronous=FULL, a
temp directory) takes every row the service would write for whole games (create, then one
append per command with its records, signed command and openings), once with the real data
key and once with a pass-through key that stores the plaintext; then every private value is
read back (what a cache rebuild reads). Also the AEAD per value and the per-game key.

ratio atrest_append = plaintext store CPU time / encrypted store CPU time, for writing and
reading back the same games (1.0 = free); wall time is printed too (it is the fsyncs').

    .venv/bin/python -m bench atrest
"""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time

GAMES = ("duel", "gmv")
ROUNDS = 3


def _rows(game: str):
    from afteraction.engine.bots import random_bot
    from afteraction.engine.local import LocalGame
    from afteraction.service.store import Append, CommandRow, GameRow, OpeningRow, RecordRow

    seed = f"bench/atrest/{game}".encode()
    g = LocalGame.create(game, seed=seed)
    appends = []
    orig = g.submit

    def submit(signed):
        acc = orig(signed)
        recs = [RecordRow(r.seq, r.raw, r.hash, "cp") for r in acc.records]
        from afteraction.engine.crypto import canon

        ops = [OpeningRow(seat, o.seq, o.k, o.salt, canon.encode(o.value))
               for seat, lst in acc.openings.items() for o in lst]
        appends.append(Append(g.referee.game_id, recs, CommandRow(acc.seat, acc.counter, signed,
                              hashlib.sha256(signed).digest(), tuple(r.seq for r in acc.records)), ops,
                              ended=g.referee.ended))
        return acc

    g.submit = submit
    g.handshake()
    g.run_bots(random_bot(seed), max_commands=3000)
    r0 = g.records[0]
    return (GameRow(g.referee.game_id, game, "1", r0.raw, bytes(32)), RecordRow(0, r0.raw, r0.hash, "cp"), appends)


class _Plain:
    """A pass-through 'key': what the store cost before encryption at rest."""

    def seal(self, game_id, plaintext, assoc):
        return bytes(plaintext)

    def open(self, game_id, blob, assoc):
        return bytes(blob)

    def check_value(self):
        return b"plain"

    def opens_check(self, blob):
        return True


def _one(box, rows, d: str) -> tuple[float, float]:
    from afteraction.service.store_sqlite import SqliteStore

    st = SqliteStore(os.path.join(d, f"s-{type(box).__name__}.sqlite"), box)
    try:
        t, c = time.perf_counter(), time.process_time()
        for game, genesis, appends in rows:
            st.create_game(game, genesis)
            for a in appends:
                st.append(a)
        for game, _, appends in rows:
            st.game(game.game_id)
            st.commands(game.game_id)
            for seat in {a.command.seat for a in appends}:
                st.openings(game.game_id, seat)
        return time.perf_counter() - t, time.process_time() - c
    finally:
        st.close()


def run() -> None:
    from afteraction.service import atrest

    key = atrest.DataKey(os.urandom(32))
    pt, ad = os.urandom(200), atrest.ad("signed", "0123456789abcdef", "a", 7)
    n = 20000
    t = time.perf_counter()
    for _ in range(n):
        blob = key.seal("0123456789abcdef", pt, ad)
    seal_us = (time.perf_counter() - t) / n * 1e6
    t = time.perf_counter()
    for _ in range(n):
        key.open("0123456789abcdef", blob, ad)
    open_us = (time.perf_counter() - t) / n * 1e6
    t = time.perf_counter()
    for i in range(5000):
        key._games.clear()
        key._aead(f"g{i}")
    derive_us = (time.perf_counter() - t) / 5000 * 1e6
    print(f"aead 200 B: seal {seal_us:.2f} us, open {open_us:.2f} us; per-game key {derive_us:.2f} us")
    games = [_rows(g) for g in GAMES]
    for (game, _, appends), name in zip(games, GAMES):
        seals = 1 + len(appends) + 2 * sum(len(a.openings) for a in appends)
        print(f"{name}: {len(appends)} commands, {seals} values sealed per game")
    enc = plain = enc_cpu = plain_cpu = 0.0
    sizes = {"DataKey": 0, "_Plain": 0}
    for r in range(ROUNDS):
        for i, rows in enumerate(games):
            d = tempfile.mkdtemp(prefix="aar-bench-atrest-")
            try:
                gid = f"r{r}-{i}-"
                rows = [(type(rows[0])(gid + rows[0].game_id, *list(rows[0].__dict__.values())[1:]), rows[1],
                         [type(a)(gid + a.game_id, a.records, a.command, a.openings, a.ended) for a in rows[2]])]
                for box in ((key, _Plain()) if (r + i) % 2 else (_Plain(), key)):
                    wall, cpu = _one(box, rows, d)
                    if box is key:
                        enc, enc_cpu = enc + wall, enc_cpu + cpu
                    else:
                        plain, plain_cpu = plain + wall, plain_cpu + cpu
                for f in os.listdir(d):
                    sizes[f.split("-")[1].split(".")[0]] += os.path.getsize(os.path.join(d, f))
            finally:
                shutil.rmtree(d, ignore_errors=True)
    total_cmds = ROUNDS * sum(len(g[2]) for g in games)
    print(f"store, {ROUNDS} x {'+'.join(GAMES)} ({total_cmds} commands): wall plaintext {plain:.3f} s, "
          f"encrypted {enc:.3f} s (fsync-bound); CPU plaintext {plain_cpu:.3f} s, encrypted {enc_cpu:.3f} s, "
          f"{(enc_cpu - plain_cpu) / total_cmds * 1e6:.1f} us CPU more per command")
    print(f"store files: plaintext {sizes['_Plain']} bytes, encrypted {sizes['DataKey']} bytes "
          f"(+{(sizes['DataKey'] - sizes['_Plain']) * 100 / sizes['_Plain']:.1f}%)")
    print(f"ratio atrest_append {plain_cpu / enc_cpu:.3f}")
