from afteraction.v1 import duel_pb2 as _duel_pb2
from afteraction.v1 import gmv_pb2 as _gmv_pb2
from afteraction.v1 import ntnd_pb2 as _ntnd_pb2
from afteraction.v1 import sog_pb2 as _sog_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Command(_message.Message):
    __slots__ = ("sog", "gmv", "ntnd", "duel")
    SOG_FIELD_NUMBER: _ClassVar[int]
    GMV_FIELD_NUMBER: _ClassVar[int]
    NTND_FIELD_NUMBER: _ClassVar[int]
    DUEL_FIELD_NUMBER: _ClassVar[int]
    sog: _sog_pb2.SogCommand
    gmv: _gmv_pb2.GmvCommand
    ntnd: _ntnd_pb2.NtndCommand
    duel: _duel_pb2.DuelCommand
    def __init__(self, sog: _Optional[_Union[_sog_pb2.SogCommand, _Mapping]] = ..., gmv: _Optional[_Union[_gmv_pb2.GmvCommand, _Mapping]] = ..., ntnd: _Optional[_Union[_ntnd_pb2.NtndCommand, _Mapping]] = ..., duel: _Optional[_Union[_duel_pb2.DuelCommand, _Mapping]] = ...) -> None: ...
