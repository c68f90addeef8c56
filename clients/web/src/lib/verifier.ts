// The log as one browser seat (or a spectator) verifies it, record by record, as the reference
// Python client does with the verifier of `aar verify` without the secret or a replay
// (engine/log/verify.py, SPEC.md 10 steps 2-8): canonical bytes and exactly the record's keys, the
// hash chain, the genesis naming this game, this seat's key, the pinned server key and its origin,
// every body's exact keys, every checkpoint's server signature, size and Merkle root, seats'
// signatures, counters and envelopes (one encoding, the action of the record's kind, bound to the
// history), the entropy handshake and its events, sealed values' sizes, public openings, and the
// endings every game has (SPEC.md 8.1-8.3, endings.ts): times, ending commands, the end's cause.
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { CommandEnvelopeSchema, type CommandEnvelope } from "../gen/afteraction/v1/envelope_pb.js";
import { eq, isBytes } from "./bytes.js";
import { CompactTree, ed25519Verify, openCheckpoint, type ServerKey } from "./crypto.js";
import { commandMessage, recordHash, secretCommitment, valueCommitment } from "./derive.js";
import { seatCosignatures } from "./cosign.js";
import { gameOrigin, genesisProblem, sealedLength } from "./genesis.js";
import { endingCommand, EndingsCheck, exactKeys, isInt, isMap } from "./endings.js";
import { encode, type Value } from "./msgpack.js";
import { eventProblem, hiddenCoreEvent, placementProblem, readRecord, type RawRecord } from "./record.js";
import { envelopeProblem, KIND_ACTION } from "./envelope.js";
import { Handshake } from "./handshake.js";

export class BadLog extends Error { constructor(m: string) { super("the server's log does not verify: " + m); this.name = "BadLog"; } }

type Map_ = { [k: string]: Value };
export interface Rec { seq: number; kind: string; v: number; game: string; body: Map_; hash: Uint8Array }

const bytes32 = (v: unknown): v is Uint8Array => isBytes(v) && v.length === 32;

export class LogVerifier {
  readonly tree = new CompactTree();
  readonly roots: string[] = [];          // roots[n-1]: the Merkle root of records 0..n-1
  prev: Uint8Array = new Uint8Array(32);
  prevKind = "";
  genesis: Rec | null = null;
  origin = "";
  seatKeys: Record<string, Uint8Array> = {};
  seatOrder: string[] = [];
  counters: Record<string, number> = {};
  commitments = new Map<string, Uint8Array>();
  hs: Handshake | null = null;            // SPEC.md 5.2
  ends: EndingsCheck | null = null;       // SPEC.md 8.1-8.3
  ended = false;
  outcome: Value = null;
  cause: Map_ | null = null;              // the end's cause: {kind: "rules"} or SPEC.md 8.3's
  lastCheckpoint = "";
  checked = { records: 0, checkpoints: 0, signatures: 0, openings: 0 };

  /** ``kept``: a checkpoint this seat verified before (SPEC.md 11); the log must reach it with the same root. */
  constructor(readonly server: ServerKey, readonly gameId: string, readonly me?: { seat: string; pub: Uint8Array },
              readonly kept?: string) {}

  get size(): number { return this.tree.size; }
  get started(): boolean { return !!this.hs?.done; }
  get entropyCommits(): Record<string, Uint8Array> { return this.hs?.commits ?? {}; }
  get entropyRevealed(): ReadonlyMap<string, Uint8Array> { return this.hs?.revealed ?? new Map(); }
  /** (seq, seat, winner) of the latest standing offer (v2: the offer in the last record verified; v3: until another seat answers it). */
  get standingOffer(): [number, string, Value] | null { return this.ends?.offer ?? null; }

  private cur = 0;   // the record being checked
  private fail(m: string, seq = this.cur): never { throw new BadLog(`record ${seq}: ${m}`); }

  async add(raw: Uint8Array, note: string): Promise<Rec> {
    const seq = this.size;
    this.cur = seq;
    let r: RawRecord;
    try { r = readRecord(raw, this.genesis?.v ?? null); } catch (e) { this.fail((e as Error).message); }
    const hash = await recordHash(raw);
    if (r.seq !== seq || !eq(r.prev, this.prev)) this.fail("the hash chain is broken (SPEC.md 3)");
    if (r.game !== this.gameId) this.fail(`a record of game ${String(r.game)}, not ${this.gameId}`);
    const rec: Rec = { seq, kind: r.kind, v: r.v, game: r.game, body: r.body, hash };
    if (seq === 0) this.genesisChecks(rec);
    else if (rec.kind === "genesis") this.fail("a second genesis record");
    await this.tree.append(hash);
    this.roots.push(await this.tree.root());
    if (this.kept) {
      let k;
      try { k = await openCheckpoint(this.kept, this.server); } catch { this.fail("the checkpoint this browser kept is not the server's"); }
      if (k.size === this.size && k.root !== this.roots[k.size - 1])
        this.fail(`the log differs from checkpoint ${k.size} this browser kept: the server rewrote its history (SPEC.md 11)`);
    }
    await this.checkCheckpoint(note, seq, true);
    if (seq > 0) await this.bodyChecks(rec);
    if (this.kept && this.ended) {
      const k = await openCheckpoint(this.kept, this.server);
      if (k.size > this.size) this.fail(`the log ended before checkpoint ${k.size} this browser kept`);
    }
    this.ends?.recordDone(seq, hash, rec.kind !== "genesis" && rec.kind !== "end" && typeof rec.body.seat === "string" ? rec.body.seat : null);
    this.prev = hash;
    this.prevKind = rec.kind;
    this.lastCheckpoint = note;
    this.checked.records++;
    return rec;
  }

