"""Every rejection code, once: its gRPC status, what it means, and whether the reference client
retries it. The one source of the codes:

- ``service/status.py`` maps a code to its gRPC status from ``Code.status``;
- docs/service-codes.md's table is generated from this module
  (``python -m afteraction.engine.codes``; tests/engine/test_codes.py fails if the two differ);
- the client's retry set (``afteraction.client.client.TRANSIENT``) is the codes with ``retry``;
- SPEC.md 7.3 names every code of scope ``core``.

A ``Rejection`` takes only a member of ``Code`` (``Rejection(Code.X, ...)``; a plain string is
refused), so a new code is added here first, with its status and meaning; tests/engine/test_codes.py
also reads every raise site in engine/ and service/ (with ``ast``) and fails on one that does not
name its ``Code.X``.

The engine does not import grpc: ``status`` is the name of a gRPC status code
(``grpc.StatusCode[name]``). A code is also a ``str`` (``Code.MALFORMED == "MALFORMED"``), and
``Rejection.code`` is the plain string that goes on the wire.

Scopes: ``core`` the referee's pipeline and game creation (SPEC.md 7.3), ``service`` the
service's own refusals, ``rules`` what a ruleset refuses (the message names the rule),
``local`` the in-process games of engine/local.py (never on the wire).
"""
from __future__ import annotations

from enum import StrEnum

#: ErrorInfo.domain of every refusal the service sends
DOMAIN = "afteraction"

#: the gRPC status codes by name (grpc.StatusCode), in their numeric order
STATUSES = ("OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
            "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
            "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
            "UNAUTHENTICATED")
SCOPES = ("core", "service", "rules", "local")

# short names for the table below
_AUTH, _PERM, _EXISTS = "UNAUTHENTICATED", "PERMISSION_DENIED", "ALREADY_EXISTS"
_PRE, _ARG, _ABORT = "FAILED_PRECONDITION", "INVALID_ARGUMENT", "ABORTED"
_RANGE, _FOUND, _RES = "OUT_OF_RANGE", "NOT_FOUND", "RESOURCE_EXHAUSTED"
_DEAD, _UNAV, _INT, _UNIMPL = "DEADLINE_EXCEEDED", "UNAVAILABLE", "INTERNAL", "UNIMPLEMENTED"
RETRIED = True  # the last field of a code the reference client retries


