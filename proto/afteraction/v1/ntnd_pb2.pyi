from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class NtndCommand(_message.Message):
    __slots__ = ("done", "place", "move", "promote", "break_down", "invert", "flip", "attack", "ambush", "losses", "retreat", "advance", "reassign", "relocate", "expend", "allocate", "build_base", "upgrade", "declare", "draft", "withdraw", "coup", "aid", "choose", "declare_uprising", "mine_haiphong", "recall_green_beret", "reassign_ranger", "transfer", "announce_zoc", "fly", "aa_fire")
    DONE_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    PROMOTE_FIELD_NUMBER: _ClassVar[int]
    BREAK_DOWN_FIELD_NUMBER: _ClassVar[int]
    INVERT_FIELD_NUMBER: _ClassVar[int]
    FLIP_FIELD_NUMBER: _ClassVar[int]
    ATTACK_FIELD_NUMBER: _ClassVar[int]
    AMBUSH_FIELD_NUMBER: _ClassVar[int]
    LOSSES_FIELD_NUMBER: _ClassVar[int]
    RETREAT_FIELD_NUMBER: _ClassVar[int]
    ADVANCE_FIELD_NUMBER: _ClassVar[int]
    REASSIGN_FIELD_NUMBER: _ClassVar[int]
    RELOCATE_FIELD_NUMBER: _ClassVar[int]
    EXPEND_FIELD_NUMBER: _ClassVar[int]
    ALLOCATE_FIELD_NUMBER: _ClassVar[int]
    BUILD_BASE_FIELD_NUMBER: _ClassVar[int]
    UPGRADE_FIELD_NUMBER: _ClassVar[int]
    DECLARE_FIELD_NUMBER: _ClassVar[int]
    DRAFT_FIELD_NUMBER: _ClassVar[int]
    WITHDRAW_FIELD_NUMBER: _ClassVar[int]
    COUP_FIELD_NUMBER: _ClassVar[int]
    AID_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_FIELD_NUMBER: _ClassVar[int]
    DECLARE_UPRISING_FIELD_NUMBER: _ClassVar[int]
    MINE_HAIPHONG_FIELD_NUMBER: _ClassVar[int]
    RECALL_GREEN_BERET_FIELD_NUMBER: _ClassVar[int]
    REASSIGN_RANGER_FIELD_NUMBER: _ClassVar[int]
    TRANSFER_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCE_ZOC_FIELD_NUMBER: _ClassVar[int]
    FLY_FIELD_NUMBER: _ClassVar[int]
    AA_FIRE_FIELD_NUMBER: _ClassVar[int]
    done: NtndDone
    place: NtndPlace
    move: NtndMove
    promote: NtndPromote
    break_down: NtndBreakDown
    invert: NtndInvert
    flip: NtndFlip
    attack: NtndAttack
    ambush: NtndAmbush
    losses: NtndLosses
    retreat: NtndRetreat
    advance: NtndAdvance
    reassign: NtndReassign
    relocate: NtndRelocate
    expend: NtndExpend
    allocate: NtndAllocate
    build_base: NtndBuildBase
    upgrade: NtndUpgrade
    declare: NtndDeclare
    draft: NtndDraft
    withdraw: NtndWithdraw
    coup: NtndCoup
    aid: NtndAid
    choose: NtndChoose
    declare_uprising: NtndDeclareUprising
    mine_haiphong: NtndMineHaiphong
    recall_green_beret: NtndRecallGreenBeret
    reassign_ranger: NtndReassignRanger
    transfer: NtndTransfer
    announce_zoc: NtndAnnounceZoc
    fly: NtndFly
    aa_fire: NtndAaFire
    def __init__(self, done: _Optional[_Union[NtndDone, _Mapping]] = ..., place: _Optional[_Union[NtndPlace, _Mapping]] = ..., move: _Optional[_Union[NtndMove, _Mapping]] = ..., promote: _Optional[_Union[NtndPromote, _Mapping]] = ..., break_down: _Optional[_Union[NtndBreakDown, _Mapping]] = ..., invert: _Optional[_Union[NtndInvert, _Mapping]] = ..., flip: _Optional[_Union[NtndFlip, _Mapping]] = ..., attack: _Optional[_Union[NtndAttack, _Mapping]] = ..., ambush: _Optional[_Union[NtndAmbush, _Mapping]] = ..., losses: _Optional[_Union[NtndLosses, _Mapping]] = ..., retreat: _Optional[_Union[NtndRetreat, _Mapping]] = ..., advance: _Optional[_Union[NtndAdvance, _Mapping]] = ..., reassign: _Optional[_Union[NtndReassign, _Mapping]] = ..., relocate: _Optional[_Union[NtndRelocate, _Mapping]] = ..., expend: _Optional[_Union[NtndExpend, _Mapping]] = ..., allocate: _Optional[_Union[NtndAllocate, _Mapping]] = ..., build_base: _Optional[_Union[NtndBuildBase, _Mapping]] = ..., upgrade: _Optional[_Union[NtndUpgrade, _Mapping]] = ..., declare: _Optional[_Union[NtndDeclare, _Mapping]] = ..., draft: _Optional[_Union[NtndDraft, _Mapping]] = ..., withdraw: _Optional[_Union[NtndWithdraw, _Mapping]] = ..., coup: _Optional[_Union[NtndCoup, _Mapping]] = ..., aid: _Optional[_Union[NtndAid, _Mapping]] = ..., choose: _Optional[_Union[NtndChoose, _Mapping]] = ..., declare_uprising: _Optional[_Union[NtndDeclareUprising, _Mapping]] = ..., mine_haiphong: _Optional[_Union[NtndMineHaiphong, _Mapping]] = ..., recall_green_beret: _Optional[_Union[NtndRecallGreenBeret, _Mapping]] = ..., reassign_ranger: _Optional[_Union[NtndReassignRanger, _Mapping]] = ..., transfer: _Optional[_Union[NtndTransfer, _Mapping]] = ..., announce_zoc: _Optional[_Union[NtndAnnounceZoc, _Mapping]] = ..., fly: _Optional[_Union[NtndFly, _Mapping]] = ..., aa_fire: _Optional[_Union[NtndAaFire, _Mapping]] = ...) -> None: ...

