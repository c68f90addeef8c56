// tests/web/test_web_receipt.py's driver: the browser library's receipt (clients/web/src/lib/receipt.ts)
// over each case given on stdin as JSON {server_public, cases: [{envelope, receipt_pb}]} (hex):
// prints [{envelope_hash, message, problem, problem_with_envelope}] (hex; problem null when good).
import { fromHex, hex } from "../../clients/web/src/lib/bytes.js";
import { envelopeHash, readReceipt, receiptMessage, receiptProblem } from "../../clients/web/src/lib/receipt.js";

const chunks: Buffer[] = [];
process.stdin.on("data", (c: Buffer) => chunks.push(c));
process.stdin.on("end", async () => {
  const job = JSON.parse(Buffer.concat(chunks).toString()) as { server_public: string; cases: { envelope: string; receipt_pb: string }[] };
  const pub = fromHex(job.server_public), out = [];
  for (const c of job.cases) {
    const r = readReceipt(fromHex(c.receipt_pb)), env = fromHex(c.envelope);
    out.push({ envelope_hash: hex(await envelopeHash(env)), message: hex(receiptMessage(r)),
               problem: await receiptProblem(r, pub), problem_with_envelope: await receiptProblem(r, pub, env) });
  }
  process.stdout.write(JSON.stringify(out));
});
