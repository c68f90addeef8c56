from afteraction.v1 import command_pb2 as _command_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CommandEnvelope(_message.Message):
    __slots__ = ("game_id", "seat", "counter", "state_seq", "prev", "entropy_commit", "entropy_reveal", "command", "ending")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNTER_FIELD_NUMBER: _ClassVar[int]
    STATE_SEQ_FIELD_NUMBER: _ClassVar[int]
    PREV_FIELD_NUMBER: _ClassVar[int]
    ENTROPY_COMMIT_FIELD_NUMBER: _ClassVar[int]
    ENTROPY_REVEAL_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    ENDING_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: str
    counter: int
    state_seq: int
    prev: bytes
    entropy_commit: EntropyCommit
    entropy_reveal: EntropyReveal
    command: _command_pb2.Command
    ending: Ending
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[str] = ..., counter: _Optional[int] = ..., state_seq: _Optional[int] = ..., prev: _Optional[bytes] = ..., entropy_commit: _Optional[_Union[EntropyCommit, _Mapping]] = ..., entropy_reveal: _Optional[_Union[EntropyReveal, _Mapping]] = ..., command: _Optional[_Union[_command_pb2.Command, _Mapping]] = ..., ending: _Optional[_Union[Ending, _Mapping]] = ...) -> None: ...

class Ending(_message.Message):
    __slots__ = ("resign", "offer", "accept")
    RESIGN_FIELD_NUMBER: _ClassVar[int]
    OFFER_FIELD_NUMBER: _ClassVar[int]
    ACCEPT_FIELD_NUMBER: _ClassVar[int]
    resign: Resign
    offer: Offer
    accept: Accept
    def __init__(self, resign: _Optional[_Union[Resign, _Mapping]] = ..., offer: _Optional[_Union[Offer, _Mapping]] = ..., accept: _Optional[_Union[Accept, _Mapping]] = ...) -> None: ...

class Resign(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Offer(_message.Message):
    __slots__ = ("winner",)
    WINNER_FIELD_NUMBER: _ClassVar[int]
    winner: str
    def __init__(self, winner: _Optional[str] = ...) -> None: ...

class Accept(_message.Message):
    __slots__ = ("offer", "winner")
    OFFER_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    offer: int
    winner: str
    def __init__(self, offer: _Optional[int] = ..., winner: _Optional[str] = ...) -> None: ...

class EntropyCommit(_message.Message):
    __slots__ = ("commitment",)
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    commitment: bytes
    def __init__(self, commitment: _Optional[bytes] = ...) -> None: ...

class EntropyReveal(_message.Message):
    __slots__ = ("entropy",)
    ENTROPY_FIELD_NUMBER: _ClassVar[int]
    entropy: bytes
    def __init__(self, entropy: _Optional[bytes] = ...) -> None: ...

class SignedCommand(_message.Message):
    __slots__ = ("envelope", "signature")
    ENVELOPE_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    envelope: bytes
    signature: bytes
    def __init__(self, envelope: _Optional[bytes] = ..., signature: _Optional[bytes] = ...) -> None: ...
