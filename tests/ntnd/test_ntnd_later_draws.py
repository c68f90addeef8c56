"""What later public events say about earlier hidden draws (docs/rules/ntnd.md "What the
opponent can see"). Two positions that differ only in a hidden action of the Communist player (a
recruit placed inverted as one type or another, a cadre or a dummy, a hidden promotion to a
regiment or a sapper), then the same public continuation by both seats: a face-up draw of the
type first, then a seeded walk through the commands both positions offer. After every action the
Allied seat and a spectator must observe the same things (leakcheck.check_later: public events,
sealed events by recipient and count, views, the public decision, the Allied legal commands, an
Allied refusal's code and message). ntnd/4 keeps the old naming (the lowest id left in the mix),
which these pairs tell apart: ``test_..._ntnd_4_keeps_its_naming`` pins that the old version's play
is unchanged."""
from __future__ import annotations

import pytest

from afteraction.engine.games.ntnd.forces import operations
from afteraction.engine.games.ntnd.rules import cmd
from afteraction.engine.games.ntnd.components.pieces import counter_name
from afteraction.engine.ruleset import Context
from afteraction.engine.versions import KEY

from .leakcheck import RS, applied, check_later, owner_footprint
from .mapplay import at, blank, put


def _place(kind: str, loc: str, inverted: bool, nationality: str = ""):
    return cmd("place", kind=kind, nationality=nationality, location=loc, inverted=inverted)


def _recruitment(version: str | None = None) -> dict:
    """Every counter in the mix (the set-up's named ones too), the Communist recruitment phase."""
    s = blank()
    if version is not None:
        s[KEY] = version
    return at(s, "c_recruit")


def _nva(kind: str, inverted: bool):
    return _place(kind, "CHINA", inverted, "NVA")


def pair_4_1_3(version=None):
    """Pair 1: the first NVA recruit inverted in China, a division (A) or artillery (B); then a
    division face up."""
    return (_recruitment(version), "communist", _nva("nva_division", True), _nva("nva_artillery", True),
            [("communist", _nva("nva_division", False))])


def pair_4_1_1(version=None):
    """Pair 2: an inverted VC cadre (A) or a dummy (B) at 0924; then a VC cadre face up at 0927."""
    return (_recruitment(version), "communist", _place("cadre", "0924", True, "VC"), _place("dummy", "0924", True),
            [("communist", _place("cadre", "0927", False, "VC"))])


def _marker(s, uids, loc):
    for u in uids:
        put(s, u, loc)
    return operations.make_marker(s, list(uids), loc, Context.for_tests(), "test")


def pair_6_1_1(version=None):
    """Pair 3: an inverted cadre with a face-up supply unit promoted to a regiment (A) or a sapper
    (B); then a face-up cadre promoted to a regiment, and a face-up division broken down."""
    s = blank()
    if version is not None:
        s[KEY] = version
    _marker(s, ["vc-cadre-1"], "1812")
    put(s, "sup-ashau", "1812")
    put(s, "vc-cadre-2", "2118")
    put(s, "sup-353", "2118")
    put(s, "nva-320", "1026")
    s = at(s, "c_ops")
    return (s, "communist", cmd("promote", piece="vc-cadre-1", supply="sup-ashau", to="regiment"),
            cmd("promote", piece="vc-cadre-1", supply="sup-ashau", to="sapper"),
            [("communist", cmd("promote", piece="vc-cadre-2", supply="sup-353", to="regiment")),
             ("communist", cmd("break_down", piece="nva-320"))])


def pair_27_2(version=None):
    """Communist aid (27.2; campaign): China's unit taken inverted in China, a supply unit (A) or a
    SAM (B); then a SAM recruited face up there (4.1.3)."""
    from .test_ntnd_neutrality import at as camp_at, cblank
    s = cblank(turn=6)
    if version is not None:
        s[KEY] = version
    s = camp_at(s, "c_recruit", faces=[6, 1])
    aid = lambda kind: cmd("aid", source="china", kind=kind, location="CHINA", inverted=True)  # noqa: E731
    return s, "communist", aid("communist_supply"), aid("nva_sam"), [("communist", _nva("nva_sam", False))]


