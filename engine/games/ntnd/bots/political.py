"""No Trumpets No Drums: the political war's bot for the campaign games (``political_bot``; ``ntnd_bot``
below, every seat's demo bot, picks it for every scenario but Tet).

It sees what a player sees: the legal answers and its OWN seat's view (``view_of(seat)``, the same view
the service gives that seat: for the Communist seat its own hidden markers, for the Allied seat only the
public board). It never reads the state or the other seat's view. Military answers are ``campaign_bot``'s
(bots.py), with the political costs of the table kept out of them (below); political answers have a
purpose, valued with the per-turn points of the Hearts and Minds track (7.3.2 / 7.4.2: a Pro-Allied box +1
and Allied Control +2 in the Allied political phase; Pro-Communist -1 and Communist Control -2 in both):

- Allied Hearts and Minds (7.2, 7.2.2): every replacement point, one at a time, to the area whose marker
  gains most from one box (points already allocated this phase counted; in the Communist Control box a
  point moves only on 4-6); Phoenix units (28.4.2) expended where the marker is Pro-Communist or worse;
  corruption (7.2.1) takes the points of the area that gains least; a random event's corps (21) the best.
- Allied policy (3.2.1): Full Vietnamization when offered (24.2: the track bounded 1-249 until the end of
  turn 23, two Communist basic cadres, Communist aid -2, U.S. replacements free of points); never Partial,
  never a reversal (24.4: 300 to win, aid at once); one draft (4.5.2) a year while a South Vietnamese
  corps is not Allied Controlled; no coup (10.5.2: five dice of points against a country not controlled);
  no ZOC across a border (10.2, 10.8); no U.S./SEATO unit bought back (4.2.3: two points), no purchase at
  all while points can move markers (the points are worth more on the track); every arrival placed.
- Allied movement: never into North Vietnam (10.8: ten points a turn) nor a still-neutral country
  (10.2.1: a die of points and a box toward Communist Control), except the secret-war units in Laos
  (10.2.3.1 (2), 28.11.1); under Vietnamization (24.4.6: a point per attack with U.S. or SEATO ground
  units) attacks without them first.
- Communist Hearts and Minds (7.4, 15.3): supply units and cadres expended where a box gains most (a
  marker in the Communist Control box gains nothing; Green Berets and the Allied Control box halve the
  odds), a cadre only while another cadre of its area stays (4.1.1: recruits appear on cadres), never an
  area's last unit (22.4: an area without Communist units is worth 3 points to the Allies).
- The National Uprising (26.1) when it pays: declared once at most one South Vietnamese corps is Allied
  Controlled (26.8: uprising units roll to stay there) and at least two are neutral or worse; otherwise
  from turn 18 on (its twelve cadres and four regiments of 26.3 beat waiting for ever).
- Communist aid (27.2-27.4): always taken, a cadre first (it works the track), then supply, then the
  heaviest unit; inverted when it may be. No face-up NVA unit into a still-neutral country (10.2.1:
  a die of points to the Allies) while another move exists.

Deterministic: every choice is a function of the seed (``Prng``), the legal answers and the seat's view.
"""
from __future__ import annotations

from typing import Callable

from ....bots import Prng
from .military import SEATO_PREFIXES, _action, _nv_hexes, _sv_towns, _without, campaign_bot, group, tet_bot
from ..components.map import load_map
from ..movement.neutrality import SECRET_WAR   # 10.2.3.1 (2), 28.11.1: free in Laos

