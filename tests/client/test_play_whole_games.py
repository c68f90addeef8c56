"""`aar play` plays each game to its end like a person at a terminal: one
seat is `aar play` whose `input()` is a "person" reading only what the terminal printed (the
numbered choices, the groups of a large decision) and typing a number, a group (`g3`) and then a
number, or a choice's name; the other seat is a random bot over the service. A whole SOG game, a
whole GMV game (one turn: the `turns` option) and NTND Tet's first turn then a resignation (the
whole Tet game, about 370 answers, is marked long). What the person sees has no protobuf syntax
(but the answer to `?`, which shows how to type any answer), no traceback, no refusal of the
handshake race; a mistake is answered in words; the end is said in words; the GMV unit ids a
choice names are on the board the terminal printed for that decision.
"""
from __future__ import annotations

import random
import re
import threading

import pytest

from afteraction.cli import main as cli
from afteraction.client.client import Client
from afteraction.client.seat import Seat

CHOICE = re.compile(r"^ {2,}(\d+)\. (.*)$")
GROUP = re.compile(r"^  g(\d+)\. ")
PROTOBUF = re.compile(r"[{}]|\b\w+ \{|\b[a-z_]+: [a-z0-9_]+ [a-z_]+:")


class Person:
    """Answers `aar play`'s prompts from what it printed (``out``: everything so far)."""

    def __init__(self, capsys, seed: int, limit: int, resign_when=None) -> None:
        self.capsys, self.rng, self.limit, self.resign_when = capsys, random.Random(seed), limit, resign_when
        self.out: list[str] = []
        self.listed: list[tuple[int, str]] = []  # the numbered choices shown for this decision
        self.groups = 0                          # the groups of this decision
        self.mistake = self.named = self.grouped = self.asked = 0
        self.asked_rules: list[list[int]] = []   # the lines answering "?" (the only protobuf text shown)

    def read(self) -> None:
        for x in self.capsys.readouterr().out.splitlines():
            self.out.append(x)
            if x.startswith("== "):
                self.listed, self.groups = [], 0
            elif GROUP.match(x):
                self.groups += 1
            elif c := CHOICE.match(x):  # every choice listed since the decision's header is one of its
                self.listed.append((int(c.group(1)), c.group(2).split("  (")[0]))

    def __call__(self, prompt: str = "") -> str:
        self.asked += 1
        if self.asked > self.limit:
            raise AssertionError("the game did not end in time")
        self.read()
        if self.asked_rules and len(self.asked_rules[-1]) == 1:
            self.asked_rules[-1].append(len(self.out))
        if prompt.startswith("sure? "):
            return "y"
        m = re.match(r"choice 1-(\d+),", prompt)
        if not m:
            raise AssertionError(f"unexpected prompt {prompt!r}")
        n = int(m.group(1))
        if not self.mistake:  # one mistake: a number that is no choice
            self.mistake = 1
            return str(n + 99)
        if self.resign_when is not None and self.resign_when(self.out):
            return "r"
        if not self.asked_rules and any(x.startswith("the choices below are examples") for x in self.out[-60:]):
            self.asked_rules.append([len(self.out)])   # what do the rules allow here?
            return "?"
        if self.groups and not self.listed:  # a large decision: its groups; open one, then pick in it
            self.grouped += 1
            return f"g{self.rng.randint(1, self.groups)}"
        if self.listed and self.rng.random() < 0.15:  # a choice by its name, as printed
            self.named += 1
            return self.rng.choice(self.listed)[1]
        if self.listed:
            return str(self.rng.choice(self.listed)[0])
        return str(self.rng.randint(1, n))


def _play(server, tmp_path, capsys, monkeypatch, game: str, me: str, other: str, options: str | None,
          limit: int, resign_when=None) -> tuple[list[str], Person]:
    from afteraction.cli.commands import read_seat_key
    from afteraction.engine.bots import random_bot

    ks = {s: str(tmp_path / f"{s}.key") for s in (me, other)}
    for k in ks.values():
        assert cli.main(["keygen", "-o", k]) == 0
    capsys.readouterr()
    argv = ["new", "--server", server.target, "--game", game] + [x for s in ks for x in ("--seat", f"{s}={ks[s]}")]
    assert cli.main(argv + (["--options", options] if options else [])) == 0
    gid = capsys.readouterr().out.strip().splitlines()[0]
    bot = Seat(Client(server.target), gid, other, read_seat_key(ks[other]))
    t = threading.Thread(target=lambda: bot.play(random_bot(b"terminal")), daemon=True)
    t.start()
    person = Person(capsys, 46, limit, resign_when)
    monkeypatch.setattr("builtins.input", person)
    try:
        assert cli.main(["play", "--server", server.target, "--game-id", gid, "--seat", me, "--key", ks[me]]) == 0
    finally:
        person.read()
        t.join(30)
        bot.client.close()
    out = person.out
    text = "\n".join(out)
    assert "Traceback" not in text and "STALE_STATE" not in text and "LOST_RACE" not in text, text[-3000:]
    over = [i for i, x in enumerate(out) if x.startswith("game over: ")]
    assert len(over) == 1, text[-3000:]
    asked = {i for a, b in person.asked_rules for i in range(a, b)}
    for i, x in enumerate(out[:over[0]]):  # words, no protobuf: but where the person typed "?"
        assert i in asked or not PROTOBUF.search(x), x
    assert out[over[0] - 1].startswith("The game is over: "), out[over[0] - 1]
    assert any(" is not a choice: the choices are numbered 1 to " in x for x in out), text[:3000]
    print(f'{game}: {person.asked} answers typed, {person.named} by name, {person.grouped} groups opened, {len(out)} lines')
    return out, person


