"""``aar explain LOG (--record N | --roll K | --hidden SEQ:K) [--json]``: the evidence for one
moment of one game, each step checked and marked.

- ``--record N``: who submitted record N (seat, public key, the signed envelope with every
  field, its counter and what it is bound to), the decision it answered and the rules its
  events cite, its events, and for each die rolled and each hidden value in it the
  explanation below.
- ``--roll K``: roll number K (SPEC.md 5.5) derived from scratch: the server secret against
  its genesis commitment, each seat's entropy against its handshake commitment, the dice key,
  every HMAC block with its four candidates and the rejection-sampling verdict, the face.
- ``--hidden SEQ:K``: the hidden value at position (SEQ, K) (SPEC.md 6.1): its commitment,
  the record and seat it was sealed for, when it was delivered and published, and the check
  of each opening.

Marks: ``[ok]`` checked here and right, ``[FAILED]`` checked and wrong, ``[n/a]`` cannot be
checked from this file (a game in progress has no server secret). The whole log is also
verified with the engine's Verifier; its verdict heads the output.

The JSON form (``--json``) is described by ``docs/explain.schema.json``; bytes are lowercase hex.
"""
from __future__ import annotations

import argparse
import json
import sys

from afteraction.engine.crypto import commit as _commit
from afteraction.engine.crypto import dice as _dice
from afteraction.engine.crypto.hashing import TAG_DICE_KEY, TAG_ROLL, tag_prefix, tagged_hmac
from afteraction.engine.errors import AfteractionError
from afteraction.engine.referee import verify_command_signature
from afteraction.v1 import envelope_pb2

from .logwalk import Unreadable, Walk, envelope_fields, jsonable, load, walk

SCHEMA_ID = "afteraction/explain/1"
IN_PROGRESS = ("game in progress: the bundle has no server secret, so the dice, the sealed values "
               "and the rules replay (decisions) cannot be shown or checked until the game has ended")


def check(what: str, ok: bool | None, expected=None, found=None) -> dict:
    d = {"what": what, "ok": ok}
    if expected is not None:
        d["expected"] = jsonable(expected)
    if found is not None:
        d["found"] = jsonable(found)
    return d


# -- the pieces ------------------------------------------------------------------------
def verdict(w: Walk) -> dict:
    f = w.failure
    d = {"verified": f is None, "verified_through": w.verified_through, "records": len(w.frames),
         "ended": w.ended and f is None, "secret_known": w.secret is not None,
         "replayed": bool(w.report and w.report.replayed), "failure": None, "notes": []}
    if f is not None:
        d["failure"] = f.as_dict()
    elif w.report is not None:
        d["notes"] = list(w.report.notes)
    if w.secret is None:
        d["notes"].append(IN_PROGRESS)
    return d


def secret_part(w: Walk) -> dict:
    g = w.genesis
    commit = g.body.get("secret_commit") if g else None
    if w.secret is None:
        return {"commitment": jsonable(commit), "secret": None, "revealed_in": None,
                "check": check("server secret matches the genesis commitment (SPEC.md 5.1)", None)}
    got = _commit.server_secret_commitment(w.game, w.secret)
    end = next((r.seq for r in w.records if r is not None and r.kind == "end"), None)
    return {"commitment": jsonable(commit), "secret": w.secret.hex(), "revealed_in": end,
            "check": check("server secret matches the genesis commitment (SPEC.md 5.1)", got == commit, commit, got)}


