"""A screenshot made smaller for docs/screenshots/ (no imaging library needed): Chromium's RGB(A)
PNG read, its colours reduced to a palette of at most 256 (the page's 256 commonest colours, every
other one, an anti-aliased text edge mostly, drawn as the nearest of them), written again as an
8-bit palette PNG, zlib level 9 (a quarter of the size or less)."""
from __future__ import annotations

import struct
import zlib
from collections import Counter


def _chunks(data: bytes):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    i = 8
    while i < len(data):
        n = struct.unpack(">I", data[i:i + 4])[0]
        yield data[i + 4:i + 8], data[i + 8:i + 8 + n]
        i += 12 + n


def _rows(data: bytes) -> tuple[int, int, int, list[bytes]]:
    """(width, height, bytes per pixel, the unfiltered rows) of an 8-bit RGB or RGBA PNG."""
    idat, w = [], 0
    for kind, body in _chunks(data):
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError("only 8-bit RGB(A), not interlaced")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat.append(body)
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for x in range(stride):
                line[x] = (line[x] + ((line[x - bpp] if x >= bpp else 0) + prev[x]) // 2) & 255
        elif f == 4:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b, c = prev[x], prev[x - bpp] if x >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def smaller(data: bytes) -> bytes:
    """``data`` (a PNG) as an 8-bit palette PNG."""
    w, h, bpp, rows = _rows(data)
    pixels = [[r[x:x + 3] for x in range(0, w * bpp, bpp)] for r in rows]
    counts = Counter(p for row in pixels for p in row)
    if len(counts) > 256:  # the 256 commonest colours; every other one as the nearest of them
        keep = [c for c, _ in counts.most_common(256)]
        near = {c: c for c in keep}
        for c in counts:
            if c not in near:
                near[c] = min(keep, key=lambda k: (k[0] - c[0]) ** 2 + (k[1] - c[1]) ** 2 + (k[2] - c[2]) ** 2)
        pixels = [[near[p] for p in row] for row in pixels]
    colours = {p for row in pixels for p in row}
    palette = sorted(colours)
    index = {c: i for i, c in enumerate(palette)}
    raw = b"".join(b"\x00" + bytes(index[p] for p in row) for row in pixels)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0))
            + _chunk(b"PLTE", b"".join(palette)) + _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b""))
