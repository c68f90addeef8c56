// A browser seat's evidence (SPEC.md 7.5, 8.2, 11), as the Python reference client keeps it
// (clients/python/evidence.py): every envelope it signs, kept before it is sent; the server's
// signed receipt for each, checked; the server faults it saw. Kept in a store the page gives
// (localStorage, per game and seat) under the names of the Python client's evidence folder, whose
// bytes `aar evidence` reads: ``sent-<counter>-<hash>.env`` (a serialized SignedCommand),
// ``sent-<counter>-<hash>.receipt`` (a serialized Receipt), ``fault-<n>.txt``.
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { CommandEnvelopeSchema, SignedCommandSchema, type CommandEnvelope, type SignedCommand } from "../gen/afteraction/v1/envelope_pb.js";
import { ReceiptSchema, type Receipt } from "../gen/afteraction/v1/game_service_pb.js";
import { hex, utf8 } from "./bytes.js";
import { ACCEPTED, atPosition, decisionOf, envelopeHash, receiptProblem } from "./receipt.js";
import type { Rec } from "./verifier.js";

/** Refusals after which the end record follows: the refused envelope is the seat's evidence for good. */
export const ENDED_FIRST = ["GAME_OVER", "TIME_EXPIRED"];

/** Where the evidence is kept (the page: localStorage); names are the files ``list`` gives back. */
export interface EvidenceStore {
  put(name: string, bytes: Uint8Array): void;
  drop(name: string): void;
  list(): [string, Uint8Array][];
}

export function memoryStore(): EvidenceStore {
  const m = new Map<string, Uint8Array>();
  return { put: (n, b) => void m.set(n, b), drop: (n) => void m.delete(n), list: () => [...m.entries()] };
}

interface Sent { name: string; signed: SignedCommand; env: CommandEnvelope; receipt: Receipt | null }

export class SeatEvidence {
  readonly sent = new Map<string, Sent>();   // envelope hash (hex) -> what is kept
  readonly faults: string[] = [];
  /** Why this seat does not cosign the final checkpoint (SPEC.md 8.2), or null. */
  withheld: string | null = null;
  onFault: (message: string) => void = () => {};
  private hashes = new Map<number, Uint8Array>();   // seq -> hash of each verified record
  private offers = new Map<number, string>();       // seq -> seat of each verified offer record

  constructor(readonly store: EvidenceStore, readonly seat: string, readonly gameId: string) {
    for (const [name, bytes] of store.list()) {   // what an earlier visit kept (a reload)
      if (name.startsWith("fault-")) { this.faults.push(new TextDecoder().decode(bytes)); continue; }
      if (!name.endsWith(".env")) continue;
      try {
        const signed = fromBinary(SignedCommandSchema, bytes);
        const rb = store.list().find(([n]) => n === name.replace(/\.env$/, ".receipt"));
        const h = name.split("-")[2]?.replace(/\.env$/, "") ?? name;
        this.sent.set(h, { name: name.replace(/\.env$/, ""), signed, env: fromBinary(CommandEnvelopeSchema, signed.envelope),
                           receipt: rb ? fromBinary(ReceiptSchema, rb[1]) : null });
      } catch { /* not ours to read: left as it is */ }
    }
  }

  private static async key(signed: SignedCommand): Promise<[string, CommandEnvelope]> {
    const env = fromBinary(CommandEnvelopeSchema, signed.envelope);
    return [hex(await envelopeHash(signed.envelope)).slice(0, 16), env];
  }

  /** Before ``signed`` is sent: kept (SPEC.md 8.2, the seat's proof that it answered). */
  async keepSent(signed: SignedCommand): Promise<void> {
    const [h, env] = await SeatEvidence.key(signed);
    if (this.sent.has(h)) return;
    const name = `sent-${env.counter}-${h}`;
    this.sent.set(h, { name, signed, env, receipt: null });
    this.store.put(`${name}.env`, toBinary(SignedCommandSchema, signed));
  }

  /** A server fault: told to the person (``onFault``) and kept with what it concerns. */
  fault(message: string, signed?: SignedCommand, receipt?: Receipt | null): void {
    this.faults.push(message);
    let text = `seat ${this.seat} of game ${this.gameId}: ${message}\n`;
    if (signed) text += `envelope: ${hex(toBinary(SignedCommandSchema, signed))}\n`;
    if (receipt) text += `receipt: ${hex(toBinary(ReceiptSchema, receipt))}\n`;
    this.store.put(`fault-${this.faults.length}.txt`, utf8(text));
    this.onFault(message);
  }

