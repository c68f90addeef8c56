// tests/web/test_web_verifier_fixtures.py's driver: the browser library's LogVerifier (as a seat's
// page runs it, without its own key) over each log given on stdin as JSON [{file, vkey, game,
// records: [[record base64, checkpoint note], ...]}]; prints [{file, ok, seq, error}].
import { b64 } from "../../clients/web/src/lib/bytes.js";
import { parseVkey } from "../../clients/web/src/lib/crypto.js";
import { LogVerifier } from "../../clients/web/src/lib/verifier.js";

const chunks: Buffer[] = [];
process.stdin.on("data", (c: Buffer) => chunks.push(c));
process.stdin.on("end", async () => {
  const jobs = JSON.parse(Buffer.concat(chunks).toString()) as { file: string; vkey: string; game: string; records: [string, string][] }[];
  const out = [];
  for (const j of jobs) {
    let res: { ok: boolean; seq: number | null; error: string } = { ok: true, seq: null, error: "" };
    try {
      const v = new LogVerifier(await parseVkey(j.vkey), j.game);
      for (const [raw, cp] of j.records) await v.add(b64(raw), cp);
    } catch (e) {
      const m = String((e as Error).message), s = /record (\d+)/.exec(m);
      res = { ok: false, seq: s ? Number(s[1]) : null, error: m };
    }
    out.push({ file: j.file, ...res });
  }
  process.stdout.write(JSON.stringify(out));
});
