"""The offline verifier: SPEC.md section 10, step by step.

Each step raises VerificationError naming the step, the record (sequence
number), the check, and what was expected and found. The steps:

  1  bundle      the file is a bundle: magic, header, record frames
  2  encoding    each record is canonical, in genesis's format version, this game, seq = n
  3  chain       each record's prev is the hash of the one before (genesis: zeros)
  4  genesis     record 0 is a well-formed genesis; server key and seat keys as pinned
  5  checkpoint  after each record a checkpoint signed by the server key, for
                 origin, size seq+1 and the Merkle root of records 0..seq
  6  seats       every seat record is signed by its seat, counters go 1, 2, 3...,
                 the envelope matches the record (and its entropy/start events),
                 entropy reveals match commits
  7  openings    every published opening matches the commitment it names
  8  end         the end record is last and reveals the secret committed in genesis
  9  sealed      (ended games) every sealed value opens and matches its commitment;
                 every sealed command is signed by its seat
 10  dice        (ended games) every roll event is the roll the dice key gives, and
                 roll indices run 0, 1, 2... in log order
 11  replay      (ended games, known ruleset) re-executing the commands reproduces
                 every record byte for byte

A game still in progress verifies steps 1-8 as far as they go (SPEC.md 10.1) and says what is
not yet verifiable.

Each step is a function of the verifier's one state, the ``Verifier`` (what the records so far
established: keys, counters, the handshake, commitments, the tree, the replay's referee; apart from
it, what is read outside the checks: the ``Report`` of the whole log, and the ``Handoff`` of the
last record, its checkpoint and step 9's openings), named
for its number: ``step_2_encoding`` ... ``step_11_replay``. ``Verifier.add`` calls them in this
order for every record; a record's check of the protocol's rules asks engine/protocol_rules.py,
the referee's predicates. Steps 2-5 and 8 are here (4's genesis shape in genesis.py), 6 and 7 in
seats.py, 9-11 in replay.py (with ``ReplayReferee``, the referee step 11 drives), the endings'
checks (times, ending commands, the end's cause: part of 6 and 8) in endings.py.
"""
from __future__ import annotations

from typing import BinaryIO, Callable

from ..crypto import commit as _commit
from ..crypto import note as _note
from ..crypto.cosign import cosignatures_of, cosigner_ids
from ..crypto.merkle import CompactTree
from .. import protocol_rules as R
from ..errors import CryptoError, EncodingError, Rejection, VerificationError
from ..protocol import ZERO_HASH, Record, parse_record
from .bundle import read_bundle
from .endings import EndingsCheck
from .genesis import bytes32, genesis_options, genesis_shape
from .replay import ReplayReferee, step_11_replay, steps_9_10_sealed_and_dice
from .seats import step_6_seats, step_7_openings
from .steps import STEPS, Handoff, Report, _fail, describe_record, older_format_notes  # noqa: F401 (STEPS and Report are part of this module's API)


