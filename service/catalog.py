"""Messages that describe rather than play: a decision's legal commands in words (``names_pb``), every
ruleset this server runs (``rulesets_pb``), a game's summary in ListGames (``_summary``)."""
from __future__ import annotations

import json

from afteraction.engine import names, registry
from afteraction.engine.protocol import parse_record
from afteraction.v1 import game_service_pb2 as gs


def to_json(v) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"), default=_jsonable)


def _jsonable(v):
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    raise TypeError(type(v).__name__)



def names_pb(ref, seat: str, decision, commands: list) -> list:
    """The legal ``commands`` of ``seat`` in words (engine/names.py: named from the seat's own view)."""
    made: dict = {}  # each piece or place once (a move decision names the same few thousands of times)

    def pb(r):
        m = made.get(r)
        if m is None:
            m = made[r] = gs.NameRef(kind=r.kind, id=r.id, name=r.name, position=r.position)
        return m
    return [gs.CommandName(text=lab.text, group=lab.group, refs=[pb(r) for r in lab.refs])
            for lab in names.label_commands(ref.ruleset, ref.state, seat, decision, commands)]


_RULESETS: list = []


def rulesets_pb() -> gs.ListRulesetsResponse:
    """Every ruleset this server runs, with its seats, scenarios (each with its title, length and
    description: Ruleset.scenario_info) and options (built once)."""
    if not _RULESETS:
        out = []
        for game, version in registry.available():
            rs = registry.get(game, version)
            info = [gs.ScenarioInfo(name=sc, **rs.scenario_info(sc)) for sc in rs.scenarios]
            out.append(gs.RulesetInfo(game=game, version=version, seats=list(rs.seats),
                                      scenarios=list(rs.scenarios), options_json=to_json(dict(rs.options)),
                                      scenario_info=info))
        _RULESETS.append(gs.ListRulesetsResponse(rulesets=out))
    return _RULESETS[0]


def _summary(gid: str, genesis: bytes, ended: bool, records: int) -> gs.GameSummary:
    b = parse_record(genesis).body
    out = gs.GameSummary(game_id=gid, game=b["ruleset"]["game"], version=b["ruleset"]["version"],
                         scenario=b["scenario"], ended=ended, records=records, seats=[s["name"] for s in b["seats"]])
    m = b.get("match")
    if m is not None:
        out.match.CopyFrom(gs.MatchInfo(label=m.get("label", ""), players=m.get("players", {}), date=m.get("date", "")))
    return out
