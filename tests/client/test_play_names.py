"""`aar play` speaks the ruleset's names: the server sends each legal command's name
and group (ListLegalCommands, the Play prompts), the terminal lists them grouped, takes a number,
a name (or part of one) or protobuf text, answers mistakes in words, and does not show the
refusals a seat retries by itself (the handshake race's STALE_STATE)."""
from __future__ import annotations

import io
import threading

from afteraction.cli import main as cli
from afteraction.cli import play_text as P
from afteraction.client.client import Client
from afteraction.client.seat import Seat
from afteraction.engine import names
from afteraction.engine.local import LocalGame
from afteraction.v1 import game_service_pb2 as gs


def _keys(tmp_path, capsys, server, game: str, seats: tuple[str, str]):
    ks = {s: str(tmp_path / f"{s}.key") for s in seats}
    for k in ks.values():
        assert cli.main(["keygen", "-o", k]) == 0
    capsys.readouterr()
    assert cli.main(["new", "--server", server.target, "--game", game]
                    + [x for s in seats for x in ("--seat", f"{s}={ks[s]}")]) == 0
    return capsys.readouterr().out.strip().splitlines()[0], ks


def test_the_server_sends_a_name_for_every_legal_command(server, tmp_path, capsys):
    from afteraction.cli.commands import read_seat_key

    gid, ks = _keys(tmp_path, capsys, server, "ntnd", ("communist", "allied"))
    seats = {s: Seat(Client(server.target), gid, s, read_seat_key(ks[s]), names=True) for s in ks}
    for s in seats.values():  # the dice handshake
        s.submit(s.sign_commit())
    for s in seats.values():
        s.catch_up()
        s.submit(s.sign_reveal())
    prompts: list[gs.YourDecision] = []

    class Seen(Exception):
        pass

    def choose(name, legal):  # the Play stream's prompt, as `aar play` gets it
        prompts.append(seats["communist"].prompt)
        raise Seen
    try:
        seats["communist"].play(choose)
    except Seen:
        pass
    p = prompts[0]
    assert len(p.names) == len(p.legal_commands) > 200  # NTND Tet's recruitment: every placement
    texts = [n.text for n in p.names]
    assert len(set(texts)) == len(texts) and "Place a KR cadre face down at hex 0216" in texts
    i = texts.index("Place a KR cadre face down at hex 0216")
    assert p.legal_commands[i].ntnd.place.location == "0216" and p.legal_commands[i].ntnd.place.inverted
    assert p.names[i].group == "Place a KR cadre face down: pick a place"
    assert [(r.kind, r.id, r.name, r.position) for r in p.names[i].refs] == [("place", "0216", "hex 0216", "0216")]
    res = seats["communist"].legal()  # ListLegalCommands: the same names beside the same commands
    assert list(res.commands) == list(p.legal_commands) and list(res.names) == list(p.names)
    assert not seats["allied"].legal().names  # not the allied seat's decision: no commands, no names
    seats["communist"].names = False  # names only when asked: a bot pays nothing for them
    res = seats["communist"].legal()
    assert list(res.commands) == list(p.legal_commands) and not res.names
    for s in seats.values():
        s.client.close()


def _ntnd_recruit_menu() -> tuple[P.Menu, list]:
    g = LocalGame.create("ntnd", seed=b"play-names", scenario="tet")
    g.handshake()
    rs = g.referee.ruleset
    d = rs.pending(g.referee.state)
    legal = rs.legal_commands(g.referee.state, d.seat)
    return P.Menu.of(names.label_commands(rs, g.referee.state, d.seat, d, legal), legal), legal


