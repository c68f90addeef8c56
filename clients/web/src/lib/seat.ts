// A seat's work in the browser, as the reference Python client does it (clients/python/client.py):
// every record verified as it arrives (verifier.ts: the checks of `aar verify` without the secret
// or a replay, the endings of SPEC.md 8.1-8.3 included), each private opening checked against its
// public commitment, the entropy handshake (reveal only once every seat's commitment is in the
// verified log, SPEC.md 5.2), envelopes signed only at the end of the log it verified (format v2
// binds that end, SPEC.md 7.1), and the ending commands (resign, offer, accept: SPEC.md 8.1); every
// envelope kept before it is sent and every receipt checked and kept (evidence.ts, SPEC.md 7.5,
// 8.2); no cosignature of a time-out at a position it holds an answer for. The server is trusted no
// more than by a Python seat.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import { type Command } from "../gen/afteraction/v1/command_pb.js";
import { CommandEnvelopeSchema, SignedCommandSchema, type SignedCommand } from "../gen/afteraction/v1/envelope_pb.js";
import { AuditService, GetRecordsRequestSchema } from "../gen/afteraction/v1/audit_service_pb.js";
import {
  GameService, SeatAuthSchema, type Clocks, type LogRecord, type SeatAuth, type SeatOpening, type SubmitCommandResponse,
  type YourDecision, ReceiptSchema, type Receipt,
} from "../gen/afteraction/v1/game_service_pb.js";
import { cat, eq, hex, lp, toB64, u64, utf8 } from "./bytes.js";
import { sha256, type ServerKey } from "./crypto.js";
import { commandMessage, entropyCommitment, valueCommitment } from "./derive.js";
import { strictDecode, type Value } from "./msgpack.js";
import { sign, type SeatKey } from "./keys.js";
import { BadLog, LogVerifier, type Rec } from "./verifier.js";
import { FORMAT_VERSION } from "./record.js";
import { ENDED_FIRST, memoryStore, SeatEvidence } from "./evidence.js";
import { NO_DECISION } from "./receipt.js";

export { BadLog, LogVerifier, type Rec };
export class BadOpening extends Error { constructor(m: string) { super(m); this.name = "BadOpening"; } }
export class RefusedToSign extends Error { constructor(m: string) { super(m); this.name = "RefusedToSign"; } }

export interface Clients { game: Client<typeof GameService>; audit: Client<typeof AuditService> }

export type SeatEvent =
  | { kind: "record"; rec: Rec; raw: LogRecord }
  | { kind: "opening"; seq: number; k: number; value: Value; valueJson: string }
  | { kind: "decision"; decision: YourDecision }
  | { kind: "clocks"; clocks: Clocks }
  | { kind: "ended"; outcome: Value; cause: Value };

// refusals after which the next prompt says what to do: the log moved on (another seat's command,
// or this one's already in); GAME_OVER / TIME_EXPIRED: the game ended first, its end record follows
const TRANSIENT = ["STALE_STATE", "COUNTER_GAP", "COUNTER_REUSED", "LOST_RACE"];

type EndingAction = { case: "resign"; value: object } | { case: "offer"; value: { winner: string } }
  | { case: "accept"; value: { offer: bigint; winner: string } };

/** One seat of one game, played from this browser. */
export class WebSeat {
  readonly v: LogVerifier;
  readonly openings = new Map<string, Value>();
  private lock: Promise<unknown> = Promise.resolve();
  private authTok: SeatAuth | null = null;
  private entropy: Uint8Array;
  private waiters: { seq: number; resolve: (v: null) => void }[] = [];
  onEvent: (e: SeatEvent) => void = () => {};