  private genesisChecks(rec: Rec): void {
    if (rec.kind !== "genesis") this.fail("record 0 is not a genesis");
    const b = rec.body;
    const problem = genesisProblem(rec.v, b);   // genesis.ts: the body's keys, types, seats, sealed sizes, match, clock
    if (problem) this.fail(problem);
    const server = b.server as Map_;
    if (server.vkey !== this.server.vkey) this.fail("genesis names another server key than the one pinned");
    const want = gameOrigin(this.server.name, this.gameId);
    if (server.origin !== want) this.fail(`genesis origin ${String(server.origin)} is not ${want}`);
    for (const s of b.seats as { name: string; key: Uint8Array }[]) {
      this.seatKeys[s.name] = s.key; this.seatOrder.push(s.name); this.counters[s.name] = 0;
    }
    if (this.me && !(this.me.seat in this.seatKeys && eq(this.seatKeys[this.me.seat], this.me.pub)))
      this.fail(`genesis does not list this browser's key for seat ${this.me.seat}`);
    this.origin = want;
    this.genesis = rec;
    this.ends = new EndingsCheck(rec, this.seatOrder, (step, m) => this.fail(`step ${step}: ${m}`));
    this.hs = new Handshake(this.gameId, rec, this.seatOrder, (m) => this.fail(m));
  }

  private ctLength(kind: "command" | "event", seat: unknown, what: string, ct: Uint8Array): void {
    if (this.genesis!.v < 2) return;
    const c = sealedLength(this.genesis!.body.sealed_sizes, kind, seat, ct);   // genesis.ts: SPEC.md 6.5
    if (!c.ok) this.fail(`${what}: ${c.what}`);
  }

  private async bodyChecks(rec: Rec): Promise<void> {
    if (this.ended) this.fail("a record after the end record (SPEC.md 8)");
    const b = rec.body;
    if (rec.kind === "end") return this.endChecks(rec);
    if (!(rec.kind in KIND_ACTION)) this.fail(`unknown record kind ${rec.kind}`);
    const seat = b.seat;
    if (typeof seat !== "string" || !(seat in this.seatKeys) || !isInt(b.ctr)) this.fail("a record of no seat of genesis, or without its counter");
    if (b.ctr !== this.counters[seat] + 1) this.fail(`seat ${seat}'s counter ${String(b.ctr)} does not follow ${this.counters[seat]}`);
    this.counters[seat] = b.ctr;
    if (!Array.isArray(b.events)) this.fail("a record without its event list");
    const v2 = this.genesis!.v >= 2, started = this.started;
    const sealed = "sealed" in b;
    const keys = (sealed ? ["seat", "ctr", "sealed", "events"] : ["seat", "ctr", "env", "sig", "events"]).concat(this.ends!.bodyKeys());
    let env: CommandEnvelope | null = null;
    if (sealed) {
      if (rec.kind !== "command") this.fail("only game commands may be sealed");
      if (!started) this.fail("a game command before the dice handshake completed (SPEC.md 5.2)");
      if (!exactKeys(b, keys)) this.fail(`the ${rec.kind} body has exactly the keys ${keys.join(", ")} (SPEC.md 1.3)`);
      const s = b.sealed;
      if (!exactKeys(s, ["commit", "ct"]) || !bytes32(s.commit) || !isBytes(s.ct)) this.fail("a sealed command is not exactly its commitment and ciphertext");
      this.ctLength("command", seat, "the sealed command", s.ct);
      this.commitments.set(`${rec.seq}:0`, s.commit);
    } else {
      if (!isBytes(b.env) || !isBytes(b.sig)) this.fail("a seat record without its envelope and signature");
      try { env = fromBinary(CommandEnvelopeSchema, b.env); } catch { this.fail("the envelope does not parse"); }
      if (rec.kind === "command" && !started && !this.ends!.isResignation(endingCommand(env))) this.fail("a game command before the dice handshake completed (SPEC.md 5.2)");
      if (!exactKeys(b, keys)) this.fail(`the ${rec.kind} body has exactly the keys ${keys.join(", ")} (SPEC.md 1.3)`);
      const ok = await ed25519Verify(this.seatKeys[seat], b.sig, commandMessage(b.env));
      if (!ok) this.fail(`seat ${seat}'s signature over its envelope does not verify`);
      this.checked.signatures++;
      // v >= 2: one command, one encoding (SPEC.md 7.1): protobuf-es writes fields in number order, as Python's deterministic serialization
      if (v2 && !eq(toBinary(CommandEnvelopeSchema, env, { writeUnknownFields: false }), b.env))
        this.fail("the envelope is not the deterministic protobuf encoding of its fields (SPEC.md 7.1)");
      const bound = envelopeProblem({ ...env, action: env.action.case }, this.gameId, rec.v, rec.kind, rec.seq, seat, b.ctr, this.prev,
                                    this.ends!.tailView);
      if (bound) this.fail(bound);   // envelope.ts: SPEC.md 7.1
      // SPEC.md 5.2: handshake.ts
      if (rec.kind === "commit" && env.action.case === "entropyCommit") this.hs!.commit(rec.seq, seat, env.action.value.commitment, b.events);
      if (rec.kind === "reveal" && env.action.case === "entropyReveal") await this.hs!.reveal(seat, env.action.value.entropy, env.stateSeq, b.events);
    }
    // SPEC.md 1.4: setup's and a game command's events hold no core event of the handshake or an ending
    const first = rec.kind === "commit" ? (b.events as Value[]).length
      : rec.kind === "reveal" ? (!started && this.started ? 2 : 1) : env?.action.case === "ending" ? 1 : 0;
    const misplaced = placementProblem(b.events as Value[], first);
    if (misplaced) this.fail(misplaced);
    this.ends!.seatRecord(rec.seq, rec.kind, b, endingCommand(env), rec.kind === "reveal" && !started && this.started, started);
    await this.events(rec);
  }

