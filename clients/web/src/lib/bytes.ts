// Byte helpers shared by the library (SPEC.md's encodings: lp = u32 big-endian length prefix).
const te = new TextEncoder();
export const td = new TextDecoder("utf-8", { fatal: true });
export const utf8 = (s: string): Uint8Array => te.encode(s);
export const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
export const fromHex = (s: string): Uint8Array => {
  if (!/^([0-9a-f]{2})*$/i.test(s)) throw new Error("not hex");
  return Uint8Array.from(s.match(/../g) ?? [], (x) => parseInt(x, 16));
};
export const b64 = (s: string): Uint8Array => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
export const toB64 = (b: Uint8Array): string => btoa(String.fromCharCode(...b));
export function cat(...xs: Uint8Array[]): Uint8Array {
  const o = new Uint8Array(xs.reduce((a, x) => a + x.length, 0));
  let i = 0;
  for (const x of xs) { o.set(x, i); i += x.length; }
  return o;
}
export const eq = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
export const u32 = (n: number): Uint8Array => { const o = new Uint8Array(4); new DataView(o.buffer).setUint32(0, n); return o; };
export const u64 = (n: number | bigint): Uint8Array => { const o = new Uint8Array(8); new DataView(o.buffer).setBigUint64(0, BigInt(n)); return o; };
export const lp = (b: Uint8Array): Uint8Array => cat(u32(b.length), b);
export const isBytes = (v: unknown): v is Uint8Array => v instanceof Uint8Array;