  cosignedSize = 0;
  /** Where this seat keeps the latest checkpoint it verified (SPEC.md 11); the page uses localStorage. */
  keep: (note: string) => void = () => {};
  /** Where this seat keeps an envelope refused because the game ended first (SPEC.md 8.2: its
   * evidence of an answer at that position, for `aar evidence`); the page uses localStorage. */
  keepRefused: (counter: bigint, signed: SignedCommand) => void = () => {};
  /** Ask for each legal command's name in words with the prompts (YourDecision.names). */
  withNames = false;
  /** Every envelope signed, kept before it is sent, with the server's receipt for it, and the server
   * faults seen (SPEC.md 7.5, 8.2); in memory unless the page gives a store (it keeps them in localStorage). */
  evidence: SeatEvidence;
  /** An answer the server refused for a reason that is not the log moving on (an answer the rules
   * refuse: the error's message names the rule). Return true to be asked the same decision again
   * (the refusal changed nothing: the next answer is signed with the same counter); false (the
   * default) stops the seat with the error. */
  onRefused: (e: unknown, reason: string) => boolean = () => false;

  constructor(readonly clients: Clients, readonly gameId: string, readonly seat: string, readonly key: SeatKey,
              readonly server: ServerKey, entropy?: Uint8Array, kept?: string) {
    this.v = new LogVerifier(server, gameId, { seat, pub: key.publicRaw }, kept);
    this.entropy = entropy ?? crypto.getRandomValues(new Uint8Array(32));
    this.evidence = new SeatEvidence(memoryStore(), seat, gameId);
  }

  get nextSeq(): number { return this.v.size; }
  get committed(): boolean { return this.seat in this.v.entropyCommits; }
  get revealed(): boolean { return this.v.entropyRevealed.has(this.seat); }

  /** One verification at a time: the stream and a submit's reply may bring the same records. */
  private serial<T>(f: () => Promise<T>): Promise<T> {
    const p = this.lock.then(f, f);
    this.lock = p.catch(() => undefined);
    return p;
  }

  seeRecord(r: LogRecord): Promise<void> {
    return this.serial(async () => {
      if (Number(r.seq) < this.nextSeq) return;
      if (Number(r.seq) > this.nextSeq) throw new BadLog(`expected record ${this.nextSeq}, got ${r.seq}`);
      const rec = await this.v.add(r.record, r.checkpoint);
      await this.evidence.seeRecord(rec, this.v.genesis?.v ?? 0);   // SPEC.md 8.2: kept envelopes, a contested end
      this.onEvent({ kind: "record", rec, raw: r });
      this.waiters = this.waiters.filter((w) => (w.seq < this.nextSeq ? (w.resolve(null), false) : true));
      if (rec.kind === "end") this.onEvent({ kind: "ended", outcome: this.v.outcome, cause: this.v.cause });
    });
  }

  seeOpening(o: SeatOpening): Promise<void> {
    return this.serial(async () => {
      const key = `${o.seq}:${o.k}`;
      const want = this.v.commitments.get(key);
      let value: Value;
      try { value = strictDecode(o.value); } catch { throw new BadOpening(`the opening of (${key}) is not canonical`); }
      if (!want || o.salt.length !== 32 || !eq(await valueCommitment(o.salt, o.value), want))
        throw new BadOpening(`the opening of (${key}) does not match its public commitment`);
      this.openings.set(key, value);
      this.v.checked.openings++;
      this.onEvent({ kind: "opening", seq: Number(o.seq), k: o.k, value, valueJson: o.valueJson });
    });
  }

  seeCheckpoint(note: string): Promise<void> {
    return this.serial(async () => { await this.v.checkCheckpoint(note); this.keep(this.v.lastCheckpoint); });
  }

  /** Cosign the last checkpoint this seat verified and give the line to the server (SPEC.md 4.5):
   * once every seat cosigned the final checkpoint, not even the server key's holder can present
   * another log of this game. C2SP tlog-cosignature/v1, as engine/crypto/cosign.py. */
  async cosign(): Promise<string> {
    const note = this.v.lastCheckpoint;
    const text = note.slice(0, note.lastIndexOf("\n\n") + 1);
    const name = `${this.v.origin}/seat/${this.seat}`;
    const ts = Math.floor(Date.now() / 1000);
    const keyId = (await sha256(cat(utf8(name), new Uint8Array([0x0a, 0x04]), this.key.publicRaw))).slice(0, 4);
    const sig = await sign(this.key, cat(utf8(`cosignature/v1\ntime ${ts}\n`), utf8(text)));
    const line = `\u2014 ${name} ${toB64(cat(keyId, u64(ts), sig))}\n`;
    await this.clients.audit.addCosignature({ gameId: this.gameId, seat: this.seat, size: BigInt(this.v.size), line });
    this.cosignedSize = this.v.size;
    return line;
  }

