"""Writes docs/views/<game>.schema.json: the schema of a game's view inferred from
seeded random-bot games (every seat and a spectator; the top level strict, nested objects as
seen), with a description of each top-level key. tests/web/test_view_schemas.py checks the
committed schemas against the views of other seeded games.

    .venv/bin/python clients/web/tools/view_schema.py sog|gmv|ntnd
"""
import json
import re
import sys

from afteraction.engine.bots import random_bot
from afteraction.engine.local import LocalGame

RUNS = {"sog": (["mission"], 500, 10), "gmv": (["1965"], 500, 6), "ntnd": (["tet", "campaign_short"], 400, 2)}

IDENT = re.compile(r"^[a-z_][a-z0-9_]*$")
TYPES = {bool: "boolean", int: "integer", float: "number", str: "string", type(None): "null"}

def collect(game, scens, n, seeds):
    views = []
    for scen in scens:
        for seed in seeds:
            g = LocalGame.create(game, scenario=scen, seed=seed, **({"options": {"turns": 2}} if game == "gmv" else {}))
            g.handshake()
            rs, bot = g.referee.ruleset, random_bot(int.from_bytes(seed[:2], "big"))
            for i in range(n):
                d = rs.pending(g.referee.state)
                if i % 3 == 0 or d is None:
                    for seat in (None,) + tuple(rs.seats):
                        views.append(json.loads(json.dumps(rs.view(g.referee.state, seat))))
                if d is None: break
                g.play(d.seat, bot(d.seat, list(rs.legal_commands(g.referee.state, d.seat))))
    return views

def merge(samples, depth):
    types = set()
    objs, arrs = [], []
    for s in samples:
        if isinstance(s, dict): types.add("object"); objs.append(s)
        elif isinstance(s, list): types.add("array"); arrs.append(s)
        else: types.add(TYPES[type(s)])
    if "integer" in types and "number" in types: types.discard("integer")
    out = {"type": sorted(types)[0] if len(types) == 1 else sorted(types)}
    if depth >= 4:
        return out
    if objs:
        keys = set().union(*[o.keys() for o in objs])
        if depth > 0 and (len(keys) > 12) or any(not IDENT.match(k) for k in keys):
            out["additionalProperties"] = merge([v for o in objs for v in o.values()], depth + 1)
        else:
            out["properties"] = {k: merge([o[k] for o in objs if k in o], depth + 1) for k in sorted(keys)}
    if arrs:
        items = [x for a in arrs for x in a]
        if items:
            out["items"] = merge(items, depth + 1)
    return out

def infer(game, scens, n, seeds):
    views = collect(game, scens, n, [b"schema-%d" % i for i in range(seeds)])
    top = merge(views, 0)
    top["required"] = sorted(k for k in top["properties"] if all(k in v for v in views))
    top["additionalProperties"] = False
    return top


