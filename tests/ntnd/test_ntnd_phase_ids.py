"""NTND's phases are data declared once: each phase id is spelled only in sequence/turns.py (its
constant, which PHASES and phases.py's FLOW use); every other module names the constant or asks
turns' predicates (``phase_id``, ``MOVEMENT``, ``COMBAT``, ``POLITICS``). A phase renamed or
regrouped there then changes every rule that tests it, and a misspelt name fails at import where a
misspelt string would only never match."""
from __future__ import annotations

import ast
import pathlib

from conftest import REPO

from afteraction.engine.games.ntnd.sequence import turns

NTND = REPO / "engine" / "games" / "ntnd"
DECLARED_IN = NTND / "sequence" / "turns.py"
IDS = frozenset(p.id for p in turns.PHASES)
#: a prefix of the ids' spelling ("c_", "a_") tested instead of the phase's player
PREFIXES = frozenset(i[:2] for i in IDS)


def phase_id_literals(path: pathlib.Path) -> list[str]:
    """line: literal, for every string constant of a module that is a phase id or an id's prefix
    (docstrings and comments may name a phase in words; a constant is code that tests one)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [f"{n.lineno}: {n.value!r}" for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
            and (n.value in IDS or n.value in PREFIXES)]


def test_the_ids_are_declared_once_as_constants():
    assert len(IDS) == len(turns.PHASES) == 15
    assert {getattr(turns, i.upper()) for i in IDS} == IDS
    assert all(turns.BY_ID[i].id == i for i in IDS)
    assert turns.MOVEMENT == {turns.C_MOVE: turns.COMMUNIST, turns.A_MOVE: turns.ALLIED}


def test_no_other_ntnd_module_spells_a_phase_id():
    modules = sorted(p for p in NTND.rglob("*.py") if "__pycache__" not in p.parts and p != DECLARED_IN)
    assert len(modules) > 60 and NTND / "phases.py" in modules
    found = {p.relative_to(NTND).as_posix(): hits for p in modules if (hits := phase_id_literals(p))}
    assert found == {}, "phase ids spelled outside sequence/turns.py: name turns' constant or predicate instead"


def test_a_spelled_phase_id_is_found(tmp_path):
    f = tmp_path / "m.py"
    f.write_text('"""The c_move phase (a docstring may say so)."""\n'
                 'def f(s):\n    return s["phase"]["id"] == "c_move" or s["phase"]["id"].startswith("a_")\n')
    assert phase_id_literals(f) == ["3: 'c_move'", "3: 'a_'"]
    assert phase_id_literals(DECLARED_IN)          # where they are declared, they are found
