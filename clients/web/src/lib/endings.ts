// The endings every game has, as a browser checks them (SPEC.md 8.1-8.3): the same checks as the
// verifier's (engine/log/endings.py, engine/endings.py, engine/match.py), for the web verifier
// (verifier.ts) and the replay page of `aar view` (through view_lib.ts), from the records alone:
// genesis's optional `match` and `clock` + `at`, each record's time (never decreasing, no seat
// record past a passed deadline), each ending command (its one core event is its signed
// envelope's; an acceptance names the offer of the record right before it, by another seat, for
// the same result), and the end record's cause and outcome.
import type { CommandEnvelope } from "../gen/afteraction/v1/envelope_pb.js";
import { eq, isBytes } from "./bytes.js";
import { encode, type Value } from "./msgpack.js";

type Map_ = { [k: string]: Value };
export const isMap = (v: unknown): v is Map_ => !!v && typeof v === "object" && !Array.isArray(v) && !isBytes(v);
export const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);
/** ``v`` is a map of exactly ``keys`` (SPEC.md 1.3: a key the table does not list is not ignored). */
export const exactKeys = (v: unknown, keys: string[]): v is Map_ =>
  isMap(v) && Object.keys(v).sort().join(",") === [...keys].sort().join(",");
/** The same canonical bytes (a boolean is never an integer, SPEC.md 1.1). */
export const same = (a: Value, b: Value): boolean => eq(encode(a), encode(b));

// engine/endings.py's bounds (SPEC.md 8.2), milliseconds
const SECOND = 1000, DAY = 86_400_000;
export const MAX_TIME_MS = 2 ** 53;
const LIMITS = { decision: 30 * DAY, total: 365 * DAY, abandon: 365 * DAY };

export function controlProblem(c: unknown): string | null {
  if (!exactKeys(c, ["decision", "total", "abandon"]) || !Object.values(c as Map_).every(isInt))
    return "clock is a map of exactly the integers decision, total and abandon (milliseconds)";
  const m = c as { decision: number; total: number; abandon: number };
  for (const k of ["decision", "total"] as const)
    if (m[k] !== 0 && !(SECOND <= m[k] && m[k] <= LIMITS[k])) return `clock.${k} is 0 (none) or ${SECOND}..${LIMITS[k]} ms, not ${m[k]}`;
  if (!(SECOND <= m.abandon && m.abandon <= LIMITS.abandon)) return `clock.abandon is ${SECOND}..${LIMITS.abandon} ms, not ${m.abandon}`;
  return null;
}

export function timeProblem(at: unknown): string | null {
  return isInt(at) && at >= 0 && at <= MAX_TIME_MS ? null : `a time is an integer 0..${MAX_TIME_MS} (milliseconds since the Unix epoch)`;
}

