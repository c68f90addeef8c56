"""docs/rules/ntnd.md tells the truth: every rule number of the text has a row, every test a row
names exists in tests/ntnd, every row marked done (or partly done) names a test, and the counts line adds up."""
from __future__ import annotations

import collections
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs/rules/ntnd.md").read_text()
ROW = re.compile(r"^\| (\d+(?:\.\d+)*) \| (.*?) \| (background|done|partly|part 2|not yet) \| "
                 r"(.*?) \| (.*) \|$", re.M)


def _rule_numbers() -> set[str]:
    text = (ROOT.parent / "shared/seeds/000_dc65da6ddb3c3a25.txt")
    if not text.exists():
        text = pathlib.Path("/work/shared/seeds/000_dc65da6ddb3c3a25.txt")
    return {m.group(1) for m in re.finditer(r"^(\d+(?:\.\d+)+|\d+)\.? [A-Z*]", text.read_text(), re.M)}


def _tests() -> set[str]:
    names = set()
    for f in (ROOT / "tests/ntnd").glob("test_*.py"):
        names |= set(re.findall(r"^def (test_\w+)", f.read_text(), re.M))
    return names


def test_ntnd_docs_every_rule_number_has_a_row():
    rows = {m.group(1) for m in ROW.finditer(DOC)}
    missing = sorted(_rule_numbers() - rows, key=lambda r: [int(x) for x in r.split(".")])
    assert missing == []


def test_ntnd_docs_named_tests_exist_and_done_rows_name_one():
    known = _tests()
    for m in ROW.finditer(DOC):
        named = re.findall(r"`(test_\w+\*?)`", m.group(5))   # a trailing * names a family of tests
        missing = [n for n in named if not (n in known or n.endswith("*") and any(k.startswith(n[:-1]) for k in known))]
        assert missing == [], (m.group(1), missing)
        heading = "." not in m.group(2)  # "8.8 | Reaction Movement": a section title, its sub-rules carry tests
        if m.group(3) == "done" and not heading:
            assert named, f"{m.group(1)} is done but names no test"


def cited_numbers(test: str) -> set[str]:
    """The rule numbers a test's name (or a wildcard's prefix) cites: each run of numbers joined by
    underscores after ``test_ntnd_`` (``test_ntnd_8_8_2_reaction_..._and_8_8_2_2_...``: 8.8.2 and
    8.8.2.2). A run may glue citations: a new one starts at a number that is at least the run's
    first and greater than the one before it, with two numbers or more on each side
    (``test_ntnd_22_2_22_4_...``: 22.2 and 22.4; ``test_ntnd_13_3_18_6_1_17_2_...``: 13.3, 18.6.1, 17.2;
    ``test_ntnd_8_8_1_1_...`` cites 8.8.1.1 only). Every way of cutting a run is read (a glued name
    may cite a number more than it means, never fewer)."""
    runs, cur = [], []
    for tok in test.removeprefix("test_ntnd_").rstrip("*").split("_") + [""]:
        if tok.isdigit():
            cur.append(int(tok))
        elif cur:
            runs.append(cur)
            cur = []
    out = set()
    for r in runs:
        out.add(".".join(map(str, r)))
        cuts = [0] + [k for k in range(2, len(r) - 1) if r[k] >= r[0] and r[k] > r[k - 1]] + [len(r)]
        out |= {".".join(map(str, r[i:j])) for i in cuts for j in cuts if j - i >= 2}
    return out


# Rows marked done or partly whose own-number test is not in this branch: part 2b rules that other
# branches of the session own. The list may only shrink.
OWN_TEST_PENDING: set[str] = set()
# Rows whose text only introduces their sub-rules ("6.1 During this phase the Communist player may
# promote or break down his units."): covered by the tests of those sub-rules, which the row names.
COVERED_BY_SUB_RULES = {"19.2", "24.4", "25.4"}


def test_ntnd_docs_done_rows_name_a_test_of_their_own_number():
    """A rule cited only by a whole-game bot test, or only by the test of another rule, is
    not tested. Every row marked done or partly names a test whose name cites the row's own number
    (``cited_numbers``; a wildcard ``test_ntnd_4_2_2_*`` names the family of its number's tests).
    Section titles ("8.8 | Reaction Movement") are exempt (their sub-rules carry the tests), and so
    are the rows of ``COVERED_BY_SUB_RULES``, which must name a test of one of their sub-rules."""
    missing = []
    for m in ROW.finditer(DOC):
        num, text, status, _, tests = m.groups()
        if status not in ("done", "partly") or "." not in text or num in OWN_TEST_PENDING:
            continue
        cited = set().union(*[cited_numbers(n) for n in re.findall(r"`(test_\w+\*?)`", tests)])
        if num not in cited and not (num in COVERED_BY_SUB_RULES and any(c.startswith(num + ".") for c in cited)):
            missing.append(num)
    assert missing == []
    for n in OWN_TEST_PENDING | COVERED_BY_SUB_RULES:
        assert re.search(rf"^\| {re.escape(n)} \| .*? \| (done|partly) \|", DOC, re.M), n