class Verifier:
    """Streaming verifier: feed records in order with ``add``, then ``finish``. Its attributes are
    the verifier's one state, which the step functions read and update."""

    def __init__(self, server_vkey: str, pinned_vkey: str | None = None, secret: bytes | None = None,
                 replay: bool = True, ruleset_lookup: Callable | None = None,
                 header_game: str | None = None, *,
                 pinned_seat_keys: dict[str, bytes] | None = None,
                 expected_game: str | None = None, expected_origin: str | None = None,
                 kept_checkpoint: str | None = None, require_cosigned: bool = False,
                 replay_in_place: bool = False, min_version: int | None = None) -> None:
        """``expected_game``, ``expected_origin``: what a seat's client knows before it reads the log
        (the game it joined, the origin its server uses), checked at step 4. ``kept_checkpoint``: a
        checkpoint note a seat kept (SPEC.md 11); the log must hold its tree size with its root
        (step 5). ``replay_in_place``: the replay applies each command to the referee's state
        without copying it first (a rejection fails step 11 anyway); for a caller that keeps no
        state or view of an earlier record (verify_bundle), since the state then changes under it.
        ``min_version``: the oldest format version accepted (`aar verify --min-version`; a seat's client
        gives protocol.FORMAT_VERSION): an older genesis fails step 2 at record 0 (SPEC.md 10 B.3)."""
        self.report = Report(server_vkey=server_vkey, pinned=pinned_vkey is not None,
                             pinned_seats=sorted(pinned_seat_keys or {}))
        self.pinned_seat_keys = dict(pinned_seat_keys or {})
        self.server = _server_key(server_vkey, pinned_vkey)
        self.expected_game = expected_game
        self.expected_origin = expected_origin
        self.kept = _kept_checkpoint(kept_checkpoint, self.server)
        self.require_cosigned = require_cosigned
        self.min_version = min_version
        self.secret = secret
        self.want_replay = replay
        self.replay_in_place = replay_in_place
        self.header_game = header_game
        self.lookup = ruleset_lookup
        self.replay_apart = False  # add does steps 2-10 only; another Verifier's replay_record does 11
        # every Ed25519 check of steps 5, 6 and 9: (public, msg, sig) -> bool, the rule of SPEC.md 7.4
        # (None: crypto/ed25519.verify_signature); `aar verify --jobs 2` gives the same function,
        # computed ahead in a second process when it can
        self.signature_check: Callable[[bytes, bytes, bytes], bool] | None = None
        self._start_records()

    def _start_records(self) -> None:
        """What the records establish, as the steps go: nothing before record 0."""
        self.unavailable = ""  # why the genesis ruleset is not available here (the lookup's words)
        self.tree = CompactTree()
        self.prev = ZERO_HASH
        self.game: str | None = None
        self.genesis: Record | None = None
        self.seat_keys: dict[str, bytes] = {}
        self.counters: dict[str, int] = {}
        self.entropy_commits: dict[str, bytes] = {}
        self.committed_at = 0  # seq of the record after the last seat's commit (0: not yet)
        self.entropy: dict[str, bytes] = {}
        self.commitments: dict[tuple[int, int], bytes] = {}
        self.origin = ""
        self.ended_at: int | None = None
        self.dice_key: bytes | None = None
        self.seal_key: bytes | None = None
        self.referee: ReplayReferee | None = None
        self.expected: list[bytes] = []  # records the replay produced ahead of the log (end record)
        self.next_roll = 0  # rolls are numbered 0, 1, 2... in log order (public and sealed alike)
        self.sealed_sizes: dict | None = None  # v >= 2: genesis's padded sizes (SPEC.md 6.5)
        self.prev_kind: str | None = None  # kind of the previous record (an end record follows a command)
        self.step = "2"  # the step in progress, named if a check fails unexpectedly (``add``)
        self.ends: EndingsCheck | None = None  # SPEC.md 8.1-8.3: times, ending commands, the end's cause
        self._env = None  # the public envelope of the seat record being checked
        # (seq, envelope bytes, signature, parsed envelope) of the last envelope step 6 or 9 checked
        self.checked_env: tuple | None = None
        self._cosigners: dict = {}  # (key name, key ID) -> seat, of the seats' cosigner keys (SPEC.md 4.5)
        self.handoff = Handoff()  # the last checkpoint and step 9's openings, for step 11 and outside readers

    # ------------------------------------------------------------------------
    def add(self, raw: bytes, checkpoint: str) -> Record:
        """Check the next record (SPEC.md 10 B) and return it parsed. Raises VerificationError,
        and nothing else: an unexpected exception (a check this verifier lacks) is reported as a
        failure of the step in progress at this record, never as a verified log or a crash."""
        seq = self.tree.size
        try:
            return self._add(raw, checkpoint)
        except VerificationError:
            raise
        except Exception as e:  # RecursionError, MemoryError, a TypeError on a shape not checked...
            raise _fail(self.step, seq, "the verifier failed on this record (the log is not verified)",
                        detail=f"{type(e).__name__}: {e}") from None

    def _add(self, raw: bytes, checkpoint: str) -> Record:
        rec = step_2_encoding(self, raw)
        step_3_chain(self, rec)
        step_8_nothing_after_the_end(self, rec)
        step_4_genesis(self, rec)
        step_5_checkpoint(self, rec, checkpoint)
        if rec.seq > 0:
            if rec.kind == "end":
                step_8_end(self, rec)
            else:
                step_6_seats(self, rec)
            step_7_openings(self, rec)
            if self.secret is not None:
                steps_9_10_sealed_and_dice(self, rec)
            if self.referee is not None and not self.replay_apart:
                step_11_replay(self, rec)
        if self.ends is not None:  # SPEC.md 8.1: which offers stand, for the next records' checks
            self.ends.record_done(rec, self._env if rec.kind == "command" else None)
        self.prev = rec.hash
        self.prev_kind = rec.kind
        self.report.records = rec.seq + 1
        return rec

    def replay_record(self, raw: bytes, opened: tuple[bytes, bytes] | None = None,
                      unsealed: dict | None = None) -> None:
        """Step 11 alone (clients/cli/verify_parallel.py), for the next record of a log whose steps
        2-10 another Verifier (same arguments, ``replay_apart`` set) passed; ``opened``: its
        ``handoff.opened`` after this record (a sealed command's envelope and signature, opened in step
        9); ``unsealed``: its ``handoff.unsealed`` of this record (the hidden values step 9 opened).
        Raises as ``add``."""
        seq = self.report.records
        try:
            rec = parse_record(raw, canonical=True)  # step 2 passed on these bytes
            self.handoff.opened = (seq, *opened) if opened is not None else None
            self.handoff.unsealed = (seq, unsealed) if unsealed else None
            if seq == 0:
                genesis_facts(self, rec)
            elif self.referee is not None:
                step_11_replay(self, rec)
        except VerificationError:
            raise
        except Exception as e:  # as in ``add``
            raise _fail("11", seq, "the verifier failed on this record (the log is not verified)",
                        detail=f"{type(e).__name__}: {e}") from None
        self.report.records = seq + 1

    def check_checkpoint(self, note: str) -> None:
        """Step 5 for a checkpoint received apart from its record (a client's stream): it must be
        the checkpoint of the log verified so far (origin, size, root)."""
        if self.tree.size == 0:
            raise _fail("5", None, "checkpoint before any record")
        checkpoint(self, self.tree.size - 1, note)

    def finish(self) -> Report:
        r = self.report
        if self.tree.size == 0:
            raise _fail("1", None, "bundle holds no records")
        if self.kept is not None and self.tree.size < self.kept.size:
            raise _fail("5", self.tree.size, "the log is shorter than the checkpoint a seat kept",
                        self.kept.size, self.tree.size, "records were cut off or the log was rewritten")
        if self.expected:
            raise _fail("11", self.tree.size, "replay produced a record the log does not have",
                        None, None, "the log ends early")
        if self.require_cosigned and r.cosigned != sorted(self.seat_keys):
            raise _fail("5", self.tree.size - 1, "the final checkpoint is cosigned by every seat (--require-cosigned)",
                        sorted(self.seat_keys), r.cosigned)
        r.ended = self.ended_at is not None
        if r.replayed and self.referee is not None:  # the version genesis names, as this build plays it
            r.replayed_with = f"{self.referee.ruleset.game}/{self.referee.ruleset.version}"
        if self.genesis is not None:
            r.notes.extend(older_format_notes(self.genesis.v))
        if not r.ended:
            r.notes.append("game in progress: dice, sealed values and replay are verifiable after the end record")
        elif self.referee is None:
            r.notes.append("outcome checked for its shape only: without the replay nothing shows it is the "
                           "rules' outcome (SPEC.md 10.3)")
            if not self.want_replay:
                r.notes.append("replay skipped (--no-replay)")
            else:
                r.notes.append(f"replay not done: ruleset {r.ruleset} is not available here ({self.unavailable})")
        return r


