// WebCrypto: SHA-256 and HMAC-SHA256 with SPEC.md's tags, Ed25519 verification, C2SP signed notes and
// checkpoints (SPEC.md 4.2), the RFC 9162 Merkle tree a seat keeps of the records it verified.
import { b64, cat, hex, toB64, utf8 } from "./bytes.js";
import { keyProblem, verifySignature } from "./ed25519.js";

const subtle = crypto.subtle;
export const sha256 = async (b: Uint8Array): Promise<Uint8Array> => new Uint8Array(await subtle.digest("SHA-256", b as BufferSource));
export const tagged = (tag: string, data: Uint8Array): Uint8Array => cat(utf8(tag), new Uint8Array([0]), data);
export const taggedHash = (tag: string, data: Uint8Array): Promise<Uint8Array> => sha256(tagged(tag, data));

const hmacKeys = new Map<string, Promise<CryptoKey>>();
/** HMAC-SHA256 (WebCrypto), each key imported once (the replay page derives hundreds of dice blocks with one key). */
export async function hmac(key: Uint8Array, msg: Uint8Array): Promise<Uint8Array> {
  const id = hex(key);
  let k = hmacKeys.get(id);
  if (!k) {
    k = subtle.importKey("raw", key as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    hmacKeys.set(id, k);
  }
  return new Uint8Array(await subtle.sign("HMAC", await k, msg as BufferSource));
}
export const taggedHmac = (key: Uint8Array, tag: string, data: Uint8Array): Promise<Uint8Array> => hmac(key, tagged(tag, data));

/** Ed25519 by the one rule of SPEC.md 7.4 (lib/ed25519.ts: its refusals, then WebCrypto's equation). */
export const ed25519Verify = (pub: Uint8Array, sig: Uint8Array, msg: Uint8Array): Promise<boolean> =>
  verifySignature(pub, msg, sig);

export interface ServerKey { name: string; id: string; pub: Uint8Array; vkey: string }

export async function parseVkey(s: string): Promise<ServerKey> {
  const i = s.indexOf("+"), j = s.indexOf("+", i + 1);
  if (i < 1 || j < 0) throw new Error("not a verifier key");
  const raw = b64(s.slice(j + 1));
  if (raw.length !== 33 || raw[0] !== 1) throw new Error("not an Ed25519 verifier key");
  const name = s.slice(0, i), id = s.slice(i + 1, j), pub = raw.slice(1);
  const want = hex((await sha256(cat(utf8(name), new Uint8Array([10, 1]), pub))).slice(0, 4));
  if (want !== id) throw new Error("the verifier key's id does not match its key");
  const weak = keyProblem(pub);
  if (weak !== null) throw new Error(`the verifier key's public key ${weak} (SPEC.md 7.4)`);
  return { name, id, pub, vkey: s };
}

export interface Checkpoint { origin: string; size: number; root: string; text: string }

/** A checkpoint note signed by the server key (other signature lines, e.g. seat cosignatures, are skipped). */
export async function openCheckpoint(note: string, server: ServerKey): Promise<Checkpoint> {
  const cut = note.lastIndexOf("\n\n");
  if (cut < 0) throw new Error("no signature block");
  const text = note.slice(0, cut + 1), sigs = note.slice(cut + 2);
  let signed = false;
  for (const line of sigs.split("\n")) {
    if (!line) continue;
    if (!line.startsWith("\u2014 ")) throw new Error("bad signature line");
    const [name, sig64] = line.slice(2).split(" ");
    const raw = b64(sig64);
    if (name !== server.name || hex(raw.slice(0, 4)) !== server.id) continue;
    if (!(await ed25519Verify(server.pub, raw.slice(4), utf8(text)))) throw new Error("the server's signature does not verify");
    signed = true;
  }
  if (!signed) throw new Error("not signed by the server key");
  const lines = text.split("\n");
  if (!/^[1-9][0-9]*$/.test(lines[1] ?? "")) throw new Error("the checkpoint size is not a number");
  return { origin: lines[0], size: Number(lines[1]), root: lines[2], text };
}

/** RFC 9162 Merkle tree, compact: the perfect subtrees' roots, left to right. */
export class CompactTree {
  private nodes: [number, Uint8Array][] = [];
  size = 0;
  async append(recordHash: Uint8Array): Promise<void> {
    let node = await sha256(cat(new Uint8Array([0]), recordHash)), size = 1;
    while (this.nodes.length && this.nodes[this.nodes.length - 1][0] === size) {
      const [, l] = this.nodes.pop()!;
      node = await sha256(cat(new Uint8Array([1]), l, node));
      size *= 2;
    }
    this.nodes.push([size, node]);
    this.size++;
  }
  async root(): Promise<string> {
    let r = this.nodes[this.nodes.length - 1][1];
    for (let i = this.nodes.length - 2; i >= 0; i--) r = await sha256(cat(new Uint8Array([1]), this.nodes[i][1], r));
    return toB64(r);
  }
}