D = {
 "sog": {
  "aborted": "the mission was aborted (SOG 3.9)", "action": "the action being fought (SOG 3.8, 5.1), null between actions",
  "actions_fought": "actions fought so far", "exited": "the team has left the map", "extraction": "how the team leaves (null until chosen)",
  "insertion": "how the team came in (null until chosen)", "lzs": "the landing zones drawn (SOG 3.4.3): n and square",
  "objective": "the mission's objective", "options": "the game's options (CreateGame options_json)",
  "outcome": "the result once the game is over: winner, reason, victory points", "pending": "the pending decision: seat, kind, prompt, data (null once over)",
  "phase": "the turn's phase", "pz": "the pick-up zone square, if any", "reached_target": "the team reached its target",
  "searching": "the team is searching the target square", "target": "the target square (row-column, e.g. 7-E)",
  "target_home": "the target's first square", "team": "the team: members by letter (American, rank, weapon, items), impulse, prisoners",
  "team_at": "the team's square (null before insertion)", "terrain": "the Strategic Movement Map's rows of terrain codes",
  "turn": "the game turn", "vc": "the VC counters on the map: n and square", "vp": "victory points of each side"},
 "ntnd": {
  "air": "air units and missions (NTND 11): boxes, support, bombed and supplied hexes", "allied_dead": "Allied units eliminated",
  "allied_pending": "Allied units waiting to arrive", "arvn_demoralized": "the ARVN is demoralized",
  "attacks": "attacks declared this phase", "battle": "the battle being fought, null if none",
  "decision": "the pending decision: seat, kind, prompt, data", "draft": "the draft's state",
  "haiphong_mined": "Haiphong Harbor is mined (14.2.2; present only where the view says so)",
  "hidden": "the contents of inverted markers, by marker id (only in the Communist seat's view)",
  "hm": "Hearts and Minds markers by corps or country (7; campaign scenarios)", "markers": "inverted markers: id and location",
  "mix": "the scenario's force mix", "neutral": "neutral units", "outcome": "the result once the game is over, else null",
  "phase": "the phase's id", "phase_title": "the phase in words", "pp": "political points (22.4)",
  "quotas": "recruitment and replacement quotas", "random_events": "random events drawn", "replacement_points": "replacement points of each side",
  "rp_half": "replacement points halved", "rule": "the rule of the current phase", "scenario": "the scenario",
  "track_bounds": "the political track's bounds", "turn": "the game turn", "turn_label": "the turn in words (season, year)",
  "turns": "the scenario's length in turns", "units": "the units the view shows: id, type, name, side, nationality, location",
  "uprising": "the General Uprising's state (present once declared)", "vietnamization": "Vietnamization's state, null before it",
  "vietnamization_reversed": "Vietnamization reversed"},
 "gmv": {
  "battle": "the battle being fought (zone, attacker, defender, round, units in it, support, step, hits), null if none",
  "hidden": "the NVA seat's own hidden units (only in the NVA seat's view)", "hidden_count": "how many NVA units are hidden",
  "hidden_moves": "hidden NVA moves made this turn", "marks": "bomb marks: bomber, zone, turn",
  "money": "IPC and recruitment of each side (a seat sees its own; a spectator both)", "over": "the outcome once the game is over, else null",
  "pending": "the pending decision: seat, kind, prompt, data (null once over)", "phase": "the phase of the side's turn (1-5)",
  "pool": "each side's units bought and waiting to be placed", "side": "the side whose turn it is (us or nva)",
  "stack": "the actions waiting to be resolved (bombing, air moves)", "turn": "the game turn", "turns": "the game's length in turns",
  "units": "the units on the board the view shows: id, type, side, zone, acted, revealed, mission",
  "zones": "each zone by id: F-rating, airbase, LZ, artillery positions, an improvement being built"},
}
game = sys.argv[1]
s = infer(game, *RUNS[game])
def loosen(x):
    if isinstance(x, dict):
        if x.get("type") == "null" and len(x) == 1:
            return {"description": "null in the sampled games until set; then a value"}
        return {k: loosen(v) for k, v in x.items()}
    return x
s = loosen(s)
desc = D.get(game, {})
if game == "ntnd":   # keys build_view writes only in some positions (engine/games/ntnd/presentation/views.py), not met by the samples
    s["properties"].setdefault("haiphong_mined", {"type": "boolean"})
    s["properties"].setdefault("uprising", {})
for k, v in s["properties"].items():
    if k in desc:
        v["description"] = desc[k]
out = {"$schema": "https://json-schema.org/draft/2020-12/schema",
       "$id": f"https://afteraction.invalid/docs/views/{game}.schema.json",
       "title": f"The view of a {game} game (GetStateResponse.view_json, Watch's views, POST /ui/board's view)",
       "description": ("What one seat (or a spectator) may see of the game: the ruleset's view(state, seat) "
                       f"(engine/games/{game}/). Every key at the top level is listed (a key not listed is an error), "
                       "nested objects name the keys seen in seeded bot games and may grow. "
                       "Checked against real views by tests/web/test_view_schemas.py; see docs/web-client.md."),
       **s}
json.dump(out, open(f"docs/views/{game}.schema.json", "w"), indent=1)
open(f"docs/views/{game}.schema.json", "a").write("\n")
