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
from ..protocol import MAX_RECORD

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


# Bounds of the reader (SPEC.md 9). A frame is a small map; only a record's bytes are large.
MAX_RAW = MAX_RECORD            # bytes of one frame's `raw` (and of any bytes in a frame)
MAX_TEXT = 64 * 1024            # UTF-8 bytes of one text in a frame (a checkpoint note, a vkey)
MAX_ENTRIES = 16                # entries of a map (and elements of an array) in a frame
MAX_FRAME = 2 * 1024 * 1024     # bytes of one frame
_CHUNK = 64 * 1024


def read_bundle(f: BinaryIO) -> tuple[dict, Iterator[tuple[bytes, str]]]:
    """Return (header, iterator over (record bytes, checkpoint text)). Raises EncodingError.

    As strict as SPEC.md 9: the header's fields have exactly their types (``records`` an int,
    not a bool; a present ``secret`` 32 bytes), every later frame is a record frame, and the
    file ends at the end of a frame: bytes left over after the last complete frame (a frame
    cut off, or garbage) raise EncodingError from the iterator, after the complete frames."""
    if f.read(len(MAGIC)) != MAGIC:
        raise EncodingError("not an afteraction bundle (bad magic)")
    unpacker = msgpack.Unpacker(raw=False, use_list=True, strict_map_key=True,
                                max_buffer_size=MAX_FRAME + _CHUNK, max_bin_len=MAX_RAW,
                                max_str_len=MAX_TEXT, max_array_len=MAX_ENTRIES,
                                max_map_len=MAX_ENTRIES, max_ext_len=0)
    fed = 0

    def frames() -> Iterator[object]:
        nonlocal fed
        try:
            while True:
                for frame in unpacker:
                    if unpacker.tell() - start[0] > MAX_FRAME:
                        raise EncodingError(f"a frame of more than {MAX_FRAME} bytes")
                    start[0] = unpacker.tell()
                    yield frame
                chunk = f.read(_CHUNK)
                if not chunk:
                    break
                unpacker.feed(chunk)
                fed += len(chunk)
        except EncodingError:
            raise
        except Exception as e:  # msgpack's errors (BufferFull, ExtraData, ValueError...), OSError
            raise EncodingError(f"corrupt bundle frame: {type(e).__name__}: {e}") from None
        if unpacker.tell() != fed:
            raise EncodingError(f"the bundle ends inside a frame ({fed - unpacker.tell()} bytes "
                                "after the last complete frame)")

    start = [0]
    it = frames()
    header = next(it, None)
    if type(header) is not dict or header.get("t") != "header":
        raise EncodingError("bundle does not start with a header frame")
    if type(header.get("game")) is not str or type(header.get("server_vkey")) is not str \
            or type(header.get("records")) is not int or header["records"] < 0:
        raise EncodingError("bundle header has the wrong shape (text game, text server_vkey, integer records >= 0)")
    if "secret" in header and (type(header["secret"]) is not bytes or len(header["secret"]) != 32):
        raise EncodingError("bundle header secret is not 32 bytes")

    def records() -> Iterator[tuple[bytes, str]]:
        for fr in it:
            if type(fr) is not dict or fr.get("t") != "record" or set(fr) != {"t", "raw", "checkpoint"} \
                    or type(fr["raw"]) is not bytes or type(fr["checkpoint"]) is not str:
                raise EncodingError("bundle frame is not a record frame")
            yield fr["raw"], fr["checkpoint"]

    return header, records()