def test_sog_a_whole_game_in_the_terminal(server, tmp_path, capsys, monkeypatch):
    out, person = _play(server, tmp_path, capsys, monkeypatch, "sog", "sog", "nva", None, 600)
    text = "\n".join(out)
    assert "the choices below are examples: the rules (SOG 3.2) allow " in text  # the team: a space, said so
    assert "Organise" in text and person.named >= 1
    a, b = person.asked_rules[0]   # "?" at the team: the space in words, its data, how to type any answer
    assert out[a].startswith("the answers (SOG 3.2): ") and "this decision's data" in "\n".join(out[a:b])
    assert "any answer may be typed as a command in protobuf text, e.g. sog { organise { " in "\n".join(out[a:b])
    assert re.search(r"game over: .*\"winner\"", text)


def test_gmv_a_whole_game_in_the_terminal(server, tmp_path, capsys, monkeypatch):
    out, person = _play(server, tmp_path, capsys, monkeypatch, "gmv", "us", "nva", '{"turns": 1}', 600)
    # every unit id a choice names is on the board printed for that decision
    blocks, cur = [], []
    for x in out:
        if x.startswith("== gmv game"):
            cur = []
            blocks.append(cur)
        cur.append(x)
    checked = 0
    for b in blocks:
        board = " ".join(x for x in b if x.startswith("  ") and ":" in x and not CHOICE.match(x))
        for x in b:
            if CHOICE.match(x):
                for uid in re.findall(r"\bu\d+\b", x):
                    assert re.search(rf"\b{uid}\b", board), (uid, x, board)
                    checked += 1
    assert checked > 5 and person.named >= 1
    assert re.search(r"game over: .*\"winner\"", "\n".join(out))


def _ntnd_checks(out: list[str], person: Person) -> None:
    assert person.grouped >= 1 and person.named >= 1  # the recruitment's groups, then a pick in one
    assert any(x.startswith("  g1. ") for x in out)
    first = out.index(next(x for x in out if x.startswith("decision:")))
    nxt = first + 1 + out[first + 1:].index(next(x for x in out[first + 1:] if x.startswith("== ")))
    assert not any("examples" in x for x in out[first:nxt])   # the recruitment: every placement listed
    assert any(x.startswith("the choices below are examples: the rules (NTND 6) allow ") for x in out)


def _turn_over(out: list[str]) -> bool:
    """The board's first line names the turn ("Tet Offensive, 1968 turn 1 - ..."): it changed."""
    heads = [out[i + 1].split(" - ")[0] for i, x in enumerate(out[:-1]) if x.startswith("== ntnd")]
    return len(set(heads)) > 1


def test_ntnd_a_tet_turn_in_the_terminal_then_resign(server, tmp_path, capsys, monkeypatch):
    """Tet's first turn (every phase, both seats), then the person resigns (`r`, `y`): the end."""
    out, person = _play(server, tmp_path, capsys, monkeypatch, "ntnd", "communist", "allied", None, 3000,
                        resign_when=_turn_over)
    _ntnd_checks(out, person)
    assert 'game over: {"reason": "seat communist resigned", "winner": "allied"}' in out


@pytest.mark.long
def test_ntnd_a_whole_tet_game_in_the_terminal(server, tmp_path, capsys, monkeypatch):
    """The whole Tet game (about 370 answers typed; 160 s on a loaded 2-core host): `make test-long`."""
    out, person = _play(server, tmp_path, capsys, monkeypatch, "ntnd", "communist", "allied", None, 3000)
    _ntnd_checks(out, person)
    assert re.search(r"game over: .*\"winner\"", "\n".join(out))
