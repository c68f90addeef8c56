// ChaCha20-Poly1305 (RFC 8439) decryption, which WebCrypto lacks, and the opening of a sealed
// value with the published server secret (SPEC.md 6.2, 6.5), as engine/crypto/commit.py unseal:
// what lets a browser check the sealed ciphertexts itself once a game has ended.
import { cat, eq, hex, lp, u32, u64, utf8 } from "./bytes.js";
import { taggedHash, taggedHmac } from "./crypto.js";
import { valueCommitment } from "./derive.js";
import { encode as encodeValue, strictDecode, type Value } from "./msgpack.js";

const rotl = (x: number, n: number): number => (x << n) | (x >>> (32 - n));

function block(key: Uint32Array, counter: number, nonce: Uint32Array): Uint8Array {
  const s = new Uint32Array([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574, ...key, counter, ...nonce]);
  const x = s.slice();
  const qr = (a: number, b: number, c: number, d: number): void => {
    x[a] += x[b]; x[d] = rotl(x[d] ^ x[a], 16);
    x[c] += x[d]; x[b] = rotl(x[b] ^ x[c], 12);
    x[a] += x[b]; x[d] = rotl(x[d] ^ x[a], 8);
    x[c] += x[d]; x[b] = rotl(x[b] ^ x[c], 7);
  };
  for (let i = 0; i < 10; i++) {
    qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15);
    qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14);
  }
  const out = new Uint8Array(64), dv = new DataView(out.buffer);
  for (let i = 0; i < 16; i++) dv.setUint32(4 * i, (x[i] + s[i]) >>> 0, true);
  return out;
}

const words = (b: Uint8Array): Uint32Array => {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength), w = new Uint32Array(b.length / 4);
  for (let i = 0; i < w.length; i++) w[i] = dv.getUint32(4 * i, true);
  return w;
};

/** The ChaCha20 keystream from block ``counter`` on, xored with ``data`` (RFC 8439 2.4). */
export function chacha20(key: Uint8Array, nonce: Uint8Array, counter: number, data: Uint8Array): Uint8Array {
  const k = words(key), n = words(nonce), out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i += 64) {
    const ks = block(k, counter + i / 64, n);
    for (let j = 0; j < 64 && i + j < data.length; j++) out[i + j] = data[i + j] ^ ks[j];
  }
  return out;
}

const le = (b: Uint8Array): bigint => b.reduceRight((n, x) => (n << 8n) | BigInt(x), 0n);
const P1305 = (1n << 130n) - 5n;

/** Poly1305 (RFC 8439 2.5) of ``msg`` under the one-time ``key``. */
export function poly1305(key: Uint8Array, msg: Uint8Array): Uint8Array {
  const r = le(key.subarray(0, 16)) & 0x0ffffffc0ffffffc0ffffffc0fffffffn, s = le(key.subarray(16, 32));
  let acc = 0n;
  for (let i = 0; i < msg.length; i += 16) {
    const chunk = msg.subarray(i, i + 16);
    acc = ((acc + le(chunk) + (1n << BigInt(8 * chunk.length))) * r) % P1305;
  }
  let t = (acc + s) & ((1n << 128n) - 1n);
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++, t >>= 8n) out[i] = Number(t & 255n);
  return out;
}

const pad16 = (n: number): Uint8Array => new Uint8Array((16 - (n % 16)) % 16);
const le64 = (n: number): Uint8Array => { const o = new Uint8Array(8); new DataView(o.buffer).setBigUint64(0, BigInt(n), true); return o; };

/** ChaCha20-Poly1305 decryption (RFC 8439 2.8): the plaintext, or null when the tag does not verify. */
export function aeadOpen(key: Uint8Array, nonce: Uint8Array, sealed: Uint8Array, ad: Uint8Array): Uint8Array | null {
  if (key.length !== 32 || nonce.length !== 12 || sealed.length < 16) return null;
  const ct = sealed.subarray(0, sealed.length - 16), tag = sealed.subarray(sealed.length - 16);
  const otk = block(words(key), 0, words(nonce)).subarray(0, 32);
  const mac = poly1305(otk, cat(ad, pad16(ad.length), ct, pad16(ct.length), le64(ad.length), le64(ct.length)));
  if (!eq(mac, tag)) return null;
  return chacha20(key, nonce, 1, ct);
}

const sealKeys = new Map<string, Promise<Uint8Array>>();
/** The game's seal key (SPEC.md 6.2), derived once per secret and game: every sealed value of a game shares it. */
function sealKey(secret: Uint8Array, game: string): Promise<Uint8Array> {
  const id = hex(secret) + " " + game;
  let k = sealKeys.get(id);
  if (!k) {
    k = taggedHmac(secret, "aar1/seal-key", lp(utf8(game)));
    sealKeys.set(id, k);
  }
  return k;
}

/** SPEC.md 6.2 and 6.5: the sealed value at (seq, k) opened with the published server secret: its
 * salt and value (the canonical bytes too), or an Error saying what is wrong. ``size``: the declared
 * padded size of its kind (format v >= 2), null for version 1. */
export async function openSealed(secret: Uint8Array, game: string, seq: number, k: number, commit: Uint8Array,
                                 ct: Uint8Array, size: number | null): Promise<{ salt: Uint8Array; value: Value; valueBytes: Uint8Array }> {
  const where = cat(lp(utf8(game)), u64(seq), u32(k));
  const key = await sealKey(secret, game);
  const nonce = (await taggedHash("aar1/seal-nonce", where)).slice(0, 12);
  let pt = aeadOpen(key, nonce, ct, commit);
  if (pt === null) throw new Error("it does not decrypt (wrong key, nonce, commitment or bytes)");
  if (size !== null) {
    if (pt.length !== size) throw new Error(`the padded plaintext is ${pt.length} bytes, the declared size is ${size}`);
    const n = new DataView(pt.buffer, pt.byteOffset).getUint32(0);
    if (4 + n > size) throw new Error(`the plaintext length prefix (${n}) exceeds the declared size ${size} - 4`);
    if (pt.subarray(4 + n).some((x) => x !== 0)) throw new Error(`the padding after the ${n}-byte plaintext is not all zero bytes`);
    pt = pt.slice(4, 4 + n);
  }
  let d: Value;
  try { d = strictDecode(pt); } catch (e) { throw new Error("its plaintext is not canonical: " + (e as Error).message); }
  const m = d as { [key: string]: Value };
  if (!m || typeof m !== "object" || Array.isArray(m) || m instanceof Uint8Array || Object.keys(m).sort().join(",") !== "salt,value"
      || !(m.salt instanceof Uint8Array)) throw new Error("it has the wrong shape (a map of exactly salt and value)");
  const valueBytes = encodeValue(m.value);
  const c = await valueCommitment(m.salt, valueBytes);
  if (!eq(c, commit)) throw new Error("it does not match its commitment");
  return { salt: m.salt, value: m.value, valueBytes };
}
