"""The export bundle (``.aar`` file), SPEC.md section 9.

    magic  "aar-bundle-v1\\n" (14 bytes)
    frame  canonical msgpack map {"t": "header", "game": str, "server_vkey": str,
                                  "records": int, "secret": bytes (only once the game ended)}
    frame  {"t": "record", "raw": record bytes, "checkpoint": signed note text}   (one per record, in order)

Frames follow each other with no separator (msgpack is self-delimiting), so a
reader streams the file and needs memory bounded by one record plus the
verifier's O(log n) tree state.
"""
from __future__ import annotations

from typing import BinaryIO, Iterable, Iterator

import msgpack

from ..crypto import canon
from ..errors import EncodingError

MAGIC = b"aar-bundle-v1\n"


def write_bundle(out: BinaryIO, game: str, server_vkey: str,
                 items: Iterable[tuple[bytes, str]], count: int, secret: bytes | None) -> None:
    """Write a bundle: ``items`` yields (record bytes, checkpoint note) in order."""
    header = {"t": "header", "game": game, "server_vkey": server_vkey, "records": count}
    if secret is not None:
        header["secret"] = secret
    out.write(MAGIC)
    out.write(canon.encode(header))
    for raw, cp in items:
        out.write(canon.encode({"t": "record", "raw": raw, "checkpoint": cp}))


def read_bundle(f: BinaryIO) -> tuple[dict, Iterator[tuple[bytes, str]]]:
    """Return (header, iterator over (record bytes, checkpoint text)). Raises EncodingError."""
    if f.read(len(MAGIC)) != MAGIC:
        raise EncodingError("not an afteraction bundle (bad magic)")
    unpacker = msgpack.Unpacker(f, raw=False, use_list=True, strict_map_key=True,
                                max_buffer_size=64 * 1024 * 1024)

    def frames() -> Iterator[dict]:
        try:
            for frame in unpacker:
                yield frame
        except Exception as e:
            raise EncodingError(f"corrupt bundle frame: {e}") from None

    it = frames()
    header = next(it, None)
    if not isinstance(header, dict) or header.get("t") != "header":
        raise EncodingError("bundle does not start with a header frame")
    if not isinstance(header.get("game"), str) or not isinstance(header.get("server_vkey"), str) \
            or not isinstance(header.get("records"), int):
        raise EncodingError("bundle header has the wrong shape")

    def records() -> Iterator[tuple[bytes, str]]:
        for fr in it:
            if not isinstance(fr, dict) or fr.get("t") != "record" or set(fr) != {"t", "raw", "checkpoint"} \
                    or not isinstance(fr["raw"], bytes) or not isinstance(fr["checkpoint"], str):
                raise EncodingError("bundle frame is not a record frame")
            yield fr["raw"], fr["checkpoint"]

    return header, records()