BOXES = ("communist_control", "pro_communist", "neutral", "pro_allied", "allied_control")   # campaign_data
#: points a turn of an area's marker in each box (7.3.2 Allied phase only; 7.4.2 both political phases)
BOX_VALUE = {"communist_control": -4, "pro_communist": -2, "neutral": 0, "pro_allied": 1, "allied_control": 2}
SV_CORPS = ("I", "II", "III", "IV")
#: what an area's box is worth to the Allied player, in half points a turn: BOX_VALUE doubled, plus in a
#: corps the South Vietnamese replacement halves of 7.3.1 (1 Pro-Allied, 2 Allied Control) and one for
#: the Allied Control box's 1-3 die against every Communist expenditure (7.4) and no guerrillas (7.3.4)
ALLIED_WORTH = {"communist_control": -8, "pro_communist": -4, "neutral": 0, "pro_allied": 2, "allied_control": 5}
ALLIED_WORTH_SV = {"communist_control": -8, "pro_communist": -4, "neutral": 0, "pro_allied": 3, "allied_control": 7}
POOL_ORDER = {"INDOCHINESE": 0, "SV": 1, "SEATO": 2, "US": 3, "EVENT": -1}   # the most restricted pool first
AID_ORDER = ("vc_cadre", "pl_cadre", "kr_cadre", "communist_supply", "nva_tank_regiment", "nva_artillery",
             "nva_sam", "nva_interceptor")
UPRISING_LATE = 18
APPROACH = 3          # Allied units sent next to one Communist-held town in a movement phase
POLITICAL_KINDS = ("hearts", "corruption", "policy", "uprising", "aid", "random_choice", "coup", "reinforce",
                   "partial")


def _area(loc: str | None) -> str | None:
    """The Hearts and Minds area of a location (public map data): a corps I-IV, "LA" or "CA"."""
    if not loc:
        return None
    m = load_map()
    if m.is_zone(loc):
        c = m.zones[loc].country
        return c if c in ("LA", "CA") else None
    h = m.hexes.get(loc)
    if h is None:
        return None
    if h.country == "SV":
        return h.corps
    return h.country if h.country in ("LA", "CA") else None


def _country(loc: str) -> str | None:
    m = load_map()
    if m.is_zone(loc):
        return m.zones[loc].country
    h = m.hexes.get(loc)
    return h.country if h else None


def gain(box: str, toward: str, boxes: int = 1) -> int:
    """Points a turn gained by the side ``toward`` ("allied"/"communist") when a marker in ``box`` moves
    ``boxes`` boxes its way (BOX_VALUE; the Communist gains what the Allies lose)."""
    i = BOXES.index(box)
    j = min(len(BOXES) - 1, i + boxes) if toward == "allied" else max(0, i - boxes)
    d = BOX_VALUE[BOXES[j]] - BOX_VALUE[box]
    return d if toward == "allied" else -d


def political_bot(seed, view_of: Callable[[str], dict]) -> Callable[[str, list], object]:
    """The campaign bot of one seat (or both): ``choose(seat, legal)``; ``view_of(seat)`` that seat's own view."""
    return _PoliticalBot(seed, view_of).choose