def entropy_part(w: Walk) -> list[dict]:
    out = []
    for seat in w.seat_order():
        item = {"seat": seat, "commit_record": None, "commitment": None, "reveal_record": None, "entropy": None}
        for r in w.records:
            if r is None or r.body.get("seat") != seat:
                continue
            for ev in r.body.get("events", []) if isinstance(r.body.get("events"), list) else []:
                if isinstance(ev, dict) and ev.get("t") == "entropy-commit" and item["commitment"] is None:
                    item["commit_record"], item["commitment"] = r.seq, ev.get("commit")
                if isinstance(ev, dict) and ev.get("t") == "entropy-reveal" and item["entropy"] is None:
                    item["reveal_record"], item["entropy"] = r.seq, ev.get("entropy")
        ok = None
        if isinstance(item["entropy"], bytes) and isinstance(item["commitment"], bytes):
            g = w.genesis
            ghash = g.hash if g is not None and g.v >= 2 else None  # v2 binds genesis (SPEC.md 5.2)
            ok = _commit.seat_entropy_commitment(w.game, seat, item["entropy"], ghash) == item["commitment"]
        item["check"] = check("entropy matches the seat's handshake commitment (SPEC.md 5.2)", ok)
        out.append(jsonable(item))
    return out


def roll_part(w: Walk, seq: int, ev: dict, sealed_k: int | None = None) -> dict:
    """The whole derivation of one roll event (public, or the opened value of a sealed one)."""
    d = {"index": ev.get("i"), "record": seq, "die": ev.get("die"), "rule": ev.get("rule"),
         "sealed": sealed_k is not None, "k": sealed_k, "logged": jsonable(ev), "checks": []}
    if w.secret is None:
        d["checks"].append(check("the roll derives from the dice key (SPEC.md 5.4)", None))
        d["cannot_show"] = IN_PROGRESS
        return d
    d["server_secret"] = secret_part(w)
    ent = entropy_part(w)
    d["entropy"] = ent
    pairs = [(e["seat"], bytes.fromhex(e["entropy"])) for e in ent if e["entropy"]]
    if len(pairs) != len(ent):
        d["checks"].append(check("every seat revealed its entropy", False))
        return d
    msg = _dice.dice_key_message(w.game, pairs)
    key = _dice.derive_dice_key(w.secret, w.game, pairs)
    d["dice_key"] = {"hmac_key": "the server secret", "tag": TAG_DICE_KEY,
                     "message": msg.hex(), "value": key.hex(), "seat_order": [p[0] for p in pairs]}
    die, i = ev.get("die"), ev.get("i")
    if die not in _dice.DICE or type(i) is not int:
        d["checks"].append(check("the roll names a known die and an integer index", False, None, [die, i]))
        return d
    n, count = _dice.DICE[die]
    limit = _dice.accept_limit(n)
    faces = [_face_part(key, i, die, fk, n, limit) for fk in range(count)]
    d["faces"] = faces
    mine = [f["face"] for f in faces]
    result = _dice.result_of(die, mine)
    d["derived"] = {"faces": mine, "result": result}
    engine = _dice.roll(key, i, die, str(ev.get("rule"))).event()  # the engine's own function
    d["checks"] += [
        d["server_secret"]["check"],
        *[e["check"] for e in ent],
        check("the step-by-step faces equal the engine's dice.roll", list(engine["faces"]) == mine),
        check("logged faces equal the derived faces", ev.get("faces") == mine, mine, ev.get("faces")),
        check("logged result equals the derived result", ev.get("result") == result, result, ev.get("result")),
    ]
    ok = True if w.verified_through >= seq else (
        False if w.failure is not None and w.failure.seq == seq and w.failure.step.startswith("10") else None)
    d["checks"].append(check("roll index in log order, accepted by the engine's Verifier (step 10)", ok))
    return d


