from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SignedStatement(_message.Message):
    __slots__ = ("body", "by", "sig")
    BODY_FIELD_NUMBER: _ClassVar[int]
    BY_FIELD_NUMBER: _ClassVar[int]
    SIG_FIELD_NUMBER: _ClassVar[int]
    body: bytes
    by: bytes
    sig: bytes
    def __init__(self, body: _Optional[bytes] = ..., by: _Optional[bytes] = ..., sig: _Optional[bytes] = ...) -> None: ...

class LedgerEntry(_message.Message):
    __slots__ = ("seq", "entry", "checkpoint")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    seq: int
    entry: bytes
    checkpoint: str
    def __init__(self, seq: _Optional[int] = ..., entry: _Optional[bytes] = ..., checkpoint: _Optional[str] = ...) -> None: ...

class CreateLeagueRequest(_message.Message):
    __slots__ = ("league_id", "name", "policy", "organiser")
    LEAGUE_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    ORGANISER_FIELD_NUMBER: _ClassVar[int]
    league_id: str
    name: str
    policy: bytes
    organiser: bytes
    def __init__(self, league_id: _Optional[str] = ..., name: _Optional[str] = ..., policy: _Optional[bytes] = ..., organiser: _Optional[bytes] = ...) -> None: ...

class OrganiserAuth(_message.Message):
    __slots__ = ("size", "signature")
    SIZE_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    size: int
    signature: bytes
    def __init__(self, size: _Optional[int] = ..., signature: _Optional[bytes] = ...) -> None: ...

class CreateLeagueResponse(_message.Message):
    __slots__ = ("vkey", "policy")
    VKEY_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    vkey: str
    policy: LedgerEntry
    def __init__(self, vkey: _Optional[str] = ..., policy: _Optional[_Union[LedgerEntry, _Mapping]] = ...) -> None: ...

class GetLeagueRequest(_message.Message):
    __slots__ = ("league_id",)
    LEAGUE_ID_FIELD_NUMBER: _ClassVar[int]
    league_id: str
    def __init__(self, league_id: _Optional[str] = ...) -> None: ...

class LeaguePlayer(_message.Message):
    __slots__ = ("name", "key", "seq")
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    name: str
    key: bytes
    seq: int
    def __init__(self, name: _Optional[str] = ..., key: _Optional[bytes] = ..., seq: _Optional[int] = ...) -> None: ...

class GetLeagueResponse(_message.Message):
    __slots__ = ("league_id", "name", "vkey", "origin", "policy", "players", "size", "checkpoint", "rounds", "game_server_vkey", "organiser")
    LEAGUE_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    VKEY_FIELD_NUMBER: _ClassVar[int]
    ORIGIN_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    GAME_SERVER_VKEY_FIELD_NUMBER: _ClassVar[int]
    ORGANISER_FIELD_NUMBER: _ClassVar[int]
    league_id: str
    name: str
    vkey: str
    origin: str
    policy: bytes
    players: _containers.RepeatedCompositeFieldContainer[LeaguePlayer]
    size: int
    checkpoint: str
    rounds: int
    game_server_vkey: str
    organiser: bytes
    def __init__(self, league_id: _Optional[str] = ..., name: _Optional[str] = ..., vkey: _Optional[str] = ..., origin: _Optional[str] = ..., policy: _Optional[bytes] = ..., players: _Optional[_Iterable[_Union[LeaguePlayer, _Mapping]]] = ..., size: _Optional[int] = ..., checkpoint: _Optional[str] = ..., rounds: _Optional[int] = ..., game_server_vkey: _Optional[str] = ..., organiser: _Optional[bytes] = ...) -> None: ...

class RegisterPlayerRequest(_message.Message):
    __slots__ = ("league_id", "registration")
    LEAGUE_ID_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_FIELD_NUMBER: _ClassVar[int]
    league_id: str
    registration: SignedStatement
    def __init__(self, league_id: _Optional[str] = ..., registration: _Optional[_Union[SignedStatement, _Mapping]] = ...) -> None: ...

class RegisterPlayerResponse(_message.Message):
    __slots__ = ("entry",)
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    entry: LedgerEntry
    def __init__(self, entry: _Optional[_Union[LedgerEntry, _Mapping]] = ...) -> None: ...

class Title(_message.Message):
    __slots__ = ("game", "scenario")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SCENARIO_FIELD_NUMBER: _ClassVar[int]
    game: str
    scenario: str
    def __init__(self, game: _Optional[str] = ..., scenario: _Optional[str] = ...) -> None: ...

