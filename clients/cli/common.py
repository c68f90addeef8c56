"""What several subcommands share, below all of them (main.py registers them; none imports main):
one-line escaping of a bundle's strings, JSON of bytes, the default data directory."""
from __future__ import annotations

import os


def default_data_dir() -> str:
    """The fixed default data directory, the same wherever `aar serve` is started from:
    $AAR_DATA_DIR, else $XDG_DATA_HOME/afteraction, else ~/.local/share/afteraction."""
    if os.environ.get("AAR_DATA_DIR"):
        return os.environ["AAR_DATA_DIR"]
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "afteraction")


def _one_line(s: str) -> str:
    """A bundle's own strings (a seat name, an origin) may hold newlines or terminal escapes:
    shown escaped, so the failure stays one line and cannot rewrite the terminal."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in s)


def _jsonable(v):
    if isinstance(v, bytes):
        return v.hex()
    raise TypeError(type(v).__name__)


def read_checkpoint(path: str) -> tuple[str | None, str | None]:
    """A kept checkpoint note (``--checkpoint PATH``): (its text, None), or (None, why it cannot be
    one: unreadable, or longer than a checkpoint note in a bundle frame may be)."""
    from afteraction.engine.log.bundle import MAX_TEXT

    try:
        with open(path, encoding="utf-8") as cf:
            kept = cf.read(MAX_TEXT + 1)
    except (OSError, UnicodeDecodeError) as e:
        return None, f"--checkpoint: cannot read {path}: {getattr(e, 'strerror', None) or e}"
    if len(kept) > MAX_TEXT:
        return None, f"--checkpoint: {path} is longer than a checkpoint note ({MAX_TEXT} characters at most)"
    return kept, None

