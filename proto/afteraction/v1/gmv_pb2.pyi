from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GmvImprovement(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GMV_IMPROVEMENT_UNSPECIFIED: _ClassVar[GmvImprovement]
    GMV_IMPROVEMENT_LZ: _ClassVar[GmvImprovement]
    GMV_IMPROVEMENT_POSITIONS: _ClassVar[GmvImprovement]
    GMV_IMPROVEMENT_AIRBASE: _ClassVar[GmvImprovement]
GMV_IMPROVEMENT_UNSPECIFIED: GmvImprovement
GMV_IMPROVEMENT_LZ: GmvImprovement
GMV_IMPROVEMENT_POSITIONS: GmvImprovement
GMV_IMPROVEMENT_AIRBASE: GmvImprovement

class GmvCommand(_message.Message):
    __slots__ = ("end_phase", "buy", "place", "bomb", "defoliate", "recruit", "infiltrate", "hidden_move", "attack", "patrol", "build", "airlift", "move", "support", "casualties", "battle_choice", "hot_lz", "reveal")
    END_PHASE_FIELD_NUMBER: _ClassVar[int]
    BUY_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    BOMB_FIELD_NUMBER: _ClassVar[int]
    DEFOLIATE_FIELD_NUMBER: _ClassVar[int]
    RECRUIT_FIELD_NUMBER: _ClassVar[int]
    INFILTRATE_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_MOVE_FIELD_NUMBER: _ClassVar[int]
    ATTACK_FIELD_NUMBER: _ClassVar[int]
    PATROL_FIELD_NUMBER: _ClassVar[int]
    BUILD_FIELD_NUMBER: _ClassVar[int]
    AIRLIFT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SUPPORT_FIELD_NUMBER: _ClassVar[int]
    CASUALTIES_FIELD_NUMBER: _ClassVar[int]
    BATTLE_CHOICE_FIELD_NUMBER: _ClassVar[int]
    HOT_LZ_FIELD_NUMBER: _ClassVar[int]
    REVEAL_FIELD_NUMBER: _ClassVar[int]
    end_phase: GmvEndPhase
    buy: GmvBuy
    place: GmvPlace
    bomb: GmvBomb
    defoliate: GmvDefoliate
    recruit: GmvRecruit
    infiltrate: GmvInfiltrate
    hidden_move: GmvHiddenMove
    attack: GmvAttack
    patrol: GmvPatrol
    build: GmvBuild
    airlift: GmvAirlift
    move: GmvMove
    support: GmvSupport
    casualties: GmvCasualties
    battle_choice: GmvBattleChoice
    hot_lz: GmvHotLz
    reveal: GmvReveal
    def __init__(self, end_phase: _Optional[_Union[GmvEndPhase, _Mapping]] = ..., buy: _Optional[_Union[GmvBuy, _Mapping]] = ..., place: _Optional[_Union[GmvPlace, _Mapping]] = ..., bomb: _Optional[_Union[GmvBomb, _Mapping]] = ..., defoliate: _Optional[_Union[GmvDefoliate, _Mapping]] = ..., recruit: _Optional[_Union[GmvRecruit, _Mapping]] = ..., infiltrate: _Optional[_Union[GmvInfiltrate, _Mapping]] = ..., hidden_move: _Optional[_Union[GmvHiddenMove, _Mapping]] = ..., attack: _Optional[_Union[GmvAttack, _Mapping]] = ..., patrol: _Optional[_Union[GmvPatrol, _Mapping]] = ..., build: _Optional[_Union[GmvBuild, _Mapping]] = ..., airlift: _Optional[_Union[GmvAirlift, _Mapping]] = ..., move: _Optional[_Union[GmvMove, _Mapping]] = ..., support: _Optional[_Union[GmvSupport, _Mapping]] = ..., casualties: _Optional[_Union[GmvCasualties, _Mapping]] = ..., battle_choice: _Optional[_Union[GmvBattleChoice, _Mapping]] = ..., hot_lz: _Optional[_Union[GmvHotLz, _Mapping]] = ..., reveal: _Optional[_Union[GmvReveal, _Mapping]] = ...) -> None: ...

class GmvEndPhase(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GmvBuy(_message.Message):
    __slots__ = ("unit_type",)
    UNIT_TYPE_FIELD_NUMBER: _ClassVar[int]
    unit_type: str
    def __init__(self, unit_type: _Optional[str] = ...) -> None: ...

class GmvPlace(_message.Message):
    __slots__ = ("unit_type", "zone")
    UNIT_TYPE_FIELD_NUMBER: _ClassVar[int]
    ZONE_FIELD_NUMBER: _ClassVar[int]
    unit_type: str
    zone: str
    def __init__(self, unit_type: _Optional[str] = ..., zone: _Optional[str] = ...) -> None: ...

class GmvBomb(_message.Message):
    __slots__ = ("bomber_id", "zone")
    BOMBER_ID_FIELD_NUMBER: _ClassVar[int]
    ZONE_FIELD_NUMBER: _ClassVar[int]
    bomber_id: str
    zone: str
    def __init__(self, bomber_id: _Optional[str] = ..., zone: _Optional[str] = ...) -> None: ...

class GmvDefoliate(_message.Message):
    __slots__ = ("bomber_id", "zone")
    BOMBER_ID_FIELD_NUMBER: _ClassVar[int]
    ZONE_FIELD_NUMBER: _ClassVar[int]
    bomber_id: str
    zone: str
    def __init__(self, bomber_id: _Optional[str] = ..., zone: _Optional[str] = ...) -> None: ...

class GmvRecruit(_message.Message):
    __slots__ = ("unit_id",)
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    unit_id: str
    def __init__(self, unit_id: _Optional[str] = ...) -> None: ...

class GmvInfiltrate(_message.Message):
    __slots__ = ("unit_ids", "to_zone")
    UNIT_IDS_FIELD_NUMBER: _ClassVar[int]
    TO_ZONE_FIELD_NUMBER: _ClassVar[int]
    unit_ids: _containers.RepeatedScalarFieldContainer[str]
    to_zone: str
    def __init__(self, unit_ids: _Optional[_Iterable[str]] = ..., to_zone: _Optional[str] = ...) -> None: ...

class GmvHiddenMove(_message.Message):
    __slots__ = ("unit_ids", "to_zone", "groups")
    UNIT_IDS_FIELD_NUMBER: _ClassVar[int]
    TO_ZONE_FIELD_NUMBER: _ClassVar[int]
    GROUPS_FIELD_NUMBER: _ClassVar[int]
    unit_ids: _containers.RepeatedScalarFieldContainer[str]
    to_zone: str
    groups: _containers.RepeatedCompositeFieldContainer[GmvHiddenGroup]
    def __init__(self, unit_ids: _Optional[_Iterable[str]] = ..., to_zone: _Optional[str] = ..., groups: _Optional[_Iterable[_Union[GmvHiddenGroup, _Mapping]]] = ...) -> None: ...

class GmvHiddenGroup(_message.Message):
    __slots__ = ("unit_ids", "to_zone")
    UNIT_IDS_FIELD_NUMBER: _ClassVar[int]
    TO_ZONE_FIELD_NUMBER: _ClassVar[int]
    unit_ids: _containers.RepeatedScalarFieldContainer[str]
    to_zone: str
    def __init__(self, unit_ids: _Optional[_Iterable[str]] = ..., to_zone: _Optional[str] = ...) -> None: ...

class GmvAttack(_message.Message):
    __slots__ = ("unit_ids", "zone")
    UNIT_IDS_FIELD_NUMBER: _ClassVar[int]
    ZONE_FIELD_NUMBER: _ClassVar[int]
    unit_ids: _containers.RepeatedScalarFieldContainer[str]
    zone: str
    def __init__(self, unit_ids: _Optional[_Iterable[str]] = ..., zone: _Optional[str] = ...) -> None: ...

class GmvPatrol(_message.Message):
    __slots__ = ("unit_ids",)
    UNIT_IDS_FIELD_NUMBER: _ClassVar[int]
    unit_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, unit_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class GmvBuild(_message.Message):
    __slots__ = ("unit_id", "improvement")
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    IMPROVEMENT_FIELD_NUMBER: _ClassVar[int]
    unit_id: str
    improvement: GmvImprovement
    def __init__(self, unit_id: _Optional[str] = ..., improvement: _Optional[_Union[GmvImprovement, str]] = ...) -> None: ...

class GmvHeliLoad(_message.Message):
    __slots__ = ("helicopter_id", "cargo_ids")
    HELICOPTER_ID_FIELD_NUMBER: _ClassVar[int]
    CARGO_IDS_FIELD_NUMBER: _ClassVar[int]
    helicopter_id: str
    cargo_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, helicopter_id: _Optional[str] = ..., cargo_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class GmvAirlift(_message.Message):
    __slots__ = ("loads", "drop_zone", "base_zone", "helicopters_stay")
    LOADS_FIELD_NUMBER: _ClassVar[int]
    DROP_ZONE_FIELD_NUMBER: _ClassVar[int]
    BASE_ZONE_FIELD_NUMBER: _ClassVar[int]
    HELICOPTERS_STAY_FIELD_NUMBER: _ClassVar[int]
    loads: _containers.RepeatedCompositeFieldContainer[GmvHeliLoad]
    drop_zone: str
    base_zone: str
    helicopters_stay: bool
    def __init__(self, loads: _Optional[_Iterable[_Union[GmvHeliLoad, _Mapping]]] = ..., drop_zone: _Optional[str] = ..., base_zone: _Optional[str] = ..., helicopters_stay: _Optional[bool] = ...) -> None: ...

class GmvMove(_message.Message):
    __slots__ = ("unit_ids", "path")
    UNIT_IDS_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    unit_ids: _containers.RepeatedScalarFieldContainer[str]
    path: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, unit_ids: _Optional[_Iterable[str]] = ..., path: _Optional[_Iterable[str]] = ...) -> None: ...

class GmvSupport(_message.Message):
    __slots__ = ("unit_ids",)
    UNIT_IDS_FIELD_NUMBER: _ClassVar[int]
    unit_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, unit_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class GmvCasualties(_message.Message):
    __slots__ = ("unit_ids",)
    UNIT_IDS_FIELD_NUMBER: _ClassVar[int]
    unit_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, unit_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class GmvBattleChoice(_message.Message):
    __slots__ = ("withdraw", "to_zone", "cover_ids")
    WITHDRAW_FIELD_NUMBER: _ClassVar[int]
    TO_ZONE_FIELD_NUMBER: _ClassVar[int]
    COVER_IDS_FIELD_NUMBER: _ClassVar[int]
    withdraw: bool
    to_zone: str
    cover_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, withdraw: _Optional[bool] = ..., to_zone: _Optional[str] = ..., cover_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class GmvHotLz(_message.Message):
    __slots__ = ("unit_ids",)
    UNIT_IDS_FIELD_NUMBER: _ClassVar[int]
    unit_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, unit_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class GmvReveal(_message.Message):
    __slots__ = ("unit_ids",)
    UNIT_IDS_FIELD_NUMBER: _ClassVar[int]
    unit_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, unit_ids: _Optional[_Iterable[str]] = ...) -> None: ...
