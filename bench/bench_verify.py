"""Verification throughput vs the machine's raw limit for the same cryptography.

The log: one duel game (the toy ruleset) long enough for 100,000 records, played by a
seeded bot through the real referee, so every record is what the service would write:
seat-signed envelopes (half of the commands sealed), commitments, reveals, dice rolls and
a server-signed checkpoint after every record. Generating it is not measured; the file is
cached in the temp directory under a hash of the code that produces it.

Measured, interleaved chunk by chunk so that load changes on a shared machine hit both
sides alike:
  verify  the streaming verifier on the bundle file, crypto steps only (replay=False):
          bundle frames, canonical decoding, chain, checkpoints, seat signatures,
          openings, the end record, sealed values (AEAD) and dice;
  raw     a bare loop doing only SHA-256 of each record's bytes plus the Ed25519
          verifications the verifier must do for that record (one per checkpoint, one
          per seat signature), with keys loaded once.
ratio verify_crypto = raw time / verify time (target >= 0.5). The raw limit is defined as
"SHA-256 of the record bytes + one Ed25519 verification per checkpoint"; every record of this
log but genesis and the end also carries a seat signature the verifier cannot skip, so the ratio counts
it in the raw loop; the checkpoint-only loop is measured too and printed as a figure.

    .venv/bin/python -m bench verify          (AAR_BENCH_RECORDS=20000 for a quick run)
"""
from __future__ import annotations

import hashlib
import os
import pathlib
import shutil
import tempfile
import time

N_RECORDS = int(os.environ.get("AAR_BENCH_RECORDS", "100000"))
SEED = b"bench/verify"
CHUNK = 5000

REPO = pathlib.Path(__file__).resolve().parents[1]


def _cache_path(n: int) -> pathlib.Path:
    """Keyed by the generator and everything that shapes the records it writes."""
    import inspect

    h = hashlib.sha256(str(n).encode() + inspect.getsource(generate).encode() + SEED)
    e = REPO / "engine"
    # verify.py and its steps (seats.py, replay.py) only read logs: a change to the verifier must not
    # cost a regeneration
    log_writers = [p for p in (e / "log").glob("*.py") if p.name not in ("verify.py", "seats.py", "replay.py")]
    files = sorted([*e.glob("*.py"), *(e / "crypto").glob("*.py"), *log_writers,
                    *(e / "games" / "duel").glob("*.py")]) \
        + [REPO / "proto" / "afteraction" / "v1" / f"{name}.proto" for name in ("command", "envelope", "duel")]
    for p in files:
        h.update(p.name.encode() + b"\0" + p.read_bytes())
    return pathlib.Path(tempfile.gettempdir()) / f"aar-bench-verify-{n}-{h.hexdigest()[:16]}.aar"


def generate(path: pathlib.Path, n: int) -> None:
    """Play a duel of (n - 6) / 2 rounds and stream its bundle to ``path``."""
    from afteraction.engine.bots import random_bot
    from afteraction.engine.crypto import canon
    from afteraction.engine.local import LocalGame
    from afteraction.engine.log.bundle import MAGIC

    rounds = (n - 6) // 2
    if 6 + 2 * rounds != n:
        raise ValueError("the duel log has an even number of records")
    body = path.with_suffix(f".{os.getpid()}.frames.tmp")
    count = 0
    secret = None
    with open(body, "wb") as out:
        def store(entries):  # stream instead of keeping 100,000 records in memory
            nonlocal count, secret
            for e in entries:
                out.write(canon.encode({"t": "record", "raw": e.record.raw, "checkpoint": e.checkpoint}))
                count += 1
                if e.record.kind == "end":
                    secret = e.record.body["secret"]
        g = LocalGame.create("duel", seed=SEED, options={"rounds": rounds}, sink=store)
        g.handshake()
        choose = random_bot(SEED)
        rs = g.referee.ruleset
        while not g.referee.ended:
            d = g.referee.pending()
            g.play(d.seat, choose(d.seat, rs.legal_commands(g.referee.state, d.seat)))
    assert count == n and secret is not None, (count, n)
    header = {"t": "header", "game": g.referee.game_id, "server_vkey": g.server.verifier.vkey,
              "records": n, "secret": secret}
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    with open(tmp, "wb") as out, open(body, "rb") as frames:
        out.write(MAGIC)
        out.write(canon.encode(header))
        shutil.copyfileobj(frames, out)
    body.unlink()
    tmp.replace(path)