// engine/match.py: Python's str.isprintable (no Unicode category C or Z but the space), lengths in code points
const printable = (s: string) => [...s].every((ch) => ch === " " || !/[\p{C}\p{Z}]/u.test(ch));
const text = (v: unknown, most: number) => typeof v === "string" && [...v].length >= 1 && [...v].length <= most && printable(v) && v === v.trim();
function calendarDate(v: unknown): boolean {
  if (typeof v !== "string" || !/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(v)) return false;
  const [y, m, d] = v.split("-").map(Number);
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  const days = [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  return d <= days;
}

export function matchProblem(m: unknown, seats: string[]): string | null {
  if (!isMap(m) || !Object.keys(m).length || !Object.keys(m).every((k) => ["label", "players", "date"].includes(k)))
    return "match is a map of at least one of label, players, date and no other key";
  if ("label" in m && !text(m.label, 128)) return "match label: 1-128 printable characters without surrounding spaces";
  if ("players" in m) {
    const p = m.players;
    if (!isMap(p) || !Object.keys(p).length) return "match players: a non-empty map of seat to name";
    for (const [s, name] of Object.entries(p)) {
      if (!seats.includes(s)) return `match players: ${s.slice(0, 64)} is not a seat of this game`;
      if (!text(name, 64)) return `match players: ${s}'s name: 1-64 printable characters without surrounding spaces`;
    }
  }
  if ("date" in m && !calendarDate(m.date)) return "match date: YYYY-MM-DD, a calendar date";
  return null;
}

/** The outcome of an engine ending (SPEC.md 8.3's table): exactly winner and reason. */
export function endingOutcome(cause: Map_, seats: string[]): Map_ {
  const other = (s: Value) => { const r = seats.filter((x) => x !== s); return r.length === 1 ? r[0] : null; };
  if (cause.kind === "resign") return { winner: other(cause.seat), reason: `seat ${String(cause.seat)} resigned` };
  if (cause.kind === "agree") {
    const w = cause.winner;
    return { winner: w, reason: w === null ? "agreed draw" : `agreed result: seat ${String(w)} wins` };
  }
  if (cause.kind === "timeout") return { winner: other(cause.seat), reason: `seat ${String(cause.seat)} ran out of time (${String(cause.control)} limit)` };
  return { winner: null, reason: "abandoned: no seat acted within the limit (no result)" };
}

const CAUSE_KEYS: Record<string, string[]> = {
  resign: ["kind", "seat"], agree: ["kind", "offer", "winner"],
  timeout: ["kind", "seat", "control", "since", "deadline"], abandon: ["kind", "since", "deadline"],
};

/** What an ending envelope asks (SPEC.md 8.1), in the terms of no decoder in particular (the web
 * client reads envelopes with protobuf-es, the replay page with its own reader): its kind (null:
 * the envelope names none), an acceptance's offer, and the result an offer or acceptance names
 * ("" or absent: a draw). */
export interface EndingCommand { kind: "resign" | "offer" | "accept" | null; offer?: number; winner?: string }

/** A protobuf-es envelope's ending command, null if it is no ending. */
export function endingCommand(env: CommandEnvelope | null): EndingCommand | null {
  if (!env || env.action.case !== "ending") return null;
  const e = env.action.value.kind;
  if (e.case === "resign") return { kind: "resign" };
  if (e.case === "offer") return { kind: "offer", winner: e.value.winner };
  if (e.case === "accept") return { kind: "accept", offer: Number(e.value.offer), winner: e.value.winner };
  return { kind: null };
}

/** The one core event of seat ``seat``'s ending command (SPEC.md 1.4, 8.1), null without a kind. */
export function endingEvent(seat: string, e: EndingCommand): Map_ | null {
  if (e.kind === "resign") return { t: "resign", seat };
  if (e.kind === "offer") return { t: "offer", seat, winner: e.winner || null };
  if (e.kind === "accept") return { t: "accept", seat, offer: e.offer ?? 0, winner: e.winner || null };
  return null;
}

/** SPEC.md 8.2's arithmetic over the records' `at` (engine/endings.py Clock). */
export class Clock {
  since: [number, number] | null = null;
  used: Record<string, number> = {};
  acted: [number, number];
  constructor(readonly decision: number, readonly total: number, readonly abandon: number, public lastAt: number) {
    this.acted = [0, lastAt];
  }
  /** [deadline, control] of the seat's pending game decision, or null (no limit, not started). */
  timeout(seat: string): [number, string] | null {
    if (!this.since || !(this.decision || this.total)) return null;
    const at = this.since[1], d: [number, string][] = [];
    if (this.decision) d.push([at + this.decision, "decision"]);
    if (this.total) d.push([at + this.total - (this.used[seat] ?? 0), "total"]);
    d.sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : 1));   // a tie: "decision"
    return d[0];
  }
  abandonDeadline(): number { return this.acted[1] + this.abandon; }
}

export type Fail = (step: string, m: string) => never;

/** The browser's half of engine/log/endings.py EndingsCheck. */
export class EndingsCheck {
  readonly v2: boolean;
  readonly clock: Clock | null;
  readonly stand: boolean;                        // format >= 3: an offer stands until another seat answers it
  standing = new Map<string, [number, Value]>();   // seat -> (seq, winner) of its standing offer (SPEC.md 8.1)
  tail = new Map<number, [Uint8Array, string | null]>();   // engine/endings.py Offers.tail
  private recOffer: [string, Value] | null = null; // the record being checked is this seat's offer of this winner
  last: Map_ | null = null;                       // the previous record's resign / accept event
  cause: Map_ | null = null;                      // the end record's ({kind: "rules"} when the rules ended it)

  constructor(genesis: { v: number; body: Map_ }, readonly seats: string[], private readonly fail: Fail) {
    this.v2 = genesis.v >= 2;
    this.stand = genesis.v >= 3;
    const c = genesis.body.clock as Map_ | undefined;
    this.clock = this.v2 && c ? new Clock(c.decision as number, c.total as number, c.abandon as number, genesis.body.at as number) : null;
  }

