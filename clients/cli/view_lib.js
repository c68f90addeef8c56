// Generated from clients/web/src/view_lib.ts by clients/web/build.mjs (`make web`): do not edit.
"use strict";
var aarLib = (() => {
  var __defProp = Object.defineProperty;
  var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
  var __getOwnPropNames = Object.getOwnPropertyNames;
  var __hasOwnProp = Object.prototype.hasOwnProperty;
  var __export = (target, all) => {
    for (var name in all)
      __defProp(target, name, { get: all[name], enumerable: true });
  };
  var __copyProps = (to, from, except, desc) => {
    if (from && typeof from === "object" || typeof from === "function") {
      for (let key of __getOwnPropNames(from))
        if (!__hasOwnProp.call(to, key) && key !== except)
          __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
    }
    return to;
  };
  var __toCommonJS = (mod2) => __copyProps(__defProp({}, "__esModule", { value: true }), mod2);

  // src/view_lib.ts
  var view_lib_exports = {};
  __export(view_lib_exports, {
    keyProblem: () => keyProblem,
    pointCheck: () => pointCheck,
    seatCosignatures: () => seatCosignatures,
    signatureProblem: () => signatureProblem,
    verifySignature: () => verifySignature
  });

  // src/lib/bytes.ts
  var te = new TextEncoder();
  var td = new TextDecoder("utf-8", { fatal: true });
  var utf8 = (s) => te.encode(s);
  var hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  var b64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  function cat(...xs) {
    const o = new Uint8Array(xs.reduce((a, x) => a + x.length, 0));
    let i = 0;
    for (const x of xs) {
      o.set(x, i);
      i += x.length;
    }
    return o;
  }

  // src/lib/ed25519.ts
  var P = 2n ** 255n - 19n;
  var L = 2n ** 252n + 27742317777372353535851937790883648493n;
  var mod = (a) => (a % P + P) % P;
  function pow(b, e) {
    let r = 1n;
    b = mod(b);
    while (e > 0n) {
      if (e & 1n) r = r * b % P;
      b = b * b % P;
      e >>= 1n;
    }
    return r;
  }
  var D = mod(-121665n * pow(121666n, P - 2n));
  var SQRT_M1 = pow(2n, (P - 1n) / 4n);
  var IDENTITY = [0n, 1n, 1n, 0n];
  function add([x1, y1, z1, t1], [x2, y2, z2, t2]) {
    const a = mod((y1 - x1) * (y2 - x2)), b = mod((y1 + x1) * (y2 + x2));
    const c = mod(2n * D * t1 * t2), d = mod(2n * z1 * z2);
    const e = b - a, f = d - c, g = d + c, h = b + a;
    return [mod(e * f), mod(g * h), mod(f * g), mod(e * h)];
  }
  function mul(n, p) {
    let q = IDENTITY;
    while (n > 0n) {
      if (n & 1n) q = add(q, p);
      p = add(p, p);
      n >>= 1n;
    }
    return q;
  }
  var isIdentity = ([x, y, z]) => mod(x) === 0n && mod(y - z) === 0n;
  var littleEndian = (b) => b.reduceRight((n, x) => n << 8n | BigInt(x), 0n);
  function decode(b) {
    if (b.length !== 32) return [0, `is ${b.length} bytes, not 32`];
    const n = littleEndian(b), y = n & (1n << 255n) - 1n, sign = n >> 255n;
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
  function pointCheck(b) {
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
  var keyVerdicts = /* @__PURE__ */ new Map();
  function keyProblem(a) {
    const id = hex(a);
    if (!keyVerdicts.has(id)) {
      const c = pointCheck(a);
      keyVerdicts.set(id, c === null ? null : c[1]);
    }
    return keyVerdicts.get(id);
  }
  var SMALL_ORDER = (() => {
    let t = null;
    for (let y = 2n; t === null; y++) {
      const bytes = new Uint8Array(32);
      for (let i = 0, n = y; i < 32; i++, n >>= 8n) bytes[i] = Number(n & 255n);
      const q = decode(bytes);
      if (q.length === 4) {
        const c = mul(L, q);
        if (!isIdentity(mul(4n, c))) t = c;
      }
    }
    const out = /* @__PURE__ */ new Set();
    let p = IDENTITY;
    for (let i = 0; i < 8; i++) {
      const [x, y, z] = p, zi = pow(z, P - 2n), ax = mod(x * zi), ay = mod(y * zi);
      const n = ay | (ax & 1n) << 255n, enc = new Uint8Array(32);
      for (let j = 0, m = n; j < 32; j++, m >>= 8n) enc[j] = Number(m & 255n);
      out.add(hex(enc));
      p = add(p, t);
    }
    return out;
  })();
  var subtle = crypto.subtle;
  var edKeys = /* @__PURE__ */ new Map();
  async function signatureProblem(pub, msg, sig) {
    const why = keyProblem(pub);
    if (why !== null) return `1 (key): the key ${why}`;
    if (sig.length !== 64) return `2 (length): a signature is 64 bytes, not ${sig.length}`;
    const r = sig.slice(0, 32), s = littleEndian(sig.slice(32));
    if (s >= L) return "3 (S): S >= L";
    const ry = littleEndian(r) & (1n << 255n) - 1n;
    if (ry >= P) return "4 (R): R is not canonical (y >= p)";
    if ((ry === 1n || ry === P - 1n) && r[31] & 128) return "4 (R): R is not canonical (x = 0 with the sign bit set)";
    if (SMALL_ORDER.has(hex(r))) return "5 (R): R has small order";
    const id = hex(pub);
    let k = edKeys.get(id);
    if (!k) {
      k = await subtle.importKey("raw", pub, { name: "Ed25519" }, false, ["verify"]);
      edKeys.set(id, k);
    }
    let ok = false;
    try {
      ok = await subtle.verify({ name: "Ed25519" }, k, sig, msg);
    } catch {
      ok = false;
    }
    if (ok) return null;
    return decode(r).length === 2 ? "4 (R): R is not the encoding of a curve point" : "6 (equation): [S]B != R + [k]A";
  }
  var verifySignature = async (pub, msg, sig) => await signatureProblem(pub, msg, sig) === null;

  // src/lib/crypto.ts
  var subtle2 = crypto.subtle;
  var sha256 = async (b) => new Uint8Array(await subtle2.digest("SHA-256", b));

  // src/lib/cosign.ts
  async function seatCosignatures(note, text, origin, seatOrder, seatKeys) {
    const ids = /* @__PURE__ */ new Map();
    for (const s of seatOrder) {
      const name = `${origin}/seat/${s}`;
      const id = (await sha256(cat(utf8(name), new Uint8Array([10, 4]), seatKeys[s]))).slice(0, 4);
      ids.set(`${name} ${hex(id)}`, s);
    }
    const seen = [];
    for (const line of note.slice(note.lastIndexOf("\n\n") + 2).split("\n")) {
      if (!line) continue;
      const [name, sig64] = line.slice(2).split(" ");
      let raw;
      try {
        raw = b64(sig64);
      } catch {
        throw new Error(`a checkpoint signature line of ${name} is not base64`);
      }
      const seat = ids.get(`${name} ${hex(raw.slice(0, 4))}`);
      if (seat === void 0) continue;
      if (raw.length !== 4 + 8 + 64) throw new Error(`seat ${seat}'s cosignature is ${raw.length} bytes, not 76 (SPEC.md 4.5)`);
      const ts = new DataView(raw.buffer, raw.byteOffset + 4, 8).getBigUint64(0);
      const ok = await verifySignature(seatKeys[seat], cat(utf8(`cosignature/v1
time ${ts}
`), utf8(text)), raw.slice(12));
      if (!ok) throw new Error(`seat ${seat}'s cosignature of the checkpoint does not verify (SPEC.md 4.5)`);
      if (seen.includes(seat)) throw new Error(`seat ${seat} cosigned this checkpoint twice (SPEC.md 4.5)`);
      seen.push(seat);
    }
    return seen;
  }
  return __toCommonJS(view_lib_exports);
})();
