// A seat's work in the browser, as the reference Python client does it (clients/python/client.py):
// every record verified as it arrives (canonical bytes, hash chain, the genesis naming this game,
// this seat's key, the pinned server key and its origin, every checkpoint's server signature, size
// and Merkle root, seats' signatures, counters and envelopes), each private opening checked against
// its public commitment, the entropy handshake (reveal only once every seat's commitment is in the
// verified log, SPEC.md 5.2), and envelopes signed only at the end of the log it verified (format
// v2 binds that end, SPEC.md 7.1). The server is trusted no more than by a Python seat.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import { type Command } from "../gen/afteraction/v1/command_pb.js";
import { CommandEnvelopeSchema, SignedCommandSchema, type SignedCommand } from "../gen/afteraction/v1/envelope_pb.js";
import { AuditService, GetRecordsRequestSchema } from "../gen/afteraction/v1/audit_service_pb.js";
import {
  GameService, SeatAuthSchema, type LogRecord, type SeatAuth, type SeatOpening, type SubmitCommandResponse,
  type YourDecision,
} from "../gen/afteraction/v1/game_service_pb.js";
import { cat, eq, hex, isBytes, lp, toB64, u64, utf8 } from "./bytes.js";
import { CompactTree, ed25519Verify, openCheckpoint, sha256, taggedHash, type ServerKey } from "./crypto.js";
import { encode, strictDecode, type Value } from "./msgpack.js";
import { sign, type SeatKey } from "./keys.js";

export class BadLog extends Error { constructor(m: string) { super("the server's log does not verify: " + m); this.name = "BadLog"; } }
export class BadOpening extends Error { constructor(m: string) { super(m); this.name = "BadOpening"; } }
export class RefusedToSign extends Error { constructor(m: string) { super(m); this.name = "RefusedToSign"; } }

type Map_ = { [k: string]: Value };
const isMap = (v: unknown): v is Map_ => !!v && typeof v === "object" && !Array.isArray(v) && !isBytes(v);

export interface Rec { seq: number; kind: string; v: number; game: string; body: Map_; hash: Uint8Array }

/** The log as one seat (or a spectator) verifies it, record by record (SPEC.md 10 steps 1-8, no replay). */
export class LogVerifier {
  readonly tree = new CompactTree();
  readonly roots: string[] = [];          // roots[n-1]: the Merkle root of records 0..n-1
  prev: Uint8Array = new Uint8Array(32);
  genesis: Rec | null = null;
  origin = "";
  seatKeys: Record<string, Uint8Array> = {};
  seatOrder: string[] = [];
  counters: Record<string, number> = {};
  commitments = new Map<string, Uint8Array>();
  entropyCommits: Record<string, Uint8Array> = {};
  entropyRevealed = new Set<string>();
  ended = false;
  outcome: Value = null;
  lastCheckpoint = "";
  checked = { records: 0, checkpoints: 0, signatures: 0, openings: 0 };

  /** ``kept``: a checkpoint this seat verified before (SPEC.md 11); the log must reach it with the same root. */
  constructor(readonly server: ServerKey, readonly gameId: string, readonly me?: { seat: string; pub: Uint8Array },
              readonly kept?: string) {}

  get size(): number { return this.tree.size; }

  private fail(m: string, seq = this.size): never { throw new BadLog(`record ${seq}: ${m}`); }