def _server_key(server_vkey: str, pinned_vkey: str | None):
    """Step 4 before any record: the header's server key is the pinned one, and a verifier key."""
    if pinned_vkey is not None and pinned_vkey != server_vkey:
        raise _fail("4", None, "server key differs from the pinned key", pinned_vkey, server_vkey)
    try:
        return _note.parse_vkey(server_vkey)
    except CryptoError as e:
        raise _fail("4", None, "server key is not a valid Ed25519 verifier key", detail=str(e)) from None


def _kept_checkpoint(note: str | None, server):
    """Step 5 before any record: the checkpoint a seat kept is signed by the server key (None: none kept)."""
    if note is None:
        return None
    try:
        text, _ = _note.open_note(note, [server])
        return _note.parse_checkpoint(text)
    except CryptoError as e:
        raise _fail("5", None, "the kept checkpoint is not signed by the server key", detail=str(e)) from None


# -- the steps, in the order ``Verifier.add`` calls them -------------------------------------
def step_2_encoding(v, raw: bytes) -> Record:
    """Step 2: the record is canonical, in genesis's format version, of this game, numbered n."""
    seq = v.tree.size
    v.step = "2"
    try:
        rec = parse_record(raw)
    except EncodingError as e:
        raise _fail("2", seq, "record is not canonical", detail=str(e)) from None
    if seq == 0:
        v.report.format = rec.v
        if v.min_version is not None and rec.v < v.min_version:  # no downgrade (SPEC.md 11)
            raise _fail("2", 0, f"format version (at least {v.min_version} is required)", v.min_version,
                        rec.v, f"a log of format v{rec.v} lacks guarantees of later versions: "
                        "SPEC.md 11, 'What each format version guarantees'")
    if rec.seq != seq:
        raise _fail("2", seq, "sequence number", seq, rec.seq)
    if v.game is not None and rec.game != v.game:
        raise _fail("2", seq, "game id", v.game, rec.game)
    if v.genesis is not None and rec.v != v.genesis.v:
        raise _fail("2", seq, "format version (every record carries genesis's)", v.genesis.v, rec.v)
    return rec


