"""The log record (SPEC.md sections 1-3): defined in ``engine/protocol.py``, the one model of
records, bodies and events the referee and the verifier share. This module keeps the old
import path working for code written against it; new code imports ``afteraction.engine.protocol``.
(It must not grow code of its own: engine/referee.py may not import engine/log, and the
verifier, which does, replays through the referee.)"""
from ..protocol import (FORMAT_VERSION, KINDS, MAX_RECORD, VERSIONS, ZERO_HASH, Record,  # noqa: F401
                        make_record, parse_record, record_hash)