  async add(raw: Uint8Array, note: string): Promise<Rec> {
    const seq = this.size;
    const hash = await taggedHash("aar1/record", raw);
    let r: Value;
    try { r = strictDecode(raw); } catch (e) { this.fail("not canonical msgpack: " + (e as Error).message); }
    if (!isMap(r) || Object.keys(r).sort().join(",") !== "body,game,kind,prev,seq,v" || !isMap(r.body)
        || typeof r.kind !== "string" || typeof r.game !== "string" || !isBytes(r.prev) || typeof r.v !== "number")
      this.fail("not a record of exactly body, game, kind, prev, seq, v (SPEC.md 1.2)");
    if (r.seq !== seq || !eq(r.prev, this.prev)) this.fail("the hash chain is broken (SPEC.md 3)");
    if (r.game !== this.gameId) this.fail(`a record of game ${String(r.game)}, not ${this.gameId}`);
    const rec: Rec = { seq, kind: r.kind, v: r.v, game: r.game, body: r.body, hash };
    if (seq === 0) this.genesisChecks(rec); else await this.bodyChecks(rec);
    await this.tree.append(hash);
    this.roots.push(await this.tree.root());
    this.prev = hash;
    if (this.kept) {
      let k;
      try { k = await openCheckpoint(this.kept, this.server); } catch { this.fail("the checkpoint this browser kept is not the server's"); }
      if (k.size === this.size && k.root !== this.roots[k.size - 1])
        this.fail(`the log differs from checkpoint ${k.size} this browser kept: the server rewrote its history (SPEC.md 11)`);
      if (this.ended && k.size > this.size) this.fail(`the log ended before checkpoint ${k.size} this browser kept`);
    }
    await this.checkCheckpoint(note);
    this.checked.records++;
    return rec;
  }

  private genesisChecks(rec: Rec): void {
    if (rec.kind !== "genesis") this.fail("record 0 is not a genesis");
    const server = rec.body.server;
    if (!isMap(server) || server.vkey !== this.server.vkey) this.fail("genesis names another server key than the one pinned");
    const want = `${this.server.name}/game/${this.gameId}`;
    if (server.origin !== want) this.fail(`genesis origin ${String(server.origin)} is not ${want}`);
    const seats = rec.body.seats;
    if (!Array.isArray(seats)) this.fail("genesis has no seats");
    for (const s of seats) {
      if (!isMap(s) || typeof s.name !== "string" || !isBytes(s.key)) this.fail("a genesis seat is not a name and a key");
      this.seatKeys[s.name] = s.key; this.seatOrder.push(s.name); this.counters[s.name] = 0;
    }
    if (this.me && !(this.me.seat in this.seatKeys && eq(this.seatKeys[this.me.seat], this.me.pub)))
      this.fail(`genesis does not list this browser's key for seat ${this.me.seat}`);
    this.origin = want;
    this.genesis = rec;
  }

  private async bodyChecks(rec: Rec): Promise<void> {
    if (this.ended) this.fail("a record after the end record (SPEC.md 8)");
    const b = rec.body;
    if (rec.kind === "end") { this.ended = true; this.outcome = b.outcome ?? null; return; }
    if (!["commit", "reveal", "command"].includes(rec.kind)) this.fail(`unknown record kind ${rec.kind}`);
    const seat = b.seat;
    if (typeof seat !== "string" || !(seat in this.seatKeys)) this.fail("a record of no seat of genesis");
    if (b.ctr !== this.counters[seat] + 1) this.fail(`seat ${seat}'s counter ${String(b.ctr)} does not follow ${this.counters[seat]}`);
    this.counters[seat] = b.ctr as number;
    const v2 = (this.genesis?.v ?? 1) >= 2;
    if (isMap(b.sealed)) {
      if (!isBytes(b.sealed.commit)) this.fail("a sealed command without its commitment");
      this.commitments.set(`${rec.seq}:0`, b.sealed.commit);
    } else {
      if (!isBytes(b.env) || !isBytes(b.sig)) this.fail("a command without its envelope and signature");
      const ok = await ed25519Verify(this.seatKeys[seat], b.sig, cat(utf8("aar1/command"), new Uint8Array([0]), b.env));
      if (!ok) this.fail(`seat ${seat}'s signature over its envelope does not verify`);
      this.checked.signatures++;
      let env;
      try { env = fromBinary(CommandEnvelopeSchema, b.env); } catch { this.fail("the envelope does not parse"); }
      if (env.gameId !== this.gameId || env.seat !== seat || env.counter !== BigInt(b.ctr as number))
        this.fail("the envelope names another game, seat or counter");
      if ((v2 || rec.kind === "command") && env.stateSeq !== BigInt(rec.seq)) this.fail("the envelope is for another state");
      if (v2 && !eq(env.prev, this.prev)) this.fail("the envelope is bound to another history (SPEC.md 7.1)");
      if (rec.kind === "commit" && env.action.case === "entropyCommit") this.entropyCommits[seat] = env.action.value.commitment;
      if (rec.kind === "reveal" && env.action.case === "entropyReveal") {
        const g = v2 ? this.genesis!.hash : new Uint8Array(0);
        const c = await taggedHash("aar1/seat-entropy", cat(lp(utf8(this.gameId)), lp(utf8(seat)), g, env.action.value.entropy));
        if (!this.entropyCommits[seat] || !eq(c, this.entropyCommits[seat])) this.fail(`seat ${seat}'s entropy does not match its commitment`);
        this.entropyRevealed.add(seat);
      }
    }
    const evs = Array.isArray(b.events) ? b.events : [];
    for (const ev of evs) {
      if (!isMap(ev) || typeof ev.t !== "string") this.fail("an event is not a map with a text t (SPEC.md 1.4)");
      if (ev.t === "sealed") {
        if (!isBytes(ev.commit) || typeof ev.k !== "number") this.fail("a sealed event without its commitment");
        this.commitments.set(`${rec.seq}:${ev.k}`, ev.commit);
      } else if (ev.t === "open") {
        const ref = ev.ref as Value[];
        const c = this.commitments.get(`${String(ref?.[0])}:${String(ref?.[1])}`);
        if (!c || !isBytes(ev.salt) || !eq(c, await taggedHash("aar1/commit", cat(ev.salt, encode(ev.value))))) this.fail("a public opening does not match its commitment");
      }
    }
  }

