from afteraction.v1 import command_pb2 as _command_pb2
from afteraction.v1 import envelope_pb2 as _envelope_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GameStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_STATUS_UNSPECIFIED: _ClassVar[GameStatus]
    GAME_STATUS_IN_PROGRESS: _ClassVar[GameStatus]
    GAME_STATUS_ENDED: _ClassVar[GameStatus]
GAME_STATUS_UNSPECIFIED: GameStatus
GAME_STATUS_IN_PROGRESS: GameStatus
GAME_STATUS_ENDED: GameStatus

class SeatAuth(_message.Message):
    __slots__ = ("seat", "issued_at_ms", "nonce", "signature")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ISSUED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    NONCE_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    seat: str
    issued_at_ms: int
    nonce: bytes
    signature: bytes
    def __init__(self, seat: _Optional[str] = ..., issued_at_ms: _Optional[int] = ..., nonce: _Optional[bytes] = ..., signature: _Optional[bytes] = ...) -> None: ...

class SeatKey(_message.Message):
    __slots__ = ("seat", "public_key")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    seat: str
    public_key: bytes
    def __init__(self, seat: _Optional[str] = ..., public_key: _Optional[bytes] = ...) -> None: ...

class LogRecord(_message.Message):
    __slots__ = ("seq", "record", "record_hash", "checkpoint")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    RECORD_HASH_FIELD_NUMBER: _ClassVar[int]
    CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    seq: int
    record: bytes
    record_hash: bytes
    checkpoint: str
    def __init__(self, seq: _Optional[int] = ..., record: _Optional[bytes] = ..., record_hash: _Optional[bytes] = ..., checkpoint: _Optional[str] = ...) -> None: ...

class SignedCheckpoint(_message.Message):
    __slots__ = ("size", "note")
    SIZE_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    size: int
    note: str
    def __init__(self, size: _Optional[int] = ..., note: _Optional[str] = ...) -> None: ...

class SeatOpening(_message.Message):
    __slots__ = ("seq", "k", "salt", "value", "value_json")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    K_FIELD_NUMBER: _ClassVar[int]
    SALT_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    VALUE_JSON_FIELD_NUMBER: _ClassVar[int]
    seq: int
    k: int
    salt: bytes
    value: bytes
    value_json: str
    def __init__(self, seq: _Optional[int] = ..., k: _Optional[int] = ..., salt: _Optional[bytes] = ..., value: _Optional[bytes] = ..., value_json: _Optional[str] = ...) -> None: ...

class Decision(_message.Message):
    __slots__ = ("seat", "kind", "prompt", "data_json", "sampled", "space", "rule")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    DATA_JSON_FIELD_NUMBER: _ClassVar[int]
    SAMPLED_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    seat: str
    kind: str
    prompt: str
    data_json: str
    sampled: bool
    space: str
    rule: str
    def __init__(self, seat: _Optional[str] = ..., kind: _Optional[str] = ..., prompt: _Optional[str] = ..., data_json: _Optional[str] = ..., sampled: _Optional[bool] = ..., space: _Optional[str] = ..., rule: _Optional[str] = ...) -> None: ...

class CreateGameRequest(_message.Message):
    __slots__ = ("game", "version", "scenario", "options_json", "seats", "match", "clock")
    GAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SCENARIO_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    game: str
    version: str
    scenario: str
    options_json: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatKey]
    match: MatchInfo
    clock: TimeControl
    def __init__(self, game: _Optional[str] = ..., version: _Optional[str] = ..., scenario: _Optional[str] = ..., options_json: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatKey, _Mapping]]] = ..., match: _Optional[_Union[MatchInfo, _Mapping]] = ..., clock: _Optional[_Union[TimeControl, _Mapping]] = ...) -> None: ...

class MatchInfo(_message.Message):
    __slots__ = ("label", "players", "date")
    class PlayersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    LABEL_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    DATE_FIELD_NUMBER: _ClassVar[int]
    label: str
    players: _containers.ScalarMap[str, str]
    date: str
    def __init__(self, label: _Optional[str] = ..., players: _Optional[_Mapping[str, str]] = ..., date: _Optional[str] = ...) -> None: ...