def _face_part(key: bytes, i: int, die: str, fk: int, n: int, limit: int) -> dict:
    """The derivation of face ``fk`` of roll ``i`` (SPEC.md 5.4): each attempt's HMAC block and its
    four candidates, the first under the limit accepted."""
    attempts = []
    face = None
    attempt = 0
    while face is None:
        m = _dice.roll_message(i, die, fk, attempt)
        block = tagged_hmac(key, TAG_ROLL, m)
        cands = []
        for j in range(4):
            x = int.from_bytes(block[8 * j: 8 * j + 8], "big")
            ok = x < limit
            cands.append({"j": j, "x": f"{x:016x}", "accepted": ok and face is None,
                          "x_mod_n_plus_1": x % n + 1 if ok else None})
            if ok and face is None:
                face = x % n + 1
        attempts.append({"attempt": attempt, "hmac_input": (tag_prefix(TAG_ROLL) + m).hex(),
                         "message": m.hex(), "block": block.hex(), "candidates": cands})
        attempt += 1
    return {"k": fk, "n": n, "limit": f"{limit:016x}", "attempts": attempts, "face": face}


def hidden_part(w: Walk, ref: tuple[int, int]) -> dict:
    h = w.hidden.get(ref)
    if h is None:
        raise Unreadable(f"no hidden value at {ref[0]}:{ref[1]} (a sealed event's record and k, "
                         "or SEQ:0 for a sealed command)")
    end = next((r.seq for r in w.records if r is not None and r.kind == "end"), None)
    d = {"ref": [h.seq, h.k], "commitment": h.commit.hex(), "sealed_in": h.seq,
         "event_index": h.event_index, "to": h.to,
         "what": "a sealed command (its envelope and signature)" if h.k == 0 else "a private event",
         "delivered": f"privately to seat {h.to} when record {h.seq} was accepted (SPEC.md 6.3; "
                      "the log holds the commitment and the ciphertext, not the delivery)",
         "openings": [], "value": None, "checks": []}
    for seq, i in h.opened_at:
        ev = w.records[seq].body["events"][i]
        salt, value = ev.get("salt"), ev.get("value")
        got = _commit.commitment(salt, value) if isinstance(salt, bytes) and len(salt) == 32 else None
        d["openings"].append({"record": seq, "event_index": i, "to": "everyone (a public open event, SPEC.md 6.4)",
                              "salt": jsonable(salt), "value": jsonable(value),
                              "check": check("salt || canonical(value) hashes to the commitment",
                                             got == h.commit, h.commit, got)})
        d["value"] = jsonable(value)
    if w.secret is None:
        d["checks"].append(check("the sealed ciphertext opens to the commitment (SPEC.md 6.2)", None))
        if not h.opened_at:
            d["cannot_show"] = IN_PROGRESS
    elif h.opening is None:
        d["checks"].append(check("the sealed ciphertext opens to the commitment (SPEC.md 6.2)", False,
                                 None, h.unseal_error))
    else:
        op = h.opening
        salt = _commit.derive_salt(w.secret, w.game, h.seq, h.k)
        d["sealed_opening"] = {"record": end, "to": "everyone (the end record publishes the server secret)",
                               "salt": op.salt.hex(), "value": jsonable(op.value)}
        d["value"] = jsonable(op.value)
        d["checks"] += [
            check("the ciphertext decrypts with the seal key from the server secret and opens to the commitment",
                  op.commitment == h.commit),
            check("the salt is the one the server secret derives for this position (SPEC.md 6.1)",
                  salt == op.salt, salt, op.salt),
        ]
        for o in d["openings"]:
            d["checks"].append(check(f"the value published in record {o['record']} is the sealed value",
                                     o["value"] == jsonable(op.value)))
        if h.k == 0 and isinstance(op.value, dict):
            d["sealed_command"] = submitter_from(w, h.seq, w.records[h.seq].body, op.value.get("env"),
                                                 op.value.get("sig"), sealed=True)
    d["checks"] += [o["check"] for o in d["openings"]]
    return d