  private async events(rec: Rec): Promise<void> {
    const evs = rec.body.events as Value[];
    for (const [i, ev] of evs.entries()) {
      const why = eventProblem(ev, i, this.seatOrder);   // record.ts: SPEC.md 1.4's shapes
      if (why) this.fail(why);
      const e = ev as Map_;
      if (e.t === "sealed") {
        const key = `${rec.seq}:${String(e.k)}`;
        if (this.commitments.has(key)) this.fail(`sealed event ${i} repeats the index ${key}`);
        this.ctLength("event", e.to, `sealed value ${key}`, e.ct as Uint8Array);
        this.commitments.set(key, e.commit as Uint8Array);
      } else if (e.t === "open") {
        const ref = e.ref as number[];
        const c = this.commitments.get(`${ref[0]}:${ref[1]}`);
        if (!c || !eq(c, await valueCommitment(e.salt as Uint8Array, encode(e.value)))) this.fail("a public opening does not match its commitment");
        const core = ref[1] > 0 ? hiddenCoreEvent(e.value) : null;   // k = 0: a sealed command's envelope
        if (core) this.fail(`step 7: opening ${i} publishes a ${core} event as a hidden value (SPEC.md 1.4)`);
      }
    }
  }

  /** Step 8: the end record's keys, cause and outcome (endings.ts), and the secret genesis committed to. */
  private async endChecks(rec: Rec): Promise<void> {
    const b = rec.body;
    this.cause = this.ends!.end(b, this.prevKind);
    const o = b.outcome;
    if (!isMap(o) || !("winner" in o) || typeof o.reason !== "string"
        || !(o.winner === null || (typeof o.winner === "string" && o.winner in this.seatKeys)))
      this.fail("step 8: the outcome is a map with winner (a seat of genesis or nil) and text reason (SPEC.md 1.3)");
    const c = bytes32(b.secret) ? await secretCommitment(this.gameId, b.secret) : null;
    if (!c || !eq(c, this.genesis!.body.secret_commit as Uint8Array)) this.fail("step 8: the end record's secret does not match the genesis commitment (SPEC.md 5.1)");
    this.ended = true;
    this.outcome = o;
  }

  /** SPEC.md 4.5 (cosign.ts): the seats whose cosignature the checkpoint carries, each verified. */
  async cosignatures(note: string, text: string, last: number): Promise<string[]> {
    const origin = this.origin || gameOrigin(this.server.name, this.gameId);
    try {
      return await seatCosignatures(note, text, origin, this.seatOrder, this.seatKeys);
    } catch (e) {
      this.fail((e as Error).message, last);
    }
  }

  /** A checkpoint signed by the server, of this game's origin, whose root is the root of the records verified. */
  async checkCheckpoint(note: string, last = this.size - 1, own = false): Promise<void> {
    let cp;
    try { cp = await openCheckpoint(note, this.server); } catch (e) { this.fail("checkpoint: " + (e as Error).message, last); }
    const origin = this.origin || gameOrigin(this.server.name, this.gameId);
    if (cp.origin !== origin) this.fail("a checkpoint of another origin", last);
    if (cp.size > this.size) this.fail(`a checkpoint of ${cp.size} records, past the ${this.size} verified`, last);
    if (own && cp.size !== this.size) this.fail(`the record's checkpoint is of ${cp.size} records, not ${this.size} (SPEC.md 4.2)`, last);
    if (cp.root !== this.roots[cp.size - 1]) this.fail(`checkpoint ${cp.size}'s root is not the root of the records (a rewritten log)`, cp.size - 1);
    await this.cosignatures(note, cp.text, last);
    if (cp.size === this.size && !own) this.lastCheckpoint = note;   // a record's own: once its body is checked too
    this.checked.checkpoints++;
  }
}
