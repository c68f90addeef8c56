// SPEC.md's hashes, commitments and signed messages of a log, each written once for the web
// client (seat.ts signs and commits with them, verifier.ts and aead.ts check them) and the replay
// page of `aar view` (through view_lib.ts): engine/crypto's, in TypeScript.
import { cat, lp, utf8 } from "./bytes.js";
import { tagged, taggedHash } from "./crypto.js";

/** SPEC.md 3: a record's hash, over its canonical bytes. */
export const recordHash = (raw: Uint8Array): Promise<Uint8Array> => taggedHash("aar1/record", raw);

/** SPEC.md 7.1: what a seat's Ed25519 signature covers, its envelope's bytes under the command tag. */
export const commandMessage = (envelope: Uint8Array): Uint8Array => tagged("aar1/command", envelope);

/** SPEC.md 5.1: genesis's secret_commit, the server secret's commitment. */
export const secretCommitment = (game: string, secret: Uint8Array): Promise<Uint8Array> =>
  taggedHash("aar1/server-secret", cat(lp(utf8(game)), secret));

/** SPEC.md 5.2: a seat's entropy commitment (``genesisHash``: the genesis record's hash in format
 * v >= 2, empty in v1). */
export const entropyCommitment = (game: string, seat: string, genesisHash: Uint8Array, entropy: Uint8Array): Promise<Uint8Array> =>
  taggedHash("aar1/seat-entropy", cat(lp(utf8(game)), lp(utf8(seat)), genesisHash, entropy));

/** SPEC.md 6.1: a hidden value's commitment, over its salt and its canonical bytes. */
export const valueCommitment = (salt: Uint8Array, valueBytes: Uint8Array): Promise<Uint8Array> =>
  taggedHash("aar1/commit", cat(salt, valueBytes));
