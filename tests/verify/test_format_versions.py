"""The newest log format is one constant (engine/protocol.py FORMAT_VERSION)
that the service, the reference client, the verifier's report and the browser seat all follow, and
the report says what a log of an older format does not guarantee (SPEC.md 11). A later format
(a format 3) needs its line in VERSION_ADDS and the browser's constant, or these fail."""
from __future__ import annotations

import io
import pathlib
import re

from afteraction.engine.log.verify import older_format_notes, verify_bundle
from afteraction.engine.protocol import FORMAT_VERSION, VERSION_ADDS, VERSIONS

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_every_version_after_the_first_says_what_it_adds_up_to_the_newest():
    assert VERSIONS == tuple(range(1, FORMAT_VERSION + 1))
    assert sorted(VERSION_ADDS) == list(range(2, FORMAT_VERSION + 1))
    assert all(VERSION_ADDS[v] and all(isinstance(g, str) and g for g in VERSION_ADDS[v]) for v in VERSION_ADDS)
    assert older_format_notes(FORMAT_VERSION) == []
    assert len(older_format_notes(1)) == sum(len(g) for g in VERSION_ADDS.values())


def test_the_browser_seat_follows_the_same_newest_format():
    ts = (ROOT / "clients" / "web" / "src" / "lib" / "record.ts").read_text()
    m = re.search(r"export const FORMAT_VERSION = (\d+);", ts)
    assert m and int(m.group(1)) == FORMAT_VERSION, "clients/web/src/lib/record.ts FORMAT_VERSION differs"
    assert "FORMAT_VERSION" in (ROOT / "clients" / "web" / "src" / "lib" / "seat.ts").read_text()


def test_the_report_names_the_format_and_what_an_older_one_lacks():
    v1 = verify_bundle(io.BytesIO((ROOT / "fixtures" / "logs" / "duel-complete.aar").read_bytes()))
    assert v1.format == 1 and v1.verified
    lacks = [n for n in v1.notes if "what v2 added" in n]
    assert len(lacks) == len(VERSION_ADDS[2]) and any("prev" in n and "re-roll" in n for n in lacks)
    assert all(f"older than v{FORMAT_VERSION} (the newest)" in n for n in lacks)
    v2 = verify_bundle(io.BytesIO((ROOT / "fixtures" / "logs" / "evidence" / "fork-a.aar").read_bytes()))
    assert v2.format == 2 and len([n for n in v2.notes if "older than" in n]) == len(VERSION_ADDS[3])
    v3 = verify_bundle(io.BytesIO((ROOT / "fixtures" / "logs" / "tampered" / "v3-answer-past-offer.aar").read_bytes()))
    assert v3.format == FORMAT_VERSION == 3 and not any("older than" in n for n in v3.notes)
