// SPEC.md 5.2: the entropy handshake, for the web verifier (verifier.ts) and the replay page of
// `aar view` (through view_lib.ts): every seat commits once, before any reveal; every seat reveals
// once, after every commitment and (v2) bound to a log that holds them all; each commitment and
// entropy is 32 bytes, each entropy its seat's commitment, each record's events its signed
// envelope's (the last reveal's also the start event).
import { eq } from "./bytes.js";
import { entropyCommitment } from "./derive.js";
import { isMap, same } from "./endings.js";
import type { Value } from "./msgpack.js";

type Map_ = { [k: string]: Value };

export class Handshake {
  readonly commits: Record<string, Uint8Array> = {};
  readonly revealed = new Map<string, Uint8Array>();   // seat -> its entropy, in the order revealed
  committedAt = 0;                                      // the seq after the last seat's commitment
  private readonly start: Value;

  /** ``genesis``: record 0 (its format version, body and hash); ``fail`` reports a refusal (the
   * web verifier stops there; the replay page marks it and goes on, so what a record says is kept
   * before it is checked, and a refusal does not cascade into every later record). */
  constructor(readonly game: string, readonly genesis: { v: number; body: Map_; hash: Uint8Array }, readonly seats: string[],
              private readonly fail: (m: string) => never) {
    const rs = genesis.body.ruleset;
    this.start = { t: "start", game: isMap(rs) ? rs.game : null, scenario: genesis.body.scenario };
  }

  get done(): boolean { return this.seats.length > 0 && this.seats.every((s) => this.revealed.has(s)); }
  private get allCommitted(): boolean { return this.seats.every((s) => s in this.commits); }

  /** A commit record's signed commitment ``c`` by ``seat``, at ``seq``, with the record's events. */
  commit(seq: number, seat: string, c: Uint8Array, events: Value): void {
    if (seat in this.commits || this.revealed.size) this.fail(`entropy commit by ${seat} out of order (SPEC.md 5.2)`);
    this.commits[seat] = c;
    if (this.allCommitted) this.committedAt = seq + 1;
    if (c.length !== 32) this.fail("an entropy commitment of another length than 32 (SPEC.md 5.2)");
    if (!same(events, [{ t: "entropy-commit", seat, commit: c }])) this.fail("the entropy-commit event differs from the signed envelope");
  }

  /** A reveal record's signed entropy ``e`` by ``seat``, its envelope's state ``stateSeq``, the record's events. */
  async reveal(seat: string, e: Uint8Array, stateSeq: bigint | number, events: Value): Promise<void> {
    if (!this.allCommitted || this.revealed.has(seat)) this.fail(`entropy reveal by ${seat} out of order (SPEC.md 5.2)`);
    const v2 = this.genesis.v >= 2;
    if (v2 && BigInt(stateSeq) < BigInt(this.committedAt)) this.fail(`entropy reveal by ${seat} bound to the log before every seat had committed (SPEC.md 5.2)`);
    this.revealed.set(seat, e);
    if (e.length !== 32) this.fail(`entropy revealed by ${seat} of another length than 32 (SPEC.md 5.2)`);
    const c = await entropyCommitment(this.game, seat, v2 ? this.genesis.hash : new Uint8Array(0), e);
    if (!eq(c, this.commits[seat])) this.fail(`seat ${seat}'s entropy does not match its commitment (SPEC.md 5.2)`);
    const want: Value[] = [{ t: "entropy-reveal", seat, entropy: e }];
    if (this.done) want.push(this.start);
    if (!Array.isArray(events) || !same(events.slice(0, want.length), want) || (want.length === 1 && events.length !== 1))
      this.fail("the entropy-reveal/start events differ from the signed envelope (SPEC.md 5.2)");
  }
}
