"""`aar serve --log-format json` writes one JSON object per line; an internal
error's line carries the incident id its caller got, and no exception message (where a secret or
an opening could be); a URL's password is never logged."""
from __future__ import annotations

import io
import json
import logging
import os
import signal
import subprocess
import sys

from afteraction.service.logs import JsonFormatter

from .test_metrics import play_duel


def test_serve_with_json_logs_writes_one_object_per_line(tmp_path):
    p = subprocess.Popen([sys.executable, "-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0",
                          "--data-dir", str(tmp_path / "data"), "--log-format", "json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        target = None
        for line in p.stdout:
            if "listening on" in line:
                target = line.strip().rsplit(" ", 1)[1]
                break
        play_duel(target, b"logs")
    finally:
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=30)
    lines = [json.loads(line) for line in err.splitlines() if line.strip()]   # every line is one object
    assert lines and all({"ts", "level", "logger", "pid", "msg"} <= set(x) for x in lines)
    events = {x.get("event"): x for x in lines if x["logger"] == "afteraction.games"}
    assert events["created"]["ruleset"] == "duel" and events["ended"]["outcome"]
    assert any("shutting down" in x["msg"] for x in lines)


def test_an_internal_error_logs_its_incident_and_no_message():
    from afteraction.service.status import status_of

    buf = io.StringIO()
    h = logging.StreamHandler(buf)
    h.setFormatter(JsonFormatter())
    log = logging.getLogger("afteraction.service")
    log.addHandler(h)
    try:
        try:
            raise KeyError("the-hidden-opening-value")
        except KeyError as e:
            st = status_of(e, "SubmitCommand")
        from afteraction.service.store import StoreError

        st2 = status_of(StoreError("cannot reach postgresql://aar:hunter2@db:5432/aar"), "GetState")
    finally:
        log.removeHandler(h)
    a, b = [json.loads(line) for line in buf.getvalue().splitlines()]
    assert a["incident"] in st.details and a["rpc"] == "SubmitCommand" and a["level"] == "ERROR"
    assert a["exc_type"] == "KeyError" and a["trace"] and "the-hidden-opening-value" not in json.dumps(a)
    assert b["incident"] in st2.details and "hunter2" not in json.dumps(b) and "aar:***@db" in b["msg"]