  async catchUp(): Promise<void> {
    for (;;) {
      const res = await this.clients.audit.getRecords(create(GetRecordsRequestSchema, { gameId: this.gameId, fromSeq: BigInt(this.nextSeq) }));
      for (const r of res.records) await this.seeRecord(r);
      if (this.nextSeq >= Number(res.size) || !res.records.length) return;
    }
  }

  async auth(): Promise<SeatAuth> {
    if (this.authTok && Date.now() - Number(this.authTok.issuedAtMs) < 60_000) return this.authTok;
    const t = Date.now(), nonce = crypto.getRandomValues(new Uint8Array(16));
    const msg = cat(utf8("aar1/auth"), new Uint8Array([0]), lp(utf8(this.gameId)), lp(utf8(this.seat)), u64(t), lp(nonce));
    this.authTok = create(SeatAuthSchema, { seat: this.seat, issuedAtMs: BigInt(t), nonce, signature: await sign(this.key, msg) });
    return this.authTok;
  }

  private async signEnvelope(action: { case: "entropyCommit" | "entropyReveal" | "command" | "ending"; value: unknown }): Promise<SignedCommand> {
    if (!this.v.genesis) throw new RefusedToSign(`seat ${this.seat} has verified no record of game ${this.gameId}`);
    if (this.v.genesis.v < FORMAT_VERSION)   // no downgrade (SPEC.md 11): an older format guarantees less
      throw new RefusedToSign(`game ${this.gameId} is written in log format v${this.v.genesis.v}, older than v${FORMAT_VERSION}, `
        + `the newest: this page plays only the newest format (SPEC.md 11 says what an older one does not guarantee)`);
    const v2 = this.v.genesis.v >= 2;
    const env = create(CommandEnvelopeSchema, {
      gameId: this.gameId, seat: this.seat, counter: BigInt(this.v.counters[this.seat] + 1),
      stateSeq: v2 || action.case === "command" ? BigInt(this.nextSeq) : 0n, prev: v2 ? this.v.prev : new Uint8Array(0),
      action: action as never,
    });
    const raw = toBinary(CommandEnvelopeSchema, env);
    const signature = await sign(this.key, commandMessage(raw));
    return create(SignedCommandSchema, { envelope: raw, signature });
  }

  async signCommit(): Promise<SignedCommand> {
    await this.catchUp();
    const g = this.v.genesis!.v >= 2 ? this.v.genesis!.hash : new Uint8Array(0);
    const commitment = await entropyCommitment(this.gameId, this.seat, g, this.entropy);
    return this.signEnvelope({ case: "entropyCommit", value: { commitment } });
  }

  async signReveal(): Promise<SignedCommand> {
    await this.catchUp();
    const missing = this.v.seatOrder.filter((s) => !(s in this.v.entropyCommits));
    if (missing.length) throw new RefusedToSign(`seat ${this.seat} will not reveal its entropy: the log it verified has no entropy commitment of seat ${missing.join(", ")} (SPEC.md 5.2)`);
    return this.signEnvelope({ case: "entropyReveal", value: { entropy: this.entropy } });
  }

  async signCommand(stateSeq: number, command: Command): Promise<SignedCommand> {
    if (stateSeq !== this.nextSeq) await this.catchUp();
    if (stateSeq !== this.nextSeq) throw new RefusedToSign(`asked to sign for state ${stateSeq}, but the verified log ends at ${this.nextSeq}`);
    return this.signEnvelope({ case: "command", value: command });
  }

  // -- the endings every game has (SPEC.md 8.1), out of turn, at the end of the log verified ----
  private async signEnding(kind: EndingAction): Promise<SignedCommand> {
    await this.catchUp();
    if (!this.v.genesis || this.v.genesis.v < 2) throw new RefusedToSign("ending commands need a format version 2 game");
    if (this.v.ended) throw new RefusedToSign(`game ${this.gameId} has ended`);
    return this.signEnvelope({ case: "ending", value: { kind } });
  }