class OpenRoundRequest(_message.Message):
    __slots__ = ("league_id", "title", "options_json", "decision_ms", "auth")
    LEAGUE_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    DECISION_MS_FIELD_NUMBER: _ClassVar[int]
    AUTH_FIELD_NUMBER: _ClassVar[int]
    league_id: str
    title: Title
    options_json: str
    decision_ms: int
    auth: OrganiserAuth
    def __init__(self, league_id: _Optional[str] = ..., title: _Optional[_Union[Title, _Mapping]] = ..., options_json: _Optional[str] = ..., decision_ms: _Optional[int] = ..., auth: _Optional[_Union[OrganiserAuth, _Mapping]] = ...) -> None: ...

class LeagueGame(_message.Message):
    __slots__ = ("round", "board", "first", "second", "game_id", "status", "winner", "cause", "seats")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    SECOND_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    CAUSE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    round: int
    board: int
    first: str
    second: str
    game_id: str
    status: str
    winner: str
    cause: str
    seats: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, round: _Optional[int] = ..., board: _Optional[int] = ..., first: _Optional[str] = ..., second: _Optional[str] = ..., game_id: _Optional[str] = ..., status: _Optional[str] = ..., winner: _Optional[str] = ..., cause: _Optional[str] = ..., seats: _Optional[_Iterable[str]] = ...) -> None: ...

class OpenRoundResponse(_message.Message):
    __slots__ = ("round", "games", "byes", "entry")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    BYES_FIELD_NUMBER: _ClassVar[int]
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    round: int
    games: _containers.RepeatedCompositeFieldContainer[LeagueGame]
    byes: _containers.RepeatedScalarFieldContainer[str]
    entry: LedgerEntry
    def __init__(self, round: _Optional[int] = ..., games: _Optional[_Iterable[_Union[LeagueGame, _Mapping]]] = ..., byes: _Optional[_Iterable[str]] = ..., entry: _Optional[_Union[LedgerEntry, _Mapping]] = ...) -> None: ...

class ReplayBoardRequest(_message.Message):
    __slots__ = ("league_id", "round", "board", "options_json", "decision_ms", "auth")
    LEAGUE_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    DECISION_MS_FIELD_NUMBER: _ClassVar[int]
    AUTH_FIELD_NUMBER: _ClassVar[int]
    league_id: str
    round: int
    board: int
    options_json: str
    decision_ms: int
    auth: OrganiserAuth
    def __init__(self, league_id: _Optional[str] = ..., round: _Optional[int] = ..., board: _Optional[int] = ..., options_json: _Optional[str] = ..., decision_ms: _Optional[int] = ..., auth: _Optional[_Union[OrganiserAuth, _Mapping]] = ...) -> None: ...

class ReplayBoardResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: LeagueGame
    def __init__(self, game: _Optional[_Union[LeagueGame, _Mapping]] = ...) -> None: ...

class ListLeagueGamesRequest(_message.Message):
    __slots__ = ("league_id",)
    LEAGUE_ID_FIELD_NUMBER: _ClassVar[int]
    league_id: str
    def __init__(self, league_id: _Optional[str] = ...) -> None: ...

class LeagueRound(_message.Message):
    __slots__ = ("round", "title", "byes")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    BYES_FIELD_NUMBER: _ClassVar[int]
    round: int
    title: Title
    byes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, round: _Optional[int] = ..., title: _Optional[_Union[Title, _Mapping]] = ..., byes: _Optional[_Iterable[str]] = ...) -> None: ...

class ListLeagueGamesResponse(_message.Message):
    __slots__ = ("rounds", "games")
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    rounds: _containers.RepeatedCompositeFieldContainer[LeagueRound]
    games: _containers.RepeatedCompositeFieldContainer[LeagueGame]
    def __init__(self, rounds: _Optional[_Iterable[_Union[LeagueRound, _Mapping]]] = ..., games: _Optional[_Iterable[_Union[LeagueGame, _Mapping]]] = ...) -> None: ...

class GetStandingsRequest(_message.Message):
    __slots__ = ("league_id",)
    LEAGUE_ID_FIELD_NUMBER: _ClassVar[int]
    league_id: str
    def __init__(self, league_id: _Optional[str] = ...) -> None: ...

class GetStandingsResponse(_message.Message):
    __slots__ = ("table_json", "ratings_json", "size", "at")
    TABLE_JSON_FIELD_NUMBER: _ClassVar[int]
    RATINGS_JSON_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    AT_FIELD_NUMBER: _ClassVar[int]
    table_json: str
    ratings_json: str
    size: int
    at: int
    def __init__(self, table_json: _Optional[str] = ..., ratings_json: _Optional[str] = ..., size: _Optional[int] = ..., at: _Optional[int] = ...) -> None: ...

class PublishStandingsRequest(_message.Message):
    __slots__ = ("league_id", "auth")
    LEAGUE_ID_FIELD_NUMBER: _ClassVar[int]
    AUTH_FIELD_NUMBER: _ClassVar[int]
    league_id: str
    auth: OrganiserAuth
    def __init__(self, league_id: _Optional[str] = ..., auth: _Optional[_Union[OrganiserAuth, _Mapping]] = ...) -> None: ...

