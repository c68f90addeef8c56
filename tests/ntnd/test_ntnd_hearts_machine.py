"""The decision machine's cross-ruleset properties (tests/engine/test_machine_properties.py: every
listed answer accepted, mutated answers accepted only where listed or rejected with a declared code
and nothing changed, replay, no sealed value in a view) on a short-campaign game, where the Hearts
and Minds kinds (hearts_phases.DECISIONS_HM: "hearts" of each seat, "corruption") are decided; the
engine test plays the default (Tet) scenario, which never reaches them."""
from __future__ import annotations

from afteraction.engine.local import LocalGame

# tests/engine's module as pytest imports it (tests/ is on sys.path: conftest.py), not as ``tests.engine``:
# an installed package named ``tests`` (the PyPI glicko2 of the league's cross-check ships one) would take that name
from engine import test_machine_properties as mp


def test_ntnd_7_hearts_and_minds_kinds_keep_the_machine_properties(monkeypatch):
    create = LocalGame.create.__func__

    def campaign(cls, game, *a, **kw):
        kw.setdefault("scenario", "campaign_short")
        return create(cls, game, *a, **kw)
    monkeypatch.setattr(LocalGame, "create", classmethod(campaign))
    # every Hearts and Minds decision is tried (its listed answers and mutants); the rest of the game
    # at EVERY's rate, as the engine test plays Tet (every decision of the game took 35 s of the suite)
    monkeypatch.setitem(mp.ALWAYS, "ntnd", frozenset({"hearts", "corruption"}))
    kinds: set = set()
    real_kind = mp._kind

    def spy(rs, d):
        kinds.add((d.seat, d.kind))
        return real_kind(rs, d)
    monkeypatch.setattr(mp, "_kind", spy)
    stats = mp.play_checked("ntnd", 1)
    assert stats["legal_tried"] and stats["rejected"]
    assert {("communist", "hearts"), ("allied", "hearts")} <= kinds


def test_ntnd_7_short_campaign_plays_to_the_end_with_the_tet_bot():
    """Not a rule test: the demo bot (bots.py, which knows nothing of rule 7) still finishes a short
    campaign with the Hearts and Minds phases and VC bases in force (it answers them from the legal
    commands)."""
    from afteraction.engine.games.ntnd.bots.military import tet_bot
    g = LocalGame.create("ntnd", seed=b"hearts-tet-bot", scenario="campaign_short")
    g.handshake()
    n = g.run_bots(tet_bot(1), max_commands=20000)
    assert g.referee.ended and n < 20000
    kinds = {e["t"] for r in g.records for e in (r.body.get("events") or []) if isinstance(e, dict)}
    assert "pp" in kinds   # 7.3.2 / 7.4.2 scored at the political phases
