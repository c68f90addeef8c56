"""A league server keeps a league version 1 ledger going (SPEC.md 15.1): one a server wrote before
version 2 (fixtures/league/v1, commit ac3f820), with the organiser's key kept beside it in
league_organisers as those servers did. The entries it appends are version 1, so the ledger still
verifies; the organiser's calls are checked against the kept key, and refused without one."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from afteraction.cli.league.verify import read_bundles
from afteraction.engine.crypto import canon
from afteraction.engine.errors import Rejection
from afteraction.engine.league.entries import Author, organiser_statement, parse_entry
from afteraction.engine.league.ledger import read_ledger, verify_ledger, write_ledger
from afteraction.engine.local import derive_bytes
from afteraction.service.league.manager import LeagueManager
from afteraction.service.stores import open_store
from conftest import REPO
from league.test_versions import KEY

V1 = REPO / "fixtures" / "league" / "v1"


class _Games:
    """The game server, asked here for its key (none of the ledger's games is its) and the time."""
    vkey = "games.other+00000000+AAAA"

    def __init__(self) -> None:
        self.on_append = lambda gid: None

    def now(self) -> int:
        return 0


def test_a_v1_league_is_appended_to_in_version_1(tmp_path):
    store = open_store(f"sqlite:{tmp_path / 'store.sqlite'}", str(tmp_path))
    m = LeagueManager(store, _Games(), KEY, export=lambda gid: None)
    league, vkey, items = read_ledger((V1 / "spring.aarl").read_bytes())
    bundles = read_bundles(str(V1 / "bundles"))
    for seq, (raw, note) in enumerate(items):
        e = parse_entry(raw)
        b = e.body["bundle"] if e.kind == "result" else None
        m.store.write(league, seq, raw, note, None if b is None else (b, bundles[b]))
    ann = Author(derive_bytes(b"v1-organiser", "ann"))   # a registration: a statement its author signed
    body = {"name": "ann", "key": ann.public}
    e = m.register(league, SimpleNamespace(by=ann.public, sig=ann.sign(league, "player", body), body=canon.encode(body)))
    assert (e.seq, e.v) == (len(items), 1)
    org = Author(derive_bytes(b"v1-organiser", "organiser"))
    size = len(items) + 1
    auth = SimpleNamespace(size=size, signature=org._key.sign(organiser_statement(league, "PublishStandings", size)))
    with pytest.raises(Rejection) as x:   # the ledger names no organiser, and none is kept
        m.publish(league, auth)
    assert x.value.code == "ORGANISER_AUTH" and "league version 1" in str(x.value)
    m.store._transaction(league, [("INSERT INTO league_organisers (league_id, organiser) VALUES (?,?)",
                                   (league, org.public))])
    e = m.publish(league, auth)
    assert (e.seq, e.v, e.kind) == (size, 1, "standings")
    rep = verify_ledger(write_ledger(league, vkey, m.store.entries(league)), m.store.bundles(league), vkey)
    assert (rep.entries, rep.state.version, rep.as_dict()["organiser"]) == (size + 1, 1, None)
