// tests/web/test_web_aead.py's driver: the browser library's ChaCha20-Poly1305 and sealed-value
// opening (clients/web/src/lib/aead.ts) in node over the jobs on stdin (hex), JSON
// {aead: [[key, nonce, sealed, ad]], open: [[secret, game, seq, k, commit, ct, size|null]]};
// prints {aead: [plaintext hex | null], open: [[salt hex, value hex] | error text]}.
import { fromHex, hex } from "../../clients/web/src/lib/bytes.js";
import { aeadOpen, openSealed } from "../../clients/web/src/lib/aead.js";

const chunks: Buffer[] = [];
process.stdin.on("data", (c: Buffer) => chunks.push(c));
process.stdin.on("end", async () => {
  const jobs = JSON.parse(Buffer.concat(chunks).toString()) as {
    aead: [string, string, string, string][]; open: [string, string, number, number, string, string, number | null][] };
  const aead = jobs.aead.map(([k, n, c, a]) => { const p = aeadOpen(fromHex(k), fromHex(n), fromHex(c), fromHex(a)); return p && hex(p); });
  const open = [];
  for (const [secret, game, seq, k, commit, ct, size] of jobs.open) {
    try {
      const o = await openSealed(fromHex(secret), game, seq, k, fromHex(commit), fromHex(ct), size);
      open.push([hex(o.salt), hex(o.valueBytes)]);
    } catch (e) {
      open.push((e as Error).message);
    }
  }
  process.stdout.write(JSON.stringify({ aead, open }));
});
