"""SPEC.md 8.1-8.3 (endings every game has, time, the cause) for the SPEC-only verifier of
test_vectors_spec_verifier.py, written from the text of SPEC.md alone (10 B.8, B.9.7-8): it
imports nothing from afteraction."""
from __future__ import annotations

MAX_TIME = 2 ** 53
CAUSE_KEYS = {"resign": {"kind", "seat"}, "agree": {"kind", "offer", "winner"},
              "timeout": {"kind", "seat", "control", "since", "deadline"}, "abandon": {"kind", "since", "deadline"}}


def _v():
    from .test_vectors_spec_verifier import Fail, pb_fields
    return Fail, pb_fields


def genesis_keys(b: dict, v: int) -> set:
    """1.3: a v2 genesis may add clock and at, together."""
    return {"clock", "at"} if v >= 2 and ("clock" in b or "at" in b) else set()


def genesis(b: dict, st: dict) -> None:
    Fail, _ = _v()
    st["clock"] = None
    if "clock" not in b:
        return
    c, at = b["clock"], b.get("at")
    if type(c) is not dict or set(c) != {"decision", "total", "abandon"} or any(type(x) is not int for x in c.values()) \
            or type(at) is not int or not 0 <= at <= MAX_TIME:
        raise Fail(4, 0, "genesis clock / at")
    st["clock"] = dict(c, last_at=at, acted=(0, at), since=None, used={})


def is_resignation(b: dict, st: dict) -> bool:
    """10 B.9.3: a resignation may stand before the handshake is complete (8.1)."""
    from .test_vectors_spec_verifier import envelope, pb_fields
    try:
        env = envelope(b["env"])
        return st["v"] >= 2 and env["action"] == "ending" and 1 in pb_fields(env["payload"])
    except (KeyError, ValueError, IndexError, TypeError):
        return False


def body_keys(st: dict) -> set:
    return {"at"} if st.get("clock") else set()


def _at(b: dict, n: int, st: dict, step: int):
    Fail, _ = _v()
    c = st.get("clock")
    if not c:
        return None
    at = b.get("at")
    if type(at) is not int or not 0 <= at <= MAX_TIME or at < c["last_at"]:
        raise Fail(step, n, "record time: an integer, never decreasing (8.2)")
    return at


def _timeout(c: dict, seat: str):
    """8.2: (deadline, control) of the seat's pending decision, or None."""
    if c["since"] is None or not (c["decision"] or c["total"]):
        return None
    at = c["since"][1]
    d = [(at + c["decision"], "decision")] if c["decision"] else []
    if c["total"]:
        d.append((at + c["total"] - c["used"].get(seat, 0), "total"))
    return min(d)


def ending_event(env: dict) -> dict:
    """1.4 / 8.1: the one event an ending envelope's record holds."""
    Fail, pb_fields = _v()
    f = pb_fields(env["payload"])
    seat = env["seat"]
    if 1 in f:
        return {"t": "resign", "seat": seat}
    if 2 in f:
        w = pb_fields(f[2][-1]).get(1, [b""])[-1].decode()
        return {"t": "offer", "seat": seat, "winner": w or None}
    if 3 in f:
        a = pb_fields(f[3][-1])
        w = a.get(2, [b""])[-1].decode()
        return {"t": "accept", "seat": seat, "offer": a.get(1, [0])[-1], "winner": w or None}
    raise ValueError("no ending kind")