class Code(StrEnum):
    """A rejection code: ``Code.X.status`` (gRPC status name), ``.meaning`` (one line),
    ``.scope`` (see the module), ``.retry`` (the reference client retries it)."""

    def __new__(cls, value: str, status: str, scope: str, meaning: str, retry: bool = False):
        obj = str.__new__(cls, value)
        obj._value_ = value
        obj.status = status
        obj.scope = scope
        obj.meaning = meaning
        obj.retry = retry
        return obj

    # -- the referee's pipeline (SPEC.md 7.3) ------------------------------------------------
    MALFORMED = ("MALFORMED", _ARG, "core",
                 "bytes that are not the request message, not a SignedCommand/envelope (or not its "
                 "deterministic encoding, SPEC.md 7.1), a string that is not UTF-8, a field of the wrong size")
    WRONG_GAME = ("WRONG_GAME", _ARG, "core", "the envelope names another game")
    UNKNOWN_SEAT = ("UNKNOWN_SEAT", _PERM, "core", "no such seat in this game")
    BAD_SIGNATURE = ("BAD_SIGNATURE", _AUTH, "core", "the command's signature does not verify with the seat key")
    COUNTER_REUSED = ("COUNTER_REUSED", _EXISTS, "core",
                      "a different command with a used counter (the same bytes get the original result, OK)")
    COUNTER_GAP = ("COUNTER_GAP", _PRE, "core", "the counter skips one: the seat's next counter is last + 1",
                   RETRIED)
    GAME_OVER = ("GAME_OVER", _PRE, "core", "the game has ended")
    HANDSHAKE_OVER = ("HANDSHAKE_OVER", _PRE, "core", "an entropy commit or reveal after the dice handshake completed")
    HANDSHAKE_INCOMPLETE = ("HANDSHAKE_INCOMPLETE", _PRE, "core",
                            "a reveal before every seat committed, or a command before the handshake completed "
                            "(SPEC.md 5.2)")
    ALREADY_COMMITTED = ("ALREADY_COMMITTED", _PRE, "core", "the seat has committed its entropy")
    ALREADY_REVEALED = ("ALREADY_REVEALED", _PRE, "core", "the seat has revealed its entropy")
    BAD_REVEAL = ("BAD_REVEAL", _PRE, "core",
                  "the revealed entropy does not match the seat's commitment (SPEC.md 5.2); in GMV also a reveal "
                  "of other hidden units than the rule asks for")
    STALE_STATE = ("STALE_STATE", _PRE, "core", "state_seq is not the log size: the seat saw an older position",
                   RETRIED)
    WRONG_HISTORY = ("WRONG_HISTORY", _PRE, "core",
                     "format version 2: the envelope's prev is not the hash of the log's last record: the seat "
                     "saw another history (not retried)")
    NOT_YOUR_DECISION = ("NOT_YOUR_DECISION", _PERM, "core", "the pending decision is another seat's")
    COMMAND_TOO_LARGE = ("COMMAND_TOO_LARGE", _ARG, "core",
                         "a sealed command larger than its seat's padded size (SPEC.md 6.5)")
    TOO_MANY_EVENTS = ("TOO_MANY_EVENTS", _PRE, "core",
                       "the command would make more events than the ruleset's max_events (SPEC.md 10 B.6)")
    # -- the endings every game has (SPEC.md 8.1-8.2, engine/endings.py) --------------------
    NO_OFFER = ("NO_OFFER", _PRE, "core",
                "an acceptance of an offer that does not stand (v2: not in the last record; v3: answered by another "
                "seat's record), is the seat's own, or is for another result (SPEC.md 8.1)")
    OFFER_STANDING = ("OFFER_STANDING", _PRE, "core",
                      "(v3) an offer by a seat whose own offer still stands: one standing offer per seat until "
                      "another seat answers it (SPEC.md 8.1)")
    BAD_RESULT = ("BAD_RESULT", _ARG, "core", "an offer whose winner is not a seat of the game (SPEC.md 8.1)")
    TIME_EXPIRED = ("TIME_EXPIRED", _PRE, "core",
                    "a deadline of the game's time control passed: the server ends the game (SPEC.md 8.2)")
    # -- game creation and a referee's start (SPEC.md 7.3, 7.4) ------------------------------
    UNKNOWN_RULESET = ("UNKNOWN_RULESET", _ARG, "core", "no ruleset (game, version) in the registry")
    UNKNOWN_SCENARIO = ("UNKNOWN_SCENARIO", _ARG, "core", "the ruleset has no such scenario")
    UNKNOWN_OPTION = ("UNKNOWN_OPTION", _ARG, "core", "the ruleset has no such option")
    BAD_OPTION = ("BAD_OPTION", _ARG, "core", "an option of the wrong type or outside what the ruleset allows")
    BAD_CLOCK = ("BAD_CLOCK", _ARG, "core",
                 "a time control outside its bounds, or in format version 1 (SPEC.md 8.2, docs/service.md)")
    BAD_MATCH = ("BAD_MATCH", _ARG, "core",
                 "match data of another shape than SPEC.md 1.3 allows, or in format version 1")
    BAD_SEATS = ("BAD_SEATS", _ARG, "core", "the seats given are not the ruleset's (or one is given twice)")
    BAD_SEAT_KEY = ("BAD_SEAT_KEY", _ARG, "core", "a seat key that is not 32 bytes")
    WEAK_SEAT_KEY = ("WEAK_SEAT_KEY", _ARG, "core",
                     "a seat key the key rule of SPEC.md 7.4 refuses: small or mixed order, not canonical, "
                     "not a point (the message names the seat and why)")
    SHARED_SEAT_KEY = ("SHARED_SEAT_KEY", _ARG, "core", "two seats with one key (the message names both)")
    BAD_GENESIS = ("BAD_GENESIS", _PRE, "core",
                   "a referee started on a record that is not a well-formed genesis (also a seat key 7.4 refuses)")
    BAD_SECRET = ("BAD_SECRET", _PRE, "core", "the server secret does not match the genesis commitment")

    # -- the service's own refusals (docs/service.md) ----------------------------------------
    AUTH_REQUIRED = ("AUTH_REQUIRED", _AUTH, "service", "this read needs a SeatAuth signed by the seat's key")
    BAD_AUTH = ("BAD_AUTH", _AUTH, "service", "the SeatAuth does not verify with the seat's key (or its nonce "
                                                "is not 16 bytes)")
    AUTH_EXPIRED = ("AUTH_EXPIRED", _AUTH, "service", "the SeatAuth was issued too far from the server clock")
    WRONG_SEAT = ("WRONG_SEAT", _PERM, "service", "a Play stream takes only its own seat's commands")
    LOST_RACE = ("LOST_RACE", _ABORT, "service", "another writer appended first three times in a row; retry",
                 RETRIED)
    BAD_ARGUMENT = ("BAD_ARGUMENT", _ARG, "service",
                    "a request field that cannot be right (options_json not a JSON object, a Play stream "
                    "not opened by a join, a cosignature past 1 KiB)")
    BAD_COSIGNATURE = ("BAD_COSIGNATURE", _ARG, "service",
                       "AddCosignature: not that seat's valid cosignature of that checkpoint (SPEC.md 4.5); "
                       "CosignLedger: not a registered player's (SPEC.md 15.2)")
    FIELD_TOO_LONG = ("FIELD_TOO_LONG", _ARG, "service",
                      "a field past its limit (metadata field, limit, size)")
    RECORD_TOO_LARGE = ("RECORD_TOO_LARGE", _ARG, "service",
                        "the command would make a record past MAX_RECORD_BYTES")
    UNKNOWN_RPC = ("UNKNOWN_RPC", _UNIMPL, "service", "no such method")
    REQUEST_TOO_LARGE = ("REQUEST_TOO_LARGE", _RES, "service", "a request past MAX_REQUEST_BYTES")
    TOO_MANY_STREAMS = ("TOO_MANY_STREAMS", _RES, "service", "MAX_STREAMS streams are open")
    SLOW_READER = ("SLOW_READER", _RES, "service",
                   "a stream's client read nothing for STALLED_STREAM_S while a message waited for it: the stream "
                   "ended; open it again from the next record (metadata limit)")
    OVERLOADED = ("OVERLOADED", _RES, "service",
                  "MAX_PENDING_CALLS calls or MAX_EXPORTS exports in progress, or MAX_REFLECTION_REQUESTS "
                  "on one reflection stream; retry later")
    OUT_OF_RANGE = ("OUT_OF_RANGE", _RANGE, "service",
                    "a from_seq past the log's size, proof sizes outside the log, a number past MAX_SEQ, an "
                    "envelope counter of 0")
    UNKNOWN_GAME = ("UNKNOWN_GAME", _FOUND, "service", "no such game")
    UNKNOWN_SERVICE = ("UNKNOWN_SERVICE", _FOUND, "service", "a health check of a service this server does not have")
    DEADLINE = ("DEADLINE", _DEAD, "service", "the deadline passed before the append; nothing stored", RETRIED)
    SHUTTING_DOWN = ("SHUTTING_DOWN", _UNAV, "service", "the server is shutting down; retry on another replica",
                     RETRIED)
    STORE_UNAVAILABLE = ("STORE_UNAVAILABLE", _UNAV, "service", "the store is unavailable; the same bytes are safe "
                                                                "to retry", RETRIED)
    NOT_ENDED = ("NOT_ENDED", _PRE, "service", "the server secret is revealed only after the game has ended")
    WRONG_SERVER_KEY = ("WRONG_SERVER_KEY", _PRE, "service",
                        "this replica's key is not the one in the game's genesis")
    # -- the LeagueService (service/league/manager.py, docs/league.md) --------------------------------
    UNKNOWN_LEAGUE = ("UNKNOWN_LEAGUE", _FOUND, "service", "no such league on this server")
    LEAGUE_EXISTS = ("LEAGUE_EXISTS", _EXISTS, "service", "a league with this id exists on this server")
    LEAGUE_REFUSED = ("LEAGUE_REFUSED", _PRE, "service",
                      "the league's rules (SPEC.md 15.4) refuse the entry; nothing appended (metadata check: the "
                      "check that failed)")
    BAD_LEAGUE_ENTRY = ("BAD_LEAGUE_ENTRY", _ARG, "service",
                        "a league entry body that is not canonical or not of its kind's shape, or a signed statement "
                        "whose key or signature is not 32 or 64 bytes (SPEC.md 15.1, 15.3)")
    ORGANISER_AUTH = ("ORGANISER_AUTH", _AUTH, "service",
                      "OpenRound, ReplayBoard, PublishStandings: no OrganiserAuth, or not the league organiser's "
                      "signature of this league, call and ledger size (SPEC.md 15.12)")
    NOT_A_LEAGUE_GAME = ("NOT_A_LEAGUE_GAME", _PRE, "service",
                         "witness: the game is not a live game of this league on this server, or the checkpoint is "
                         "not of its log (SPEC.md 15.11)")
    INTERNAL = ("INTERNAL", _INT, "service",
                "the stored log and the referee disagree, a bug, or a tampered store (metadata incident, also "
                "in the server log)")

    # -- local games (engine/local.py) -------------------------------------------------------
    NO_LEGAL_COMMAND = ("NO_LEGAL_COMMAND", _PRE, "local", "a local game's seat has no legal command to play")

    # -- rule rejections of every ruleset ----------------------------------------------------
    ILLEGAL_COMMAND = ("ILLEGAL_COMMAND", _PRE, "rules", "the command does not answer the pending decision")
    WRONG_GAME_COMMAND = ("WRONG_GAME_COMMAND", _PRE, "rules", "a command of another game than this ruleset's")
    ILLEGAL_MOVE = ("ILLEGAL_MOVE", _PRE, "rules", "a move the movement rules do not allow")

    # -- GMV (docs/rules/gmv.md) -------------------------------------------------------------
    ALREADY_ACTED = ("ALREADY_ACTED", _PRE, "rules", "GMV: the unit has already acted (or flown a mission) this turn")
    ALREADY_BUILT = ("ALREADY_BUILT", _PRE, "rules", "GMV: the zone already has that airbase or improvement")
    BAD_CARGO = ("BAD_CARGO", _PRE, "rules", "GMV: a helicopter's cargo is infantry or artillery from one zone, "
                                             "based where it may be")
    BAD_CASUALTIES = ("BAD_CASUALTIES", _PRE, "rules", "GMV: not exactly the casualties the owner must choose")
    BAD_COVER = ("BAD_COVER", _PRE, "rules",
                 "GMV: a withdrawal leaves no unit of every attack/defense level present behind")
    BAD_IMPROVEMENT = ("BAD_IMPROVEMENT", _PRE, "rules", "GMV: build an LZ, artillery positions or an airbase")
    BAD_PLACEMENT = ("BAD_PLACEMENT", _PRE, "rules", "GMV Phase 5: a purchased unit placed where it may not go")
    BAD_SUPPORT = ("BAD_SUPPORT", _PRE, "rules", "GMV: a supporting unit that cannot join the battle")
    BAD_UNIT = ("BAD_UNIT", _PRE, "rules", "GMV: not one of the seat's units of the kind the rule asks for")
    BAD_UNIT_TYPE = ("BAD_UNIT_TYPE", _PRE, "rules", "GMV Phase 1: a unit type the seat may not buy")
    BAD_ZONE = ("BAD_ZONE", _PRE, "rules", "GMV: no such zone, or a zone the rule does not allow")
    CANNOT_INFILTRATE = ("CANNOT_INFILTRATE", _PRE, "rules", "GMV: only infantry and artillery infiltrate")
    MUST_PLACE = ("MUST_PLACE", _PRE, "rules", "GMV Phase 5: purchased units are placed first")
    MUST_WAIT = ("MUST_WAIT", _PRE, "rules", "GMV: a unit revealed this turn waits one turn")
    NORTH_TO_SOUTH = ("NORTH_TO_SOUTH", _PRE, "rules", "GMV: American actions go from north to south")
    NOT_ENOUGH_IPC = ("NOT_ENOUGH_IPC", _PRE, "rules", "GMV Phase 1: the purchase costs more than the seat has")
    NOT_PURCHASED = ("NOT_PURCHASED", _PRE, "rules", "GMV Phase 5: no purchased unit of that type waits to be placed")
    NO_AIRBASE = ("NO_AIRBASE", _PRE, "rules", "GMV: aircraft and helicopters end on an airbase (or the carrier)")
    NO_ENEMY = ("NO_ENEMY", _PRE, "rules", "GMV: an attack needs American units in the zone")
    NO_LEGAL_WITHDRAWAL = ("NO_LEGAL_WITHDRAWAL", _PRE, "rules",
                           "GMV: a withdrawing unit cannot legally move where the withdrawal goes")
    NO_R_RATING = ("NO_R_RATING", _PRE, "rules", "GMV: the zone has no R-rating to recruit in")
    NO_UNITS = ("NO_UNITS", _PRE, "rules", "GMV: the command names no unit")
    OVER_CAPACITY = ("OVER_CAPACITY", _PRE, "rules", "GMV: more cargo than a helicopter carries")
    TOO_FAR = ("TOO_FAR", _PRE, "rules", "GMV: a move past the unit's range")
    TWO_TURNS = ("TWO_TURNS", _PRE, "rules", "GMV: an airbase takes two turns to build")

    # -- NTND (docs/rules/ntnd.md) -----------------------------------------------------------
    ILLEGAL_ADVANCE = ("ILLEGAL_ADVANCE", _PRE, "rules", "NTND 19.4: an advance after combat the rule does not allow")
    ILLEGAL_AID = ("ILLEGAL_AID", _PRE, "rules", "NTND 27.2-27.4: an aid unit the due source does not give, or "
                                               "placed where it may not go")
    ILLEGAL_AMBUSH = ("ILLEGAL_AMBUSH", _PRE, "rules", "NTND 20.2/20.3: ambushers that may not ambush this unit")
    ILLEGAL_ANNOUNCEMENT = ("ILLEGAL_ANNOUNCEMENT", _PRE, "rules", "NTND 10.2/8.5.1/10.8: a ZOC extension across a "
                                                                   "border that may not be announced (or taken back) "
                                                                   "now")
    ILLEGAL_ATTACK = ("ILLEGAL_ATTACK", _PRE, "rules", "NTND 19.1/8.6.3: an attack the combat rules do not allow")
    ILLEGAL_BREAKDOWN = ("ILLEGAL_BREAKDOWN", _PRE, "rules", "NTND 6.1.3: a division breakdown the rule does not allow")
    ILLEGAL_CHOICE = ("ILLEGAL_CHOICE", _PRE, "rules", "NTND 21: a choice a random event does not offer")
    ILLEGAL_DECLARATION = ("ILLEGAL_DECLARATION", _PRE, "rules",
                           "NTND 26.1/24.1-24.4.4: a National Uprising, or a Vietnamization declaration or "
                           "reversal, declared when it may not be")
    ILLEGAL_DRAFT = ("ILLEGAL_DRAFT", _PRE, "rules", "NTND 4.5.2: a second South Vietnamese draft in one turn")
    ILLEGAL_COUP = ("ILLEGAL_COUP", _PRE, "rules", "NTND 10.5.2: a coup where or when the rule does not allow one")
    ILLEGAL_BASE = ("ILLEGAL_BASE", _PRE, "rules", "NTND 28.9.3/28.9.7: a VC base built or used where the rule "
                    "does not allow")
    ILLEGAL_EXPEND = ("ILLEGAL_EXPEND", _PRE, "rules", "NTND 7.4/28.4.2: a unit that may not be expended for Hearts "
                      "and Minds now")
    ILLEGAL_ALLOCATION = ("ILLEGAL_ALLOCATION", _PRE, "rules", "NTND 7.2/7.2.1: replacement points the pool does not "
                          "have, or an area the pool may not influence")
    ILLEGAL_AA_FIRE = ("ILLEGAL_AA_FIRE", _PRE, "rules", "NTND 12.1: anti-aircraft fire by units that may not fire "
                                                         "at this mission")
    ILLEGAL_AIR_LOSSES = ("ILLEGAL_AIR_LOSSES", _PRE, "rules", "NTND 11.1.1.2: not a unit the bombing may destroy")
    ILLEGAL_AIR_MISSION = ("ILLEGAL_AIR_MISSION", _PRE, "rules", "NTND 11, 28.1: an air mission the rules do not "
                                                                 "allow here or now")
    ILLEGAL_FLIP = ("ILLEGAL_FLIP", _PRE, "rules", "NTND 6.2: a flip of a marker that may not flip now")
    ILLEGAL_INVERT = ("ILLEGAL_INVERT", _PRE, "rules", "NTND 6.2: units that may not be inverted")
    ILLEGAL_LOSSES = ("ILLEGAL_LOSSES", _PRE, "rules", "NTND 8.10.2/19.3.2: not exactly the units to eliminate")
    ILLEGAL_MINING = ("ILLEGAL_MINING", _PRE, "rules", "NTND 14.2.2: Haiphong mined when the fleet did not enter it "
                                                       "this Allied movement phase, or mined twice")
    ILLEGAL_PLACEMENT = ("ILLEGAL_PLACEMENT", _PRE, "rules", "NTND 4-5: a unit placed where (or when) it may not enter")
    ILLEGAL_PROMOTION = ("ILLEGAL_PROMOTION", _PRE, "rules", "NTND 6.1: a cadre promotion the rule does not allow")
    ILLEGAL_PURCHASE = ("ILLEGAL_PURCHASE", _PRE, "rules", "NTND 4.2.3/4.2.5: a replacement purchase the rule does "
                                                           "not allow")
    ILLEGAL_REASSIGN = ("ILLEGAL_REASSIGN", _PRE, "rules", "NTND 5.7/28.5: a corps reassignment (of a divisional group "
                                                           "or an ARVN Ranger) the rule does not allow")
    ILLEGAL_RECALL = ("ILLEGAL_RECALL", _PRE, "rules", "NTND 15.2.3: a Green Beret withdrawal the rule does not allow")
    ILLEGAL_RELOCATION = ("ILLEGAL_RELOCATION", _PRE, "rules",
                          "NTND 5.8: a firebase relocation the rule does not allow")
    ILLEGAL_RETREAT = ("ILLEGAL_RETREAT", _PRE, "rules", "NTND 19.3: a retreat the rule does not allow")
    ILLEGAL_WITHDRAWAL = ("ILLEGAL_WITHDRAWAL", _PRE, "rules", "NTND 4.3.1/23.3/24.3.1: a withdrawal the rules do "
                                                               "not allow or ask for now, or a policy step ended "
                                                               "before a required withdrawal")
    ILLEGAL_TRANSFER = ("ILLEGAL_TRANSFER", _PRE, "rules", "NTND 24.3.5: a transfer to the ARVN the rule does not "
                                                           "allow (not under Partial Vietnamization, not a U.S. "
                                                           "firebase on the map)")
    ILLEGAL_SUPPLY = ("ILLEGAL_SUPPLY", _PRE, "rules", "NTND 18.6.2: not the supply units that supplied the attackers")
    OVERSTACKED = ("OVERSTACKED", _PRE, "rules", "NTND 8.10: the placement would over-stack the hex")
    NTND_AMBUSH_AIRMOBILE = ("NTND_AMBUSH_AIRMOBILE", _PRE, "rules",
                             "NTND 20.7: airmobile units are ambushed by NVA divisions or armor only")
    NTND_AMBUSH_FACE_UP = ("NTND_AMBUSH_FACE_UP", _PRE, "rules", "NTND 20.2/20.3: only inverted units ambush")
    NTND_AMBUSH_TARGET = ("NTND_AMBUSH_TARGET", _PRE, "rules", "NTND 20.2: an ambush is against an Allied ground unit")
    NTND_AMBUSH_UNITS = ("NTND_AMBUSH_UNITS", _PRE, "rules",
                         "NTND 20.2/20.3: ambushers are Communist units with a combat value")
    NTND_COMBAT_ATTACKER = ("NTND_COMBAT_ATTACKER", _PRE, "rules",
                            "NTND 19.2.1: only ground combat units attack (artillery, firebases, patrol boats alone)")
    NTND_COMBAT_EMPTY = ("NTND_COMBAT_EMPTY", _PRE, "rules", "NTND 19.1: a battle needs attacking and defending units")
    NTND_COMBAT_FLEET = ("NTND_COMBAT_FLEET", _PRE, "rules", "NTND 14.2: the fleet is never affected by combat")
    NTND_COMBAT_INVERTED = ("NTND_COMBAT_INVERTED", _PRE, "rules",
                            "NTND 19.1/6.2.1: only face-up units attack or are attacked")
    NTND_COMBAT_SIDES = ("NTND_COMBAT_SIDES", _PRE, "rules",
                         "NTND 19.1: attackers are one player's units, defenders the other's")
    NTND_COMBAT_TWICE = ("NTND_COMBAT_TWICE", _PRE, "rules",
                         "NTND 19.1.3: a unit attacks, and is attacked, once a combat phase")
    NTND_LOSS_COUNT = ("NTND_LOSS_COUNT", _PRE, "rules", "NTND 19.2.6: not the number of losses the battle requires")
    NTND_LOSS_UNIT = ("NTND_LOSS_UNIT", _PRE, "rules", "NTND 19.2.6: a unit that may not be taken as a loss")

    # -- SOG (docs/rules/sog.md) -------------------------------------------------------------
    ILLEGAL_TEAM = ("ILLEGAL_TEAM", _PRE, "rules", "SOG 3.2: a team the team rules do not allow")
    ILLEGAL_INSERTION = ("ILLEGAL_INSERTION", _PRE, "rules", "SOG 3.4: an insertion the rule does not allow")
    ILLEGAL_LZ = ("ILLEGAL_LZ", _PRE, "rules", "SOG 3.4.3: no such LZ on the map")
    ILLEGAL_ABORT = ("ILLEGAL_ABORT", _PRE, "rules",
                     "SOG 3.9: a mission aborts only before the team reaches the Target")
    ILLEGAL_EXTRACTION = ("ILLEGAL_EXTRACTION", _PRE, "rules", "SOG 3.7: an extraction the rule does not allow")
    ILLEGAL_PANEL = ("ILLEGAL_PANEL", _PRE, "rules", "SOG 3.1.1/4.2.1: the Ambush is fought on map panel 2 or 3")
    ILLEGAL_LEADER = ("ILLEGAL_LEADER", _PRE, "rules", "SOG 4.1.1: 1C joins squad 1, squad 2 or none")
    ILLEGAL_RESULT = ("ILLEGAL_RESULT", _PRE, "rules", "SOG 3.1.3/3.8: casualties or prisoners the action cannot have")


