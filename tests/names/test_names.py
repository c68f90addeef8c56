"""Every legal command has a name in words (engine/names.py): at every decision reached
in bot games of every game, each legal command gets a non-empty text and group without protobuf
syntax, the texts are unique within the decision, and the names come from the deciding seat's own
view (no hidden unit of the other seat is named). Records read as a game report, dice included,
from their public content only."""
from __future__ import annotations

import functools
import re

import pytest

from afteraction.engine import names, registry
from afteraction.engine.bots import random_bot
from afteraction.engine.local import LocalGame

# protobuf text or JSON: braces, a field followed by a colon and a quote, an enum constant
PROTOBUF = re.compile(r'[{}]|\b[a-z_]+: ["\d]|\b[A-Z]+_[A-Z]+_[A-Z_]+\b|\bTrue\b|\bFalse\b')

GAMES = [("duel", None, 1), ("duel", None, 2), ("sog", None, 1), ("sog", None, 2), ("sog", None, 3),
         ("sog", None, 4), ("gmv", None, 1), ("gmv", None, 2), ("ntnd", "tet", 1)]


def _hidden_from(game: str, state: dict, seat: str) -> set[str]:
    """Ids and names of the other seat's pieces that ``seat`` may not see (from the full state)."""
    out: set[str] = set()
    if game == "ntnd":
        for m in state.get("markers", {}).values() if isinstance(state.get("markers"), dict) else []:
            for uid in m.get("units", []):
                u = state["units"][uid]
                if u["side"] != seat:
                    out |= {uid, u.get("name", uid)}
    if game == "gmv":
        for u in state.get("units", []) if isinstance(state.get("units"), list) else state.get("units", {}).values():
            if isinstance(u, dict) and u.get("hidden") and u.get("side") != seat:
                out.add(u["id"])
    return out


@functools.lru_cache(maxsize=64)
def _pattern(hidden: frozenset):
    """Any of the hidden ids or names as a whole word or phrase."""
    alts = "|".join(re.escape(h) for h in sorted(hidden, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alts})(?![\w-])")


def _check_labels(kind: str, legal: list, labels: list, hidden: set[str]) -> None:
    """The checks of one decision's names. The distinct strings are searched once, joined by
    newlines (none of the patterns spans a line); a finding is then looked for string by string so
    that the failure names it. An NTND decision offers up to thousands of commands whose groups and
    place names repeat, and searching each string alone was most of this test's time."""
    strings: set[str] = set()
    rests: set[str] = set()
    for cmd, lab in zip(legal, labels):
        assert lab.text.strip() and lab.group.strip(), (kind, cmd)
        strings.update((lab.text, lab.group))
        for r in lab.refs:
            assert r.kind in ("piece", "place") and r.id and r.name
            assert r.id not in hidden and r.name not in hidden, (kind, r)  # only what the seat sees
            strings.add(r.name)
        if hidden:  # the text less the names of what it refers to (the seat sees these)
            rest = lab.text
            for r in sorted(lab.refs, key=lambda r: len(r.name), reverse=True):
                rest = rest.replace(r.name, "")
            rests.add(rest)
    if PROTOBUF.search("\n".join(strings)):
        assert not [s for s in sorted(strings) if PROTOBUF.search(s)][:3], kind
    if hidden:
        leak = _pattern(frozenset(hidden))
        if leak.search("\n".join(rests)):
            assert not [r for r in sorted(rests) if leak.search(r)][:3], kind


def play_named(game: str, scenario: str | None, seed: int, bot: str = "random", limit: int = 20000):
    """Play a bot game; at each decision check the names of the legal commands. Returns the
    (decision kind, seat) pairs reached and the game."""
    g = LocalGame.create(game, seed=f"names/{seed}".encode(), scenario=scenario)
    g.handshake()
    rs = g.referee.ruleset
    choose = random_bot(seed) if bot == "random" else rs.demo_bot(seed, lambda s: rs.view(g.referee.state, s))
    reached = set()
    checked = {"hidden": 0}
    n = 0
    while not g.referee.ended and n < limit:
        d = g.referee.pending()
        legal = rs.legal_commands(g.referee.state, d.seat)
        labels = names.label_commands(rs, g.referee.state, d.seat, d, legal)
        assert len(labels) == len(legal)
        texts = [lab.text for lab in labels]
        assert len(set(texts)) == len(texts), (d.kind, sorted(t for t in texts if texts.count(t) > 1)[:4])
        hidden = _hidden_from(game, g.referee.state, d.seat)
        _check_labels(d.kind, legal, labels, hidden)
        checked["hidden"] += bool(hidden)
        reached.add((d.kind, d.seat))
        g.play(d.seat, choose(d.seat, legal))
        n += 1
    play_named.hidden_checked = checked["hidden"]  # decisions where the other seat had hidden pieces
    return reached, g


@pytest.mark.parametrize("game,scenario,seed", GAMES)
def test_every_legal_command_has_a_unique_name_in_words(game, scenario, seed):
    reached, g = play_named(game, scenario, seed)
    assert reached
    if game in ("gmv", "ntnd"):  # the hidden-piece check was exercised
        assert play_named.hidden_checked > 0


@pytest.mark.parametrize("game,scenario", [("sog", None), ("gmv", None), ("ntnd", "tet")])
def test_the_demo_bots_games_too(game, scenario):
    reached, _ = play_named(game, scenario, 7, bot="demo", limit=3000)
    assert reached


