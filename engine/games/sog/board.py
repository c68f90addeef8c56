"""SOG 2-2.2: the Strategic Movement Map (co-ordinates, terrain, adjacency) and
the Random Movement Diagram of 4.2, both authored by the project as data
(data/map.json, data/movement_diagram.json; see docs/rules/sog.md).

A square is named as the text reads it, "row-column": "5-A" is the fifth square
down in the first column (SOG 2). Rows 1-10 run north to south, columns A-J west
to east.
"""
from __future__ import annotations

import json
import pathlib

COLUMNS = "ABCDEFGHIJ"
ROWS = range(1, 11)

_DATA = pathlib.Path(__file__).resolve().parent / "data"


def _load(name: str) -> dict:
    with open(_DATA / name, encoding="utf-8") as f:
        return json.load(f)


_MAP = _load("map.json")
_DIAGRAM = _load("movement_diagram.json")

# SOG 2.1: the five terrain types.
TERRAINS = ("clear", "elephant_grass", "jungle", "mountain", "broken")


def square(row: int, col: int) -> str:
    """The name of the square at ``row`` (1-10) and column number ``col`` (1-10)."""
    return f"{row}-{COLUMNS[col - 1]}"


def parse(name: str) -> tuple[int, int] | None:
    """(row, column number) of a square name, or None if it is not a square of the map."""
    if not isinstance(name, str):
        return None
    row, sep, col = name.strip().upper().partition("-")
    # ASCII digits only: str.isdigit() accepts e.g. "²", which int() refuses
    if not sep or not (row.isascii() and row.isdigit()) or len(col) != 1 or col not in COLUMNS:
        return None
    r = int(row)
    if r not in ROWS:
        return None
    return r, COLUMNS.index(col) + 1


ALL_SQUARES: tuple[str, ...] = tuple(square(r, c) for r in ROWS for c in range(1, 11))
_RC = {s: parse(s) for s in ALL_SQUARES}

TERRAIN: dict[str, str] = {
    square(r, c): _MAP["legend"][_MAP["rows"][r - 1][c - 1]] for r in ROWS for c in range(1, 11)
}


def rc(name: str) -> tuple[int, int]:
    return _RC[name]


def neighbours(name: str) -> list[str]:
    """The up to eight squares adjacent to ``name`` (SOG 3.5: diagonal, horizontal or vertical)."""
    r, c = _RC[name]
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 1 <= r + dr <= 10 and 1 <= c + dc <= 10:
                out.append(square(r + dr, c + dc))
    return out


_NEIGHBOURS = {s: tuple(neighbours(s)) for s in ALL_SQUARES}


def adjacent(a: str, b: str) -> bool:
    return b in _NEIGHBOURS[a]


def distance(a: str, b: str) -> int:
    """King-move distance (turns needed on foot, SOG 2.2)."""
    (r1, c1), (r2, c2) = _RC[a], _RC[b]
    return max(abs(r1 - r2), abs(c1 - c2))


def from_2d10(faces: tuple[int, ...]) -> str:
    """SOG 3.3: the first die gives the row, the second the column (1 = A ... 0 = J)."""
    return square(faces[0], faces[1])


def is_exit_square(name: str) -> bool:
    """SOG 3.7.2: a west edge (column A) or south edge (row 10) square."""
    r, c = _RC[name]
    return c == 1 or r == 10


def diagram_step(name: str, d10: int) -> tuple[str, str | None]:
    """SOG 4.2: (direction, new square or None if the counter leaves the map)."""
    label, dr, dc = _DIAGRAM["directions"][str(d10)]
    r, c = _RC[name]
    r, c = r + dr, c + dc
    if 1 <= r <= 10 and 1 <= c <= 10:
        return label, square(r, c)
    return label, None


def diagram() -> dict:
    """The Random Movement Diagram as canonical data (d10 result -> [label, drow, dcol])."""
    return {k: list(v) for k, v in _DIAGRAM["directions"].items()}
