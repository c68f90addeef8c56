"""No Trumpets No Drums: the ruleset (the engine's loop over rule 3's sequence).

``setup`` builds the scenario (setup.py, data/scenario_*.json); every command is one answer to the
pending decision, validated, dispatched and listed by the engine's machine through the decision
table (decisions.py: each kind once, with its rule, answers, apply functions and legal enumerator);
after each answer the engine's loop (engine/phases.py) runs the phases as phases.py declares them
until a player must decide, and stores that decision in the state so ``pending`` is a pure read
(its public part: views.decision_data). The one copy of the state is the engine's
(engine/snapshot.py). See docs/rules/ntnd.md.
"""
from __future__ import annotations

from ...ruleset import Context, Ruleset
from ...versions import stamp
from .versions import MIX_NAMES, VERSIONS
from .forces import operations
from .components import scenarios as _setup
from .sequence.answers import cmd, move_options
from .decisions import DECISIONS
from .phases import FLOW
from .components.state import SEATS
from .presentation import views


class NtndRuleset(Ruleset):
    game = "ntnd"
    versions = VERSIONS  # versions.py: every version, the development ones and each change of play
    seats = SEATS
    scenarios = _setup.SCENARIOS
    options: dict = {}
    # SPEC.md 6.5, docs/rules/ntnd.md "Padded sizes": a marker identity pads to 6144 bytes, which holds a
    # marker of every invertible Communist counter of the largest set-up (zones stack without limit,
    # 8.10.1.3; the campaign's, 6060 bytes); a Communist command to 1856, which holds a list naming every
    # Communist unit of that set-up (1748 bytes) with room for the envelope to grow (ntnd/4; 5888 and
    # 1728 under ntnd/3 fitted Tet but not the campaign). tests/engine/test_sealed_lengths.py and
    # tests/ntnd/test_ntnd_scenarios_data.py derive both bounds from the data of every scenario.
    sealed_sizes = {"command": {"communist": 1856}, "event": {"communist": 6144}}
    # ntnd/5 (versions.MIX_NAMES): a counter is renamed when it leaves the mix, so every
    # Communist unit may carry a generic name (the set-up's short historical ids do not last): a
    # command naming all 109 with the longest hidden ids (``nva-division-m99999-9``) is 2625 bytes
    # (+64 and more for the envelope); a marker of all 98 invertible ones with those ids and the
    # longest public names (``NVA infantry division 9999``) 7192, and 7680 keeps the set-up's record (32
    # padded identities in Tet) under the service's 256 KiB (docs/rules/ntnd.md "Padded sizes";
    # tests/ntnd/test_ntnd_later_draws.py derives both from the data)
    MIX_NAMES_SEALED_SIZES = {"command": {"communist": 2752}, "event": {"communist": 7680}}
    decisions = DECISIONS
    flow = FLOW

    def __init__(self, version: str | None = None) -> None:
        super().__init__(version)
        if MIX_NAMES.in_version(self.version):
            self.sealed_sizes = self.MIX_NAMES_SEALED_SIZES

    def setup(self, scenario, options, ctx: Context):
        s = stamp(_setup.initial_state(scenario, ctx), self.version)
        if MIX_NAMES.on(s):
            operations.sort_units(s)   # ntnd/5: the units in id order from the start (operations._rename)
        FLOW.enter(s, ctx)
        FLOW.advance(s, ctx)
        return s

    def scenario_info(self, scenario):
        """From the scenario's data (setup.load_scenario): its name, turn count and description."""
        sc = _setup.load_scenario(scenario)
        return {"title": sc["name"], "turns": len(sc["turns"]), "description": sc.get("description", "")}

    def demo_bot(self, seed, view_of):
        """The Tet heuristic bot (attacks, ambushes and hides) in Tet, the campaign bot in the campaign
        (bots_political.py ``ntnd_bot``; imported here, so a verifier never loads the bots)."""
        from .bots.political import ntnd_bot
        return ntnd_bot(seed, view_of)

    def outcome(self, s):
        return s.get("outcome")

    def view(self, s, seat):
        return views.build_view(s, seat)


__all__ = ["NtndRuleset", "cmd", "move_options"]