def pair_26_3(version=None):
    """The National Uprising (26.3; campaign): declared, then an uprising recruit placed inverted in
    corps III, a VC regiment (A) or a cadre (B); then a VC regiment placed face up in corps II."""
    from afteraction.engine.games.ntnd.components.map import load_map

    from .campaign_states import answer, at_phase, camp
    s = camp("campaign", 12)
    if version is not None:
        s[KEY] = version
    s["scenario"]["features"] = [f for f in s["scenario"]["features"] if f != "aid"]   # as test_ntnd_uprising
    at_phase(s, "c_recruit", faces=[6] * 20)
    answer(s, "communist", cmd("declare_uprising"))
    m = load_map()
    places = [c.ntnd.place for c in RS.legal_commands(s, "communist") if c.ntnd.WhichOneof("action") == "place"]

    def hex_in(corps, kind):
        return next(p.location for p in places if p.kind == kind and m.corps_of(p.location) == corps)
    h3, h2 = hex_in("III", "vc_regiment"), hex_in("II", "vc_regiment")
    assert any(p.kind == "cadre" and p.location == h3 for p in places)
    return (s, "communist", _place("vc_regiment", h3, True, "VC"), _place("cadre", h3, True, "VC"),
            [("communist", _place("vc_regiment", h2, False, "VC"))])


PAIRS = {"4.1.3": pair_4_1_3, "4.1.1": pair_4_1_1, "6.1.1": pair_6_1_1, "27.2": pair_27_2, "26.3": pair_26_3}