def _check() -> None:
    for c in Code:
        if c.name != c.value or c.status not in STATUSES or c.status == "OK" or c.scope not in SCOPES \
                or not c.meaning or "\n" in c.meaning or "|" in c.meaning:
            raise ValueError(f"engine/codes.py: {c.name} is not a well-formed code")


_check()

#: the codes the reference client retries: inside a Play stream the server prompts again
#: (or the stream resumes) after them
RETRY = frozenset(c.value for c in Code if c.retry)


def markdown() -> str:
    """docs/service-codes.md's table: one row per code, by status."""
    rows = ["| reason | gRPC status | meaning | the reference client retries |", "|---|---|---|---|"]
    order = {s: i for i, s in enumerate(("UNAUTHENTICATED", "PERMISSION_DENIED", "ALREADY_EXISTS",
                                          "FAILED_PRECONDITION", "INVALID_ARGUMENT", "NOT_FOUND", "OUT_OF_RANGE",
                                          "RESOURCE_EXHAUSTED", "UNIMPLEMENTED", "ABORTED", "DEADLINE_EXCEEDED",
                                          "UNAVAILABLE", "INTERNAL"))}
    scope = {s: i for i, s in enumerate(SCOPES)}
    for c in sorted(Code, key=lambda c: (order.get(c.status, len(order)), scope[c.scope], c.value)):
        rows.append(f"| `{c.value}` | `{c.status}` | {c.meaning} | {'yes' if c.retry else ''} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
