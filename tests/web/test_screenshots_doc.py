"""docs/playing.md shows each game at three moments: every picture it names is in
docs/screenshots/, is one `make screenshots` takes (tests/web/test_web_mapplay_browser.py's
``_shot`` names), and is small; none is left there unshown. pngsmall makes a palette PNG that
reads back as the same picture size."""
from __future__ import annotations

import pathlib
import re
import struct
import zlib

from .pngsmall import smaller

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
MOMENTS = {"sog": ("team", "move", "end"), "gmv": ("start", "move", "end"), "ntnd": ("recruit", "move", "end")}


def test_playing_md_shows_each_game_at_three_moments_and_every_picture_is_small():
    text = (DOCS / "playing.md").read_text()
    shown = re.findall(r"!\[[^\]]+\]\((screenshots/[^)]+\.png)\)", text)
    want = [f"screenshots/{g}-{m}.png" for g, ms in MOMENTS.items() for m in ms]
    assert sorted(shown) == sorted(want)
    on_disk = sorted(f"screenshots/{p.name}" for p in (DOCS / "screenshots").glob("*"))
    assert on_disk == sorted(want)
    made = (ROOT / "tests" / "web" / "test_web_mapplay_browser.py").read_text()
    for g, ms in MOMENTS.items():
        assert f'_shoot_as(' in made and f'"{g}")' in made
        for m in ms:
            assert f'"{m}"' in made, (g, m)
    for rel in want:
        data = (DOCS / rel).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[25] == 3, rel   # a palette PNG (pngsmall)
        assert len(data) < 160_000, (rel, len(data))


def _png(w: int, h: int, rgb) -> bytes:
    raw = b"".join(b"\x00" + b"".join(bytes(rgb(x, y)) for x in range(w)) for y in range(h))

    def chunk(k, b):
        return struct.pack(">I", len(b)) + k + b + struct.pack(">I", zlib.crc32(k + b))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_pngsmall_keeps_few_colours_exactly_and_maps_many_to_the_nearest():
    few = smaller(_png(5, 3, lambda x, y: (x * 10, y * 20, 7)))
    assert struct.unpack(">II", few[16:24]) == (5, 3) and few[25] == 3
    plte = few[few.index(b"PLTE") + 4:]
    n = struct.unpack(">I", few[few.index(b"PLTE") - 4:few.index(b"PLTE")])[0]
    assert sorted(plte[i:i + 3] for i in range(0, n, 3)) == sorted(bytes((x * 10, y * 20, 7)) for x in range(5)
                                                                   for y in range(3))
    many = smaller(_png(40, 20, lambda x, y: (x * 6, y * 12, (x * y) % 256)))
    n = struct.unpack(">I", many[many.index(b"PLTE") - 4:many.index(b"PLTE")])[0]
    assert n // 3 == 256
