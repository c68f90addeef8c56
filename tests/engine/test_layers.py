"""The layers you can see (docs/developers.md "Layers"): the import graph of
engine/, service/, clients/python/ and clients/cli/, read with ``ast`` (relative imports resolved, imports
inside functions counted too: a lazy import is still a dependency).

- nothing imports upward: engine imports neither service nor the client; service not the
  client; the client library not the service; the command line (clients/cli) sits above both;
- no import cycle inside engine: none between modules, and none between engine's parts (each
  top-level module or subpackage of engine, each game package), which is how the verifier
  (engine/log) importing the referee that imported engine/log was a cycle of two parts;
- no import cycle anywhere else either: service, the client library and the command line, lazy
  imports counted (a store and its implementations, the games manager and its statuses, the
  server and the league service, `aar verify`'s helper processes, the subcommands and main were
  cycles once); and an offline `aar verify` loads nothing of the service;
- no ``assert`` statement in engine code (``python -O`` removes them; a check is code).
"""
from __future__ import annotations

import pytest
from sources import PACKAGES, files, imports_of, module_name
from sources import asserts as find_asserts

ENGINE, SERVICE, CLIENT = "afteraction.engine", "afteraction.service", "afteraction.client"
#: the import cycles inside game packages the porters are removing: each as the
#: sorted modules of one strongly connected component. Strict xfail: when the merged ports
#: remove them, the test below turns red and this list must be emptied.
KNOWN_GAME_CYCLES: list[list[str]] = []   # NTND's two went with wip/ntnd (code moved, no lazy imports)
#: asserts left in engine code: none since wip/ntnd raised instead in ntnd/operations.py
KNOWN_ASSERTS: list[str] = []


def _graph() -> tuple[dict[str, dict[str, int]], list[str]]:
    """module -> {imported module of this repository: line}, and the imports of an
    ``afteraction.`` name that is no module read here (a package missing from PACKAGES)."""
    paths = [p for f in PACKAGES for p in files(f)]
    names = {module_name(p) for p in paths}
    g: dict[str, dict[str, int]] = {}
    unresolved = []
    for p in paths:
        m = module_name(p)
        deps: dict[str, int] = {}
        for target, line in imports_of(p):
            # the longest prefix that is a module here: ``from x import y`` names x.y or a name of x
            t = target
            while t and t not in names:
                t = t.rpartition(".")[0]
            if t and t != m:
                deps.setdefault(t, line)
            elif not t and target.startswith("afteraction."):
                unresolved.append(f"{m} -> {target} (line {line})")
        g[m] = deps
    return g, unresolved


GRAPH, UNRESOLVED = _graph()


def _where(m: str, t: str) -> str:
    return f"{m} -> {t} (line {GRAPH[m][t]})"


def test_the_graph_is_read():
    # a floor, so that a broken reader (no modules, no edges) cannot pass the tests below
    assert len(GRAPH) > 100
    assert f"{ENGINE}.protocol" in GRAPH[f"{ENGINE}.referee"]
    assert f"{ENGINE}.referee" in GRAPH[f"{ENGINE}.log.replay"]      # the verifier replays through it
    assert f"{ENGINE}.crypto.canon" in GRAPH[f"{ENGINE}.crypto.commit"]  # a relative `from . import canon`
    assert f"{SERVICE}.store" in GRAPH[f"{SERVICE}.status"]          # an import inside a function


def test_every_import_of_the_repository_is_read():
    """A package of afteraction that tests/sources.py's PACKAGES does not list would be left
    out of every check here (the command line's own package, when it moves: add its folder
    there and its layer in ``_layer``)."""
    assert not UNRESOLVED, "imports of modules this test does not read:\n" + "\n".join(UNRESOLVED)


def _layer(m: str) -> str:
    if m.startswith(ENGINE):
        return "engine"
    if m.startswith(SERVICE):
        return "service"
    if m == "afteraction.cli" or m.startswith("afteraction.cli."):
        return "cli"
    if m.startswith(CLIENT) or m == "afteraction.webclient":  # the web client's built files (clients/web)
        return "client"
    if m.startswith("afteraction.v1"):
        return "proto"
    raise KeyError(f"{m}: which layer? (tests/engine/test_layers.py _layer)")


