// SPEC.md 7.1: a seat's signed envelope bound to its record, for the web verifier (verifier.ts,
// protobuf-es) and the replay page of `aar view` (its own protobuf reader, through view_lib.ts):
// this game, the record's seat and counter, the action of the record's kind, (v2, or a game
// command) the record's position, (v2) the hash of the record before it.
import { eq, hex, isBytes } from "./bytes.js";

/** What the checks read of an envelope, whichever decoder read it: ``action`` the case of its
 * oneof (entropyCommit, entropyReveal, command, ending), or undefined. */
export interface EnvelopeFields {
  gameId: string; seat: string; counter: bigint | number; stateSeq: bigint | number; prev: Uint8Array; action: string | undefined;
}

/** The seat records' kinds and the envelope action of each (a v2 game command may also be an ending). */
export const KIND_ACTION: Record<string, string> = { commit: "entropyCommit", reveal: "entropyReveal", command: "command" };
const sameInt = (a: bigint | number, b: number): boolean => (typeof a === "bigint" || typeof a === "number") && String(a) === String(b);

/** The records an envelope of format 3 may be bound before (SPEC.md 8.1, engine/endings.py Offers):
 * the hash of record ``n`` and the seat whose offer it is (null: not an offer), for the last record
 * that is not an offer and the offers after it. */
export interface Tail { hashOf(n: number): Uint8Array | null; offerBy(n: number): string | null }

/** Why ``env`` is not the envelope of the ``kind`` record at ``seq`` of ``game`` (format ``v``) by
 * ``seat`` with counter ``ctr``, right after the record whose hash is ``prev``; null if it is. From
 * format 3, with ``tail``, the envelope may be bound before other seats' offers only (the rule of
 * engine/endings.py position_problem). */
export function envelopeProblem(env: EnvelopeFields, game: string, v: number, kind: string, seq: number,
                                seat: string, ctr: number, prev: Uint8Array, tail?: Tail): string | null {
  const v2 = v >= 2;
  const action = kind === "command" && v2 && env.action === "ending" ? "ending" : KIND_ACTION[kind];
  if (env.gameId !== game || env.seat !== seat || !sameInt(env.counter, ctr) || env.action !== action)
    return "the envelope names another game, seat, counter or action than its record";
  const s = Number(env.stateSeq);
  let skip = v >= 3 && !!tail && Number.isSafeInteger(s) && s >= 1 && s < seq;
  for (let n = s; skip && n < seq; n++) { const o = tail!.offerBy(n); if (o === null || o === seat) skip = false; }
  if ((v2 || kind === "command") && !sameInt(env.stateSeq, seq) && !skip) return `the envelope is for another state than ${seq}`;
  const want = skip ? tail!.hashOf(s - 1) : prev;
  if (v2 && !(isBytes(env.prev) && want && eq(env.prev, want)))
    return `the envelope is bound to another history (SPEC.md 7.1): its prev is not the hash of record ${(skip ? s : seq) - 1} but ${isBytes(env.prev) && env.prev.length ? hex(env.prev).slice(0, 16) + "\u2026" : "missing"}`;
  return null;
}
