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
MAX_DEPTH = canon.MAX_DEPTH     # arrays/maps nested in a frame, the frame itself at depth 1 (SPEC.md 1.1 rule 6)
_CHUNK = 64 * 1024


def _frame_map(pairs: list) -> dict:
    """A map of a frame (SPEC.md 9): text keys, each once (1.1 rule 3, in any order). A bytes or
    integer key, or a key twice (which value would count?), is not a frame's."""
    d = {}
    for k, v in pairs:
        if type(k) is not str:
            raise EncodingError(f"a frame's map has a key that is not text ({type(k).__name__})")
        if k in d:
            raise EncodingError(f"a frame's map has the key {k!r} twice")
        d[k] = v
    return d


def _frame_depth_problem(frame: object) -> str | None:
    """Why a decoded frame nests deeper than MAX_DEPTH arrays/maps (the frame is at depth 1), or
    None; iterative, so the walk itself never recurses."""
    todo = [(frame, 1)]
    while todo:
        v, depth = todo.pop()
        if type(v) is dict or type(v) is list:
            if depth > MAX_DEPTH:
                return f"a frame nests arrays/maps deeper than {MAX_DEPTH} (SPEC.md 1.1 rule 6, 9)"
            todo.extend((x, depth + 1) for x in (v.values() if type(v) is dict else v))
    return None


def read_bundle(f: BinaryIO) -> tuple[dict, Iterator[tuple[bytes, str]]]:
    """Return (header, iterator over (record bytes, checkpoint text)). Raises EncodingError.

    As strict as SPEC.md 9: the header's fields have exactly their types (``records`` an int,
    not a bool; a present ``secret`` 32 bytes), every later frame is a record frame, every map of
    a frame has text keys, each once, nothing nests deeper than MAX_DEPTH, and the
    file ends at the end of a frame: bytes left over after the last complete frame (a frame
    cut off, or garbage) raise EncodingError from the iterator, after the complete frames."""
    if f.read(len(MAGIC)) != MAGIC:
        raise EncodingError("not an afteraction bundle (bad magic)")
    it = _frames(f, msgpack.Unpacker(raw=False, use_list=True, strict_map_key=False, object_pairs_hook=_frame_map,
                                     max_buffer_size=MAX_FRAME + _CHUNK, max_bin_len=MAX_RAW,
                                     max_str_len=MAX_TEXT, max_array_len=MAX_ENTRIES,
                                     max_map_len=MAX_ENTRIES, max_ext_len=0))
    header = next(it, None)
    _check_header(header)
    return header, _records(it)


def _frames(f: BinaryIO, unpacker) -> Iterator[object]:
    """The file's frames after the magic, each within MAX_FRAME bytes and MAX_DEPTH levels; at the
    end, EncodingError if bytes are left after the last complete frame."""
    fed = 0
    start = 0   # where the last complete frame ends
    try:
        while True:
            for frame in unpacker:
                if unpacker.tell() - start > MAX_FRAME:
                    raise EncodingError(f"a frame of more than {MAX_FRAME} bytes")
                why = _frame_depth_problem(frame)
                if why is not None:
                    raise EncodingError(why)
                start = unpacker.tell()
                yield frame
            chunk = f.read(_CHUNK)
            if not chunk:
                break
            unpacker.feed(chunk)
            fed += len(chunk)
    except EncodingError:
        raise
    except msgpack.StackError:  # msgpack's own limit (about 1000 levels), far past MAX_DEPTH
        raise EncodingError(f"a frame nests arrays/maps deeper than {MAX_DEPTH} (SPEC.md 1.1 rule 6, 9)") from None
    except Exception as e:  # msgpack's errors (BufferFull, ExtraData, ValueError...), OSError
        raise EncodingError(f"corrupt bundle frame: {type(e).__name__}: {e}") from None
    # the end of the last complete frame, not unpacker.tell(): after a container left open (a
    # tail such as 83 a1 74, or 91) tell() counts the elements it finished inside it
    if start != fed:
        raise EncodingError(f"the bundle ends inside a frame ({fed - start} bytes "
                            "after the last complete frame)")


def _check_header(header: object) -> None:
    """The first frame is the header, its fields of exactly their types (SPEC.md 9)."""
    if type(header) is not dict or header.get("t") != "header":
        raise EncodingError("bundle does not start with a header frame")
    if type(header.get("game")) is not str or type(header.get("server_vkey")) is not str \
            or type(header.get("records")) is not int or header["records"] < 0:
        raise EncodingError("bundle header has the wrong shape (text game, text server_vkey, integer records >= 0)")
    if "secret" in header and (type(header["secret"]) is not bytes or len(header["secret"]) != 32):
        raise EncodingError("bundle header secret is not 32 bytes")


def _records(it: Iterator[object]) -> Iterator[tuple[bytes, str]]:
    """(record bytes, checkpoint text) of every later frame, each a record frame."""
    for fr in it:
        if type(fr) is not dict or fr.get("t") != "record" or set(fr) != {"t", "raw", "checkpoint"} \
                or type(fr["raw"]) is not bytes or type(fr["checkpoint"]) is not str:
            raise EncodingError("bundle frame is not a record frame")
        yield fr["raw"], fr["checkpoint"]
