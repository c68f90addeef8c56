// Canonical msgpack (SPEC.md 1.1), the profile of the log's records, for the web client and the
// replay page (clients/cli/view_page.js takes it from view_lib.js). A strict decode is "decode,
// re-encode, compare".
import { eq, isBytes, td, utf8 } from "./bytes.js";

export type Value = null | boolean | number | bigint | string | Uint8Array | Value[] | { [k: string]: Value };

export function decode(buf: Uint8Array): Value {
  let p = 0;
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const need = (n: number) => { if (p + n > buf.length) throw new Error("truncated msgpack"); };
  const take = (n: number) => { need(n); const s = buf.subarray(p, p + n); p += n; return s; };
  const int = (v: bigint) => (v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : v);
  const str = (n: number) => td.decode(take(n));
  let depth = 0;
  const enter = () => { if (++depth > 64) throw new Error("arrays/maps nested deeper than 64 (SPEC.md 1.1 rule 6)"); };
  const arr = (n: number): Value[] => { enter(); const a: Value[] = []; for (let i = 0; i < n; i++) a.push(val()); depth--; return a; };
  const map = (n: number): { [k: string]: Value } => {
    enter();
    const m: { [k: string]: Value } = Object.create(null);
    for (let i = 0; i < n; i++) {
      const k = val();
      if (typeof k !== "string") throw new Error("map key is not text");
      if (k in m) throw new Error("duplicate map key");
      m[k] = val();
    }
    depth--;
    return m;
  };
  function val(): Value {
    need(1);
    const b = buf[p++];
    if (b <= 0x7f) return b;
    if (b >= 0xe0) return b - 256;
    if ((b & 0xf0) === 0x80) return map(b & 0x0f);
    if ((b & 0xf0) === 0x90) return arr(b & 0x0f);
    if ((b & 0xe0) === 0xa0) return str(b & 0x1f);
    switch (b) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
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

export function encode(v: Value): Uint8Array {
  const out: number[] = [];
  const push = (...bs: number[]) => { for (const b of bs) out.push(b); };
  const be = (n: number | bigint, bytes: number) => {
    const o: number[] = [];
    let x = BigInt(n);
    for (let i = 0; i < bytes; i++) { o.unshift(Number(x & 255n)); x >>= 8n; }
    push(...o);
  };
  function enc(v: Value): void {
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
      for (const x of b) out.push(x);
      return;
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
    const keys = Object.keys(v).map((k) => [utf8(k), k] as const).sort((a, b) => {
      const x = a[0], y = b[0];
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
      return x.length - y.length;
    });
    const n = keys.length;
    if (n <= 15) push(0x80 | n); else if (n <= 0xffff) push(0xde), be(n, 2); else push(0xdf), be(n, 4);
    for (const [, k] of keys) { enc(k); enc(v[k]); }
  }
  enc(v);
  return Uint8Array.from(out);
}

export function strictDecode(buf: Uint8Array): Value {
  const v = decode(buf);
  if (!eq(encode(v), buf)) throw new Error("not canonical: the re-encoding differs");
  return v;
}
