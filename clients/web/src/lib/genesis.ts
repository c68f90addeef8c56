// SPEC.md 1.3's genesis body, as the web verifier (verifier.ts) and the replay page of `aar view`
// (through view_lib.ts) check it before anything is taken from it: exactly its keys, the ruleset
// and server, scenario, options and secret commitment of their types, the seats (each a name and
// a key that passes SPEC.md 7.4's rule, no name or key twice), (v2) the sealed sizes of 6.5, and
// the optional match and time control (endings.ts). Pinning the server key is the caller's.
import { eq, isBytes } from "./bytes.js";
import { keyProblem } from "./ed25519.js";
import { EndingsCheck, exactKeys, isInt, isMap } from "./endings.js";
import type { Value } from "./msgpack.js";

type Map_ = { [k: string]: Value };
export const MAX_SEALED_SIZE = 65536;   // SPEC.md 6.5 (engine/log/genesis.py)
const bytes32 = (v: unknown): v is Uint8Array => isBytes(v) && v.length === 32;

/** SPEC.md 4.2: the origin line of a game's checkpoints. */
export const gameOrigin = (serverName: string, game: string): string => `${serverName}/game/${game}`;

/** Why genesis's body (format version ``v``) is not one, or null. */
export function genesisProblem(v: number, b: Map_): string | null {
  const keys = EndingsCheck.genesisKeys(v, b);
  if (!exactKeys(b, keys)) return `the genesis body has exactly the keys ${keys.join(", ")} (SPEC.md 1.3)`;
  if (!exactKeys(b.server, ["vkey", "origin"]) || !exactKeys(b.ruleset, ["game", "version"])
      || typeof b.ruleset.game !== "string" || typeof b.ruleset.version !== "string"
      || typeof b.server.vkey !== "string" || typeof b.server.origin !== "string")
    return "genesis ruleset and server have exactly their two keys, texts (SPEC.md 1.3)";
  if (typeof b.scenario !== "string" || !isMap(b.options) || !bytes32(b.secret_commit)
      || !Object.values(b.options).every((x) => typeof x === "boolean" || typeof x === "string" || isInt(x)))
    return "genesis scenario, options (booleans, integers, texts) or secret_commit of the wrong type (SPEC.md 1.3)";
  const seats = b.seats;
  if (!Array.isArray(seats) || !seats.length) return "genesis has no seats";
  const names: string[] = [], keysSeen: Uint8Array[] = [];
  for (const s of seats) {
    if (!exactKeys(s, ["name", "key"]) || typeof s.name !== "string" || !bytes32(s.key)) return "a genesis seat is not exactly a name and a 32-byte key";
    if (names.includes(s.name)) return `seat ${s.name} twice in genesis`;
    const weak = keyProblem(s.key);
    if (weak !== null) return `seat ${s.name} key is weak: it ${weak} (SPEC.md 7.4)`;
    if (keysSeen.some((k) => eq(k, s.key as Uint8Array))) return `seat ${s.name}'s key is another seat's (SPEC.md 7.4)`;
    names.push(s.name); keysSeen.push(s.key);
  }
  if (v >= 2) {
    const z = b.sealed_sizes;
    const ok = exactKeys(z, ["command", "event"]) && Object.values(z).every((m) => isMap(m)
      && Object.entries(m).every(([s, n]) => names.includes(s) && isInt(n) && n >= 4 && n <= MAX_SEALED_SIZE));
    if (!ok) return `genesis sealed_sizes is {command: {seat: size}, event: {seat: size}}, sizes 4..${MAX_SEALED_SIZE} (SPEC.md 6.5)`;
  }
  return EndingsCheck.genesisProblem(v, b, names);
}

/** SPEC.md 6.5 (v >= 2): whether a sealed value's ciphertext is the size genesis's ``sealedSizes``
 * declares for its kind and seat + 16 bytes (it is public: checked before any secret is known; kind
 * "command" for the seat that sent it, "event" for its ``to``), and the check in words. */
export function sealedLength(sealedSizes: Value, kind: "command" | "event", seat: unknown, ct: unknown): { ok: boolean; what: string } {
  const m = isMap(sealedSizes) ? sealedSizes[kind] : undefined;
  const size = isMap(m) && typeof seat === "string" && Object.prototype.hasOwnProperty.call(m, seat) ? m[seat] : null;
  const ok = isInt(size) && isBytes(ct) && ct.length === size + 16;
  return { ok, what: `ciphertext length ${isBytes(ct) ? ct.length : "?"}${ok ? " = " : " but "}the declared ${kind} size for ${String(seat)}`
                     + `${size === null ? " (none declared)" : " " + String(size)} + 16 (SPEC.md 6.5)` };
}
