"use strict";
// The replay page's byte-level tools (view_page.js takes them from window.aarCodec): bytes,
// canonical msgpack (SPEC.md 1.1, view_lib.js's), the tagged hashes, HMAC of WebCrypto, Ed25519 by
// SPEC.md 7.4 (verifier keys and signed notes, SPEC.md 4.2: view_lib.js's, the web library's
// crypto.ts). Nothing here reads the page's data.
window.aarCodec = (function () {
  const te = new TextEncoder(), td = new TextDecoder("utf-8", { fatal: true });
  const subtle = crypto.subtle;

  // -- bytes ----------------------------------------------------------------------------
  const b64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  const toB64 = (b) => btoa(String.fromCharCode(...b));
  const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  const cat = (...xs) => { const n = xs.reduce((a, x) => a + x.length, 0); const o = new Uint8Array(n); let i = 0; for (const x of xs) { o.set(x, i); i += x.length; } return o; };
  const eq = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  const u32 = (n) => { const o = new Uint8Array(4); new DataView(o.buffer).setUint32(0, n); return o; };
  const u64 = (n) => { const o = new Uint8Array(8); new DataView(o.buffer).setBigUint64(0, BigInt(n)); return o; };
  const lp = (b) => cat(u32(b.length), b);
  const utf8 = (s) => te.encode(s);
  const isBytes = (v) => v instanceof Uint8Array;
  // a map with exactly these keys (SPEC.md 1.3: every body, and the sealed/open events, have exactly their keys)
  const isMap = (v) => !!v && typeof v === "object" && !Array.isArray(v) && !isBytes(v);
  const exactKeys = (v, keys) => isMap(v) && Object.keys(v).length === keys.length && keys.every((k) => k in v);

  // -- canonical msgpack (SPEC.md 1.1): the web library's (clients/web/src/lib/msgpack.ts, through
  // view_lib.js); a strict decoder is "decode, re-encode, compare"
  const { decode, encode, strictDecode } = window.aarLib;

  // -- crypto (WebCrypto) -----------------------------------------------------------------
  const sha256 = async (b) => new Uint8Array(await subtle.digest("SHA-256", b));
  const tagged = (tag, data) => cat(utf8(tag), new Uint8Array([0]), data);
  const taggedHash = (tag, data) => sha256(tagged(tag, data));
  const hmacKeys = new Map();
  async function hmac(key, msg) {
    const id = hex(key);
    let k = hmacKeys.get(id);
    if (!k) { k = await subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]); hmacKeys.set(id, k); }
    return new Uint8Array(await subtle.sign("HMAC", k, msg));
  }
  const taggedHmac = (key, tag, data) => hmac(key, tagged(tag, data));
  // Ed25519 by the one rule of SPEC.md 7.4: view_lib.js (generated from the web library's
  // clients/web/src/lib/ed25519.ts) puts the rule's refusals in front of WebCrypto's verification
  const ed25519 = (pub, sig, msg) => window.aarLib.verifySignature(pub, msg, sig);
  const keyProblem = (pub) => window.aarLib.keyProblem(pub);

  return {
    td, b64, toB64, hex, cat, eq, u32, u64, lp, utf8, isBytes, isMap, exactKeys, encode,
    strictDecode, sha256, taggedHash, taggedHmac, ed25519, keyProblem
  };
})();