class NtndDone(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class NtndPlace(_message.Message):
    __slots__ = ("unit", "kind", "nationality", "location", "inverted", "corps")
    UNIT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    NATIONALITY_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    INVERTED_FIELD_NUMBER: _ClassVar[int]
    CORPS_FIELD_NUMBER: _ClassVar[int]
    unit: str
    kind: str
    nationality: str
    location: str
    inverted: bool
    corps: str
    def __init__(self, unit: _Optional[str] = ..., kind: _Optional[str] = ..., nationality: _Optional[str] = ..., location: _Optional[str] = ..., inverted: _Optional[bool] = ..., corps: _Optional[str] = ...) -> None: ...

class NtndMove(_message.Message):
    __slots__ = ("piece", "path")
    PIECE_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    piece: str
    path: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, piece: _Optional[str] = ..., path: _Optional[_Iterable[str]] = ...) -> None: ...

class NtndPromote(_message.Message):
    __slots__ = ("piece", "supply", "to", "unit", "supply_unit")
    PIECE_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    UNIT_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_UNIT_FIELD_NUMBER: _ClassVar[int]
    piece: str
    supply: str
    to: str
    unit: str
    supply_unit: str
    def __init__(self, piece: _Optional[str] = ..., supply: _Optional[str] = ..., to: _Optional[str] = ..., unit: _Optional[str] = ..., supply_unit: _Optional[str] = ...) -> None: ...

class NtndBreakDown(_message.Message):
    __slots__ = ("piece",)
    PIECE_FIELD_NUMBER: _ClassVar[int]
    piece: str
    def __init__(self, piece: _Optional[str] = ...) -> None: ...

class NtndInvert(_message.Message):
    __slots__ = ("location", "units")
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    UNITS_FIELD_NUMBER: _ClassVar[int]
    location: str
    units: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, location: _Optional[str] = ..., units: _Optional[_Iterable[str]] = ...) -> None: ...

class NtndFlip(_message.Message):
    __slots__ = ("marker",)
    MARKER_FIELD_NUMBER: _ClassVar[int]
    marker: str
    def __init__(self, marker: _Optional[str] = ...) -> None: ...

class NtndAttack(_message.Message):
    __slots__ = ("target", "attackers")
    TARGET_FIELD_NUMBER: _ClassVar[int]
    ATTACKERS_FIELD_NUMBER: _ClassVar[int]
    target: str
    attackers: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, target: _Optional[str] = ..., attackers: _Optional[_Iterable[str]] = ...) -> None: ...

class NtndAmbush(_message.Message):
    __slots__ = ("markers",)
    MARKERS_FIELD_NUMBER: _ClassVar[int]
    markers: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, markers: _Optional[_Iterable[str]] = ...) -> None: ...

class NtndLosses(_message.Message):
    __slots__ = ("units",)
    UNITS_FIELD_NUMBER: _ClassVar[int]
    units: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, units: _Optional[_Iterable[str]] = ...) -> None: ...

class NtndRetreat(_message.Message):
    __slots__ = ("unit", "to")
    UNIT_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    unit: str
    to: str
    def __init__(self, unit: _Optional[str] = ..., to: _Optional[str] = ...) -> None: ...

class NtndAdvance(_message.Message):
    __slots__ = ("units",)
    UNITS_FIELD_NUMBER: _ClassVar[int]
    units: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, units: _Optional[_Iterable[str]] = ...) -> None: ...

