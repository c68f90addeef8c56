"""The command line is its own package on top of the client library:
nothing in clients/python (afteraction.client) imports afteraction.cli, at any depth of a function."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _imports(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside afteraction.client
                out.add("afteraction.client." + (node.module or ""))
            else:
                out.add(node.module or "")
    return out


def test_client_library_imports_nothing_from_the_cli():
    files = sorted((ROOT / "clients" / "python").glob("*.py"))
    assert files
    bad = {f.name: m for f in files for m in _imports(f) if m == "afteraction.cli" or m.startswith("afteraction.cli.")}
    assert bad == {}


def test_the_cli_is_not_in_the_client_folder():
    assert not (ROOT / "clients" / "python" / "cli.py").exists()
    assert (ROOT / "clients" / "cli" / "main.py").exists()