class _PoliticalBot:
    """``political_bot``'s memory (the seat's last view and its units' places, the points allocated this
    turn, the units sent toward each Communist-held town) and its policy, one method a decision."""

    def __init__(self, seed, view_of: Callable[[str], dict]):
        tag = seed if isinstance(seed, bytes) else str(seed).encode()
        self.prng = Prng(b"ntnd-political-bot/" + tag)
        self.military = campaign_bot(tag)
        self.view_of = view_of
        self.mem: dict = {"alloc": {}, "alloc_turn": None, "view": None, "pos": {}, "enemy_towns": [], "sent": {}}

    def view(self, seat: str, fresh: bool) -> dict:
        mem = self.mem
        if fresh or mem["view"] is None:
            mem["view"] = self.view_of(seat)
            mem["pos"] = {u["id"]: u["loc"] for u in mem["view"].get("units", []) if u["side"] == seat}
            mem["enemy_towns"] = sorted({u["loc"] for u in mem["view"].get("units", []) if u["side"] != seat
                                         and u["loc"] in _sv_towns() and u["type"] not in ("communist_supply",
                                                                                          "communist_dummy")})
        return mem["view"]

    def pick(self, cands: list):
        return cands[self.prng.below(len(cands))]

    def choose(self, seat: str, legal: list):
        by = group(legal)
        done = by.get("done", [])
        c = (self.allied if seat == "allied" else self.communist)(seat, legal, by, done)
        return c if c is not None else self.military(seat, legal)

    # ---- Allied -----------------------------------------------------------------------------------
    def allied_hearts(self, v: dict, by: dict, done: list):
        mem = self.mem
        if mem["alloc_turn"] != v["turn"]:
            mem["alloc"], mem["alloc_turn"] = {}, v["turn"]
        phoenix = [c for c in by.get("expend", []) if v.get("hm", {}).get(_unit_area(v, c.ntnd.expend.unit))
                   in ("pro_communist", "communist_control")]
        if phoenix:
            return phoenix[0]
        allocs = by.get("allocate", [])
        if not allocs:
            return done[0] if done else None
        value = self._allocation_value(v.get("hm", {}))
        best = max(allocs, key=lambda c: (value(c.ntnd.allocate.area), -c.ntnd.allocate.points,
                                          -POOL_ORDER.get(c.ntnd.allocate.pool, 9), -self.prng.below(64)))
        a = best.ntnd.allocate
        if value(a.area) <= 0 and done:
            return done[0]
        if a.pool != "EVENT":
            mem["alloc"][a.area] = mem["alloc"].get(a.area, 0) + a.points
        return best

    def _allocation_value(self, hm: dict) -> Callable[[str], int]:
        """What one more point allocated to an area is worth (the points already allocated counted)."""
        alloc = self.mem["alloc"]

        def value(area: str) -> int:
            box = hm.get(area, "neutral")
            i = min(len(BOXES) - 1, BOXES.index(box) + alloc.get(area, 0))
            if i == len(BOXES) - 1:
                return 0
            table = ALLIED_WORTH_SV if area in SV_CORPS else ALLIED_WORTH
            g = table[BOXES[i + 1]] - table[BOXES[i]]
            return g // 2 if BOXES[i] == "communist_control" else g   # 7.2.2: moves on 4-6 only
        return value

    def corruption(self, v: dict, by: dict):
        hm = v.get("hm", {})
        allocs = by.get("allocate", [])
        return min(allocs, key=lambda c: (gain(hm.get(c.ntnd.allocate.area, "neutral"), "allied"),
                                          -c.ntnd.allocate.points)) if allocs else None

    def policy(self, v: dict, by: dict, done: list):
        decl = {c.ntnd.declare.kind: c for c in by.get("declare", [])}
        if "full" in decl:
            return decl["full"]                                        # 24.2
        hm = v.get("hm", {})
        weak = any(hm.get(k) != "allied_control" for k in SV_CORPS)
        year = int(v.get("turn_label", "0").split()[-1])
        if "draft" in by and weak and (v.get("draft") or {}).get("year") != year:
            return by["draft"][0]                                      # 4.5.2: the first of a year (4.5.3)
        if done:
            return done[0]
        rest = [c for c in by.get("withdraw", []) + by.get("transfer", [])]
        return self.pick(rest) if rest else None

    def reinforce(self, v: dict, by: dict, legal: list, done: list):
        arriving = {u["id"] for u in v.get("allied_pending", []) if u.get("arrive", 99) <= v["turn"]}
        places = by.get("place", [])
        arrivals = [c for c in places if c.ntnd.place.unit in arriving]
        if arrivals:
            return self.military("allied", arrivals + [c for c in legal if _action(c) not in ("place", "done")])
        others = [c for c in legal if _action(c) not in ("place", "done")]
        if others and (not done or self.prng.below(3) == 0):
            return self.military("allied", others)
        if done:
            return done[0]
        return self.military("allied", [c for c in places if not c.ntnd.place.unit.startswith(SEATO_PREFIXES)]
                             or legal)

    def garrison(self, legal: list, by: dict):
        """22.4, 7.3: a town held by face-up Communists costs points each political phase: units close in
        on it first (APPROACH a town); towns held by Allied units score and keep face-up Communists out:
        then a unit not alone in its town moves into an empty one; a lone garrison stays."""
        towns, pos = _sv_towns(), self.mem["pos"]
        held: dict[str, int] = {}
        for loc in pos.values():
            if loc in towns:
                held[loc] = held.get(loc, 0) + 1

        def lone(c) -> bool:
            loc = pos.get(c.ntnd.move.piece)
            return loc in towns and held.get(loc, 0) <= 1

        keep = [c for c in legal if not (_action(c) == "move" and lone(c))] or legal
        c = self._close_in(keep)
        if c is not None:
            return c, keep
        m, enemy = load_map(), set(self.mem["enemy_towns"])

        def posted(c) -> bool:
            here = pos.get(c.ntnd.move.piece)
            return bool(here) and not m.is_zone(here) and any(m.adjacent(here, t) for t in enemy)
        keep = [c for c in keep if not (_action(c) == "move" and posted(c))] or keep
        fill = [c for c in by.get("move", []) if c.ntnd.move.path and c.ntnd.move.path[-1] in towns
                and not held.get(c.ntnd.move.path[-1]) and not lone(c)]
        return (self._fill_a_town(fill, towns, held) if fill else None), keep

    def _close_in(self, keep: list):
        """22.4: a town held by face-up Communist units costs points every political phase: a move next to
        it (up to APPROACH units a town a phase) for the combat phase; None when there is none."""
        m, sent, pos = load_map(), self.mem["sent"], self.mem["pos"]
        targets = {loc for loc in self.mem["enemy_towns"] if sent.get(loc, 0) < APPROACH}
        near = []
        for c in keep:
            if _action(c) != "move" or not c.ntnd.move.path:
                continue
            dest, here = c.ntnd.move.path[-1], pos.get(c.ntnd.move.piece)
            if m.is_zone(dest) or (here and not m.is_zone(here) and any(m.adjacent(here, t) for t in targets)):
                continue                                  # already next to one: it stays for the attack
            hit = sorted(t for t in targets if m.adjacent(dest, t))
            if hit:
                near.append((c, hit[0]))
        if not near:
            return None
        c, t = near[self.prng.below(len(near))]
        sent[t] = sent.get(t, 0) + 1
        return c

    def _fill_a_town(self, fill: list, towns, held: dict):
        """7.3: an area all of whose towns hold Allied units moves its marker each Allied political phase:
        fill the area closest to complete first."""
        empty: dict[str, int] = {}
        for t in towns:
            if not held.get(t):
                empty[_area(t)] = empty.get(_area(t), 0) + 1
        least = min(empty.get(_area(c.ntnd.move.path[-1]), 99) for c in fill)
        fill = [c for c in fill if empty.get(_area(c.ntnd.move.path[-1]), 99) == least]
        return self.pick(fill)

    def allied(self, seat: str, legal: list, by: dict, done: list):
        kind = _kind(legal)
        if kind in ("hearts", "corruption", "policy", "reinforce", "random_choice") or "choose" in by:
            c = self._allied_political(seat, legal, by, done, kind)
            if c is not _MILITARY:
                return c
        v = self.view(seat, False)
        legal = _allied_filter(v, legal, by)
        if v.get("vietnamization") and "attack" in by:
            nats = {u["id"]: u["nat"] for u in v.get("units", [])}
            cheap = [c for c in legal if _action(c) != "attack" or not any(
                nats.get(x) in ("US", "ROK", "ANZAC", "THAI") for x in c.ntnd.attack.attackers)]
            if cheap and any(_action(c) == "attack" for c in cheap):
                legal = cheap
        c = None
        if "move" in by:
            by = {"move": [x for x in legal if _action(x) == "move"]}
            c, legal = self.garrison(legal, by)
        c = c or self.military(seat, legal)
        if _action(c) == "done":
            self.mem["sent"] = {}
        if _action(c) == "move" and c.ntnd.move.path:
            self.mem["pos"][c.ntnd.move.piece] = c.ntnd.move.path[-1]
        if _action(c) == "done":
            self.mem["view"] = None
        return c

    def _allied_political(self, seat: str, legal: list, by: dict, done: list, kind: str):
        """The Allied answer to a political decision, or _MILITARY when none of these answers it."""
        v = self.view(seat, True)
        if "allocate" in by and not done and not by.get("expend") and _is_corruption(v):
            return self.corruption(v, by)
        if "allocate" in by or ("expend" in by and "done" in by and kind == "hearts"):
            return self.allied_hearts(v, by, done)
        if "declare" in by or "draft" in by or "withdraw" in by:
            return self.policy(v, by, done)
        if "choose" in by:
            hm = v.get("hm", {})
            corps = [c for c in by["choose"] if c.ntnd.choose.choice in SV_CORPS]
            if corps:
                return max(corps, key=lambda c: gain(hm.get(c.ntnd.choose.choice, "neutral"), "allied"))
            return self.pick(by["choose"])
        if "place" in by:
            return self.reinforce(v, by, legal, done)
        return _MILITARY

    # ---- Communist --------------------------------------------------------------------------------
    def communist_hearts(self, v: dict, by: dict, done: list):
        hm = v.get("hm", {})
        mine = _communist_units(v)
        gbs, cadres, present = _communist_presence(v, mine)
        best, score = None, 0
        for c in by.get("expend", []):
            t, loc = mine.get(c.ntnd.expend.unit, ("", None))
            area = _area(loc)
            if area is None:
                continue
            box = hm.get(area, "neutral")
            g = gain(box, "communist") * 2
            if gbs.get(area) or box == "allied_control":
                g //= 2
            if t.endswith("_cadre"):
                if cadres.get(area, 0) < 2:
                    continue
                g -= 1
            if present.get(area, 0) < 2:
                continue                          # 22.4: an area left without Communist units scores +3
            if g > score:
                best, score = c, g
        if best is not None:
            return best
        return done[0] if done else None

    def uprising(self, v: dict, by: dict, done: list):
        hm = v.get("hm", {})
        controlled = sum(1 for k in SV_CORPS if hm.get(k) == "allied_control")
        weak = sum(1 for k in SV_CORPS if hm.get(k) in ("neutral", "pro_communist", "communist_control"))
        if (controlled <= 1 and weak >= 2) or v["turn"] >= UPRISING_LATE or not done:
            return by["declare_uprising"][0]
        return done[0]

    def aid(self, v: dict, by: dict):
        def rank(c) -> tuple:
            a = c.ntnd.aid
            k = AID_ORDER.index(a.kind) if a.kind in AID_ORDER else len(AID_ORDER)
            return (k, not a.inverted, self.prng.below(1 << 16))
        return min(by["aid"], key=rank)

    def communist(self, seat: str, legal: list, by: dict, done: list):
        if "expend" in by or "declare_uprising" in by or "aid" in by:
            v = self.view(seat, True)
            if "declare_uprising" in by:
                return self.uprising(v, by, done)
            if "aid" in by:
                return self.aid(v, by)
            c = self.communist_hearts(v, by, done)
            if c is not None:
                return c
        if "announce_zoc" in by and len(by) > 1:
            legal = _without(legal, by.pop("announce_zoc"))
        v = self.view(seat, False)
        kept = _communist_filter(v, legal, by)
        c = self.military(seat, kept, by if kept is legal else None)
        if _action(c) == "done":
            self.mem["view"] = None
        return c