class NtndReassign(_message.Message):
    __slots__ = ("group", "corps")
    GROUP_FIELD_NUMBER: _ClassVar[int]
    CORPS_FIELD_NUMBER: _ClassVar[int]
    group: str
    corps: str
    def __init__(self, group: _Optional[str] = ..., corps: _Optional[str] = ...) -> None: ...

class NtndRelocate(_message.Message):
    __slots__ = ("unit", "to")
    UNIT_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    unit: str
    to: str
    def __init__(self, unit: _Optional[str] = ..., to: _Optional[str] = ...) -> None: ...

class NtndExpend(_message.Message):
    __slots__ = ("unit",)
    UNIT_FIELD_NUMBER: _ClassVar[int]
    unit: str
    def __init__(self, unit: _Optional[str] = ...) -> None: ...

class NtndAllocate(_message.Message):
    __slots__ = ("pool", "area", "points")
    POOL_FIELD_NUMBER: _ClassVar[int]
    AREA_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    pool: str
    area: str
    points: int
    def __init__(self, pool: _Optional[str] = ..., area: _Optional[str] = ..., points: _Optional[int] = ...) -> None: ...

class NtndBuildBase(_message.Message):
    __slots__ = ("location", "supplies")
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    SUPPLIES_FIELD_NUMBER: _ClassVar[int]
    location: str
    supplies: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, location: _Optional[str] = ..., supplies: _Optional[_Iterable[str]] = ...) -> None: ...

class NtndUpgrade(_message.Message):
    __slots__ = ("regiment", "cadre", "supply")
    REGIMENT_FIELD_NUMBER: _ClassVar[int]
    CADRE_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_FIELD_NUMBER: _ClassVar[int]
    regiment: str
    cadre: str
    supply: str
    def __init__(self, regiment: _Optional[str] = ..., cadre: _Optional[str] = ..., supply: _Optional[str] = ...) -> None: ...

class NtndDeclare(_message.Message):
    __slots__ = ("kind",)
    KIND_FIELD_NUMBER: _ClassVar[int]
    kind: str
    def __init__(self, kind: _Optional[str] = ...) -> None: ...

class NtndDraft(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class NtndWithdraw(_message.Message):
    __slots__ = ("unit",)
    UNIT_FIELD_NUMBER: _ClassVar[int]
    unit: str
    def __init__(self, unit: _Optional[str] = ...) -> None: ...

class NtndChoose(_message.Message):
    __slots__ = ("choice",)
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    choice: str
    def __init__(self, choice: _Optional[str] = ...) -> None: ...

class NtndDeclareUprising(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class NtndCoup(_message.Message):
    __slots__ = ("country",)
    COUNTRY_FIELD_NUMBER: _ClassVar[int]
    country: str
    def __init__(self, country: _Optional[str] = ...) -> None: ...

class NtndAid(_message.Message):
    __slots__ = ("source", "kind", "location", "inverted")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    INVERTED_FIELD_NUMBER: _ClassVar[int]
    source: str
    kind: str
    location: str
    inverted: bool
    def __init__(self, source: _Optional[str] = ..., kind: _Optional[str] = ..., location: _Optional[str] = ..., inverted: _Optional[bool] = ...) -> None: ...

class NtndMineHaiphong(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class NtndRecallGreenBeret(_message.Message):
    __slots__ = ("unit",)
    UNIT_FIELD_NUMBER: _ClassVar[int]
    unit: str
    def __init__(self, unit: _Optional[str] = ...) -> None: ...

class NtndReassignRanger(_message.Message):
    __slots__ = ("unit", "corps")
    UNIT_FIELD_NUMBER: _ClassVar[int]
    CORPS_FIELD_NUMBER: _ClassVar[int]
    unit: str
    corps: str
    def __init__(self, unit: _Optional[str] = ..., corps: _Optional[str] = ...) -> None: ...

class NtndTransfer(_message.Message):
    __slots__ = ("unit",)
    UNIT_FIELD_NUMBER: _ClassVar[int]
    unit: str
    def __init__(self, unit: _Optional[str] = ...) -> None: ...

class NtndAnnounceZoc(_message.Message):
    __slots__ = ("country", "extend")
    COUNTRY_FIELD_NUMBER: _ClassVar[int]
    EXTEND_FIELD_NUMBER: _ClassVar[int]
    country: str
    extend: bool
    def __init__(self, country: _Optional[str] = ..., extend: _Optional[bool] = ...) -> None: ...

class NtndFly(_message.Message):
    __slots__ = ("mission", "target", "air")
    MISSION_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    AIR_FIELD_NUMBER: _ClassVar[int]
    mission: str
    target: str
    air: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, mission: _Optional[str] = ..., target: _Optional[str] = ..., air: _Optional[_Iterable[str]] = ...) -> None: ...

class NtndAaFire(_message.Message):
    __slots__ = ("units",)
    UNITS_FIELD_NUMBER: _ClassVar[int]
    units: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, units: _Optional[_Iterable[str]] = ...) -> None: ...
