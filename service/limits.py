"""Every bound of the service, in one place: the code reads these constants and
docs/service-limits.md's table is generated from ``TABLE`` (``python -m
afteraction.service.limits`` prints it; tests/service/test_docs.py checks the
doc against it).

Past a limit the caller gets a precise status with an ErrorInfo (service/status.py)
and nothing is stored.
"""
from __future__ import annotations

from dataclasses import dataclass

from afteraction.engine.crypto.ed25519 import KEY_CACHE, SIGNATURE_CACHE, SIGNER_CACHE  # the engine's, in this table too

KiB = 1024
MiB = 1024 * KiB

# -- connections and streams ------------------------------------------------------
MAX_STREAMS_PER_CONNECTION = 128       # HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS the server announces
MAX_ENDED_STREAMS = 512                # streams of one connection ended by its client but not yet freed here
MAX_STREAMS = 4096                     # open Watch/Play/ExportBundle streams per server process
MAX_PENDING_CALLS = 512                # unary calls in progress per server process
MAX_EXPORTS = 16                       # ExportBundle calls in progress per process (each holds its bundle)
EXECUTOR_THREADS = 16                  # threads running the blocking work (store, referee) per process
STREAM_WORK_SLOTS = 8                  # of which streams' reads may hold at most this many at once
KEEPALIVE_TIME_MS = 60_000             # the server pings an idle connection this often
KEEPALIVE_TIMEOUT_MS = 20_000          # ... and closes it if the ping is not answered in this time
MIN_CLIENT_PING_INTERVAL_MS = 10_000   # clients pinging more often are sent GOAWAY (after 2 strikes)
MAX_CONNECTION_IDLE_MS = 300_000       # a connection with no open call for this long is closed (GOAWAY)
STALLED_STREAM_S = 60                  # a gRPC stream whose next message waits this long for its client is ended
STREAM_POLL_S = 1.0                    # open streams re-check the store this often (appends by other processes)
MAX_REFLECTION_REQUESTS = 256          # requests one server-reflection stream answers (then OVERLOADED)
CLOCK_SWEEP_S = 1.0                    # the timer of time controls ends cached games past a deadline this often

# -- sizes ----------------------------------------------------------------------
MAX_REQUEST_BYTES = 64 * KiB           # one request message (one message of a Play stream)
TRANSPORT_MAX_RECEIVE_BYTES = 8 * MiB  # gRPC's own cap; past it gRPC refuses before our code runs
MAX_RESPONSE_BYTES = 2 * MiB           # GetRecords stops adding records past this (ask again)
MAX_ENVELOPE_BYTES = 8 * KiB           # a SignedCommand's envelope
MAX_RECORD_BYTES = 256 * KiB           # a record a command produces
MAX_FIELD_BYTES = 1 * KiB              # any other string or bytes field of a request
MAX_GAME_ID_CHARS = 64                 # a game id in a request (the server makes 16 hex digits)
MAX_NAME_CHARS = 64                    # a seat, ruleset, version or scenario name
MAX_OPTIONS_JSON_BYTES = 4 * KiB       # CreateGame's options_json
MAX_SEATS = 16                         # seats of a CreateGame request
MAX_LEAGUE_ID_CHARS = 64               # a league id (SPEC.md 15.1)
MAX_LEAGUE_POLICY_BYTES = 8 * KiB      # CreateLeague's policy (a canonical policy body)
MAX_LEAGUE_STATEMENT_BYTES = 60 * KiB  # a signed statement's body (a registration, dispute, ruling)
MAX_WITNESS_NOTE_BYTES = 8 * KiB       # a checkpoint note shown to the league's witness
MAX_RECORDS_PER_CALL = 1000            # GetRecords returns at most this many records
MAX_LIST_GAMES = 100                   # games in one ListGames page (page_size)
LIST_GAMES_DEFAULT = 50                # ListGames page_size 0
MAX_PAGE_TOKEN = 64                    # ListGames page_token characters (a game id)
STREAM_BATCH = 500                     # records read from the store at once by a stream
EXPORT_CHUNK_BYTES = 64 * KiB          # ExportBundle's chunk size
MAX_SEQ = 2**63 - 1                    # sequence numbers, tree sizes, counters (a signed 64-bit store column)