def submitter_from(w: Walk, seq: int, body: dict, env_b, sig, sealed: bool) -> dict:
    seat = body.get("seat")
    key = w.seat_keys().get(seat)
    d = {"seat": seat, "key": jsonable(key), "counter": body.get("ctr"), "sealed": sealed,
         "signature": jsonable(sig), "envelope_bytes": jsonable(env_b), "envelope": None,
         "bound_to": None, "command": None, "checks": []}
    if not isinstance(env_b, bytes) or not isinstance(sig, bytes) or key is None:
        d["checks"].append(check("the record carries an envelope and signature of a genesis seat", False))
        return d
    d["checks"].append(check(f"Ed25519 signature by seat {seat}'s genesis key over \"aar1/command\" 0x00 || envelope",
                             verify_command_signature(key, env_b, sig)))
    try:
        env = envelope_pb2.CommandEnvelope.FromString(env_b)
    except Exception as e:
        d["checks"].append(check("the envelope parses as a CommandEnvelope", False, None, str(e)))
        return d
    fields = envelope_fields(env)
    d["envelope"] = fields
    action = env.WhichOneof("action")
    action_fields = {f.name for f in env.DESCRIPTOR.oneofs_by_name["action"].fields}
    d["bound_to"] = {k: v for k, v in fields.items() if k not in action_fields}
    d["action"] = action
    if action == "command":
        from google.protobuf import text_format

        d["command"] = text_format.MessageToString(env.command, as_one_line=True)
    d["checks"] += [
        check("envelope names this game", env.game_id == w.game, w.game, env.game_id),
        check("envelope names the record's seat", env.seat == seat, seat, env.seat),
        check("envelope counter is the record's counter", env.counter == body.get("ctr"), body.get("ctr"), env.counter),
    ]
    if action == "command":
        d["checks"].append(check("envelope state_seq is this record (the position it was made for, SPEC.md 7.2; "
                                 "format 3: or one only other seats' offers follow)",
                                 env.state_seq == seq or _past_offers(w, seat, env, seq), seq, env.state_seq))
    return d


def _past_offers(w: Walk, seat: str, env, seq: int) -> bool:
    """Format 3 (SPEC.md 7.2): the envelope is bound before other seats' offers only (the rule of
    engine/protocol_rules.py position_problem, on the walked records)."""
    from afteraction.engine.protocol_rules import position_problem

    recs = w.records

    def offer_by(n: int):
        r = recs[n] if 0 <= n < len(recs) else None
        ev = r.body.get("events") if r is not None and r.kind == "command" else None
        ok = isinstance(ev, list) and len(ev) == 1 and isinstance(ev[0], dict) and ev[0].get("t") == "offer"
        return r.body.get("seat") if ok else None
    return bool(recs) and position_problem(recs[0].v, seat, env.state_seq, env.prev, seq,
                                           lambda n: recs[n].hash if 0 <= n < len(recs) else None, offer_by) is None


def record_part(w: Walk, seq: int) -> dict:
    if not w.frames:
        raise Unreadable("the log holds no complete record to explain")
    if not 0 <= seq < len(w.frames):
        raise Unreadable(f"--record must be between 0 and {len(w.frames) - 1}")
    raw, cp = w.frames[seq]
    r = w.records[seq]
    d = {"seq": seq, "kind": None, "hash": None, "prev": None, "checkpoint": cp, "bytes": len(raw),
         "submitter": None, "decision": None, "rules_cited": [], "events": [], "rolls": [], "hidden": [],
         "checks": [], "cannot_show": []}
    verified = w.verified_through >= seq
    failed_here = w.failure is not None and w.failure.seq == seq
    d["checks"].append(check("the engine's Verifier accepted this record (chain, checkpoint, seats, openings"
                             + (", sealed values, dice, replay" if w.secret else "") + ")",
                             True if verified else (False if failed_here else None)))
    if failed_here:
        d["failure"] = w.failure.as_dict()
    if r is None:
        d["cannot_show"].append("the record bytes are not a canonical record")
        return d
    d.update(kind=r.kind, hash=r.hash.hex(), prev=r.prev.hex(), version=r.v)
    if seq > 0 and w.records[seq - 1] is not None:
        d["checks"].append(check("prev is the hash of the record before (SPEC.md 3)",
                                 r.prev == w.records[seq - 1].hash, w.records[seq - 1].hash, r.prev))
    b = r.body
    if r.kind == "genesis":
        d["genesis"] = jsonable(b)
        return d
    if r.kind == "end":
        d["end"] = {"outcome": jsonable(b.get("outcome")), "secret": jsonable(b.get("secret"))}
        d["checks"].append(secret_part(w)["check"])
        return d
    d["submitter"] = _submitter_part(w, seq, b, d)
    if r.kind == "command":
        if seq in w.decisions:
            d["decision"] = jsonable(w.decisions[seq])
        else:
            d["cannot_show"].append("the decision this command answered (needs the rules replay: "
                                    + ("the game is in progress)" if w.secret is None else
                                       "the replay did not reach this record)"))
    _events_part(w, seq, b, d)
    if w.secret is None and any(e["t"] == "sealed" for e in d["events"]):
        d["cannot_show"].append("the sealed events' values (hidden until the end of the game)")
    return d


