// What the replay page of `aar view` takes from this library (built into ../cli/view_lib.js as the
// global aarLib by build.mjs): bytes, HMAC with SPEC.md's tags, the log's hashes and commitments
// (derive.ts), SPEC.md 7.4's Ed25519 rule, the seat cosignatures of SPEC.md 4.5
// the opening of sealed values with the published secret (SPEC.md 6.2, 6.5), canonical msgpack
// (SPEC.md 1.1), a record's bytes as a record and its events' shapes (SPEC.md 1.2, 1.4: record.ts), genesis's body and its sealed
// sizes (1.3, 6.5: genesis.ts), the server's verifier key, the checkpoints it signs and the Merkle tree (SPEC.md 4: crypto.ts)
// the entropy handshake (SPEC.md 5.2: handshake.ts, through pageHandshake and marked) and the
// endings every game has (SPEC.md 8.1-8.3: endings.ts, through PageEndings).
import { EndingsCheck, type EndingCommand } from "./lib/endings.js";
import type { Value } from "./lib/msgpack.js";
import type { EnvelopeFields } from "./lib/envelope.js";
import { Handshake } from "./lib/handshake.js";

export { keyProblem, pointCheck, signatureProblem, verifySignature } from "./lib/ed25519.js";
export { seatCosignatures } from "./lib/cosign.js";
export { openSealed } from "./lib/aead.js";
export { CompactTree, ed25519Verify, openCheckpoint, parseVkey, taggedHmac } from "./lib/crypto.js";
export { commandMessage, recordHash, secretCommitment, valueCommitment } from "./lib/derive.js";
export { b64, cat, eq, hex, isBytes, lp, td, u32, u64, utf8 } from "./lib/bytes.js";
export { decode, encode, strictDecode } from "./lib/msgpack.js";
export { eventProblem, hiddenCoreEvent, placementProblem, readRecord } from "./lib/record.js";
export { gameOrigin, genesisProblem, sealedLength } from "./lib/genesis.js";
export { envelopeProblem } from "./lib/envelope.js";
export { exactKeys, isMap } from "./lib/endings.js";
export { h, picture, svg } from "./lib/dom.js";

type Map_ = { [k: string]: Value };
/** The page's way of reporting a check: on its record, passed (true) or failed (false). */
type Mark = (seq: number, ok: boolean, what: string) => void;
class Refused extends Error {}
const refuse = (m: string): never => { throw new Refused(m); };

/** Runs a check written the web verifier's way (it throws at a refusal) the page's way: a refusal
 * is marked on record ``seq`` and the page goes on; ``ok``, if given, is marked when it passes. */
export async function marked(mark: Mark, seq: number, check: () => unknown, ok?: string): Promise<boolean> {
  try { await check(); } catch (e) {
    if (!(e instanceof Refused)) throw e;
    mark(seq, false, e.message);
    return false;
  }
  if (ok) mark(seq, true, ok);
  return true;
}

/** handshake.ts's Handshake for the page, whose refusals ``marked`` marks. */
export const pageHandshake = (game: string, genesis: { v: number; body: Map_; hash: Uint8Array }, seats: string[]): Handshake =>
  new Handshake(game, genesis, seats, refuse);

/** An envelope as the page's own protobuf reader gives it (fields by their proto names; a message
 * present but empty is {}) to what endings.ts asks of it; null: no ending. */
function pageEnding(env: Map_ | null): EndingCommand | null {
  const e = env?.ending as { resign?: object; offer?: Map_; accept?: Map_ } | undefined;
  if (!e) return null;
  if (e.resign) return { kind: "resign" };
  if (e.offer) return { kind: "offer", winner: e.offer.winner as string | undefined };
  if (e.accept) return { kind: "accept", offer: Number(e.accept.offer ?? 0), winner: e.accept.winner as string | undefined };
  return { kind: null };
}

const ACTIONS: Record<string, string> = { entropy_commit: "entropyCommit", entropy_reveal: "entropyReveal", command: "command", ending: "ending" };
/** An envelope as the page's reader gives it to what envelope.ts reads of it (proto3: a field at
 * its default is absent). */
export function pageEnvelope(env: Map_): EnvelopeFields {
  return {
    gameId: (env.game_id ?? "") as string, seat: (env.seat ?? "") as string, counter: (env.counter ?? 0) as number,
    stateSeq: (env.state_seq ?? 0) as number, prev: (env.prev ?? new Uint8Array(0)) as Uint8Array,
    action: Object.keys(ACTIONS).filter((k) => k in env).map((k) => ACTIONS[k]).join("+") || undefined,
  };
}

/** endings.ts's EndingsCheck the page's way: the web verifier stops at its first failed check, the
 * page marks it on its record (endings.ts's message) and goes on to the next record. */
export class PageEndings {
  readonly check: EndingsCheck;
  constructor(genesis: { v: number; body: Map_ }, seats: string[], private readonly mark: Mark) {
    this.check = new EndingsCheck(genesis, seats, (_step, m) => refuse(m));
  }

  private run(seq: number, f: () => void): boolean {
    try { f(); return true; } catch (e) {
      if (!(e instanceof Refused)) throw e;
      this.mark(seq, false, e.message);
      return false;
    }
  }

  /** The keys a seat or end body of this game has beyond its own (SPEC.md 1.3). */
  get bodyKeys(): string[] { return this.check.bodyKeys(); }
  isResignation(env: Map_ | null): boolean { return this.check.isResignation(pageEnding(env)); }

  /** A seat record, after the page's own checks of it; ``env`` its decoded public envelope or null. */
  seat(seq: number, kind: string, body: Map_, env: Map_ | null, starts: boolean, started: boolean): void {
    const ending = pageEnding(env);
    if (this.run(seq, () => this.check.seatRecord(seq, kind, body, ending, starts, started)) && (this.check.clock || ending))
      this.mark(seq, true, (this.check.clock ? "the record's time: the server's, never before the previous record's, no deadline passed (SPEC.md 8.2)" : "")
                + (this.check.clock && ending ? "; " : "") + (ending ? `the ${String(ending.kind)}: its event is its signed envelope's, in its place (SPEC.md 8.1)` : ""));
    this.check.recordDone(seq, new Uint8Array(0), typeof body.seat === "string" ? body.seat : null);   // which offers stand (v3)
  }

  /** What a format-3 envelope may be bound past (envelope.ts Tail): ``hashes[n]`` the page's hash of record n. */
  tail(hashes: (n: number) => Uint8Array | null): { hashOf(n: number): Uint8Array | null; offerBy(n: number): string | null } {
    return { hashOf: hashes, offerBy: (n) => this.check.tail.get(n)?.[1] ?? null };
  }

  /** The end record: its keys, the record before it, its cause and outcome (SPEC.md 8, 8.3); the cause, or null if refused. */
  end(seq: number, body: Map_, prevKind: string): Map_ | null {
    let cause: Map_ | null = null;
    if (this.run(seq, () => { cause = this.check.end(body, prevKind); }))
      this.mark(seq, true, `the end record's keys, its place and its cause (${String(cause!.kind)}) and outcome (SPEC.md 8, 8.3)`);
    return cause;
  }
}