def step_3_chain(v, rec: Record) -> None:
    """Step 3: the record's prev is the hash of the one before (genesis: zeros)."""
    if rec.prev != v.prev:
        raise _fail("3", rec.seq, "previous record hash", v.prev, rec.prev)


def step_8_nothing_after_the_end(v, rec: Record) -> None:
    """Step 8: the end record is the log's last (the referee's GAME_OVER)."""
    if R.ended_problem(v.ended_at is not None) is not None:
        raise _fail("8", rec.seq, "record after the end record", None, rec.kind)


def step_4_genesis(v, rec: Record) -> None:
    """Step 4: record 0 is a well-formed genesis, as pinned and as the seat expects; no other is."""
    v.step = "4"
    if rec.seq == 0:
        genesis_facts(v, rec)
        _expectations(v, rec)
    elif rec.kind == "genesis":
        raise _fail("4", rec.seq, "second genesis record")


def step_5_checkpoint(v, rec: Record, note: str) -> None:
    """Step 5: after the record, a checkpoint signed by the server key, for the origin, size seq+1
    and the Merkle root of records 0..seq."""
    v.tree.append(rec.leaf)
    checkpoint(v, rec.seq, note, rec)
    v.handoff.checkpoint = note


def genesis_facts(v, rec: Record) -> None:
    """Step 4 for record 0: a well-formed genesis, as pinned; the state it starts (seats, keys,
    the ruleset and the replay's referee)."""
    if rec.kind != "genesis":
        raise _fail("4", 0, "record 0 kind", "genesis", rec.kind)
    b = rec.body
    keys, sizes = genesis_shape(rec)
    if rec.v >= 2:
        v.sealed_sizes = sizes
    rs, server = b["ruleset"], b["server"]
    if server["vkey"] != v.report.server_vkey:
        raise _fail("4", 0, "server key in genesis", v.report.server_vkey, server["vkey"])
    if v.header_game is not None and rec.game != v.header_game:
        raise _fail("4", 0, "game id in the bundle header", rec.game, v.header_game)
    for seat, key in sorted(v.pinned_seat_keys.items()):  # SPEC.md 10, A.2 / B.6
        if seat not in keys:
            raise _fail("4", 0, f"pinned seat {seat} is not a seat of genesis", seat, sorted(keys))
        if keys[seat] != key:
            raise _fail("4", 0, f"seat {seat} key differs from the pinned key", key, keys[seat])
    v.game = rec.game
    v.genesis = rec
    v.ends = EndingsCheck(rec)
    v.origin = server["origin"]
    v.seat_keys = keys
    v._cosigners = cosigner_ids(v.origin, keys)
    v.report.seat_keys = dict(keys)
    v.report.match = b.get("match")
    v.counters = {s: 0 for s in keys}
    v.report.game = rec.game
    v.report.ruleset = f"{rs['game']}/{rs['version']}"
    ruleset, why = None, "no ruleset lookup"
    if v.lookup is not None:
        try:
            ruleset = v.lookup(rs["game"], rs["version"])
        except Rejection as e:
            ruleset, why = None, e.message
    if ruleset is not None:
        genesis_options(ruleset, b)
    else:  # SPEC.md 10.3: a version the verifier does not have is not replayed, and it says so
        v.unavailable = why
        v.report.notes.append(f"ruleset {v.report.ruleset} is not available here ({why}): "
                              "genesis options and seats not checked against it")
    if v.secret is not None:
        if _commit.server_secret_commitment(rec.game, v.secret) != b["secret_commit"]:
            raise _fail("8", 0, "the revealed server secret does not match the genesis commitment")
        v.seal_key = _commit.seal_key(v.secret, rec.game)
        if v.want_replay and ruleset is not None:
            v.referee = ReplayReferee(rec, ruleset, v.secret, v.replay_in_place)