  /** Check the server's receipt for ``signed`` against the answer (``code`` null: accepted as record
   * ``seq``; else the refusal's reason): signed by the game's server key, naming this envelope, the
   * same decision and record. A missing or bad one is a server fault; a good one is kept with the
   * envelope (and both dropped after a refusal that does not end the game: nothing left to prove). */
  async checkReceipt(signed: SignedCommand, receipt: Receipt | null | undefined, code: string | null,
                     serverPub: Uint8Array, seq?: number): Promise<Receipt | null> {
    const [h, env] = await SeatEvidence.key(signed);
    let why = await receiptProblem(receipt, serverPub, signed.envelope);
    if (why === null && receipt!.decision !== decisionOf(code))
      why = `it says ${JSON.stringify(receipt!.decision)}, the answer was ${JSON.stringify(decisionOf(code))}`;
    if (why === null && code === null && seq !== undefined && Number(receipt!.seq) !== seq)
      why = `it names record ${receipt!.seq}, the answer record ${seq}`;
    if (why !== null) {
      this.fault(`the server's receipt for envelope ${env.counter} (state ${env.stateSeq}): ${why}`, signed, receipt);
      return null;
    }
    const s = this.sent.get(h);
    if (s) {
      s.receipt = receipt!;
      this.store.put(`${s.name}.receipt`, toBinary(ReceiptSchema, receipt!));
    }
    if (code !== null && !ENDED_FIRST.includes(code)) this.drop(h);
    else if (code === null && this.carried(Number(receipt!.seq), env)) this.drop(h);
    return receipt!;
  }

  private carriedBy = new Map<number, [string, number]>();   // seq -> (seat, counter) of verified seat records
  private carried(seq: number, env: CommandEnvelope): boolean {
    const c = this.carriedBy.get(seq);
    return !!c && c[0] === env.seat && c[1] === Number(env.counter);
  }

  private drop(h: string): void {
    const s = this.sent.get(h);
    if (!s) return;
    this.sent.delete(h);
    this.store.drop(`${s.name}.env`);
    this.store.drop(`${s.name}.receipt`);
  }

  /** After each verified record: an envelope it carries is no longer needed; at an end that times
   * this seat out (or abandons the game) where it holds an answer, ``withheld`` says why it does not cosign. */
  async seeRecord(rec: Rec, v: number): Promise<void> {
    const b = rec.body as Record<string, unknown>;
    this.hashes.set(rec.seq, rec.hash);
    const ev = Array.isArray(b.events) ? b.events[0] as Record<string, unknown> | undefined : undefined;
    if (rec.kind === "command" && ev && ev.t === "offer" && typeof b.seat === "string") this.offers.set(rec.seq, b.seat);
    if (typeof b.seat === "string" && (typeof b.ctr === "number" || typeof b.ctr === "bigint")) this.carriedBy.set(rec.seq, [b.seat, Number(b.ctr)]);
    if (b.seat === this.seat) {
      if (b.env instanceof Uint8Array) this.drop(hex(await envelopeHash(b.env)).slice(0, 16));
      else for (const [h, s] of [...this.sent]) {   // its own sealed command: the one its receipt placed here
        if (s.receipt?.decision === ACCEPTED && Number(s.receipt.seq) === rec.seq && Number(s.env.counter) === Number(b.ctr)) this.drop(h);
      }
    }
    if (rec.kind === "end") {
      const cause = (b.cause ?? {}) as Record<string, unknown>;
      if (cause.kind === "abandon" || (cause.kind === "timeout" && cause.seat === this.seat)) {
        const held = this.heldAt(rec.seq, v);
        if (held) this.withheld = `the log ends seat ${this.seat}'s game by ${String(cause.kind)} at record ${rec.seq}, `
          + `but this seat holds its signed answer for that position (${held}): it does not cosign the final checkpoint `
          + "(SPEC.md 8.2); download the kept evidence and run `aar evidence` on it against the exported log";
      }
    }
  }

  /** The envelopes (and receipts) this seat holds for the position where record ``seq`` stands. */
  heldAt(seq: number, v: number): string {
    const out: string[] = [];
    for (const s of [...this.sent.values()].sort((x, y) => Number(x.env.counter - y.env.counter))) {
      if (atPosition(v, s.env.seat, Number(s.env.stateSeq), s.env.prev, seq,
                     (n) => this.hashes.get(n) ?? null, (n) => this.offers.get(n) ?? null))
        out.push(`envelope ${s.env.counter}` + (s.receipt ? ` with a receipt (${s.receipt.decision} at ${s.receipt.receivedMs} ms)` : " without a receipt"));
    }
    return out.join(", ");
  }
}