def seat_record(b: dict, n: int, kind: str, env, st: dict, starts: bool, started: bool, enc) -> None:
    """10 B.9.7-8, after the record's other step-6 checks."""
    Fail, _ = _v()
    if st.get("last_end") is not None:
        raise Fail(8, n, "a resignation or acceptance is followed by the end record")
    seat = b["seat"]
    at = _at(b, n, st, 6)
    c = st.get("clock")
    ending = env is not None and env["action"] == "ending"
    if c:
        if at > c["acted"][1] + c["abandon"]:
            raise Fail(6, n, "after the abandonment deadline")
        t = _timeout(c, seat) if kind == "command" and not ending else None
        if t is not None and at > t[0]:
            raise Fail(6, n, "a command after its seat's deadline")
    # SPEC 8.1: v2, an offer lapses at the next record; v3, it stands until another seat's record
    # that is not an offer, one per seat
    prior = st.get("standing", {})
    standing = {} if st["v"] < 3 else {s: o for s, o in prior.items() if s == seat}
    if ending:
        try:
            ev = ending_event(env)
        except (ValueError, IndexError):
            raise Fail(6, n, "ending kind") from None
        if enc(b["events"]) != enc([ev]):
            raise Fail(6, n, "ending event")
        if ev["t"] != "resign" and not started:
            raise Fail(6, n, "offer / accept before the start")
        if ev["t"] == "offer":
            if ev["winner"] is not None and ev["winner"] not in st["seats"]:
                raise Fail(6, n, "offer winner")
            if st["v"] >= 3 and seat in prior:
                raise Fail(6, n, "a second offer while the seat's offer stands")
            standing = ({} if st["v"] < 3 else dict(prior))
            standing[seat] = (n, ev["winner"])
            st.setdefault("offer_by", {})[n] = seat
        else:
            by = [(s, o) for s, o in prior.items() if o[0] == ev.get("offer")]
            if ev["t"] == "accept" and (not by or by[0][0] == seat or ev["winner"] != by[0][1][1]
                                        or (st["v"] < 3 and ev["offer"] != n - 1)):
                raise Fail(6, n, "acceptance of no offer")
            st["last_end"] = ev
    st["standing"] = standing
    if c:
        c["last_at"], c["acted"] = at, (n, at)
        if (kind == "command" and not ending) or starts:
            if not starts and c["since"] is not None:
                c["used"][seat] = c["used"].get(seat, 0) + at - c["since"][1]
            c["since"] = (n, at)


def outcome(cause: dict, seats: list[str]) -> dict:
    """8.3's table."""
    k = cause["kind"]
    other = None
    if "seat" in cause:
        rest = [s for s in seats if s != cause["seat"]]
        other = rest[0] if len(rest) == 1 else None
    if k == "resign":
        return {"winner": other, "reason": f"seat {cause['seat']} resigned"}
    if k == "agree":
        w = cause["winner"]
        return {"winner": w, "reason": "agreed draw" if w is None else f"agreed result: seat {w} wins"}
    if k == "timeout":
        return {"winner": other, "reason": f"seat {cause['seat']} ran out of time ({cause['control']} limit)"}
    return {"winner": None, "reason": "abandoned: no seat acted within the limit (no result)"}


def end(b: dict, n: int, st: dict, enc) -> None:
    """10 B.8: the end record's keys, the record before it, its cause and the cause's outcome."""
    Fail, _ = _v()
    want = {"secret", "outcome"} | body_keys(st) | ({"cause"} if "cause" in b and st["v"] >= 2 else set())
    if set(b) != want:
        raise Fail(8, n, "end body keys")
    at = _at(b, n, st, 8)
    last, st["last_end"] = st.get("last_end"), None
    cause = b.get("cause")
    if cause is None:
        if last is not None or st.get("prev_kind") != "command":
            raise Fail(8, n, "end record after a command")
        return
    k = cause.get("kind") if type(cause) is dict else None
    if k not in CAUSE_KEYS or set(cause) != CAUSE_KEYS[k]:
        raise Fail(8, n, "cause shape")
    if k == "resign" and (last is None or last["t"] != "resign" or last["seat"] != cause["seat"]):
        raise Fail(8, n, "resignation by the seat the cause names")
    if k == "agree" and (last is None or last["t"] != "accept" or last["offer"] != cause["offer"]
                         or last["winner"] != cause["winner"]):
        raise Fail(8, n, "agreed result")
    if k in ("timeout", "abandon"):
        c = st.get("clock")
        if last is not None or not c:
            raise Fail(8, n, "time ending")
        if k == "timeout":
            t = _timeout(c, cause["seat"]) if cause["seat"] in st["seats"] else None
            if t is None or cause["since"] != c["since"][0] or (cause["deadline"], cause["control"]) != t \
                    or t[0] > c["acted"][1] + c["abandon"]:
                raise Fail(8, n, "time-out deadline")
        elif (cause["since"], cause["deadline"]) != (c["acted"][0], c["acted"][1] + c["abandon"]):
            raise Fail(8, n, "abandonment deadline")
        if not at > cause["deadline"]:
            raise Fail(8, n, "recorded after the deadline")
    if enc(b["outcome"]) != enc(outcome(cause, st["seats"])):
        raise Fail(8, n, "the outcome of the cause")