def _submitter_part(w: Walk, seq: int, b: dict, d: dict) -> dict:
    """Who submitted a seat record: its envelope and signature, a sealed command's once opened (what
    cannot be shown yet goes into d["cannot_show"])."""
    if "sealed" not in b:
        return submitter_from(w, seq, b, b.get("env"), b.get("sig"), False)
    h = w.hidden.get((seq, 0))
    if h is not None and h.opening is not None and isinstance(h.opening.value, dict):
        out = submitter_from(w, seq, b, h.opening.value.get("env"), h.opening.value.get("sig"), True)
        out["commitment"] = h.commit.hex()
        return out
    d["cannot_show"].append("the sealed command's envelope (hidden until the end of the game)"
                            if w.secret is None else "the sealed command does not open")
    return {"seat": b.get("seat"), "key": jsonable(w.seat_keys().get(b.get("seat"))),
            "counter": b.get("ctr"), "sealed": True, "envelope": None,
            "checks": [check("the sealed command opens to its commitment", None
                             if w.secret is None else False)]}


def _events_part(w: Walk, seq: int, b: dict, d: dict) -> None:
    """A record's events into d: each event, its rolls derived (sealed ones once opened), its hidden
    values, the rules cited (the events' and the rolls')."""
    evs = b.get("events") if isinstance(b.get("events"), list) else []
    for i, ev in enumerate(evs):
        if not isinstance(ev, dict):
            continue
        item = {"index": i, "t": ev.get("t"), "event": jsonable(ev)}
        if ev.get("t") == "roll":
            d["rolls"].append(roll_part(w, seq, ev))
        elif ev.get("t") == "sealed" and type(ev.get("k")) is int:
            hd = hidden_part(w, (seq, ev["k"]))
            d["hidden"].append(hd)
            h = w.hidden[(seq, ev["k"])]
            if h.opening is not None and isinstance(h.opening.value, dict) and h.opening.value.get("t") == "roll":
                d["rolls"].append(roll_part(w, seq, h.opening.value, sealed_k=ev["k"]))
        elif ev.get("t") == "open":
            item["opens"] = jsonable(ev.get("ref"))
        rule = ev.get("rule")
        if isinstance(rule, str) and rule not in d["rules_cited"]:
            d["rules_cited"].append(rule)
        d["events"].append(item)
    for rd in d["rolls"]:
        rule = rd.get("rule")
        if isinstance(rule, str) and rule not in d["rules_cited"]:
            d["rules_cited"].append(rule)