class TimeControl(_message.Message):
    __slots__ = ("decision_ms", "total_ms", "abandon_ms")
    DECISION_MS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_MS_FIELD_NUMBER: _ClassVar[int]
    ABANDON_MS_FIELD_NUMBER: _ClassVar[int]
    decision_ms: int
    total_ms: int
    abandon_ms: int
    def __init__(self, decision_ms: _Optional[int] = ..., total_ms: _Optional[int] = ..., abandon_ms: _Optional[int] = ...) -> None: ...

class SeatClock(_message.Message):
    __slots__ = ("seat", "left_ms", "running", "total_left_ms")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LEFT_MS_FIELD_NUMBER: _ClassVar[int]
    RUNNING_FIELD_NUMBER: _ClassVar[int]
    TOTAL_LEFT_MS_FIELD_NUMBER: _ClassVar[int]
    seat: str
    left_ms: int
    running: bool
    total_left_ms: int
    def __init__(self, seat: _Optional[str] = ..., left_ms: _Optional[int] = ..., running: _Optional[bool] = ..., total_left_ms: _Optional[int] = ...) -> None: ...

class Clocks(_message.Message):
    __slots__ = ("now_ms", "seats", "abandon_left_ms")
    NOW_MS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    ABANDON_LEFT_MS_FIELD_NUMBER: _ClassVar[int]
    now_ms: int
    seats: _containers.RepeatedCompositeFieldContainer[SeatClock]
    abandon_left_ms: int
    def __init__(self, now_ms: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[SeatClock, _Mapping]]] = ..., abandon_left_ms: _Optional[int] = ...) -> None: ...

class CreateGameResponse(_message.Message):
    __slots__ = ("game_id", "genesis", "checkpoint", "server_vkey")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    GENESIS_FIELD_NUMBER: _ClassVar[int]
    CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    SERVER_VKEY_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    genesis: LogRecord
    checkpoint: SignedCheckpoint
    server_vkey: str
    def __init__(self, game_id: _Optional[str] = ..., genesis: _Optional[_Union[LogRecord, _Mapping]] = ..., checkpoint: _Optional[_Union[SignedCheckpoint, _Mapping]] = ..., server_vkey: _Optional[str] = ...) -> None: ...

class SubmitCommandRequest(_message.Message):
    __slots__ = ("command", "auth")
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    AUTH_FIELD_NUMBER: _ClassVar[int]
    command: _envelope_pb2.SignedCommand
    auth: SeatAuth
    def __init__(self, command: _Optional[_Union[_envelope_pb2.SignedCommand, _Mapping]] = ..., auth: _Optional[_Union[SeatAuth, _Mapping]] = ...) -> None: ...

class SubmitCommandResponse(_message.Message):
    __slots__ = ("records", "checkpoint", "openings", "next_decision", "duplicate", "openings_withheld", "receipt")
    RECORDS_FIELD_NUMBER: _ClassVar[int]
    CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    OPENINGS_FIELD_NUMBER: _ClassVar[int]
    NEXT_DECISION_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    OPENINGS_WITHHELD_FIELD_NUMBER: _ClassVar[int]
    RECEIPT_FIELD_NUMBER: _ClassVar[int]
    records: _containers.RepeatedCompositeFieldContainer[LogRecord]
    checkpoint: SignedCheckpoint
    openings: _containers.RepeatedCompositeFieldContainer[SeatOpening]
    next_decision: Decision
    duplicate: bool
    openings_withheld: bool
    receipt: Receipt
    def __init__(self, records: _Optional[_Iterable[_Union[LogRecord, _Mapping]]] = ..., checkpoint: _Optional[_Union[SignedCheckpoint, _Mapping]] = ..., openings: _Optional[_Iterable[_Union[SeatOpening, _Mapping]]] = ..., next_decision: _Optional[_Union[Decision, _Mapping]] = ..., duplicate: _Optional[bool] = ..., openings_withheld: _Optional[bool] = ..., receipt: _Optional[_Union[Receipt, _Mapping]] = ...) -> None: ...

class Receipt(_message.Message):
    __slots__ = ("game_id", "seat", "counter", "state_seq", "prev", "envelope_hash", "decision", "seq", "received_ms", "signature")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNTER_FIELD_NUMBER: _ClassVar[int]
    STATE_SEQ_FIELD_NUMBER: _ClassVar[int]
    PREV_FIELD_NUMBER: _ClassVar[int]
    ENVELOPE_HASH_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    RECEIVED_MS_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: str
    counter: int
    state_seq: int
    prev: bytes
    envelope_hash: bytes
    decision: str
    seq: int
    received_ms: int
    signature: bytes
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[str] = ..., counter: _Optional[int] = ..., state_seq: _Optional[int] = ..., prev: _Optional[bytes] = ..., envelope_hash: _Optional[bytes] = ..., decision: _Optional[str] = ..., seq: _Optional[int] = ..., received_ms: _Optional[int] = ..., signature: _Optional[bytes] = ...) -> None: ...