def _expectations(v, rec: Record) -> None:
    """Step 4, what a seat knew before it read the log: its game, its server's origin."""
    if v.expected_game is not None and rec.game != v.expected_game:
        raise _fail("4", 0, "game id (the game the seat joined)", v.expected_game, rec.game)
    if v.expected_origin is not None and v.origin != v.expected_origin:
        raise _fail("4", 0, "checkpoint origin in genesis (the one the seat expects)",
                    v.expected_origin, v.origin)
    if v.kept is not None and v.kept.origin != v.origin:
        raise _fail("5", 0, "origin of the checkpoint a seat kept (a checkpoint of another log)",
                    v.origin, v.kept.origin)


def checkpoint(v, seq: int, note: str, rec=None) -> None:
    """Step 5: ``note`` is the server's checkpoint of the log up to record ``seq`` (and its seats'
    cosignatures verify)."""
    v.step = "5"
    try:
        text, sigs = _note.split_note(note)  # once: the server's signature, then the seats'
        _note.verified_signatures(text, sigs, [v.server], v.signature_check)
        cp = _note.parse_checkpoint(text)
    except CryptoError as e:
        raise _fail("5", seq, "checkpoint signature", detail=str(e)) from None
    if cp.origin != v.origin:
        raise _fail("5", seq, "checkpoint origin", v.origin, cp.origin)
    if cp.size != seq + 1:
        raise _fail("5", seq, "checkpoint tree size", seq + 1, cp.size)
    root = v.tree.root()
    if cp.root != root:  # earlier records matched their own checkpoints: this one changed after signing
        what = f", {describe_record(rec)}," if rec is not None else ""
        raise _fail("5", seq, f"checkpoint root: record {seq}{what} was changed after the server signed "
                    f"its checkpoint (tree size {seq + 1}): the signed root no longer covers its bytes",
                    root, cp.root)
    try:  # SPEC.md 4.5: every seat cosignature the note carries verifies
        v.report.cosigned = sorted(cosignatures_of(text, sigs, v._cosigners, v.seat_keys, v.signature_check))
    except CryptoError as e:
        raise _fail("5", seq, "seat cosignature of the checkpoint", detail=str(e)) from None
    if v.kept is not None and v.kept.size == seq + 1:
        if v.kept.root != root:
            raise _fail("5", seq, "root of the tree differs from the checkpoint a seat kept "
                        "(the log was rewritten after that seat saw it)", v.kept.root, root)
        v.report.kept_checkpoint = v.kept.size