  /** Resign: the game ends at once, the other seat wins. */
  async resign(): Promise<SubmitCommandResponse> {
    return this.submit(await this.signEnding({ case: "resign", value: {} }));
  }

  /** Offer a result (``winner`` a seat, null for a draw), once the game has started; in format 3 it
   * stands until another seat answers it (SPEC.md 8.1). */
  async offer(winner: string | null = null): Promise<SubmitCommandResponse> {
    if (!this.v.started) throw new RefusedToSign("a result is offered only once the game has started (SPEC.md 8.1)");
    return this.submit(await this.signEnding({ case: "offer", value: { winner: winner ?? "" } }));
  }

  /** (seq, seat, winner) of another seat's offer standing in the last record this seat verified, or null. */
  standingOffer(): [number, string, Value] | null {
    const o = this.v.standingOffer;
    return o && o[1] !== this.seat ? o : null;
  }

  /** Accept the offer standing in the last record verified (``offer``: its seq, which it must be). */
  async accept(offer?: number): Promise<SubmitCommandResponse> {
    await this.catchUp();
    const o = this.standingOffer();
    if (!o || (offer !== undefined && offer !== o[0]))
      throw new RefusedToSign(`seat ${this.seat}: no such offer stands in the last record it verified (SPEC.md 8.1)`);
    return this.submit(await this.signEnding({ case: "accept", value: { offer: BigInt(o[0]), winner: (o[2] as string | null) ?? "" } }));
  }

  /** Submit ``signed``, kept before it leaves (SPEC.md 8.2); the server's receipt for it, in the
   * answer or beside a refusal's ErrorInfo, is checked (a missing or bad one is a server fault). */
  async submit(signed: SignedCommand): Promise<SubmitCommandResponse> {
    await this.evidence.keepSent(signed);
    let res: SubmitCommandResponse;
    try {
      res = await this.clients.game.submitCommand({ command: signed });
    } catch (e) {
      const reason = reasonOf(e);
      if (reason && !NO_DECISION.includes(reason))   // a decision on the envelope: it has a receipt
        await this.evidence.checkReceipt(signed, receiptOf(e), reason, this.server.pub);
      throw e;
    }
    await this.evidence.checkReceipt(signed, res.receipt, null, this.server.pub,
                                     res.records.length ? Number(res.records[0].seq) : undefined);
    if (res.records.length && this.nextSeq < Number(res.records[0].seq)) await this.catchUp();
    for (const r of res.records) await this.seeRecord(r);
    for (const o of res.openings) await this.seeOpening(o);
    if (res.checkpoint) await this.seeCheckpoint(res.checkpoint.note);
    return res;
  }

  /** The signed answer to a prompt; null for a prompt the verified log has overtaken, or a
   * handshake step this seat has done (or may not do yet). */
  async decide(d: YourDecision, choose: (d: YourDecision) => Promise<Command | null>): Promise<SignedCommand | null> {
    if (Number(d.stateSeq) < this.nextSeq) return null;
    if (d.decision?.kind === "entropy") {
      if (this.revealed) return null;
      if (!this.committed) return this.signCommit();
      if (this.v.seatOrder.some((s) => !(s in this.v.entropyCommits))) return null;
      return this.signReveal();
    }
    const cmd = await Promise.race([choose(d), this.overtaken(Number(d.stateSeq))]);
    if (cmd === null || Number(d.stateSeq) < this.nextSeq || this.v.ended) return null;
    return this.signCommand(Number(d.stateSeq), cmd);
  }

