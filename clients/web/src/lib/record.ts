// SPEC.md 1.2: a record's bytes as a record, for the web verifier (verifier.ts) and the replay page
// of `aar view` (through view_lib.ts): at most 1 MiB of canonical msgpack, a map of exactly the six
// fields of their types, of genesis's format version.
import { isBytes } from "./bytes.js";
import { exactKeys, isInt, isMap } from "./endings.js";
import { strictDecode, type Value } from "./msgpack.js";

export const MAX_RECORD = 2 ** 20;
/** The log format new games are written in (engine/protocol.py FORMAT_VERSION; tests/web/test_web_build.py
 * checks that the two agree): a seat plays no game of an older format (SPEC.md 11). */
export const FORMAT_VERSION = 3;

export interface RawRecord { v: number; seq: number; game: string; kind: string; prev: Uint8Array; body: { [k: string]: Value } }

/** The record ``raw`` holds, or an Error saying why it is none; ``v``: genesis's format version
 * (null for genesis itself, which may be 1, 2 or 3). Its place in the chain is the caller's to check. */
export function readRecord(raw: Uint8Array, v: number | null): RawRecord {
  if (raw.length > MAX_RECORD) throw new Error(`a record of ${raw.length} bytes, over the 1 MiB limit (SPEC.md 1.2)`);
  let r: Value;
  try { r = strictDecode(raw); } catch (e) { throw new Error("not canonical msgpack: " + (e as Error).message); }
  if (!exactKeys(r, ["body", "game", "kind", "prev", "seq", "v"]) || !isMap(r.body) || typeof r.kind !== "string"
      || typeof r.game !== "string" || !(isBytes(r.prev) && r.prev.length === 32) || !isInt(r.v) || !isInt(r.seq))
    throw new Error("not a record of exactly body, game, kind, prev, seq, v of their types (SPEC.md 1.2)");
  if (v === null ? r.v !== 1 && r.v !== 2 && r.v !== 3 : r.v !== v) throw new Error(`format version ${r.v} (SPEC.md 1.2: genesis's, 1, 2 or 3)`);
  return r as unknown as RawRecord;
}

/** SPEC.md 1.4: why event ``i`` of a seat record is not one the log's checks can read, or null: a
 * map with a text t; a sealed value exactly t, to (a seat of ``seats``), k (an integer from 1),
 * commit (32 bytes) and ct (bytes); a public opening exactly t, ref ([seq, k]), salt (32 bytes)
 * and value. Whether the index is new and the opening matches is the caller's to check. */
export function eventProblem(ev: Value, i: number, seats: string[]): string | null {
  if (!isMap(ev) || typeof ev.t !== "string") return `event ${i} is not a map with a text t (SPEC.md 1.4)`;
  if (ev.t === "sealed") {
    if (!exactKeys(ev, ["t", "to", "k", "commit", "ct"]) || typeof ev.to !== "string" || !seats.includes(ev.to))
      return `sealed event ${i} has exactly t, to, k, commit, ct and is for a seat of genesis (SPEC.md 1.4)`;
    if (!isInt(ev.k) || ev.k < 1 || !(isBytes(ev.commit) && ev.commit.length === 32)) return `sealed event ${i} has a bad index or commitment`;
    if (!isBytes(ev.ct)) return `sealed event ${i} has no ciphertext`;
  } else if (ev.t === "open") {
    if (!exactKeys(ev, ["t", "ref", "salt", "value"])) return `opening ${i} has exactly t, ref, salt, value (SPEC.md 1.4)`;
    if (!Array.isArray(ev.ref) || ev.ref.length !== 2 || !ev.ref.every(isInt) || !(isBytes(ev.salt) && ev.salt.length === 32))
      return `opening ${i}'s ref is [seq, k] and its salt 32 bytes (SPEC.md 1.4)`;
  }
  return null;
}

/** SPEC.md 1.4, where core events stand (engine/protocol.py EVENT_PLACES): "commit" a commit record's
 * one event, "reveal" a reveal's first, "start" the second of the reveal that completes the handshake,
 * "ending" the one event of an ending's command record (v >= 2), "play" setup's events (after start)
 * and a game command's, where the ruleset's own events stand too. */
export const EVENT_PLACES: { [t: string]: string } = {
  "entropy-commit": "commit", "entropy-reveal": "reveal", start: "start", resign: "ending", offer: "ending",
  accept: "ending", roll: "play", sealed: "play", open: "play",
};

/** Why an event from ``first`` on in ``events`` stands where it may not (a handshake's or an
 * ending's core event among setup's or a game command's events), or null. */
export function placementProblem(events: Value[], first: number): string | null {
  for (let i = first; i < events.length; i++) {
    const ev = events[i];
    const t = isMap(ev) && typeof ev.t === "string" ? ev.t : null;
    if (t !== null && t in EVENT_PLACES && EVENT_PLACES[t] !== "play")
      return `step 6: event ${i} is a ${t} event, which stands only in its ${EVENT_PLACES[t]} place (SPEC.md 1.4)`;
  }
  return null;
}

/** SPEC.md 1.4: the core type of a hidden value (an opened sealed event's) that is no roll, or null:
 * a hidden value is the ruleset's own event or a roll, never a resignation, a start, an opening... */
export function hiddenCoreEvent(value: Value): string | null {
  const t = isMap(value) && typeof value.t === "string" ? value.t : null;
  return t !== null && t in EVENT_PLACES && t !== "roll" ? t : null;
}
