"""The server's logs as one JSON object per line (``aar serve --log-format json``; docs/operations.md).

Every line: ``ts`` (UTC, ISO 8601, milliseconds), ``level``, ``logger``, ``pid``, ``msg``; a game
event (service/events.py) adds ``event`` and its fields; an internal error (service/status.py) adds
``incident`` (the id its caller got in the ErrorInfo) and ``rpc``, and for an unexpected exception
``exc_type`` and ``trace`` (file, line and function of each frame: no exception message, no local
value, so no secret and no opening reaches the log). A URL's password in a message is ``***``.
"""
from __future__ import annotations

import json
import logging
import os
import re
import sys
import time
import traceback

_URL_PASSWORD = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://[^:/@\s]*:)[^@\s]*@")
EXTRA_KEYS = ("event", "incident", "rpc")


def redact_urls(text: str) -> str:
    """Any URL's password in a message replaced by *** (a database driver's error may quote its DSN)."""
    return _URL_PASSWORD.sub(r"\1***@", text)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        t = record.created
        out = {"ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t % 1 * 1000):03d}Z",
               "level": record.levelname, "logger": record.name, "pid": os.getpid(),
               "msg": redact_urls(record.getMessage())}
        for k in EXTRA_KEYS:
            v = getattr(record, k, None)
            if v is not None:
                out[k] = v
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            for k, v in fields.items():
                out.setdefault(k, v)
        if record.exc_info and record.exc_info[0] is not None:
            out["exc_type"] = record.exc_info[0].__name__
            out["trace"] = [f"{os.path.basename(f.filename)}:{f.lineno} in {f.name}"
                            for f in traceback.extract_tb(record.exc_info[2])]
        return json.dumps(out, sort_keys=True, default=str, ensure_ascii=True)


def configure(fmt: str, prefix: str = "") -> None:
    """The process's log lines on standard error: ``text`` (the plain lines, as ``logging.basicConfig``
    makes them: nothing changes when the process has a handler already) or ``json``."""
    if fmt != "json":
        logging.basicConfig(level=logging.INFO, format=f"%(asctime)s %(name)s{prefix} %(message)s")
        return
    root = logging.getLogger()
    if not any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        root.addHandler(handler)
    root.setLevel(logging.INFO)
