"""The decision machine's cross-ruleset properties (tests/engine/test_machine_properties.py: every
listed answer accepted, mutated answers accepted only where listed or rejected with a declared code
and nothing changed, replay, no sealed value in a view) on a short-campaign game, where the Hearts
and Minds kinds (hearts_phases.DECISIONS_HM: "hearts" of each seat, "corruption") are decided; the
engine test plays the default (Tet) scenario, which never reaches them."""
from __future__ import annotations

from afteraction.engine.local import LocalGame

from tests.engine import test_machine_properties as mp


def test_ntnd_7_hearts_and_minds_kinds_keep_the_machine_properties(monkeypatch):
    create = LocalGame.create.__func__

    def campaign(cls, game, *a, **kw):
        kw.setdefault("scenario", "campaign_short")
        return create(cls, game, *a, **kw)
    monkeypatch.setattr(LocalGame, "create", classmethod(campaign))
    monkeypatch.setitem(mp.EVERY, "ntnd", 1)
    kinds: set = set()
    real_kind = mp._kind

    def spy(rs, d):
        kinds.add((d.seat, d.kind))
        return real_kind(rs, d)
    monkeypatch.setattr(mp, "_kind", spy)
    stats = mp.play_checked("ntnd", 1)
    assert stats["legal_tried"] and stats["rejected"]
    assert {("communist", "hearts"), ("allied", "hearts")} <= kinds