@pytest.mark.long
@pytest.mark.parametrize("scenario", ["campaign_short", "campaign"])
def test_ntnd_campaigns(scenario):
    play_named("ntnd", scenario, 1)


def test_names_are_from_the_seats_view_not_the_state(monkeypatch):
    """The namer is given the deciding seat's view, never the state."""
    g = LocalGame.create("ntnd", seed=b"names/view", scenario="tet")
    g.handshake()
    rs = g.referee.ruleset
    d = rs.pending(g.referee.state)
    seen = []
    cls = names.namer_class("ntnd")

    class Spy(cls):
        def __init__(self, view, seat):
            seen.append((view, seat))
            super().__init__(view, seat)
    monkeypatch.setitem(names._NAMERS, "ntnd", Spy)
    names.label_commands(rs, g.referee.state, d.seat, d, rs.legal_commands(g.referee.state, d.seat))
    assert seen == [(rs.view(g.referee.state, d.seat), d.seat)]


def test_a_recruit_reads_like_the_rulebook():
    g = LocalGame.create("ntnd", seed=b"names/tet", scenario="tet")
    g.handshake()
    rs = g.referee.ruleset
    d = rs.pending(g.referee.state)
    legal = rs.legal_commands(g.referee.state, d.seat)
    labels = {lab.text: lab for lab in names.label_commands(rs, g.referee.state, d.seat, d, legal)}
    lab = labels["Place a KR cadre face down at hex 0216"]
    assert lab.group == "Place a KR cadre face down: pick a place"
    assert [r.as_dict() for r in lab.refs] == [{"kind": "place", "id": "0216", "name": "hex 0216", "position": "0216"}]
    assert "Done placing recruits" in labels
    groups = {lab.group for lab in labels.values()}
    assert len(groups) < len(labels) / 10  # a UI shows a few groups, not hundreds of buttons


def test_records_read_as_a_game_report_with_dice_and_no_hidden_content():
    for game, scenario in (("gmv", None), ("ntnd", "tet"), ("sog", None), ("duel", None)):
        g = LocalGame.create(game, seed=b"names/report", scenario=scenario)
        g.handshake()
        g.run_bots(random_bot(3), 400)
        report = [line for r in g.records for line in names.record_lines(game, r.kind, r.body)]
        assert any(line.startswith("Rolled d") for line in report) or game == "duel"
        assert all(line.strip() and "b'" not in line and "\\x" not in line for line in report)
        for r in g.records:
            lines = names.record_lines(game, r.kind, r.body)
            if r.kind == "command" and "sealed" in r.body:
                assert lines[0] == f"{r.body['seat']}: a hidden command"
            sealed = [e for e in r.body.get("events", []) if e.get("t") == "sealed"]
            for e in sealed:  # a sealed value is only said to exist
                assert f"A hidden value for {e['to']}" in lines


def test_names_change_nothing_the_golden_logs_replay():
    """Presentation only: naming every legal command along a game leaves its records identical."""
    def run(named: bool) -> list[bytes]:
        g = LocalGame.create("gmv", seed=b"names/same")
        g.handshake()
        rs, bot = g.referee.ruleset, random_bot(5)
        while not g.referee.ended:
            d = g.referee.pending()
            legal = rs.legal_commands(g.referee.state, d.seat)
            if named:
                names.label_commands(rs, g.referee.state, d.seat, d, legal)
            g.play(d.seat, bot(d.seat, legal))
        return [r.raw for r in g.records]
    assert run(True) == run(False)


def test_every_game_has_its_own_namer():
    for game, _ in registry.available():
        assert names.namer_class(game) is not names.Namer, game


@pytest.mark.parametrize("game", ["sog", "gmv", "ntnd", "duel"])
def test_every_action_of_every_game_has_its_words(game):
    """Every action of the game's command oneof, reached in the bot games or not (an NTND coup, a
    GMV hot LZ...), is named without protobuf syntax: empty, and with every field set (strings to
    marker ids, numbers to 1, flags true)."""
    from afteraction.v1 import command_pb2

    g = LocalGame.create(game, seed=b"names/actions", scenario="campaign" if game == "ntnd" else None)
    g.handshake()
    rs = g.referee.ruleset
    d = rs.pending(g.referee.state)
    view = rs.view(g.referee.state, d.seat)
    namer = names.namer_class(game)(view, d.seat)
    record_namer = names.namer_class(game)(None, None)
    outer = getattr(command_pb2.Command(), game)
    for action_fd in outer.DESCRIPTOR.oneofs_by_name["action"].fields:
        msg = type(getattr(outer, action_fd.name))()
        filled = msg.__class__()
        for fd in filled.DESCRIPTOR.fields:
            if fd.type == fd.TYPE_STRING:
                if fd.is_repeated:
                    getattr(filled, fd.name).extend(["M1", "M2"])
                else:
                    setattr(filled, fd.name, "M1")
            elif fd.type in (fd.TYPE_UINT32, fd.TYPE_INT32, fd.TYPE_ENUM) and not fd.is_repeated:
                setattr(filled, fd.name, 1)
            elif fd.type == fd.TYPE_BOOL and not fd.is_repeated:
                setattr(filled, fd.name, True)
        for m in (msg, filled):
            for n in (namer, record_namer):
                lab = n.command(action_fd.name, m, d)
                assert lab.text.strip() and lab.group.strip(), (action_fd.name, m)
                assert not PROTOBUF.search(lab.text), (action_fd.name, lab.text)
