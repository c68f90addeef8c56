"""No Trumpets No Drums' players: seeded bots for demos and tests (military.py tet_bot and campaign_bot,
political.py political_bot and ntnd_bot, air.py their air war). Only ``NtndRuleset.demo_bot`` imports
them, so a verifier never loads a bot (tests/engine/test_layers.py)."""