def test_a_large_decision_shows_its_groups_and_a_group_on_request():
    menu, legal = _ntnd_recruit_menu()
    lines = menu.lines()
    assert lines[0].startswith(f"  {len(legal)} choices in {len(menu.groups)} groups")
    assert len(lines) == len(menu.groups) + 1 < 30  # not 236 buttons
    assert any(x.startswith("  g1. Place a KR cadre face down: pick a place (choices 1-") for x in lines)
    i, shown = menu.pick("g1")
    assert i is None and shown[0] == "  Place a KR cadre face down: pick a place:" and "     1. " in shown[1]
    i, shown = menu.pick("g99")
    assert i is None and shown[0].startswith(f"there is no group g99: the groups are g1 to g{len(menu.groups)}")
    i, shown = menu.pick("place a kr cadre face down at hex 0216")  # a whole name, any case
    assert legal[i].ntnd.place.location == "0216" and legal[i].ntnd.place.inverted and shown == []
    i, shown = menu.pick("done")  # part of a name, one match
    assert legal[i].ntnd.WhichOneof("action") == "done" and shown == ["-> Done placing recruits"]
    i, shown = menu.pick("kr cadre face up")  # part of several names: they are listed with their numbers
    n = sum(1 for t in menu.texts if "KR cadre face up" in t)
    assert i is None and n > 1 and shown[0] == f"{n} choices match 'kr cadre face up'; type one's number:"
    assert all("KR cadre face up" in x for x in shown[1:1 + min(n, P.MAX_LISTED)])
    i, shown = menu.pick("Hanoi Haiphong Saigon")
    assert i is None and shown[0].startswith("no choice is named 'Hanoi Haiphong Saigon'. type a choice's number")


def test_numbers_follow_the_order_shown_and_a_wrong_one_is_answered_in_words():
    m = P.Menu(["Move to 1", "Abort (a)", "Move to 2", "Abort (b)"], ["Move", "Abort", "Move", "Abort"])
    assert m.lines() == ["  Move:", "       1. Move to 1", "       2. Move to 2",
                         "  Abort:", "       3. Abort (a)", "       4. Abort (b)"]
    assert m.pick("2") == (2, []) and m.pick("3") == (1, [])
    i, shown = m.pick("99")
    assert i is None and shown == ["99 is not a choice: the choices are numbered 1 to 4. type a choice's number "
                                   "(1-4), its name or part of it, r (resign), d (offer a draw), ? for what the "
                                   "rules allow, Enter to look again, or a command as protobuf text"]


def test_aar_play_takes_a_number_a_name_or_protobuf_and_answers_mistakes_in_words(server, tmp_path, capsys,
                                                                                  monkeypatch):
    from afteraction.cli.commands import read_seat_key
    from afteraction.engine.bots import random_bot

    gid, ks = _keys(tmp_path, capsys, server, "duel", ("a", "b"))
    bot = Seat(Client(server.target), gid, "b", read_seat_key(ks["b"]))
    t = threading.Thread(target=lambda: bot.play(random_bot(b"b")), daemon=True)
    t.start()
    answers = ["99",                       # not a choice: said in words, asked again
               "seven",                    # no such name
               "Pick 3 in secret",         # a name
               "pick 4",                   # part of one
               "pick { number: 5 }"]       # protobuf text
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    assert cli.main(["play", "--server", server.target, "--game-id", gid, "--seat", "a", "--key", ks["a"]]) == 0
    t.join(30)
    out = capsys.readouterr().out
    assert "99 is not a choice: the choices are numbered 1 to 6. type a choice's number (1-6)" in out
    assert "no choice is named 'seven'. type a choice's number (1-6)" in out
    assert "ParseError" not in out and "Expected" not in out and "{" not in out.split("game over:")[0]
    assert "-> Pick 4 in secret" in out
    assert [x for x in out.splitlines() if "(private to you)" in x] == [  # the three picks, as typed
        f"  (private to you) Round {r}: a picked {n}" for r, n in ((1, 3), (2, 4), (3, 5))]
    bot.client.close()


def test_aar_play_does_not_show_a_refusal_the_seat_retries(server, tmp_path, capsys, monkeypatch):
    """The handshake race: both seats' prompts cross, the server refuses the stale one
    (STALE_STATE) and prompts again; the player sees nothing of it. Other refusals are shown."""
    gid, ks = _keys(tmp_path, capsys, server, "duel", ("a", "b"))

    def fake_play(self, choose, on_message=None, **kw):
        for reason in ("STALE_STATE", "LOST_RACE", "ILLEGAL_COMMAND"):
            on_message(self, gs.PlayResponse(rejected=gs.CommandRejected(counter=1, code=9, reason=reason,
                                                                         message=f"the {reason} message")))
        return {"winner": "a"}
    monkeypatch.setattr(Seat, "play", fake_play)
    assert cli.main(["play", "--server", server.target, "--game-id", gid, "--seat", "a", "--key", ks["a"]]) == 0
    out = capsys.readouterr().out
    assert "STALE_STATE" not in out and "LOST_RACE" not in out
    assert "refused: ILLEGAL_COMMAND: the ILLEGAL_COMMAND message" in out
