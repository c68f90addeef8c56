from afteraction.v1 import game_service_pb2 as _game_service_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GetRecordsRequest(_message.Message):
    __slots__ = ("game_id", "from_seq", "limit")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_SEQ_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    from_seq: int
    limit: int
    def __init__(self, game_id: _Optional[str] = ..., from_seq: _Optional[int] = ..., limit: _Optional[int] = ...) -> None: ...

class GetRecordsResponse(_message.Message):
    __slots__ = ("records", "size")
    RECORDS_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    records: _containers.RepeatedCompositeFieldContainer[_game_service_pb2.LogRecord]
    size: int
    def __init__(self, records: _Optional[_Iterable[_Union[_game_service_pb2.LogRecord, _Mapping]]] = ..., size: _Optional[int] = ...) -> None: ...

class GetCheckpointRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class GetCheckpointResponse(_message.Message):
    __slots__ = ("checkpoint",)
    CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    checkpoint: _game_service_pb2.SignedCheckpoint
    def __init__(self, checkpoint: _Optional[_Union[_game_service_pb2.SignedCheckpoint, _Mapping]] = ...) -> None: ...

class GetInclusionProofRequest(_message.Message):
    __slots__ = ("game_id", "seq", "tree_size")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    TREE_SIZE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seq: int
    tree_size: int
    def __init__(self, game_id: _Optional[str] = ..., seq: _Optional[int] = ..., tree_size: _Optional[int] = ...) -> None: ...

class GetInclusionProofResponse(_message.Message):
    __slots__ = ("tree_size", "hashes")
    TREE_SIZE_FIELD_NUMBER: _ClassVar[int]
    HASHES_FIELD_NUMBER: _ClassVar[int]
    tree_size: int
    hashes: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, tree_size: _Optional[int] = ..., hashes: _Optional[_Iterable[bytes]] = ...) -> None: ...

class GetConsistencyProofRequest(_message.Message):
    __slots__ = ("game_id", "from_size", "to_size")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_SIZE_FIELD_NUMBER: _ClassVar[int]
    TO_SIZE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    from_size: int
    to_size: int
    def __init__(self, game_id: _Optional[str] = ..., from_size: _Optional[int] = ..., to_size: _Optional[int] = ...) -> None: ...

class GetConsistencyProofResponse(_message.Message):
    __slots__ = ("from_size", "to_size", "hashes")
    FROM_SIZE_FIELD_NUMBER: _ClassVar[int]
    TO_SIZE_FIELD_NUMBER: _ClassVar[int]
    HASHES_FIELD_NUMBER: _ClassVar[int]
    from_size: int
    to_size: int
    hashes: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, from_size: _Optional[int] = ..., to_size: _Optional[int] = ..., hashes: _Optional[_Iterable[bytes]] = ...) -> None: ...

class ExportBundleRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class ExportBundleResponse(_message.Message):
    __slots__ = ("chunk",)
    CHUNK_FIELD_NUMBER: _ClassVar[int]
    chunk: bytes
    def __init__(self, chunk: _Optional[bytes] = ...) -> None: ...

class GetRevealRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class GetRevealResponse(_message.Message):
    __slots__ = ("secret",)
    SECRET_FIELD_NUMBER: _ClassVar[int]
    secret: bytes
    def __init__(self, secret: _Optional[bytes] = ...) -> None: ...

class AddCosignatureRequest(_message.Message):
    __slots__ = ("game_id", "seat", "size", "line")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: str
    size: int
    line: str
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[str] = ..., size: _Optional[int] = ..., line: _Optional[str] = ...) -> None: ...

class AddCosignatureResponse(_message.Message):
    __slots__ = ("checkpoint",)
    CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    checkpoint: _game_service_pb2.SignedCheckpoint
    def __init__(self, checkpoint: _Optional[_Union[_game_service_pb2.SignedCheckpoint, _Mapping]] = ...) -> None: ...