  /** Follow the game (an authenticated Watch: records, this seat's openings, its prompts, the
   * clocks) to its end, answering each prompt with ``choose`` through SubmitCommand. The stream is
   * read on while ``choose`` waits (a person thinking): another seat's ending command or the
   * game's end overtakes the prompt, ``choose``'s answer is then dropped (return null to drop it
   * yourself). One prompt is answered at a time; a newer one waits. Resumes a broken stream. */
  async play(choose: (d: YourDecision) => Promise<Command | null>, signal?: AbortSignal): Promise<Value> {
    let failures = 0, latest: YourDecision | null = null, running: Promise<void> | null = null, fatal: unknown = null;
    let ctl = new AbortController();
    const answer = () => {
      if (running || !latest || fatal) return;
      const d = latest;
      latest = null;
      running = (async () => {
        const signed = await this.decide(d, choose);
        if (signed && await this.submitRetrying(signed) && !latest) latest = d;   // asked again
      })().catch((e) => { fatal = e; ctl.abort(); }).finally(() => { running = null; answer(); });
    };
    while (!this.v.ended) {
      ctl = new AbortController();
      const stop = () => ctl.abort();
      signal?.addEventListener("abort", stop);
      try {
        const stream = this.clients.game.watch({ gameId: this.gameId, fromSeq: BigInt(this.nextSeq), auth: await this.auth(),
          withNames: this.withNames }, { signal: ctl.signal });
        for await (const m of stream) {
          failures = 0;
          const k = m.kind;
          if (k.case === "record") await this.seeRecord(k.value);
          else if (k.case === "opening") await this.seeOpening(k.value);
          else if (k.case === "checkpoint") await this.seeCheckpoint(k.value.note);
          else if (k.case === "clocks") this.onEvent({ kind: "clocks", clocks: k.value });
          else if (k.case === "yourDecision") {
            this.onEvent({ kind: "decision", decision: k.value });
            latest = k.value;
            answer();
          }
          if (this.v.ended) break;
        }
      } catch (e) {
        if (fatal) throw fatal;
        if (e instanceof BadLog || e instanceof BadOpening || e instanceof RefusedToSign || signal?.aborted) throw e;
        if (++failures > 6) throw e;
        await new Promise((r) => setTimeout(r, 200 * 2 ** failures));
      } finally {
        signal?.removeEventListener("abort", stop);
      }
      if (fatal) throw fatal;
    }
    latest = null;
    await running;   // the end overtook any prompt still open
    if (fatal) throw fatal;
    this.keep(this.v.lastCheckpoint);
    // SPEC.md 8.2: no cosignature of an end that times this seat out where it holds its answer
    if (this.cosignedSize < this.v.size && this.evidence.withheld === null) await this.cosign();
    return this.v.outcome;
  }

  /** Resolves once the verified log has a record at ``seq`` or later (the game moved past a prompt for it). */
  private overtaken(seq: number): Promise<null> {
    if (this.nextSeq > seq || this.v.ended) return Promise.resolve(null);
    return new Promise((resolve) => this.waiters.push({ seq, resolve }));
  }

  /** Submits; true when the answer was refused and the decision is to be asked again (onRefused). */
  private async submitRetrying(signed: SignedCommand): Promise<boolean> {
    try { await this.submit(signed); } catch (e) {
      const reason = reasonOf(e);
      if (ENDED_FIRST.includes(reason)) {   // SPEC.md 8.2: kept as the seat's evidence; the end record follows
        this.keepRefused(fromBinary(CommandEnvelopeSchema, signed.envelope).counter, signed);
        await this.catchUp();
        return false;
      }
      console.warn(`submit refused: ${reason}: ${(e as Error).message}`);
      if (TRANSIENT.includes(reason)) return false;
      if (reason && this.onRefused(e, reason)) return true;
      throw e;
    }
    return false;
  }
}

/** The ErrorInfo reason of a failed call ("" when it has none). */
export function reasonOf(e: unknown): string {
  const err = e as { findDetails?: (s: unknown) => { reason: string }[]; details?: { type: string; value: Uint8Array }[] };
  for (const d of err?.details ?? []) {
    if (d.type === "google.rpc.ErrorInfo" && d.value) {
      // ErrorInfo field 1 (reason) is the first length-delimited field
      const v = d.value;
      if (v[0] === 0x0a) return new TextDecoder().decode(v.subarray(2, 2 + v[1]));
    }
  }
  return "";
}

/** The server's signed receipt a refused SubmitCommand carries beside its ErrorInfo (SPEC.md 7.5), or null. */
export function receiptOf(e: unknown): Receipt | null {
  const err = e as { details?: { type: string; value: Uint8Array }[] };
  for (const d of err?.details ?? []) {
    if (d.type === ReceiptSchema.typeName && d.value) {
      try { return fromBinary(ReceiptSchema, d.value); } catch { return null; }
    }
  }
  return null;
}

export { hex };
