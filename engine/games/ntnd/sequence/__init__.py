"""No Trumpets No Drums 3 (Turn Sequence): the phases as data (turns.py), the automatic steps between
decisions (flow.py), the decision table (answers.py: every decision kind, its rule and its answers) and
the commands and kinds other modules declare (kinds.py)."""