class PublishStandingsResponse(_message.Message):
    __slots__ = ("entry",)
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    entry: LedgerEntry
    def __init__(self, entry: _Optional[_Union[LedgerEntry, _Mapping]] = ...) -> None: ...

class FileDisputeRequest(_message.Message):
    __slots__ = ("league_id", "dispute")
    LEAGUE_ID_FIELD_NUMBER: _ClassVar[int]
    DISPUTE_FIELD_NUMBER: _ClassVar[int]
    league_id: str
    dispute: SignedStatement
    def __init__(self, league_id: _Optional[str] = ..., dispute: _Optional[_Union[SignedStatement, _Mapping]] = ...) -> None: ...

class FileDisputeResponse(_message.Message):
    __slots__ = ("entry",)
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    entry: LedgerEntry
    def __init__(self, entry: _Optional[_Union[LedgerEntry, _Mapping]] = ...) -> None: ...

class RuleRequest(_message.Message):
    __slots__ = ("league_id", "ruling")
    LEAGUE_ID_FIELD_NUMBER: _ClassVar[int]
    RULING_FIELD_NUMBER: _ClassVar[int]
    league_id: str
    ruling: SignedStatement
    def __init__(self, league_id: _Optional[str] = ..., ruling: _Optional[_Union[SignedStatement, _Mapping]] = ...) -> None: ...

class RuleResponse(_message.Message):
    __slots__ = ("entry",)
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    entry: LedgerEntry
    def __init__(self, entry: _Optional[_Union[LedgerEntry, _Mapping]] = ...) -> None: ...

class CosignLedgerRequest(_message.Message):
    __slots__ = ("league_id", "size", "line")
    LEAGUE_ID_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    league_id: str
    size: int
    line: str
    def __init__(self, league_id: _Optional[str] = ..., size: _Optional[int] = ..., line: _Optional[str] = ...) -> None: ...

class CosignLedgerResponse(_message.Message):
    __slots__ = ("checkpoint",)
    CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    checkpoint: str
    def __init__(self, checkpoint: _Optional[str] = ...) -> None: ...

class ExportLedgerRequest(_message.Message):
    __slots__ = ("league_id",)
    LEAGUE_ID_FIELD_NUMBER: _ClassVar[int]
    league_id: str
    def __init__(self, league_id: _Optional[str] = ...) -> None: ...

class ExportLedgerResponse(_message.Message):
    __slots__ = ("chunk",)
    CHUNK_FIELD_NUMBER: _ClassVar[int]
    chunk: bytes
    def __init__(self, chunk: _Optional[bytes] = ...) -> None: ...

class ExportLedgerBundleRequest(_message.Message):
    __slots__ = ("league_id", "hash")
    LEAGUE_ID_FIELD_NUMBER: _ClassVar[int]
    HASH_FIELD_NUMBER: _ClassVar[int]
    league_id: str
    hash: bytes
    def __init__(self, league_id: _Optional[str] = ..., hash: _Optional[bytes] = ...) -> None: ...

class ExportLedgerBundleResponse(_message.Message):
    __slots__ = ("chunk",)
    CHUNK_FIELD_NUMBER: _ClassVar[int]
    chunk: bytes
    def __init__(self, chunk: _Optional[bytes] = ...) -> None: ...

class WitnessCheckpointRequest(_message.Message):
    __slots__ = ("league_id", "game_id", "checkpoint")
    LEAGUE_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    league_id: str
    game_id: str
    checkpoint: str
    def __init__(self, league_id: _Optional[str] = ..., game_id: _Optional[str] = ..., checkpoint: _Optional[str] = ...) -> None: ...

class WitnessCheckpointResponse(_message.Message):
    __slots__ = ("line",)
    LINE_FIELD_NUMBER: _ClassVar[int]
    line: str
    def __init__(self, line: _Optional[str] = ...) -> None: ...

class TimestampEnvelopeRequest(_message.Message):
    __slots__ = ("league_id", "game_id", "envelope")
    LEAGUE_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    ENVELOPE_FIELD_NUMBER: _ClassVar[int]
    league_id: str
    game_id: str
    envelope: bytes
    def __init__(self, league_id: _Optional[str] = ..., game_id: _Optional[str] = ..., envelope: _Optional[bytes] = ...) -> None: ...

class TimestampEnvelopeResponse(_message.Message):
    __slots__ = ("at", "signature", "vkey")
    AT_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    VKEY_FIELD_NUMBER: _ClassVar[int]
    at: int
    signature: bytes
    vkey: str
    def __init__(self, at: _Optional[int] = ..., signature: _Optional[bytes] = ..., vkey: _Optional[str] = ...) -> None: ...