  /** Genesis (step 4): exactly its keys (SPEC.md 1.3), the optional match, clock + at. */
  static genesisKeys(v: number, b: Map_): string[] {
    const keys = ["ruleset", "scenario", "options", "seats", "server", "secret_commit"];
    if (v >= 2) keys.push("sealed_sizes");
    if (v >= 2 && "match" in b) keys.push("match");
    if (v >= 2 && ("clock" in b || "at" in b)) keys.push("clock", "at");
    return keys;
  }

  static genesisProblem(v: number, b: Map_, seats: string[]): string | null {
    if (v < 2) return null;
    if ("match" in b) { const why = matchProblem(b.match, seats); if (why) return "genesis match data: " + why; }
    if ("clock" in b || "at" in b) { const why = controlProblem(b.clock) ?? timeProblem(b.at); if (why) return "genesis clock and at (SPEC.md 8.2): " + why; }
    return null;
  }

  /** (seq, seat, winner) of the latest standing offer (v2: only an offer in the last record). */
  get offer(): [number, string, Value] | null {
    let out: [number, string, Value] | null = null;
    for (const [s, o] of this.standing) if (!out || o[0] > out[0]) out = [o[0], s, o[1]];
    return out;
  }

  /** What envelopeProblem may bind past (format 3). */
  get tailView(): { hashOf(n: number): Uint8Array | null; offerBy(n: number): string | null } {
    return { hashOf: (n) => this.tail.get(n)?.[0] ?? null, offerBy: (n) => this.tail.get(n)?.[1] ?? null };
  }

  /** After every record's checks (engine/endings.py Offers.after): which offers stand. */
  recordDone(seq: number, hash: Uint8Array, seat: string | null): void {
    const o = this.recOffer;
    this.recOffer = null;
    if (o && seat !== null) {
      if (!this.stand) this.standing.clear();
      this.standing.set(seat, [seq, o[1]]);
      this.tail.set(seq, [hash, seat]);
      return;
    }
    for (const s of [...this.standing.keys()]) if (!this.stand || seat === null || s !== seat) this.standing.delete(s);
    this.tail = new Map([[seq, [hash, null]]]);
  }

  /** SPEC.md 1.3: a seat record or end record of a game with a clock also has `at`. */
  bodyKeys(): string[] { return this.clock ? ["at"] : []; }

  /** A public command record whose envelope resigns: the one command that may precede the handshake's end. */
  isResignation(ending: EndingCommand | null): boolean {
    return this.v2 && ending?.kind === "resign";
  }

  private at(body: Map_, step: string): number | null {
    const c = this.clock;
    if (!c) return null;
    const why = timeProblem(body.at);
    if (why) this.fail(step, `record time at (a game with a clock, SPEC.md 8.2): ${why}`);
    const at = body.at as number;
    if (at < c.lastAt) this.fail(step, `times never decrease (SPEC.md 8.2): ${at} after ${c.lastAt}`);
    return at;
  }

  /** Step 6, after the record's own checks: ``ending`` its public envelope's ending command (null:
   * none, or sealed), ``starts`` if this reveal started the game, ``started`` if the game had
   * started before it. */
  seatRecord(seq: number, kind: string, body: Map_, ending: EndingCommand | null, starts: boolean, started: boolean): void {
    const seat = body.seat as string;
    if (this.last) this.fail("8", `a ${String(this.last.t)} ends the game: the end record follows it, not a ${kind} record`);
    const at = this.at(body, "6");
    const c = this.clock;
    if (c && at !== null) {
      if (at > c.abandonDeadline()) this.fail("6", `a seat record after the abandonment deadline ${c.abandonDeadline()} (SPEC.md 8.2)`);
      const t = kind === "command" && !ending ? c.timeout(seat) : null;
      if (t && at > t[0]) this.fail("6", `seat ${seat}'s command after its deadline ${t[0]} (${t[1]} limit, SPEC.md 8.2)`);
    }
    if (ending) {
      const ev = endingEvent(seat, ending);
      if (!ev) this.fail("6", "an ending command carries no kind (resign, offer or accept)");
      if (!same(body.events as Value, [ev])) this.fail("6", "the event of an ending command is its signed envelope's (SPEC.md 8.1)");
      if (ev.t !== "resign" && !started) this.fail("6", `an ${String(ev.t)} before the dice handshake completed (SPEC.md 8.1)`);
      if (ev.t === "offer") {
        if (ev.winner !== null && !this.seats.includes(ev.winner as string)) this.fail("6", `an offer names a seat or a draw, not ${String(ev.winner)}`);
        if (this.stand && this.standing.has(seat)) this.fail("6", `seat ${seat}'s offer stands: one standing offer per seat (v >= 3, SPEC.md 8.1)`);
        this.recOffer = [seat, ev.winner];
      } else {
        const by = [...this.standing].find(([, o]) => o[0] === ev.offer);
        if (ev.t === "accept" && (!by || (!this.stand && ev.offer !== seq - 1) || by[0] === seat || ev.winner !== by[1][1]))
          this.fail("6", "an acceptance names the offer in the record before it, made by the other seat, for the same result (SPEC.md 8.1; format 3: any offer of another seat that stands)");
        this.last = ev;
      }
    }
    if (c && at !== null) {
      c.lastAt = at;
      c.acted = [seq, at];
      if ((kind === "command" && !ending) || starts) {
        if (!starts && c.since) c.used[seat] = (c.used[seat] ?? 0) + at - c.since[1];
        c.since = [seq, at];
      }
    }
  }

