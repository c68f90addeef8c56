"""`aar play` speaks to a person: a compact board summary per game (money, units by zone), what
changed since the last prompt, and each choice in words with its cost or odds where the rules
give them (GMV Phase 1 unit costs; SOG moves: terrain and the SOG 3.5 contact roll)."""
from __future__ import annotations

import io
import pathlib
import threading

from afteraction.cli import main as cli
from afteraction.cli import play_text as P
from afteraction.client.client import Client
from afteraction.client.seat import Seat
from afteraction.cli.logwalk import load
from afteraction.engine import registry
from afteraction.engine.games.gmv import units
from afteraction.engine.log.verify import Verifier

GOLDEN = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "golden"


def _at(name: str, at: int):
    h, f, _ = load(str(GOLDEN / name))
    v = Verifier(h["server_vkey"], None, h["secret"], True, registry.get, h["game"])
    for raw, cp in f[:at + 1]:
        v.add(raw, cp)
    rs, s = v.referee.ruleset, v.referee.state
    d = rs.pending(s)
    return rs, s, d.seat, rs.view(s, d.seat)


def _menu(rs, s, seat, legal, game, view) -> P.Menu:
    """The choices as `aar play` lists them: the ruleset's names, the rules' odds beside them."""
    from afteraction.engine import names

    labels = names.label_commands(rs, s, seat, rs.pending(s), legal)
    return P.Menu.of(labels, legal, [P.cost_or_odds(game, c, view) for c in legal])


def test_gmv_phase_1_summary_money_units_by_zone_and_costs():
    rs, s, seat, view = _at("gmv.aar", 5)
    lines = P.summary("gmv", view)
    m = view["money"]["us"]
    assert f"money US: {m['ipc']} IPC, {m['rec']} R-rating IPC" in lines[1]
    assert any(line.startswith("  Da Nang [da_nang]: US ") for line in lines)  # zones as the choices name them
    mine = [u for u in view["units"] if u["zone"] == "da_nang" and u["side"] == "us"]
    line = next(x for x in lines if x.startswith("  Da Nang [da_nang]: US "))
    assert mine and all(u["id"] in line for u in mine)  # and units by the ids the choices name
    assert not any("NVA hidden" in x for x in lines) and "money NVA" not in "\n".join(lines)  # the US seat's view
    legal = rs.legal_commands(s, seat)
    words = _menu(rs, s, seat, legal, "gmv", view).lines()
    assert words[0] == "  Buy a unit:" and words[1] == f"       1. Buy infantry for {units.cost('inf')} IPC"
    assert f"Buy South Vietnamese infantry for {units.cost('sv')} R-rating IPC" in "".join(words)
    assert "{" not in "".join(words)  # no protobuf text


def test_sog_moves_in_words_with_terrain_and_the_contact_roll():
    rs, s, seat, view = _at("sog.aar", 9)
    lines = P.summary("sog", view)
    assert lines[1].startswith(f"team at {view['team_at']} (12 men), target {view['target']}")
    legal = rs.legal_commands(s, seat)
    text = _menu(rs, s, seat, legal, "sog", view).lines()
    assert any("Hold at " in t and "hold: the team stays where it is" in t for t in text)
    # SOG 3.5.1: clear terrain +3, a whole team, no VC there: d10 + 3 -> 6-7 evaded, 8-9 contact, 10+ ambush
    assert any(t.endswith("Move to 6-E (clear)  (into clear; if the contact roll is made (SOG 3.5: not into the "
                          "target, an LZ or the PZ), d10 +3: none 20%, evaded 20%, contacted 20%, ambush 40%)")
               for t in text), text


def test_ntnd_summary_and_changes_since_the_last_prompt():
    _, _, _, before = _at("ntnd-tet.aar", 40)
    _, _, _, after = _at("ntnd-tet.aar", 60)
    a, b = P.summary("ntnd", before), P.summary("ntnd", after)
    assert b[0].startswith(after["turn_label"]) and "pieces:" in b[1]
    ch = P.changes(a, b)
    assert ch and all(x in b for x in ch) and P.changes(b, b) == []


