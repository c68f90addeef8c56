// Seat cosignatures of a checkpoint (SPEC.md 4.5, C2SP tlog-cosignature/v1), as
// engine/crypto/cosign.py seat_cosignatures: the seat verifier (verifier.ts) and the replay page
// (`aar view`, through ../cli/view_lib.js) check them with this one function.
import { b64, cat, hex, utf8 } from "./bytes.js";
import { sha256 } from "./crypto.js";
import { verifySignature } from "./ed25519.js";

/** The seats whose cosignature ``note`` carries (``text``: its body, the signed part), in the order of
 * its lines; every line named and keyed as a seat's cosigner (`ORIGIN/seat/S`, key id of the seat's
 * genesis key) must verify, once per seat; other lines are not read. Throws Error with what is wrong. */
export async function seatCosignatures(note: string, text: string, origin: string, seatOrder: string[],
                                       seatKeys: Record<string, Uint8Array>): Promise<string[]> {
  const ids = new Map<string, string>();
  for (const s of seatOrder) {
    const name = `${origin}/seat/${s}`;
    const id = (await sha256(cat(utf8(name), new Uint8Array([0x0a, 0x04]), seatKeys[s]))).slice(0, 4);
    ids.set(`${name} ${hex(id)}`, s);
  }
  const seen: string[] = [];
  for (const line of note.slice(note.lastIndexOf("\n\n") + 2).split("\n")) {
    if (!line) continue;
    const [name, sig64] = line.slice(2).split(" ");
    let raw: Uint8Array;
    try { raw = b64(sig64); } catch { throw new Error(`a checkpoint signature line of ${name} is not base64`); }
    const seat = ids.get(`${name} ${hex(raw.slice(0, 4))}`);
    if (seat === undefined) continue;
    if (raw.length !== 4 + 8 + 64) throw new Error(`seat ${seat}'s cosignature is ${raw.length} bytes, not 76 (SPEC.md 4.5)`);
    const ts = new DataView(raw.buffer, raw.byteOffset + 4, 8).getBigUint64(0);
    const ok = await verifySignature(seatKeys[seat], cat(utf8(`cosignature/v1\ntime ${ts}\n`), utf8(text)), raw.slice(12));
    if (!ok) throw new Error(`seat ${seat}'s cosignature of the checkpoint does not verify (SPEC.md 4.5)`);
    if (seen.includes(seat)) throw new Error(`seat ${seat} cosigned this checkpoint twice (SPEC.md 4.5)`);
    seen.push(seat);
  }
  return seen;
}
