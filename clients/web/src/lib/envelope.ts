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

/** Why ``env`` is not the envelope of the ``kind`` record at ``seq`` of ``game`` (format ``v``) by
 * ``seat`` with counter ``ctr``, right after the record whose hash is ``prev``; null if it is. */
export function envelopeProblem(env: EnvelopeFields, game: string, v: number, kind: string, seq: number,
                                seat: string, ctr: number, prev: Uint8Array): string | null {
  const v2 = v >= 2;
  const action = kind === "command" && v2 && env.action === "ending" ? "ending" : KIND_ACTION[kind];
  if (env.gameId !== game || env.seat !== seat || !sameInt(env.counter, ctr) || env.action !== action)
    return "the envelope names another game, seat, counter or action than its record";
  if ((v2 || kind === "command") && !sameInt(env.stateSeq, seq)) return `the envelope is for another state than ${seq}`;
  if (v2 && !(isBytes(env.prev) && eq(env.prev, prev)))
    return `the envelope is bound to another history (SPEC.md 7.1): its prev is not the hash of record ${seq - 1} but ${isBytes(env.prev) && env.prev.length ? hex(env.prev).slice(0, 16) + "\u2026" : "missing"}`;
  return null;
}
