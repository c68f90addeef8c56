"""No Trumpets No Drums' decision table (engine/decisions.py): every decision kind the phases ask
(phases.py), collected from the rule modules that declare them, each kind once with its rule, the
``NtndCommand`` actions that answer it and the rule function each applies, its legal-answer
enumerator and which answers are sealed (every Communist one: kinds.py). docs/rules/ntnd.md
"Decisions" lists them.

    answers.KINDS                recruitment 4.1, operations 6, movement 8, 3.1.4 announcements,
                                 reactions 8.8, reinforcements 4.2, 20.2 ambush, 8.6.3, 8.8.2.2,
                                 20.5, a battle's aftermath 18.6.2, 19.2.6, 19.3, 19.4
    random_events.DECISIONS_RE   21 (a random event's choice)
    uprising.DECISIONS_UP        26.1
    neutrality.DECISIONS_NEUTRAL 10.5.2 (coups)
    aid.DECISIONS_AID            27.2-27.4
    hearts_phases.DECISIONS_HM   7.2, 7.4 (Hearts and Minds, corruption)
    replacements.DECISIONS_ALLIED 24, 4.5.2, 23.3 (the Allied policy)
    fleet.DECISIONS_FLEET        14.2.2 (mining)
    air_answers.DECISIONS_AIR    11, 12 (air missions, anti-aircraft fire, air losses)
"""
from __future__ import annotations

from ...decisions import DecisionTable
from .politics import aid, hearts_phases, random_events, uprising
from .air import answers as air_answers
from .sequence import answers
from .arms import fleet
from .movement import neutrality
from .forces import replacements

DECISIONS = DecisionTable("ntnd", "No Trumpets No Drums (NTND)", [
    *answers.KINDS,
    *random_events.DECISIONS_RE,
    *uprising.DECISIONS_UP,
    *neutrality.DECISIONS_NEUTRAL, *aid.DECISIONS_AID,
    *hearts_phases.DECISIONS_HM,
    *replacements.DECISIONS_ALLIED,
    *fleet.DECISIONS_FLEET,
    *air_answers.DECISIONS_AIR,
])