def find_roll(w: Walk, k: int) -> tuple[int, dict, int | None]:
    for seq, (a, b) in w.roll_range.items():
        if a <= k < b:
            r = w.records[seq]
            for ev in r.body.get("events", []):
                if ev.get("t") == "roll" and ev.get("i") == k:
                    return seq, ev, None
                if ev.get("t") == "sealed":
                    h = w.hidden.get((seq, ev.get("k")))
                    if h and h.opening and isinstance(h.opening.value, dict) and h.opening.value.get("i") == k:
                        return seq, h.opening.value, ev.get("k")
    for r in w.records:  # a game in progress: public rolls only (sealed ones cannot be found)
        if r is None or not isinstance(r.body.get("events"), list):
            continue
        for ev in r.body["events"]:
            if isinstance(ev, dict) and ev.get("t") == "roll" and ev.get("i") == k:
                return r.seq, ev, None
    extra = "" if w.secret else " (a game in progress: sealed rolls cannot be found before the end)"
    raise Unreadable(f"no roll with index {k} in this log{extra}")


def explain(path: str, record: int | None = None, roll: int | None = None,
            hidden: tuple[int, int] | None = None, server_key: str | None = None) -> dict:
    header, frames, tail_error = load(path)
    w = walk(header, frames, pinned_vkey=server_key, tail_error=tail_error)
    g = w.genesis
    out = {"schema": SCHEMA_ID, "file": path, "game": w.game,
           "ruleset": (f"{g.body['ruleset']['game']}/{g.body['ruleset']['version']}" if g else None),
           "format_version": g.v if g else None, "seats": [{"name": s, "key": k.hex()} for s, k in w.seat_keys().items()],
           "server_key": header.get("server_vkey"), "server_key_pinned": server_key is not None,
           "verification": verdict(w)}
    if record is not None:
        out["record"] = record_part(w, record)
    if roll is not None:
        seq, ev, k = find_roll(w, roll)
        out["roll"] = roll_part(w, seq, ev, k)
    if hidden is not None:
        out["hidden"] = hidden_part(w, hidden)
    return out


# -- text ------------------------------------------------------------------------------
def _mark(ok) -> str:
    return {True: "[ok]    ", False: "[FAILED]", None: "[n/a]   "}[ok]


def _checks(lines, checks, ind):
    for c in checks:
        extra = ""
        if c["ok"] is False and ("expected" in c or "found" in c):
            extra = f" (expected {c.get('expected')}, found {c.get('found')})"
        lines.append(f"{ind}{_mark(c['ok'])} {c['what']}{extra}")


def _short(v, n=200) -> str:
    s = json.dumps(v, sort_keys=True) if not isinstance(v, str) else v
    return s if len(s) <= n else s[:n] + "..."


def text(d: dict) -> str:
    L: list[str] = []
    v = d["verification"]
    L.append(f"game {d['game']} ({d['ruleset']}, format v{d['format_version']}), {v['records']} records, "
             f"seats {', '.join(s['name'] for s in d['seats'])}")
    if v["verified"]:
        L.append(f"{_mark(True)} whole log verified by the engine's Verifier"
                 + (" (rules replayed byte for byte)" if v["replayed"] else ""))
    else:
        L.append(f"{_mark(False)} NOT VERIFIED: {v['failure']['message']}")
        L.append(f"         (records 0..{v['verified_through']} were accepted before the failure)")
    L.append(f"  server key: {d['server_key']}" + (" (pinned)" if d["server_key_pinned"] else
                                                   " (from the bundle; pin it with --server-key)"))
    for n in v["notes"]:
        L.append(f"  note: {n}")
    if "record" in d:
        _text_record(L, d["record"])
    if "roll" in d:
        L.append("")
        _text_roll(L, d["roll"], "")
    if "hidden" in d:
        L.append("")
        _text_hidden(L, d["hidden"], "")
    return "\n".join(_printable(x) for x in L)


def _printable(s: str) -> str:
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in s)