def test_aar_play_speaks_words_by_default(server, tmp_path, capsys, monkeypatch):
    from afteraction.cli.commands import read_seat_key
    from afteraction.engine.bots import random_bot

    ka, kb = str(tmp_path / "a.key"), str(tmp_path / "b.key")
    for k in (ka, kb):
        assert cli.main(["keygen", "-o", k]) == 0
    capsys.readouterr()
    assert cli.main(["new", "--server", server.target, "--game", "duel", "--seat", f"a={ka}", "--seat", f"b={kb}"]) == 0
    gid = capsys.readouterr().out.strip().splitlines()[0]
    bot = Seat(Client(server.target), gid, "b", read_seat_key(kb))
    t = threading.Thread(target=lambda: bot.play(random_bot(b"b")), daemon=True)
    t.start()
    monkeypatch.setattr("sys.stdin", io.StringIO("6\n6\n6\n"))
    assert cli.main(["play", "--server", server.target, "--game-id", gid, "--seat", "a", "--key", ka]) == 0
    t.join(30)
    out = capsys.readouterr().out
    assert "     6. Pick 6 in secret" in out and "duel { pick" not in out  # the ruleset's names
    assert "b: Guess " in out and "Rolled d6: " in out  # the log as a game report, dice included
    assert "round: 1" in out and "changed since the last prompt:" in out and "  * round: 2" in out
    bot.client.close()


def test_aar_play_takes_any_answer_and_a_wrong_one_is_refused_naming_the_rule(server, tmp_path, capsys, monkeypatch):
    """Not only the numbered choices: any command typed as protobuf text (with or
    without the game's wrapper) goes to the referee; one it refuses shows the rule and the game
    asks again; a typing error asks again without sending anything; `aar play` says whose turn it is."""
    from afteraction.cli.commands import read_seat_key
    from afteraction.engine.bots import random_bot

    ka, kb = str(tmp_path / "a.key"), str(tmp_path / "b.key")
    for k in (ka, kb):
        assert cli.main(["keygen", "-o", k]) == 0
    capsys.readouterr()
    assert cli.main(["new", "--server", server.target, "--game", "duel", "--seat", f"a={ka}", "--seat", f"b={kb}"]) == 0
    gid = capsys.readouterr().out.strip().splitlines()[0]
    bot = Seat(Client(server.target), gid, "b", read_seat_key(kb))
    rb = random_bot(b"b")

    def slow(seat, legal):  # a player who thinks: `aar play` says it waits for b meanwhile
        import time

        time.sleep(0.3)
        return rb(seat, legal)
    t = threading.Thread(target=lambda: bot.play(slow), daemon=True)
    t.start()
    answers = ["pick { number: 99 }",            # refused by the referee: DUEL numbers are 1-6
               "pick { numbr: 3 }",              # not a command: asked again, nothing sent
               "?",
               "pick { number: 3 }",             # any answer, without the wrapper
               "duel { pick { number: 4 } }",    # with it
               "5"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    assert cli.main(["play", "--server", server.target, "--game-id", gid, "--seat", "a", "--key", ka]) == 0
    t.join(30)
    out = capsys.readouterr().out
    assert "refused: ILLEGAL_COMMAND: DUEL: numbers are 1-6; answer again" in out
    assert "that is not a command in protobuf text (" in out and "type a choice's number (1-6), its name" in out
    assert "waiting for seat b:" in out and "game over:" in out
    assert out.count("(private to you)") == 3  # each pick, in words
    assert "(private to you) Round 1: a picked 3" in out and "(private to you) Round 2: a picked 4" in out
    assert "(private to you) Round 3: a picked 5" in out
    bot.client.close()


def test_parse_answer_and_the_answer_space():
    cmd, why = P.parse_answer("pick { number: 6 }", "duel")
    assert why == "" and cmd.duel.pick.number == 6
    assert P.parse_answer("x" * (P.MAX_ANSWER_CHARS + 1), "duel") == (None, f"longer than {P.MAX_ANSWER_CHARS} characters")
    assert P.parse_answer("nonsense {", "duel")[0] is None
    assert P.answer_space("") == "" and P.answer_space("{}") == ""
    assert P.answer_space('{"b": 1, "a": [1, 2]}') == '{"a": [1, 2], "b": 1}'