#: layer -> the layers it may import (engine <- service; engine <- client <- cli)
ALLOWED = {"proto": {"proto"}, "engine": {"engine", "proto"}, "service": {"service", "engine", "proto"},
           "client": {"client", "engine", "proto"}, "cli": {"cli", "client", "service", "engine", "proto"}}


def upward_imports() -> list[str]:
    return sorted(_where(m, t) for m, deps in GRAPH.items() for t in deps
                  if _layer(t) not in ALLOWED[_layer(m)])


def test_nothing_imports_upward():
    bad = upward_imports()
    assert not bad, "upward imports (engine <- service; engine <- client <- cli):\n" + "\n".join(bad)


def test_an_upward_import_is_found():
    GRAPH[f"{ENGINE}.referee"][f"{SERVICE}.status"] = 1
    try:
        assert f"{ENGINE}.referee -> {SERVICE}.status (line 1)" in upward_imports()
    finally:
        del GRAPH[f"{ENGINE}.referee"][f"{SERVICE}.status"]


def _sccs(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return sorted(out)


def _part(m: str) -> str:
    """engine's part a module belongs to: a top-level module or subpackage, or a game package."""
    rest = m[len(ENGINE) + 1:].split(".")
    return ".".join(rest[:2]) if rest[0] == "games" and len(rest) > 1 else rest[0]


def engine_cycles() -> tuple[list[list[str]], list[list[str]]]:
    """(cycles between modules, cycles between parts) inside engine, names without the
    afteraction.engine. prefix; each cycle is a sorted strongly connected component."""
    eng = {m: {t for t in deps if t.startswith(ENGINE + ".")} for m, deps in GRAPH.items() if m.startswith(ENGINE + ".")}
    short = lambda m: m[len(ENGINE) + 1:]  # noqa: E731
    modules = [[short(m) for m in c] for c in _sccs(eng)]
    parts: dict[str, set[str]] = {}
    for m, deps in eng.items():
        parts.setdefault(_part(m), set()).update(_part(t) for t in deps if _part(t) != _part(m))
    return modules, _sccs(parts)


def _game_cycle(c: list[str]) -> bool:
    return all(m.startswith("games.") for m in c)


def _describe(cycle: list[str]) -> str:
    full = [f"{ENGINE}.{m}" for m in cycle]
    edges = [_where(a, b) for a in full for b in full if b in GRAPH.get(a, {})]
    return " <-> ".join(cycle) + "\n    " + "\n    ".join(edges)


def test_no_import_cycle_between_engine_parts():
    _, parts = engine_cycles()
    assert not parts, "import cycles between parts of engine:\n" + "\n".join(" <-> ".join(c) for c in parts)


def test_no_import_cycle_inside_engine_core():
    modules, _ = engine_cycles()
    core = [c for c in modules if not _game_cycle(c)]
    assert not core, "import cycles inside engine:\n" + "\n".join(_describe(c) for c in core)


def test_the_game_cycles_are_the_known_ones():
    """No new cycle in a game package, and every known one is still listed (so the xfail below
    is about exactly these)."""
    modules, _ = engine_cycles()
    games = [[m[len("games."):] for m in c] for c in modules if _game_cycle(c)]
    new = [c for c in games if c not in KNOWN_GAME_CYCLES]
    assert not new, "new import cycles in game packages:\n" + "\n".join(_describe(["games." + m for m in c]) for c in new)
    gone = [c for c in KNOWN_GAME_CYCLES if c not in games]
    assert not gone, f"fixed, remove them from KNOWN_GAME_CYCLES (and the xfail once it is empty): {gone}"


@pytest.mark.xfail(bool(KNOWN_GAME_CYCLES), strict=True,
                   reason="the game ports remove the cycles of KNOWN_GAME_CYCLES")
def test_no_import_cycle_inside_game_packages():
    modules, _ = engine_cycles()
    games = [c for c in modules if _game_cycle(c)]
    assert not games, "import cycles in game packages:\n" + "\n".join(_describe(c) for c in games)


def test_a_cycle_is_found():
    a, b = f"{ENGINE}.protocol", f"{ENGINE}.log.verify"
    GRAPH[a][b] = 1
    try:
        modules, parts = engine_cycles()
        # the injected edge closes log -> referee -> protocol -> log (and log -> endings -> protocol -> log)
        assert any({"log", "protocol", "referee"} <= set(p) for p in parts), parts
        assert any("protocol" in c and "log.verify" in c for c in modules)
    finally:
        del GRAPH[a][b]


def all_cycles() -> list[list[str]]:
    """Every import cycle of the repository's modules (each a sorted strongly connected component)."""
    return _sccs({m: set(deps) for m, deps in GRAPH.items()})


def test_no_import_cycle_anywhere():
    """Not in engine (above, by part too), not in service, not in the clients or the command line:
    a module's imports, lazy ones included, can be read as a tree from the top."""
    cycles = all_cycles()
    assert not cycles, "import cycles:\n" + "\n".join(
        " <-> ".join(c) + "\n    " + "\n    ".join(_where(a, b) for a in c for b in c if b in GRAPH.get(a, {}))
        for c in cycles)


@pytest.mark.parametrize("a, b", [(f"{SERVICE}.store", f"{SERVICE}.stores"),
                                  ("afteraction.cli.common", "afteraction.cli.main")])
def test_a_cycle_outside_engine_is_found(a, b):
    assert a not in GRAPH[b] or b not in GRAPH[a]
    added = b not in GRAPH[a]
    GRAPH[a][b] = 1
    try:
        assert any(a in c and b in c for c in all_cycles()), (a, b)
    finally:
        if added:
            del GRAPH[a][b]


def test_offline_verify_loads_nothing_of_the_service():
    """`aar verify` of a bundle (no server involved) imports no module of afteraction.service: the
    command line's parser registers `aar serve` without importing the server (its --key-name default is
    read when it runs). A fresh interpreter, after the whole verification."""
    import subprocess
    import sys
    from pathlib import Path

    bundle = Path(__file__).resolve().parents[2] / "fixtures" / "golden" / "duel.aar"
    code = ("import sys\nfrom afteraction.cli.main import main\nrc = main(['verify', sys.argv[1]])\n"
            "print(rc, sorted(m for m in sys.modules if m.startswith('afteraction.service')))")
    out = subprocess.run([sys.executable, "-c", code, str(bundle)], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "0 []"


def test_aar_serve_names_the_service_default_key_name():
    """The one place the default lives is service/keyring.py; `aar serve --help` says the same name."""
    import argparse

    from afteraction.cli.serve_cmd import register_serve
    from afteraction.service.keyring import DEFAULT_NAME

    p = argparse.ArgumentParser()
    register_serve(p)
    assert f"(default {DEFAULT_NAME})" in p.format_help().replace("\n", " ").replace("  ", " ")


def test_no_assert_in_engine_code():
    found = find_asserts("engine")
    assert len(find_asserts("tests/verify")) > 10  # the reader finds asserts where there are some
    left = [a for a in found if a.split(":")[0] not in KNOWN_ASSERTS]
    assert not left, "assert statements in engine code (python -O removes them): " + ", ".join(left)
    fixed = [f for f in KNOWN_ASSERTS if not any(a.startswith(f + ":") for a in found)]
    assert not fixed, f"no assert left in {fixed}: remove it from KNOWN_ASSERTS"


def test_a_verifier_with_every_ruleset_loads_no_bot():
    """Replaying a log loads the rules, never a player: the bots (each game's bots*.py, engine/bots.py)
    are imported only by ``Ruleset.demo_bot`` when a bot is seated, so the verifier's import closure
    holds no bot code (a fresh interpreter: this test process has loaded the bots already)."""
    import subprocess
    import sys
    code = ("import sys\nfrom afteraction.engine import registry\nimport afteraction.engine.log.verify\n"
            "for g in registry.games(): registry.get(g)\nprint(sorted(m for m in sys.modules if 'bot' in m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
