"""No Trumpets No Drums rule 3: the turn sequence, as data.

Each turn is a Communist player turn of seven phases (3.1.1-3.1.7) and an Allied
player turn of eight (3.2.1-3.2.8). Phases whose rules belong to part 2 of the
implementation (Hearts and Minds 7, air operations 11-12, random events 21, the
political track beyond the scenario's military scoring) are present as steps
that do nothing yet and say so in a public event.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..components.state import ALLIED, COMMUNIST


#: the phase ids, each spelled here once: the rule modules and phases.py name a phase by its constant
#: (a misspelt name fails at import; a misspelt string would only never match);
#: tests/ntnd/test_ntnd_phase_ids.py holds every other NTND module to that
C_RECRUIT = "c_recruit"
C_HEARTS = "c_hearts"
C_OPS = "c_ops"
C_MOVE = "c_move"
A_REACTION = "a_reaction"
C_COMBAT = "c_combat"
C_POLITICS = "c_politics"
A_REINFORCE = "a_reinforce"
A_HEARTS = "a_hearts"
A_MOVE = "a_move"
C_REACTION = "c_reaction"
A_AIR = "a_air"
A_COMBAT = "a_combat"
A_POLITICS = "a_politics"
A_RANDOM = "a_random"


@dataclass(frozen=True)
class Phase:
    id: str
    rule: str
    player: str        # the phasing player
    title: str
    part: int          # 1: refereed in every scenario; 2: only where ``feature`` is in force
    note: str = ""
    feature: str = ""  # features.FEATURES: the rule family that makes a part-2 phase play (else skipped)


PHASES: tuple[Phase, ...] = (
    Phase(C_RECRUIT, "3.1.1", COMMUNIST, "Communist Recruitment", 1),
    Phase(C_HEARTS, "3.1.2", COMMUNIST, "Communist Hearts and Minds", 2,
          "Hearts and Minds (7) is part 2; the Tet scenario does not use it", "hearts_and_minds"),
    Phase(C_OPS, "3.1.3", COMMUNIST, "Communist Operations", 1),
    Phase(C_MOVE, "3.1.4", COMMUNIST, "Communist Movement and attack announcement", 1),
    Phase(A_REACTION, "3.1.5", ALLIED, "Allied Reaction", 1,
          "airmobile reaction moves (8.8.1.1); defensive ground support (8.8.1.2, 11) is part 2"),
    Phase(C_COMBAT, "3.1.6", COMMUNIST, "Communist Combat", 1),
    Phase(C_POLITICS, "3.1.7", COMMUNIST, "Communist Politics", 1,
          "the scenario's military items of 22.4 only; Hearts and Minds points are part 2"),
    Phase(A_REINFORCE, "3.2.1", ALLIED, "Allied Reinforcements and Replacements", 1),
    Phase(A_HEARTS, "3.2.2", ALLIED, "Allied Hearts and Minds", 2,
          "Hearts and Minds (7) is part 2; the Tet scenario does not use it", "hearts_and_minds"),
    Phase(A_MOVE, "3.2.3", ALLIED, "Allied Movement", 1,
          "helicopter transport assignment (11.1.4) is part 2"),
    Phase(C_REACTION, "3.2.4", COMMUNIST, "Communist Reaction", 1),
    Phase(A_AIR, "3.2.5", ALLIED, "Air Operations", 2,
          "air operations (11) and anti-aircraft fire (12) are part 2", "air_war"),
    Phase(A_COMBAT, "3.2.6", ALLIED, "Allied Combat", 1),
    Phase(A_POLITICS, "3.2.7", ALLIED, "Allied Politics", 1,
          "the scenario's military items of 22.4 only; Hearts and Minds points are part 2"),
    Phase(A_RANDOM, "3.2.8", ALLIED, "Random Events", 2,
          "random events (21) are part 2; the Tet scenario does not use them", "random_events"),
)

INDEX = {p.id: i for i, p in enumerate(PHASES)}
BY_ID = {p.id: p for p in PHASES}

#: the groups of phases a rule names: the two movement phases with the player who moves (10.2.2,
#: 10.8 at their end), the two combat phases (10.6 at their end, 19.3.8), the two political ones
#: (22.4: sudden death judged at their end)
MOVEMENT = {C_MOVE: COMMUNIST, A_MOVE: ALLIED}
COMBAT = (C_COMBAT, A_COMBAT)
POLITICS = (C_POLITICS, A_POLITICS)


def phase_id(s: dict) -> str | None:
    """The id of the phase being played; None before the first (a scenario starts with an empty phase)."""
    return s["phase"].get("id")


def phase_of(s: dict) -> Phase:
    return PHASES[s["step"]]


def turn_label(turns: list[dict], n: int) -> str:
    t = turns[n - 1]
    return f"{t['months']} {t['year']}"
