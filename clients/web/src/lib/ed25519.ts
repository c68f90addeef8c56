// The one Ed25519 rule of SPEC.md 7.4 in the browser: the refusals put in front of WebCrypto, the
// same as engine/crypto/ed25519.py's in front of OpenSSL, so that a browser reaches the verdict of
// `aar verify` (Chromium's WebCrypto and node's accept small-order keys and small-order R, which the
// rule refuses). A key is the canonical encoding of a point of the prime-order subgroup other than
// the identity (keyProblem: BigInt Edwards arithmetic, once per key, cached); a signature (R, S)
// verifies only under such a key, with S < L, R canonical and not of small order, and the
// cofactorless equation [S]B = R + [k]A, which WebCrypto checks ("encode [S]B - [k]A, compare with R").
import { hex } from "./bytes.js";

const P = 2n ** 255n - 19n;
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const mod = (a: bigint): bigint => ((a % P) + P) % P;
function pow(b: bigint, e: bigint): bigint {
  let r = 1n;
  b = mod(b);
  while (e > 0n) {
    if (e & 1n) r = (r * b) % P;
    b = (b * b) % P;
    e >>= 1n;
  }
  return r;
}
const D = mod(-121665n * pow(121666n, P - 2n));
const SQRT_M1 = pow(2n, (P - 1n) / 4n);

type Point = [bigint, bigint, bigint, bigint]; // extended coordinates (X, Y, Z, T), RFC 8032 5.1.4
const IDENTITY: Point = [0n, 1n, 1n, 0n];

function add([x1, y1, z1, t1]: Point, [x2, y2, z2, t2]: Point): Point {
  const a = mod((y1 - x1) * (y2 - x2)), b = mod((y1 + x1) * (y2 + x2));
  const c = mod(2n * D * t1 * t2), d = mod(2n * z1 * z2);
  const e = b - a, f = d - c, g = d + c, h = b + a;
  return [mod(e * f), mod(g * h), mod(f * g), mod(e * h)];
}

function mul(n: bigint, p: Point): Point {
  let q = IDENTITY;
  while (n > 0n) {
    if (n & 1n) q = add(q, p);
    p = add(p, p);
    n >>= 1n;
  }
  return q;
}

const isIdentity = ([x, y, z]: Point): boolean => mod(x) === 0n && mod(y - z) === 0n;
const littleEndian = (b: Uint8Array): bigint => b.reduceRight((n, x) => (n << 8n) | BigInt(x), 0n);

/** The point of a canonical encoding, or [clause of the key rule, why] (RFC 8032 5.1.3; 0: not 32 bytes). */
function decode(b: Uint8Array): Point | [number, string] {
  if (b.length !== 32) return [0, `is ${b.length} bytes, not 32`];
  const n = littleEndian(b), y = n & ((1n << 255n) - 1n), sign = n >> 255n;
  if (y >= P) return [1, "is not canonical (y >= p)"];
  const u = mod(y * y - 1n), v = mod(D * y * y + 1n);
  let x = mod(u * pow(v, 3n) * pow(u * pow(v, 7n), (P - 5n) / 8n));
  if (mod(v * x * x - u) !== 0n) {
    if (mod(v * x * x + u) !== 0n) return [2, "is not the encoding of a curve point"];
    x = mod(x * SQRT_M1);
  }
  if (x === 0n && sign) return [3, "is not canonical (x = 0 with the sign bit set)"];
  if ((x & 1n) !== sign) x = P - x;
  return [x, y, 1n, mod(x * y)];
}

/** [clause 1-5 of the key rule, why] that refuses ``b``, or null (engine/crypto/ed25519.py point_check). */
export function pointCheck(b: Uint8Array): [number, string] | null {
  const p = decode(b);
  if (p.length === 2) return p;
  if (isIdentity(p)) return [4, "is the identity point (small order 1)"];
  let q = p;
  for (const order of [2, 4, 8]) {
    q = add(q, q);
    if (isIdentity(q)) return [4, `has small order ${order}`];
  }
  if (!isIdentity(mul(L, p))) return [5, "has mixed order (outside the prime-order subgroup)"];
  return null;
}