# -- the web port (service/web.py: Connect and gRPC-Web over HTTP/1.1) -------------
WEB_MAX_CONNECTIONS = 4096             # open HTTP connections (and calls) on the web port per process
WEB_KEEPALIVE_S = 20                   # an idle keep-alive HTTP connection of the web port is closed after
WEB_HEADER_TIMEOUT_S = 10              # a web connection has this long to send a whole request header
WEB_MAX_CONNECTIONS_PER_ADDRESS = 64   # open web-port connections from one client address
WEB_STREAM_BUFFER_BYTES = 256 * KiB    # a web connection's unsent bytes before its writes pause
WEB_STALLED_WRITE_S = 60               # a web connection whose writes stay paused this long is dropped
WEB_MAX_JSON_REQUEST_BYTES = 256 * KiB  # a request in the JSON codec (checked before it is parsed)

# -- caches -----------------------------------------------------------------------
MAX_LIVE_GAMES = 2048                  # games kept caught up in memory (LRU); others are rebuilt from the store
AUTH_CACHE_ENTRIES = 4096              # verified SeatAuth tokens remembered (cleared when full)

# -- error messages ---------------------------------------------------------------
QUOTE_CHARS = 64                       # at most this much of a caller's input is quoted in an error
MAX_ERROR_MESSAGE_CHARS = 512          # an error message is cut to this length
MAX_METADATA_VALUE_CHARS = 64          # an ErrorInfo metadata value is cut to this length


@dataclass(frozen=True)
class Limit:
    name: str        # the constant above
    what: str
    past: str        # what a caller meets past it