  /** A checkpoint signed by the server, of this game's origin, whose root is the root of the records verified. */
  async checkCheckpoint(note: string): Promise<void> {
    const last = this.size - 1;   // the checkpoint comes after the last record verified
    let cp;
    try { cp = await openCheckpoint(note, this.server); } catch (e) { this.fail("checkpoint: " + (e as Error).message, last); }
    if (cp.origin !== this.origin) this.fail("a checkpoint of another origin", last);
    if (cp.size > this.size) this.fail(`a checkpoint of ${cp.size} records, past the ${this.size} verified`, last);
    if (cp.root !== this.roots[cp.size - 1]) this.fail(`checkpoint ${cp.size}'s root is not the root of the records (a rewritten log)`, cp.size - 1);
    if (cp.size === this.size) this.lastCheckpoint = note;
    this.checked.checkpoints++;
  }
}

export interface Clients { game: Client<typeof GameService>; audit: Client<typeof AuditService> }

export type SeatEvent =
  | { kind: "record"; rec: Rec; raw: LogRecord }
  | { kind: "opening"; seq: number; k: number; value: Value; valueJson: string }
  | { kind: "decision"; decision: YourDecision }
  | { kind: "ended"; outcome: Value };

/** One seat of one game, played from this browser. */
export class WebSeat {
  readonly v: LogVerifier;
  readonly openings = new Map<string, Value>();
  private lock: Promise<unknown> = Promise.resolve();
  private authTok: SeatAuth | null = null;
  private entropy: Uint8Array;
  onEvent: (e: SeatEvent) => void = () => {};

  cosignedSize = 0;
  /** Where this seat keeps the latest checkpoint it verified (SPEC.md 11); the page uses localStorage. */
  keep: (note: string) => void = () => {};

