// The server key history (SPEC.md 4.6) in the browser, as engine/crypto/key_history.py reads it: every
// key a server had, oldest first, each after the first signed by the one before. GetServerKey answers
// it beside the newest key; a browser pins the history's first key on first sight, and accepts a
// game whose genesis names the pinned key or a later key of a history that verifies (a rotation), so
// the games created before a rotation go on being played and checked here. A key *before* the pinned
// one is never accepted: naming a successor proves nothing about a predecessor.
import { b64, cat, lp, toB64, u64, utf8 } from "./bytes.js";
import { ed25519Verify, parseVkey, type ServerKey } from "./crypto.js";

export const HEADER = "afteraction key history v1";
export const TAG_KEY_ROTATION = "aar1/key-rotation";
const MAX_KEYS = 1000, MAX_CHARS = 1 << 20;

/** What key ``index - 1`` signs to name key ``index`` its successor (SPEC.md 4.6). */
export const rotationMessage = (index: number, oldVkey: string, newVkey: string): Uint8Array =>
  cat(utf8(TAG_KEY_ROTATION), new Uint8Array([0]), u64(index), lp(utf8(oldVkey)), lp(utf8(newVkey)));

function canonicalB64(s: string): Uint8Array | null {
  let raw: Uint8Array;
  try { raw = b64(s); } catch { return null; }
  return s.length > 0 && toB64(raw) === s ? raw : null;
}

/** The verifier keys of a history, oldest first, after checking every line and signature; an Error
 *  naming the first line that fails (the reference's words, engine/crypto/key_history.py). */
export async function parseKeyHistory(text: string): Promise<string[]> {
  if (text.length > MAX_CHARS) throw new Error(`key history: longer than ${MAX_CHARS} bytes`);
  if (!text.endsWith("\n")) throw new Error("key history: does not end with a newline");
  const lines = text.slice(0, -1).split("\n");
  if (lines[0] !== HEADER) throw new Error(`key history: line 1 is not '${HEADER}'`);
  if (lines.length < 2) throw new Error("key history: no key");
  if (lines.length - 1 > MAX_KEYS) throw new Error(`key history: more than ${MAX_KEYS} keys`);
  const keys: string[] = [], publics = new Set<string>();
  let prev: ServerKey | null = null;
  for (let n = 2; n <= lines.length; n++) {
    const i = n - 2, parts = lines[n - 1].split(" ");
    if (parts.length !== (i === 0 ? 1 : 2))
      throw new Error(`key history line ${n}: expected ` + (i === 0 ? "the first verifier key alone" : "a verifier key, one space, a signature"));
    let v: ServerKey;
    try {
      v = await parseVkey(parts[0]);
      const j = parts[0].indexOf("+", parts[0].indexOf("+") + 1);
      if (canonicalB64(parts[0].slice(j + 1)) === null) throw new Error("not canonical base64");
    } catch (e) { throw new Error(`key history line ${n}: ${(e as Error).message}`); }
    const pub = toB64(v.pub);
    if (publics.has(pub)) throw new Error(`key history line ${n}: the key is already in the history`);
    if (prev !== null) {
      const sig = canonicalB64(parts[1]);
      if (sig === null || sig.length !== 64) throw new Error(`key history line ${n}: the signature is not canonical base64 of 64 bytes`);
      if (!(await ed25519Verify(prev.pub, sig, rotationMessage(i, keys[keys.length - 1], parts[0]))))
        throw new Error(`key history line ${n}: key ${i} is not signed by key ${i - 1} (${keys[keys.length - 1]})`);
    }
    keys.push(parts[0]);
    publics.add(pub);
    prev = v;
  }
  return keys;
}

/** The server's keys this browser trusts: ``pinned`` and every later key of ``history`` (GetServerKey's
 *  key_history; "" while the server has had one key, ``newest``). An Error when the history does not
 *  verify, does not end with ``newest``, or does not hold ``pinned``. */
export async function trustedKeys(pinned: string, newest: string, history: string): Promise<string[]> {
  const keys = history ? await parseKeyHistory(history) : [newest];
  if (keys[keys.length - 1] !== newest) throw new Error(`the server's key history does not end with its key ${newest}`);
  const i = keys.indexOf(pinned);
  if (i < 0) throw new Error(`this server signs with ${newest}, and its key history does not name the key this browser pinned (${pinned})`);
  return keys.slice(i);
}

/** What a browser pins on first sight: the first key of the server's history (the key every later one
 *  is signed from), or its only key. */
export async function keyToPin(newest: string, history: string): Promise<string> {
  return history ? (await parseKeyHistory(history))[0] : newest;
}

/** The key a game is checked with: the one its genesis names, if this browser trusts it. */
export async function gameKey(trusted: readonly string[], genesisVkey: string): Promise<ServerKey> {
  if (!trusted.includes(genesisVkey))
    throw new Error(`the game's genesis names the server key ${genesisVkey}, which is neither the key this browser pinned nor one its key history signed after it`);
  return parseVkey(genesisVkey);
}
