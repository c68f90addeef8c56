"""Reading the repository's own Python sources with ``ast`` (for tests/engine/test_codes.py,
tests/engine/test_layers.py and tests/verify/test_spec_codes.py): the rejection codes raised,
the imports of every module, the ``assert`` statements."""
from __future__ import annotations

import ast
import pathlib
from dataclasses import dataclass

from conftest import REPO

#: top-level folder -> import name (pyproject.toml's package-dir)
PACKAGES = {"engine": "afteraction.engine", "service": "afteraction.service",
            "clients/python": "afteraction.client",
            "clients/cli": "afteraction.cli",
            "clients/web/static": "afteraction.webclient", "proto/afteraction/v1": "afteraction.v1"}
#: the constructors whose first argument is a rejection code
REFUSALS = ("Rejection", "Refusal")
#: service functions that take a code as their first argument
CODE_TAKERS = ("rich_status",)


def files(folder: str) -> list[pathlib.Path]:
    return sorted(p for p in (REPO / folder).rglob("*.py") if "__pycache__" not in p.parts)


def module_name(path: pathlib.Path) -> str:
    rel = path.relative_to(REPO)
    for folder, name in PACKAGES.items():
        try:
            sub = rel.relative_to(folder)
        except ValueError:
            continue
        parts = list(sub.with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        return ".".join([name, *parts])
    raise ValueError(f"{rel} is in no package")


def parse(path: pathlib.Path) -> ast.Module:
    return ast.parse(path.read_text(), str(path))


@dataclass(frozen=True)
class Raise:
    code: str | None      # None: the first argument is not a literal code (a variable, a call...)
    where: str            # path:line
    text: str             # the call, for a message
    typed: bool = False   # the code is named as a member of the enum (``Code.X``), not a plain string


def _call_name(f: ast.expr) -> str | None:
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def code_uses(folders: tuple[str, ...] = ("engine", "service")) -> list[Raise]:
    """Every ``Rejection(code, ...)``, ``Refusal(code, ...)`` and ``rich_status(code, ...)`` in
    ``folders``: ``code`` a string literal, or ``Code.X`` (read as "X", typed; ``RejectionCode.X``
    where ``Code`` names another class, service/web.py)."""
    out = []
    for folder in folders:
        for p in files(folder):
            for n in ast.walk(parse(p)):
                if not (isinstance(n, ast.Call) and _call_name(n.func) in REFUSALS + CODE_TAKERS):
                    continue
                where = f"{p.relative_to(REPO)}:{n.lineno}"
                a = n.args[0] if n.args else None
                typed = isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) \
                    and a.value.id in ("Code", "RejectionCode")
                if isinstance(a, ast.Constant) and isinstance(a.value, str):
                    code = a.value
                elif typed:
                    code = a.attr
                else:
                    code = None
                out.append(Raise(code, where, ast.unparse(n)[:120], typed))
    return out


def builtin_raises(folder: str) -> list[str]:
    """path:line: Name of every ``raise`` of a builtin exception class under ``folder``."""
    import builtins

    out = []
    for p in files(folder):
        for n in ast.walk(parse(p)):
            if isinstance(n, ast.Raise) and n.exc is not None:
                f = n.exc.func if isinstance(n.exc, ast.Call) else n.exc
                if isinstance(f, ast.Name) and isinstance(getattr(builtins, f.id, None), type) \
                        and issubclass(getattr(builtins, f.id), BaseException):
                    out.append(f"{p.relative_to(REPO)}:{n.lineno}: {f.id}")
    return out


def asserts(folder: str) -> list[str]:
    """path:line of every ``assert`` statement under ``folder``."""
    return [f"{p.relative_to(REPO)}:{n.lineno}" for p in files(folder)
            for n in ast.walk(parse(p)) if isinstance(n, ast.Assert)]


def imports_of(path: pathlib.Path) -> list[tuple[str, int]]:
    """The modules ``path`` imports anywhere (a lazy import inside a function too), as (absolute
    module name, line). A ``from X import y`` names X and also X.y (y may be a submodule);
    relative imports are resolved against the module's package. Imports inside
    ``if TYPE_CHECKING:`` are left out (they never run)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = parse(path)
    skip = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test):
            skip |= {id(x) for b in n.body for x in ast.walk(b)}
    out = []
    for n in ast.walk(tree):
        if id(n) in skip:
            continue
        if isinstance(n, ast.Import):
            out += [(a.name, n.lineno) for a in n.names]
        elif isinstance(n, ast.ImportFrom):
            if n.level:
                base = package.split(".")
                base = base[:len(base) - (n.level - 1)]
                mod = ".".join(base + ([n.module] if n.module else []))
            else:
                mod = n.module
            out.append((mod, n.lineno))
            out += [(f"{mod}.{a.name}", n.lineno) for a in n.names if a.name != "*"]
    return out
