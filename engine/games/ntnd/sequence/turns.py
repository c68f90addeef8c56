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
    Phase("c_recruit", "3.1.1", COMMUNIST, "Communist Recruitment", 1),
    Phase("c_hearts", "3.1.2", COMMUNIST, "Communist Hearts and Minds", 2,
          "Hearts and Minds (7) is part 2; the Tet scenario does not use it", "hearts_and_minds"),
    Phase("c_ops", "3.1.3", COMMUNIST, "Communist Operations", 1),
    Phase("c_move", "3.1.4", COMMUNIST, "Communist Movement and attack announcement", 1),
    Phase("a_reaction", "3.1.5", ALLIED, "Allied Reaction", 1,
          "airmobile reaction moves (8.8.1.1); defensive ground support (8.8.1.2, 11) is part 2"),
    Phase("c_combat", "3.1.6", COMMUNIST, "Communist Combat", 1),
    Phase("c_politics", "3.1.7", COMMUNIST, "Communist Politics", 1,
          "the scenario's military items of 22.4 only; Hearts and Minds points are part 2"),
    Phase("a_reinforce", "3.2.1", ALLIED, "Allied Reinforcements and Replacements", 1),
    Phase("a_hearts", "3.2.2", ALLIED, "Allied Hearts and Minds", 2,
          "Hearts and Minds (7) is part 2; the Tet scenario does not use it", "hearts_and_minds"),
    Phase("a_move", "3.2.3", ALLIED, "Allied Movement", 1,
          "helicopter transport assignment (11.1.4) is part 2"),
    Phase("c_reaction", "3.2.4", COMMUNIST, "Communist Reaction", 1),
    Phase("a_air", "3.2.5", ALLIED, "Air Operations", 2,
          "air operations (11) and anti-aircraft fire (12) are part 2", "air_war"),
    Phase("a_combat", "3.2.6", ALLIED, "Allied Combat", 1),
    Phase("a_politics", "3.2.7", ALLIED, "Allied Politics", 1,
          "the scenario's military items of 22.4 only; Hearts and Minds points are part 2"),
    Phase("a_random", "3.2.8", ALLIED, "Random Events", 2,
          "random events (21) are part 2; the Tet scenario does not use them", "random_events"),
)

INDEX = {p.id: i for i, p in enumerate(PHASES)}


def phase_of(s: dict) -> Phase:
    return PHASES[s["step"]]


def turn_label(turns: list[dict], n: int) -> str:
    t = turns[n - 1]
    return f"{t['months']} {t['year']}"