#: _PoliticalBot._allied_political's "not a political answer": the military bot answers
_MILITARY = object()


def _allied_filter(v: dict, legal: list, by: dict) -> list:
    """Keep out of North Vietnam and still-neutral countries (10.8, 10.2.1) when another answer exists
    (``by``: ``group(legal)``; ``legal`` itself when nothing is kept out)."""
    neutral = set(v.get("neutral", []))
    types = {u["id"]: u["type"] for u in v.get("units", [])}
    nv = _nv_hexes()

    def bad_loc(loc: str, piece: str) -> bool:
        if not loc:
            return False
        if loc in nv:
            return True
        country = _country(loc)
        return country in neutral and not (country == "LA" and types.get(piece) in SECRET_WAR)

    bad = by.get("coup", []) + by.get("announce_zoc", [])
    for c in by.get("move", ()):
        m = c.ntnd.move
        if any(bad_loc(loc, m.piece) for loc in m.path):
            bad.append(c)
    for c in by.get("attack", ()):
        at = c.ntnd.attack
        if bad_loc(at.target, at.attackers[0] if at.attackers else ""):
            bad.append(c)
    if not bad:
        return legal
    return _without(legal, bad) or legal


def _communist_filter(v: dict, legal: list, by: dict) -> list:
    """No face-up NVA unit into a still-neutral country (10.2.1) while another answer exists (``legal``
    itself when none is kept out; ``by``: ``group(legal)``)."""
    neutral = set(v.get("neutral", []))
    if not neutral or "move" not in by:
        return legal
    nva = {u["id"] for u in v.get("units", []) if u["side"] == "communist" and u["nat"] == "NVA"
           and u["type"] != "communist_supply"}
    bad = []
    for c in by["move"]:
        m = c.ntnd.move
        if m.piece in nva and any(_country(x) in neutral for x in m.path if x):
            bad.append(c)
    if not bad or len(bad) == len(legal):
        return legal
    return _without(legal, bad)


