// A seat's key in the browser: a WebCrypto Ed25519 key pair generated non-extractable, so no
// script (ours included) can read the private key; only the public key is exported. The pair is
// kept in this origin's IndexedDB (CryptoKey objects are stored as they are, still non-extractable):
// it survives reloads, is lost with the browser profile's site data, and cannot be copied elsewhere.
import { hex } from "./bytes.js";

export interface SeatKey { id: string; privateKey: CryptoKey; publicKey: CryptoKey; publicRaw: Uint8Array }

const DB = "afteraction-keys", STORE = "keys";

function db(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const r = indexedDB.open(DB, 1);
    r.onupgradeneeded = () => r.result.createObjectStore(STORE);
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

async function tx<T>(mode: IDBTransactionMode, f: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const d = await db();
  return new Promise((resolve, reject) => {
    const r = f(d.transaction(STORE, mode).objectStore(STORE));
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

export async function newSeatKey(): Promise<SeatKey> {
  const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"])) as CryptoKeyPair;
  const publicRaw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  return { id: hex(publicRaw), privateKey: pair.privateKey, publicKey: pair.publicKey, publicRaw };
}

/** The key kept under ``name`` in this browser, made (and kept) on first use. */
export async function seatKey(name = "default"): Promise<SeatKey> {
  try {
    const got = await tx<SeatKey | undefined>("readonly", (s) => s.get(name) as IDBRequest<SeatKey | undefined>);
    if (got) return got;
  } catch { /* no IndexedDB (a private window): a key for this page only */ }
  const k = await newSeatKey();
  try { await tx("readwrite", (s) => s.put(k, name)); } catch { /* kept in memory only */ }
  return k;
}

export async function sign(key: SeatKey, msg: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, key.privateKey, msg as BufferSource));
}
