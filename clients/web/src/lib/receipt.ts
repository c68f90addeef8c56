// The server's signed receipt for an envelope (SPEC.md 7.5), as engine/receipt.py builds and checks
// it: the browser seat checks every receipt the server gives it (seat.ts), and the place rule of an
// envelope (engine/endings.py position_problem) says which kept envelope answers the position where
// an end record stands (SPEC.md 8.2).
import { fromBinary } from "@bufbuild/protobuf";
import { CommandEnvelopeSchema } from "../gen/afteraction/v1/envelope_pb.js";
import { ReceiptSchema, type Receipt } from "../gen/afteraction/v1/game_service_pb.js";
import { cat, eq, lp, u64, utf8 } from "./bytes.js";
import { taggedHash } from "./crypto.js";
import { verifySignature } from "./ed25519.js";

export const ACCEPTED = "accepted";
export const REFUSED = "refused/";
/** Failures that are no decision on an envelope and carry no receipt (SPEC.md 7.5, engine/receipt.py NO_DECISION). */
export const NO_DECISION = ["INTERNAL", "STORE_UNAVAILABLE", "REQUEST_TOO_LARGE", "FIELD_TOO_LONG", "OUT_OF_RANGE"];

/** Which envelope a receipt is for: SHA-256("aar1/envelope" 0x00 || envelope bytes). */
export const envelopeHash = (envelope: Uint8Array): Promise<Uint8Array> => taggedHash("aar1/envelope", envelope);

/** The receipt's decision for an answer: "accepted" (``code`` null) or "refused/<code>". */
export const decisionOf = (code: string | null): string => (code === null ? ACCEPTED : REFUSED + code);

type ReceiptFields = Pick<Receipt, "gameId" | "seat" | "counter" | "stateSeq" | "prev" | "envelopeHash" | "decision" | "seq" | "receivedMs">;

/** A serialized Receipt (the bytes a receipt file holds). */
export const readReceipt = (bytes: Uint8Array): Receipt => fromBinary(ReceiptSchema, bytes);

/** The bytes the server key signs (SPEC.md 7.5). */
export function receiptMessage(r: ReceiptFields): Uint8Array {
  return cat(utf8("aar1/receipt"), new Uint8Array([0]), lp(utf8(r.gameId)), lp(utf8(r.seat)), u64(r.counter),
    u64(r.stateSeq), lp(r.prev), r.envelopeHash, lp(utf8(r.decision)), u64(r.seq), u64(r.receivedMs));
}

/** Why ``r`` is not a good receipt under ``serverPub`` for ``envelope`` (the bytes sent, when
 * given), or null: its shape, its signature (SPEC.md 7.4), every field naming the envelope. */
export async function receiptProblem(r: Receipt | undefined | null, serverPub: Uint8Array,
                                     envelope?: Uint8Array): Promise<string | null> {
  if (!r) return "no receipt";
  if (r.envelopeHash.length !== 32) return "its envelope_hash is not 32 bytes";
  if (r.decision !== ACCEPTED && !(r.decision.startsWith(REFUSED) && r.decision.length > REFUSED.length))
    return `its decision '${r.decision.slice(0, 40)}' is neither 'accepted' nor 'refused/<CODE>'`;
  if (r.decision !== ACCEPTED && r.seq !== 0n) return "a refusal's receipt names a record";
  if (!(await verifySignature(serverPub, receiptMessage(r), r.signature))) return "its signature does not verify with the server key";
  if (envelope) {
    const e = fromBinary(CommandEnvelopeSchema, envelope);
    if (r.gameId !== e.gameId || r.seat !== e.seat || r.counter !== e.counter || r.stateSeq !== e.stateSeq
        || !eq(r.prev, e.prev) || !eq(r.envelopeHash, await envelopeHash(envelope)))
      return "it names another envelope than the one sent (game, seat, counter, state_seq, prev or hash)";
  }
  return null;
}

/** Whether an envelope of ``seat`` bound to (``stateSeq``, ``prev``) may make record ``seq`` of a
 * format ``v`` game (engine/endings.py position_problem): the same seq, or (v >= 3) only other
 * seats' offers in between; and ``prev`` the hash of record ``stateSeq - 1``. ``hashOf(n)``: the
 * hash of record n (null if unknown); ``offerBy(n)``: the seat whose offer record n is, else null. */
export function atPosition(v: number, seat: string, stateSeq: number, prev: Uint8Array, seq: number,
                           hashOf: (n: number) => Uint8Array | null, offerBy: (n: number) => string | null): boolean {
  if (prev.length !== 32 || stateSeq < 1) return false;
  let skip = stateSeq < seq && v >= 3;
  for (let n = stateSeq; skip && n < seq; n++) { const o = offerBy(n); if (o === null || o === seat) skip = false; }
  if (stateSeq !== seq && !skip) return false;
  const want = hashOf(stateSeq - 1);
  return want !== null && eq(prev, want);
}