  constructor(readonly clients: Clients, readonly gameId: string, readonly seat: string, readonly key: SeatKey,
              readonly server: ServerKey, entropy?: Uint8Array, kept?: string) {
    this.v = new LogVerifier(server, gameId, { seat, pub: key.publicRaw }, kept);
    this.entropy = entropy ?? crypto.getRandomValues(new Uint8Array(32));
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
      this.onEvent({ kind: "record", rec, raw: r });
      if (rec.kind === "end") this.onEvent({ kind: "ended", outcome: this.v.outcome });
    });
  }

  seeOpening(o: SeatOpening): Promise<void> {
    return this.serial(async () => {
      const key = `${o.seq}:${o.k}`;
      const want = this.v.commitments.get(key);
      let value: Value;
      try { value = strictDecode(o.value); } catch { throw new BadOpening(`the opening of (${key}) is not canonical`); }
      if (!want || o.salt.length !== 32 || !eq(await taggedHash("aar1/commit", cat(o.salt, o.value)), want))
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

  private async signEnvelope(action: { case: "entropyCommit" | "entropyReveal" | "command"; value: unknown }): Promise<SignedCommand> {
    if (!this.v.genesis) throw new RefusedToSign(`seat ${this.seat} has verified no record of game ${this.gameId}`);
    const v2 = this.v.genesis.v >= 2;
    const env = create(CommandEnvelopeSchema, {
      gameId: this.gameId, seat: this.seat, counter: BigInt(this.v.counters[this.seat] + 1),
      stateSeq: v2 || action.case === "command" ? BigInt(this.nextSeq) : 0n, prev: v2 ? this.v.prev : new Uint8Array(0),
      action: action as never,
    });
    const raw = toBinary(CommandEnvelopeSchema, env);
    const signature = await sign(this.key, cat(utf8("aar1/command"), new Uint8Array([0]), raw));
    return create(SignedCommandSchema, { envelope: raw, signature });
  }

  async signCommit(): Promise<SignedCommand> {
    await this.catchUp();
    const g = this.v.genesis!.v >= 2 ? this.v.genesis!.hash : new Uint8Array(0);
    const commitment = await taggedHash("aar1/seat-entropy", cat(lp(utf8(this.gameId)), lp(utf8(this.seat)), g, this.entropy));
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

  async submit(signed: SignedCommand): Promise<SubmitCommandResponse> {
    const res = await this.clients.game.submitCommand({ command: signed });
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
    const cmd = await choose(d);
    if (cmd === null || Number(d.stateSeq) < this.nextSeq) return null;
    return this.signCommand(Number(d.stateSeq), cmd);
  }

  /** Follow the game (an authenticated Watch: records, this seat's openings, its prompts) to its
   * end, answering each prompt with ``choose`` through SubmitCommand. Resumes a broken stream. */
  async play(choose: (d: YourDecision) => Promise<Command | null>, signal?: AbortSignal): Promise<Value> {
    let failures = 0;
    while (!this.v.ended) {
      try {
        const stream = this.clients.game.watch({ gameId: this.gameId, fromSeq: BigInt(this.nextSeq), auth: await this.auth() }, { signal });
        for await (const m of stream) {
          failures = 0;
          const k = m.kind;
          if (k.case === "record") await this.seeRecord(k.value);
          else if (k.case === "opening") await this.seeOpening(k.value);
          else if (k.case === "checkpoint") await this.seeCheckpoint(k.value.note);
          else if (k.case === "yourDecision") {
            this.onEvent({ kind: "decision", decision: k.value });
            const signed = await this.decide(k.value, choose);
            if (signed) await this.submitRetrying(signed);
          }
        }
      } catch (e) {
        if (e instanceof BadLog || e instanceof BadOpening || e instanceof RefusedToSign || signal?.aborted) throw e;
        if (++failures > 6) throw e;
        await new Promise((r) => setTimeout(r, 200 * 2 ** failures));
      }
    }
    this.keep(this.v.lastCheckpoint);
    if (this.cosignedSize < this.v.size) await this.cosign();
    return this.v.outcome;
  }

  private async submitRetrying(signed: SignedCommand): Promise<void> {
    try { await this.submit(signed); } catch (e) {
      const reason = reasonOf(e);
      console.warn(`submit refused: ${reason}: ${(e as Error).message}`);
      // the log moved on (another seat's command, or this one's already in): the next prompt says what to do
      if (["STALE_STATE", "COUNTER_GAP", "COUNTER_REUSED", "LOST_RACE", "WRONG_HISTORY"].includes(reason)) return;
      throw e;
    }
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

export { hex };
