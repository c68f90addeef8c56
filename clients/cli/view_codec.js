"use strict";
// The replay page's byte-level tools (view_page.js takes them from window.aarCodec): bytes,
// canonical msgpack (SPEC.md 1.1), the tagged hashes, HMAC of WebCrypto, Ed25519 by SPEC.md 7.4, verifier keys
// and signed notes (SPEC.md 4.2). Nothing here reads the page's data.
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

  // -- canonical msgpack (SPEC.md 1.1): a strict decoder is "decode, re-encode, compare" ------
  function decode(buf) {
    let p = 0;
    const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const need = (n) => { if (p + n > buf.length) throw new Error("truncated msgpack"); };
    const take = (n) => { need(n); const s = buf.subarray(p, p + n); p += n; return s; };
    const int = (v) => (typeof v === "bigint" && v >= -(2n ** 53n) && v <= 2n ** 53n) ? Number(v) : v;
    function str(n) { return td.decode(take(n)); }
    // SPEC.md 1.1 rule 6: arrays and maps nest at most 64 deep; refused before recursing further
    let depth = 0;
    const enter = () => { if (++depth > 64) throw new Error("arrays/maps nested deeper than 64 (SPEC.md 1.1 rule 6)"); };
    function arr(n) { enter(); const a = []; for (let i = 0; i < n; i++) a.push(val()); depth--; return a; }
    function map(n) { enter(); const m = Object.create(null); for (let i = 0; i < n; i++) { const k = val(); if (typeof k !== "string") throw new Error("map key is not text"); if (k in m) throw new Error("duplicate map key"); m[k] = val(); } depth--; return m; }
    function val() {
      need(1); const b = buf[p++];
      if (b <= 0x7f) return b;
      if (b >= 0xe0) return b - 256;
      if ((b & 0xf0) === 0x80) return map(b & 0x0f);
      if ((b & 0xf0) === 0x90) return arr(b & 0x0f);
      if ((b & 0xe0) === 0xa0) return str(b & 0x1f);
      switch (b) {
        case 0xc0: return null; case 0xc2: return false; case 0xc3: return true;
        case 0xc4: { need(1); const n = buf[p++]; return take(n).slice(); }
        case 0xc5: { need(2); const n = dv.getUint16(p); p += 2; return take(n).slice(); }
        case 0xc6: { need(4); const n = dv.getUint32(p); p += 4; return take(n).slice(); }
        case 0xcc: need(1); return dv.getUint8(p++);
        case 0xcd: { need(2); const v = dv.getUint16(p); p += 2; return v; }
        case 0xce: { need(4); const v = dv.getUint32(p); p += 4; return v; }
        case 0xcf: { need(8); const v = dv.getBigUint64(p); p += 8; return int(v); }
        case 0xd0: need(1); return dv.getInt8(p++);
        case 0xd1: { need(2); const v = dv.getInt16(p); p += 2; return v; }
        case 0xd2: { need(4); const v = dv.getInt32(p); p += 4; return v; }
        case 0xd3: { need(8); const v = dv.getBigInt64(p); p += 8; return int(v); }
        case 0xd9: { need(1); return str(dv.getUint8(p++)); }
        case 0xda: { need(2); const n = dv.getUint16(p); p += 2; return str(n); }
        case 0xdb: { need(4); const n = dv.getUint32(p); p += 4; return str(n); }
        case 0xdc: { need(2); const n = dv.getUint16(p); p += 2; return arr(n); }
        case 0xdd: { need(4); const n = dv.getUint32(p); p += 4; return arr(n); }
        case 0xde: { need(2); const n = dv.getUint16(p); p += 2; return map(n); }
        case 0xdf: { need(4); const n = dv.getUint32(p); p += 4; return map(n); }
      }
      throw new Error("byte 0x" + b.toString(16) + " is outside the canonical profile");
    }
    const v = val();
    if (p !== buf.length) throw new Error("trailing bytes");
    return v;
  }
  function encode(v) {
    const out = [];
    const push = (...bs) => { for (const b of bs) out.push(b); };
    const be = (n, bytes) => { const o = []; let x = BigInt(n); for (let i = 0; i < bytes; i++) { o.unshift(Number(x & 255n)); x >>= 8n; } push(...o); };
    function enc(v) {
      if (v === null) return push(0xc0);
      if (v === false) return push(0xc2);
      if (v === true) return push(0xc3);
      if (typeof v === "number" || typeof v === "bigint") {
        const n = BigInt(v);
        if (n >= 0n) {
          if (n <= 127n) return push(Number(n));
          if (n <= 0xffn) return push(0xcc), be(n, 1);
          if (n <= 0xffffn) return push(0xcd), be(n, 2);
          if (n <= 0xffffffffn) return push(0xce), be(n, 4);
          return push(0xcf), be(n, 8);
        }
        if (n >= -32n) return push(Number(n + 256n));
        if (n >= -128n) return push(0xd0), be(BigInt.asUintN(8, n), 1);
        if (n >= -32768n) return push(0xd1), be(BigInt.asUintN(16, n), 2);
        if (n >= -2147483648n) return push(0xd2), be(BigInt.asUintN(32, n), 4);
        return push(0xd3), be(BigInt.asUintN(64, n), 8);
      }
      if (typeof v === "string") {
        const b = utf8(v), n = b.length;
        if (n <= 31) push(0xa0 | n); else if (n <= 0xff) push(0xd9, n); else if (n <= 0xffff) push(0xda), be(n, 2); else push(0xdb), be(n, 4);
        return push(...b);
      }
      if (isBytes(v)) {
        const n = v.length;
        if (n <= 0xff) push(0xc4, n); else if (n <= 0xffff) push(0xc5), be(n, 2); else push(0xc6), be(n, 4);
        for (const x of v) out.push(x);
        return;
      }
      if (Array.isArray(v)) {
        const n = v.length;
        if (n <= 15) push(0x90 | n); else if (n <= 0xffff) push(0xdc), be(n, 2); else push(0xdd), be(n, 4);
        for (const x of v) enc(x);
        return;
      }
      const keys = Object.keys(v).map((k) => [utf8(k), k]).sort((a, b) => { const x = a[0], y = b[0]; for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i]; return x.length - y.length; });
      const n = keys.length;
      if (n <= 15) push(0x80 | n); else if (n <= 0xffff) push(0xde), be(n, 2); else push(0xdf), be(n, 4);
      for (const [, k] of keys) { enc(k); enc(v[k]); }
    }
    enc(v);
    return Uint8Array.from(out);
  }
  function strictDecode(buf) { const v = decode(buf); if (!eq(encode(v), buf)) throw new Error("not canonical: the re-encoding differs"); return v; }

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

  // -- notes and checkpoints (SPEC.md 4.2) --------------------------------------------------
  function parseVkey(s) {
    const i = s.indexOf("+"), j = s.indexOf("+", i + 1);
    if (i < 1 || j < 0) throw new Error("not a verifier key");
    const raw = b64(s.slice(j + 1));
    if (raw.length !== 33 || raw[0] !== 1) throw new Error("not an Ed25519 verifier key");
    const weak = keyProblem(raw.slice(1));
    if (weak !== null) throw new Error("the verifier key's public key " + weak + " (SPEC.md 7.4)");
    return { name: s.slice(0, i), id: s.slice(i + 1, j), pub: raw.slice(1) };
  }
  async function checkNote(note, server) {
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
      if (!(await ed25519(server.pub, raw.slice(4), utf8(text)))) throw new Error("the server's signature does not verify");
      signed = true;
    }
    if (!signed) throw new Error("not signed by the server key");
    const lines = text.split("\n");
    return { origin: lines[0], size: lines[1], root: lines[2] };
  }

  return {
    td, b64, toB64, hex, cat, eq, u32, u64, lp, utf8, isBytes, isMap, exactKeys, encode,
    strictDecode, sha256, taggedHash, taggedHmac, ed25519, keyProblem, parseVkey, checkNote
  };
})();
