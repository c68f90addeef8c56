from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SogInsertionMethod(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SOG_INSERTION_METHOD_UNSPECIFIED: _ClassVar[SogInsertionMethod]
    SOG_INSERTION_METHOD_FOOT: _ClassVar[SogInsertionMethod]
    SOG_INSERTION_METHOD_HELICOPTER: _ClassVar[SogInsertionMethod]

class SogExtractionMethod(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SOG_EXTRACTION_METHOD_UNSPECIFIED: _ClassVar[SogExtractionMethod]
    SOG_EXTRACTION_METHOD_HELICOPTER: _ClassVar[SogExtractionMethod]
    SOG_EXTRACTION_METHOD_WALK: _ClassVar[SogExtractionMethod]
SOG_INSERTION_METHOD_UNSPECIFIED: SogInsertionMethod
SOG_INSERTION_METHOD_FOOT: SogInsertionMethod
SOG_INSERTION_METHOD_HELICOPTER: SogInsertionMethod
SOG_EXTRACTION_METHOD_UNSPECIFIED: SogExtractionMethod
SOG_EXTRACTION_METHOD_HELICOPTER: SogExtractionMethod
SOG_EXTRACTION_METHOD_WALK: SogExtractionMethod

class SogCommand(_message.Message):
    __slots__ = ("organise", "insert", "choose_lz", "move", "abort", "choose_extraction", "choose_panel", "add_leader", "action_result", "confirm", "dispute")
    ORGANISE_FIELD_NUMBER: _ClassVar[int]
    INSERT_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_LZ_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    ABORT_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_EXTRACTION_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_PANEL_FIELD_NUMBER: _ClassVar[int]
    ADD_LEADER_FIELD_NUMBER: _ClassVar[int]
    ACTION_RESULT_FIELD_NUMBER: _ClassVar[int]
    CONFIRM_FIELD_NUMBER: _ClassVar[int]
    DISPUTE_FIELD_NUMBER: _ClassVar[int]
    organise: SogOrganise
    insert: SogInsert
    choose_lz: SogChooseLz
    move: SogMove
    abort: SogAbort
    choose_extraction: SogChooseExtraction
    choose_panel: SogChoosePanel
    add_leader: SogAddLeader
    action_result: SogActionResult
    confirm: SogConfirm
    dispute: SogDispute
    def __init__(self, organise: _Optional[_Union[SogOrganise, _Mapping]] = ..., insert: _Optional[_Union[SogInsert, _Mapping]] = ..., choose_lz: _Optional[_Union[SogChooseLz, _Mapping]] = ..., move: _Optional[_Union[SogMove, _Mapping]] = ..., abort: _Optional[_Union[SogAbort, _Mapping]] = ..., choose_extraction: _Optional[_Union[SogChooseExtraction, _Mapping]] = ..., choose_panel: _Optional[_Union[SogChoosePanel, _Mapping]] = ..., add_leader: _Optional[_Union[SogAddLeader, _Mapping]] = ..., action_result: _Optional[_Union[SogActionResult, _Mapping]] = ..., confirm: _Optional[_Union[SogConfirm, _Mapping]] = ..., dispute: _Optional[_Union[SogDispute, _Mapping]] = ...) -> None: ...

class SogItem(_message.Message):
    __slots__ = ("code", "count")
    CODE_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    code: str
    count: int
    def __init__(self, code: _Optional[str] = ..., count: _Optional[int] = ...) -> None: ...

class SogMember(_message.Message):
    __slots__ = ("letter", "american", "rank", "weapon", "equipment")
    LETTER_FIELD_NUMBER: _ClassVar[int]
    AMERICAN_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    WEAPON_FIELD_NUMBER: _ClassVar[int]
    EQUIPMENT_FIELD_NUMBER: _ClassVar[int]
    letter: str
    american: bool
    rank: str
    weapon: str
    equipment: _containers.RepeatedCompositeFieldContainer[SogItem]
    def __init__(self, letter: _Optional[str] = ..., american: _Optional[bool] = ..., rank: _Optional[str] = ..., weapon: _Optional[str] = ..., equipment: _Optional[_Iterable[_Union[SogItem, _Mapping]]] = ...) -> None: ...

class SogOrganise(_message.Message):
    __slots__ = ("members",)
    MEMBERS_FIELD_NUMBER: _ClassVar[int]
    members: _containers.RepeatedCompositeFieldContainer[SogMember]
    def __init__(self, members: _Optional[_Iterable[_Union[SogMember, _Mapping]]] = ...) -> None: ...

class SogInsert(_message.Message):
    __slots__ = ("method", "row")
    METHOD_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    method: SogInsertionMethod
    row: int
    def __init__(self, method: _Optional[_Union[SogInsertionMethod, str]] = ..., row: _Optional[int] = ...) -> None: ...

class SogChooseLz(_message.Message):
    __slots__ = ("lz",)
    LZ_FIELD_NUMBER: _ClassVar[int]
    lz: int
    def __init__(self, lz: _Optional[int] = ...) -> None: ...

class SogMove(_message.Message):
    __slots__ = ("square",)
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    square: str
    def __init__(self, square: _Optional[str] = ...) -> None: ...

class SogAbort(_message.Message):
    __slots__ = ("method",)
    METHOD_FIELD_NUMBER: _ClassVar[int]
    method: SogExtractionMethod
    def __init__(self, method: _Optional[_Union[SogExtractionMethod, str]] = ...) -> None: ...

class SogChooseExtraction(_message.Message):
    __slots__ = ("method",)
    METHOD_FIELD_NUMBER: _ClassVar[int]
    method: SogExtractionMethod
    def __init__(self, method: _Optional[_Union[SogExtractionMethod, str]] = ...) -> None: ...

class SogChoosePanel(_message.Message):
    __slots__ = ("panel",)
    PANEL_FIELD_NUMBER: _ClassVar[int]
    panel: int
    def __init__(self, panel: _Optional[int] = ...) -> None: ...

class SogAddLeader(_message.Message):
    __slots__ = ("squad",)
    SQUAD_FIELD_NUMBER: _ClassVar[int]
    squad: int
    def __init__(self, squad: _Optional[int] = ...) -> None: ...

class SogItemLoss(_message.Message):
    __slots__ = ("letter", "code", "count")
    LETTER_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    letter: str
    code: str
    count: int
    def __init__(self, letter: _Optional[str] = ..., code: _Optional[str] = ..., count: _Optional[int] = ...) -> None: ...

class SogItemTransfer(_message.Message):
    __slots__ = ("from_letter", "to_letter", "code", "count")
    FROM_LETTER_FIELD_NUMBER: _ClassVar[int]
    TO_LETTER_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    from_letter: str
    to_letter: str
    code: str
    count: int
    def __init__(self, from_letter: _Optional[str] = ..., to_letter: _Optional[str] = ..., code: _Optional[str] = ..., count: _Optional[int] = ...) -> None: ...

class SogActionResult(_message.Message):
    __slots__ = ("casualties", "lost_equipment", "recovered", "prisoners_taken", "prisoners_lost", "squads_eliminated", "sog_vp", "nva_vp")
    CASUALTIES_FIELD_NUMBER: _ClassVar[int]
    LOST_EQUIPMENT_FIELD_NUMBER: _ClassVar[int]
    RECOVERED_FIELD_NUMBER: _ClassVar[int]
    PRISONERS_TAKEN_FIELD_NUMBER: _ClassVar[int]
    PRISONERS_LOST_FIELD_NUMBER: _ClassVar[int]
    SQUADS_ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    SOG_VP_FIELD_NUMBER: _ClassVar[int]
    NVA_VP_FIELD_NUMBER: _ClassVar[int]
    casualties: _containers.RepeatedScalarFieldContainer[str]
    lost_equipment: _containers.RepeatedCompositeFieldContainer[SogItemLoss]
    recovered: _containers.RepeatedCompositeFieldContainer[SogItemTransfer]
    prisoners_taken: int
    prisoners_lost: int
    squads_eliminated: _containers.RepeatedScalarFieldContainer[int]
    sog_vp: int
    nva_vp: int
    def __init__(self, casualties: _Optional[_Iterable[str]] = ..., lost_equipment: _Optional[_Iterable[_Union[SogItemLoss, _Mapping]]] = ..., recovered: _Optional[_Iterable[_Union[SogItemTransfer, _Mapping]]] = ..., prisoners_taken: _Optional[int] = ..., prisoners_lost: _Optional[int] = ..., squads_eliminated: _Optional[_Iterable[int]] = ..., sog_vp: _Optional[int] = ..., nva_vp: _Optional[int] = ...) -> None: ...

class SogConfirm(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SogDispute(_message.Message):
    __slots__ = ("reason",)
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: str
    def __init__(self, reason: _Optional[str] = ...) -> None: ...
