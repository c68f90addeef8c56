// SPEC.md 1.2: a record's bytes as a record, for the web verifier (verifier.ts) and the replay page
// of `aar view` (through view_lib.ts): at most 1 MiB of canonical msgpack, a map of exactly the six
// fields of their types, of genesis's format version.
import { isBytes } from "./bytes.js";
import { exactKeys, isInt, isMap } from "./endings.js";
import { strictDecode, type Value } from "./msgpack.js";

export const MAX_RECORD = 2 ** 20;

export interface RawRecord { v: number; seq: number; game: string; kind: string; prev: Uint8Array; body: { [k: string]: Value } }

/** The record ``raw`` holds, or an Error saying why it is none; ``v``: genesis's format version
 * (null for genesis itself, which may be 1 or 2). Its place in the chain is the caller's to check. */
export function readRecord(raw: Uint8Array, v: number | null): RawRecord {
  if (raw.length > MAX_RECORD) throw new Error(`a record of ${raw.length} bytes, over the 1 MiB limit (SPEC.md 1.2)`);
  let r: Value;
  try { r = strictDecode(raw); } catch (e) { throw new Error("not canonical msgpack: " + (e as Error).message); }
  if (!exactKeys(r, ["body", "game", "kind", "prev", "seq", "v"]) || !isMap(r.body) || typeof r.kind !== "string"
      || typeof r.game !== "string" || !(isBytes(r.prev) && r.prev.length === 32) || !isInt(r.v) || !isInt(r.seq))
    throw new Error("not a record of exactly body, game, kind, prev, seq, v of their types (SPEC.md 1.2)");
  if (v === null ? r.v !== 1 && r.v !== 2 : r.v !== v) throw new Error(`format version ${r.v} (SPEC.md 1.2: genesis's, 1 or 2)`);
  return r as unknown as RawRecord;
}