def _text_record(L, r):
    L.append("")
    L.append(f"record {r['seq']}: {r['kind']}  ({r['bytes']} bytes, hash {r['hash']})")
    _checks(L, r["checks"], "  ")
    s = r.get("submitter")
    if s:
        L.append(f"  submitted by seat {s['seat']} (public key {s['key']}), counter {s['counter']}"
                 + (", sealed command" if s.get("sealed") else ""))
        if s.get("envelope") is not None:
            L.append("  signed envelope (every field):")
            for k, val in s["envelope"].items():
                L.append(f"    {k}: {_short(val)}")
            L.append(f"  bound to: {_short(s['bound_to'])}")
            if s.get("command"):
                L.append(f"  command: {s['command']}")
            L.append(f"  signature: {s['signature']}")
        _checks(L, s["checks"], "  ")
    if r.get("decision"):
        dd = r["decision"]
        L.append(f"  answered the decision: {dd['seat']} {dd['kind']}: {dd['prompt']}")
    if r["rules_cited"]:
        L.append(f"  rules cited: {'; '.join(r['rules_cited'])}")
    if r.get("genesis"):
        L.append(f"  genesis: {_short(r['genesis'], 600)}")
    if r.get("end"):
        L.append(f"  outcome: {_short(r['end']['outcome'])}; server secret {r['end']['secret']}")
    if r["events"]:
        L.append(f"  events ({len(r['events'])}):")
        for e in r["events"]:
            L.append(f"    {e['index']:3d}. {_short(e['event'], 160)}")
    for rd in r["rolls"]:
        _text_roll(L, rd, "  ")
    for h in r["hidden"]:
        _text_hidden(L, h, "  ")
    for c in r["cannot_show"]:
        L.append(f"  cannot show: {c}")


def _text_roll(L, rd, ind):
    L.append(f"{ind}roll {rd['index']} in record {rd['record']}: {rd['die']} for {rd['rule']}"
             + (f" (sealed to a seat, k={rd['k']})" if rd["sealed"] else "")
             + f": logged faces {rd['logged'].get('faces')} result {rd['logged'].get('result')}")
    if "server_secret" in rd:
        ss = rd["server_secret"]
        L.append(f"{ind}  server secret {ss['secret']} (published in record {ss['revealed_in']})")
        L.append(f"{ind}    genesis commitment {ss['commitment']}")
        for e in rd["entropy"]:
            L.append(f"{ind}  entropy of {e['seat']}: {e['entropy']} (committed in record {e['commit_record']}: "
                     f"{e['commitment']}, revealed in record {e['reveal_record']})")
        dk = rd.get("dice_key")
        if dk:
            L.append(f"{ind}  dice key = HMAC-SHA256(server secret, \"{dk['tag']}\" 0x00 || {dk['message']})")
            L.append(f"{ind}           = {dk['value']}")
        for f in rd.get("faces", []):
            L.append(f"{ind}  face {f['k']} (d{f['n']}, accept x < {f['limit']}):")
            for a in f["attempts"]:
                L.append(f"{ind}    attempt {a['attempt']}: HMAC-SHA256(dice key, {a['hmac_input']})")
                L.append(f"{ind}      = {a['block']}")
                for c in a["candidates"]:
                    verdict_ = ("accepted: x mod %d + 1 = %d" % (f["n"], c["x_mod_n_plus_1"]) if c["accepted"]
                                else ("not needed" if c["x_mod_n_plus_1"] is not None else "rejected (x >= limit)"))
                    L.append(f"{ind}      x{c['j']} = {c['x']}  {verdict_}")
            L.append(f"{ind}    face = {f['face']}")
        if "derived" in rd:
            L.append(f"{ind}  derived: faces {rd['derived']['faces']}, result {rd['derived']['result']}")
    _checks(L, rd["checks"], ind + "  ")
    if rd.get("cannot_show"):
        L.append(f"{ind}  cannot show: {rd['cannot_show']}")