def step_8_end(v, rec: Record) -> None:
    """Step 8 for the end record: its cause and outcome, and the secret committed in genesis."""
    v.step = "8"
    b = rec.body
    # the record before, the body's keys, the cause and its outcome (SPEC.md 8, 8.3)
    v.report.cause = v.ends.end(rec, v.prev_kind)
    out = b["outcome"]
    if type(out) is not dict or "winner" not in out or type(out.get("reason")) is not str \
            or not (out["winner"] is None or (type(out["winner"]) is str and out["winner"] in v.seat_keys)):
        raise _fail("8", rec.seq, "outcome is a map with winner (a seat of genesis or nil) and text reason",
                    None, repr(out))
    s = rec.body.get("secret")
    if not bytes32(s) or _commit.server_secret_commitment(v.game, s) != v.genesis.body["secret_commit"]:
        raise _fail("8", rec.seq, "the end record's secret does not match the genesis commitment")
    if v.secret is not None and s != v.secret:
        raise _fail("8", rec.seq, "the bundle header's secret differs from the end record's")
    v.ended_at = rec.seq
    v.report.outcome = rec.body.get("outcome")


def verify_bundle(f: BinaryIO, pinned_vkey: str | None = None, replay: bool = True,
                  progress: Callable[[int, int], None] | None = None,
                  pinned_seat_keys: dict[str, bytes] | None = None,
                  kept_checkpoint: str | None = None, require_cosigned: bool = False,
                  drive: Callable | None = None, min_version: int | None = None) -> Report:
    """Verify a bundle file object. Raises VerificationError on the first failure.

    ``pinned_seat_keys`` (seat name -> 32-byte Ed25519 public key): genesis must list
    each of these seats with exactly this key (step 4). ``kept_checkpoint``: a checkpoint note
    a seat kept; the log must contain its tree size with the same root (step 5). ``min_version``: the
    oldest format version accepted (step 2 at record 0). ``drive(v, header,
    records, progress) -> Report`` feeds the frames to the Verifier (default ``verify_frames``; `aar
    verify --jobs 2`: clients/cli/verify_parallel.py)."""
    from .. import registry

    try:
        header, records = read_bundle(f)
    except EncodingError as e:
        raise _fail("1", None, "bundle", detail=str(e)) from None
    secret = header.get("secret")  # read_bundle checked: absent, or 32 bytes
    try:
        v = Verifier(header["server_vkey"], pinned_vkey, secret, replay, registry.get, header["game"],
                     pinned_seat_keys=pinned_seat_keys, kept_checkpoint=kept_checkpoint,
                     require_cosigned=require_cosigned, replay_in_place=True, min_version=min_version)
    except VerificationError:
        raise
    except Exception as e:  # never a traceback (SPEC.md 10.2)
        raise _fail("4", None, "server key", detail=f"{type(e).__name__}: {e}") from None
    try:
        return (drive or verify_frames)(v, header, records, progress)
    except VerificationError as e:
        v.report.verified = False
        e.report = v.report  # what was verified before the failure (aar verify --json carries it)
        raise


def next_frame(v: Verifier, records) -> tuple[bytes, str] | None:
    """Step 1 for the next record frame: (record bytes, checkpoint), None after the last."""
    try:
        return next(records, None)
    except EncodingError as e:  # a frame that is not a record frame, cut off, or trailing bytes
        raise _fail("1", v.tree.size, "bundle", detail=str(e)) from None


def verify_frames(v: Verifier, header: dict, records, progress) -> Report:
    total = header["records"]
    while True:
        item = next_frame(v, records)
        if item is None:
            break
        v.add(*item)
        if progress is not None:
            progress(v.report.records, total)
    check_end_of_log(v, header)
    return v.finish()


def check_end_of_log(v: Verifier, header: dict) -> None:
    """SPEC.md 10 C, in its order, once every record frame was read: the record count of the
    header, and the header's secret against the end record."""
    if v.tree.size == 0:  # before 10 C.14: a bundle with no record is unreadable (exit 2), secret or not
        raise _fail("1", None, "bundle holds no records")
    if v.tree.size != header["records"]:
        raise _fail("1", v.tree.size, "record count in the header", header["records"], v.tree.size)
    if header.get("secret") is not None and v.ended_at is None:
        raise _fail("8", v.tree.size, "the header carries a secret but the log has no end record")
    if header.get("secret") is None and v.ended_at is not None:
        raise _fail("1", v.ended_at, "the log ended but the header does not carry the secret")