  /** Step 8 for the end record: its keys, the record before it, its cause and the outcome of an
   * engine ending (SPEC.md 8, 8.3). Returns the cause ({kind: "rules"} when the rules ended it). */
  end(body: Map_, prevKind: string): Map_ {
    const want = ["secret", "outcome", ...this.bodyKeys(), ...(this.v2 && "cause" in body ? ["cause"] : [])];
    if (!exactKeys(body, want)) this.fail("8", `the end record body has exactly the keys ${want.join(", ")} (SPEC.md 1.3)`);
    const at = this.at(body, "8");
    const last = this.last;
    this.last = null;
    const k = body.cause;
    if (k === undefined) {
      if (last) this.fail("8", `the end after a ${String(last.t)} gives its cause`);
      if (prevKind !== "command") this.fail("8", `an end record follows the command record that ended the game, not a ${prevKind} record (SPEC.md 8)`);
      return (this.cause = { kind: "rules" });
    }
    if (!isMap(k) || typeof k.kind !== "string" || !(k.kind in CAUSE_KEYS) || !exactKeys(k, CAUSE_KEYS[k.kind]))
      this.fail("8", "the cause is a map of one of the shapes of SPEC.md 8.3");
    if (k.kind === "resign") {
      if (!last || last.t !== "resign" || last.seat !== k.seat)
        this.fail("8", `the resignation the cause names is the record before, signed by the resigning seat ${String(k.seat)} (SPEC.md 8.1)`);
    } else if (k.kind === "agree") {
      if (!last || last.t !== "accept" || last.offer !== k.offer || last.winner !== k.winner)
        this.fail("8", `the agreed result is the acceptance in the record before, of the offer ${String(k.offer)} (SPEC.md 8.1)`);
    } else {
      if (last) this.fail("8", `the end after a ${String(last.t)} gives its cause, not ${String(k.kind)}`);
      const c = this.clock;
      if (!c) this.fail("8", `a ${k.kind} needs a time control in genesis (SPEC.md 8.2)`);
      if (k.kind === "timeout") {
        const t = typeof k.seat === "string" && this.seats.includes(k.seat) ? c.timeout(k.seat) : null;
        if (!t || !c.since || k.since !== c.since[0] || k.deadline !== t[0] || k.control !== t[1])
          this.fail("8", "the time-out's control, since and deadline are the ones the declared control and the recorded times give (SPEC.md 8.2)");
        if (t[0] > c.abandonDeadline()) this.fail("8", "a time-out whose deadline is after the abandonment deadline (SPEC.md 8.2)");
      } else if (k.since !== c.acted[0] || k.deadline !== c.abandonDeadline()) {
        this.fail("8", "the abandonment's since and deadline are the last seat record's and the declared limit's (SPEC.md 8.2)");
      }
      if (!(isInt(k.deadline) && at !== null && at > k.deadline)) this.fail("8", `a ${k.kind} is recorded after its deadline ${String(k.deadline)} (SPEC.md 8.2)`);
    }
    if (!same(body.outcome ?? null, endingOutcome(k, this.seats))) this.fail("8", `the outcome of a ${k.kind} is the engine's (SPEC.md 8.3)`);
    return (this.cause = k);
  }
}