def test_ntnd_docs_cited_numbers_reads_test_names():
    assert cited_numbers("test_ntnd_8_8_1_1_airmobile_reaction") == {"8.8.1.1"}      # not 8.1
    assert cited_numbers("test_ntnd_8_8_2_reaction_one_hex_and_8_8_2_2_allied") == {"8.8.2", "8.8.2.2"}
    assert cited_numbers("test_ntnd_22_2_22_4_only_inverted") == {"22.2.22.4", "22.2", "22.4"}
    assert {"13.3", "18.6.1", "17.2"} <= cited_numbers("test_ntnd_13_3_18_6_1_17_2_automatic")
    assert {"3.1.7", "22.3"} <= cited_numbers("test_ntnd_3_1_7_22_3_communist_phase")
    assert cited_numbers("test_ntnd_3_2_3_allied_movement") == {"3.2.3"}              # not 3.2 and 3
    assert cited_numbers("test_ntnd_8_10_1_2_a_third") == {"8.10.1.2"}
    assert cited_numbers("test_ntnd_4_2_2_*") == {"4.2.2"}
    assert cited_numbers("test_ntnd_tet_bots_play_to_the_end") == set()


def test_ntnd_docs_counts_line_adds_up():
    c = collections.Counter(m.group(3) for m in ROW.finditer(DOC))
    line = (f"Counts over {sum(c.values())} rule numbers: background: {c['background']}, done: {c['done']}, "
            f"partly: {c['partly']}, part 2: {c['part 2']}, not yet: {c['not yet']}.")
    assert line in DOC


def _opponent_rows() -> dict[str, list[str]]:
    section = DOC.split("## What the opponent can see", 1)[1].split("\n## ", 1)[0]
    out = {}
    for line in section.splitlines():
        if line.startswith("| `"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            out[cells[0].strip("`")] = re.findall(r"`([\w-]+)`", cells[1])
    return out


def test_ntnd_docs_what_the_opponent_can_see_matches_the_engine():
    """docs/rules/ntnd.md "What the opponent can see": the public events listed for each Communist
    action on inverted units are the ones the engine emits, in order of first appearance,
    up to the next decision, without the game's clock (phases, dice) and what the battle does next."""
    from afteraction.engine.games.ntnd.rules import cmd
    from afteraction.engine.ruleset import Context

    from .mapplay import RS, at, blank, play, put
    from .test_ntnd_owner_leaks import _attack_commands, _marker, _ops, _supply_pair

    def kinds(s, seat, c, faces=None):
        ctx = Context.for_tests(faces=faces)
        RS.apply(RS.copy_state(s), seat, c, ctx)
        out = []
        for e, to in ctx.events:
            if to is None and e["t"] not in out and e["t"] not in ("phase", "phase-note", "roll"):
                out.append(e["t"])
        return out

    got = {}
    s = blank()
    put(s, "vc-cadre-1", "1812")
    got["invert"] = kinds(at(s, "c_ops"), "communist", cmd("invert", location="1812", units=["vc-cadre-1"]))
    got["promote"] = kinds(_ops(["communist-dummy-1"], "vc-cadre-1", "1812", face_up=["sup-ashau"]), "communist",
                           cmd("promote", piece="vc-cadre-1", supply="sup-ashau", to="regiment"))
    got["break_down"] = kinds(_ops(["sup-ashau"], "nva-320", "1812"), "communist", cmd("break_down", piece="nva-320"))
    s = blank()
    mid = _marker(s, ["communist-dummy-1"], "1813")
    got["move"] = kinds(at(s, "c_move"), "communist", cmd("move", piece=mid, path=["1713"]))
    s = at(_supply_pair()[0], "c_move")
    for seat, c in _attack_commands(s)[:3]:
        s, _ = play(s, seat, c, faces=[6, 1])
    got["supply"] = kinds(s, "communist", cmd("losses", units=["sup-ashau"]))[:1]  # a face-up one
    from .test_ntnd_neutrality import at as campaign_at, cblank
    s = campaign_at(cblank(turn=6), "c_recruit", faces=[6, 1])     # 27.1: Chinese aid begins
    got["aid"] = kinds(s, "communist", cmd("aid", source="china", kind="nva_sam", location="CHINA", inverted=True))
    from .test_ntnd_hearts import camp, first, hide
    s = camp()
    sup = first(s, "communist_supply")
    sup2 = first(s, "communist_supply", 1)
    hide(s, [sup, sup2, first(s, "vc_cadre"), first(s, "communist_dummy")], "1523")
    got["build_base"] = kinds(at(s, "c_ops"), "communist", cmd("build_base", location="1523", supplies=[sup, sup2]))
    s = camp()
    s["units"][first(s, "vc_base")].update(status="map", loc="1523")
    reg, cad = first(s, "vc_regiment"), first(s, "vc_cadre")
    hide(s, [reg, cad, sup, first(s, "communist_dummy")], "1523")
    got["upgrade"] = kinds(at(s, "c_ops"), "communist", cmd("upgrade", regiment=reg, cadre=cad, supply=sup))
    s = camp()
    hide(s, [sup, first(s, "communist_dummy")], "1522")
    got["expend"] = kinds(at(s, "c_hearts"), "communist", cmd("expend", unit=sup))
    from afteraction.engine.games.ntnd.forces.operations import make_marker as _mk
    from .airplay import air_camp, at_phase as air_at, commie, fly
    s = air_camp(1)
    sam, reg = commie(s, "nva_sam", "1913"), commie(s, "vc_regiment", "1913")
    _mk(s, [sam, reg], "1913", Context.for_tests(), "test")
    air_at(s, "a_air")
    fly(s, "bomb", "1913", ["us-ftr-1", "us-ftr-2"])
    got["aa_fire"] = kinds(s, "communist", cmd("aa_fire", units=[sam]), faces=[1, 1, 1, 1, 1])  # 11.1.1, 12.1 (air war)
    RS.apply(s, "communist", cmd("aa_fire", units=[sam]), Context.for_tests(faces=[1, 1, 1, 1, 6]))
    got["air_losses"] = kinds(s, "communist", cmd("losses", units=[reg]))                      # 11.1.1.2
    assert _opponent_rows() == got
