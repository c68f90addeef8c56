// tests/web/test_web_ed25519.py's driver: the browser library's Ed25519 rule (clients/web/src/lib/
// ed25519.ts, SPEC.md 7.4) in node over the jobs on stdin, JSON {keys: [hex], sigs: [[pub, msg, sig]]}
// (hex); prints {keys: [[clause or null, why or null]], sigs: [problem or null]}.
import { fromHex } from "../../clients/web/src/lib/bytes.js";
import { pointCheck, signatureProblem } from "../../clients/web/src/lib/ed25519.js";

const chunks: Buffer[] = [];
process.stdin.on("data", (c: Buffer) => chunks.push(c));
process.stdin.on("end", async () => {
  const jobs = JSON.parse(Buffer.concat(chunks).toString()) as { keys: string[]; sigs: [string, string, string][] };
  const keys = jobs.keys.map((k) => pointCheck(fromHex(k)) ?? [null, null]);
  const sigs = [];
  for (const [a, m, s] of jobs.sigs) sigs.push(await signatureProblem(fromHex(a), fromHex(m), fromHex(s)));
  process.stdout.write(JSON.stringify({ keys, sigs }));
});
