// tests/web/test_web_key_history.py's driver: the browser library's key history (clients/web/src/lib/
// keyhistory.ts) on stdin's JSON {cases: [{history, pinned, newest, genesis}], logs: [{pinned, newest,
// history, game, records: [[record base64, checkpoint note], ...]}]}. Each case: the history's keys
// (or its error), the key a browser pins on first sight, the keys a browser that pinned ``pinned``
// trusts, and whether a game whose genesis names ``genesis`` is checked (its key, or the error). Each
// log: the page's own path (pin on first sight when ``pinned`` is null, trust, the game's key from its
// genesis, LogVerifier over every record): {ok, error}.
import { b64 } from "../../clients/web/src/lib/bytes.js";
import { gameKey, keyToPin, parseKeyHistory, trustedKeys } from "../../clients/web/src/lib/keyhistory.js";
import { readRecord } from "../../clients/web/src/lib/record.js";
import { LogVerifier } from "../../clients/web/src/lib/verifier.js";

type Case = { history: string; pinned: string; newest: string; genesis: string };
type Log = { pinned: string | null; newest: string; history: string; game: string; records: [string, string][] };
const attempt = async <T>(f: () => Promise<T>): Promise<{ ok: T } | { error: string }> => {
  try { return { ok: await f() }; } catch (e) { return { error: (e as Error).message }; }
};

const chunks: Buffer[] = [];
process.stdin.on("data", (c: Buffer) => chunks.push(c));
process.stdin.on("end", async () => {
  const job = JSON.parse(Buffer.concat(chunks).toString()) as { cases: Case[]; logs: Log[] };
  const cases = [];
  for (const c of job.cases) {
    cases.push({
      parsed: await attempt(() => parseKeyHistory(c.history)),
      to_pin: await attempt(() => keyToPin(c.newest, c.history)),
      trusted: await attempt(() => trustedKeys(c.pinned, c.newest, c.history)),
      game_key: await attempt(async () => (await gameKey(await trustedKeys(c.pinned, c.newest, c.history), c.genesis)).vkey),
    });
  }
  const logs = [];
  for (const l of job.logs) {
    logs.push(await attempt(async () => {
      const pinned = l.pinned ?? await keyToPin(l.newest, l.history);
      const trusted = await trustedKeys(pinned, l.newest, l.history);
      const genesis = readRecord(b64(l.records[0][0]), null).body.server as { vkey: string };
      const v = new LogVerifier(await gameKey(trusted, genesis.vkey), l.game);
      for (const [raw, cp] of l.records) await v.add(b64(raw), cp);
      return v.size;
    }));
  }
  process.stdout.write(JSON.stringify({ cases, logs }));
});