def _communist_presence(v: dict, mine: dict) -> tuple[dict, dict, dict]:
    """Per Hearts and Minds area: Allied Green Berets and Phoenix units, the Communist seat's cadres,
    and its units other than dummies."""
    gbs: dict[str, int] = {}
    for u in v.get("units", []):
        if u["side"] == "allied" and u["type"] in ("us_green_beret", "arvn_phoenix"):
            gbs[_area(u["loc"])] = gbs.get(_area(u["loc"]), 0) + 1
    cadres: dict[str, int] = {}
    present: dict[str, int] = {}
    for uid, (t, loc) in mine.items():
        present[_area(loc)] = present.get(_area(loc), 0) + (t != "communist_dummy")
        if t.endswith("_cadre"):
            cadres[_area(loc)] = cadres.get(_area(loc), 0) + 1
    return gbs, cadres, present


def _kind(legal: list) -> str:
    """A guess of the decision's kind from its answers (only to route: the answers decide)."""
    acts = {_action(c) for c in legal}
    if "allocate" in acts:
        return "hearts"
    if acts & {"declare", "draft", "withdraw"}:
        return "policy"
    if "place" in acts:
        return "reinforce"
    return ""


def _is_corruption(v: dict) -> bool:
    d = v.get("decision") or {}
    return d.get("kind") == "corruption"


