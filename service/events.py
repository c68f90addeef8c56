"""One structured log line per game event (docs/service.md "Logs"): logger ``afteraction.games``,
level INFO, the message ``game <event> {json}`` with sorted keys. Events: ``created`` (game,
ruleset, scenario, seats), ``ended`` (game, outcome), ``refused`` (game, seat, counter, reason,
rpc). The server secret and sealed values are never logged; a refusal's reason is its code
(status.py), not its message, which may quote the submitted command."""
from __future__ import annotations

import json
import logging

log = logging.getLogger("afteraction.games")


def game_event(event: str, **fields) -> None:
    if log.isEnabledFor(logging.INFO):
        log.info("game %s %s", event, json.dumps(fields, sort_keys=True, default=str, ensure_ascii=True),
                 extra={"event": event, "fields": fields})


def submitted(res, game: str) -> None:
    """After an accepted command: ``ended`` when it ended the game (not for a duplicate). A game
    that still waits for a decision has not ended (``Referee.pending`` is None once it has), so
    the last record is parsed only then, not on every command."""
    if res.duplicate or not res.records or res.next_decision is not None:
        return
    from afteraction.engine.protocol import parse_record

    rec = parse_record(res.records[-1].raw)
    if rec.kind == "end":
        game_event("ended", game=game, seq=res.records[-1].seq,
                   outcome=rec.body.get("outcome"))


def refused(e: Exception, rpc: str, game: str = "", seat: str = "", counter: int = 0) -> None:
    from afteraction.engine.errors import Rejection

    reason = e.code if isinstance(e, Rejection) else type(e).__name__
    game_event("refused", game=game, seat=seat, counter=counter, reason=reason, rpc=rpc)
