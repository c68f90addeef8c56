"""League ledgers (SPEC.md 15, docs/league.md): an append-only, signed log of league entries on the
machinery of a game log, and the standings, ratings and pairings that are pure functions of it and
of the games' bundles. Pure: no I/O, no clock (time comes from the entries), no floats."""