class PlayJoin(_message.Message):
    __slots__ = ("game_id", "auth", "from_seq", "with_names", "batched", "follow_home")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    AUTH_FIELD_NUMBER: _ClassVar[int]
    FROM_SEQ_FIELD_NUMBER: _ClassVar[int]
    WITH_NAMES_FIELD_NUMBER: _ClassVar[int]
    BATCHED_FIELD_NUMBER: _ClassVar[int]
    FOLLOW_HOME_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    auth: SeatAuth
    from_seq: int
    with_names: bool
    batched: bool
    follow_home: bool
    def __init__(self, game_id: _Optional[str] = ..., auth: _Optional[_Union[SeatAuth, _Mapping]] = ..., from_seq: _Optional[int] = ..., with_names: _Optional[bool] = ..., batched: _Optional[bool] = ..., follow_home: _Optional[bool] = ...) -> None: ...

class PlayHome(_message.Message):
    __slots__ = ("port",)
    PORT_FIELD_NUMBER: _ClassVar[int]
    port: int
    def __init__(self, port: _Optional[int] = ...) -> None: ...

class PlayRequest(_message.Message):
    __slots__ = ("join", "command")
    JOIN_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    join: PlayJoin
    command: _envelope_pb2.SignedCommand
    def __init__(self, join: _Optional[_Union[PlayJoin, _Mapping]] = ..., command: _Optional[_Union[_envelope_pb2.SignedCommand, _Mapping]] = ...) -> None: ...

class CommandRejected(_message.Message):
    __slots__ = ("counter", "code", "reason", "message", "receipt")
    COUNTER_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    RECEIPT_FIELD_NUMBER: _ClassVar[int]
    counter: int
    code: int
    reason: str
    message: str
    receipt: Receipt
    def __init__(self, counter: _Optional[int] = ..., code: _Optional[int] = ..., reason: _Optional[str] = ..., message: _Optional[str] = ..., receipt: _Optional[_Union[Receipt, _Mapping]] = ...) -> None: ...

class CommandAccepted(_message.Message):
    __slots__ = ("counter", "seqs", "duplicate", "receipt")
    COUNTER_FIELD_NUMBER: _ClassVar[int]
    SEQS_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    RECEIPT_FIELD_NUMBER: _ClassVar[int]
    counter: int
    seqs: _containers.RepeatedScalarFieldContainer[int]
    duplicate: bool
    receipt: Receipt
    def __init__(self, counter: _Optional[int] = ..., seqs: _Optional[_Iterable[int]] = ..., duplicate: _Optional[bool] = ..., receipt: _Optional[_Union[Receipt, _Mapping]] = ...) -> None: ...

class YourDecision(_message.Message):
    __slots__ = ("state_seq", "decision", "legal_commands", "names")
    STATE_SEQ_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_COMMANDS_FIELD_NUMBER: _ClassVar[int]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    state_seq: int
    decision: Decision
    legal_commands: _containers.RepeatedCompositeFieldContainer[_command_pb2.Command]
    names: _containers.RepeatedCompositeFieldContainer[CommandName]
    def __init__(self, state_seq: _Optional[int] = ..., decision: _Optional[_Union[Decision, _Mapping]] = ..., legal_commands: _Optional[_Iterable[_Union[_command_pb2.Command, _Mapping]]] = ..., names: _Optional[_Iterable[_Union[CommandName, _Mapping]]] = ...) -> None: ...

class CommandName(_message.Message):
    __slots__ = ("text", "group", "refs")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    REFS_FIELD_NUMBER: _ClassVar[int]
    text: str
    group: str
    refs: _containers.RepeatedCompositeFieldContainer[NameRef]
    def __init__(self, text: _Optional[str] = ..., group: _Optional[str] = ..., refs: _Optional[_Iterable[_Union[NameRef, _Mapping]]] = ...) -> None: ...