def _unit_area(v: dict, uid: str) -> str | None:
    for u in v.get("units", []):
        if u["id"] == uid:
            return _area(u["loc"])
    return None


def _communist_units(v: dict) -> dict[str, tuple[str, str | None]]:
    """The Communist seat's own units: face up (public) and in its markers (its ``hidden`` view)."""
    out = {u["id"]: (u["type"], u["loc"]) for u in v.get("units", []) if u["side"] == "communist"}
    locs = {m["id"]: m["loc"] for m in v.get("markers", [])}
    for mid, units in v.get("hidden", {}).items():
        for u in units:
            out[u["id"]] = (u["type"], u.get("loc") or locs.get(mid))
    return out


def ntnd_bot(seed, view_of) -> Callable[[str, list], object]:
    """The demo bot of a seat (NtndRuleset.demo_bot): bots.py's ``tet_bot`` in the Tet scenario,
    ``political_bot`` (campaign_bot's military answers) in every other scenario; the scenario is read
    once from the seat's own view."""
    chosen: list = []

    def choose(seat: str, legal: list):
        if not chosen:
            scenario = view_of(seat).get("scenario", "")
            chosen.append(tet_bot(seed) if scenario.startswith("tet") else political_bot(seed, view_of))
        return chosen[0](seat, legal)

    return choose