const keyVerdicts = new Map<string, string | null>();
/** Why the key rule of SPEC.md 7.4 refuses the public key ``a``, or null (cached per key). */
export function keyProblem(a: Uint8Array): string | null {
  const id = hex(a);
  if (!keyVerdicts.has(id)) {
    const c = pointCheck(a);
    keyVerdicts.set(id, c === null ? null : c[1]);
  }
  return keyVerdicts.get(id) as string | null;
}

/** The canonical encodings of the eight points of small order (ed25519.py SMALL_ORDER_ENCODINGS). */
const SMALL_ORDER = ((): Set<string> => {
  let t: Point | null = null;
  for (let y = 2n; t === null; y++) { // the torsion part [L]Q of a curve point Q; the first of order 8
    const bytes = new Uint8Array(32);
    for (let i = 0, n = y; i < 32; i++, n >>= 8n) bytes[i] = Number(n & 255n);
    const q = decode(bytes);
    if (q.length === 4) {
      const c = mul(L, q);
      if (!isIdentity(mul(4n, c))) t = c;
    }
  }
  const out = new Set<string>();
  let p = IDENTITY;
  for (let i = 0; i < 8; i++) {
    const [x, y, z] = p, zi = pow(z, P - 2n), ax = mod(x * zi), ay = mod(y * zi);
    const n = ay | ((ax & 1n) << 255n), enc = new Uint8Array(32);
    for (let j = 0, m = n; j < 32; j++, m >>= 8n) enc[j] = Number(m & 255n);
    out.add(hex(enc));
    p = add(p, t);
  }
  return out;
})();

const subtle = crypto.subtle;
const edKeys = new Map<string, CryptoKey>();

/** The signature check of SPEC.md 7.4: null if ``sig`` verifies, else "N (name): why" with N the
 * first clause of the signature rule it fails (the wording of ed25519.py signature_problem). */
export async function signatureProblem(pub: Uint8Array, msg: Uint8Array, sig: Uint8Array): Promise<string | null> {
  const why = keyProblem(pub);
  if (why !== null) return `1 (key): the key ${why}`;
  if (sig.length !== 64) return `2 (length): a signature is 64 bytes, not ${sig.length}`;
  const r = sig.slice(0, 32), s = littleEndian(sig.slice(32));
  if (s >= L) return "3 (S): S >= L";
  const ry = littleEndian(r) & ((1n << 255n) - 1n);
  if (ry >= P) return "4 (R): R is not canonical (y >= p)";
  if ((ry === 1n || ry === P - 1n) && r[31] & 0x80) return "4 (R): R is not canonical (x = 0 with the sign bit set)";
  if (SMALL_ORDER.has(hex(r))) return "5 (R): R has small order";
  const id = hex(pub);
  let k = edKeys.get(id);
  if (!k) {
    k = await subtle.importKey("raw", pub as BufferSource, { name: "Ed25519" }, false, ["verify"]);
    edKeys.set(id, k);
  }
  let ok = false;
  try {
    ok = await subtle.verify({ name: "Ed25519" }, k, sig as BufferSource, msg as BufferSource);
  } catch {
    ok = false;
  }
  if (ok) return null;
  return decode(r).length === 2 ? "4 (R): R is not the encoding of a curve point" : "6 (equation): [S]B != R + [k]A";
}

/** True if ``sig`` is a signature of ``msg`` under ``pub`` by the rule of SPEC.md 7.4. */
export const verifySignature = async (pub: Uint8Array, msg: Uint8Array, sig: Uint8Array): Promise<boolean> =>
  (await signatureProblem(pub, msg, sig)) === null;
