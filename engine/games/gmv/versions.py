"""GMV's versions (engine/versions.py; docs/rules/gmv.md "Ruleset versions"): gmv/2 is the first
stable one; gmv/1 was a development version. A change of play is declared here as a ``Change`` and
asked by the rule it changes."""
from ...versions import Change, Versions

#: "Units" table, note *: "Only 1 move in swamp or allowable jungle zones. 2 moves in F0 zones": a tank or
#: APC that starts its move in a swamp or jungle zone moves in it, so it gets one move (gmv/2 counted
#: only the zones it passed through, so a tank starting in a swamp could make two moves)
SWAMP_START = Change("gmv", "Units *", since="3",
                     what="an American tank or APC that starts in a swamp or jungle (F1+) zone gets one move, "
                          "not two (gmv/2: only the zones it passed through counted)")

#: hidden information (docs/rules/gmv.md "What the opponent can see"): a hidden unit's id was public when it
#: infiltrated; gmv/2-3 kept it when the unit left the hidden board into a zone (an attack, infantry
#: entering a battle as support), so the reveal told which of the infiltrated units it was, hence which
#: of them made the earlier hidden moves. From gmv/4 such a unit takes the next free id there
#: (board.reveal_entering), and the ``support`` event names the units by the ids they have after it.
FRESH_IDS = Change("gmv", "3. Infiltration", since="4",
                   what="a hidden unit leaving the hidden board into a zone (an attack, infantry called as "
                        "support) takes the next free unit id, so its reveal does not tell which infiltrated "
                        "unit it is (gmv/2-3: it kept the id it infiltrated with)")

#: Hidden units of one type in one zone are alike, so which of them the NVA names (to attack, to
#: support, to reveal to a patrol, to fire at a hot LZ, to lose to blind bombing) is no fact. gmv/2-3 took
#: the one named, so its id (in the ``revealed``/``destroyed`` events or an opened commitment), or the id
#: of the one left hidden when it is revealed later, told the NVA's hidden choice. From gmv/4 the first of
#: the alike units in id order is taken (board.alike_first).
ALIKE_CHOICE = Change("gmv", "3. Infiltration", since="4",
                      what="the NVA's choice among alike hidden units (one type, one zone) is no fact: the "
                           "first of them in id order is taken, whichever was named (gmv/2-3: the one named)")

#: A hidden unit revealed where it stands (a patrol, hot LZ fire, supporting artillery, a loss to blind
#: bombing or AA) is a unit of its type in its zone, not one infiltrated unit rather than another. gmv/2-4
#: opened its commitment, whose value names its hidden id (and a commitment's place in its record is its
#: rank in id order), kept that id in the ``revealed`` event, revealed several units in id order and
#: showed the ``acted`` flag of its last NVA turn: each told which infiltrated unit stood there, or that
#: it made the last hidden move. From gmv/5 such a reveal takes the next free id and keeps the commitment
#: for the end of the game as an attack does (board.reveal_entering), several are revealed in an order
#: by public facts (board.public_order), and a unit revealed in the American turn shows it has not acted.
KEPT_REVEALS = Change("gmv", "3. Infiltration", since="5",
                      what="a hidden unit revealed where it stands (patrol, hot LZ, supporting artillery, "
                           "blind bombing) takes the next free id, its commitment is opened only at the end, "
                           "several are revealed in type order, and one revealed in the American turn shows "
                           "no acted flag of its last NVA turn (gmv/2-4: its commitment opened at once, its "
                           "id kept, id order, the flag shown)")

VERSIONS = Versions("gmv", first_stable="2", development={"1": "947a2124d9a1"},
                    changes=(SWAMP_START, FRESH_IDS, ALIKE_CHOICE, KEPT_REVEALS))