class NameRef(_message.Message):
    __slots__ = ("kind", "id", "name", "position")
    KIND_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    kind: str
    id: str
    name: str
    position: str
    def __init__(self, kind: _Optional[str] = ..., id: _Optional[str] = ..., name: _Optional[str] = ..., position: _Optional[str] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("record", "opening", "checkpoint", "your_decision", "accepted", "rejected", "batch", "home")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    OPENING_FIELD_NUMBER: _ClassVar[int]
    CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    YOUR_DECISION_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    REJECTED_FIELD_NUMBER: _ClassVar[int]
    BATCH_FIELD_NUMBER: _ClassVar[int]
    HOME_FIELD_NUMBER: _ClassVar[int]
    record: LogRecord
    opening: SeatOpening
    checkpoint: SignedCheckpoint
    your_decision: YourDecision
    accepted: CommandAccepted
    rejected: CommandRejected
    batch: PlayBatch
    home: PlayHome
    def __init__(self, record: _Optional[_Union[LogRecord, _Mapping]] = ..., opening: _Optional[_Union[SeatOpening, _Mapping]] = ..., checkpoint: _Optional[_Union[SignedCheckpoint, _Mapping]] = ..., your_decision: _Optional[_Union[YourDecision, _Mapping]] = ..., accepted: _Optional[_Union[CommandAccepted, _Mapping]] = ..., rejected: _Optional[_Union[CommandRejected, _Mapping]] = ..., batch: _Optional[_Union[PlayBatch, _Mapping]] = ..., home: _Optional[_Union[PlayHome, _Mapping]] = ...) -> None: ...

class PlayBatch(_message.Message):
    __slots__ = ("items",)
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[PlayResponse]
    def __init__(self, items: _Optional[_Iterable[_Union[PlayResponse, _Mapping]]] = ...) -> None: ...

class WatchRequest(_message.Message):
    __slots__ = ("game_id", "from_seq", "auth", "with_names")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_SEQ_FIELD_NUMBER: _ClassVar[int]
    AUTH_FIELD_NUMBER: _ClassVar[int]
    WITH_NAMES_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    from_seq: int
    auth: SeatAuth
    with_names: bool
    def __init__(self, game_id: _Optional[str] = ..., from_seq: _Optional[int] = ..., auth: _Optional[_Union[SeatAuth, _Mapping]] = ..., with_names: _Optional[bool] = ...) -> None: ...

class WatchResponse(_message.Message):
    __slots__ = ("record", "checkpoint", "clocks", "opening", "your_decision")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    CLOCKS_FIELD_NUMBER: _ClassVar[int]
    OPENING_FIELD_NUMBER: _ClassVar[int]
    YOUR_DECISION_FIELD_NUMBER: _ClassVar[int]
    record: LogRecord
    checkpoint: SignedCheckpoint
    clocks: Clocks
    opening: SeatOpening
    your_decision: YourDecision
    def __init__(self, record: _Optional[_Union[LogRecord, _Mapping]] = ..., checkpoint: _Optional[_Union[SignedCheckpoint, _Mapping]] = ..., clocks: _Optional[_Union[Clocks, _Mapping]] = ..., opening: _Optional[_Union[SeatOpening, _Mapping]] = ..., your_decision: _Optional[_Union[YourDecision, _Mapping]] = ...) -> None: ...

class GetStateRequest(_message.Message):
    __slots__ = ("game_id", "auth")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    AUTH_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    auth: SeatAuth
    def __init__(self, game_id: _Optional[str] = ..., auth: _Optional[_Union[SeatAuth, _Mapping]] = ...) -> None: ...

class GetStateResponse(_message.Message):
    __slots__ = ("state_seq", "view", "view_json", "decision", "ended", "outcome_json", "seat", "game", "clocks", "cause_json")
    STATE_SEQ_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    VIEW_JSON_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_JSON_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    CLOCKS_FIELD_NUMBER: _ClassVar[int]
    CAUSE_JSON_FIELD_NUMBER: _ClassVar[int]
    state_seq: int
    view: bytes
    view_json: str
    decision: Decision
    ended: bool
    outcome_json: str
    seat: str
    game: str
    clocks: Clocks
    cause_json: str
    def __init__(self, state_seq: _Optional[int] = ..., view: _Optional[bytes] = ..., view_json: _Optional[str] = ..., decision: _Optional[_Union[Decision, _Mapping]] = ..., ended: _Optional[bool] = ..., outcome_json: _Optional[str] = ..., seat: _Optional[str] = ..., game: _Optional[str] = ..., clocks: _Optional[_Union[Clocks, _Mapping]] = ..., cause_json: _Optional[str] = ...) -> None: ...

class ListLegalCommandsRequest(_message.Message):
    __slots__ = ("game_id", "auth", "with_names")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    AUTH_FIELD_NUMBER: _ClassVar[int]
    WITH_NAMES_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    auth: SeatAuth
    with_names: bool
    def __init__(self, game_id: _Optional[str] = ..., auth: _Optional[_Union[SeatAuth, _Mapping]] = ..., with_names: _Optional[bool] = ...) -> None: ...

class ListLegalCommandsResponse(_message.Message):
    __slots__ = ("state_seq", "decision", "commands", "names")
    STATE_SEQ_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    COMMANDS_FIELD_NUMBER: _ClassVar[int]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    state_seq: int
    decision: Decision
    commands: _containers.RepeatedCompositeFieldContainer[_command_pb2.Command]
    names: _containers.RepeatedCompositeFieldContainer[CommandName]
    def __init__(self, state_seq: _Optional[int] = ..., decision: _Optional[_Union[Decision, _Mapping]] = ..., commands: _Optional[_Iterable[_Union[_command_pb2.Command, _Mapping]]] = ..., names: _Optional[_Iterable[_Union[CommandName, _Mapping]]] = ...) -> None: ...

class GetServerKeyRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetServerKeyResponse(_message.Message):
    __slots__ = ("vkey", "key_history")
    VKEY_FIELD_NUMBER: _ClassVar[int]
    KEY_HISTORY_FIELD_NUMBER: _ClassVar[int]
    vkey: str
    key_history: str
    def __init__(self, vkey: _Optional[str] = ..., key_history: _Optional[str] = ...) -> None: ...

class ListRulesetsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RulesetInfo(_message.Message):
    __slots__ = ("game", "version", "seats", "scenarios", "options_json", "scenario_info")
    GAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SCENARIOS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    SCENARIO_INFO_FIELD_NUMBER: _ClassVar[int]
    game: str
    version: str
    seats: _containers.RepeatedScalarFieldContainer[str]
    scenarios: _containers.RepeatedScalarFieldContainer[str]
    options_json: str
    scenario_info: _containers.RepeatedCompositeFieldContainer[ScenarioInfo]
    def __init__(self, game: _Optional[str] = ..., version: _Optional[str] = ..., seats: _Optional[_Iterable[str]] = ..., scenarios: _Optional[_Iterable[str]] = ..., options_json: _Optional[str] = ..., scenario_info: _Optional[_Iterable[_Union[ScenarioInfo, _Mapping]]] = ...) -> None: ...

class ScenarioInfo(_message.Message):
    __slots__ = ("name", "title", "turns", "description")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    TURNS_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    name: str
    title: str
    turns: int
    description: str
    def __init__(self, name: _Optional[str] = ..., title: _Optional[str] = ..., turns: _Optional[int] = ..., description: _Optional[str] = ...) -> None: ...

class ListRulesetsResponse(_message.Message):
    __slots__ = ("rulesets",)
    RULESETS_FIELD_NUMBER: _ClassVar[int]
    rulesets: _containers.RepeatedCompositeFieldContainer[RulesetInfo]
    def __init__(self, rulesets: _Optional[_Iterable[_Union[RulesetInfo, _Mapping]]] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ("status", "page_size", "page_token")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    status: GameStatus
    page_size: int
    page_token: str
    def __init__(self, status: _Optional[_Union[GameStatus, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class GameSummary(_message.Message):
    __slots__ = ("game_id", "game", "version", "scenario", "ended", "records", "seats", "match")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SCENARIO_FIELD_NUMBER: _ClassVar[int]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    RECORDS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    game: str
    version: str
    scenario: str
    ended: bool
    records: int
    seats: _containers.RepeatedScalarFieldContainer[str]
    match: MatchInfo
    def __init__(self, game_id: _Optional[str] = ..., game: _Optional[str] = ..., version: _Optional[str] = ..., scenario: _Optional[str] = ..., ended: _Optional[bool] = ..., records: _Optional[int] = ..., seats: _Optional[_Iterable[str]] = ..., match: _Optional[_Union[MatchInfo, _Mapping]] = ...) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games", "next_page_token")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameSummary]
    next_page_token: str
    def __init__(self, games: _Optional[_Iterable[_Union[GameSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...