def raw_work(path: pathlib.Path) -> list[tuple]:
    """Per record: (record bytes, [(public key object, signature, message), ...])."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from afteraction.engine.crypto import commit as _commit
    from afteraction.engine.crypto.note import parse_vkey, split_note
    from afteraction.engine.log.bundle import read_bundle
    from afteraction.engine.protocol import parse_record
    from afteraction.engine.referee import command_signing_bytes

    with open(path, "rb") as f:
        header, frames = read_bundle(f)
        server = Ed25519PublicKey.from_public_bytes(parse_vkey(header["server_vkey"]).public)
        secret = header["secret"]
        keys = {}
        work = []
        seal_key = None
        sizes = None
        for raw, cp in frames:
            rec = parse_record(raw)
            if rec.kind == "genesis":
                keys = {s["name"]: Ed25519PublicKey.from_public_bytes(s["key"]) for s in rec.body["seats"]}
                seal_key = _commit.seal_key(secret, rec.game)
                sizes = rec.body["sealed_sizes"]["command"] if rec.v >= 2 else None  # SPEC.md 6.5
            text, sigs = split_note(cp)
            checks = [(server, sigs[0].signature, text.encode())]
            b = rec.body
            if "sealed" in b:
                op = _commit.unseal(seal_key, rec.game, rec.seq, 0, b["sealed"]["commit"], b["sealed"]["ct"],
                                    sizes and sizes[b["seat"]])
                checks.append((keys[b["seat"]], op.value["sig"], command_signing_bytes(op.value["env"])))
            elif "sig" in b:
                checks.append((keys[b["seat"]], b["sig"], command_signing_bytes(b["env"])))
            work.append((raw, checks))
    return work


def _raw_loop(work: list[tuple]) -> None:
    sha256 = hashlib.sha256
    for raw, checks in work:
        sha256(raw).digest()
        for key, sig, msg in checks:
            key.verify(sig, msg)


def _raw_loop_checkpoints_only(work: list[tuple]) -> None:
    """The issue's literal raw limit: SHA-256 + the checkpoint's Ed25519 only (no seat signature)."""
    sha256 = hashlib.sha256
    for raw, checks in work:
        sha256(raw).digest()
        key, sig, msg = checks[0]
        key.verify(sig, msg)


def measure(path: pathlib.Path, work: list[tuple]) -> tuple[float, float, float, object]:
    from afteraction.engine import registry
    from afteraction.engine.log.bundle import read_bundle
    from afteraction.engine.crypto.ed25519 import forget_verdicts
    from afteraction.engine.log.verify import Verifier

    forget_verdicts()   # the log's own play checked its commands' signatures: none is remembered
    t_verify = t_raw = t_cp = 0.0
    clock = time.process_time  # CPU time of this process: robust on a shared, loaded machine
    with open(path, "rb") as f:
        t0 = clock()
        header, frames = read_bundle(f)
        v = Verifier(header["server_vkey"], None, header["secret"], False, registry.get, header["game"])
        t_verify += clock() - t0
        for start in range(0, len(work), CHUNK):
            chunk = work[start:start + CHUNK]
            t0 = clock()
            for _ in range(len(chunk)):
                raw, cp = next(frames)
                v.add(raw, cp)
            t_verify += clock() - t0
            t0 = clock()
            _raw_loop(chunk)
            t_raw += clock() - t0
            t0 = clock()
            _raw_loop_checkpoints_only(chunk)
            t_cp += clock() - t0
        t0 = clock()
        if next(frames, None) is not None:
            raise AssertionError("bundle has more records than expected")
        report = v.finish()
        t_verify += clock() - t0
    return t_verify, t_raw, t_cp, report


def run() -> None:
    path = _cache_path(N_RECORDS)
    if path.exists():
        print(f"log: {path} (cached)")
    else:
        t0 = time.perf_counter()
        generate(path, N_RECORDS)
        print(f"log: {path} (generated in {time.perf_counter() - t0:.1f} s, not measured)")
    work = raw_work(path)
    n = len(work)
    sigs = sum(len(c) for _, c in work)
    w0 = time.perf_counter()
    t_verify, t_raw, t_cp, report = measure(path, work)
    wall = time.perf_counter() - w0
    if not report.ended or report.records != n:
        raise AssertionError(f"the benchmark log did not verify completely: {report}")
    print(f"records: {n} ({path.stat().st_size / 1e6:.1f} MB), Ed25519 verifications per record: {sigs / n:.2f}, "
          f"sealed values opened: {report.sealed}, rolls: {report.rolls}")
    print(f"verify (crypto steps, replay=False): {t_verify:.2f} CPU s = {n / t_verify:,.0f} records/s")
    print(f"raw limit (SHA-256 + Ed25519 only):  {t_raw:.2f} CPU s = {n / t_raw:,.0f} records/s")
    print(f"raw, checkpoint signatures only:     {t_cp:.2f} CPU s = {n / t_cp:,.0f} records/s "
          f"(the literal definition; every record but genesis and the end also has a seat signature, "
          f"which the verifier must check: raw/verify = {t_cp / t_verify:.3f})")
    print(f"(all three measured interleaved in {CHUNK}-record chunks; {wall:.1f} s wall clock)")
    print(f"ratio verify_crypto {t_raw / t_verify:.3f}")


if __name__ == "__main__":
    run()
