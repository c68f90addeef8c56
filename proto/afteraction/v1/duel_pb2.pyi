from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DuelCommand(_message.Message):
    __slots__ = ("pick", "guess")
    PICK_FIELD_NUMBER: _ClassVar[int]
    GUESS_FIELD_NUMBER: _ClassVar[int]
    pick: DuelPick
    guess: DuelGuess
    def __init__(self, pick: _Optional[_Union[DuelPick, _Mapping]] = ..., guess: _Optional[_Union[DuelGuess, _Mapping]] = ...) -> None: ...

class DuelPick(_message.Message):
    __slots__ = ("number",)
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    number: int
    def __init__(self, number: _Optional[int] = ...) -> None: ...

class DuelGuess(_message.Message):
    __slots__ = ("number",)
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    number: int
    def __init__(self, number: _Optional[int] = ...) -> None: ...