_RE = "RESOURCE_EXHAUSTED"
TABLE: tuple[Limit, ...] = (
    Limit("MAX_STREAMS_PER_CONNECTION", "concurrent calls on one HTTP/2 connection",
          "the client's gRPC queues further calls until a stream ends (HTTP/2 `SETTINGS_MAX_CONCURRENT_STREAMS`); "
          "no call is answered with an error, however many are queued"),
    Limit("MAX_ENDED_STREAMS", "streams of one HTTP/2 connection that its client ended (`RST_STREAM`) and the server "
          "has not freed yet", "further streams of that connection are refused (`REFUSED_STREAM`: the call ends "
          "`UNAVAILABLE`, safe to retry) until some are freed; a client that opens and cancels streams as fast as it "
          "can write (\"rapid reset\") holds at most this many"),
    Limit("MAX_STREAMS", "open `Watch`, `Play` and `ExportBundle` streams per server process",
          f"`{_RE}`/`TOO_MANY_STREAMS`"),
    Limit("MAX_PENDING_CALLS", "unary calls in progress per server process", f"`{_RE}`/`OVERLOADED`"),
    Limit("MAX_EXPORTS", "`ExportBundle` calls in progress per server process (each builds its bundle in memory)",
          f"`{_RE}`/`OVERLOADED`"),
    Limit("EXECUTOR_THREADS", "threads doing the blocking work (store, referee) per server process; streams "
          "wait without holding one", "calls queue (bounded by `MAX_PENDING_CALLS`)"),
    Limit("STREAM_WORK_SLOTS", "of those threads, how many streams' store reads may use at once (the rest stay "
          "free for unary calls)", "stream reads wait their turn, holding no thread"),
    Limit("KEEPALIVE_TIME_MS", "the server pings a connection that has been silent this long (ms)", "-"),
    Limit("KEEPALIVE_TIMEOUT_MS", "an unanswered keepalive ping closes the connection after (ms)",
          "the connection is closed; open streams end `UNAVAILABLE`"),
    Limit("MIN_CLIENT_PING_INTERVAL_MS", "the shortest interval between a client's pings (ms)",
          "`GOAWAY` (`ENHANCE_YOUR_CALM`) after two strikes"),
    Limit("MAX_CONNECTION_IDLE_MS", "a connection with no call open is closed after (ms)",
          "`GOAWAY`; the client reconnects on its next call"),
    Limit("MAX_REFLECTION_REQUESTS", "requests one `ServerReflectionInfo` stream answers (v1 and v1alpha)",
          f"`{_RE}`/`OVERLOADED`; the stream ends (open another)"),
    Limit("STALLED_STREAM_S", "a `Watch`, `Play`, `ExportBundle` or reflection stream of the gRPC port whose next "
          "message waits this long (s) for its client to read (HTTP/2 flow control pauses the stream meanwhile, "
          "holding that message and at most one `STREAM_BATCH` read)", f"`{_RE}`/`SLOW_READER`: the stream ends "
          "and the server keeps nothing of it (the client meets the status when it reads again; the reference "
          "client's `Client.watch` and `Seat.play` open it again from the next record: `client.resumable`)"),
    Limit("STREAM_POLL_S", "streams check the store for appends by other processes every (s)", "-"),
    Limit("CLOCK_SWEEP_S", "the server ends the games in its cache whose time control deadline passed every (s); "
          "any other game ends at its next request", "-"),
    Limit("MAX_REQUEST_BYTES", "one request message (one message of a `Play` stream)",
          f"`{_RE}`/`REQUEST_TOO_LARGE`"),
    Limit("TRANSPORT_MAX_RECEIVE_BYTES", "gRPC's own cap on a received message",
          f"`{_RE}` from gRPC itself, **without** ErrorInfo (gRPC refuses before the service sees the message)"),
    Limit("MAX_RESPONSE_BYTES", "`GetRecords` adds no record past this many bytes", "fewer records; ask again"),
    Limit("MAX_ENVELOPE_BYTES", "a `SignedCommand.envelope`", "`INVALID_ARGUMENT`/`FIELD_TOO_LONG`"),
    Limit("MAX_RECORD_BYTES", "a record a command would produce", "`INVALID_ARGUMENT`/`RECORD_TOO_LARGE`"),
    Limit("MAX_FIELD_BYTES", "any other string or bytes field of a request",
          "`INVALID_ARGUMENT`/`FIELD_TOO_LONG`"),
    Limit("MAX_GAME_ID_CHARS", "a game id (in a request or an envelope)", "`INVALID_ARGUMENT`/`FIELD_TOO_LONG`"),
    Limit("MAX_NAME_CHARS", "a seat, ruleset, version or scenario name", "`INVALID_ARGUMENT`/`FIELD_TOO_LONG`"),
    Limit("MAX_OPTIONS_JSON_BYTES", "`CreateGameRequest.options_json`", "`INVALID_ARGUMENT`/`FIELD_TOO_LONG`"),
    Limit("MAX_SEATS", "seats in a `CreateGameRequest`", "`INVALID_ARGUMENT`/`FIELD_TOO_LONG`"),
    Limit("MAX_LEAGUE_ID_CHARS", "a league id (`league_id`)", "`INVALID_ARGUMENT`/`FIELD_TOO_LONG`"),
    Limit("MAX_LEAGUE_POLICY_BYTES", "`CreateLeagueRequest.policy`", "`INVALID_ARGUMENT`/`FIELD_TOO_LONG`"),
    Limit("MAX_LEAGUE_STATEMENT_BYTES", "a `SignedStatement.body` (a registration, dispute or ruling, evidence "
          "included)", "`INVALID_ARGUMENT`/`FIELD_TOO_LONG`"),
    Limit("MAX_WITNESS_NOTE_BYTES", "`WitnessCheckpointRequest.checkpoint`", "`INVALID_ARGUMENT`/`FIELD_TOO_LONG`"),
    Limit("MAX_RECORDS_PER_CALL", "records in one `GetRecords` answer", "fewer records; ask again"),
    Limit("MAX_LIST_GAMES", "games in one `ListGames` page (`page_size`)", "`INVALID_ARGUMENT`/`BAD_ARGUMENT`"),
    Limit("LIST_GAMES_DEFAULT", "games in a `ListGames` page when `page_size` is 0", "-"),
    Limit("MAX_PAGE_TOKEN", "characters of a `ListGames` `page_token` (a game id)", "`INVALID_ARGUMENT`/`BAD_ARGUMENT`"),
    Limit("STREAM_BATCH", "records a stream reads from the store at once", "the stream sends the rest next"),
    Limit("EXPORT_CHUNK_BYTES", "one `ExportBundle` message", "-"),
    Limit("MAX_SEQ", "sequence numbers, tree sizes and counters in a request; also every `from_seq`, `seq` "
          "or size must lie within the log", "`OUT_OF_RANGE`/`OUT_OF_RANGE`"),
    Limit("WEB_MAX_CONNECTIONS", "open HTTP connections on the web port (`--web-listen`) per server process",
          "HTTP 503 from the HTTP server, **without** ErrorInfo (refused before a call starts)"),
    Limit("WEB_KEEPALIVE_S", "an idle keep-alive connection of the web port is closed after (s)",
          "the connection is closed; the browser opens another"),
    Limit("WEB_HEADER_TIMEOUT_S", "a web-port connection has this long (s) to send a whole request header, from "
          "its start or from the first byte of its next request", "the connection is closed, no answer"),
    Limit("WEB_MAX_CONNECTIONS_PER_ADDRESS", "open web-port connections from one client address (a proxy in front "
          "counts as one address)", "HTTP 429 and the connection closed, before any request is read"),
    Limit("WEB_STREAM_BUFFER_BYTES", "bytes a web-port connection may have waiting unsent (a client that stops "
          "reading) before the server's writes to it pause", "the stream pauses (holding at most this and one "
          "`STREAM_BATCH` read)"),
    Limit("WEB_STALLED_WRITE_S", "a web-port connection whose writes stay paused this long (s) is dropped",
          "the connection is closed; its stream ends"),
    Limit("WEB_MAX_JSON_REQUEST_BYTES", "a web-port request in the JSON codec, before it is parsed (then "
          "`MAX_REQUEST_BYTES` applies to its binary form)", f"`{_RE}`/`REQUEST_TOO_LARGE`"),
    Limit("MAX_LIVE_GAMES", "games kept in memory (LRU); the rest are rebuilt from the store on demand", "-"),
    Limit("AUTH_CACHE_ENTRIES", "verified `SeatAuth` tokens remembered", "the cache is cleared"),
    Limit("KEY_CACHE", "public keys whose SPEC.md 7.4 key check is remembered (the engine's, "
          "engine/crypto/ed25519.py)", "the least recently used is dropped"),
    Limit("SIGNATURE_CACHE", "signature verdicts remembered, by a SHA-256 of the key, the signature and the message "
          "(the engine's, engine/crypto/ed25519.py)", "the cache is cleared"),
    Limit("SIGNER_CACHE", "signing keys kept expanded (the engine's `ed25519.sign`: the server's key ring, a "
          "client's seats)", "the least recently used is dropped"),
    Limit("QUOTE_CHARS", "characters of a caller's input quoted in an error message", "cut, with `...`"),
    Limit("MAX_ERROR_MESSAGE_CHARS", "an error message", "cut"),
    Limit("MAX_METADATA_VALUE_CHARS", "an ErrorInfo metadata value", "cut"),
)


def value(name: str) -> int | float:
    return globals()[name]


def _fmt(name: str, v) -> str:
    if name.endswith("_BYTES") and v % KiB == 0:
        return f"{v // MiB} MiB" if v % MiB == 0 else f"{v // KiB} KiB"
    if v == MAX_SEQ:
        return "2^63-1"
    return f"{v:,}" if isinstance(v, int) else str(v)


def markdown() -> str:
    """docs/service-limits.md's table."""
    rows = ["| limit | value | what | past it |", "|---|---|---|---|"]
    for lim in TABLE:
        rows.append(f"| `{lim.name}` | {_fmt(lim.name, value(lim.name))} | {lim.what} | {lim.past} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