def _text_hidden(L, h, ind):
    L.append(f"{ind}hidden value {h['ref'][0]}:{h['ref'][1]} ({h['what']}), sealed in record {h['sealed_in']} "
             f"for seat {h['to']}")
    L.append(f"{ind}  commitment {h['commitment']}")
    L.append(f"{ind}  delivered {h['delivered']}")
    for o in h["openings"]:
        L.append(f"{ind}  published in record {o['record']} (event {o['event_index']}) to {o['to']}: "
                 f"{_short(o['value'])}")
    so = h.get("sealed_opening")
    if so:
        L.append(f"{ind}  opened for {so['to']} (record {so['record']}): salt {so['salt']}")
        L.append(f"{ind}  value: {_short(so['value'], 400)}")
    sc = h.get("sealed_command")
    if sc and sc.get("command"):
        L.append(f"{ind}  the sealed command: seat {sc['seat']} counter {sc['counter']}: {sc['command']}")
        _checks(L, sc["checks"], ind + "  ")
    _checks(L, h["checks"], ind + "  ")
    if h.get("cannot_show"):
        L.append(f"{ind}  cannot show: {h['cannot_show']}")


# -- the command -----------------------------------------------------------------------
def _ref(s: str) -> tuple[int, int]:
    a, sep, b = s.replace(",", ":").partition(":")
    if not sep or not a.strip().isdigit() or not b.strip().isdigit():
        raise argparse.ArgumentTypeError(f"{s!r}: expected SEQ:K, e.g. 44:1")
    return int(a), int(b)


def cmd_explain(args: argparse.Namespace) -> int:
    if args.record is None and args.roll is None and args.hidden is None:
        print("aar explain: say what to explain: --record N, --roll K or --hidden SEQ:K", file=sys.stderr)
        return 2
    try:
        if args.server_key is not None:
            from .keys import server_vkey_arg

            args.server_key = server_vkey_arg(args.server_key)  # KeyArgError: not a server key (exit 2)
        d = explain(args.file, args.record, args.roll, args.hidden, args.server_key)
    except (Unreadable, AfteractionError, ValueError) as e:  # ValueError: keys.KeyArgError
        if args.json:
            print(json.dumps({"schema": SCHEMA_ID, "error": str(e)}))
        print(f"aar explain: {_printable(str(e))}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(d, sort_keys=True, indent=1))
    else:
        print(text(d))
    return 0 if d["verification"]["verified"] else 1


def register(sub) -> None:
    p = sub.add_parser(
        "explain", help="the evidence for one record, roll or hidden value of an exported log, each step checked",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Explain one moment of a game from its .aar log: who signed a record and what it answered, "
                    "how a die was derived, what a hidden value was and when it was opened. The whole log is "
                    "verified too; exit 0 if it verified, 1 if not, 2 if the file is unreadable or the "
                    "question names nothing in it.",
        epilog="seats: sog: sog, nva; gmv: us, nva; ntnd: communist, allied; duel: a, b\n"
               "example: aar explain fixtures/golden/sog.aar --record 10\n"
               "         aar explain fixtures/golden/sog.aar --roll 8 --json\n"
               "         aar explain fixtures/golden/ntnd-tet.aar --hidden 4:1")
    p.add_argument("file", help="an exported .aar bundle (of an ended game, or one in progress)")
    p.add_argument("--record", type=int, metavar="N", help="explain record N (0 is genesis); no default")
    p.add_argument("--roll", type=int, metavar="K", help="derive roll number K (the i of its roll event, from 0)")
    p.add_argument("--hidden", type=_ref, metavar="SEQ:K",
                   help="the hidden value at position SEQ:K (a sealed event's record and k; SEQ:0 a sealed command)")
    p.add_argument("--server-key", metavar="VKEY",
                   help="the server's verifier key (name+id+key) you trust, as for aar verify (default: the "
                        "bundle's own key, and the output says so)")
    p.add_argument("--json", action="store_true",
                   help="print JSON (schema docs/explain.schema.json) instead of text (default: text)")
    p.set_defaults(func=cmd_explain)