@pytest.mark.parametrize("rule", sorted(PAIRS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ntnd_later_public_actions_do_not_tell_earlier_hidden_draws(rule, seed):
    base, seat, a, b, then = PAIRS[rule]()
    assert check_later(base, seat, a, b, then, walk=40, seed=seed) > len(then) + 1


@pytest.mark.parametrize("rule", sorted(PAIRS))
def test_ntnd_later_draws_ntnd_4_keeps_its_naming(rule):
    """ntnd/4 plays as it always did (its golden logs replay byte for byte): there the face-up draw
    after the pair's hidden action names the lowest id of the type left in the mix, so the pair is
    told apart; ntnd/5 (versions.MIX_NAMES) is the version that hides it."""
    base, seat, a, b, then = PAIRS[rule]("4")
    s, p = applied(base, seat, a), applied(base, seat, b)
    x, y = owner_footprint(s, then[0][1], then[0][0]), owner_footprint(p, then[0][1], then[0][0])
    assert x[0] == y[0] == "accepted" and x[1] != y[1]


def test_ntnd_4_4_a_face_up_draw_takes_the_next_public_name_of_its_type():
    """ntnd/5: the n-th face-up draw of a type after the scenario's own counters is ``<type>-<n>``,
    whatever counter of the mix it was; an inverted draw is named after its marker."""
    from .leakcheck import RS
    s = _recruitment()
    n0 = s["meta"]["public_names"]["nva_division"]
    ctx = Context.for_tests()
    s = RS.apply(s, "communist", _nva("nva_division", True), ctx)
    mid = next(ev["marker"] for ev, to in ctx.events if to is None and ev["t"] == "marker")
    assert f"nva-division-{mid.lower()}" in s["units"] and s["units"][f"nva-division-{mid.lower()}"]["inv"]
    ctx = Context.for_tests()
    s = RS.apply(s, "communist", _nva("nva_division", False), ctx)
    ev = next(ev for ev, to in ctx.events if ev.get("t") == "recruit")
    assert ev["unit"] == f"nva-division-{n0 + 1}"
    assert s["units"][ev["unit"]]["name"] == counter_name("nva_division", n0 + 1)
    assert s["meta"]["public_names"]["nva_division"] == n0 + 1


def test_ntnd_5_padded_sizes_hold_the_longest_names_of_the_mix():
    """ntnd/5 renames a counter when it leaves the mix, so any Communist unit may carry a generic name:
    the longest hidden id (a five-digit marker, a second of its type) and the longest public name (a
    four-digit count). A command naming all 109 Communist units and a marker identity holding all 98
    invertible ones must fit ntnd/5's padded sizes; ntnd/4 keeps its own (1856 / 6144)."""
    from afteraction.engine import registry
    from afteraction.engine.crypto.commit import padded_length
    from afteraction.engine.games.ntnd.components.map import load_map
    from afteraction.engine.games.ntnd.rules import NtndRuleset
    from afteraction.engine.games.ntnd.components.scenarios import initial_state
    from afteraction.engine.games.ntnd.components.pieces import load_counters
    from afteraction.v1 import envelope_pb2

    def _envelope_value(command, seat):
        """A sealed command's value at the largest counters a 3-byte varint holds (as
        tests/engine/test_sealed_lengths.py bounds ntnd/4's)."""
        env = envelope_pb2.CommandEnvelope(game_id="0" * 16, seat=seat, counter=2**21 - 1, state_seq=2**21 - 1,
                                           command=command)
        return {"env": env.SerializeToString(), "sig": bytes(64)}
    m, c = load_map(), load_counters()
    loc = max(list(m.hexes) + list(m.zones), key=len)
    need_cmd, need_ev = {}, {}
    for sc in NtndRuleset.scenarios:
        units = [u for u in initial_state(sc, Context.for_tests())["units"].values() if u["side"] == "communist"]
        ids = [f"{u['type'].replace('_', '-')}-m99999-9" for u in units]
        need_cmd[sc] = max(padded_length(_envelope_value(x, "communist")) for x in (
            cmd("attack", target="LUANG_PRABANG", attackers=ids), cmd("advance", units=ids),
            cmd("losses", units=ids), cmd("invert", location="LUANG_PRABANG", units=ids),
            cmd("move", piece=max(ids, key=len), path=["LUANG_PRABANG"] * 30)))
        inv = [u for u in units if c.type(u["type"]).can_invert]
        need_ev[sc] = padded_length({"t": "marker-identity", "marker": "M99999", "loc": loc, "units": [
            {"id": f"{u['type'].replace('_', '-')}-m99999-9", "type": u["type"], "name": counter_name(u["type"], 9999)}
            for u in inv]})
    assert len(units) == 109 and len(inv) == 98
    assert max(need_cmd.values()) == 2625 and max(need_ev.values()) == 7192
    five, four = registry.get("ntnd", "5").sealed_sizes, registry.get("ntnd", "4").sealed_sizes
    assert max(need_cmd.values()) + 64 <= five["command"]["communist"] < max(need_cmd.values()) + 192
    assert max(need_ev.values()) <= five["event"]["communist"] < max(need_ev.values()) + 1024
    assert four == NtndRuleset.sealed_sizes == {"command": {"communist": 1856}, "event": {"communist": 6144}}


@pytest.mark.parametrize("version", ["4", "5"])
def test_ntnd_5_the_set_up_record_with_every_padded_marker_fits_the_services_record_limit(version):
    """The record the set-up makes holds one padded marker identity per inverted set-up stack (32 in
    Tet and 1968_72): ntnd/5's larger event size (7680) must keep it under the service's limit on a
    record (service/limits.py MAX_RECORD_BYTES, 256 KiB), which 8192 did not (267435 bytes in Tet)."""
    from afteraction.engine import registry
    from afteraction.engine.games.ntnd.rules import NtndRuleset
    from afteraction.engine.local import LocalGame
    from afteraction.service import limits
    worst = 0
    for sc in NtndRuleset.scenarios:
        g = LocalGame.create("ntnd", seed=b"record", scenario=sc, ruleset=registry.get("ntnd", version))
        g.handshake()
        worst = max(worst, max(len(r.raw) for r in g.records))
    assert worst <= limits.MAX_RECORD_BYTES
    assert worst == {"4": 202557, "5": 251709}[version]


# --- an ending in the middle of the Communist recruitment ----------------------

def _public(rec) -> list:
    """What a spectator reads in a record before the game's end opens the secrets: its public events
    as they are, a sealed event as its recipient and sizes (its commitment and ciphertext are random
    to the spectator; their lengths are what is public, SPEC.md 6.5)."""
    out = []
    for ev in rec.body.get("events", []):
        if ev.get("t") == "sealed":
            out.append({"sealed": ev["to"], "ct": len(ev["ct"]), "commit": len(ev["commit"])})
        else:
            out.append(ev)
    sealed = rec.body.get("sealed")
    return [rec.body.get("seat"), sealed and len(sealed["ct"]), out]


@pytest.mark.parametrize("ending", ["resign", "agreed draw", "time-out"])
def test_ntnd_an_ending_after_hidden_recruits_shows_a_spectator_nothing_hidden_before_the_end(ending):
    """A Tet game through the real referee: the first NVA recruit placed inverted in China, artillery
    (A) or a SAM (B), then artillery face up; then the game ends (the Allied seat resigns, the seats
    agree a draw, or the Communist seat's time runs out, SPEC.md 8.2) in the middle of the Communist
    recruitment. Every record before the end record, and
    the spectator and Allied views after each action, are the same for A and B (a sealed value by its
    recipient and lengths); the end record publishes the server secret that opens them all."""
    from afteraction.engine.local import LocalGame
    from afteraction.engine.referee import Referee

    seen = []
    for first in ("nva_artillery", "nva_sam"):
        from afteraction.engine import endings
        clock = {"clock": endings.control(decision_ms=60_000), "now": 1_000_000} if ending == "time-out" else {}
        g = LocalGame.create("ntnd", seed=b"tests/ntnd/later-ending", **clock)
        g.handshake()
        views = [canon_view(g.referee)]
        g.play("communist", _nva(first, True))
        views.append(canon_view(g.referee))
        g.play("communist", _nva("nva_artillery", False))
        views.append(canon_view(g.referee))
        before = len(g.records)
        gid = g.referee.game_id
        if ending == "resign":
            g.submit(g.seats["allied"].resign(gid, g.head()))
        elif ending == "time-out":
            g.now = 1_000_000 + 120_000
            g.expire()
        else:
            g.submit(g.seats["allied"].offer(gid, g.head(), None))
            g.submit(g.seats["communist"].accept(gid, g.head(), g.referee.seq - 1, None))
        assert g.referee.ended and isinstance(g.referee, Referee)
        seen.append(([_public(r) for r in g.records[1:before]], views, g.records[-1]))
    (ra, va, end_a), (rb, vb, end_b) = seen
    assert va == vb
    assert canon(ra) == canon(rb)
    assert end_a.body.get("secret") and end_a.body["cause"]["kind"] in ("resign", "agree", "timeout")  # it opens everything


def canon_view(referee) -> str:
    from .leakcheck import canon
    return canon([RS.view(referee.state, None), RS.view(referee.state, "allied")])


def canon(x) -> str:
    from .leakcheck import canon as c
    return c(x)


def test_ntnd_6_2_a_flip_does_not_tell_which_of_two_alike_counters_a_hidden_action_spent():
    """Two face-up VC cadres and a supply unit are inverted into one marker (the public sees which
    went in); the owner promotes one of the cadres, vc-cadre-1 (A) or vc-cadre-2 (B), a hidden choice
    with one footprint; turned face up, the marker shows the cadre left under its old public name."""
    s = blank()
    for u in ("vc-cadre-1", "vc-cadre-2", "sup-ashau"):
        put(s, u, "1812")
    s = at(s, "c_ops")
    s = applied(s, "communist", cmd("invert", location="1812", units=["sup-ashau", "vc-cadre-1", "vc-cadre-2"]))
    mid = next(iter(s["markers"]))
    a = cmd("promote", piece="vc-cadre-1", supply="sup-ashau", to="regiment")
    b = cmd("promote", piece="vc-cadre-2", supply="sup-ashau", to="regiment")
    x, y = owner_footprint(s, a), owner_footprint(s, b)
    assert x[0] == y[0] == "accepted" and x[1:] == y[1:]      # the hidden action itself: one footprint
    s_a, s_b = applied(s, "communist", a), applied(s, "communist", b)
    new = next(iter(s_a["markers"]))
    s_a["phase"]["toggled"], s_b["phase"]["toggled"] = [], []   # the flip comes in a later Operations phase
    x, y = owner_footprint(s_a, cmd("flip", marker=new)), owner_footprint(s_b, cmd("flip", marker=new))
    assert mid != new and x == y


@pytest.mark.parametrize("seed", [1, 2, 4, 5])
def test_ntnd_the_tet_set_up_with_other_marker_contents_walks_the_same_in_public(seed):
    """The Tet set-up and the same set-up with the markers' contents rotated among them
    (leakcheck.perturb: the same public facts), then a seeded walk of 60 actions by both seats through
    the commands both positions offer (not those naming an inverted unit, which stands elsewhere in
    the other): the same public footprint after each, up to the first reveal (the set-up's markers
    next to Allied units flip in the first Allied combat phase, 19.1.2: 10-12 actions with these
    seeds)."""
    from .leakcheck import check_walk, perturb
    s = RS.setup("tet", {}, Context.for_tests())
    p = perturb(s)
    assert p is not None
    assert check_walk(s, p, walk=60, seed=seed) >= 10
